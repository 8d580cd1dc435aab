//! Fig. 7 (§5.4.2) in simulation: two malleable frameworks (Condor-like parameter sweep,
//! Torque-like MPI jobs from the Lublin trace) with equal budgets on 20 nodes / 160 VM slots,
//! each steered by Algorithms 2 and 3.

use super::generate::normal;
use super::instance::Res;
use super::plot::{lines, to_error, Series};
use super::scenario::{AppKind, AppSpec, Job, Scenario};
use super::sim::{simulate, SimSettings};
use super::swf::lublin;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Parameters (Table 1 row 2; job mixes and timings are unstated in the paper).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fig7Spec {
    /// Nodes.
    pub nodes: usize,
    /// Node capacity.
    pub node: Res,
    /// VM slots per node (160 in all).
    pub max_vms_per_node: usize,
    /// Worker VM size.
    pub vm: Res,
    /// Condor jobs (the paper: 5,000 `stress` runs), all submitted at time 0.
    pub condor_jobs: usize,
    /// Mean and standard deviation of their Gaussian run time (s).
    pub condor_runtime: (f64, f64),
    /// Torque jobs from the Lublin trace with 1–8 processors (the paper: 33).
    pub torque_jobs: usize,
    /// Torque submissions are spread over `[start, start + span]` (s).
    pub torque_window_s: (f64, f64),
    /// Torque run times are capped at this (s).
    pub torque_max_runtime_s: f64,
    /// Budget renewal interval (s); each framework's budget and renewal afford all slots at
    /// the reserve price for one interval.
    pub renewal_interval_s: f64,
    /// Simulated time (s).
    pub duration_s: f64,
    /// Seed for run times and the trace window.
    pub seed: u64,
}

impl Default for Fig7Spec {
    fn default() -> Self {
        Fig7Spec {
            nodes: 20,
            node: Res::new(8.0, 16_384.0),
            max_vms_per_node: 8,
            vm: Res::new(1.0, 900.0),
            condor_jobs: 5000,
            condor_runtime: (300.0, 100.0),
            torque_jobs: 33,
            torque_window_s: (3600.0, 3.0 * 3600.0),
            torque_max_runtime_s: 3600.0,
            renewal_interval_s: 3600.0,
            duration_s: 12.0 * 3600.0,
            seed: 1,
        }
    }
}

/// The reproduction's output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fig7 {
    /// Parameters used.
    pub spec: Fig7Spec,
    /// `(minute, condor VMs, condor queued, torque VMs, torque queued)` per period.
    pub series: Vec<(f64, usize, usize, usize, usize)>,
    /// Largest Condor VM count while Torque held no VM and had nothing queued.
    pub condor_max_alone: usize,
    /// Mean VMs of Condor and Torque over periods where both had queued jobs.
    pub mean_both_busy: (f64, f64),
    /// Periods where both had queued jobs.
    pub periods_both_busy: usize,
    /// Finish times (min) of Condor and Torque.
    pub finish_min: (Option<f64>, Option<f64>),
    /// Largest Torque VM count.
    pub torque_max: usize,
    /// Saturated variant (both frameworks get Condor-like jobs at t = 0): mean VMs of each
    /// over the second half of the periods where both had queued jobs.
    pub saturated_mean: (f64, f64),
}

fn scenario(spec: &Fig7Spec, saturated: bool) -> Scenario {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let condor: Vec<Job> = (0..spec.condor_jobs)
        .map(|_| Job {
            arrival_s: 0.0,
            procs: 1,
            runtime_s: (spec.condor_runtime.0 + spec.condor_runtime.1 * normal(&mut rng)).max(10.0),
        })
        .collect();
    let trace: Vec<_> = lublin()
        .into_iter()
        .filter(|j| (1..=8).contains(&j.procs) && j.runtime_s > 0.0)
        .collect();
    let n = spec.torque_jobs.clamp(1, trace.len());
    let off = rng.random_range(0..=trace.len() - n);
    let pick = &trace[off..off + n];
    let (t0, t1) = (
        pick[0].submit_s,
        pick[n - 1].submit_s.max(pick[0].submit_s + 1.0),
    );
    let torque: Vec<Job> = pick
        .iter()
        .map(|j| Job {
            arrival_s: spec.torque_window_s.0
                + (j.submit_s - t0) / (t1 - t0) * (spec.torque_window_s.1 - spec.torque_window_s.0),
            procs: j.procs,
            runtime_s: j.runtime_s.min(spec.torque_max_runtime_s),
        })
        .collect();
    let slots = spec.nodes * spec.max_vms_per_node;
    let reserve = Scenario::default().reserve_price;
    let per_period = slots as f64 * (reserve.cpu * spec.vm.cpu + reserve.mem * spec.vm.mem);
    let budget = per_period * spec.renewal_interval_s / Scenario::default().period_s;
    let fw = |name: &str, jobs: Vec<Job>| AppSpec {
        name: name.into(),
        kind: AppKind::Framework,
        vms: slots,
        vm_size: spec.vm,
        budget,
        renew: budget,
        thresholds: (0.5, 0.5),
        keep_idle_s: 600.0,
        jobs,
        ..AppSpec::default()
    };
    Scenario {
        duration_s: spec.duration_s,
        nodes: vec![spec.node; spec.nodes],
        max_vms_per_node: spec.max_vms_per_node,
        renewal_interval_s: spec.renewal_interval_s,
        apps: vec![
            fw("condor", condor.clone()),
            fw("torque", if saturated { condor } else { torque }),
        ],
        ..Scenario::default()
    }
}

/// Runs the two-framework scenario.
pub fn fig7(spec: &Fig7Spec, settings: &SimSettings) -> Fig7 {
    let sc = scenario(spec, false);
    let r = simulate(
        &sc,
        &SimSettings {
            record_rows: true,
            ..settings.clone()
        },
    );
    let sat = simulate(
        &scenario(spec, true),
        &SimSettings {
            record_rows: true,
            ..settings.clone()
        },
    );
    let saturated_mean = saturated_split(&sat.rows);
    let mut by_t: std::collections::BTreeMap<i64, (usize, usize, usize, usize)> =
        Default::default();
    for row in &r.rows {
        let e = by_t.entry(row.time_s as i64).or_default();
        if row.app == "condor" {
            (e.0, e.1) = (row.vms, row.queued);
        } else {
            (e.2, e.3) = (row.vms, row.queued);
        }
    }
    let series: Vec<_> = by_t
        .iter()
        .map(|(&t, &(a, b, c, d))| (t as f64 / 60.0, a, b, c, d))
        .collect();
    let torque_idle: Vec<_> = r
        .rows
        .iter()
        .filter(|row| row.app == "torque")
        .map(|row| (row.time_s as i64, row.running == 0 && row.queued == 0))
        .collect();
    let idle_at = |t: i64| torque_idle.iter().find(|x| x.0 == t).is_none_or(|x| x.1);
    let condor_max_alone = series
        .iter()
        .filter(|s| idle_at((s.0 * 60.0).round() as i64))
        .map(|s| s.1)
        .max()
        .unwrap_or(0);
    let both: Vec<_> = series.iter().filter(|s| s.2 > 0 && s.4 > 0).collect();
    let nb = both.len().max(1) as f64;
    let mean_both_busy = (
        both.iter().map(|s| s.1 as f64).sum::<f64>() / nb,
        both.iter().map(|s| s.3 as f64).sum::<f64>() / nb,
    );
    let periods_both_busy = both.len();
    let torque_max = series.iter().map(|s| s.3).max().unwrap_or(0);
    Fig7 {
        spec: spec.clone(),
        series,
        condor_max_alone,
        mean_both_busy,
        periods_both_busy,
        torque_max,
        saturated_mean,
        finish_min: (
            r.apps[0].finish_s.map(|f| f / 60.0),
            r.apps[1].finish_s.map(|f| f / 60.0),
        ),
    }
}

/// Mean VMs of the two apps over the second half of the periods where both queues are
/// non-empty (the steady state of the saturated run).
fn saturated_split(rows: &[super::sim::Row]) -> (f64, f64) {
    let mut by_t: std::collections::BTreeMap<i64, [(usize, usize); 2]> = Default::default();
    for row in rows {
        let k = usize::from(row.app != "condor");
        by_t.entry(row.time_s as i64).or_default()[k] = (row.vms, row.queued);
    }
    let both: Vec<[(usize, usize); 2]> = by_t
        .values()
        .copied()
        .filter(|x| x[0].1 > 0 && x[1].1 > 0)
        .collect();
    let half = &both[both.len() / 2..];
    let n = half.len().max(1) as f64;
    (
        half.iter().map(|x| x[0].0 as f64).sum::<f64>() / n,
        half.iter().map(|x| x[1].0 as f64).sum::<f64>() / n,
    )
}

impl Fig7 {
    /// The paper's observations beside ours.
    pub fn to_markdown(&self) -> String {
        let slots = self.spec.nodes * self.spec.max_vms_per_node;
        let f = |x: Option<f64>| x.map_or("not finished".into(), |v| format!("{v:.0} min"));
        let mut s = String::from("## Fig. 7 — horizontal scaling (§5.4.2), in simulation\n\n");
        s += &format!(
            "{} nodes, {} VM slots of {} core / {} MB; Condor: {} jobs at t = 0 (Gaussian run time {:?} s); Torque: {} Lublin jobs of 1–8 processors submitted over {:?} s. Equal budgets, each affording all {} slots at the reserve price.\n\n",
            self.spec.nodes, slots, self.spec.vm.cpu, self.spec.vm.mem, self.spec.condor_jobs, self.spec.condor_runtime, self.spec.torque_jobs, self.spec.torque_window_s, slots
        );
        s += "| quantity | paper | ours |\n|---|---|---|\n";
        s += &format!(
            "| equal share per framework | 80 VMs | {} VMs |\n",
            slots / 2
        );
        s += &format!(
            "| Condor VMs while Torque is idle (max) | above 80 (first and last phase) | {} |\n",
            self.condor_max_alone
        );
        s += &format!(
            "| mean VMs when both have queued jobs (Condor / Torque) | about half each | {:.1} / {:.1} over {} periods |\n",
            self.mean_both_busy.0, self.mean_both_busy.1, self.periods_both_busy
        );
        s += &format!("| Torque VMs (max) | — | {} |\n", self.torque_max);
        s += &format!(
            "| both at maximum demand (saturated variant, steady state): Condor / Torque VMs | half each (80 / 80) | {:.1} / {:.1} |\n",
            self.saturated_mean.0, self.saturated_mean.1
        );
        s += &format!(
            "| finish (Condor / Torque) | — | {} / {} |\n",
            f(self.finish_min.0),
            f(self.finish_min.1)
        );
        s += "\nPaper: 'the Condor framework is capable to take advantage of the under-utilization periods of the infrastructure (the first and the last phase)'; provisioning was slow because of VM boot failures (our boot time is a setting, 0 by default).\n";
        s
    }

    /// Writes `fig7_vms.svg` and `fig7_queue.svg`.
    pub fn write_plots(&self, dir: &Path) -> crate::error::Result<Vec<PathBuf>> {
        let vms: Vec<Series> = vec![
            (
                "Condor VMs".into(),
                self.series.iter().map(|s| (s.0, s.1 as f64)).collect(),
            ),
            (
                "Torque VMs".into(),
                self.series.iter().map(|s| (s.0, s.3 as f64)).collect(),
            ),
        ];
        let q: Vec<Series> = vec![
            (
                "Condor queued jobs / 10".into(),
                self.series
                    .iter()
                    .map(|s| (s.0, s.2 as f64 / 10.0))
                    .collect(),
            ),
            (
                "Torque queued jobs".into(),
                self.series.iter().map(|s| (s.0, s.4 as f64)).collect(),
            ),
        ];
        let mut out = Vec::new();
        for (name, title, y, series) in [
            ("fig7_vms.svg", "Provisioned VMs", "VMs", vms),
            ("fig7_queue.svg", "Queued jobs", "jobs", q),
        ] {
            let path = dir.join(name);
            lines(&path, title, "minutes", y, &series).map_err(|m| to_error(&path, m))?;
            out.push(path);
        }
        Ok(out)
    }
}
