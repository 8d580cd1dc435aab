//! A simulation instance: a homogeneous cluster (PMs × VMs with one sharing setting) and a
//! job list, from JSON or from an SWF trace.

use super::capacity::{check_min_sum, check_pcap, check_spec};
use super::sharing::VmSpec;
use super::swf::{read_swf, SwfOptions, SwfTrace};
use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest cluster accepted (PMs × VMs), so that a typo cannot allocate gigabytes.
pub const MAX_VMS: usize = 10_000_000;

/// One job: its arrival and its work in PM-seconds (the trace run time: on the trace's
/// dedicated machine it ran at rate 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Job number (SWF field 1), unique within the instance.
    pub id: i64,
    /// Arrival time, seconds (before the arrival factor).
    pub submit: f64,
    /// Work `p_j`, capacity-seconds.
    pub work: f64,
}

fn one() -> f64 {
    1.0
}

/// The cluster and the jobs. JSON:
/// `{"pms": 30, "vms_per_pm": 4, "vm": {"min": 0, "max": 1, "share": 1}, "jobs": [{"id": 1, "submit": 0, "work": 120}]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Number of PMs.
    pub pms: usize,
    /// VMs on each PM.
    pub vms_per_pm: usize,
    /// Sharing setting of every VM (the paper: min 0, max 1, equal shares).
    #[serde(default)]
    pub vm: VmSpec,
    /// Capacity of each PM (`pCap`), 1 unless given.
    #[serde(default = "one")]
    pub pcap: f64,
    /// The jobs, in any order (the simulation takes them by submit time, then list order).
    pub jobs: Vec<Job>,
}

/// The longest time (submit, work) an instance may hold, about 31,700 years: the simulation
/// adds and multiplies times, and beyond this a sum of them loses every second or overflows.
pub const MAX_SECONDS: f64 = 1e12;

impl Instance {
    /// Parses and validates an instance; every rejection names the field.
    pub fn from_json(text: &str, file: &Path) -> Result<Instance> {
        let inst: Instance = crate::input::parse_json(text, file, "JSON")?;
        inst.validate(file)?;
        Ok(inst)
    }

    /// Checks every field (shared by JSON and trace loading).
    pub fn validate(&self, file: &Path) -> Result<()> {
        let err = |f: &str, v: String, why: String| -> crate::Error {
            InputError::new(file, Location::Field(f.into()), v, why).into()
        };
        if self.pms == 0 {
            return Err(err("pms", "0".into(), "at least one PM is needed".into()));
        }
        if self.vms_per_pm == 0 {
            return Err(err(
                "vms_per_pm",
                "0".into(),
                "at least one VM per PM is needed".into(),
            ));
        }
        match self.pms.checked_mul(self.vms_per_pm) {
            Some(n) if n <= MAX_VMS => {}
            _ => {
                let why = format!("pms × vms_per_pm exceeds the limit {MAX_VMS}");
                // The larger factor is the likelier mistake.
                let (key, v) = match self.vms_per_pm > self.pms {
                    true => ("vms_per_pm", self.vms_per_pm),
                    false => ("pms", self.pms),
                };
                return Err(err(key, v.to_string(), why));
            }
        }
        check_pcap(file, "pcap", self.pcap)?;
        check_spec(file, "vm", &self.vm, self.pcap)?;
        check_min_sum(
            file,
            "vm.min",
            std::iter::repeat_n(self.vm.min, self.vms_per_pm),
            self.pcap,
        )?;
        if self.jobs.is_empty() {
            return Err(err("jobs", "[]".into(), "no jobs".into()));
        }
        let mut ids = std::collections::HashSet::with_capacity(self.jobs.len());
        for (k, j) in self.jobs.iter().enumerate() {
            if !j.submit.is_finite() || j.submit < 0.0 || j.submit > MAX_SECONDS {
                let why = format!("submit must be a number of seconds in [0, {MAX_SECONDS:e}]");
                let v = crate::input::number(j.submit);
                return Err(err(&format!("jobs[{k}].submit"), v, why));
            }
            if !j.work.is_finite() || j.work <= 0.0 || j.work > MAX_SECONDS {
                let why = format!("work must be a number of seconds in (0, {MAX_SECONDS:e}]");
                return Err(err(
                    &format!("jobs[{k}].work"),
                    crate::input::number(j.work),
                    why,
                ));
            }
            if !ids.insert(j.id) {
                let why = "job ids must be unique".into();
                return Err(err(&format!("jobs[{k}].id"), j.id.to_string(), why));
            }
        }
        Ok(())
    }

    /// The kept jobs of an SWF trace (serial, run time > 0, by default) on a cluster, submit
    /// times shifted so that the first kept job arrives at 0.
    pub fn from_swf(
        path: &Path,
        opts: &SwfOptions,
        pms: usize,
        vms_per_pm: usize,
        vm: VmSpec,
    ) -> Result<Instance> {
        Instance::from_trace(read_swf(path, opts)?, path, pms, vms_per_pm, vm)
    }

    /// [`Instance::from_swf`] of a trace already parsed from `path`.
    pub fn from_trace(
        trace: SwfTrace,
        path: &Path,
        pms: usize,
        vms_per_pm: usize,
        vm: VmSpec,
    ) -> Result<Instance> {
        let Some(first) = trace.jobs.first() else {
            let why = "the trace has no job that passes the filter (serial, run time > 0)";
            return Err(InputError::new(path, Location::File, "", why).into());
        };
        let t0 = first.submit;
        let mut seen = std::collections::HashSet::with_capacity(trace.jobs.len());
        let mut jobs = Vec::with_capacity(trace.jobs.len());
        for j in &trace.jobs {
            if !seen.insert(j.id) {
                let loc = Location::Line(j.line, Some("job number".into()));
                return Err(
                    InputError::new(path, loc, j.id.to_string(), "duplicate job number").into(),
                );
            }
            for (field, v) in [("submit time", j.submit - t0), ("run time", j.run_time)] {
                if v > MAX_SECONDS {
                    let loc = Location::Line(j.line, Some(field.into()));
                    let why = format!(
                        "beyond {MAX_SECONDS:e} s: sums of such times overflow the simulation"
                    );
                    return Err(InputError::new(path, loc, crate::input::number(v), why).into());
                }
            }
            jobs.push(Job {
                id: j.id,
                submit: j.submit - t0,
                work: j.run_time,
            });
        }
        let inst = Instance {
            pms,
            vms_per_pm,
            vm,
            pcap: 1.0,
            jobs,
        };
        inst.validate(Path::new("<arguments>"))?;
        Ok(inst)
    }

    /// Total VMs.
    pub fn vm_count(&self) -> usize {
        self.pms * self.vms_per_pm
    }

    /// Offered load on the cluster's capacity: `Σ work / (pms · pCap · arrival span)` — how
    /// busy the cluster would be if it kept up; ∞ when all jobs arrive at once.
    pub fn offered_load(&self) -> f64 {
        let lo = self
            .jobs
            .iter()
            .map(|j| j.submit)
            .fold(f64::INFINITY, f64::min);
        let hi = self
            .jobs
            .iter()
            .map(|j| j.submit)
            .fold(f64::NEG_INFINITY, f64::max);
        let work: f64 = self.jobs.iter().map(|j| j.work).sum();
        work / (self.pms as f64 * self.pcap * (hi - lo))
    }

    /// Ideal (isolated) run time of a job: alone on its PM it runs at `min(max, pCap)`.
    pub fn ideal_runtime(&self, work: f64) -> f64 {
        work / self.vm.max.min(self.pcap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn field(text: &str) -> String {
        match Instance::from_json(text, Path::new("i.json")) {
            Err(Error::Input(e)) => match e.location {
                Location::Field(f) => f,
                other => panic!("{other:?}"),
            },
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn parses_the_issue_example() {
        let t = r#"{"pms": 30, "vms_per_pm": 4, "vm": {"min": 0, "max": 1, "share": 1}, "jobs": [{"id": 1, "submit": 0, "work": 120}]}"#;
        let i = Instance::from_json(t, Path::new("i.json")).unwrap();
        assert_eq!(i.vm_count(), 120);
        assert_eq!(i.pcap, 1.0);
    }

    #[test]
    fn rejections_name_the_field() {
        let j = r#""jobs":[{"id":1,"submit":0,"work":1}]"#;
        assert_eq!(field(&format!(r#"{{"pms":0,"vms_per_pm":4,{j}}}"#)), "pms");
        assert_eq!(
            field(&format!(r#"{{"pms":1,"vms_per_pm":0,{j}}}"#)),
            "vms_per_pm"
        );
        assert_eq!(
            field(&format!(
                r#"{{"pms":1,"vms_per_pm":4,"vm":{{"min":0.3,"max":1,"share":1}},{j}}}"#
            )),
            "vm.min"
        );
        assert_eq!(
            field(&format!(
                r#"{{"pms":1,"vms_per_pm":4,"vm":{{"min":0,"max":1,"share":0}},{j}}}"#
            )),
            "vm.share"
        );
        assert_eq!(
            field(&format!(
                r#"{{"pms":1,"vms_per_pm":4,"vm":{{"min":0.5,"max":0.4,"share":1}},{j}}}"#
            )),
            "vm.min"
        );
        assert_eq!(
            field(r#"{"pms":1,"vms_per_pm":1,"jobs":[{"id":1,"submit":0,"work":0}]}"#),
            "jobs[0].work"
        );
        assert_eq!(
            field(r#"{"pms":1,"vms_per_pm":1,"jobs":[{"id":1,"submit":-1,"work":1}]}"#),
            "jobs[0].submit"
        );
        assert_eq!(
            field(
                r#"{"pms":1,"vms_per_pm":1,"jobs":[{"id":1,"submit":0,"work":1},{"id":1,"submit":0,"work":1}]}"#
            ),
            "jobs[1].id"
        );
        assert_eq!(field(r#"{"pms":1,"vms_per_pm":1,"jobs":[]}"#), "jobs");
        assert_eq!(
            field(&format!(
                r#"{{"pms":4000000000,"vms_per_pm":4000000000,{j}}}"#
            )),
            "pms"
        );
    }
}
