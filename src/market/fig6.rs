//! Fig. 6 (§5.4.1) in simulation: one deadline-driven lock-step app (ideal 77.5 min) under
//! Algorithm 1 with deadlines 200, 150 and 100 min while four best-effort apps arrive.

use super::instance::Res;
use super::plot::{lines, to_error, Series};
use super::scenario::{AppKind, AppSpec, Scenario};
use super::sim::{simulate, SimSettings};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The experiment's parameters (Table 1: one node, 4-core / 900 MB VMs; the rest unstated).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fig6Spec {
    /// Deadlines to run (min).
    pub deadlines_min: Vec<f64>,
    /// Ideal run time at full allocation (min).
    pub ideal_min: f64,
    /// Iterations of the app.
    pub iterations: u64,
    /// The node (8 cores: two 4-core VMs fit, Table 1's "max VM capacity 2").
    pub node: Res,
    /// VM slots on the node (five apps share it).
    pub max_vms_per_node: usize,
    /// VM size.
    pub vm: Res,
    /// Arrival times of the best-effort apps (min).
    pub best_effort_arrivals_min: Vec<f64>,
    /// Fixed bid per best-effort VM.
    pub best_effort_bid: Res,
    /// Budget and renewal of the deadline app (Fig. 5: 80,000 each).
    pub budget: f64,
    /// Renewal amount.
    pub renew: f64,
    /// Renewal interval (s; Fig. 5's reference 10,800 s).
    pub renewal_interval_s: f64,
    /// `(low, high)` thresholds as fractions of `v_ref` (the text's "75 %").
    pub thresholds: (f64, f64),
    /// Interference levels to run (0 = none).
    pub interference: Vec<f64>,
}

impl Default for Fig6Spec {
    fn default() -> Self {
        Fig6Spec {
            deadlines_min: vec![200.0, 150.0, 100.0],
            ideal_min: 77.5,
            iterations: 500,
            node: Res::new(8.0, 16_384.0),
            max_vms_per_node: 5,
            vm: Res::new(4.0, 900.0),
            best_effort_arrivals_min: vec![10.0, 20.0, 30.0, 40.0],
            best_effort_bid: Res::new(4.0, 1.0),
            budget: 80_000.0,
            renew: 80_000.0,
            renewal_interval_s: 10_800.0,
            thresholds: (0.75, 1.0),
            interference: vec![0.0, 0.1],
        }
    }
}

/// One run: a deadline and an interference level.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fig6Run {
    /// Deadline (min).
    pub deadline_min: f64,
    /// Interference per co-located VM.
    pub interference: f64,
    /// Finish time (min), if finished within the horizon.
    pub finish_min: Option<f64>,
    /// Deadline met.
    pub met: bool,
    /// Mean CPU bid after the last best-effort arrival.
    pub mean_bid_after: f64,
    /// Mean CPU allocation (cores) after the last arrival.
    pub mean_cpu_after: f64,
    /// Credits spent.
    pub spent: f64,
    /// `(minute, bid, cpu, iteration s, reference s)` per period.
    pub series: Vec<(f64, f64, f64, f64, f64)>,
}

/// The reproduction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fig6 {
    /// Parameters used.
    pub spec: Fig6Spec,
    /// One run per (interference, deadline).
    pub runs: Vec<Fig6Run>,
    /// Algorithm 1's reading used.
    pub reading: String,
}

fn scenario(spec: &Fig6Spec, deadline_min: f64) -> Scenario {
    let work = spec.ideal_min * 60.0 * spec.vm.cpu;
    let mut apps = vec![AppSpec {
        name: "slo".into(),
        kind: AppKind::Deadline,
        vm_size: spec.vm,
        iterations: spec.iterations,
        work,
        deadline_s: Some(deadline_min * 60.0),
        budget: spec.budget,
        renew: spec.renew,
        bid: spec.best_effort_bid,
        thresholds: spec.thresholds,
        ..AppSpec::default()
    }];
    for (k, &arr) in spec.best_effort_arrivals_min.iter().enumerate() {
        apps.push(AppSpec {
            name: format!("be{}", k + 1),
            kind: AppKind::BestEffort,
            arrival_s: arr * 60.0,
            vm_size: spec.vm,
            iterations: 1000,
            work: 1e9,
            budget: 1e9,
            bid: spec.best_effort_bid,
            ..AppSpec::default()
        });
    }
    Scenario {
        duration_s: deadline_min.max(spec.ideal_min) * 60.0 * 1.5,
        nodes: vec![spec.node],
        max_vms_per_node: spec.max_vms_per_node,
        renewal_interval_s: spec.renewal_interval_s,
        apps,
        ..Scenario::default()
    }
}

/// Runs every deadline at every interference level.
pub fn fig6(spec: &Fig6Spec, settings: &SimSettings) -> Fig6 {
    let mut runs = Vec::new();
    let last_arrival = spec
        .best_effort_arrivals_min
        .iter()
        .copied()
        .fold(0.0, f64::max);
    for &inter in &spec.interference {
        for &d in &spec.deadlines_min {
            let sc = scenario(spec, d);
            let set = SimSettings {
                interference: inter,
                stop_when_done: false,
                ..settings.clone()
            };
            let r = simulate(&sc, &set);
            let slo: Vec<_> = r.rows.iter().filter(|row| row.app == "slo").collect();
            let after: Vec<_> = slo
                .iter()
                .filter(|row| row.time_s / 60.0 >= last_arrival)
                .collect();
            let mean = |f: &dyn Fn(&&&super::sim::Row) -> f64| {
                if after.is_empty() {
                    0.0
                } else {
                    after.iter().map(f).sum::<f64>() / after.len() as f64
                }
            };
            let series = slo
                .iter()
                .map(|row| {
                    let left_t = d * 60.0 - row.time_s;
                    let left_i = (1.0 - row.progress) * spec.iterations as f64;
                    (
                        row.time_s / 60.0,
                        row.bid_cpu,
                        row.alloc_cpu,
                        row.iteration_s,
                        if left_i > 0.0 { left_t / left_i } else { 0.0 },
                    )
                })
                .collect();
            let out = &r.apps[0];
            runs.push(Fig6Run {
                deadline_min: d,
                interference: inter,
                finish_min: out.finish_s.map(|f| f / 60.0),
                met: out.met == Some(true),
                mean_bid_after: mean(&|r| r.bid_cpu),
                mean_cpu_after: mean(&|r| r.alloc_cpu),
                spent: out.spent,
                series,
            });
        }
    }
    Fig6 {
        spec: spec.clone(),
        runs,
        reading: format!("{:?}", settings.vertical.reading),
    }
}

impl Fig6 {
    /// The paper's outcome beside ours.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("## Fig. 6 — vertical scaling (§5.4.1), in simulation\n\n");
        s += &format!(
            "One node ({} cores), deadline-driven app in one {}-core VM (ideal {} min), four best-effort apps arriving at {:?} min with a fixed bid of {} credits per VM per period (reserve price 1 credit/core). Algorithm 1, reading `{}`. Interference: slowdown per other VM on the node (0 = none).\n\n",
            self.spec.node.cpu, self.spec.vm.cpu, self.spec.ideal_min, self.spec.best_effort_arrivals_min, self.spec.best_effort_bid.cpu, self.reading
        );
        s += "| deadline (min) | interference | paper: met? | ours: finish (min) | ours: met? | mean CPU bid after arrivals | mean cores after arrivals | credits spent |\n|---|---|---|---|---|---|---|---|\n";
        for r in &self.runs {
            let paper = if r.deadline_min >= 150.0 {
                "yes"
            } else {
                "no (interference)"
            };
            let fin = r.finish_min.map_or("—".into(), |f| format!("{f:.1}"));
            s += &format!(
                "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.0} |\n",
                r.deadline_min,
                r.interference,
                paper,
                fin,
                if r.met { "yes" } else { "no" },
                r.mean_bid_after,
                r.mean_cpu_after,
                r.spent
            );
        }
        s += "\nPaper (qualitative, Fig. 6): the bid stabilises once all apps have arrived; the 100-min app demands the maximum allocation and bids far higher; 200 and 150 min meet the deadline on a reduced allocation; 100 min misses because of performance interference.\n";
        s
    }

    /// Writes `fig6_bid.svg`, `fig6_cpu.svg` and `fig6_iteration.svg` into `dir`.
    pub fn write_plots(&self, dir: &Path) -> crate::error::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        let pick = |f: fn(&(f64, f64, f64, f64, f64)) -> f64| -> Vec<Series> {
            self.runs
                .iter()
                .map(|r| {
                    (
                        format!("{} min, interf. {}", r.deadline_min, r.interference),
                        r.series.iter().map(|p| (p.0, f(p))).collect(),
                    )
                })
                .collect()
        };
        let plots: [(&str, &str, &str, Vec<Series>); 3] = [
            (
                "fig6_bid.svg",
                "(a) CPU bid",
                "credits per period",
                pick(|p| p.1),
            ),
            ("fig6_cpu.svg", "(b) CPU allocation", "cores", pick(|p| p.2)),
            (
                "fig6_iteration.svg",
                "(c) iteration time",
                "seconds",
                pick(|p| if p.3 >= 0.0 { p.3.min(200.0) } else { f64::NAN }),
            ),
        ];
        for (name, title, y, series) in plots.iter() {
            let path = dir.join(name);
            lines(&path, title, "minutes", y, series).map_err(|m| to_error(&path, m))?;
            out.push(path);
        }
        Ok(out)
    }
}
