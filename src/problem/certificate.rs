//! The answer every method of every problem gives: what was found, what is proven, the gap.

use super::proof::Proof;
use crate::{Status, Violation};
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
    /// How the bound was obtained and what re-derives it ([`Proof`]); absent in answers
    /// written before proofs existed, which `verify` reads as unproven.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
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
            proof: None,
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

/// Largest `|objective − bound|`, relative to `max(1, |objective|)`, that an `optimal` claim
/// may leave (every method's own tolerance is at most this by default).
pub const OPTIMAL_SLACK: f64 = 1e-6;

/// The statistics that are bounds on the optimum (on the bound's side of the objective).
pub const BOUND_STATS: [&str; 6] = [
    "root_bound",
    "root_lp",
    "cut_bound",
    "fluid_bound",
    "lower_bound_lp",
    "lower_bound_peak",
];

impl Certificate {
    /// What does not hold together in the certificate of a `problem` whose objective has
    /// `sense` (issue 37, item 1): the problem and the sense are the problem's own; `optimal`
    /// needs an objective and a bound within [`OPTIMAL_SLACK`]; `infeasible` has no objective;
    /// the bound is on its side of the objective; the gap is the one objective and bound give;
    /// the [`BOUND_STATS`] are on the bound's side too. Each disagreement, named.
    pub fn consistency(&self, problem: &str, sense: Sense) -> Vec<Violation> {
        let mut v = Vec::new();
        let mut bad = |what: &'static str, detail: String| v.push(Violation::new(what, detail));
        if self.problem != problem {
            bad(
                "certificate-problem",
                format!("the certificate is for `{}`, not `{problem}`", self.problem),
            );
        }
        if self.sense != sense {
            bad(
                "certificate-sense",
                format!(
                    "sense `{}`, but `{problem}` is a {} problem",
                    self.sense.as_str(),
                    sense.as_str()
                ),
            );
        }
        // Judged by the problem's own sense, whatever the file says.
        let scale = |x: f64| x.abs().max(1.0);
        let wrong_side = |obj: f64, b: f64, slack: f64| match sense {
            Sense::Maximize => b < obj - slack * scale(obj),
            Sense::Minimize => b > obj + slack * scale(obj),
        };
        for (name, x) in [
            ("objective", self.objective),
            ("bound", self.bound),
            ("gap", self.gap),
        ] {
            if x.is_some_and(|x| !x.is_finite()) {
                bad("certificate-value", format!("{name} {x:?} is not finite"));
            }
        }
        match (self.objective, self.bound) {
            (Some(obj), Some(b)) => {
                if wrong_side(obj, b, 1e-9) {
                    bad(
                        "certificate-bound",
                        format!(
                            "bound {b} on the wrong side of the objective {obj} ({})",
                            sense.as_str()
                        ),
                    );
                }
                let gap = sense.gap(obj, b);
                match self.gap {
                    Some(g) if (g - gap).abs() <= 1e-9 * gap.max(1.0) => {}
                    g => bad(
                        "certificate-gap",
                        format!("gap {g:?}, but objective {obj} and bound {b} give {gap}"),
                    ),
                }
                if self.status == Status::Optimal && (obj - b).abs() > OPTIMAL_SLACK * scale(obj) {
                    bad(
                        "certificate-status",
                        format!("`optimal` with objective {obj} and bound {b} apart"),
                    );
                }
            }
            (obj, b) => {
                if self.status == Status::Optimal {
                    bad(
                        "certificate-status",
                        format!("`optimal` needs an objective and a bound (objective {obj:?}, bound {b:?})"),
                    );
                }
                if self.gap.is_some() {
                    bad(
                        "certificate-gap",
                        format!("a gap {:?} without both objective and bound", self.gap),
                    );
                }
            }
        }
        if self.status == Status::Infeasible && self.objective.is_some() {
            bad(
                "certificate-status",
                format!("`infeasible` with an objective {:?}", self.objective),
            );
        }
        if let Some(obj) = self.objective {
            for key in BOUND_STATS {
                if let Some(&x) = self.stats.get(key) {
                    if wrong_side(obj, x, 1e-6) {
                        bad(
                            "certificate-stat",
                            format!("stats.{key} = {x} on the wrong side of the objective {obj}"),
                        );
                    }
                }
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(sense: Sense, obj: f64, bound: f64) -> Certificate {
        let mut c = Certificate::new("p", "m", sense);
        c.scored(obj, bound, 1e-6);
        c
    }

    #[test]
    fn consistent_certificates_pass_and_each_edit_is_named() {
        let names = |c: &Certificate, sense| -> Vec<&'static str> {
            c.consistency("p", sense)
                .iter()
                .map(|v| v.constraint)
                .collect()
        };
        for (sense, obj, bound) in [
            (Sense::Maximize, 0.5, 0.6),
            (Sense::Maximize, 0.6, 0.6),
            (Sense::Minimize, 49.0, 48.0),
            (Sense::Minimize, 48.0, 48.0),
        ] {
            assert!(names(&scored(sense, obj, bound), sense).is_empty());
        }
        // A tabu answer edited to `optimal`, bound 0, gap 0 (objective 0.1056).
        let mut c = scored(Sense::Minimize, 0.1056, 0.05);
        c.status = Status::Optimal;
        c.bound = Some(0.0);
        c.gap = Some(0.0);
        let n = names(&c, Sense::Minimize);
        assert!(
            n.contains(&"certificate-gap") && n.contains(&"certificate-status"),
            "{n:?}"
        );
        // The sense changed in the file: judged by the problem's.
        let mut c = scored(Sense::Maximize, 0.5, 0.6);
        c.sense = Sense::Minimize;
        assert!(names(&c, Sense::Maximize).contains(&"certificate-sense"));
        // A bound on the wrong side.
        let mut c = scored(Sense::Minimize, 94.0, 90.0);
        c.bound = Some(104.0);
        assert!(names(&c, Sense::Minimize).contains(&"certificate-bound"));
        // A statistic that is a bound, above the objective of a minimisation.
        let mut c = scored(Sense::Minimize, 94.0, 90.0);
        c.stats.insert("lower_bound_lp".into(), 104.0);
        assert_eq!(names(&c, Sense::Minimize), vec!["certificate-stat"]);
        // `infeasible` with an objective; another problem's certificate.
        let mut c = scored(Sense::Minimize, 3.0, 3.0);
        c.status = Status::Infeasible;
        assert!(names(&c, Sense::Minimize).contains(&"certificate-status"));
        assert!(scored(Sense::Minimize, 3.0, 3.0)
            .consistency("q", Sense::Minimize)
            .iter()
            .any(|v| v.constraint == "certificate-problem"));
        // `optimal` without a bound.
        let mut c = Certificate::new("p", "m", Sense::Minimize);
        c.objective = Some(3.0);
        c.status = Status::Optimal;
        assert!(names(&c, Sense::Minimize).contains(&"certificate-status"));
    }

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
