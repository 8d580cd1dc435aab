//! The HiGHS adapter on random LPs and MILPs: primal feasibility, strong duality for LPs,
//! and bounds that never cut off the incumbent for MILPs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::solver::{solve, Bounds, Deadline, HighsSettings, LinearModel, LinearStatus, Sense};

/// max c·x s.t. A x ≤ b, 0 ≤ x ≤ u, with non-negative data so that x = 0 is feasible.
fn random_model(seed: u64, integer: bool) -> (LinearModel, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (n, m) = (rng.random_range(2..12), rng.random_range(1..8));
    let mut model = LinearModel::new(Sense::Maximize);
    let b: Vec<f64> = (0..m).map(|_| rng.random_range(1.0..10.0)).collect();
    let rows: Vec<_> = b
        .iter()
        .enumerate()
        .map(|(r, &bi)| model.add_row(format!("r{r}"), Bounds::at_most(bi)))
        .collect();
    for j in 0..n {
        let entries = rows
            .iter()
            .map(|&r| (r, rng.random_range(0.0..3.0)))
            .collect();
        let cost = rng.random_range(0.0..5.0);
        let upper = rng.random_range(1.0..4.0_f64).floor();
        model.add_col(
            format!("x{j}"),
            cost,
            Bounds::new(0.0, upper),
            integer,
            entries,
        );
    }
    (model, b)
}

#[test]
fn lp_solutions_are_feasible_and_satisfy_strong_duality() {
    for seed in 0..200 {
        let (model, _) = random_model(seed, false);
        let out = solve(&model, &HighsSettings::default(), &Deadline::none(), None).unwrap();
        assert_eq!(out.status, LinearStatus::Optimal, "seed {seed}");
        let x = out.columns.unwrap();
        assert!(model.max_violation(&x) <= 1e-7, "seed {seed}");
        // Dual objective: Σ_r b_r y_r + Σ_j reduced-cost terms at the column bounds.
        let y = out.row_duals.unwrap();
        let mut dual = 0.0;
        for (row, yr) in model.rows.iter().zip(&y) {
            dual += yr * row.bounds.upper;
        }
        for (c, &xj) in model.cols.iter().zip(&x) {
            let reduced = c.cost - c.entries.iter().map(|(r, a)| a * y[r.0]).sum::<f64>();
            // At the optimum, a positive reduced cost pins x_j at its upper bound.
            if reduced > 1e-9 {
                dual += reduced * c.bounds.upper;
                assert!((xj - c.bounds.upper).abs() <= 1e-7, "seed {seed}");
            }
        }
        let obj = out.objective.unwrap();
        assert!(
            (obj - dual).abs() <= 1e-6 * (1.0 + obj.abs()),
            "seed {seed}: {obj} vs {dual}"
        );
        assert_eq!(out.dual_bound, Some(obj));
    }
}

#[test]
fn mip_solutions_are_integral_feasible_and_no_better_than_the_relaxation() {
    for seed in 0..100 {
        let (model, _) = random_model(1000 + seed, true);
        let out = solve(&model, &HighsSettings::default(), &Deadline::none(), None).unwrap();
        assert_eq!(out.status, LinearStatus::Optimal, "seed {seed}");
        let x = out.columns.unwrap();
        assert!(
            x.iter().all(|v| (v - v.round()).abs() <= 1e-9),
            "seed {seed}"
        );
        assert!(model.max_violation(&x) <= 1e-7);
        let relaxed = solve(
            &model.relaxed(),
            &HighsSettings::default(),
            &Deadline::none(),
            None,
        )
        .unwrap();
        let (obj, lp) = (out.objective.unwrap(), relaxed.objective.unwrap());
        assert!(
            obj <= lp + 1e-7,
            "seed {seed}: MIP {obj} above its relaxation {lp}"
        );
        assert!(out.dual_bound.unwrap() >= obj - 1e-7);
    }
}

#[test]
fn infeasible_models_are_reported_infeasible() {
    let mut model = LinearModel::new(Sense::Minimize);
    let r = model.add_row("r", Bounds::at_least(5.0));
    model.add_col("x", 1.0, Bounds::new(0.0, 1.0), true, vec![(r, 1.0)]);
    model.add_col("y", 1.0, Bounds::new(0.0, 1.0), false, vec![(r, 2.0)]);
    let out = solve(&model, &HighsSettings::default(), &Deadline::none(), None).unwrap();
    assert_eq!(out.status, LinearStatus::Infeasible);
    assert!(out.columns.is_none() && out.objective.is_none());
}

/// A market-split instance (Cornuéjols–Dawande; 4 rows, 30 binaries, slack priced): proving
/// its optimum takes HiGHS far longer than the limit here. HiGHS stops at the deadline with a
/// feasible point and no optimality claim, and returns soon after it (the margin allows for a
/// slow machine; the interrupt callback is what keeps it small).
#[test]
fn a_mip_stops_at_the_deadline_with_its_incumbent() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (m, n) = (4, 30);
    let mut model = LinearModel::new(Sense::Minimize);
    let a: Vec<Vec<f64>> = (0..m)
        .map(|_| {
            (0..n)
                .map(|_| f64::from(rng.random_range(0..100u32)))
                .collect()
        })
        .collect();
    let rows: Vec<_> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let d = (r.iter().sum::<f64>() / 2.0).floor();
            model.add_row(format!("split{i}"), Bounds::equal(d))
        })
        .collect();
    for j in 0..n {
        let entries = rows.iter().zip(&a).map(|(&r, ai)| (r, ai[j])).collect();
        model.add_col(format!("x{j}"), 0.0, Bounds::new(0.0, 1.0), true, entries);
    }
    for (i, &r) in rows.iter().enumerate() {
        model.add_col(
            format!("over{i}"),
            1.0,
            Bounds::new(0.0, 1e4),
            false,
            vec![(r, -1.0)],
        );
        model.add_col(
            format!("under{i}"),
            1.0,
            Bounds::new(0.0, 1e4),
            false,
            vec![(r, 1.0)],
        );
    }
    let limit = 0.5;
    let began = std::time::Instant::now();
    let out = solve(
        &model,
        &HighsSettings::default(),
        &Deadline::after(Some(limit)),
        None,
    )
    .unwrap();
    let took = began.elapsed().as_secs_f64();
    assert!(
        took < limit + 1.5,
        "returned {took:.2} s after a {limit} s limit"
    );
    assert_eq!(out.status, LinearStatus::Feasible, "{:?}", out.status);
    let x = out.columns.expect("an incumbent");
    assert!(model.max_violation(&x) <= 1e-6);
    let bound = out.dual_bound.expect("a dual bound");
    assert!(bound <= model.objective_of(&x) + 1e-6);
}
