//! The soak (`vcalloc selfcheck`, `make soak`): many seeded random cases, each a tiny instance
//! of one family on which the family checks its exact methods against brute force, its bounds
//! against the optimum, its heuristics against the optimum and every answer against its own
//! verify. The runner knows no family: it deals cases out over the registry's self-checks.

use super::registry::{registry, Entry};
use super::Certificate;
use crate::Status;
use rayon::prelude::*;
use std::time::Instant;

/// What one case found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaseReport {
    /// What the case was (`sequential`, `1-D`, …), for the per-kind counts.
    pub kind: &'static str,
    /// The instance as JSON, to reproduce a disagreement.
    pub instance: String,
    /// Comparisons made (answers checked against the truth or against each other).
    pub checks: usize,
    /// Every disagreement, one line each; empty when the case holds.
    pub disagreements: Vec<String>,
}

impl CaseReport {
    /// A case of `kind` on `instance` (serialised to JSON).
    pub fn new(kind: &'static str, instance: &impl serde::Serialize) -> Self {
        CaseReport {
            kind,
            instance: serde_json::to_string(instance).expect("an instance serialises"),
            ..Default::default()
        }
    }

    /// Records one comparison: a disagreement `why()` unless `ok`.
    pub fn check(&mut self, ok: bool, why: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.disagreements.push(why());
        }
    }

    /// Records a method's error as a disagreement (exact methods must not fail on tiny
    /// instances); the answer otherwise.
    pub fn answer<T>(&mut self, method: &str, r: crate::Result<T>) -> Option<T> {
        match r {
            Ok(t) => Some(t),
            Err(e) => {
                self.check(false, || format!("{method} failed: {e}"));
                None
            }
        }
    }
}

impl CaseReport {
    /// Holds a certificate against the true optimum `truth` (`None`: infeasible), relative
    /// tolerance `tol`: the objective is never better than the optimum, the bound never
    /// beyond it, `optimal` and `infeasible` only when true; an `exact` method must reach the
    /// optimum (or prove infeasibility).
    pub fn against(&mut self, c: &Certificate, truth: Option<f64>, exact: bool, tol: f64) {
        let m = &c.method;
        let Some(opt) = truth else {
            self.check(c.objective.is_none(), || {
                format!("{m}: objective {:?} on an infeasible instance", c.objective)
            });
            self.check(!exact || c.status == Status::Infeasible, || {
                format!("{m}: ended {} on an infeasible instance", c.status)
            });
            return;
        };
        let eps = tol * (1.0 + opt.abs());
        if let Some(b) = c.bound {
            let ok = c.sense.no_worse(b, opt) || (b - opt).abs() <= eps;
            self.check(ok, || format!("{m}: bound {b} beyond the optimum {opt}"));
        }
        self.check(c.status != Status::Infeasible, || {
            format!("{m}: claims infeasible, optimum {opt}")
        });
        match c.objective {
            Some(x) => {
                let equal = (x - opt).abs() <= eps;
                self.check(equal || c.sense.no_worse(opt, x), || {
                    format!("{m}: objective {x} better than the optimum {opt}")
                });
                self.check(equal || (!exact && c.status != Status::Optimal), || {
                    format!("{m}: {} at {x}, optimum {opt}", c.status)
                });
            }
            None => self.check(!exact, || format!("{m}: ended {} with nothing", c.status)),
        }
    }
}

impl CaseReport {
    /// Solves with every method of `methods`, checks each answer with `verify` and holds its
    /// certificate against `truth` ([`CaseReport::against`]; `exact(m)`: `m` must reach it).
    /// Returns the answers.
    pub fn methods<M, S>(
        &mut self,
        methods: impl IntoIterator<Item = M>,
        exact: impl Fn(M) -> bool,
        truth: Option<f64>,
        solve: impl Fn(M) -> crate::Result<S>,
        verify: impl Fn(&S) -> Vec<crate::Violation>,
    ) -> Vec<(M, S)>
    where
        M: Copy + std::fmt::Display,
        S: AsRef<Certificate>,
    {
        let mut answers = Vec::new();
        for m in methods {
            let Some(sol) = self.answer(&m.to_string(), solve(m)) else {
                continue;
            };
            let v = verify(&sol);
            self.check(v.is_empty(), || format!("{m}: verify: {v:?}"));
            self.against(sol.as_ref(), truth, exact(m), 1e-9);
            answers.push((m, sol));
        }
        answers
    }
}

/// `P::verify` and `verify --strict --deep` on one answer (issue 37): the violations, a
/// refuted bound, and a bound left claimed for any reason but a solver's claim (a search
/// re-run within [`STRICT_SECONDS`]).
pub fn strict<P: super::Problem>(inst: &P::Instance, sol: &P::Solution) -> Vec<crate::Violation> {
    use super::proof::{BoundCheck, Depth};
    let mut v = P::verify(inst, sol);
    match P::check_bound(inst, sol, Depth::deep(STRICT_SECONDS)) {
        BoundCheck::Refuted { why } => v.push(crate::Violation::new("bound-proof", why)),
        BoundCheck::Claimed { why } if !why.starts_with("claimed by solver") => {
            v.push(crate::Violation::new("bound-strict", why))
        }
        _ => {}
    }
    v
}

/// Seconds a search re-run of [`strict`] may take.
pub const STRICT_SECONDS: f64 = 10.0;

/// A case that disagreed, with what reproduces it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The family.
    pub problem: &'static str,
    /// The case's seed: `vcalloc selfcheck --problem P --replay SEED` runs it alone.
    pub seed: u64,
    /// The report (instance and disagreements).
    pub report: CaseReport,
}

/// The soak's totals.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Cases run.
    pub cases: usize,
    /// Comparisons made.
    pub checks: usize,
    /// Per family and kind: cases.
    pub per_kind: Vec<(String, usize)>,
    /// Cases with a disagreement.
    pub failures: Vec<Failure>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The seed of case `i` of a soak seeded `seed` (a SplitMix64 step: cases are independent
/// and the same whatever the thread count).
pub fn case_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The families that have a self-check, or just `only`.
pub fn families(only: Option<&str>) -> Vec<&'static dyn Entry> {
    registry()
        .iter()
        .copied()
        .filter(|e| only.is_none_or(|n| e.name() == n))
        .filter(|e| e.selfcheck(0).is_some())
        .collect()
}

/// Runs `cases` cases dealt round-robin over `families`, in parallel; case `i` draws its
/// instance from [`case_seed`]`(seed, i)`. `progress` is called after each case.
pub fn run(
    families: &[&'static dyn Entry],
    cases: usize,
    seed: u64,
    progress: &(dyn Fn() + Sync),
) -> Summary {
    let began = Instant::now();
    let reports: Vec<(usize, u64, CaseReport)> = (0..cases)
        .into_par_iter()
        .map(|i| {
            let f = i % families.len();
            let s = case_seed(seed, i as u64);
            let r = families[f]
                .selfcheck(s)
                .expect("families have a self-check");
            progress();
            (f, s, r)
        })
        .collect();
    let mut sum = Summary {
        cases,
        seconds: began.elapsed().as_secs_f64(),
        ..Default::default()
    };
    for (f, s, r) in reports {
        sum.checks += r.checks;
        let key = format!("{} {}", families[f].name(), r.kind);
        match sum.per_kind.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => sum.per_kind.push((key, 1)),
        }
        if !r.disagreements.is_empty() {
            sum.failures.push(Failure {
                problem: families[f].name(),
                seed: s,
                report: r,
            });
        }
    }
    sum.per_kind.sort();
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_seeds_differ_and_repeat() {
        let a: Vec<u64> = (0..1000).map(|i| case_seed(7, i)).collect();
        let mut b = a.clone();
        b.sort_unstable();
        b.dedup();
        assert_eq!(b.len(), 1000);
        assert_eq!(a[3], case_seed(7, 3));
        assert_ne!(case_seed(7, 3), case_seed(8, 3));
    }

    #[test]
    fn a_report_counts_checks_and_keeps_disagreements() {
        let mut r = CaseReport::new("k", &vec![1, 2]);
        r.check(true, || unreachable!());
        r.check(false, || "bound 3 above optimum 2".into());
        assert_eq!(
            r.answer::<()>("milp", Err(crate::Error::Consistency("x".into()))),
            None
        );
        assert_eq!((r.checks, r.disagreements.len()), (3, 2));
        assert_eq!(r.instance, "[1,2]");
    }

    /// `against` flags each way an answer can lie about the optimum, in both senses, and
    /// passes honest answers.
    #[test]
    fn against_catches_every_lie() {
        use super::super::Sense::{Maximize as Max, Minimize as Min};
        use Status::{Feasible as F, Infeasible as I, Optimal as O};
        let opt = Some(5.0);
        #[rustfmt::skip]
        let cases = [
            // sense, status, objective, bound, truth, exact: disagreements
            (Min, O, Some(5.0), Some(5.0), opt, true, 0),
            (Min, F, Some(7.0), Some(4.0), opt, false, 0),
            (Max, F, Some(4.0), Some(6.0), opt, false, 0),
            (Min, I, None, None, None, true, 0),
            (Min, F, Some(4.0), None, opt, false, 1), // better than the optimum
            (Max, F, Some(6.0), None, opt, false, 1),
            (Min, F, Some(6.0), Some(5.5), opt, false, 1), // bound beyond the optimum
            (Max, F, Some(4.0), Some(4.5), opt, false, 1),
            (Min, O, Some(6.0), Some(5.0), opt, false, 1), // a false proof
            (Min, F, Some(6.0), Some(5.0), opt, true, 1), // exact short of the optimum
            (Min, I, None, None, opt, false, 1), // a false infeasibility
            (Min, F, Some(3.0), None, None, false, 1), // a solution of an infeasible instance
        ];
        for (k, (sense, status, objective, bound, truth, exact, want)) in
            cases.into_iter().enumerate()
        {
            let mut c = Certificate::new("p", "m", sense);
            (c.status, c.objective, c.bound) = (status, objective, bound);
            let mut r = CaseReport::default();
            r.against(&c, truth, exact, 1e-9);
            assert_eq!(
                r.disagreements.len(),
                want,
                "case {k}: {:?}",
                r.disagreements
            );
        }
    }
}
