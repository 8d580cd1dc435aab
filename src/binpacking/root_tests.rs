//! The aggregated root's column generation on random instances with repeated items: the
//! stabilised and plain loops reach the same LP, an early stop reports the least master
//! value, and the dual-optimal inequalities keep the LP value.

use super::selfcheck::random;
use super::tests::min_bins;
use super::*;
use crate::colgen::vector::PricingSettings;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random instance with every item repeated 1–4 times (identical items make types with
/// demands), its types and their demands.
fn with_repeats(
    rng: &mut ChaCha8Rng,
    case: usize,
) -> (Instance, super::aggregate::Types, Vec<f64>) {
    let base = random(rng, case);
    let mut inst = base.clone();
    inst.items = base
        .items
        .iter()
        .flat_map(|w| std::iter::repeat_n(w.clone(), rng.random_range(1..=4)))
        .collect();
    let types = super::aggregate::Types::of(&inst);
    let demands: Vec<f64> = types.members.iter().map(|m| m.len() as f64).collect();
    (inst, types, demands)
}

/// The aggregated root's stabilised column generation (self-adjusting smoothing, the
/// dual-optimal inequalities, 30 columns a round, 2 live columns a row), the same with half a
/// live column a row (column management far past its default), and the plain loop converge
/// to the same LP value, on 1-D and 2-D instances with repeated items; both bounds lie below the LP value
/// and, rounded up, below the brute-force optimum in one dimension.
#[test]
fn stabilised_and_plain_roots_reach_the_same_lp() {
    use super::aggregate::TypeKnapsack;
    use crate::colgen::{run, CgSettings, CoveringMaster, Termination};
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let full = |s: CgSettings| CgSettings {
        stop_when_bound_closes: false,
        tail_iterations: 0,
        ..s
    };
    for case in 0..120 {
        let (inst, types, demands) = with_repeats(&mut rng, case);
        let mut values = Vec::new();
        let few_live = CgSettings {
            live_columns_per_row: 0.5,
            ..solve::root_cg()
        };
        for (settings, columns) in [
            (full(CgSettings::default()), 10),
            (full(solve::root_cg()), 30),
            (full(few_live), 30),
        ] {
            let pricing = PricingSettings {
                max_columns: columns,
                ..PricingSettings::default()
            };
            let mut oracle = TypeKnapsack::new(&inst, &types, pricing);
            let mut master = CoveringMaster::new(&demands);
            // One type per bin: a feasible start.
            for t in 0..types.count() {
                master.add_column(vec![(t, 1.0)]).unwrap();
            }
            let out = run(&mut master, &mut oracle, &settings, 0.0, &Deadline::none()).unwrap();
            assert_eq!(out.termination, Termination::Converged, "case {case}");
            assert!(out.bound <= out.master_value + 1e-9, "case {case}");
            assert!(out.bound >= out.master_value - 1e-6, "case {case}");
            values.push(out.master_value);
            if inst.dims() == 1 && inst.len() <= 14 {
                let w: Vec<u64> = inst.items.iter().map(|x| x[0]).collect();
                let opt = min_bins(&w, inst.capacity[0]);
                assert!(
                    crate::ceil_with_tolerance(out.bound) as usize <= opt,
                    "case {case}: bound {} above the optimum {opt}",
                    out.bound
                );
            }
        }
        assert!(
            values.iter().all(|v| (values[0] - v).abs() <= 1e-6),
            "case {case}: plain, stabilised, few live columns: {values:?}"
        );
    }
}

/// A root stopped early with the dual-optimal inequalities' exchange columns in its master
/// reports the least master value of the loop: never below the converged LP value (it is an
/// upper bound on it), never above the plain master it re-solved at the end, and below that
/// one on many cases (the exchanges stand in for columns not generated yet).
#[test]
fn an_early_stop_reports_the_least_master_value() {
    use super::aggregate::TypeKnapsack;
    use crate::colgen::{run, CgSettings, CoveringMaster, Termination};
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut below = 0;
    for case in 0..120 {
        let (inst, types, demands) = with_repeats(&mut rng, case);
        let stops = rng.random_range(1..=4u32);
        let outcome = |max_iterations: u32| {
            let mut oracle = TypeKnapsack::new(&inst, &types, PricingSettings::default());
            let mut master = CoveringMaster::new(&demands);
            for t in 0..types.count() {
                master.add_column(vec![(t, 1.0)]).unwrap();
            }
            let settings = CgSettings {
                stop_when_bound_closes: false,
                tail_iterations: 0,
                max_iterations,
                ..solve::root_cg()
            };
            run(&mut master, &mut oracle, &settings, 0.0, &Deadline::none()).unwrap()
        };
        let lp = outcome(10_000);
        assert_eq!(lp.termination, Termination::Converged, "case {case}");
        let early = outcome(stops);
        if early.termination == Termination::Converged {
            continue;
        }
        assert!(
            early.least_master >= lp.master_value - 1e-6,
            "case {case}: least master {} below the LP {}",
            early.least_master,
            lp.master_value
        );
        assert!(
            early.least_master <= early.master_value + 1e-12,
            "case {case}"
        );
        assert_eq!(
            early.convergence().master,
            early.least_master,
            "case {case}"
        );
        if early.least_master < early.master_value - 1e-9 {
            below += 1;
        }
    }
    assert!(below >= 10, "only {below} cases below the plain master");
}

/// The dual-optimal inequalities of the type knapsack are valid: over every pattern of a tiny
/// instance (all of them, so the LP is the full configuration LP), the master with the
/// exchange columns has the same value as without them.
#[test]
fn dual_optimal_inequalities_keep_the_lp_value() {
    use super::aggregate::{TypeKnapsack, Types};
    use crate::colgen::{CoveringMaster, Pricing};
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for case in 0..150 {
        let cap: u64 = rng.random_range(10..=30);
        let n_types = rng.random_range(2..=6);
        let dims = 1 + case % 2;
        let weights: Vec<Vec<u64>> = (0..n_types)
            .map(|_| (0..dims).map(|_| rng.random_range(2..=cap)).collect())
            .collect();
        let copies: Vec<usize> = (0..n_types).map(|_| rng.random_range(1..=3)).collect();
        let items: Vec<Vec<u64>> = weights
            .iter()
            .zip(&copies)
            .flat_map(|(w, &k)| std::iter::repeat_n(w.clone(), k))
            .collect();
        let inst = Instance {
            capacity: vec![cap; dims],
            items,
        };
        let types = Types::of(&inst);
        let demands: Vec<f64> = types.members.iter().map(|m| m.len() as f64).collect();
        // Every pattern: counts per type within the copies and the capacity.
        let mut patterns: Vec<Vec<(usize, f64)>> = Vec::new();
        let mut counts = vec![0usize; types.count()];
        loop {
            let fits = (0..dims).all(|d| {
                (0..types.count())
                    .map(|t| counts[t] as u64 * inst.items[types.members[t][0]][d])
                    .sum::<u64>()
                    <= cap
            });
            if fits && counts.iter().any(|&c| c > 0) {
                patterns.push(
                    (0..types.count())
                        .filter(|&t| counts[t] > 0)
                        .map(|t| (t, counts[t] as f64))
                        .collect(),
                );
            }
            let Some(t) = (0..types.count()).find(|&t| counts[t] < types.members[t].len()) else {
                break;
            };
            counts[t] += 1;
            for c in counts.iter_mut().take(t) {
                *c = 0;
            }
        }
        let oracle = TypeKnapsack::new(&inst, &types, PricingSettings::default());
        let pairs = oracle.dominance();
        let mut value = Vec::new();
        for with in [false, true] {
            let mut master = CoveringMaster::new(&demands);
            if with {
                master.add_exchanges(&pairs).unwrap();
            }
            for p in &patterns {
                master.add_column(p.clone()).unwrap();
            }
            value.push(master.solve(&Deadline::none()).unwrap().unwrap().value);
        }
        assert!(
            (value[0] - value[1]).abs() < 1e-7,
            "case {case}: {value:?} with pairs {pairs:?}"
        );
    }
}

/// The root's dives from a converged aggregated root, with every column live in a retry's
/// master, with column management before each retry (2 and half a live column a row), and
/// with more dives on a share of the time: whatever they return fits the capacity bin by bin,
/// packs every item exactly once (as unit bins), never uses fewer bins than the brute-force
/// optimum, and beats the start it was given.
#[test]
fn root_dives_with_column_management_return_valid_packings() {
    use super::aggregate::TypeKnapsack;
    use crate::colgen::{root_dives, run, BpSettings, CoveringMaster};
    let mut rng = ChaCha8Rng::seed_from_u64(58);
    let (mut found, mut checked) = ([0usize; 4], 0);
    for case in 0..120 {
        let (inst, types, demands) = with_repeats(&mut rng, case);
        let one_d = inst.dims() == 1 && inst.len() <= 14;
        let opt = one_d.then(|| {
            let w: Vec<u64> = inst.items.iter().map(|x| x[0]).collect();
            min_bins(&w, inst.capacity[0])
        });
        // One root for every variant: each dives from a fresh master over its columns.
        let deadline = Deadline::after(Some(5.0));
        let mut master = CoveringMaster::new(&demands);
        for t in 0..types.count() {
            master.add_column(vec![(t, 1.0)]).unwrap();
        }
        let mut oracle = TypeKnapsack::new(&inst, &types, PricingSettings::default());
        let out = run(&mut master, &mut oracle, &solve::root_cg(), 0.0, &deadline).unwrap();
        let bound = crate::ceil_with_tolerance(out.bound);
        let root_columns = master.columns().to_vec();
        let start = inst.len() as u64; // one item a bin
        let variants = [(0.0, 0.0), (2.0, 0.0), (0.5, 0.0), (2.0, 0.5)];
        for (v, &(per_row, share)) in variants.iter().enumerate() {
            let mut oracle = TypeKnapsack::new(&inst, &types, PricingSettings::default());
            let mut master = CoveringMaster::new(&demands);
            for c in &root_columns {
                master.add_column(c.clone()).unwrap();
            }
            let settings = BpSettings {
                retry_live_columns_per_row: per_row,
                retry_share: share,
                ..BpSettings::default()
            };
            let cols =
                root_dives(&mut master, &mut oracle, &settings, bound, start, &deadline).unwrap();
            let Some(cols) = cols else { continue };
            found[v] += 1;
            assert!(
                (cols.len() as u64) < start,
                "case {case}: no better than the start"
            );
            for c in &cols {
                for d in 0..inst.dims() {
                    let load: u64 = c
                        .iter()
                        .map(|&(t, k)| k as u64 * inst.items[types.members[t][0]][d])
                        .sum();
                    assert!(load <= inst.capacity[d], "case {case}: a bin over capacity");
                }
            }
            // As unit bins (a bin asking for more copies than are left takes what is left):
            // every item exactly once, so the columns cover every demand.
            let bins = types.to_unit_bins(&cols);
            let mut seen = vec![0u32; inst.len()];
            for b in &bins {
                for &i in b {
                    seen[i] += 1;
                }
            }
            assert!(
                seen.iter().all(|&n| n == 1),
                "case {case}, variant {v}: {seen:?}"
            );
            assert!(bins.len() <= cols.len(), "case {case}");
            if let Some(opt) = opt {
                checked += 1;
                assert!(
                    bins.len() >= opt,
                    "case {case}: {} bins below {opt}",
                    bins.len()
                );
            }
        }
    }
    assert!(checked >= 20, "only {checked} packings against brute force");
    assert!(
        found.iter().all(|&f| f >= 100),
        "the dives found only {found:?}"
    );
}
