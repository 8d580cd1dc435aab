//! Branch-and-price against brute force on tiny random instances, the pricing against
//! enumeration, heuristics never below the optimum.

use super::pricing::{BinKnapsack, PricingSettings};
use super::*;
use crate::colgen::{BpSettings, BranchPricing};
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The least number of bins, by trying every assignment of items to bins in canonical order
/// (item `i` goes to one of the bins opened so far or a new one).
fn brute(inst: &Instance) -> usize {
    fn rec(inst: &Instance, i: usize, loads: &mut Vec<u64>, best: &mut usize) {
        if loads.len() >= *best {
            return;
        }
        if i == inst.weights.len() {
            *best = loads.len();
            return;
        }
        let w = inst.weights[i];
        for b in 0..loads.len() {
            if loads[b] + w <= inst.capacity {
                loads[b] += w;
                rec(inst, i + 1, loads, best);
                loads[b] -= w;
            }
        }
        loads.push(w);
        rec(inst, i + 1, loads, best);
        loads.pop();
    }
    let mut best = inst.weights.len() + 1;
    rec(inst, 0, &mut Vec::new(), &mut best);
    best
}

/// Every other instance has weights in `(C/5, C/2]`, where the LP is often fractional.
fn random(rng: &mut ChaCha8Rng, case: usize) -> Instance {
    let capacity: u64 = rng.random_range(10..=40);
    let n = rng.random_range(3..=10);
    let lo = if case.is_multiple_of(2) {
        2
    } else {
        capacity / 5 + 1
    };
    let hi = if case.is_multiple_of(2) {
        capacity
    } else {
        capacity / 2
    };
    Instance {
        capacity,
        weights: (0..n).map(|_| rng.random_range(lo..=hi)).collect(),
    }
}

/// `bp` with no dive and FFD's start proves the brute-force optimum; `cg`'s bound and every
/// heuristic sit on the right side of it; every answer verifies.
#[test]
fn branch_and_price_equals_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut settings = Settings::default();
    settings.bp.root_dive = false;
    let mut branched = 0;
    for case in 0..250 {
        let inst = random(&mut rng, case);
        let opt = brute(&inst) as f64;
        for m in Method::all() {
            let sol = solve(&inst, m, &settings, &Deadline::none()).unwrap();
            assert!(
                verify(&inst, &sol).is_empty(),
                "case {case} {m}: {:?}",
                verify(&inst, &sol)
            );
            let c = &sol.certificate;
            assert!(
                c.objective.unwrap() >= opt,
                "case {case} {m}: below the optimum"
            );
            assert!(
                c.bound.unwrap() <= opt + 1e-9,
                "case {case} {m}: bound above the optimum"
            );
            if m == Method::Bp {
                assert_eq!(c.objective, Some(opt), "case {case}: {inst:?}");
                assert_eq!(c.status, crate::Status::Optimal, "case {case}");
                branched += usize::from(c.stats["nodes"] > 1.0);
            }
        }
    }
    assert!(branched > 0, "no instance needed branching");
}

/// The pricing's best bin equals enumeration of every subset honouring random decisions.
#[test]
fn pricing_equals_enumeration_under_decisions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..300 {
        let n = rng.random_range(2..=9usize);
        let capacity = rng.random_range(5..=25u64);
        let weights: Vec<u64> = (0..n).map(|_| rng.random_range(1..=capacity)).collect();
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
        let mut k = BinKnapsack::new(&weights, capacity, PricingSettings::default());
        k.restrict(&together, &apart);
        let (bins, complete, _) = k.search(&values);
        assert!(complete);
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let has = |i: usize| mask >> i & 1 == 1;
            let w: u64 = (0..n).filter(|&i| has(i)).map(|i| weights[i]).sum();
            let ok = w <= capacity
                && together.iter().all(|&(i, j)| has(i) == has(j))
                && apart.iter().all(|&(i, j)| !(has(i) && has(j)));
            if ok {
                best = best.max((0..n).filter(|&i| has(i)).map(|i| values[i]).sum());
            }
        }
        let got = bins.first().map_or(0.0, |b| b.0);
        assert!((got - best).abs() < 1e-9, "case {case}: {got} vs {best}");
        for (v, items) in &bins {
            let w: u64 = items.iter().map(|&i| weights[i]).sum();
            assert!(w <= capacity, "case {case}");
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

/// The root LP of `cg` on a BPPLIB instance kept in `data/` equals Brandão's `lp_bound`.
#[test]
fn root_lp_matches_the_published_bound() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bpplib/Falkenauer_t60_00.txt");
    let inst = Instance::load(&path).unwrap();
    let mut settings = Settings::default();
    settings.bp.cg.stop_when_bound_closes = false;
    let sol = solve(&inst, Method::Cg, &settings, &Deadline::none()).unwrap();
    let lp = sol.certificate.stats["root_lp"];
    assert!((lp - 20.0).abs() < 0.005, "root LP {lp}");
    let _ = BpSettings::default();
}
