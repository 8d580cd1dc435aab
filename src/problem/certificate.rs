//! The answer every method of every problem gives: what was found, what is proven, the gap.

use crate::Status;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether a problem's objective is minimised (machines) or maximised (yield).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sense {
    /// Smaller is better; the bound is a lower bound.
    Minimize,
    /// Larger is better; the bound is an upper bound.
    Maximize,
}

impl Sense {
    /// Relative gap between an objective and a valid bound, in `[0, 1]` for non-negative
    /// values: `(bound − objective) / bound` when maximising (zero when the bound is zero:
    /// nothing to gain), `(objective − bound) / objective` when minimising (zero when the
    /// objective is zero). Never negative, whatever round-off put the two on the wrong side.
    pub fn gap(self, objective: f64, bound: f64) -> f64 {
        let (num, den) = match self {
            Sense::Maximize => (bound - objective, bound),
            Sense::Minimize => (objective - bound, objective),
        };
        if den <= 0.0 {
            return 0.0;
        }
        (num / den).max(0.0)
    }

    /// True when `objective` is at least as good as `other`.
    pub fn no_worse(self, objective: f64, other: f64) -> bool {
        match self {
            Sense::Maximize => objective >= other,
            Sense::Minimize => objective <= other,
        }
    }

    /// The lower-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Sense::Minimize => "minimize",
            Sense::Maximize => "maximize",
        }
    }
}

/// The certificate of one solve, the same for every problem: the CLI prints it, the
/// experiment runner records it, and every solution file carries it under `certificate`.
///
/// `status` is `optimal` only with a proof (objective within the tolerance of the bound) and
/// `infeasible` only with a proof; on a limit the objective, the bound and the gap say how
/// far the answer may be from the optimum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// The problem's registry name, e.g. `vcsched`.
    pub problem: String,
    /// The method's name, e.g. `mcb8`.
    pub method: String,
    /// `optimal` and `infeasible` only when proven.
    pub status: Status,
    /// Whether the objective is minimised or maximised.
    pub sense: Sense,
    /// Objective of the solution found, when there is one.
    pub objective: Option<f64>,
    /// Best proven bound on the optimum (upper when maximising, lower when minimising).
    pub bound: Option<f64>,
    /// [`Sense::gap`] of objective and bound, when both exist.
    pub gap: Option<f64>,
    /// Wall-clock seconds of the method.
    pub seconds: f64,
    /// Method-specific counters (iterations, nodes, phase times…).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, f64>,
    /// How the instance file was read (`--hosts`, `--jobs`, `--format`…), written by `solve`
    /// so that `verify` reads the instance the same way from the two files alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<serde_json::Value>,
}

impl Certificate {
    /// An empty certificate: no solution, no bound, status `unknown`.
    pub fn new(problem: &str, method: &str, sense: Sense) -> Self {
        Certificate {
            problem: problem.into(),
            method: method.into(),
            status: Status::Unknown,
            sense,
            objective: None,
            bound: None,
            gap: None,
            seconds: 0.0,
            stats: BTreeMap::new(),
            load: None,
        }
    }

    /// Sets objective and bound, the gap between them, and the status: `optimal` when the
    /// absolute difference is within `tolerance`, `feasible` otherwise.
    pub fn scored(&mut self, objective: f64, bound: f64, tolerance: f64) {
        self.objective = Some(objective);
        self.bound = Some(bound);
        self.gap = Some(self.sense.gap(objective, bound));
        let slack = match self.sense {
            Sense::Maximize => bound - objective,
            Sense::Minimize => objective - bound,
        };
        self.status = if slack <= tolerance {
            Status::Optimal
        } else {
            Status::Feasible
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_of_both_senses_are_relative_to_the_larger_value() {
        assert!((Sense::Maximize.gap(0.5, 0.8) - 0.375).abs() < 1e-12);
        assert!((Sense::Minimize.gap(10.0, 8.0) - 0.2).abs() < 1e-12);
        assert_eq!(Sense::Maximize.gap(0.9, 0.8), 0.0);
        assert_eq!(Sense::Minimize.gap(7.0, 8.0), 0.0);
        assert_eq!(Sense::Maximize.gap(0.0, 0.0), 0.0);
        assert_eq!(Sense::Minimize.gap(0.0, 0.0), 0.0);
    }

    #[test]
    fn scoring_says_optimal_only_within_the_tolerance() {
        let mut c = Certificate::new("p", "m", Sense::Minimize);
        c.scored(10.0, 10.0, 0.0);
        assert_eq!(c.status, Status::Optimal);
        c.scored(11.0, 10.0, 0.5);
        assert_eq!(c.status, Status::Feasible);
        let mut c = Certificate::new("p", "m", Sense::Maximize);
        c.scored(0.7, 0.7 + 1e-7, 1e-6);
        assert_eq!(c.status, Status::Optimal);
        c.scored(0.6, 0.7, 1e-6);
        assert_eq!(c.status, Status::Feasible);
    }
}
