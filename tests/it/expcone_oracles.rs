//! Exponential-cone oracles: the PC/EC sharing model's water-filling (`pcec::water_fill`) is
//! the optimum of `max Σ share_k ln(α_k − min_k)` s.t. `Σ α ≤ pCap`, `min ≤ α ≤ δ̄`, solved
//! by Clarabel through `solver::maximise_log_sum` (the market's Eq. 1 has its own oracle
//! beside `market::share`).
//!
//! Degenerate cases: a VM with `δ̄_k ≤ min_k` does not grow with the level; it gets `δ̄_k`
//! and enters the programme as a fixed variable without a logarithm. When `Σ δ̄ ≤ pCap`
//! every VM gets `δ̄` (the level is infinite) and the programme's optimum is its upper box.
//! Draws where the growing VMs' guarantees alone fill the PM (level 0: `ln 0`) are skipped.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::pcec::{water_fill, VmSpec};
use vcalloc::solver::{maximise_log_sum, Deadline, LogOutcome, LogProgram};

fn random_pm(rng: &mut ChaCha8Rng) -> (f64, Vec<VmSpec>, Vec<f64>) {
    let m = rng.random_range(1..10);
    let specs: Vec<VmSpec> = (0..m)
        .map(|_| {
            let min = if rng.random_bool(0.5) {
                0.0
            } else {
                rng.random_range(0.0..0.15)
            };
            VmSpec {
                min,
                max: rng.random_range(0.2..1.0f64).max(min),
                share: rng.random_range(0.1..4.0),
            }
        })
        .collect();
    let demands: Vec<f64> = (0..m)
        .map(|_| {
            if rng.random_bool(0.15) {
                0.0
            } else {
                rng.random_range(0.0..1.0)
            }
        })
        .collect();
    let guaranteed: f64 = specs.iter().map(|s| s.min).sum();
    let pcap = guaranteed + rng.random_range(0.05..2.0);
    (pcap, specs, demands)
}

#[test]
fn ec_water_filling_is_the_weighted_log_optimum() {
    let (mut contended, mut free) = (0, 0);
    for seed in 0..300 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (pcap, specs, demands) = random_pm(&mut rng);
        let m = specs.len();
        let dbar: Vec<f64> = (0..m)
            .map(|k| demands[k].min(specs[k].max).max(0.0))
            .collect();
        let growing: Vec<bool> = (0..m).map(|k| dbar[k] > specs[k].min).collect();
        let fixed: f64 = (0..m).map(|k| dbar[k].min(specs[k].min)).sum();
        if fixed >= pcap {
            continue;
        }
        let prog = LogProgram {
            weights: (0..m)
                .map(|k| if growing[k] { specs[k].share } else { 0.0 })
                .collect(),
            offsets: specs.iter().map(|s| s.min).collect(),
            rows: vec![((0..m).map(|k| (k, 1.0)).collect(), pcap)],
            lower: (0..m).map(|k| dbar[k].min(specs[k].min)).collect(),
            upper: dbar.clone(),
        };
        let out = maximise_log_sum(&prog, 1e-10, &Deadline::none()).unwrap();
        let LogOutcome::Solved {
            x, polished: true, ..
        } = out
        else {
            panic!("seed {seed}: not solved and polished: {out:?}");
        };
        let alloc = water_fill(pcap, &specs, &demands);
        for (k, (eg, wf)) in x.iter().zip(&alloc.rates).enumerate() {
            // Rates are fractions of a core (pCap ≤ about 3): 1e-7 absolute ≈ relative.
            assert!(
                (eg - wf).abs() <= 1e-7 * pcap.max(1.0),
                "seed {seed} vm {k}: EG {eg} vs water-fill {wf}"
            );
        }
        if alloc.level.is_finite() {
            contended += 1;
        } else {
            free += 1;
        }
    }
    // Both regimes must have been exercised.
    assert!(
        contended > 50 && free > 20,
        "{contended} contended, {free} free"
    );
}
