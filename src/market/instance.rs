//! The rebalance instance of issue 21: nodes, VMs with their current node, per-resource bids
//! and caps, the per-node VM limit `K` and the per-period migration limit `M`.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A CPU/memory pair: node capacities, VM bids (credits per period) and caps.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Res {
    /// CPU: cores for capacities and caps, credits for bids.
    pub cpu: f64,
    /// Memory: MB for capacities and caps, credits for bids.
    pub mem: f64,
}

impl Res {
    /// Builds a pair.
    pub fn new(cpu: f64, mem: f64) -> Self {
        Res { cpu, mem }
    }
    /// Component `r` (0 = cpu, 1 = mem): lets algorithms loop over resources.
    pub fn get(&self, r: usize) -> f64 {
        if r == 0 {
            self.cpu
        } else {
            self.mem
        }
    }
    /// Sets component `r`.
    pub fn set(&mut self, r: usize, v: f64) {
        if r == 0 {
            self.cpu = v
        } else {
            self.mem = v
        }
    }
    /// Sum of the two components (a VM's total bid).
    pub fn total(&self) -> f64 {
        self.cpu + self.mem
    }
}

/// The resources in loop order, with their JSON names.
pub const RESOURCES: [&str; 2] = ["cpu", "mem"];

/// A VM in a rebalance instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vm {
    /// Index of the node it runs on now.
    pub node: usize,
    /// Bid per resource for this period.
    pub bid: Res,
    /// Maximum allocation per resource (the VM's size).
    pub cap: Res,
}

/// A load-balancing instance (§3.1): place VMs to minimise the largest allocation error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Node capacities.
    pub nodes: Vec<Res>,
    /// VMs with their current placement.
    pub vms: Vec<Vm>,
    /// `K`: at most this many VMs per node.
    pub max_vms_per_node: usize,
    /// `M`: at most this many VMs may change node in this period.
    pub migrations: usize,
}

fn bad(file: &Path, field: String, value: impl ToString, reason: &str) -> crate::error::Error {
    InputError::new(file, Location::Field(field), value.to_string(), reason).into()
}

/// Rejects NaN, infinite and negative numbers; `positive` also rejects zero.
pub(crate) fn check_num(file: &Path, field: String, v: f64, positive: bool) -> Result<()> {
    if !v.is_finite() {
        return Err(bad(file, field, v, "must be a finite number"));
    }
    if v < 0.0 || (positive && v == 0.0) {
        let why = if positive {
            "must be positive"
        } else {
            "must not be negative"
        };
        return Err(bad(file, field, v, why));
    }
    Ok(())
}

impl Instance {
    /// Parses and validates a rebalance instance; errors name the file and field.
    pub fn from_json(text: &str, file: &Path) -> Result<Instance> {
        let inst: Instance = crate::input::parse_json(text, file, "rebalance instance JSON")?;
        inst.validate(file)?;
        Ok(inst)
    }

    /// Checks every field: capacities positive and finite, bids and caps finite and
    /// non-negative, caps within the VM's node, nodes known, at most `K` VMs per node.
    pub fn validate(&self, file: &Path) -> Result<()> {
        if self.nodes.is_empty() {
            return Err(bad(
                file,
                "nodes".into(),
                "[]",
                "at least one node is needed",
            ));
        }
        for (n, node) in self.nodes.iter().enumerate() {
            for (r, name) in RESOURCES.iter().enumerate() {
                check_num(file, format!("nodes[{n}].{name}"), node.get(r), true)?;
            }
        }
        if self.max_vms_per_node == 0 {
            return Err(bad(
                file,
                "max_vms_per_node".into(),
                0,
                "must be at least 1",
            ));
        }
        let mut count = vec![0usize; self.nodes.len()];
        for (v, vm) in self.vms.iter().enumerate() {
            if vm.node >= self.nodes.len() {
                let why = format!("unknown node (there are {} nodes)", self.nodes.len());
                return Err(bad(file, format!("vms[{v}].node"), vm.node, &why));
            }
            for (r, name) in RESOURCES.iter().enumerate() {
                check_num(file, format!("vms[{v}].bid.{name}"), vm.bid.get(r), false)?;
                check_num(file, format!("vms[{v}].cap.{name}"), vm.cap.get(r), false)?;
                let c = self.nodes[vm.node].get(r);
                if vm.cap.get(r) > c {
                    let why = format!(
                        "cap exceeds the capacity {} of node {}",
                        crate::input::number(c),
                        vm.node
                    );
                    return Err(bad(
                        file,
                        format!("vms[{v}].cap.{name}"),
                        vm.cap.get(r),
                        &why,
                    ));
                }
            }
            count[vm.node] += 1;
            if count[vm.node] > self.max_vms_per_node {
                let why = format!(
                    "node {} holds more than max_vms_per_node = {} VMs",
                    vm.node, self.max_vms_per_node
                );
                return Err(bad(file, format!("vms[{v}].node"), vm.node, &why));
            }
        }
        Ok(())
    }

    /// The paper's §3.1 example: 3 nodes × 100 CPU, bids 12, 12, 12 on node 0 and 30, 30 on
    /// nodes 1 and 2 (memory unused: bid 0, cap 0), caps 100, K = 8, M = 3.
    pub fn paper_example() -> Instance {
        let node = Res::new(100.0, 1.0);
        let vm = |node, b| Vm {
            node,
            bid: Res::new(b, 0.0),
            cap: Res::new(100.0, 0.0),
        };
        Instance {
            nodes: vec![node; 3],
            vms: vec![vm(0, 12.), vm(0, 12.), vm(0, 12.), vm(1, 30.), vm(2, 30.)],
            max_vms_per_node: 8,
            migrations: 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    const OK: &str = r#"{"nodes": [{"cpu": 8, "mem": 8192}], "vms": [{"node": 0, "bid": {"cpu": 12, "mem": 3}, "cap": {"cpu": 1, "mem": 900}}], "max_vms_per_node": 8, "migrations": 3}"#;

    fn field_of(text: &str) -> String {
        match Instance::from_json(text, Path::new("x.json")) {
            Err(Error::Input(e)) => match e.location {
                Location::Field(f) => f,
                other => format!("{other}"),
            },
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn issue_example_parses() {
        let i = Instance::from_json(OK, Path::new("x.json")).unwrap();
        assert_eq!(i.vms[0].cap.mem, 900.0);
    }

    #[test]
    fn bad_inputs_name_the_field() {
        let neg_bid = OK.replace(r#""cpu": 12"#, r#""cpu": -1"#);
        assert_eq!(field_of(&neg_bid), "vms[0].bid.cpu");
        let neg_cap = OK.replace(r#""cpu": 8"#, r#""cpu": -8"#);
        assert_eq!(field_of(&neg_cap), "nodes[0].cpu");
        let big_cap = OK.replace(r#""mem": 900"#, r#""mem": 9000"#);
        assert_eq!(field_of(&big_cap), "vms[0].cap.mem");
        let unknown = OK.replace(r#""node": 0"#, r#""node": 4"#);
        assert_eq!(field_of(&unknown), "vms[0].node");
        let k = OK.replace(r#""max_vms_per_node": 8"#, r#""max_vms_per_node": 0"#);
        assert_eq!(field_of(&k), "max_vms_per_node");
        let nan = OK.replace(r#""cpu": 12"#, r#""cpu": NaN"#);
        assert!(field_of(&nan).starts_with("vms[0].bid"));
        let huge = OK.replace(r#""cpu": 12"#, r#""cpu": 1e400"#);
        assert!(field_of(&huge).starts_with("vms[0].bid"));
        let extra = OK.replace(r#""migrations": 3"#, r#""migrations": -3"#);
        assert_eq!(field_of(&extra), "migrations");
        assert_eq!(field_of(""), "file");
    }

    #[test]
    fn too_many_vms_on_a_node() {
        let vm = r#"{"node": 0, "bid": {"cpu": 1, "mem": 1}, "cap": {"cpu": 1, "mem": 1}}"#;
        let text = format!(
            r#"{{"nodes": [{{"cpu": 8, "mem": 8192}}], "vms": [{vm},{vm},{vm}], "max_vms_per_node": 2, "migrations": 0}}"#
        );
        assert_eq!(field_of(&text), "vms[2].node");
    }
}
