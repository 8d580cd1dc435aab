//! The family's self-check: tiny random instances whose optimum (makespan and sum of
//! completions, every expand limit) the brute force finds; the time-indexed MILP must equal
//! it, its schedule must verify, and no heuristic may beat it. The unit tests draw from here.

use super::brute::{exact, Objective};
use super::fit::ExpandLimit;
use super::instance::{App, Instance};
use super::method::{build_solution, solve, Method, Settings};
use super::milp::{solve_exact, ExactObjective};
use super::profile::Step;
use crate::problem::selfcheck::CaseReport;
use crate::solver::{Deadline, HighsSettings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &super::Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::Evolving>(inst, sol)
}

/// `1..=k_max` steps of `1..=d_max` seconds on `1..=cap` nodes.
pub fn random_steps(rng: &mut ChaCha8Rng, k_max: usize, d_max: i64, cap: i64) -> Vec<Step> {
    let k = rng.random_range(1..=k_max);
    (0..k)
        .map(|_| Step::new(rng.random_range(1..=d_max), rng.random_range(1..=cap)))
        .collect()
}

/// Tiny random instances for the exact oracle.
pub fn tiny(rng: &mut ChaCha8Rng, apps: usize) -> Instance {
    let nodes = rng.random_range(2..=4);
    Instance {
        nodes,
        apps: (0..apps)
            .map(|a| App {
                name: format!("a{a}"),
                steps: random_steps(rng, 3, 3, nodes),
            })
            .collect(),
    }
}

/// The MILP against the brute force on `small` (its durations ×10 for the MILP, whose slots
/// are coarser than a second), both objectives, every expand limit; heuristics never below.
/// `only` picks one of the six (limit, objective) pairs. Returns the comparisons made.
pub fn check_milp(r: &mut CaseReport, small: &Instance, only: Option<usize>) -> usize {
    let highs = HighsSettings::default();
    let mut inst = small.clone();
    for app in &mut inst.apps {
        for s in &mut app.steps {
            s.duration *= 10;
        }
    }
    let mut compared = 0;
    let mut pair = 0;
    for (l, label) in [
        (ExpandLimit::NONE, Method::Nox),
        (ExpandLimit::Finite(2), Method::X2),
        (ExpandLimit::Infinite, Method::Infx),
    ] {
        for (objective, brute_objective) in [
            (ExactObjective::Makespan, Objective::Makespan),
            (ExactObjective::SumCompletion, Objective::SumCompletion),
        ] {
            pair += 1;
            if only.is_some_and(|k| k + 1 != pair) {
                continue;
            }
            let Some(truth) = exact(small, l, brute_objective, None, 60, 5_000_000) else {
                continue;
            };
            let what = format!("milp {l:?} {objective:?}");
            let run = solve_exact(&inst, l, objective, 200_000, &highs, &Deadline::none());
            let Some(got) = r.answer(&what, run) else {
                continue;
            };
            r.check(got.optimal, || format!("{what}: not proven optimal"));
            let (Some(v), Some(starts)) = (got.value, got.starts.clone()) else {
                r.check(false, || format!("{what}: no schedule"));
                continue;
            };
            let want = 10.0 * truth.value as f64;
            r.check((v - want).abs() < 1e-6, || {
                format!("{what}: MILP {v}, brute {want}")
            });
            let sol = build_solution(&inst, label, l, false, starts, 0);
            let bad = verify(&inst, &sol);
            r.check(bad.is_empty(), || format!("{what}: verify: {bad:?}"));
            if objective == ExactObjective::Makespan {
                let ms = sol.metrics.makespan as f64;
                r.check((ms - v).abs() < 1e-6, || {
                    format!("{what}: schedule {ms}, value {v}")
                });
                for m in [label, Method::Rigid] {
                    if m != label && l != ExpandLimit::NONE {
                        continue;
                    }
                    if let Some(h) = r.answer(&m.to_string(), solve(&inst, m, &Settings::default()))
                    {
                        let hm = h.metrics.makespan as f64;
                        r.check(hm >= v - 1e-9, || {
                            format!("{m}: makespan {hm} beat the MILP {v}")
                        });
                        let bad = verify(&inst, &h);
                        r.check(bad.is_empty(), || format!("{m}: verify: {bad:?}"));
                    }
                }
            }
            compared += 1;
        }
    }
    compared
}

/// One soak case: 2–4 applications, one expand limit and one objective.
pub fn case(seed: u64) -> CaseReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let apps = rng.random_range(2..=4);
    let small = tiny(&mut rng, apps);
    let mut r = CaseReport::new(["2 apps", "3 apps", "4 apps"][apps - 2], &small);
    check_milp(&mut r, &small, Some(rng.random_range(0..6)));
    r
}
