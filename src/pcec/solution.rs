//! What a simulation returns: one record per job, per-bin and overall metrics.

use super::instance::Instance;
use super::method::Settings;
use crate::error::{Error, Result};
use crate::problem::Certificate;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One job's schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// Job id from the instance.
    pub id: i64,
    /// Arrival, seconds, after the arrival factor.
    pub submit: f64,
    /// Start on its VM.
    pub start: f64,
    /// Completion `C_j`.
    pub end: f64,
    /// PM index (0-based).
    pub pm: usize,
    /// VM slot on the PM (0-based).
    pub vm: usize,
    /// Expansion factor (Eq. 3): `(end − submit) / max(threshold, ideal run time)`.
    pub xf: f64,
    /// The chosen VM's PC just before the job started (its rate right after the start).
    pub pc_at_start: f64,
}

/// Metrics over the jobs whose arrival falls in one time bin (Figs. 5–6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinStat {
    /// Bin start, seconds.
    pub start: f64,
    /// Bin end, seconds.
    pub end: f64,
    /// Jobs that arrived in the bin.
    pub jobs: usize,
    /// Their mean XF (`None` for an empty bin).
    pub mean_xf: Option<f64>,
    /// Time-average allocated fraction of the cluster's capacity over the bin (`None` when
    /// the bins have zero width).
    pub utilisation: Option<f64>,
}

/// Overall metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Jobs simulated.
    pub jobs: usize,
    /// Mean XF over all jobs.
    pub mean_xf: f64,
    /// Largest XF.
    pub max_xf: f64,
    /// Time-average of Σ allocated rate / (pms · pCap) from the first arrival to the last
    /// completion (the paper's "average overall CPU utilization"); with max = pCap it is the
    /// fraction of PMs with a running job.
    pub utilisation: f64,
    /// Time-average fraction of VMs holding a job, same window.
    pub vm_occupancy: f64,
    /// First arrival.
    pub first_submit: f64,
    /// Last completion.
    pub last_end: f64,
    /// Mean queueing time (start − submit).
    pub mean_wait: f64,
    /// Mean run-time expansion `(end − start) / ideal run time` (the paper expects 1..4).
    pub mean_runtime_expansion: f64,
    /// Longest FCFS queue seen between events.
    pub max_queue: usize,
    /// Times the queue grew past `Settings::queue_episode_threshold`.
    pub queue_episodes: usize,
}

/// A simulated schedule with its metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// Objective: the mean expansion factor (minimised); bound: [`xf_lower_bound`], the
    /// mean of `p_j / max(threshold, p_j)` (no job runs faster than alone on its VM);
    /// `optimal` only when they meet. `enumerate` (the best non-delay FCFS dispatch, not the
    /// best schedule) proves no more than a policy does.
    pub certificate: Certificate,
    /// The settings in force (verify re-reads the threshold, factor and bins).
    pub settings: Settings,
    /// One record per job, in instance order.
    pub jobs: Vec<JobRecord>,
    /// Overall metrics.
    pub summary: Summary,
    /// Per arrival-time bin.
    pub bins: Vec<BinStat>,
    /// Complete dispatch sequences explored (`enumerate` only).
    pub sequences: Option<u64>,
}

impl Solution {
    /// Writes the per-job CSV: `id,submit,start,end,pm,vm,xf`.
    pub fn write_jobs_csv(&self, path: &Path) -> Result<()> {
        let io = |e: std::io::Error| Error::Io {
            path: path.to_path_buf(),
            source: e,
        };
        let mut w = csv::Writer::from_path(path).map_err(|e| io(e.into()))?;
        w.write_record(["id", "submit", "start", "end", "pm", "vm", "xf"])
            .map_err(|e| io(e.into()))?;
        for j in &self.jobs {
            w.write_record([
                j.id.to_string(),
                j.submit.to_string(),
                j.start.to_string(),
                j.end.to_string(),
                j.pm.to_string(),
                j.vm.to_string(),
                j.xf.to_string(),
            ])
            .map_err(|e| io(e.into()))?;
        }
        w.flush().map_err(io)
    }

    /// One-line summary for stdout.
    pub fn summary_line(&self) -> String {
        let s = &self.summary;
        format!(
            "{}: {} jobs, mean XF {:.4}, utilisation {:.4}, VM occupancy {:.4}, mean wait {:.1} s, max queue {}",
            self.certificate.method,
            s.jobs,
            s.mean_xf,
            s.utilisation,
            s.vm_occupancy,
            s.mean_wait,
            s.max_queue
        )
    }
}

crate::certified!(Solution);

/// A lower bound on the mean expansion factor of any schedule: job `j` runs at most at its
/// VM's `max` (and the PM's capacity), so `C_j − r_j ≥ p_j` and `XF_j ≥ p_j / max(τ, p_j)`.
pub fn xf_lower_bound(inst: &Instance, threshold: f64) -> f64 {
    let n = inst.jobs.len().max(1) as f64;
    inst.jobs
        .iter()
        .map(|j| {
            let p = inst.ideal_runtime(j.work);
            p / threshold.max(p)
        })
        .sum::<f64>()
        / n
}
