//! Exact methods against brute-force enumeration, heuristics against the exact optimum,
//! bounds against solutions — on hundreds of seeded random tiny instances. Every output is
//! also re-checked by `verify`.

use crate::common;

use vcalloc::vcsched::{brute, solve, verify, Instance, Method, Settings};
use vcalloc::Status;

const INSTANCES: u64 = 500;

fn check_verified(inst: &Instance, sol: &vcalloc::vcsched::Solution, seed: u64) {
    let v = verify(inst, sol);
    assert!(v.is_empty(), "seed {seed}, {}: {:?}", sol.method, v);
}

#[test]
fn milp_matches_brute_force() {
    let settings = Settings::default();
    let mut feasible = 0;
    for seed in 0..INSTANCES {
        let inst = common::tiny_instance(seed, 3, 7);
        let truth = brute::optimal_min_yield(&inst);
        let sol = solve(&inst, Method::Milp, &settings).unwrap();
        check_verified(&inst, &sol, seed);
        match truth {
            None => assert_eq!(sol.status, Status::Infeasible, "seed {seed}"),
            Some(y) => {
                feasible += 1;
                assert_eq!(sol.status, Status::Optimal, "seed {seed}");
                let got = sol.min_yield().unwrap();
                assert!(
                    (got - y).abs() <= 1e-6,
                    "seed {seed}: milp {got}, brute force {y}"
                );
            }
        }
    }
    // The test is only meaningful if most instances are feasible.
    assert!(
        feasible >= INSTANCES / 2,
        "only {feasible} feasible instances"
    );
}

#[test]
fn milp_without_symmetry_breaking_or_warm_start_matches_brute_force() {
    let settings = Settings {
        symmetry_breaking: false,
        warm_start: false,
        ..Settings::default()
    };
    for seed in 0..100 {
        let inst = common::tiny_instance(10_000 + seed, 3, 7);
        let truth = brute::optimal_min_yield(&inst);
        let sol = solve(&inst, Method::Milp, &settings).unwrap();
        check_verified(&inst, &sol, seed);
        assert_eq!(sol.min_yield().is_some(), truth.is_some(), "seed {seed}");
        if let (Some(got), Some(y)) = (sol.min_yield(), truth) {
            assert!(
                (got - y).abs() <= 1e-6,
                "seed {seed}: milp {got}, brute force {y}"
            );
        }
    }
}

#[test]
fn heuristics_never_beat_the_optimum_and_bounds_never_fall_below_it() {
    let settings = Settings::default();
    let mut successes = 0;
    for seed in 0..INSTANCES {
        let inst = common::tiny_instance(seed, 3, 7);
        let truth = brute::optimal_min_yield(&inst);
        let bound = solve(&inst, Method::LpBound, &settings).unwrap();
        check_verified(&inst, &bound, seed);
        match truth {
            None => {}
            Some(y) => {
                let ub = bound
                    .upper_bound()
                    .expect("feasible instance has an LP bound");
                assert!(
                    ub >= y - 1e-9,
                    "seed {seed}: LP bound {ub} below optimum {y}"
                );
            }
        }
        for m in Method::heuristics() {
            let sol = solve(&inst, m, &settings).unwrap();
            check_verified(&inst, &sol, seed);
            if let Some(got) = sol.min_yield() {
                successes += 1;
                let y = truth
                    .unwrap_or_else(|| panic!("seed {seed}: {m} solved an infeasible instance"));
                assert!(
                    got <= y + 1e-9,
                    "seed {seed}: {m} found {got} above the optimum {y}"
                );
                assert!(
                    sol.upper_bound().unwrap() >= y - 1e-9,
                    "seed {seed}: {m} bound below optimum"
                );
                if sol.status == Status::Optimal {
                    assert!(
                        got >= y - 1e-6,
                        "seed {seed}: {m} claims optimal at {got} < {y}"
                    );
                }
            } else {
                assert!(matches!(sol.status, Status::Unknown | Status::Infeasible));
                if sol.status == Status::Infeasible {
                    assert!(truth.is_none(), "seed {seed}: {m} claims infeasible");
                }
            }
        }
    }
    assert!(successes > 0);
}

#[test]
fn milp_status_and_bound_are_honest_under_a_tiny_time_limit() {
    // A size HiGHS cannot close in a millisecond: the answer must still verify, and any
    // claim of optimality must come with a closed gap.
    let spec = vcalloc::vcsched::Spec {
        hosts: 8,
        jobs: 40,
        slack: 0.3,
        cv_mem: 0.75,
        cv_cpu: 0.75,
        seed: 7,
        parallel: false,
    };
    let inst = vcalloc::vcsched::generate(&spec).unwrap();
    let settings = Settings::default();
    let deadline = vcalloc::solver::Deadline::after(Some(0.001));
    let sol = vcalloc::vcsched::solve_within(&inst, Method::Milp, &settings, &deadline).unwrap();
    check_verified(&inst, &sol, 7);
    if let Some(y) = sol.min_yield() {
        let ub = sol.upper_bound().unwrap();
        assert!(ub >= y);
        assert_eq!(
            sol.status == Status::Optimal,
            ub - y <= settings.gap_tolerance
        );
    }
}

#[test]
fn methods_stopped_by_the_deadline_answer_honestly() {
    // HiGHS cannot finish the 64 x 500 relaxation in 10 ms: the rounding heuristics return
    // no allocation, lp-bound falls back on the closed form, and nothing errors.
    let inst = Instance::load(std::path::Path::new("data/vcsched-64x500.json"), None).unwrap();
    let settings = Settings::default();
    let within = |m| {
        let deadline = vcalloc::solver::Deadline::after(Some(0.01));
        vcalloc::vcsched::solve_within(&inst, m, &settings, &deadline).unwrap()
    };
    let closed = vcalloc::vcsched::relaxation::closed_form_bound(&inst);
    for m in [Method::Rrnd, Method::Rrnz, Method::LpBound] {
        let sol = within(m);
        check_verified(&inst, &sol, 0);
        assert_eq!(sol.upper_bound(), closed, "{m}");
        assert_eq!(sol.status, Status::Unknown, "{m}");
    }
    let sol = within(Method::LpBound);
    assert_eq!(sol.stats.get("lp_highs_unfinished"), Some(&1.0));
}
