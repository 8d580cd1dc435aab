//! The vocabulary of answers: the [`Status`] of a solve, a [`Violation`] found by a verify,
//! and the rounding of a bound. The answer itself is a [`crate::problem::Certificate`].

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

impl Violation {
    /// A violation of `constraint`, with what was found.
    pub fn new(constraint: &'static str, detail: impl Into<String>) -> Self {
        Violation {
            constraint,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.constraint, self.detail)
    }
}
