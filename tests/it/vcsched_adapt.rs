//! Adaptation under a migration budget (RR-6692 §6.1): the MILP against brute-force
//! enumeration, the budget's two extremes, and every heuristic (the `adapt` baseline and the
//! relabelled from-scratch heuristics) against the optimum and within the budget.

use crate::common;

use vcalloc::vcsched::{brute, solve, verify, Instance, Method, Settings};
use vcalloc::Status;

fn all_methods() -> Vec<Method> {
    let mut m = vec![Method::Milp, Method::LpBound];
    m.extend(Method::heuristics());
    m
}

#[test]
fn adaptation_milp_and_heuristics_match_brute_force() {
    let settings = Settings::default();
    let (mut feasible, mut adapt_found) = (0, 0);
    for seed in 0..150 {
        let inst = common::tiny_adaptation(seed, 3, 7);
        let truth = brute::adapted_min_yield(&inst);
        feasible += usize::from(truth.is_some());
        common::check_methods(&inst, truth, &all_methods(), &settings, seed);
        let a = solve(&inst, Method::Adapt, &settings).unwrap();
        adapt_found += usize::from(a.min_yield().is_some());
    }
    assert!(feasible >= 75, "only {feasible} feasible instances");
    assert!(
        adapt_found >= feasible / 2,
        "adapt found {adapt_found} of {feasible}"
    );
}

#[test]
fn a_zero_budget_moves_nothing() {
    for seed in 0..80 {
        let mut inst = common::tiny_adaptation(1_000 + seed, 3, 7);
        inst.budget = Some(0.0);
        let truth = brute::adapted_min_yield(&inst);
        for m in [Method::Milp, Method::Adapt, Method::Mcb(8), Method::Sg] {
            let sol = solve(&inst, m, &Settings::default()).unwrap();
            assert!(verify(&inst, &sol).is_empty(), "seed {seed} {m}");
            if sol.min_yield().is_some() {
                assert_eq!(sol.migration, Some(0.0), "seed {seed} {m}");
                let p = sol.placement();
                for (t, &h) in p.iter().enumerate() {
                    if let Some(c) = inst.current_host(t) {
                        assert_eq!(h, c, "seed {seed} {m}: task {t} moved");
                    }
                }
            }
            if m == Method::Milp {
                assert_eq!(sol.min_yield().is_some(), truth.is_some(), "seed {seed}");
            }
        }
    }
}

#[test]
fn a_budget_of_all_memory_gives_the_unconstrained_optimum() {
    let settings = Settings::default();
    for seed in 0..80 {
        let mut inst = common::tiny_adaptation(2_000 + seed, 3, 7);
        inst.budget = Some(inst.total_mem());
        let free = Instance {
            current: None,
            budget: None,
            ..inst.clone()
        };
        let unconstrained = brute::optimal_min_yield(&free.flattened());
        let sol = solve(&inst, Method::Milp, &settings).unwrap();
        assert!(verify(&inst, &sol).is_empty());
        match unconstrained {
            None => assert_eq!(sol.status, Status::Infeasible, "seed {seed}"),
            Some(y) => {
                let got = sol.min_yield().unwrap();
                assert!((got - y).abs() <= 1e-6, "seed {seed}: {got} vs {y}");
            }
        }
    }
}

#[test]
fn the_budget_override_applies_and_verify_catches_an_overspent_budget() {
    let inst = common::tiny_adaptation(5, 3, 7);
    let settings = Settings {
        budget: Some(0.0),
        ..Settings::default()
    };
    let sol = solve(&inst, Method::Milp, &settings).unwrap();
    assert_eq!(sol.budget, Some(0.0));
    assert!(verify(&inst, &sol).is_empty());
    // A forged file that moves a task but reports no migration is rejected.
    if let Some(t) = (0..inst.num_tasks()).find(|&t| inst.current_host(t).is_some()) {
        let unlimited = solve(&inst, Method::Adapt, &Settings::default()).unwrap();
        if unlimited.min_yield().is_some() {
            let mut forged = unlimited.clone();
            let job = inst.task_jobs()[t];
            let k = t - inst.task_jobs().iter().position(|&i| i == job).unwrap();
            let c = inst.current_host(t).unwrap();
            forged.jobs[job].hosts[k] = (c + 1) % inst.hosts;
            forged.budget = Some(0.0);
            let v = verify(&inst, &forged);
            assert!(
                inst.hosts == 1 || v.iter().any(|x| x.constraint.starts_with("migration")),
                "{v:?}"
            );
        }
    }
}

#[test]
fn the_optimum_grows_with_the_budget_on_generated_adaptations() {
    use vcalloc::vcsched::perturb::{adaptation, Perturbation};
    let settings = Settings::default();
    for seed in 0..4 {
        let spec = vcalloc::vcsched::Spec {
            hosts: 4,
            jobs: 8,
            slack: 0.4,
            cv_mem: 0.5,
            cv_cpu: 0.5,
            seed,
            parallel: false,
        };
        let mut last: Option<f64> = None;
        for budget_fraction in [0.0, 0.1, 0.3, 1.0] {
            let p = Perturbation {
                budget_fraction,
                ..Default::default()
            };
            let inst = adaptation(&spec, &p, None).unwrap();
            assert_eq!(inst, adaptation(&spec, &p, None).unwrap(), "deterministic");
            let milp = solve(&inst, Method::Milp, &settings).unwrap();
            let heur = solve(&inst, Method::Adapt, &settings).unwrap();
            assert!(verify(&inst, &milp).is_empty() && verify(&inst, &heur).is_empty());
            if let (Some(h), Some(m)) = (heur.min_yield(), milp.min_yield()) {
                assert!(h <= m + 1e-9, "seed {seed}");
            }
            let y = milp.min_yield().unwrap_or(0.0);
            if let Some(prev) = last {
                assert!(
                    y >= prev - 1e-9,
                    "seed {seed}: {y} < {prev} at a larger budget"
                );
            }
            last = Some(y);
        }
    }
}

/// With one node for the direct route, the budget-free and capped routes answer most
/// instances: they must find the brute-force optimum too.
#[test]
fn every_exact_route_matches_brute_force() {
    let settings = Settings {
        adapt_direct_nodes: 1,
        ..Settings::default()
    };
    let mut routes = std::collections::BTreeMap::new();
    for seed in 0..120 {
        let mut inst = common::tiny_adaptation(7_000 + seed, 3, 9);
        // Tight budgets, so that the relabelled budget-free optimum often breaks them.
        inst.budget = inst.budget.map(|b| b * 0.3);
        let truth = brute::adapted_min_yield(&inst);
        common::check_methods(&inst, truth, &[Method::Milp], &settings, seed);
        let sol = solve(&inst, Method::Milp, &settings).unwrap();
        for k in sol.stats.keys().filter(|k| k.starts_with("route_")) {
            *routes.entry(k.clone()).or_insert(0) += 1;
        }
    }
    for r in ["route_direct", "route_budget_free", "route_capped"] {
        assert!(
            routes.get(r).copied().unwrap_or(0) > 0,
            "{r} never used: {routes:?}"
        );
    }
}

/// Issue 37: `lp-bound` on a budgeted adaptation carries the relaxation's `dual` proof. On
/// tiny adaptations (tight budgets among them) its bound is never below the brute-force
/// optimum, and the check re-derives it (`dual`, or a closed form when the budget does not
/// bind) from the instance and the proof alone; on some the budget binds and the dual proof
/// is what proves it.
#[test]
fn the_budgeted_lp_bound_is_above_brute_force_and_its_dual_proof_is_re_derived() {
    use vcalloc::problem::{BoundCheck, Depth, Proof};
    let (mut compared, mut duals) = (0, 0);
    for seed in 0..45 {
        let mut inst = common::tiny_adaptation(3_000 + seed, 3, 7);
        match seed % 3 {
            1 => inst.budget = inst.budget.map(|b| b / 10.0),
            2 => inst.budget = Some(0.0),
            _ => {}
        }
        let sol = solve(&inst, Method::LpBound, &Settings::default()).unwrap();
        assert!(verify(&inst, &sol).is_empty(), "seed {seed}");
        let truth = brute::adapted_min_yield(&inst);
        if let (Some(ub), Some(y)) = (sol.certificate.bound, truth) {
            assert!(
                ub >= y - 1e-9,
                "seed {seed}: LP bound {ub} below the optimum {y}"
            );
            compared += 1;
        }
        let check = vcalloc::vcsched::proof::check(&inst, &sol, Depth::shallow());
        if sol.certificate.bound.is_some() {
            assert!(check.is_checked(), "seed {seed}: {check:?}");
        }
        // A closed form at or below the LP's bound settles it first.
        if let BoundCheck::Checked { kind: "dual", .. } = check {
            assert!(matches!(sol.certificate.proof, Some(Proof::Dual { .. })));
            duals += 1;
        }
    }
    assert!(compared >= 30, "{compared} compared");
    assert!(duals >= 3, "{duals} dual proofs");
}
