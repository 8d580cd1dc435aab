//! Branch-and-price against brute force on tiny random instances, the pricing against
//! enumeration under random decisions, heuristics never below the optimum, bad `.cbp` input.

use super::pricing::{PricingSettings, SocKnapsack};
use super::selfcheck::{self, brute, random, random_case};
use super::*;
use crate::colgen::BranchPricing;
use crate::problem::selfcheck::CaseReport;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

#[test]
fn branch_and_price_equals_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(2022);
    let settings = selfcheck::branching_settings();
    let mut branched = 0;
    for case in 0..200 {
        let inst = random_case(&mut rng, case);
        let mut r = CaseReport::new("test", &inst);
        let bp = selfcheck::check(&mut r, &inst, &settings);
        assert!(
            r.disagreements.is_empty(),
            "case {case}: {:?}",
            r.disagreements
        );
        branched += usize::from(bp.unwrap().certificate.stats["nodes"] > 1.0);
    }
    assert!(branched > 0, "no instance needed branching");
}

#[test]
fn pricing_equals_enumeration_under_decisions() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for case in 0..300 {
        let inst = random(&mut rng);
        let n = inst.len();
        let values: Vec<f64> = (0..n)
            .map(|_| f64::from(rng.random_range(0..10u32)) / 7.0)
            .collect();
        let pairs = |rng: &mut ChaCha8Rng| -> Vec<(usize, usize)> {
            (0..rng.random_range(0..3))
                .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
                .filter(|p| p.0 != p.1)
                .map(|(i, j)| (i.min(j), i.max(j)))
                .collect()
        };
        let together = pairs(&mut rng);
        let apart = pairs(&mut rng);
        // The chord rows' tables off, scarce (2 to 4 cells a row) and at the default.
        let settings = PricingSettings {
            chord_table_cells: [0, 3 * 13 * (n + 1), 12_000_000][case % 3],
            ..PricingSettings::default()
        };
        let mut k = SocKnapsack::new(&inst, settings);
        k.restrict(&together, &apart);
        let (bins, complete, _) = k.search(&values);
        assert!(complete);
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let items: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
            let has = |i: usize| mask >> i & 1 == 1;
            let (a, b) = inst.sums(&items);
            if inst.fits(a, b)
                && together.iter().all(|&(i, j)| has(i) == has(j))
                && apart.iter().all(|&(i, j)| !(has(i) && has(j)))
            {
                best = best.max(items.iter().map(|&i| values[i]).sum());
            }
        }
        let got = bins.first().map_or(0.0, |b| b.0);
        assert!((got - best).abs() < 1e-9, "case {case}: {got} vs {best}");
        for (v, items) in &bins {
            let (a, b) = inst.sums(items);
            assert!(inst.fits(a, b), "case {case}");
            let has = |i: usize| items.contains(&i);
            assert!(
                together.iter().all(|&(i, j)| has(i) == has(j)),
                "case {case}"
            );
            assert!(
                apart.iter().all(|&(i, j)| !(has(i) && has(j))),
                "case {case}"
            );
            let again: f64 = items.iter().map(|&i| values[i]).sum();
            assert!((again - v).abs() < 1e-9, "case {case}");
        }
    }
}

/// The closed-form bound never exceeds the optimum, on random instances where the root term
/// dominates (`a` small).
#[test]
fn closed_form_bound_is_valid() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for case in 0..300 {
        let mut inst = random(&mut rng);
        if case % 2 == 0 {
            inst.a.iter_mut().for_each(|a| *a *= 0.1);
        }
        assert!(
            inst.volume_bound() as usize <= brute(&inst),
            "case {case}: {inst:?}"
        );
    }
}

/// The CloudSmall instance kept in `data/cbp/` (published optimum 8) is solved to it.
#[test]
fn cloud_small_instance_is_proven() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cbp/d_72_100_0.6_a.cbp");
    let inst = Instance::load_file(&path).unwrap();
    assert_eq!(inst.len(), 100);
    let sol = solve(
        &inst,
        Method::Bp,
        &Settings::default(),
        &Deadline::after(Some(120.0)),
    )
    .unwrap();
    assert!(verify(&inst, &sol).is_empty());
    assert_eq!(sol.certificate.bound, Some(8.0));
    assert_eq!(sol.certificate.objective, Some(8.0));
}

#[test]
fn bad_cbp_input_names_line_and_value() {
    let f = Path::new("x.cbp");
    let cases = [
        ("", "ends before"),
        ("d 72 3 0.6\n", "ends before the D"),
        ("d 72 3\n1\n1 2 3\n1 2 3\n", "4 fields"),
        ("d 72 0 0.6\n1\n\n", "n"),
        ("d 72 3 0.6\n-1\n1 2 3\n1 2 3\n", "≥ 0"),
        ("d 72 3 0.6\n1\n1 2\n1 2 3\n", "3 terms"),
        ("d 72 3 0.6\n1\n1 2 NaN\n1 2 3\n", "finite"),
        ("d 72 3 0.6\n1\n1 2 3\n1 -2 3\n", "≥ 0"),
        ("d 72 3 0.6\n1\n1 2 3\n1 2 3\n4\n", "nothing may follow"),
        ("d 72 2 0.6\n2\n71 1\n4 1\n", "capacity"),
    ];
    for (text, why) in cases {
        let err = Instance::from_cbp(text, f)
            .and_then(|i| i.validate(f).map(|_| i))
            .unwrap_err()
            .to_string();
        assert!(err.contains(why), "{text:?}: {err}");
    }
}

/// The Lagrangian bound at the root is never below the best bin (enumerated), whatever the
/// values.
#[test]
fn lagrangian_bound_is_above_every_bin() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for case in 0..200 {
        let inst = random_case(&mut rng, case);
        let n = inst.len();
        let terms: Vec<(f64, f64, f64)> = (0..n)
            .map(|i| (inst.a[i], inst.b[i], rng.random_range(0.0..1.0)))
            .collect();
        let lag = super::lagrange::Lagrange::new(inst.capacity, inst.d, &terms, 500, 8);
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let items: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
            let (a, b) = inst.sums(&items);
            if inst.fits(a, b) {
                best = best.max(items.iter().map(|&i| terms[i].2).sum());
            }
        }
        let bound = lag.bound(0, 0.0, 0.0, f64::INFINITY);
        assert!(
            bound >= best - 1e-9,
            "case {case}: bound {bound} < best {best}"
        );
        // With a cut below the best, the answer is still above the cut.
        assert!(lag.bound(0, 0.0, 0.0, best * 0.5) > best * 0.5 - 1e-12 || best == 0.0);
    }
}

/// Stabilised column generation (self-adjusting Wentges smoothing and the dual-optimal
/// inequalities of the items' dominance, the default), the plain loop, the stabilised one
/// with the grid refined at every pricing call (`grid_refine_lazily = false`), and one that
/// keeps at most half a column a row in the master's LP (column management far past its
/// default), one with the pairs' dual-optimal inequalities too (`pair_inequalities`), and one
/// whose masters are solved by the interior point without crossover (`bp.cg.interior_master_from`
/// 1, on a fifth of the cases; it converges when its master meets its own Farley bound, and its
/// retired columns priced out again come back for good), and one with directional smoothing
/// (`bp.cg.directional_smoothing`), and ones with 2 or 5 extra pricing points an iteration
/// (`bp.cg.extra_points`) reach the same root LP value on tiny random instances;
/// every root bound lies below the brute-force optimum once rounded up.
#[test]
fn stabilised_and_plain_roots_reach_the_same_lp() {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut compared = 0;
    for case in 0..150 {
        let inst = random_case(&mut rng, case);
        let opt = brute(&inst);
        let mut values = Vec::new();
        for (auto, lazy, live, pairs, interior, directional, at_master, extra) in [
            (false, true, 0.0, false, 0, false, 0, 0),
            (true, true, 2.0, false, 0, false, 0, 0),
            (true, false, 2.0, false, 0, false, 0, 0),
            (true, true, 0.5, false, 0, false, 0, 0),
            (true, true, 2.0, true, 0, false, 0, 0),
            (true, true, 2.0, true, 1, false, 0, 2),
            (true, true, 2.0, true, 0, true, 0, 0),
            (true, true, 2.0, true, 0, false, 20, 0),
            (true, true, 2.0, true, 0, false, 0, 2),
            (true, true, 2.0, true, 0, false, 0, 5),
        ] {
            if interior > 0 && case % 5 != 0 {
                continue; // the interior point's loop is the slow one: a fifth of the cases
            }
            let mut settings = Settings::default();
            settings.bp.cg.stop_when_bound_closes = false;
            settings.bp.cg.tail_iterations = 0;
            settings.bp.cg.smoothing_auto = auto;
            settings.bp.cg.dual_optimal_inequalities = auto;
            settings.bp.cg.live_columns_per_row = live;
            settings.bp.cg.pair_inequalities = pairs;
            settings.pricing.grid_refine_lazily = lazy;
            settings.bp.cg.interior_master_from = interior;
            settings.bp.cg.directional_smoothing = directional;
            settings.bp.cg.price_master_duals_below = at_master;
            settings.bp.cg.extra_points = extra;
            if interior > 0 {
                // Interior duals seldom let the pricing prove convergence; the loop converges
                // when its master meets its own Farley bound (`colgen::stopping::pinned`). Before
                // that stop it ran to the 10,000-iteration cap here (up to 16 s a case): the
                // cap catches a regression.
                settings.bp.cg.max_iterations = 2_000;
            }
            let sol = solve(&inst, Method::Cg, &settings, &Deadline::none()).unwrap();
            let s = &sol.certificate.stats;
            // No root when the heuristic's packing already meets the closed-form bound.
            let (Some(&bound), Some(&master)) = (s.get("root_bound"), s.get("root_master")) else {
                continue;
            };
            assert!(
                crate::ceil_with_tolerance(bound) as usize <= opt,
                "case {case}: bound {bound} above the optimum {opt}"
            );
            assert_eq!(
                s["root_converged"], 1.0,
                "case {case}, auto {auto}, interior {interior}"
            );
            assert!(
                bound <= master + 1e-9 && bound >= master - 1e-6,
                "case {case}"
            );
            values.push(master);
        }
        if values.len() >= 5 {
            compared += 1;
            for v in &values[1..] {
                assert!(
                    (values[0] - v).abs() <= 1e-6,
                    "case {case}: plain, stabilised, refined eagerly, few live columns, pairs, interior, directional, at the master, extra points: {values:?}"
                );
            }
        }
    }
    assert!(compared >= 30, "only {compared} cases had a root");
}

/// The violated pair inequalities against brute force: for random duals, each item `i` gets
/// a triple exactly when some pair of two other items fits in its place (both terms) with
/// `π_j + π_k > π_i`, and then one of the largest `π_j + π_k`; every triple is a valid swap.
#[test]
fn violated_pairs_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let mut found = 0;
    for case in 0..80 {
        let inst = random_case(&mut rng, case);
        let n = inst.len();
        // Duals from nothing to above the items' share of a bin, ties included.
        let pi: Vec<f64> = (0..n)
            .map(|_| (rng.random_range(0..8) as f64) * 0.125)
            .collect();
        found += check_pairs_by_brute_force(&inst, &pi, &format!("case {case}"));
    }
    assert!(found >= 20, "only {found} violated inequalities");
}

/// The same on the authors' instances of 200 items (types g, h, d), where the scans skip
/// whole blocks of items: duals near each item's share of a bin, with noise so that pairs
/// beat single items.
#[test]
fn violated_pairs_match_brute_force_on_generated_instances() {
    use super::generate::{generate, Kind, Spec};
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let mut found = 0;
    for (case, kind) in [Kind::G, Kind::H, Kind::D].into_iter().enumerate() {
        let spec = Spec {
            items: 200,
            capacity: 72.0,
            kind: Some(kind),
            alpha: Some(0.9),
            datagen: true,
            d: None,
            a_min: None,
            a_max: None,
            b_max: None,
            seed: case as u64 + 1,
        };
        let inst = generate(&spec);
        let pi: Vec<f64> = (0..inst.len())
            .map(|i| {
                let load = inst.a[i] + inst.d * inst.b[i].sqrt();
                load / inst.capacity * rng.random_range(0.6..1.4)
            })
            .collect();
        found += check_pairs_by_brute_force(&inst, &pi, &format!("type {}", kind.letter()));
    }
    assert!(found >= 30, "only {found} violated inequalities");
}

/// Compares [`super::exchanges::violated_pairs`] at `pi` with a brute force over all pairs;
/// the number of items with a violated inequality.
fn check_pairs_by_brute_force(inst: &Instance, pi: &[f64], case: &str) -> usize {
    let n = inst.len();
    let got = super::exchanges::violated_pairs(inst, pi);
    let mut found = 0;
    for i in 0..n {
        let mut best: Option<f64> = None;
        for j in 0..n {
            for k in j + 1..n {
                if j == i || k == i {
                    continue;
                }
                let fits = inst.a[j] + inst.a[k] <= inst.a[i] && inst.b[j] + inst.b[k] <= inst.b[i];
                if fits && pi[j] + pi[k] > pi[i] + 1e-9 {
                    best = Some(best.map_or(pi[j] + pi[k], |b: f64| b.max(pi[j] + pi[k])));
                }
            }
        }
        let mine: Vec<_> = got.iter().filter(|t| t.2 == i).collect();
        assert!(mine.len() <= 1, "{case}: item {i} twice");
        match (best, mine.first()) {
            (None, None) => {}
            (Some(b), Some(&&(j, k, _))) => {
                found += 1;
                assert!(j != k && j != i && k != i, "{case}");
                assert!(
                    inst.a[j] + inst.a[k] <= inst.a[i] && inst.b[j] + inst.b[k] <= inst.b[i],
                    "{case}: ({j}, {k}) does not fit in {i}'s place"
                );
                assert!(
                    (pi[j] + pi[k] - b).abs() <= 1e-12,
                    "{case}: not the best pair"
                );
            }
            (b, m) => panic!("{case}, item {i}: brute force {b:?}, separation {m:?}"),
        }
    }
    found
}

/// Every dominance pair is a valid swap: the light item is at most the heavy one in both
/// terms, each item is light at most once, no pair is reversed, and swapping the heavy item
/// out of any fitting bin for the light one leaves a fitting bin.
#[test]
fn dominance_pairs_are_valid_swaps() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let mut pairs_seen = 0;
    for case in 0..60 {
        let inst = random_case(&mut rng, case);
        let pairs = super::exchanges::dominance_pairs(&inst);
        let mut light_once = std::collections::HashSet::new();
        for &(l, h) in &pairs {
            assert!(
                l != h && inst.a[l] <= inst.a[h] && inst.b[l] <= inst.b[h],
                "case {case}"
            );
            assert!(light_once.insert(l), "case {case}: item {l} light twice");
            assert!(
                !pairs.contains(&(h, l)),
                "case {case}: {l} and {h} both ways"
            );
            // Any bin with `h` and not `l` still fits with `l` instead.
            for other in 0..inst.len() {
                if other == l || other == h {
                    continue;
                }
                let (a, b) = (inst.a[h] + inst.a[other], inst.b[h] + inst.b[other]);
                if inst.fits(a, b) {
                    assert!(inst.fits(inst.a[l] + inst.a[other], inst.b[l] + inst.b[other]));
                }
            }
        }
        pairs_seen += pairs.len();
    }
    assert!(
        pairs_seen > 60,
        "only {pairs_seen} pairs: the test would be vacuous"
    );
}

/// Column management's setting is checked: a negative or non-finite count is refused, named
/// by its key; 0 (off) and the default pass.
#[test]
fn live_columns_per_row_must_be_a_finite_number_at_least_0() {
    use crate::problem::Validate;
    assert!(Settings::default().validate().is_ok());
    for bad in [-1.0, f64::NAN] {
        let mut s = Settings::default();
        s.bp.cg.live_columns_per_row = bad;
        assert_eq!(s.validate().unwrap_err().key, "bp.cg.live_columns_per_row");
    }
    let mut s = Settings::default();
    s.bp.cg.live_columns_per_row = 0.0;
    assert!(s.validate().is_ok());
}

/// The bins the exchanges stand for (`colgen::recovered_columns`) are bins: on random
/// instances, a master of singletons and random fitting bins with the dominance and the
/// violated pair exchanges, solved; every recovered column fits, holds each item at most
/// once and is new; with them the plain master is never above its value without them, and
/// on some cases it comes down to the value with the exchanges. The recovered cover covers
/// every row of the plain master at its demand with the exchanges' value, so it is never below
/// the plain master's optimum.
#[test]
fn recovered_columns_are_bins() {
    use crate::colgen::{recovered_columns, CoveringMaster};
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let (mut recovered_any, mut exact, mut short) = (0, 0, 0);
    for case in 0..60 {
        let inst = random_case(&mut rng, case);
        let n = inst.len();
        let mut master = CoveringMaster::new(&vec![1.0; n]);
        for i in 0..n {
            master.add_column(vec![(i, 1.0)]).unwrap();
        }
        for _ in 0..n {
            // A random bin: items in a random order while they fit.
            let (mut a, mut b, mut bin) = (0.0, 0.0, Vec::new());
            for i in 0..n {
                if rng.random_bool(0.5) && inst.fits(a + inst.a[i], b + inst.b[i]) {
                    a += inst.a[i];
                    b += inst.b[i];
                    bin.push((i, 1.0));
                }
            }
            if bin.len() > 1 {
                master.add_column(bin).unwrap();
            }
        }
        master
            .add_exchanges(&super::exchanges::dominance_pairs(&inst))
            .unwrap();
        let mut sol = master.solve(&Deadline::none()).unwrap().unwrap();
        for _ in 0..3 {
            let pairs = super::exchanges::violated_pairs(&inst, &sol.duals);
            if master.extend_exchanges(&pairs).unwrap() == 0 {
                break;
            }
            sol = master.solve(&Deadline::none()).unwrap().unwrap();
        }
        let with_exchanges = sol.value;
        let recovered = recovered_columns(&master, &sol.primal, usize::MAX);
        let cols = recovered.columns.clone();
        let known: Vec<_> = master.columns().to_vec();
        // The cover, when the split kept every row covered: the demands met, the
        // exchanges' value.
        let cover_value = match &recovered.cover {
            None => {
                short += 1;
                f64::INFINITY
            }
            Some(cover) => {
                assert_eq!(cover.len(), known.len() + cols.len(), "case {case}");
                let mut covered = vec![0.0; n];
                for (c, &w) in known.iter().chain(&cols).zip(cover) {
                    assert!(w >= -1e-12, "case {case}: weight {w}");
                    for &(r, a) in c {
                        covered[r] += a * w;
                    }
                }
                for (r, &c) in covered.iter().enumerate() {
                    assert!(c >= 1.0 - 1e-7, "case {case}: row {r} covered {c}");
                }
                let value: f64 = cover.iter().sum();
                assert!(
                    (value - with_exchanges).abs() <= 1e-6 * with_exchanges.max(1.0),
                    "case {case}: cover {value} against the exchanges' {with_exchanges}"
                );
                value
            }
        };
        for c in &cols {
            assert!(
                !known.contains(c),
                "case {case}: {c:?} already in the master"
            );
            let mut rows: Vec<usize> = c.iter().map(|&(r, _)| r).collect();
            rows.dedup();
            assert_eq!(rows.len(), c.len(), "case {case}: a row twice in {c:?}");
            assert!(c.iter().all(|&(_, a)| a == 1.0), "case {case}: {c:?}");
            let (a, b) = c
                .iter()
                .fold((0.0, 0.0), |(a, b), &(i, _)| (a + inst.a[i], b + inst.b[i]));
            assert!(inst.fits(a, b), "case {case}: {c:?} does not fit");
        }
        master.drop_exchanges().unwrap();
        let plain = master.solve(&Deadline::none()).unwrap().unwrap().value;
        for c in &cols {
            master.add_column(c.clone()).unwrap();
        }
        let after = master.solve(&Deadline::none()).unwrap().unwrap().value;
        assert!(after <= plain + 1e-7, "case {case}: {after} above {plain}");
        assert!(
            after >= with_exchanges - 1e-6,
            "case {case}: {after} below the exchanges' {with_exchanges}"
        );
        assert!(
            after <= cover_value + 1e-6,
            "case {case}: {after} above the cover"
        );
        if plain > with_exchanges + 1e-6 {
            recovered_any += 1;
            exact += usize::from(after <= with_exchanges + 1e-6);
        }
    }
    assert!(
        recovered_any >= 5 && exact >= 1 && short <= 6,
        "{recovered_any} jumps, {exact} recovered, {short} covers short"
    );
}

/// The Lagrangian tables' cells: the setting's up to the cap, then lowered so that every
/// multiplier's table together stays within `lagrange_table_cells` (8-byte cells: 480 MB at
/// the default), and none when not even two cells a table fit.
#[test]
fn lagrangian_tables_stay_within_their_cells() {
    let s = PricingSettings::default();
    assert_eq!(super::pricing::lagrange_cells(&s, 400), s.lagrange_cells);
    assert_eq!(super::pricing::lagrange_cells(&s, 1_000), s.lagrange_cells);
    for n in [3_000usize, 10_000, 100_000] {
        let cells = super::pricing::lagrange_cells(&s, n);
        assert!(cells < s.lagrange_cells, "n = {n}: {cells}");
        let tables = (cells + 1) * (n + 1) * (s.lagrange_multipliers + 1);
        assert!(
            tables <= s.lagrange_table_cells + (n + 1) * (s.lagrange_multipliers + 1),
            "n = {n}: {tables} cells"
        );
    }
    let tight = PricingSettings {
        lagrange_table_cells: 10,
        ..PricingSettings::default()
    };
    assert_eq!(super::pricing::lagrange_cells(&tight, 400), 0);
}
