//! How a certificate's bound was obtained, and what a checker needs to re-derive it (issue 37):
//! the method that makes a bound says how; `verify` re-derives what it can from the instance
//! and the proof alone, and labels the rest.
//!
//! | kind | carries | `verify` |
//! |---|---|---|
//! | `closed-form` | the formula's name | recomputes it from the instance |
//! | `dual` | an LP's dual vector | weak duality from the instance, rounded outward |
//! | `pricing` | duals `π`, the claimed best pricing value `v` | re-proves `v` by the family's exact pricing, recomputes `π·N / max(1, v)` rounded outward |
//! | `search` | nodes and a one-line summary | `--deep` re-runs the search within a budget |
//! | `solver` | who claims it (HiGHS's MIP dual bound) | nothing: "claimed by solver, not re-checked" |
//!
//! A certificate without a proof (an answer written before proofs existed) is read as
//! unproven: its bound is claimed. A bound no stronger than the family's closed forms is
//! checked whatever its proof says, since the closed form re-derives it.

use super::certificate::{Certificate, Sense, OPTIMAL_SLACK};
use serde::{Deserialize, Serialize};

/// The proof of a certificate's bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Proof {
    /// A formula of the instance alone (`volume`, `l2`, `cpu-sum`…): recomputed.
    ClosedForm {
        /// The formula's name (the family's `models/` file defines it).
        formula: String,
    },
    /// Weak duality of an LP relaxation: the dual vector, in the order the family's
    /// `models/` file gives the rows.
    Dual {
        /// The relaxation's name.
        lp: String,
        /// The dual values.
        duals: Vec<f64>,
    },
    /// Column generation's Farley (Lagrangian) bound `π·N / max(1, v)`; with subset-row cuts
    /// `(π·N + Σ σ_s ⌊|S_s|/2⌋) / max(1, v)`, `v ≥ max_a (π·a + Σ_s σ_s ⌊|a ∩ S_s|/2⌋)`.
    Pricing {
        /// The duals of the covering rows, in row order (items, job types…).
        duals: Vec<f64>,
        /// The claimed best pricing value `v ≥ max_a π·a` (with the cuts' terms).
        best: f64,
        /// Subset-row cuts with their duals (bin packing's cut rounds); absent otherwise.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cuts: Vec<CutDual>,
    },
    /// A branch-and-bound or enumeration that ran to its end: its size and a summary;
    /// `verify --deep` re-runs it.
    Search {
        /// Nodes (or columns enumerated).
        nodes: u64,
        /// What was searched, in one line.
        summary: String,
    },
    /// A bound an external solver reports and nothing here re-checks (HiGHS's MIP dual
    /// bound).
    Solver {
        /// Who claims it, e.g. `highs-mip`.
        by: String,
    },
}

/// A subset-row cut `Σ_c ⌊|c ∩ rows| / 2⌋ λ_c ≤ ⌊|rows| / 2⌋` and its dual (`≤ 0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutDual {
    /// Its rows, increasing (three or five in the cut rounds; any two or more are valid).
    pub rows: Vec<usize>,
    /// Its dual.
    pub dual: f64,
}

impl Proof {
    /// A closed-form proof.
    pub fn closed_form(formula: &str) -> Proof {
        Proof::ClosedForm {
            formula: formula.into(),
        }
    }

    /// A search proof.
    pub fn search(nodes: u64, summary: impl Into<String>) -> Proof {
        Proof::Search {
            nodes,
            summary: summary.into(),
        }
    }

    /// The pricing proof of a Farley bound `lp` by the duals `pi` whose covered value
    /// `π·N` is `covered`: the claimed best pricing value is the `v` with `π·N / v = lp`.
    pub fn pricing(pi: &[f64], covered: f64, lp: f64) -> Proof {
        Proof::Pricing {
            duals: pi.to_vec(),
            best: if lp > 0.0 {
                (covered / lp).max(1.0)
            } else {
                1.0
            },
            cuts: Vec::new(),
        }
    }

    /// A solver's claim.
    pub fn solver(by: &str) -> Proof {
        Proof::Solver { by: by.into() }
    }

    /// The kind as written in files (`closed-form`, `dual`, `pricing`, `search`, `solver`).
    pub fn kind(&self) -> &'static str {
        match self {
            Proof::ClosedForm { .. } => "closed-form",
            Proof::Dual { .. } => "dual",
            Proof::Pricing { .. } => "pricing",
            Proof::Search { .. } => "search",
            Proof::Solver { .. } => "solver",
        }
    }
}

/// How far `verify` goes in re-deriving bounds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Depth {
    /// Re-run search proofs (and, for small instances, a second exact method).
    pub deep: bool,
    /// Seconds a deep re-run may take.
    pub seconds: f64,
}

impl Depth {
    /// The checks of a plain `verify`: no search is re-run.
    pub fn shallow() -> Depth {
        Depth {
            deep: false,
            seconds: 0.0,
        }
    }

    /// `verify --deep` with a budget of `seconds` per re-run.
    pub fn deep(seconds: f64) -> Depth {
        Depth {
            deep: true,
            seconds,
        }
    }
}

/// What `verify` made of a certificate's bound.
#[derive(Debug, Clone, PartialEq)]
pub enum BoundCheck {
    /// The certificate has no bound: nothing to check.
    NoBound,
    /// Re-derived, at least as strong as claimed, by a proof of this kind.
    Checked {
        /// `closed-form`, `dual`, `pricing` or `search`.
        kind: &'static str,
        /// The bound re-derived.
        value: f64,
    },
    /// Not re-checked: the bound rests on a claim (a solver's, an unproven one, a search not
    /// re-run without `--deep`).
    Claimed {
        /// Why, in a few words.
        why: String,
    },
    /// The proof does not give the claimed bound: a violation whatever the options.
    Refuted {
        /// What was re-derived instead.
        why: String,
    },
}

impl BoundCheck {
    /// The default for a family that re-derives nothing but its closed forms: a solver's
    /// claim or a missing proof is claimed, and so is any other kind the family leaves
    /// unchecked.
    pub fn claimed_by(c: &Certificate) -> BoundCheck {
        if c.bound.is_none() {
            return BoundCheck::NoBound;
        }
        BoundCheck::Claimed {
            why: match &c.proof {
                None => "no proof in the certificate".into(),
                Some(Proof::Solver { by }) => format!("claimed by solver ({by})"),
                Some(Proof::Search { .. }) => "search proof not re-run (use --deep)".into(),
                Some(p) => format!("{} proof not re-checked by this family", p.kind()),
            },
        }
    }

    /// True when the bound was re-derived.
    pub fn is_checked(&self) -> bool {
        matches!(self, BoundCheck::Checked { .. })
    }

    /// `verify`'s words: "bound checked (pricing)", "bound claimed by solver, not re-checked"…
    pub fn describe(&self) -> String {
        match self {
            BoundCheck::NoBound => "no bound".into(),
            BoundCheck::Checked { kind, .. } => {
                format!("bound checked ({})", kind.replace('-', " "))
            }
            BoundCheck::Claimed { why } if why.starts_with("claimed by solver") => {
                format!("bound {why}, not re-checked")
            }
            BoundCheck::Claimed { why } => format!("bound not re-checked: {why}"),
            BoundCheck::Refuted { why } => format!("bound refuted: {why}"),
        }
    }

    /// The short label recorded in experiment rows: the kind when checked, `claimed`,
    /// `refuted` or `none`.
    pub fn label(&self) -> &'static str {
        match self {
            BoundCheck::NoBound => "none",
            BoundCheck::Checked { kind, .. } => kind,
            BoundCheck::Claimed { .. } => "claimed",
            BoundCheck::Refuted { .. } => "refuted",
        }
    }
}

/// Why a pricing value was not re-proved.
#[derive(Debug, Clone, PartialEq)]
pub enum Unproved {
    /// The proof does not fit the instance (wrong length, not finite): refuted.
    Malformed(String),
    /// The exact pricing ran out of its budget: the bound stays claimed.
    Budget(String),
}

/// The duals of a pricing proof fit `rows` covering rows (`what`: items, jobs) and are finite.
pub fn check_duals(pi: &[f64], rows: usize, what: &str) -> Result<(), Unproved> {
    if pi.len() != rows {
        return Err(Unproved::Malformed(format!(
            "the pricing proof has {} duals for {rows} {what}",
            pi.len()
        )));
    }
    if pi.iter().any(|p| !p.is_finite()) {
        return Err(Unproved::Malformed(
            "the pricing proof has a dual that is not a finite number".into(),
        ));
    }
    Ok(())
}

/// `--deep` on a search proof: `run` solves again within `depth.seconds` and returns the
/// bound it proves; checked (`search`) when that bound supports the certificate's, claimed
/// otherwise (a re-run that falls short within its budget refutes nothing).
pub fn rerun<E: std::fmt::Display>(
    c: &Certificate,
    sense: Sense,
    depth: Depth,
    run: impl FnOnce(&crate::solver::Deadline) -> Result<Option<f64>, E>,
) -> BoundCheck {
    let deadline = crate::solver::Deadline::after(Some(depth.seconds));
    match run(&deadline) {
        Ok(Some(b)) if c.bound.is_some_and(|claimed| supports(sense, b, claimed)) => {
            BoundCheck::Checked {
                kind: "search",
                value: b,
            }
        }
        Ok(b) => BoundCheck::Claimed {
            why: format!(
                "the search re-run within {} s reached the bound {b:?} only",
                depth.seconds
            ),
        },
        Err(e) => BoundCheck::Claimed {
            why: format!("the search re-run failed: {e}"),
        },
    }
}

/// Judges a re-derived bound `value` against the certificate's: checked by `kind` when it is
/// at least as strong (within [`OPTIMAL_SLACK`], relative, the slack an `optimal` claim has
/// anyway), refuted otherwise.
pub fn judge(c: &Certificate, sense: Sense, kind: &'static str, value: f64) -> BoundCheck {
    let Some(claimed) = c.bound else {
        return BoundCheck::NoBound;
    };
    if supports(sense, value, claimed) {
        BoundCheck::Checked { kind, value }
    } else {
        BoundCheck::Refuted {
            why: format!("the {kind} proof gives {value}, not the claimed bound {claimed}"),
        }
    }
}

/// The check of a covering family (binpacking, socbp, periodic): its closed form `closed`,
/// then a `pricing` proof re-derived by `farley` (duals, claimed best value → the Farley
/// bound before its ceiling), a `search` re-run by `again` under `--deep`, anything else
/// claimed.
pub fn check_covering<E: std::fmt::Display>(
    c: &Certificate,
    closed: f64,
    depth: Depth,
    farley: impl FnOnce(&[f64], f64) -> Result<f64, Unproved>,
    again: impl FnOnce(&crate::solver::Deadline) -> Result<Option<f64>, E>,
) -> BoundCheck {
    with_closed_form(c, Sense::Minimize, Some(closed), || match &c.proof {
        Some(Proof::Pricing { duals, best, .. }) => match farley(duals, *best) {
            Ok(raw) => judge_ceiled(c, "pricing", raw),
            Err(Unproved::Budget(why)) => BoundCheck::Claimed { why },
            Err(Unproved::Malformed(why)) => BoundCheck::Refuted { why },
        },
        Some(Proof::Search { .. }) if depth.deep => rerun(c, Sense::Minimize, depth, again),
        _ => BoundCheck::claimed_by(c),
    })
}

/// Judges a re-derived Farley bound `raw` (unrounded, already rounded outward) of a
/// minimisation with integer objective against the certificate's bound: checked when
/// `⌈raw⌉` (with the families' tolerance, [`crate::ceil_with_tolerance`]) reaches it; left
/// claimed when `raw` falls short of the integer below by no more than the re-derivation's
/// own rounding (a few 10⁻⁹ relative: the solve rounded up what the check rounds down);
/// refuted otherwise.
pub fn judge_ceiled(c: &Certificate, kind: &'static str, raw: f64) -> BoundCheck {
    let Some(claimed) = c.bound else {
        return BoundCheck::NoBound;
    };
    let value = crate::ceil_with_tolerance(raw) as f64;
    if supports(Sense::Minimize, value, claimed) {
        return BoundCheck::Checked { kind, value };
    }
    let below = claimed - 1.0;
    if below > 0.0 && raw >= below * (1.0 - 1e-8) {
        return BoundCheck::Claimed {
            why: format!(
                "the {kind} proof gives {raw}, within rounding of {below} but not above it"
            ),
        };
    }
    judge(c, Sense::Minimize, kind, value)
}

/// True when a re-derived bound `value` is at least as strong as `claimed`.
pub fn supports(sense: Sense, value: f64, claimed: f64) -> bool {
    if !value.is_finite() {
        return false;
    }
    let slack = OPTIMAL_SLACK * claimed.abs().max(1.0);
    match sense {
        Sense::Minimize => value >= claimed - slack,
        Sense::Maximize => value <= claimed + slack,
    }
}

/// The usual order of a family's check: a closed form that already gives the bound settles
/// it; otherwise `other` (the family's re-derivation of its other proof kinds) decides, and a
/// `closed-form` proof that the closed form does not support is refuted.
pub fn with_closed_form(
    c: &Certificate,
    sense: Sense,
    closed: Option<f64>,
    other: impl FnOnce() -> BoundCheck,
) -> BoundCheck {
    let Some(claimed) = c.bound else {
        return BoundCheck::NoBound;
    };
    if let Some(v) = closed {
        if supports(sense, v, claimed) {
            return BoundCheck::Checked {
                kind: "closed-form",
                value: v,
            };
        }
        if matches!(c.proof, Some(Proof::ClosedForm { .. })) {
            return judge(c, sense, "closed-form", v);
        }
    }
    other()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_read_and_write_with_their_kind() {
        let p = Proof::Pricing {
            duals: vec![0.5, 0.25],
            best: 1.0,
            cuts: Vec::new(),
        };
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(text, r#"{"kind":"pricing","duals":[0.5,0.25],"best":1.0}"#);
        assert_eq!(serde_json::from_str::<Proof>(&text).unwrap(), p);
        let c: Proof = serde_json::from_str(r#"{"kind":"closed-form","formula":"l2"}"#).unwrap();
        assert_eq!(c, Proof::closed_form("l2"));
        assert!(serde_json::from_str::<Proof>(r#"{"kind":"magic"}"#).is_err());
    }

    #[test]
    fn a_closed_form_settles_weak_bounds_and_refutes_strong_ones() {
        let mut c = Certificate::new("p", "m", Sense::Minimize);
        c.scored(49.0, 48.0, 0.0);
        let s = Sense::Minimize;
        let never = || panic!("the closed form settles it");
        assert!(with_closed_form(&c, s, Some(48.0), never).is_checked());
        // Claimed 49 = objective: the closed form gives 48 only.
        c.scored(49.0, 49.0, 0.0);
        let claimed = || BoundCheck::claimed_by(&c);
        assert!(matches!(
            with_closed_form(&c, s, Some(48.0), claimed),
            BoundCheck::Claimed { .. }
        ));
        let mut d = c.clone();
        d.proof = Some(Proof::closed_form("volume"));
        let claimed = || BoundCheck::claimed_by(&d);
        assert!(matches!(
            with_closed_form(&d, s, Some(48.0), claimed),
            BoundCheck::Refuted { .. }
        ));
        assert!(supports(Sense::Maximize, 0.5, 0.5 + 1e-9));
        assert!(!supports(Sense::Maximize, 0.6, 0.5));
        assert!(!supports(Sense::Minimize, f64::NAN, 0.5));
    }
}
