//! The pricing knapsack against brute-force enumeration (random tiny cases, both node
//! relaxations, both bounds along a direction), against a dynamic-programming bounded knapsack
//! with zero amplitude, the directional dual against Clarabel's SOCP value, and the integer
//! (Martello–Toth) bound against the true optimum of every sub-box.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::periodic::knapsack::{
    branch_and_bound, directional, directional_search, Bound, Item, Knapsack, NodeSolver, Relaxed,
    Search, Socp,
};
use vcalloc::solver::Deadline;

fn random_knapsack(seed: u64, items: usize, amplitude: bool) -> Knapsack {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let capacity = 20.0;
    let items = (0..items)
        .map(|job| {
            let mean: f64 = rng.random_range(1.0..10.0);
            let rho = if amplitude {
                mean * rng.random::<f64>()
            } else {
                0.0
            };
            let phi = std::f64::consts::TAU * rng.random::<f64>();
            Item {
                job,
                profit: rng.random_range(0.05..1.0) * mean / 5.0,
                mean,
                x: rho * phi.cos(),
                y: rho * phi.sin(),
                ub: rng
                    .random_range(1..=4u32)
                    .min((capacity / mean) as u32)
                    .max(1),
            }
        })
        .collect();
    Knapsack::new(capacity, items)
}

/// The best fitting count vector of the whole knapsack, by enumeration.
fn brute(k: &Knapsack) -> f64 {
    let upper: Vec<u32> = k.items.iter().map(|i| i.ub).collect();
    brute_box(k, &vec![0; upper.len()], &upper).unwrap_or(0.0)
}

/// Every node relaxation with every bound along a direction.
const VARIANTS: [(NodeSolver, Bound); 4] = [
    (NodeSolver::Clarabel, Bound::Fractional),
    (NodeSolver::Clarabel, Bound::Integer),
    (NodeSolver::Directional, Bound::Fractional),
    (NodeSolver::Directional, Bound::Integer),
];

/// The search with combinations of reduced-cost fixing, tightening, node order, root start
/// (Clarabel, or a disc search from a hint), integer-row pruning and the cancelling LP; all
/// must agree. Also checks the root bound against the optimum.
fn exact(k: &Knapsack, (solver, bound): (NodeSolver, Bound)) -> (f64, Option<f64>) {
    let mut out: Option<(f64, Option<f64>)> = None;
    for (fixing, tighten, best_first, root_hint, integer_rows, cancel_lp, batch) in [
        (true, true, true, None, true, true, 0),
        (true, true, true, None, true, false, 0),
        (true, true, true, None, false, true, 0),
        (true, true, false, None, true, true, 0),
        (false, false, false, None, true, true, 0),
        (false, false, true, None, true, false, 0),
        (true, false, false, None, true, true, 0),
        (true, false, false, None, false, false, 0),
        (false, true, true, None, true, true, 0),
        (true, true, true, Some([0.3, -0.4]), true, true, 0),
        // Nodes expanded in batches, on however many threads the pool has.
        (true, true, true, None, true, true, 4),
        (true, true, false, Some([0.3, -0.4]), true, true, 3),
    ] {
        let search = Search {
            threshold: 0.0,
            keep_above: 0.0,
            stop_after: None,
            patience: None,
            node_limit: u64::MAX,
            solver,
            bound,
            root_hint,
            fixing,
            tighten,
            integer_rows,
            cancel_lp,
            best_first,
            batch,
            stop_on_kept: true,
        };
        let s = branch_and_bound(k, vec![0; k.items.len()], &search, &Deadline::none()).unwrap();
        assert!(k.fits(&s.best) && k.compatible(&s.best));
        assert!(s.improving.iter().all(|(u, _)| k.compatible(u)));
        assert!((k.value(&s.best) - s.value).abs() < 1e-12);
        if let Some((root, _)) = s.root {
            assert!(
                root >= s.value - 1e-9,
                "root bound {root} below {}",
                s.value
            );
        }
        match out {
            None => out = Some((s.value, s.proven_max)),
            Some((v, _)) => assert!(
                (v - s.value).abs() <= 1e-9,
                "fixing {fixing} / tighten {tighten} / best first {best_first} / hint {root_hint:?} / integer rows {integer_rows} / cancelling LP {cancel_lp} / batch {batch}: {} vs {v}",
                s.value
            ),
        }
    }
    out.unwrap()
}

#[test]
fn branch_and_bound_matches_brute_force() {
    for seed in 0..300 {
        let k = random_knapsack(seed, 1 + (seed as usize % 6), true);
        let truth = brute(&k);
        for solver in VARIANTS {
            let (v, proven) = exact(&k, solver);
            assert!(
                (v - truth).abs() <= 1e-9,
                "seed {seed} {solver:?}: {v} vs brute force {truth}"
            );
            let p = proven.expect("complete search");
            assert!(
                p >= truth - 1e-12 && p <= truth + 1e-6,
                "seed {seed}: proven {p} vs {truth}"
            );
        }
    }
}

#[test]
fn threshold_pruning_still_proves_the_bound() {
    for seed in 0..200 {
        let k = random_knapsack(1000 + seed, 2 + (seed as usize % 5), true);
        let truth = brute(&k);
        for (threshold, bound) in [0.5 * truth, truth, 1.5 * truth]
            .into_iter()
            .flat_map(|t| [(t, Bound::Fractional), (t, Bound::Integer)])
        {
            let search = Search {
                threshold,
                keep_above: threshold,
                bound,
                ..Search::default()
            };
            let s =
                branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none()).unwrap();
            let p = s.proven_max.unwrap();
            assert!(
                p >= truth - 1e-12,
                "seed {seed}: claims max ≤ {p} but {truth} exists"
            );
            // Every solution above the threshold it reports is real.
            for (u, v) in &s.improving {
                assert!(k.fits(u) && *v > threshold && (k.value(u) - v).abs() < 1e-12);
            }
        }
    }
}

/// A search out of patience stops with what it found and claims no proof; one that never
/// finds an improving solution is not cut short by patience and still proves its bound.
#[test]
fn patience_stops_without_claiming_a_proof() {
    let mut stopped = 0;
    for seed in 0..200 {
        let k = random_knapsack(4000 + seed, 3 + (seed as usize % 4), true);
        let truth = brute(&k);
        for threshold in [0.3 * truth, 1.2 * truth] {
            let search = Search {
                threshold,
                keep_above: threshold,
                patience: Some(0),
                ..Search::default()
            };
            let s =
                branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none()).unwrap();
            for (u, v) in &s.improving {
                assert!(k.fits(u) && *v > threshold && (k.value(u) - v).abs() < 1e-12);
            }
            match s.proven_max {
                Some(p) => assert!(p >= truth - 1e-12, "seed {seed}: {p} < {truth}"),
                None => {
                    assert!(!s.improving.is_empty(), "seed {seed}: stopped with nothing");
                    stopped += 1;
                }
            }
            if threshold > truth {
                assert!(
                    s.proven_max.is_some(),
                    "seed {seed}: nothing to find, must prove"
                );
            }
        }
    }
    assert!(stopped > 20, "patience cut only {stopped} searches short");
}

/// Solutions kept (above `keep_above`) but not beating the pruning threshold do not stop a
/// partial search: when nothing beats the threshold it runs to the proof, and hands over what
/// it kept on the way.
#[test]
fn only_solutions_beating_the_threshold_stop_a_partial_search() {
    let mut kept = 0;
    for seed in 0..200 {
        let k = random_knapsack(4500 + seed, 3 + (seed as usize % 4), true);
        let truth = brute(&k);
        for batch in [0, 3] {
            let search = Search {
                threshold: 1.2 * truth,
                keep_above: 0.3 * truth,
                stop_after: Some(1),
                patience: Some(0),
                stop_on_kept: false,
                batch,
                ..Search::default()
            };
            let s =
                branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none()).unwrap();
            let p = s.proven_max.expect("nothing beats the threshold: proven");
            assert!(p >= truth - 1e-12 && p >= 1.2 * truth, "seed {seed}");
            for (u, v) in &s.improving {
                assert!(k.fits(u) && *v > 0.3 * truth && *v <= truth + 1e-12);
            }
            kept += usize::from(!s.improving.is_empty());
        }
    }
    assert!(kept > 40, "only {kept} searches kept a solution on the way");
}

/// A search stopped early (node limits, partial pricing, patience; best first and depth
/// first) still bounds the optimum by its open nodes: `open_bound` is never below the brute
/// force optimum, and it is given exactly when the search is incomplete with its root solved.
#[test]
fn a_search_stopped_early_bounds_the_optimum_by_its_open_nodes() {
    let mut bounded = 0;
    for seed in 0..300 {
        let k = random_knapsack(7000 + seed, 3 + (seed as usize % 5), seed % 4 != 0);
        let truth = brute(&k);
        let base = Search {
            threshold: 0.5 * truth,
            keep_above: 0.5 * truth,
            best_first: seed % 2 == 0,
            ..Search::default()
        };
        for search in [
            Search {
                node_limit: 1 + seed % 7,
                ..base
            },
            Search {
                stop_after: Some(1),
                ..base
            },
            Search {
                patience: Some(seed % 3),
                ..base
            },
            Search {
                node_limit: 1 + seed % 7,
                batch: 2 + seed as usize % 3,
                ..base
            },
            Search {
                stop_after: Some(1),
                batch: 3,
                ..base
            },
        ] {
            let s =
                branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none()).unwrap();
            if s.proven_max.is_some() {
                assert!(s.open_bound.is_none(), "seed {seed}: complete yet open");
                continue;
            }
            if let Some(b) = s.open_bound {
                assert!(
                    b >= truth - 1e-12,
                    "seed {seed}: open bound {b} < optimum {truth}"
                );
                assert!(
                    b >= s.value,
                    "seed {seed}: open bound {b} < found {}",
                    s.value
                );
                bounded += 1;
            }
        }
    }
    assert!(bounded > 200, "only {bounded} early stops gave a bound");
}

/// Bounded knapsack by dynamic programming on integer weights.
fn dp(weights: &[usize], profits: &[f64], counts: &[u32], cap: usize) -> f64 {
    let mut best = vec![0.0_f64; cap + 1];
    for ((&w, &p), &c) in weights.iter().zip(profits).zip(counts) {
        for _ in 0..c {
            for r in (w..=cap).rev() {
                best[r] = best[r].max(best[r - w] + p);
            }
        }
    }
    best[cap]
}

#[test]
fn zero_amplitude_matches_dynamic_programming() {
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cap = rng.random_range(20..120usize);
        let n = rng.random_range(1..12);
        let weights: Vec<usize> = (0..n).map(|_| rng.random_range(1..=cap / 2)).collect();
        let profits: Vec<f64> = weights
            .iter()
            .map(|&w| w as f64 * rng.random_range(0.5..1.5))
            .collect();
        let counts: Vec<u32> = weights
            .iter()
            .map(|&w| rng.random_range(1..=(cap / w).min(6) as u32))
            .collect();
        let k = Knapsack {
            capacity: cap as f64,
            items: (0..n)
                .map(|i| Item {
                    job: i,
                    profit: profits[i],
                    mean: weights[i] as f64,
                    x: 0.0,
                    y: 0.0,
                    ub: counts[i],
                })
                .collect(),
            conflicts: Vec::new(),
            lower: Vec::new(),
        };
        let truth = dp(&weights, &profits, &counts, cap);
        for solver in VARIANTS {
            let (v, _) = exact(&k, solver);
            assert!(
                (v - truth).abs() <= 1e-9 * truth.max(1.0),
                "seed {seed} {solver:?}: {v} vs DP {truth}"
            );
        }
    }
}

#[test]
fn directional_dual_equals_the_socp_relaxation() {
    for seed in 0..100 {
        let k = random_knapsack(5000 + seed, 8, true);
        let n = k.items.len();
        let (lower, upper) = (vec![0; n], k.items.iter().map(|i| i.ub).collect::<Vec<_>>());
        let mut socp = Socp::new(&k, &Deadline::none()).unwrap();
        let Relaxed::Bounded {
            x,
            dir,
            bound: socp_bound,
        } = socp.solve(&k, &lower, &upper, Bound::Fractional).unwrap()
        else {
            panic!("seed {seed}")
        };
        let socp_value = k
            .items
            .iter()
            .zip(&x)
            .map(|(it, v)| it.profit * v)
            .sum::<f64>();
        // Clarabel's bound (from its multipliers) is valid and tight.
        assert!(
            socp_bound >= socp_value - 1e-6
                && socp_bound <= socp_value + 1e-5 * socp_value.max(1.0)
        );
        // The directional dual is valid from any start (never below the SOCP optimum) ...
        let Relaxed::Bounded { bound: cold, .. } = directional_search(
            &k,
            &lower,
            &upper,
            None,
            f64::NEG_INFINITY,
            Bound::Fractional,
        ) else {
            panic!()
        };
        assert!(
            cold >= socp_value - 1e-6,
            "seed {seed}: {cold} < {socp_value}"
        );
        // ... and tight when started from Clarabel's multipliers, as at the root of the tree.
        let Relaxed::Bounded { bound: warm, .. } = directional_search(
            &k,
            &lower,
            &upper,
            dir,
            f64::NEG_INFINITY,
            Bound::Fractional,
        ) else {
            panic!()
        };
        assert!(
            warm >= socp_value - 1e-6,
            "seed {seed}: {warm} < {socp_value}"
        );
        assert!(
            warm <= socp_value + 1e-5 * socp_value.max(1.0),
            "seed {seed}: {warm} vs {socp_value}"
        );
    }
}

/// Every fitting count vector within `lower ≤ U ≤ upper`, by enumeration.
fn fitting_points(k: &Knapsack, lower: &[u32], upper: &[u32]) -> Vec<Vec<u32>> {
    let mut u = lower.to_vec();
    let mut out = Vec::new();
    loop {
        if k.fits(&u) {
            out.push(u.clone());
        }
        let mut i = 0;
        loop {
            if i == u.len() {
                return out;
            }
            if u[i] < upper[i] {
                u[i] += 1;
                break;
            }
            u[i] = lower[i];
            i += 1;
        }
    }
}

/// Best fitting count vector within `lower ≤ U ≤ upper` (`None`: none fits).
fn brute_box(k: &Knapsack, lower: &[u32], upper: &[u32]) -> Option<f64> {
    fitting_points(k, lower, upper)
        .iter()
        .map(|u| k.value(u))
        .max_by(f64::total_cmp)
}

/// A box of `k`: lower bounds drawn up to half of each item's cap, upper bounds at the cap.
fn random_box(k: &Knapsack, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let lower = k
        .items
        .iter()
        .map(|i| rng.random_range(0..=i.ub / 2))
        .collect();
    (lower, k.items.iter().map(|i| i.ub).collect())
}

/// Feasibility tightening keeps every fitting point of the box, says infeasible only when
/// nothing fits, and cuts somewhere (the test would pass for a no-op otherwise).
#[test]
fn tightening_keeps_every_fitting_point() {
    let mut cut = 0;
    for seed in 0..300u64 {
        let k = random_knapsack(9000 + seed, 2 + (seed as usize % 4), true);
        let (lower, upper) = random_box(&k, seed);
        let mut tight = upper.clone();
        let feasible = k.tighten(&lower, &mut tight);
        // Every fitting point of the original box lies in the tightened one.
        let points = fitting_points(&k, &lower, &upper);
        for u in &points {
            assert!(
                feasible,
                "seed {seed}: {u:?} fits but the box was called empty"
            );
            assert!(
                u.iter().zip(&tight).all(|(a, b)| a <= b),
                "seed {seed}: {u:?} fits but is cut by {tight:?}"
            );
        }
        let any = !points.is_empty();
        assert_eq!(
            any, feasible,
            "seed {seed}: infeasible only when nothing fits"
        );
        if feasible && tight != upper {
            cut += 1;
        }
    }
    assert!(cut > 50, "tightening cut only {cut} boxes");
}

/// The integer bound along any direction, and its minimum over the disc, never falls below
/// the best integer point of the box, and never exceeds the fractional bound; on boxes the
/// enumeration shows tight, it is strictly lower somewhere (it is not the fractional bound
/// under another name).
#[test]
fn the_integer_bound_is_valid_on_every_box() {
    let mut tighter = 0;
    for seed in 0..300u64 {
        let k = random_knapsack(7000 + seed, 2 + (seed as usize % 5), true);
        let (lower, upper) = random_box(&k, seed);
        let truth = brute_box(&k, &lower, &upper);
        for d in 0..16 {
            let t = std::f64::consts::TAU * f64::from(d) / 16.0;
            let r = if d % 2 == 0 { 1.0 } else { 0.6 };
            let e = [r * t.cos(), r * t.sin()];
            let int = directional(&k, &lower, &upper, e, Bound::Integer);
            let frac = directional(&k, &lower, &upper, e, Bound::Fractional);
            match (int, frac, truth) {
                (Some((i, xi)), Some((f, xf)), _) => {
                    assert!(i <= f + 1e-12, "seed {seed}: integer {i} > fractional {f}");
                    assert_eq!(xi, xf, "the point is the fractional one either way");
                    if let Some(t) = truth {
                        assert!(
                            i >= t - 1e-9,
                            "seed {seed} dir {d}: bound {i} < optimum {t}"
                        );
                    }
                    if i < f - 1e-9 {
                        tighter += 1;
                    }
                }
                (None, None, None) => {}
                other => panic!("seed {seed}: {other:?}"),
            }
        }
        match (
            directional_search(&k, &lower, &upper, None, f64::NEG_INFINITY, Bound::Integer),
            truth,
        ) {
            (Relaxed::Bounded { bound, .. }, Some(t)) => {
                assert!(bound >= t - 1e-9, "seed {seed}: disc minimum {bound} < {t}")
            }
            (Relaxed::Infeasible, None) | (Relaxed::Bounded { .. }, None) => {}
            (r, t) => panic!("seed {seed}: {r:?} but optimum {t:?}"),
        }
    }
    assert!(
        tighter > 100,
        "the integer bound was tighter only {tighter} times"
    );
}

/// The pricing oracle as the engine calls it — greedy, then polished pool columns, then the
/// exact search — on random small instances and duals: every column it returns fits and is
/// worth what it says; when an improving column exists it returns one; a proof it gives holds
/// against enumeration, and so does the probe's bound; and, without the probe, the pool path
/// is taken.
#[test]
fn pricing_oracle_with_its_column_pool_is_sound() {
    use vcalloc::periodic::PricingSettings;
    // With the probe (the default) and without it (then the pool path is taken).
    for probe_nodes in [PricingSettings::default().probe_nodes, 0] {
        let pool_hits = oracle_run(probe_nodes);
        if probe_nodes == 0 {
            assert!(pool_hits > 0, "the pool path was never taken");
        }
    }
}

fn oracle_run(probe_nodes: u64) -> u64 {
    use vcalloc::colgen::{Column, Pricing};
    use vcalloc::periodic::heuristics::best_fit_decreasing;
    use vcalloc::periodic::{peak, Instance, Job, PeriodicPricing, PricingSettings};
    let mut pool_hits = 0;
    for seed in 0..200 {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
        let jobs: Vec<Job> = (0..rng.random_range(2..=6))
            .map(|_| {
                let mean: f64 = rng.random_range(1.0..8.0);
                Job {
                    mean,
                    amplitude: mean * rng.random::<f64>(),
                    phase: std::f64::consts::TAU * rng.random::<f64>(),
                    tasks: rng.random_range(1..=3),
                }
            })
            .collect();
        let inst = Instance {
            capacity: 20.0,
            jobs,
        };
        let settings = PricingSettings {
            probe_nodes,
            ..PricingSettings::default()
        };
        let mut pricing = PeriodicPricing::new(&inst, settings);
        let seeds: Vec<Column> = best_fit_decreasing(&inst)
            .iter()
            .map(|m| m.tasks.iter().map(|&(j, n)| (j, f64::from(n))).collect())
            .collect();
        pricing.remember(&seeds);
        for round in 0..4 {
            // Duals around the level where the best column is worth about 1.
            let raw: Vec<f64> = inst
                .jobs
                .iter()
                .map(|j| j.mean * rng.random::<f64>())
                .collect();
            let top = brute(&pricing.knapsack(&raw));
            let scale = rng.random_range(0.85..1.15) / top.max(1e-9);
            let duals: Vec<f64> = raw.iter().map(|d| d * scale).collect();
            let best = brute(&pricing.knapsack(&duals));
            let got = pricing.price(&duals, &Deadline::none()).unwrap();
            for (c, v) in &got.columns {
                let tasks: Vec<(usize, u32)> = c.iter().map(|&(j, n)| (j, n as u32)).collect();
                assert!(tasks.iter().all(|&(j, n)| n <= inst.jobs[j].tasks));
                assert!(
                    peak::fits(&inst, &peak::load_of(&inst, &tasks)),
                    "seed {seed}"
                );
                let worth: f64 = c.iter().map(|&(j, n)| duals[j] * n).sum();
                assert!((worth - v).abs() < 1e-9, "seed {seed}: {worth} vs {v}");
            }
            let found = got.columns.iter().map(|c| c.1).fold(0.0, f64::max);
            if best > 1.0 + 1e-6 {
                assert!(
                    found > 1.0,
                    "seed {seed} round {round}: {best} exists, got {found}"
                );
            }
            if let Some(v) = got.proven_max {
                assert!(best <= v + 1e-9, "seed {seed}: proof {v} below {best}");
            }
            if let Some(v) = got.upper_bound {
                assert!(best <= v + 1e-9, "seed {seed}: bound {v} below {best}");
            }
        }
        pool_hits += pricing.pool_hits;
    }
    pool_hits
}

/// Random conflicts between the items of `k` (about one pair in three).
fn with_conflicts(mut k: Knapsack, seed: u64) -> Knapsack {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = k.items.len();
    k.conflicts = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            if rng.random_bool(0.35) {
                k.conflicts[i].push(j);
                k.conflicts[j].push(i);
            }
        }
    }
    k
}

/// Under conflicts (branch-and-price's apart decisions), every node relaxation and every
/// search variant finds the best fitting count vector that takes no conflicting pair, proves
/// it, and never returns one that breaks a conflict; the greedy and the swap search stay
/// within the conflicts too. The conflicts must matter somewhere (else the test proves
/// nothing).
#[test]
fn conflicts_are_honoured_exactly() {
    let mut mattered = 0;
    for seed in 0..300 {
        let k = with_conflicts(
            random_knapsack(12_000 + seed, 2 + (seed as usize % 5), true),
            seed,
        );
        let upper: Vec<u32> = k.items.iter().map(|i| i.ub).collect();
        let points = fitting_points(&k, &vec![0; upper.len()], &upper);
        let truth = points
            .iter()
            .filter(|u| k.compatible(u))
            .map(|u| k.value(u))
            .fold(0.0, f64::max);
        let free = points.iter().map(|u| k.value(u)).fold(0.0, f64::max);
        mattered += usize::from(free > truth + 1e-9);
        for solver in VARIANTS {
            let (v, proven) = exact(&k, solver);
            assert!(
                (v - truth).abs() <= 1e-9,
                "seed {seed} {solver:?}: {v} vs brute force {truth}"
            );
            let p = proven.expect("complete search");
            assert!(p >= truth - 1e-12, "seed {seed}: proven {p} below {truth}");
        }
        for mut u in k.greedy_family(3) {
            assert!(k.fits(&u) && k.compatible(&u), "seed {seed}: greedy {u:?}");
            k.improve(&mut u, 3);
            assert!(k.fits(&u) && k.compatible(&u), "seed {seed}: swaps {u:?}");
        }
    }
    assert!(mattered > 50, "conflicts changed only {mattered} optima");
}

/// A search expanding its nodes in batches visits the same nodes and returns the same columns
/// on every run and with any number of threads (the batch size decides, not the threads), and
/// proves the optimum the one-by-one search proves.
#[test]
fn batched_search_is_deterministic_across_threads() {
    let mut compared = 0;
    for seed in 0..12u64 {
        let k = random_knapsack(9100 + seed, 24 + (seed as usize % 3) * 8, true);
        let complete = Search::default();
        let one =
            branch_and_bound(&k, vec![0; k.items.len()], &complete, &Deadline::none()).unwrap();
        for search in [
            Search {
                batch: 8,
                ..complete
            },
            Search {
                batch: 5,
                threshold: 0.9 * one.value,
                keep_above: 0.9 * one.value,
                stop_after: Some(2),
                ..complete
            },
        ] {
            let runs: Vec<_> = [1, 2, 3, 2]
                .iter()
                .map(|&threads| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    pool.install(|| {
                        branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none())
                            .unwrap()
                    })
                })
                .collect();
            for r in &runs[1..] {
                assert_eq!(r, &runs[0], "seed {seed}: batch {} differs", search.batch);
            }
            let r = &runs[0];
            assert!(k.fits(&r.best) && r.value <= one.value + 1e-12);
            if search.stop_after.is_none() {
                assert!((r.value - one.value).abs() <= 1e-12, "seed {seed}");
                assert!(r.proven_max.is_some() && r.open_bound.is_none());
            } else if let Some(b) = r.open_bound {
                assert!(b >= one.value - 1e-12, "seed {seed}: open bound {b}");
            }
            compared += 1;
        }
        assert!(one.nodes > 0);
    }
    assert_eq!(compared, 24);
}
