//! Proportional share with caps (Eq. 1 of §2.3, with the per-VM maximum of §3.1) by
//! water-filling, and the allocation error of §3.1.
//!
//! Why water-filling: the capped rule `a_i = min(cap_i, b_i / p)` with `Σ a_i = C` has one
//! price `p`; sorting VMs by `b_i / cap_i` (the price above which a VM is capped) finds it in
//! one pass after an O(m log m) sort. The result is also the Eisenberg–Gale optimum
//! `max Σ b_i ln a_i, Σ a ≤ C, 0 ≤ a ≤ cap`, which the main crate can check with Clarabel.

use serde::{Deserialize, Serialize};

/// The outcome of dividing one resource of capacity `C` among bidders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// Allocation of each bidder, in the order of the bids.
    pub alloc: Vec<f64>,
    /// The clearing price `p` (credits per unit): uncapped bidders get `b / p`. When the caps
    /// sum to at most `C` every bidder is capped and `p = min_i b_i / cap_i` over positive
    /// bids (the largest price at which all are still capped, so `p` is continuous in `C`);
    /// `0` when no bid is positive.
    pub price: f64,
}

/// Proportional share with caps: `a_i = min(cap_i, b_i / p)` with `Σ a_i = C` when
/// `Σ cap ≥ C`, else `a = cap`. Bids and caps must be finite and non-negative (the instance
/// validation guarantees it). Zero-bid VMs receive nothing while capacity is scarce; when the
/// positive bidders are all capped and capacity is left, it is water-filled among the
/// zero-bid VMs with equal weights, so that `Σ a = min(C, Σ cap)` always holds.
pub fn proportional_share(bids: &[f64], caps: &[f64], capacity: f64) -> Share {
    debug_assert_eq!(bids.len(), caps.len());
    let m = bids.len();
    let mut alloc = vec![0.0; m];
    let total_cap: f64 = caps.iter().sum();
    let positive: Vec<usize> = (0..m).filter(|&i| bids[i] > 0.0 && caps[i] > 0.0).collect();
    if total_cap <= capacity {
        let price = positive
            .iter()
            .map(|&i| bids[i] / caps[i])
            .fold(f64::INFINITY, f64::min);
        return Share {
            alloc: caps.to_vec(),
            price: if price.is_finite() { price } else { 0.0 },
        };
    }
    let pos_cap: f64 = positive.iter().map(|&i| caps[i]).sum();
    if pos_cap <= capacity {
        // Positive bidders all capped; the rest goes to zero bidders with equal weights.
        let zero: Vec<usize> = (0..m)
            .filter(|&i| bids[i] <= 0.0 && caps[i] > 0.0)
            .collect();
        let zb = vec![1.0; zero.len()];
        let zc: Vec<f64> = zero.iter().map(|&i| caps[i]).collect();
        let rest = proportional_share(&zb, &zc, capacity - pos_cap);
        for &i in &positive {
            alloc[i] = caps[i];
        }
        for (k, &i) in zero.iter().enumerate() {
            alloc[i] = rest.alloc[k];
        }
        return Share { alloc, price: 0.0 };
    }
    let price = water_fill(bids, caps, capacity, &positive, &mut alloc);
    Share { alloc, price }
}

/// The water-filling pass over the positive bidders when their caps exceed `capacity`:
/// caps the VMs in decreasing order of `b/cap` until the price of the rest no longer
/// exceeds the next ratio. Writes allocations and returns the price.
fn water_fill(bids: &[f64], caps: &[f64], capacity: f64, pos: &[usize], alloc: &mut [f64]) -> f64 {
    let mut order: Vec<(f64, usize)> = pos.iter().map(|&i| (bids[i] / caps[i], i)).collect();
    order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let mut rest_bid: f64 = pos.iter().map(|&i| bids[i]).sum();
    let mut rest_cap = capacity;
    let mut k = 0;
    let mut price = rest_bid / rest_cap;
    while k < order.len() {
        let (ratio, i) = order[k];
        // Capped iff its uncapped share b/p would exceed cap, i.e. ratio > p.
        if ratio <= price || rest_cap - caps[i] <= 0.0 {
            break;
        }
        rest_bid -= bids[i];
        rest_cap -= caps[i];
        k += 1;
        if rest_bid <= 0.0 {
            break;
        }
        price = rest_bid / rest_cap;
    }
    for &(_, i) in &order[..k] {
        alloc[i] = caps[i];
    }
    for &(_, i) in &order[k..] {
        alloc[i] = (bids[i] / price).min(caps[i]);
    }
    price
}

/// Proportional share with a reserve price: the price is `max(reserve, p*)` where `p*` is
/// the clearing price, and `a_i = min(cap_i, b_i / price)`. Why: Merkat's market has a floor
/// price (§5.4.2 "reserve price"); with a floor, low bids on an idle node buy only
/// `b / reserve` instead of the whole node. With `reserve = 0` this is [`proportional_share`].
pub fn share_with_reserve(bids: &[f64], caps: &[f64], capacity: f64, reserve: f64) -> Share {
    let s = proportional_share(bids, caps, capacity);
    if s.price >= reserve || reserve <= 0.0 {
        return s;
    }
    let alloc = bids
        .iter()
        .zip(caps)
        .map(|(&b, &c)| (b / reserve).min(c))
        .collect();
    Share {
        alloc,
        price: reserve,
    }
}

/// How the per-resource error `e_v^r = |a_v^r − g_v^r|` is made comparable across CPU and
/// memory into one `E_v` (the paper does not say; issue 21 proposes node capacity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ErrorNorm {
    /// `E_v = max_r e_v^r / C_node(v)^r` (default; dimensionless, in [0, 1]).
    #[default]
    NodeCapacity,
    /// `E_v = max_r e_v^r / cap_v^r` (relative to the VM's own size; 0 when the cap is 0).
    VmCap,
    /// `E_v = max_r e_v^r` in raw units (only sensible with one resource).
    Absolute,
}

impl ErrorNorm {
    /// The normalised error of one resource given the node capacity and the VM's cap.
    pub fn normalise(self, err: f64, node_capacity: f64, cap: f64) -> f64 {
        match self {
            ErrorNorm::NodeCapacity if node_capacity > 0.0 => err / node_capacity,
            ErrorNorm::VmCap if cap > 0.0 => err / cap,
            ErrorNorm::Absolute => err,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_case(rng: &mut ChaCha8Rng) -> (Vec<f64>, Vec<f64>, f64) {
        let m = rng.random_range(1..12);
        let bids: Vec<f64> = (0..m)
            .map(|_| {
                if rng.random_bool(0.1) {
                    0.0
                } else {
                    rng.random_range(0.1..50.0)
                }
            })
            .collect();
        let caps: Vec<f64> = (0..m).map(|_| rng.random_range(0.5..10.0)).collect();
        let c = rng.random_range(1.0..60.0);
        (bids, caps, c)
    }

    #[test]
    fn golden_uncapped_price_is_sum_over_capacity() {
        // §3.1: pooled 300 CPU, bids 12,12,12,30,30 → p = 96/300, g = 37.5 and 93.75.
        let s = proportional_share(&[12., 12., 12., 30., 30.], &[100.; 5], 300.0);
        assert!((s.price - 96.0 / 300.0).abs() < 1e-12);
        for k in 0..3 {
            assert!((s.alloc[k] - 37.5).abs() < 1e-9);
        }
        assert!((s.alloc[3] - 93.75).abs() < 1e-9 && (s.alloc[4] - 93.75).abs() < 1e-9);
    }

    #[test]
    fn properties_over_seeds() {
        for seed in 0..500 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let (bids, caps, c) = random_case(&mut rng);
            let s = proportional_share(&bids, &caps, c);
            let total: f64 = s.alloc.iter().sum();
            let cap_sum: f64 = caps.iter().sum();
            // Conservation: Σ a = min(C, Σ cap).
            assert!(
                (total - c.min(cap_sum)).abs() < 1e-9 * c.max(1.0),
                "seed {seed}"
            );
            for i in 0..bids.len() {
                assert!(s.alloc[i] <= caps[i] + 1e-12 && s.alloc[i] >= 0.0);
                // Uncapped positive bidders share one price.
                if cap_sum > c && bids[i] > 0.0 && s.alloc[i] < caps[i] - 1e-9 {
                    assert!((bids[i] / s.alloc[i] - s.price).abs() < 1e-9 * s.price.max(1.0));
                }
                // Capped bidders would want more at that price.
                if cap_sum > c && s.price > 0.0 && bids[i] > 0.0 {
                    assert!(s.alloc[i] <= bids[i] / s.price + 1e-9);
                }
            }
            // Scaling invariance.
            let scaled: Vec<f64> = bids.iter().map(|b| b * 7.3).collect();
            let s2 = proportional_share(&scaled, &caps, c);
            for i in 0..bids.len() {
                assert!((s.alloc[i] - s2.alloc[i]).abs() < 1e-9);
            }
            // Monotone in own bid.
            let j = rng.random_range(0..bids.len());
            let mut more = bids.clone();
            more[j] = more[j] * 1.5 + 0.5;
            let s3 = proportional_share(&more, &caps, c);
            assert!(s3.alloc[j] >= s.alloc[j] - 1e-9, "seed {seed}");
        }
    }

    #[test]
    fn eisenberg_gale_kkt_holds() {
        // Optimality of max Σ b ln a: for uncapped i, b_i/a_i = λ; for capped, b_i/a_i ≥ λ.
        for seed in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
            let (bids, caps, c) = random_case(&mut rng);
            if caps.iter().sum::<f64>() <= c {
                continue;
            }
            let s = proportional_share(&bids, &caps, c);
            for (b, a) in bids.iter().zip(&s.alloc) {
                if *b > 0.0 && *a > 0.0 {
                    assert!(b / a >= s.price * (1.0 - 1e-9));
                }
            }
        }
    }

    /// Water-filling equals the Eisenberg–Gale optimum `max Σ b ln a, Σ a ≤ C, 0 ≤ a ≤ cap`
    /// solved by Clarabel over exponential cones, on cases with `Σ cap > C` (zero bids carry
    /// no logarithm). Scaled to `C = 1`, `Σ b = 1`, so allocations are fractions of the
    /// capacity and the tolerance 1e-7 is relative to `C`. Clarabel alone places `a` only to
    /// about the square root of its gap (the objective is flat to first order at the optimum:
    /// measured 2e-7 at gap 1e-10); the adapter's KKT polish (Newton on the active set, kept
    /// only when feasible with non-negative multipliers) is what makes 1e-7 meaningful.
    #[test]
    fn water_filling_is_the_eisenberg_gale_optimum() {
        use crate::solver::{maximise_log_sum, Deadline, LogOutcome, LogProgram};
        let mut checked = 0;
        for seed in 0..120 {
            let mut rng = ChaCha8Rng::seed_from_u64(5000 + seed);
            let (bids, caps, c) = random_case(&mut rng);
            // Zero bidders only take what positive bidders leave (EG is indifferent to them):
            // the programme is over the positive bidders, with contention among them.
            let pos: Vec<usize> = (0..bids.len()).filter(|&i| bids[i] > 0.0).collect();
            if pos.iter().map(|&i| caps[i]).sum::<f64>() <= c {
                continue;
            }
            let s = proportional_share(&bids, &caps, c);
            let total_bid: f64 = bids.iter().sum();
            let m = pos.len();
            let prog = LogProgram {
                weights: pos.iter().map(|&i| bids[i] / total_bid).collect(),
                offsets: vec![0.0; m],
                rows: vec![((0..m).map(|k| (k, 1.0)).collect(), 1.0)],
                lower: vec![0.0; m],
                upper: pos.iter().map(|&i| caps[i] / c).collect(),
            };
            let out = maximise_log_sum(&prog, 1e-10, &Deadline::none()).unwrap();
            let LogOutcome::Solved {
                x, polished: true, ..
            } = out
            else {
                panic!("seed {seed}: Clarabel did not solve and polish: {out:?}");
            };
            for (k, &i) in pos.iter().enumerate() {
                let d = (x[k] - s.alloc[i] / c).abs();
                assert!(
                    d <= 1e-7,
                    "seed {seed} vm {i}: EG {} vs {}",
                    x[k] * c,
                    s.alloc[i]
                );
            }
            checked += 1;
        }
        assert!(checked > 50, "{checked} cases with contention");
    }

    #[test]
    fn reserve_price_floors_the_price() {
        let s = share_with_reserve(&[1.0, 2.0], &[8.0, 8.0], 8.0, 1.0);
        assert_eq!(s.price, 1.0);
        assert_eq!(s.alloc, vec![1.0, 2.0]);
        let t = share_with_reserve(&[10.0, 30.0], &[8.0, 8.0], 8.0, 1.0);
        assert!((t.price - 5.0).abs() < 1e-12);
    }
}
