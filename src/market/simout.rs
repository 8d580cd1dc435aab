//! The simulation's outputs: per-app per-period rows (the CSV), per-period totals (the credit
//! checks) and per-app outcomes.

use super::ledger::Ledger;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One CSV row: one app in one period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Period start (s).
    pub time_s: f64,
    /// App name.
    pub app: String,
    /// VMs held.
    pub vms: usize,
    /// CPU bid per VM (effective, after the budget).
    pub bid_cpu: f64,
    /// Memory bid per VM.
    pub bid_mem: f64,
    /// Mean CPU allocation per VM (cores).
    pub alloc_cpu: f64,
    /// Mean memory allocation per VM (MB).
    pub alloc_mem: f64,
    /// Mean CPU price of the nodes holding its VMs (credits per core per period).
    pub price_cpu: f64,
    /// Fraction of the work done.
    pub progress: f64,
    /// Current iteration time (lock-step apps, s).
    pub iteration_s: f64,
    /// Account balance after billing.
    pub balance: f64,
    /// Queued jobs (frameworks).
    pub queued: usize,
    /// Running jobs (frameworks).
    pub running: usize,
    /// Suspended by its controller this period (no VM, nothing billed).
    pub suspended: bool,
}

/// Totals of one period: the conservation and non-negativity checks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PeriodStat {
    /// Period start (s).
    pub time_s: f64,
    /// `bank + provider + Σ accounts − supply`.
    pub imbalance: f64,
    /// Smallest balance of any account.
    pub min_balance: f64,
    /// CPU allocated in total (cores).
    pub used_cpu: f64,
    /// Migrations this period.
    pub migrations: usize,
}

/// What became of one app.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppOutcome {
    /// Name.
    pub name: String,
    /// Start time (s), if started.
    pub start_s: Option<f64>,
    /// Finish time (s), if finished.
    pub finish_s: Option<f64>,
    /// Absolute deadline (s), if any.
    pub deadline_s: Option<f64>,
    /// Finished by the deadline (`None` without a deadline).
    pub met: Option<bool>,
    /// Credits granted.
    pub granted: f64,
    /// Credits spent.
    pub spent: f64,
    /// Shut down for lack of credits (§4.2.4).
    pub shutdown: bool,
    /// Times the vertical policy suspended it (§3.2).
    pub suspensions: usize,
}

/// The simulation's output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SimResult {
    /// Per-app per-period rows.
    pub rows: Vec<Row>,
    /// Per-period totals.
    pub periods: Vec<PeriodStat>,
    /// Per-app outcomes.
    pub apps: Vec<AppOutcome>,
    /// Final ledger.
    pub ledger: Ledger,
    /// The simulated time at which a wall-clock limit stopped the run (`None`: it ran to the
    /// end); the apps' outcomes are then those of a partial run.
    pub stopped_at_s: Option<f64>,
}

impl SimResult {
    /// Writes the rows as CSV.
    pub fn write_csv(&self, path: &Path) -> crate::error::Result<()> {
        let io = |e: std::io::Error| crate::error::Error::Io {
            path: path.to_path_buf(),
            source: e,
        };
        let mut w = csv::Writer::from_path(path).map_err(|e| io(e.into()))?;
        for r in &self.rows {
            w.serialize(r).map_err(|e| io(e.into()))?;
        }
        w.flush().map_err(io)
    }
}
