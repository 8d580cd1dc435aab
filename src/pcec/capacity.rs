//! The `capacity` command: EC and PC of every VM of a PM description with current demands.
//!
//! File format (`PMS.json`):
//! `{"pms": [{"pcap": 1, "vms": [{"name": "A", "min": 0.25, "max": 0.67, "share": 4, "demand": 0.3}]}]}`.

use super::sharing::{equilibrium_capacity, potential_capacities, water_fill, VmSpec};
use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Tolerance on `Σ min ≤ pCap`, so that guarantees written with decimals (0.1 + 0.2 + 0.7)
/// are not rejected for rounding.
pub const MIN_SUM_TOLERANCE: f64 = 1e-9;

/// One VM of a PM description: its sharing parameters and its current demand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VmState {
    /// Optional label echoed in the report.
    #[serde(default)]
    pub name: Option<String>,
    /// Guaranteed capacity.
    pub min: f64,
    /// Ceiling.
    pub max: f64,
    /// Weight in the split of the excess.
    pub share: f64,
    /// Current demand `δ` (0 for an idle VM; values above `max` act as `max`).
    #[serde(default)]
    pub demand: f64,
}

impl VmState {
    /// The sharing parameters alone.
    pub fn spec(&self) -> VmSpec {
        VmSpec {
            min: self.min,
            max: self.max,
            share: self.share,
        }
    }
}

fn one() -> f64 {
    1.0
}

/// One PM: its capacity and its VMs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PmState {
    /// `pCap`, 1 unless given.
    #[serde(default = "one")]
    pub pcap: f64,
    /// The co-located VMs.
    pub vms: Vec<VmState>,
}

/// A PM description file: one or more PMs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PmDescription {
    /// The PMs.
    pub pms: Vec<PmState>,
}

fn field_err(file: &Path, field: String, value: f64, reason: &str) -> crate::error::Error {
    InputError::new(file, Location::Field(field), value.to_string(), reason).into()
}

/// Checks one VM's sharing parameters; `at` is the JSON path prefix (`pms[0].vms[2]`). Shared
/// with the simulation instance so both reject the same things in the same words.
pub fn check_spec(file: &Path, at: &str, spec: &VmSpec, pcap: f64) -> Result<()> {
    if !spec.min.is_finite() || spec.min < 0.0 {
        return Err(field_err(
            file,
            format!("{at}.min"),
            spec.min,
            "min must be a finite number ≥ 0",
        ));
    }
    if !spec.max.is_finite() || spec.max <= 0.0 {
        return Err(field_err(
            file,
            format!("{at}.max"),
            spec.max,
            "max must be a finite number > 0",
        ));
    }
    if spec.min > spec.max {
        let why = format!("min {} exceeds max {}", spec.min, spec.max);
        return Err(field_err(file, format!("{at}.min"), spec.min, &why));
    }
    if !spec.share.is_finite() || spec.share <= 0.0 {
        return Err(field_err(
            file,
            format!("{at}.share"),
            spec.share,
            "share must be a finite number > 0",
        ));
    }
    if spec.min > pcap * (1.0 + MIN_SUM_TOLERANCE) {
        return Err(field_err(
            file,
            format!("{at}.min"),
            spec.min,
            "min exceeds the PM capacity pcap",
        ));
    }
    Ok(())
}

/// Checks `pCap > 0` and finite.
pub fn check_pcap(file: &Path, at: &str, pcap: f64) -> Result<()> {
    if !pcap.is_finite() || pcap <= 0.0 {
        return Err(field_err(
            file,
            at.to_string(),
            pcap,
            "pcap must be a finite number > 0",
        ));
    }
    Ok(())
}

/// Checks `Σ min ≤ pCap` (the guarantees must be satisfiable together).
pub fn check_min_sum(
    file: &Path,
    at: &str,
    mins: impl Iterator<Item = f64>,
    pcap: f64,
) -> Result<()> {
    let sum: f64 = mins.sum();
    if sum > pcap * (1.0 + MIN_SUM_TOLERANCE) {
        let why = format!("the sum of min over the VMs is {sum} > pcap {pcap}");
        return Err(field_err(file, at.to_string(), sum, &why));
    }
    Ok(())
}

impl PmDescription {
    /// Parses and validates a PM description; every rejection names the field.
    pub fn from_json(text: &str, file: &Path) -> Result<PmDescription> {
        let d: PmDescription = crate::input::parse_json(text, file, "PM description JSON")?;
        if d.pms.is_empty() {
            return Err(
                InputError::new(file, Location::Field("pms".into()), "[]", "no PMs").into(),
            );
        }
        for (p, pm) in d.pms.iter().enumerate() {
            check_pcap(file, &format!("pms[{p}].pcap"), pm.pcap)?;
            if pm.vms.is_empty() {
                let loc = Location::Field(format!("pms[{p}].vms"));
                return Err(InputError::new(file, loc, "[]", "a PM needs at least one VM").into());
            }
            for (v, vm) in pm.vms.iter().enumerate() {
                check_spec(file, &format!("pms[{p}].vms[{v}]"), &vm.spec(), pm.pcap)?;
                if !vm.demand.is_finite() || vm.demand < 0.0 {
                    let f = format!("pms[{p}].vms[{v}].demand");
                    return Err(field_err(
                        file,
                        f,
                        vm.demand,
                        "demand must be a finite number ≥ 0",
                    ));
                }
            }
            check_min_sum(
                file,
                &format!("pms[{p}].vms"),
                pm.vms.iter().map(|v| v.min),
                pm.pcap,
            )?;
        }
        Ok(d)
    }
}

/// EC, PC and the current allocation of one VM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmCapacity {
    /// The VM's label, or its index.
    pub name: String,
    /// Equilibrium capacity.
    pub ec: f64,
    /// Potential capacity in the current state.
    pub pc: f64,
    /// What the VM gets now under its current demand.
    pub allocation: f64,
}

/// The capacities of one PM's VMs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PmCapacity {
    /// Per VM, in input order.
    pub vms: Vec<VmCapacity>,
    /// Water level of the current allocation (`null` in JSON when uncontended).
    pub level: Option<f64>,
}

/// EC and PC of every VM of every PM of a validated description.
pub fn capacity(desc: &PmDescription) -> Vec<PmCapacity> {
    desc.pms
        .iter()
        .map(|pm| {
            let specs: Vec<VmSpec> = pm.vms.iter().map(VmState::spec).collect();
            let demands: Vec<f64> = pm.vms.iter().map(|v| v.demand).collect();
            let ec = equilibrium_capacity(pm.pcap, &specs);
            let pc = potential_capacities(pm.pcap, &specs, &demands);
            let now = water_fill(pm.pcap, &specs, &demands);
            let vms = pm
                .vms
                .iter()
                .enumerate()
                .map(|(k, v)| VmCapacity {
                    name: v.name.clone().unwrap_or_else(|| k.to_string()),
                    ec: ec[k],
                    pc: pc[k],
                    allocation: now.rates[k],
                })
                .collect();
            PmCapacity {
                vms,
                level: now.level.is_finite().then_some(now.level),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn parse(text: &str) -> Result<PmDescription> {
        PmDescription::from_json(text, Path::new("pms.json"))
    }

    fn field_of(r: Result<PmDescription>) -> String {
        match r {
            Err(Error::Input(e)) => match e.location {
                Location::Field(f) => f,
                other => panic!("not a field: {other:?}"),
            },
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn paper_example_through_json() {
        let d = parse(
            r#"{"pms":[{"vms":[{"name":"A","min":0.25,"max":0.67,"share":4,"demand":0.2},
            {"name":"B","min":0.1,"max":1,"share":8}]}]}"#,
        )
        .unwrap();
        let c = capacity(&d);
        assert!((c[0].vms[0].ec - 0.4667).abs() < 1e-4);
        assert!((c[0].vms[1].ec - 0.5333).abs() < 1e-4);
        // u_A = 0.2 ≤ EC_A ⇒ PC_B = min(1 − 0.2, 1) (Table I); A idle-ish ⇒ PC_A = max_A.
        assert!((c[0].vms[1].pc - 0.8).abs() < 1e-12);
        assert!((c[0].vms[0].pc - 0.67).abs() < 1e-12);
        assert_eq!(c[0].level, None);
    }

    #[test]
    fn bad_input_names_the_field() {
        let sum =
            r#"{"pms":[{"vms":[{"min":0.6,"max":1,"share":1},{"min":0.5,"max":1,"share":1}]}]}"#;
        assert_eq!(field_of(parse(sum)), "pms[0].vms");
        let minmax = r#"{"pms":[{"vms":[{"min":0.6,"max":0.5,"share":1}]}]}"#;
        assert_eq!(field_of(parse(minmax)), "pms[0].vms[0].min");
        let share0 = r#"{"pms":[{"vms":[{"min":0,"max":1,"share":1}]},{"vms":[{"min":0,"max":1,"share":0}]}]}"#;
        assert_eq!(field_of(parse(share0)), "pms[1].vms[0].share");
        let shareneg = r#"{"pms":[{"vms":[{"min":0,"max":1,"share":-2}]}]}"#;
        assert_eq!(field_of(parse(shareneg)), "pms[0].vms[0].share");
        let demand = r#"{"pms":[{"vms":[{"min":0,"max":1,"share":1,"demand":-1}]}]}"#;
        assert_eq!(field_of(parse(demand)), "pms[0].vms[0].demand");
        let pcap = r#"{"pms":[{"pcap":0,"vms":[{"min":0,"max":1,"share":1}]}]}"#;
        assert_eq!(field_of(parse(pcap)), "pms[0].pcap");
        let typo = r#"{"pms":[{"vms":[{"min":0,"max":1,"shares":1}]}]}"#;
        assert!(matches!(parse(typo), Err(Error::Input(_))));
        assert!(matches!(parse(r#"{"pms":[]}"#), Err(Error::Input(_))));
        assert!(matches!(parse(""), Err(Error::Input(_))));
        assert!(matches!(
            parse(r#"{"pms":[{"vms":[{"min":1e999,"max":1,"share":1}]}]}"#),
            Err(Error::Input(_))
        ));
    }
}
