//! The shape every method of every problem answers with: a status, the best bound known, the
//! gap between the two, and what the method spent.

use serde::{Deserialize, Serialize};

/// The outcome of a solve. These are outcomes, not errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution whose objective meets the proven bound within the gap tolerance.
    Optimal,
    /// A verified solution, without a proof that it is optimal (the gap says how far it may be).
    Feasible,
    /// Proven that no solution exists.
    Infeasible,
    /// No solution and no proof of infeasibility (heuristic failure, limit reached).
    Unknown,
}

impl Status {
    /// The lower-case name used in files and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Relative gap of a maximisation: `(bound − objective) / bound`, in `[0, 1]` for a
/// non-negative objective. Zero when the bound is zero (nothing to gain).
pub fn relative_gap(objective: f64, bound: f64) -> f64 {
    if bound <= 0.0 {
        return 0.0;
    }
    ((bound - objective) / bound).max(0.0)
}

/// Status of a maximisation that has a solution of value `objective` and a valid upper
/// `bound`: optimal only when the absolute gap is within `tolerance`.
pub fn status_with_solution(objective: f64, bound: f64, tolerance: f64) -> Status {
    if bound - objective <= tolerance {
        Status::Optimal
    } else {
        Status::Feasible
    }
}

/// `⌈v⌉` forgiving floating-point noise just above an integer, so that a lower bound such as
/// `⌈W / C⌉` is never rounded up past the truth.
pub fn ceil_with_tolerance(v: f64) -> u64 {
    (v - 1e-9 * v.abs().max(1.0)).ceil().max(0.0) as u64
}

/// A violated constraint found by a problem's `verify`: its short name and what was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Short name of the constraint, e.g. `host-cpu` or `capacity`.
    pub constraint: &'static str,
    /// What is wrong, with numbers.
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.constraint, self.detail)
    }
}
