//! The metrics of §5.1, per app and per system, exactly as issue 19 defines them.
//!
//! Waste is measured relative to the *used* area `U` (system: `Σ(A − U) / ΣU`; per app:
//! `(A − U) / U`). The paper's prose says "percent of total resources" / "of resources
//! allocated", but its own rigid maxima (116 % system, 681 % per app) cannot be reached by a
//! share of the allocated area, which is at most 100 %; relative to the used area they can.

use super::instance::{App, Instance};
use serde::{Deserialize, Serialize};

/// Metrics of one scheduled app. All apps arrive at time 0, so the waiting time is the start
/// of the first step and the completion time is the end of the last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppMetrics {
    /// `s_1`: time spent queued.
    pub waiting: i64,
    /// `s_K + d_K`.
    pub completion: i64,
    /// `U = Σ n_k d_k`.
    pub used_area: i64,
    /// `A = Σ n_k (s_{k+1} − s_k)`; rigid: `max n · Σ d`.
    pub allocated_area: i64,
    /// `A − U`.
    pub waste: i64,
    /// Whether any step was stretched (`completion − s_1 > Σ d`).
    pub expanded: bool,
    /// App expansion: `(completion − s_1 − Σ d) / Σ d`, percent.
    pub expansion_pct: f64,
    /// Per-app waste: `(A − U) / U`, percent.
    pub waste_pct: f64,
}

/// System metrics of one schedule; the "relative" ones of Tables 1–2 are [`Relative`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemMetrics {
    /// Latest completion.
    pub makespan: i64,
    /// `ΣU`.
    pub used_area: i64,
    /// `ΣA`.
    pub allocated_area: i64,
    /// `Σ(A − U) / ΣU`, percent.
    pub waste_pct: f64,
    /// Effective utilisation `ΣU / (N · makespan)`, percent.
    pub effective_utilisation_pct: f64,
    /// Average completion time (ACT), seconds.
    pub avg_completion: f64,
    /// Average waiting time (AWT), seconds.
    pub avg_waiting: f64,
    /// Share of apps with a stretched step, percent.
    pub expanded_pct: f64,
}

/// A schedule's system metrics as per-test ratios to the rigid schedule of the same test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Relative {
    /// Utilisation (relative): `ΣA / ΣA_rigid`.
    pub utilisation: f64,
    /// `makespan / makespan_rigid`.
    pub makespan: f64,
    /// `ACT / ACT_rigid`.
    pub avg_completion: f64,
    /// `AWT / AWT_rigid` (NaN when rigid waits for nothing, which 15+ apps never allow).
    pub avg_waiting: f64,
}

/// Ratio that reports NaN rather than dividing by zero.
pub fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        f64::NAN
    } else {
        a / b
    }
}

/// Metrics of `app` run with step starts `starts`; `rigid` apps hold `max n` over `Σ d`.
pub fn app_metrics(app: &App, starts: &[i64], rigid: bool) -> AppMetrics {
    let k = app.steps.len();
    let total = app.total_duration();
    let used = app.used_area();
    let waiting = starts.first().copied().unwrap_or(0);
    let completion =
        starts.last().copied().unwrap_or(0) + app.steps.last().map_or(0, |s| s.duration);
    let allocated = if rigid {
        app.peak_nodes() * (completion - waiting)
    } else {
        (0..k)
            .map(|j| {
                let end = starts.get(j + 1).copied().unwrap_or(completion);
                app.steps[j].nodes * (end - starts[j])
            })
            .sum()
    };
    let stretch = completion - waiting - total;
    AppMetrics {
        waiting,
        completion,
        used_area: used,
        allocated_area: allocated,
        waste: allocated - used,
        expanded: stretch > 0,
        expansion_pct: 100.0 * ratio(stretch as f64, total as f64),
        waste_pct: 100.0 * ratio((allocated - used) as f64, used as f64),
    }
}

/// System metrics from the apps' metrics.
pub fn system_metrics(inst: &Instance, apps: &[AppMetrics]) -> SystemMetrics {
    let n = apps.len().max(1) as f64;
    let makespan = apps.iter().map(|a| a.completion).max().unwrap_or(0);
    let used: i64 = apps.iter().map(|a| a.used_area).sum();
    let alloc: i64 = apps.iter().map(|a| a.allocated_area).sum();
    SystemMetrics {
        makespan,
        used_area: used,
        allocated_area: alloc,
        waste_pct: 100.0 * ratio((alloc - used) as f64, used as f64),
        effective_utilisation_pct: 100.0 * ratio(used as f64, inst.nodes as f64 * makespan as f64),
        avg_completion: apps.iter().map(|a| a.completion as f64).sum::<f64>() / n,
        avg_waiting: apps.iter().map(|a| a.waiting as f64).sum::<f64>() / n,
        expanded_pct: 100.0 * apps.iter().filter(|a| a.expanded).count() as f64 / n,
    }
}

impl SystemMetrics {
    /// The per-test ratios to `rigid` that Tables 1–2 call "relative".
    pub fn relative_to(&self, rigid: &SystemMetrics) -> Relative {
        Relative {
            utilisation: ratio(self.allocated_area as f64, rigid.allocated_area as f64),
            makespan: ratio(self.makespan as f64, rigid.makespan as f64),
            avg_completion: ratio(self.avg_completion, rigid.avg_completion),
            avg_waiting: ratio(self.avg_waiting, rigid.avg_waiting),
        }
    }
}
