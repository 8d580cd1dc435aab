//! Parallel jobs (RR-6692 §5): the MILP of equations 12–21 against brute-force enumeration,
//! the heuristics (tasks placed as items) against the optimum, and the per-job average-yield
//! LP against an independent model and its own dual certificate.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::solver::Deadline;
use vcalloc::vcsched::{
    allocate, avg_lp, brute, placement_min_yield, solve, verify, Method, Settings,
};

#[test]
fn parallel_milp_and_heuristics_match_brute_force() {
    let settings = Settings::default();
    let mut feasible = 0;
    for seed in 0..200 {
        let inst = common::tiny_parallel_instance(seed, 3, 8);
        let truth = brute::optimal_min_yield(&inst.flattened());
        feasible += usize::from(truth.is_some());
        let mut methods = vec![Method::Milp, Method::LpBound];
        methods.extend(Method::heuristics());
        common::check_methods(&inst, truth, &methods, &settings, seed);
    }
    assert!(feasible >= 100, "only {feasible} feasible instances");
}

#[test]
fn parallel_milp_without_symmetry_breaking_matches_brute_force() {
    let settings = Settings {
        symmetry_breaking: false,
        warm_start: false,
        ..Settings::default()
    };
    for seed in 0..60 {
        let inst = common::tiny_parallel_instance(5_000 + seed, 3, 8);
        let truth = brute::optimal_min_yield(&inst.flattened());
        common::check_methods(&inst, truth, &[Method::Milp], &settings, seed);
    }
}

#[test]
fn tasks_of_a_job_get_equal_grants_and_the_job_yield_is_their_average() {
    let inst = common::tiny_parallel_instance(3, 3, 8);
    assert!(inst.is_parallel());
    let sol = solve(&inst, Method::Mcb(8), &Settings::default()).unwrap();
    assert!(verify(&inst, &sol).is_empty());
    for (g, job) in sol.jobs.iter().zip(&inst.jobs) {
        assert_eq!(g.hosts.len(), job.tasks as usize);
    }
    // A solution file with one host per job instead of per task is rejected.
    let mut bad = sol.clone();
    let k = inst.jobs.iter().position(|j| j.tasks > 1).unwrap();
    bad.jobs[k].hosts.pop();
    assert!(verify(&inst, &bad)
        .iter()
        .any(|v| v.constraint == "one-host-per-task"));
}

/// `Σ_j y_j + Σ_i max_{a ∈ [l_i, u_i]} (c_i − Σ_j n_ij y_j) a`: an upper bound on the LP for
/// any `y ≥ 0` (weak duality), computed without any solver.
fn dual_bound(n: &[Vec<f64>], c: &[f64], l: &[f64], u: &[f64], y: &[f64]) -> f64 {
    let mut total: f64 = y.iter().sum();
    for i in 0..c.len() {
        let reduced = c[i] - (0..y.len()).map(|j| n[i][j] * y[j]).sum::<f64>();
        total += reduced * if reduced > 0.0 { u[i] } else { l[i] };
    }
    total
}

#[test]
fn per_job_average_yield_lp_is_optimal() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    for seed in 0..150 {
        let inst = common::tiny_parallel_instance(seed, 4, 10);
        let placement: Vec<usize> = (0..inst.num_tasks())
            .map(|_| rng.random_range(0..inst.hosts))
            .collect();
        let y = placement_min_yield(&inst, &placement);
        let alloc = allocate(&inst, &placement, true).unwrap();
        // Feasible and never below the minimum yield.
        assert!(alloc.min_yield >= y - 1e-12, "seed {seed}");
        // The same program built independently with good_lp.
        let lp = common::optimal_avg_yield(&inst, &placement, y);
        assert!((alloc.avg_yield - lp).abs() <= 1e-7, "seed {seed}");
        // A dual certificate: HiGHS's host prices, checked by weak duality recomputed here.
        let (jobs, hosts) = (inst.num_jobs(), inst.hosts);
        let mut n = vec![vec![0.0; hosts]; jobs];
        for (&i, &h) in inst.task_jobs().iter().zip(&placement) {
            n[i][h] += 1.0;
        }
        let c: Vec<f64> = inst
            .jobs
            .iter()
            .map(|j| 1.0 / (j.cpu * jobs as f64))
            .collect();
        let l: Vec<f64> = inst.jobs.iter().map(|j| j.cpu * y).collect();
        let u: Vec<f64> = inst.jobs.iter().map(|j| j.cpu).collect();
        let prices = avg_lp::solve_grant_lp(&inst, &placement, y, &Deadline::none())
            .unwrap()
            .expect("no deadline")
            .host_prices;
        assert!(prices.iter().all(|&p| p >= 0.0));
        let bound = dual_bound(&n, &c, &l, &u, &prices);
        assert!(bound >= alloc.avg_yield - 1e-9, "seed {seed}: weak duality");
        assert!(
            bound - alloc.avg_yield <= 1e-7,
            "seed {seed}: dual {bound} vs primal {}",
            alloc.avg_yield
        );
        checked += 1;
    }
    assert_eq!(checked, 150);
}

#[test]
fn lublin_task_counts_follow_the_model() {
    use vcalloc::vcsched::generate::{lublin, lublin_tasks};
    let mut rng = ChaCha8Rng::seed_from_u64(2003);
    let n = 40_000;
    let sizes: Vec<u32> = (0..n).map(|_| lublin_tasks(&mut rng)).collect();
    assert!(sizes.iter().all(|&s| (1..=64).contains(&s)));
    let serial = sizes.iter().filter(|&&s| s == 1).count() as f64 / n as f64;
    assert!(
        (serial - lublin::SERIAL_PROB).abs() < 0.01,
        "serial {serial}"
    );
    let parallel: Vec<f64> = sizes
        .iter()
        .filter(|&&s| s > 1)
        .map(|&s| f64::from(s))
        .collect();
    let pow2 = parallel
        .iter()
        .filter(|s| (s.log2().fract()).abs() < 1e-12)
        .count() as f64
        / parallel.len() as f64;
    assert!(pow2 >= lublin::POW2_PROB - 0.02, "powers of two {pow2}");
    // E[log2 size] of the two-stage uniform: 0.86 (0.8 + 3.5) / 2 + 0.14 (3.5 + 6) / 2 = 2.51.
    let mean_log = parallel.iter().map(|s| s.log2()).sum::<f64>() / parallel.len() as f64;
    assert!((mean_log - 2.51).abs() < 0.15, "mean log2 size {mean_log}");
    assert!(sizes.contains(&64) && sizes.iter().any(|&s| s > 2 && !s.is_power_of_two()));
}

#[test]
fn parallel_generator_is_deterministic_and_counts_tasks() {
    let spec = vcalloc::vcsched::Spec {
        hosts: 64,
        jobs: 500,
        slack: 0.3,
        cv_mem: 0.75,
        cv_cpu: 0.25,
        seed: 9,
        parallel: true,
    };
    let a = vcalloc::vcsched::generate(&spec).unwrap();
    let b = vcalloc::vcsched::generate(&spec).unwrap();
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.num_tasks(), 500);
    assert!(a.is_parallel() && a.num_jobs() < 200);
    let mem_per_task = a.total_mem() / 500.0;
    let mean = 64.0 * 0.7 / 500.0;
    assert!(
        (mem_per_task - mean).abs() < 0.15 * mean,
        "{mem_per_task} vs {mean}"
    );
    // Every method works on it and verifies.
    for m in [Method::Sg, Method::Mcb(8), Method::Gr] {
        let sol = solve(&a, m, &Settings::default()).unwrap();
        assert!(verify(&a, &sol).is_empty(), "{m}");
    }
}
