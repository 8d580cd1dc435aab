//! Branch-and-price against brute force on tiny random instances, the pricing against
//! enumeration, heuristics never below the optimum.

use super::selfcheck::{self, random};
use super::*;
use crate::colgen::vector::{BinKnapsack, PricingSettings};
use crate::colgen::BranchPricing;
use crate::problem::selfcheck::CaseReport;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fewest bins of capacity `cap` for weights `w`, by trying every assignment of items to
/// bins (the local search's and the repack move's tests hold their answers against it).
pub(super) fn min_bins(w: &[u64], cap: u64) -> usize {
    fn go(w: &[u64], cap: u64, k: usize, loads: &mut Vec<u64>, m: usize) -> bool {
        if k == w.len() {
            return true;
        }
        for b in 0..loads.len() {
            if loads[b] + w[k] <= cap {
                loads[b] += w[k];
                if go(w, cap, k + 1, loads, m) {
                    return true;
                }
                loads[b] -= w[k];
            }
        }
        if loads.len() < m {
            loads.push(w[k]);
            if go(w, cap, k + 1, loads, m) {
                return true;
            }
            loads.pop();
        }
        false
    }
    (1..=w.len())
        .find(|&m| go(w, cap, 0, &mut Vec::new(), m))
        .expect("n bins always do")
}

/// `bp` with no dive, no integer master and no local search proves the brute-force optimum (so
/// the tree must find it), with the tree's one warm master and with a fresh master a node, and
/// so do the defaults; `cg`'s bound and every heuristic sit on the right side of it; every
/// answer verifies.
#[test]
fn branch_and_price_equals_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut branched = 0;
    let warm = selfcheck::branching_settings();
    assert!(warm.bp.warm_nodes, "the default tree keeps one master");
    let mut fresh = warm.clone();
    fresh.bp.warm_nodes = false;
    for case in 0..250 {
        let inst = random(&mut rng, case);
        for (settings, tree) in [(&warm, true), (&fresh, true), (&Settings::default(), false)] {
            let mut r = CaseReport::new("test", &inst);
            let bp = selfcheck::check(&mut r, &inst, settings);
            assert!(
                r.disagreements.is_empty(),
                "case {case}: {:?}",
                r.disagreements
            );
            branched += usize::from(tree && bp.unwrap().certificate.stats["nodes"] > 1.0);
        }
    }
    assert!(branched > 0, "no instance needed branching");
}

#[test]
fn pricing_equals_enumeration_under_decisions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..600 {
        let n = rng.random_range(2..=9usize);
        // Cases 0, 1 mod 4: one dimension by the conflict search (`conflicts.rs`) and by the
        // branch-and-bound (no cells for the conflict search's table); 2, 3: two dimensions.
        // The branch-and-bound's bounds by 0 mod 3: the Dantzig bounds, 1: suffix tables
        // scaled down to a few cells, 2: the default tables.
        let dims = 1 + (case % 4) / 2;
        let settings = PricingSettings {
            conflict_cells: if case % 4 == 1 { 0 } else { 20_000_000 },
            table_cells: [0, 60, PricingSettings::default().table_cells][case % 3],
            ..PricingSettings::default()
        };
        let capacity: Vec<u64> = (0..dims).map(|_| rng.random_range(5..=25u64)).collect();
        let mut weights: Vec<Vec<u64>> = (0..n)
            .map(|_| capacity.iter().map(|&c| rng.random_range(1..=c)).collect())
            .collect();
        // Copies, so the search's symmetry rule is exercised.
        if n > 2 {
            weights[n - 1] = weights[n - 2].clone();
        }
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
        let mut k = BinKnapsack::new(&weights, &capacity, settings);
        k.restrict(&together, &apart);
        let (bins, complete, _) = k.search(&values);
        assert!(complete);
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let has = |i: usize| mask >> i & 1 == 1;
            let ok = (0..dims).all(|d| {
                (0..n)
                    .filter(|&i| has(i))
                    .map(|i| weights[i][d])
                    .sum::<u64>()
                    <= capacity[d]
            }) && together.iter().all(|&(i, j)| has(i) == has(j))
                && apart.iter().all(|&(i, j)| !(has(i) && has(j)));
            if ok {
                best = best.max((0..n).filter(|&i| has(i)).map(|i| values[i]).sum());
            }
        }
        let got = bins.first().map_or(0.0, |b| b.0);
        assert!((got - best).abs() < 1e-9, "case {case}: {got} vs {best}");
        for (v, items) in &bins {
            for d in 0..dims {
                let w: u64 = items.iter().map(|&i| weights[i][d]).sum();
                assert!(w <= capacity[d], "case {case}");
            }
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

/// The deviations of the dynamic programme's tracebacks (`PricingSettings::deviations`): every
/// bin they add fits, is worth what its items are worth, improves and comes once, the read-back
/// bins stay, and where mostly full bins improve (the tail of an AI/ANI root) they give more
/// than the one bin a weight the read-back gives.
#[test]
fn deviations_add_distinct_improving_bins() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut more = 0;
    for case in 0..300 {
        let n = rng.random_range(3..=10usize);
        let cap = rng.random_range(10..=30u64);
        let weights: Vec<Vec<u64>> = (0..n).map(|_| vec![rng.random_range(1..=cap)]).collect();
        let values: Vec<f64> = weights
            .iter()
            .map(|w| (w[0] as f64 + 0.3 * rng.random::<f64>()) / cap as f64)
            .collect();
        let search = |deviations: usize| {
            let settings = PricingSettings {
                max_columns: 50,
                deviations,
                ..PricingSettings::default()
            };
            BinKnapsack::new(&weights, &[cap], settings)
                .search(&values)
                .0
        };
        let (plain, dev) = (search(0), search(16));
        let floor = 1.0 + PricingSettings::default().improvement_tol;
        let improving = (0u32..1 << n)
            .filter(|&mask| {
                let items = (0..n).filter(|&i| mask >> i & 1 == 1);
                let w: u64 = items.clone().map(|i| weights[i][0]).sum();
                w <= cap && items.map(|i| values[i]).sum::<f64>() > floor
            })
            .count();
        assert_eq!(
            plain.first().map(|b| b.0),
            dev.first().map(|b| b.0),
            "case {case}"
        );
        let mut seen = std::collections::HashSet::new();
        for (k, (v, items)) in dev.iter().enumerate() {
            let w: u64 = items.iter().map(|&i| weights[i][0]).sum();
            assert!(w <= cap, "case {case}");
            let again: f64 = items.iter().map(|&i| values[i]).sum();
            assert!((again - v).abs() < 1e-9, "case {case}");
            assert!(k == 0 || *v > floor, "case {case}");
            assert!(seen.insert(items.clone()), "case {case}: a bin twice");
        }
        assert!(plain.iter().all(|b| dev.contains(b)), "case {case}");
        assert!(dev.len() <= improving.max(1), "case {case}");
        more += usize::from(dev.len() > plain.len());
    }
    assert!(more >= 30, "deviations added bins in {more} cases of 300");
}

/// The root LP of `cg` on a BPPLIB instance kept in `data/` equals Brandão's `lp_bound`.
#[test]
fn root_lp_matches_the_published_bound() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bpplib/Falkenauer_t60_00.txt");
    let inst = Instance::load(&path).unwrap();
    let mut settings = Settings::default();
    settings.bp.cg.stop_when_bound_closes = false;
    // Its triplets fill every bin (`Σw = 20·C`): the tight search would find the packing
    // before the root and skip it.
    settings.tight.enabled = false;
    let sol = solve(&inst, Method::Cg, &settings, &Deadline::none()).unwrap();
    let lp = sol.certificate.stats["root_lp"];
    assert!((lp - 20.0).abs() < 0.005, "root LP {lp}");
}

/// The compact assignment MILP (`x_ij` item `i` in bin `j`, `y_j` bin `j` open, `y_j ≥ y_j+1`),
/// solved by HiGHS over as many bins as best fit uses, agrees with branch-and-price.
#[test]
fn compact_milp_agrees_with_branch_and_price() {
    use crate::solver::{self, HighsSettings, LinearStatus};
    let mut rng = ChaCha8Rng::seed_from_u64(2222);
    for case in 0..30 {
        let inst = random(&mut rng, case);
        let bfd = solve(&inst, Method::Bfd, &Settings::default(), &Deadline::none()).unwrap();
        let bins = bfd.bins.len();
        let m = super::compact::assignment_milp(&inst, bins);
        let out = solver::solve(&m, &HighsSettings::default(), &Deadline::none(), None).unwrap();
        assert_eq!(out.status, LinearStatus::Optimal, "case {case}");
        let bp = solve(&inst, Method::Bp, &Settings::default(), &Deadline::none()).unwrap();
        assert_eq!(
            bp.certificate.objective,
            out.objective.map(f64::round),
            "case {case}: {inst:?}"
        );
    }
}

/// Subset-row cut rounds (three rows, and five in every other case) never bound above the
/// brute-force optimum, never end below the LP of their first round, and their pool stays
/// valid (run to the end: the target is out of reach).
#[test]
fn cut_rounds_bound_below_the_optimum() {
    use crate::colgen::{subset_row_root, CutSettings};
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut raised, mut with_cuts, mut proved) = (0, 0, 0);
    for case in 0..300 {
        let n = rng.random_range(5..=11);
        let cap = rng.random_range(20..=60u64);
        let w: Vec<u64> = (0..n)
            .map(|_| rng.random_range(cap / 5..=cap / 2 + 1))
            .collect();
        let opt = min_bins(&w, cap) as u64;
        let pool: Vec<crate::colgen::Column> = (0..n).map(|i| vec![(i, 1.0)]).collect();
        // Every other case with five-row cuts too.
        let settings = CutSettings {
            share: 1.0,
            five_rows: case % 2 == 1,
            ..CutSettings::default()
        };
        let mut first = settings.clone();
        first.max_rounds = 1;
        let run = |s: &CutSettings| {
            let mut k = CutKnapsack::new(&w, cap, PricingSettings::default());
            subset_row_root(
                n,
                &mut k,
                pool.clone(),
                s,
                n as u64 + 1,
                0.0,
                &Deadline::none(),
            )
            .expect("cut rounds")
        };
        let lp = run(&first);
        let cut = run(&settings);
        assert!(
            cut.bound <= opt as f64 + 1e-6,
            "case {case}: bound {} above the optimum {opt} ({w:?}, cap {cap})",
            cut.bound
        );
        assert!(cut.bound >= lp.bound - 1e-6, "case {case}");
        assert!(
            lp.lp.is_some_and(|v| (v - lp.bound).abs() < 1e-6),
            "case {case}: the first round's LP is proven"
        );
        with_cuts += usize::from(cut.cuts > 0);
        raised += usize::from(cut.bound > lp.bound + 1e-6);
        // Issue 37: the round's duals are a proof verify re-derives; doctored ones fall.
        if let Some(p) = cut.proof.as_ref().filter(|p| !p.cuts.is_empty()) {
            super::proof::tests::assert_cut_proof(&w, cap, p, opt as f64, case);
            proved += 1;
        }
    }
    assert!(proved >= 3, "only {proved} cut proofs");
    // The rounds did something: cuts were found and some raised the bound.
    assert!(
        with_cuts > 0 && raised > 0,
        "cuts {with_cuts}, raised {raised}"
    );
}

/// The Petersen-graph instance of Caprara, Dell'Amico, Díaz-Díaz, Iori & Rizzi (2015), the
/// base of the BPPLIB ANI set ([`crate::colgen::separation`]'s tests use the same graph): one
/// item per edge, weighing `f(u) + f(v)`, and `C = Σ f`, with `f` drawn so that the only
/// subsets weighing exactly `C` are the 6 perfect matchings. Each edge lies in two of them,
/// so the LP is 3 (each at ½); three disjoint ones would be a 3-edge-colouring, which the
/// Petersen graph has not: 4 bins. The cut rounds prove 4, with three-row cuts alone and
/// with five-row cuts too, and the proof is re-derived.
#[test]
fn cut_rounds_close_the_petersen_gap() {
    use crate::colgen::{subset_row_root, CutEnd, CutSettings};
    let f: [u64; 10] = [1714, 1543, 1358, 1532, 1063, 1973, 592, 1114, 699, 1823];
    let w: Vec<u64> = crate::colgen::separation::petersen_edges()
        .iter()
        .map(|&(u, v)| f[u] + f[v])
        .collect();
    let cap: u64 = f.iter().sum();
    let full = (0u32..1 << 15)
        .filter(|m| {
            (0..15)
                .filter(|e| m >> e & 1 == 1)
                .map(|e| w[e])
                .sum::<u64>()
                == cap
        })
        .count();
    assert_eq!(full, 6, "the full bins are the six perfect matchings");
    let opt = min_bins(&w, cap) as u64;
    assert_eq!(opt, 4);
    let pool: Vec<crate::colgen::Column> = (0..15).map(|i| vec![(i, 1.0)]).collect();
    for five_rows in [false, true] {
        let settings = CutSettings {
            share: 1.0,
            five_rows,
            ..CutSettings::default()
        };
        let mut k = CutKnapsack::new(&w, cap, PricingSettings::default());
        let out = subset_row_root(
            15,
            &mut k,
            pool.clone(),
            &settings,
            opt,
            0.0,
            &Deadline::none(),
        )
        .expect("cut rounds");
        assert_eq!(out.end, CutEnd::Closed, "five rows {five_rows}: {out:?}");
        assert!(out.bound > 3.0 + 1e-6 && out.bound <= 4.0 + 1e-9);
        let p = out.proof.as_ref().expect("a cut proof");
        super::proof::tests::assert_cut_proof(&w, cap, p, opt as f64, 0);
    }
}

/// Reduced-cost enumeration at the converged root, over unit items and over item types:
/// aimed one bin below the brute-force optimum it proves that bound (no cover exists); aimed
/// at the optimum it finds a packing of that size.
/// 7 to 12 weights and a capacity, the first two weights twice, so that types hold copies.
fn with_duplicates(rng: &mut ChaCha8Rng) -> (Vec<u64>, u64) {
    let n = rng.random_range(5..=10);
    let cap = rng.random_range(20..=60u64);
    let mut w: Vec<u64> = (0..n)
        .map(|_| rng.random_range(cap / 6..=cap / 2 + 2))
        .collect();
    w.push(w[0]);
    w.push(w[1]);
    (w, cap)
}

#[test]
fn enumeration_closes_at_the_brute_force_optimum() {
    use super::aggregate::{TypeKnapsack, Types};
    use crate::colgen::{close_by_enumeration, CgSettings, CoveringMaster, EnumerationSettings};
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut tested = 0;
    for case in 0..120 {
        let (w, cap) = with_duplicates(&mut rng);
        let opt = min_bins(&w, cap) as u64;
        if opt < 2 {
            continue;
        }
        let inst = Instance {
            capacity: vec![cap],
            items: w.iter().map(|&x| vec![x]).collect(),
        };
        let types = Types::of(&inst);
        let settings = EnumerationSettings::default();
        tested += 1;
        for aggregated in [false, true] {
            for target in [opt - 1, opt] {
                let (demands, singles): (Vec<f64>, Vec<crate::colgen::Column>) = if aggregated {
                    let d = types.members.iter().map(|m| m.len() as f64).collect();
                    (d, (0..types.count()).map(|t| vec![(t, 1.0)]).collect())
                } else {
                    (
                        vec![1.0; w.len()],
                        (0..w.len()).map(|i| vec![(i, 1.0)]).collect(),
                    )
                };
                let mut master = CoveringMaster::new(&demands);
                for c in singles {
                    master.add_column(c).expect("column");
                }
                // The same call for either oracle.
                fn close<P: crate::colgen::Pricing>(
                    master: &mut CoveringMaster,
                    k: &mut P,
                    target: u64,
                    settings: &EnumerationSettings,
                ) -> Option<crate::colgen::Closure> {
                    let cg = CgSettings::default();
                    close_by_enumeration(master, k, &cg, target, settings, &Deadline::none())
                        .expect("enumeration")
                }
                let closure = if aggregated {
                    let mut k = TypeKnapsack::new(&inst, &types, PricingSettings::default());
                    close(&mut master, &mut k, target, &settings)
                } else {
                    let mut k = BinKnapsack::new(&inst.items, &[cap], PricingSettings::default());
                    close(&mut master, &mut k, target, &settings)
                }
                .unwrap_or_else(|| panic!("case {case}: no enumeration"));
                let tag = format!("case {case} ({w:?}, cap {cap}, aggregated {aggregated})");
                assert!(
                    closure.bound <= opt,
                    "{tag}: bound {} above {opt}",
                    closure.bound
                );
                if target < opt {
                    assert_eq!(closure.bound, opt, "{tag}: no proof");
                    assert!(closure.bins.is_none(), "{tag}: a cover below the optimum");
                } else {
                    let cols = closure.bins.unwrap_or_else(|| panic!("{tag}: no packing"));
                    let unit = if aggregated {
                        crate::colgen::unit_columns(&types.to_unit_bins(&cols))
                    } else {
                        cols
                    };
                    let sol = crate::colgen::partition(w.len(), &unit);
                    assert!(sol.len() as u64 <= opt, "{tag}");
                    for b in &sol {
                        assert!(b.iter().map(|&i| w[i]).sum::<u64>() <= cap, "{tag}: over");
                    }
                    let mut seen: Vec<usize> = sol.concat();
                    seen.sort_unstable();
                    assert_eq!(
                        seen,
                        (0..w.len()).collect::<Vec<_>>(),
                        "{tag}: not a partition"
                    );
                }
            }
        }
    }
    assert!(tested > 60, "only {tested} cases with two bins or more");
}

/// While diving, the pricing over types offers only bins within the residual demands, each
/// valued at what it covers of them (never above the best such bin, found by enumeration);
/// the unit pricing leaves covered items out.
#[test]
fn dive_pricing_stays_within_the_residual() {
    use super::aggregate::{TypeKnapsack, Types};
    use crate::colgen::Pricing;
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    for case in 0..200 {
        let cap: u64 = rng.random_range(10..=30);
        let n_types = rng.random_range(2..=5);
        let weights: Vec<u64> = (0..n_types)
            .map(|_| rng.random_range(2..=cap / 2))
            .collect();
        let items: Vec<Vec<u64>> = weights
            .iter()
            .flat_map(|&w| std::iter::repeat_n(vec![w], rng.random_range(1..=4)))
            .collect();
        let inst = Instance {
            capacity: vec![cap],
            items,
        };
        let types = Types::of(&inst);
        let left: Vec<usize> = types
            .members
            .iter()
            .map(|m| rng.random_range(0..=m.len()))
            .collect();
        let duals: Vec<f64> = (0..types.count())
            .map(|_| rng.random_range(0.0..0.6))
            .collect();
        // The best bin within the residual, by enumeration of the counts.
        let mut best = 0.0f64;
        let mut counts = vec![0usize; types.count()];
        loop {
            let w: u64 = (0..types.count())
                .map(|t| counts[t] as u64 * inst.items[types.members[t][0]][0])
                .sum();
            if w <= cap {
                let v: f64 = (0..types.count())
                    .map(|t| counts[t] as f64 * duals[t])
                    .sum();
                best = best.max(v);
            }
            let Some(t) = (0..types.count()).find(|&t| counts[t] < left[t]) else {
                break;
            };
            counts[t] += 1;
            for c in counts.iter_mut().take(t) {
                *c = 0;
            }
        }
        let mut oracle = TypeKnapsack::new(&inst, &types, PricingSettings::default());
        let residual: Vec<f64> = left.iter().map(|&k| k as f64).collect();
        oracle.dive(&residual);
        let priced = oracle.price(&duals, &Deadline::none()).unwrap();
        for (col, v) in &priced.columns {
            let mut w = 0;
            let mut value = 0.0;
            for &(t, k) in col {
                assert!(
                    k as usize <= left[t],
                    "case {case}: {col:?} beyond {left:?}"
                );
                w += k as u64 * inst.items[types.members[t][0]][0];
                value += k * duals[t];
            }
            assert!(w <= cap, "case {case}: {col:?} over the capacity");
            assert!((value - v).abs() < 1e-9, "case {case}: {v} for {col:?}");
            assert!(*v <= best + 1e-9, "case {case}: {v} above the best {best}");
        }
        // Unit items: the covered ones never appear.
        let unit: Vec<f64> = (0..inst.items.len())
            .map(|_| f64::from(rng.random_range(0..=1u8)))
            .collect();
        let mut k = BinKnapsack::new(&inst.items, &inst.capacity, PricingSettings::default());
        k.dive(&unit);
        let values: Vec<f64> = (0..inst.items.len())
            .map(|_| rng.random_range(0.0..0.6))
            .collect();
        for (col, _) in k.price(&values, &Deadline::none()).unwrap().columns {
            assert!(
                col.iter().all(|&(i, _)| unit[i] > 0.0),
                "case {case}: {col:?} holds a covered item ({unit:?})"
            );
        }
    }
}

/// The aggregated root with a stabilised loop whose enumeration list is cut short, so that
/// the plain loop's enumeration runs: its bound never passes the brute-force optimum and its
/// packing is one.
#[test]
fn aggregated_root_with_the_plain_retry_stays_on_the_right_side() {
    use super::aggregate::{root, Types};
    use crate::colgen::BpSettings;
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    for case in 0..60 {
        let (w, cap) = with_duplicates(&mut rng);
        let opt = min_bins(&w, cap) as u64;
        let inst = Instance {
            capacity: vec![cap],
            items: w.iter().map(|&x| vec![x]).collect(),
        };
        let types = Types::of(&inst);
        let mut bp = BpSettings::default();
        bp.enumeration.max_columns = 1 + case % 4;
        bp.enumeration.plain_retry_share = 1.0;
        bp.root_dive = case % 2 == 0;
        let start: Vec<Vec<usize>> = (0..w.len()).map(|i| vec![i]).collect();
        let out = root(
            &inst,
            &types,
            start,
            &PricingSettings::default(),
            &bp,
            &super::solve::root_cg(),
            &Deadline::none(),
            |bins, _| bins,
        )
        .unwrap();
        let tag = format!("case {case} ({w:?}, cap {cap})");
        assert!(out.bound <= opt, "{tag}: bound {} above {opt}", out.bound);
        assert!(
            out.bins.len() as u64 >= opt,
            "{tag}: {} bins",
            out.bins.len()
        );
        let mut seen = vec![false; w.len()];
        for b in &out.bins {
            assert!(
                b.iter().map(|&i| w[i]).sum::<u64>() <= cap,
                "{tag}: {b:?} over"
            );
            for &i in b {
                assert!(!seen[i], "{tag}: item {i} twice");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "{tag}: an item left out");
    }
}

/// Column management's settings are checked (the loops' and the root retries'): a negative
/// or non-finite count is refused, named by its key, and so is a retry share outside
/// [0, 1]; 0 (off) and the default pass.
#[test]
fn live_columns_per_row_must_be_a_finite_number_at_least_0() {
    use crate::problem::Validate;
    assert!(Settings::default().validate().is_ok());
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let mut s = Settings::default();
        s.root_cg.live_columns_per_row = bad;
        let e = s.validate().unwrap_err();
        assert_eq!(e.key, "root_cg.live_columns_per_row");
        let mut s = Settings::default();
        s.bp.cg.live_columns_per_row = bad;
        assert_eq!(s.validate().unwrap_err().key, "bp.cg.live_columns_per_row");
        let mut s = Settings::default();
        s.bp.retry_live_columns_per_row = bad;
        let key = s.validate().unwrap_err().key;
        assert_eq!(key, "bp.retry_live_columns_per_row");
    }
    let mut s = Settings::default();
    s.root_cg.live_columns_per_row = 0.0;
    assert!(s.validate().is_ok());
    // The root retries' share of the time: in [0, 1].
    for bad in [-0.1, 1.5, f64::NAN] {
        let mut s = Settings::default();
        s.bp.retry_share = bad;
        assert_eq!(s.validate().unwrap_err().key, "bp.retry_share");
    }
}
