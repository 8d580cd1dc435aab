//! The simulation scenario (`vcalloc simulate market SCENARIO.json`): nodes, market
//! parameters and applications with kind, arrival, VMs, work, deadline, budget and thresholds.

use super::instance::{check_num, Res, RESOURCES};
use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The three application types of §5.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AppKind {
    /// MPI-like lock-step app steered by Algorithm 1 towards its deadline (§5.3.1 SLO-driven).
    #[default]
    Deadline,
    /// MPI-like lock-step app with a fixed bid (§5.3.1 best-effort).
    BestEffort,
    /// Malleable task-farm framework (Condor, Torque) steered by Algorithms 2 and 3.
    Framework,
}

/// A job submitted to a framework: it needs `procs` 1-core VMs at once for `runtime_s`
/// seconds at full speed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Submission time (s from the scenario start).
    pub arrival_s: f64,
    /// VMs needed at once.
    pub procs: usize,
    /// Run time at full allocation (s).
    pub runtime_s: f64,
}

/// One application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AppSpec {
    /// Name used in the CSV.
    pub name: String,
    /// Which controller and progress model.
    pub kind: AppKind,
    /// Submission time (s).
    pub arrival_s: f64,
    /// VMs (deadline/best-effort: fixed count; framework: the most it may hold).
    pub vms: usize,
    /// Size (= cap) of each VM.
    pub vm_size: Res,
    /// Lock-step apps: iterations to run.
    pub iterations: u64,
    /// Lock-step apps: total CPU work per VM in core-seconds (over all iterations).
    pub work: f64,
    /// Deadline relative to arrival (s); `None` for none.
    pub deadline_s: Option<f64>,
    /// Credits granted at start.
    pub budget: f64,
    /// Credits granted at each renewal while the app runs.
    pub renew: f64,
    /// Initial (deadline) or fixed (best-effort) bid per VM per period.
    pub bid: Res,
    /// Thresholds: deadline apps `v_low = low·v_ref`, `v_high = high·v_ref`; frameworks
    /// compare the queued VM demand with `low` and `high` directly.
    pub thresholds: (f64, f64),
    /// Frameworks: a VM idle this long may be released (Fig. 5 `keepidle` 600 s).
    pub keep_idle_s: f64,
    /// Frameworks: the jobs.
    pub jobs: Vec<Job>,
}

impl Default for AppSpec {
    fn default() -> Self {
        AppSpec {
            name: String::new(),
            kind: AppKind::Deadline,
            arrival_s: 0.0,
            vms: 1,
            vm_size: Res::new(1.0, 900.0),
            iterations: 100,
            work: 3600.0,
            deadline_s: None,
            budget: 80_000.0,
            renew: 0.0,
            bid: Res::new(1.0, 1.0),
            thresholds: (0.75, 1.0),
            keep_idle_s: 600.0,
            jobs: Vec::new(),
        }
    }
}

/// A simulation scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Scheduling period (s); the paper uses 40 s.
    pub period_s: f64,
    /// Simulated time (s).
    pub duration_s: f64,
    /// Node capacities.
    pub nodes: Vec<Res>,
    /// `K`: VMs per node.
    pub max_vms_per_node: usize,
    /// Reserve (floor) price per unit per period.
    pub reserve_price: Res,
    /// Smallest accepted bid per VM per resource (Algorithm 1's `bid_min`).
    pub bid_min: Res,
    /// Budget renewal interval (s).
    pub renewal_interval_s: f64,
    /// The applications.
    pub apps: Vec<AppSpec>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            period_s: 40.0,
            duration_s: 86_400.0,
            nodes: vec![Res::new(8.0, 16_384.0)],
            max_vms_per_node: 8,
            reserve_price: Res::new(1.0, 0.001),
            bid_min: Res::new(0.01, 0.001),
            renewal_interval_s: 3600.0,
            apps: Vec::new(),
        }
    }
}

fn bad(file: &Path, field: String, value: impl ToString, reason: &str) -> crate::error::Error {
    InputError::new(file, Location::Field(field), value.to_string(), reason).into()
}

impl Scenario {
    /// Parses and validates a scenario; errors name the file and field.
    pub fn from_json(text: &str, file: &Path) -> Result<Scenario> {
        let s: Scenario = crate::input::parse_json(text, file, "market scenario JSON")?;
        s.validate(file)?;
        Ok(s)
    }

    /// Checks every field (finite, non-negative, sizes within nodes, counts within limits).
    pub fn validate(&self, file: &Path) -> Result<()> {
        check_num(file, "period_s".into(), self.period_s, true)?;
        check_num(file, "duration_s".into(), self.duration_s, true)?;
        check_num(
            file,
            "renewal_interval_s".into(),
            self.renewal_interval_s,
            true,
        )?;
        if self.duration_s / self.period_s > 1e8 {
            let num = crate::input::number;
            return Err(bad(
                file,
                "duration_s / period_s".into(),
                format!("{} / {}", num(self.duration_s), num(self.period_s)),
                "more than 1e8 periods: lengthen period_s or shorten duration_s",
            ));
        }
        if self.nodes.is_empty() {
            return Err(bad(
                file,
                "nodes".into(),
                "[]",
                "at least one node is needed",
            ));
        }
        if self.max_vms_per_node == 0 {
            return Err(bad(
                file,
                "max_vms_per_node".into(),
                0,
                "must be at least 1",
            ));
        }
        for (r, name) in RESOURCES.iter().enumerate() {
            check_num(
                file,
                format!("reserve_price.{name}"),
                self.reserve_price.get(r),
                false,
            )?;
            check_num(file, format!("bid_min.{name}"), self.bid_min.get(r), false)?;
            for (n, node) in self.nodes.iter().enumerate() {
                check_num(file, format!("nodes[{n}].{name}"), node.get(r), true)?;
            }
        }
        let slots = self.nodes.len() * self.max_vms_per_node;
        for (a, app) in self.apps.iter().enumerate() {
            self.validate_app(file, a, app, slots)?;
        }
        Ok(())
    }

    fn validate_app(&self, file: &Path, a: usize, app: &AppSpec, slots: usize) -> Result<()> {
        let f = |s: &str| format!("apps[{a}].{s}");
        check_num(file, f("arrival_s"), app.arrival_s, false)?;
        check_num(file, f("work"), app.work, false)?;
        check_num(file, f("budget"), app.budget, false)?;
        check_num(file, f("renew"), app.renew, false)?;
        check_num(file, f("keep_idle_s"), app.keep_idle_s, false)?;
        check_num(file, f("thresholds[0]"), app.thresholds.0, false)?;
        check_num(file, f("thresholds[1]"), app.thresholds.1, false)?;
        if app.thresholds.0 > app.thresholds.1 {
            return Err(bad(
                file,
                f("thresholds"),
                format!("{:?}", app.thresholds),
                "low exceeds high",
            ));
        }
        if let Some(d) = app.deadline_s {
            check_num(file, f("deadline_s"), d, true)?;
        }
        if app.vms == 0 || app.vms > slots {
            let why = format!("must be between 1 and the {slots} VM slots");
            return Err(bad(file, f("vms"), app.vms, &why));
        }
        if app.kind != AppKind::Framework && app.iterations == 0 {
            return Err(bad(file, f("iterations"), 0, "must be at least 1"));
        }
        for (r, name) in RESOURCES.iter().enumerate() {
            check_num(file, f(&format!("bid.{name}")), app.bid.get(r), false)?;
            check_num(
                file,
                f(&format!("vm_size.{name}")),
                app.vm_size.get(r),
                false,
            )?;
            let biggest = self.nodes.iter().map(|n| n.get(r)).fold(0.0, f64::max);
            if app.vm_size.get(r) > biggest {
                let why = format!("exceeds the largest node's {biggest}");
                return Err(bad(
                    file,
                    f(&format!("vm_size.{name}")),
                    app.vm_size.get(r),
                    &why,
                ));
            }
        }
        for (j, job) in app.jobs.iter().enumerate() {
            check_num(
                file,
                f(&format!("jobs[{j}].arrival_s")),
                job.arrival_s,
                false,
            )?;
            check_num(
                file,
                f(&format!("jobs[{j}].runtime_s")),
                job.runtime_s,
                false,
            )?;
            if job.procs == 0 || job.procs > app.vms {
                let why = format!("must be between 1 and the app's {} VMs", app.vms);
                return Err(bad(file, f(&format!("jobs[{j}].procs")), job.procs, &why));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn field(text: &str) -> String {
        match Scenario::from_json(text, Path::new("s.json")) {
            Err(Error::Input(e)) => match e.location {
                Location::Field(f) => f,
                other => format!("{other}"),
            },
            other => panic!("expected input error, got {other:?}"),
        }
    }

    #[test]
    fn bad_scenarios_name_the_field() {
        assert_eq!(field(r#"{"period_s": -40}"#), "period_s");
        assert_eq!(field(r#"{"nodes": []}"#), "nodes");
        assert_eq!(field(r#"{"apps": [{"budget": -5}]}"#), "apps[0].budget");
        assert_eq!(field(r#"{"apps": [{"vms": 0}]}"#), "apps[0].vms");
        assert_eq!(
            field(r#"{"apps": [{"vm_size": {"cpu": 64, "mem": 1}}]}"#),
            "apps[0].vm_size.cpu"
        );
        assert_eq!(
            field(
                r#"{"apps": [{"kind": "framework", "vms": 2, "jobs": [{"arrival_s": 0, "procs": 3, "runtime_s": 1}]}]}"#
            ),
            "apps[0].jobs[0].procs"
        );
        assert_eq!(
            field(r#"{"apps": [{"deadline_s": 0}]}"#),
            "apps[0].deadline_s"
        );
        assert_eq!(
            field(r#"{"apps": [{"thresholds": [2, 1]}]}"#),
            "apps[0].thresholds"
        );
        assert_eq!(field(r#"{"apps": [{"kind": "nope"}]}"#), "apps[0].kind");
        assert_eq!(field(r#"{"bogus": 1}"#), "bogus");
    }

    #[test]
    fn good_scenario_parses() {
        let s = Scenario::from_json(
            r#"{"apps": [{"name": "a", "deadline_s": 3600}]}"#,
            Path::new("s.json"),
        )
        .unwrap();
        assert_eq!(s.apps[0].deadline_s, Some(3600.0));
    }
}
