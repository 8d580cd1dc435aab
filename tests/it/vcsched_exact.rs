//! The exact method (`--method exact`, `models/vcsched.md` "The exact method") against brute
//! force (sequential and parallel, feasible and infeasible), against the MILP on the paper's
//! small set, on planted optima, and honest under a time limit.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use vcalloc::solver::Deadline;
use vcalloc::vcsched::{
    brute, generate, relaxation, solve, solve_within, verify, Instance, Job, Method, Settings,
    Solution, Spec,
};
use vcalloc::Status;

/// Checks one answer of `exact` against the true optimum (`None`: no placement fits).
fn check_exact(inst: &Instance, sol: &Solution, truth: Option<f64>, what: &str) {
    let v = verify(inst, sol);
    assert!(v.is_empty(), "{what}: {v:?}");
    let closed = relaxation::closed_form_bound(inst);
    match truth {
        None => {
            assert_eq!(sol.status, Status::Infeasible, "{what}");
            assert!(sol.min_yield().is_none(), "{what}");
        }
        Some(y) => {
            assert_eq!(sol.status, Status::Optimal, "{what}");
            let got = sol.min_yield().unwrap();
            assert!((got - y).abs() <= 1e-6, "{what}: exact {got}, optimum {y}");
            let ub = sol.upper_bound().unwrap();
            assert!(ub >= y - 1e-9, "{what}: bound {ub} below the optimum {y}");
            assert!(
                ub <= closed.unwrap() + 1e-12,
                "{what}: bound {ub} above {closed:?}"
            );
        }
    }
}

/// Runs `exact` on 500 instances from `make` against brute force; both answers must be
/// exercised (at least 250 feasible and 10 infeasible instances).
fn against_brute_force(make: impl Fn(u64) -> Instance) {
    let settings = Settings::default();
    let (mut feasible, mut infeasible) = (0, 0);
    for seed in 0..500 {
        let inst = make(seed);
        let truth = brute::optimal_min_yield(&inst.flattened());
        let sol = solve(&inst, Method::Exact, &settings).unwrap();
        check_exact(&inst, &sol, truth, &format!("seed {seed}"));
        if truth.is_some() {
            feasible += 1;
        } else {
            infeasible += 1;
        }
    }
    assert!(feasible >= 250, "only {feasible} feasible");
    assert!(infeasible >= 10, "only {infeasible} infeasible");
}

#[test]
fn exact_matches_brute_force_on_sequential_instances() {
    against_brute_force(|seed| common::tiny_instance(20_000 + seed, 4, 9));
}

#[test]
fn exact_matches_brute_force_on_parallel_instances() {
    let parallel = (0..500)
        .filter(|&seed| common::tiny_parallel_instance(30_000 + seed, 3, 9).is_parallel())
        .count();
    assert!(parallel >= 400, "only {parallel} parallel instances");
    against_brute_force(|seed| common::tiny_parallel_instance(30_000 + seed, 3, 9));
}

#[test]
fn exact_matches_the_milp_on_the_papers_small_set() {
    let settings = Settings::default();
    let mut compared = 0;
    for (k, jobs) in [6usize, 8, 10, 12].into_iter().enumerate() {
        for s in [1, 3, 5, 7, 9] {
            let spec = Spec {
                hosts: 4,
                jobs,
                slack: f64::from(s) / 10.0,
                cv_mem: [0.25, 0.75][s as usize % 2],
                cv_cpu: [0.25, 0.75][k % 2],
                seed: 100 * k as u64 + s as u64,
                parallel: false,
            };
            let inst = generate(&spec).unwrap();
            let milp = solve(&inst, Method::Milp, &settings).unwrap();
            let exact = solve(&inst, Method::Exact, &settings).unwrap();
            let what = format!("{spec:?}");
            assert!(verify(&inst, &exact).is_empty(), "{what}");
            assert_eq!(exact.status, milp.status, "{what}");
            if let (Some(a), Some(b)) = (exact.min_yield(), milp.min_yield()) {
                assert!((a - b).abs() <= 1e-6, "{what}: exact {a}, milp {b}");
                compared += 1;
            }
        }
    }
    assert!(
        compared >= 15,
        "only {compared} feasible instances compared"
    );
}

/// `hosts` hosts, each cut into 3–5 items whose CPU needs sum to `load` (≤ 1 each, so
/// `load ≤ 2`) and whose memory needs sum to at most 1; shuffled.
fn planted(hosts: usize, load: f64, seed: u64) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut jobs = Vec::new();
    for _ in 0..hosts {
        let k = rng.random_range(3..=5usize);
        let cut = |rng: &mut ChaCha8Rng, total: f64| -> Vec<f64> {
            loop {
                let w: Vec<f64> = (0..k).map(|_| rng.random_range(0.2..1.0)).collect();
                let s: f64 = w.iter().sum();
                let v: Vec<f64> = w.iter().map(|x| x / s * total).collect();
                if v.iter().all(|&x| x <= 1.0) {
                    return v;
                }
            }
        };
        let cpu = cut(&mut rng, load);
        let total_mem = rng.random_range(0.6..0.99);
        let mem = cut(&mut rng, total_mem);
        jobs.extend(cpu.into_iter().zip(mem).map(|(a, m)| Job::new(a, m)));
    }
    for i in (1..jobs.len()).rev() {
        jobs.swap(i, rng.random_range(0..=i));
    }
    Instance::new(hosts, jobs, Path::new("<planted>")).unwrap()
}

#[test]
fn a_planted_perfect_packing_is_found_and_proven() {
    let settings = Settings::default();
    for seed in 0..20 {
        let hosts = [4, 6, 8][seed as usize % 3];
        let load = [0.8, 1.3, 1.7, 2.0][seed as usize % 4];
        let inst = planted(hosts, load, seed);
        let sol = solve(&inst, Method::Exact, &settings).unwrap();
        let what = format!("seed {seed}, {hosts} hosts, load {load}");
        assert!(verify(&inst, &sol).is_empty(), "{what}");
        assert_eq!(sol.status, Status::Optimal, "{what}");
        let want = (1.0 / load).min(1.0);
        let got = sol.min_yield().unwrap();
        assert!((got - want).abs() <= 1e-6, "{what}: {got}, planted {want}");
    }
}

#[test]
fn exact_is_honest_on_a_large_instance_under_a_time_limit() {
    let inst = Instance::load(Path::new("data/vcsched-64x500.json"), None).unwrap();
    let settings = Settings::default();
    let closed = relaxation::closed_form_bound(&inst).unwrap();
    for secs in [0.001, 0.5] {
        let sol = solve_within(
            &inst,
            Method::Exact,
            &settings,
            &Deadline::after(Some(secs)),
        )
        .unwrap();
        assert!(verify(&inst, &sol).is_empty());
        let (y, ub) = (sol.min_yield().unwrap(), sol.upper_bound().unwrap());
        assert!(y <= ub && ub <= closed + 1e-12, "{y} {ub} {closed}");
        assert_eq!(
            sol.status == Status::Optimal,
            ub - y <= settings.gap_tolerance
        );
        // The descent and the CPU bounds certify this instance within 0.1%.
        if secs >= 0.5 {
            assert!(sol.gap.unwrap() <= 1e-3, "gap {:?}", sol.gap);
        }
    }
}

#[test]
fn exact_bound_is_tighter_than_the_closed_form_when_items_must_share() {
    // Two hosts, three jobs: two of them share a host, at best the two of α = 0.75, so
    // L* = 1.5 and Y* = 2/3, while the closed form says H/Σα = 0.8.
    let jobs = vec![Job::new(1.0, 0.4), Job::new(0.75, 0.4), Job::new(0.75, 0.4)];
    let inst = Instance::new(2, jobs, Path::new("<t>")).unwrap();
    assert_eq!(relaxation::closed_form_bound(&inst), Some(0.8));
    let sol = solve(&inst, Method::Exact, &Settings::default()).unwrap();
    check_exact(&inst, &sol, Some(1.0 / 1.5), "two hosts");
    assert!(sol.upper_bound().unwrap() <= 1.0 / 1.5 + 1e-6);
}
