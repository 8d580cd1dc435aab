//! The application controllers of §3.2: Algorithm 1 (vertical scaling of a VM's bids),
//! Algorithm 2 (horizontal scaling of a VM count) and Algorithm 3 (the largest VM count the
//! budget affords at full allocation).
//!
//! Algorithm 1 as printed cannot be what was meant: its factor `max(2, 1+T)` is at least 2,
//! so the "halved after a reversal" damping never damps, and the budget step `bid_max / w[r]`
//! spends more than `bid_max`. [`Reading::Corrected`] (default) implements the evident intent
//! (issue 21): factor `min(f_max, 1+T)`, its excess over 1 halved after a reversal, and the
//! budget split `bid_max · w_r / Σ w`. [`Reading::Literal`] keeps the printed formulas.

use super::instance::Res;
use serde::{Deserialize, Serialize};

/// Which reading of Algorithm 1 to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// `min(f_max, 1+T)`, damped to `1 + (f−1)/2` after a reversal, budget split by weights.
    #[default]
    Corrected,
    /// As printed: `max(2, 1+T)`, `max(2, (1+T)/2)` after a reversal, `bid_max / w[r]`.
    Literal,
}

/// Everything Algorithm 1 reads, for one VM (all VMs of an app share the bid).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerticalInput {
    /// Current bid per resource.
    pub bid: Res,
    /// The smallest bid the infrastructure accepts, per resource.
    pub bid_min: Res,
    /// The budget for the next period (per VM).
    pub bid_max: f64,
    /// Allocation received last period.
    pub alloc: Res,
    /// Minimum useful allocation.
    pub alloc_min: Res,
    /// Maximum allocation (the VM's size).
    pub alloc_max: Res,
    /// What the current bid buys at the current price ignoring the cap (`bid / price`).
    pub share: Res,
    /// Performance value (iteration time: higher is worse).
    pub v: f64,
    /// Reference value (remaining time to deadline over remaining iterations).
    pub v_ref: f64,
    /// Lower threshold: below it the app is fast enough to save budget.
    pub v_low: f64,
    /// Upper threshold: above it the app needs more resources.
    pub v_high: f64,
    /// Previous bid change `bid_old − bid_new` (summed over resources): negative after an
    /// increase, positive after a decrease.
    pub history: f64,
}

/// Algorithm 1's tunables.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerticalParams {
    /// Which reading of the printed algorithm.
    pub reading: Reading,
    /// `f_max` of the corrected reading: the largest multiplicative bid change (default 2).
    pub max_factor: f64,
}

impl Default for VerticalParams {
    fn default() -> Self {
        VerticalParams {
            reading: Reading::Corrected,
            max_factor: 2.0,
        }
    }
}

/// The multiplicative factor of a bid change; `reversal` when the previous change went the
/// other way (lines 10–13 and 15–18).
pub fn bid_factor(t: f64, reversal: bool, p: &VerticalParams) -> f64 {
    match p.reading {
        Reading::Corrected => {
            let f = p.max_factor.min(1.0 + t).max(1.0);
            if reversal {
                1.0 + (f - 1.0) / 2.0
            } else {
                f
            }
        }
        Reading::Literal => {
            if reversal {
                2f64.max((1.0 + t) / 2.0)
            } else {
                2f64.max(1.0 + t)
            }
        }
    }
}

/// Algorithm 1: the bids for the next period. `T = |(v_ref − v)/v|` (the text's formula; the
/// listing's line 2 is garbled). Direction −1 (too slow, `v > v_high`) raises bids of
/// resources below their maximum; direction +1 (`v < v_low`) lowers them down to `bid_min`, as
/// does a share above the maximum allocation; lines 19–25 then bring the total within budget.
pub fn vertical(i: &VerticalInput, p: &VerticalParams) -> Res {
    let t = if i.v > 0.0 {
        ((i.v_ref - i.v) / i.v).abs()
    } else {
        0.0
    };
    let direction = if i.v > i.v_high {
        -1
    } else if i.v < i.v_low {
        1
    } else {
        0
    };
    let mut bid = i.bid;
    for r in 0..2 {
        let (b, a) = (bid.get(r), i.alloc.get(r));
        if (direction > 0 && a > i.alloc_min.get(r)) || i.share.get(r) > i.alloc_max.get(r) {
            let f = bid_factor(t, i.history < 0.0, p);
            bid.set(r, (b / f).max(i.bid_min.get(r)));
        }
        let b = bid.get(r);
        if (direction < 0 && a < i.alloc_max.get(r)) || a < i.alloc_min.get(r) {
            let f = bid_factor(t, i.history > 0.0, p);
            bid.set(r, (b * f).max(i.bid_min.get(r)));
        }
    }
    if bid.total() > i.bid_max {
        bid = fit_budget(bid, i, p.reading);
    }
    bid
}

/// Lines 19–25: re-adjust bids that exceed the budget.
fn fit_budget(mut bid: Res, i: &VerticalInput, reading: Reading) -> Res {
    let maxed = (0..2).find(|&r| i.alloc.get(r) >= i.alloc_max.get(r));
    if let Some(r) = maxed {
        let o = 1 - r;
        if reading == Reading::Corrected {
            bid.set(r, bid.get(r).min(i.bid_max));
        }
        bid.set(o, (i.bid_max - bid.get(r)).max(0.0));
        return bid;
    }
    let w: Vec<f64> = (0..2)
        .map(|r| {
            let m = i.alloc_max.get(r);
            if m > 0.0 {
                (1.0 - i.alloc.get(r) / m).max(0.0)
            } else {
                0.0
            }
        })
        .collect();
    let sum: f64 = w.iter().sum();
    for (r, &wr) in w.iter().enumerate() {
        let v = match reading {
            Reading::Literal => i.bid_max / wr,
            Reading::Corrected if sum > 0.0 => i.bid_max * wr / sum,
            Reading::Corrected => i.bid_max / 2.0,
        };
        bid.set(r, v);
    }
    bid
}

/// Algorithm 3's cost of `n` VMs at full allocation, per resource: from Eq. 1 with the app's
/// allocation `n·amax` and the price `P` of the others' bids, `P·amax·n / (1 − amax·n/Cap)`;
/// with a reserve price the bid must also be at least `reserve·amax·n` (zero reserve: the
/// printed formula). Infinite when `amax·n ≥ Cap`.
pub fn cost(n: usize, price: &Res, alloc_max: &Res, capacity: &Res, reserve: &Res) -> Res {
    let mut c = Res::default();
    for r in 0..2 {
        let a = alloc_max.get(r) * n as f64;
        let v = if a <= 0.0 {
            0.0
        } else if a >= capacity.get(r) {
            f64::INFINITY
        } else {
            let printed = price.get(r) * a / (1.0 - a / capacity.get(r));
            printed.max(reserve.get(r) * a)
        };
        c.set(r, v);
    }
    c
}

/// Algorithm 3: the largest `N ∈ [1, nvms_max]` with `Σ_r cost_r(N) < bid_max`, by binary
/// search (the cost increases with `N`), and the total bids per resource for those `N`.
/// `(0, 0)` when not even one VM is affordable.
pub fn max_affordable(
    nvms_max: usize,
    bid_max: f64,
    price: &Res,
    alloc_max: &Res,
    capacity: &Res,
    reserve: &Res,
) -> (usize, Res) {
    let ok = |n: usize| cost(n, price, alloc_max, capacity, reserve).total() < bid_max;
    if nvms_max == 0 || !ok(1) {
        return (0, Res::default());
    }
    let (mut lo, mut hi) = (1, nvms_max);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    (lo, cost(lo, price, alloc_max, capacity, reserve))
}

/// What Algorithm 2 reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HorizontalInput {
    /// VMs currently held.
    pub nvms: usize,
    /// Most VMs the app may hold.
    pub nvms_max: usize,
    /// Performance value (e.g. queued work: higher is worse).
    pub v: f64,
    /// Below it a VM is released (if one has been idle long enough).
    pub v_low: f64,
    /// Above it a VM is added.
    pub v_high: f64,
    /// Whether a VM has been idle for the keep-idle time (line 9's "pick vm to release").
    pub idle_vm: bool,
    /// VMs added per step when too slow (the paper: 1).
    pub step: usize,
    /// Budget for the next period (all VMs).
    pub bid_max: f64,
    /// Price of the others' bids per resource.
    pub price: Res,
    /// Reserve price per resource.
    pub reserve: Res,
    /// Maximum allocation per VM.
    pub alloc_max: Res,
    /// Pooled capacity per resource.
    pub capacity: Res,
}

/// Algorithm 2's decision: the VM count and the bid per VM.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HorizontalDecision {
    /// VMs to hold next period.
    pub nvms: usize,
    /// Bid per VM per resource.
    pub bid_per_vm: Res,
}

/// Algorithm 2: step the VM count by the performance value, then cap it by Algorithm 3.
pub fn horizontal(i: &HorizontalInput) -> HorizontalDecision {
    let mut nvms = i.nvms;
    if i.v > i.v_high {
        nvms = (nvms + i.step.max(1)).min(i.nvms_max);
    } else if i.v < i.v_low && i.idle_vm && nvms > 0 {
        nvms -= 1;
    }
    let (n, bid) = max_affordable(
        nvms,
        i.bid_max,
        &i.price,
        &i.alloc_max,
        &i.capacity,
        &i.reserve,
    );
    let nvms = nvms.min(n);
    let per = if nvms > 0 {
        Res::new(bid.cpu / nvms as f64, bid.mem / nvms as f64)
    } else {
        Res::default()
    };
    HorizontalDecision {
        nvms,
        bid_per_vm: per,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn algorithm3_n_satisfies_and_n_plus_one_does_not() {
        for seed in 0..300 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let price = Res::new(rng.random_range(0.0..3.0), rng.random_range(0.0..0.01));
            let reserve = if seed % 2 == 0 {
                Res::default()
            } else {
                Res::new(0.5, 0.0005)
            };
            let amax = Res::new(1.0, 900.0);
            let cap = Res::new(160.0, 160.0 * 1024.0);
            let max = rng.random_range(1..200);
            let budget = rng.random_range(0.0..500.0);
            let (n, bid) = max_affordable(max, budget, &price, &amax, &cap, &reserve);
            // Direct evaluation of the printed inequality (plus the reserve floor).
            let lhs = |n: usize| -> f64 {
                (0..2)
                    .map(|r| {
                        let a = amax.get(r) * n as f64;
                        let c = cap.get(r);
                        if a >= c {
                            return f64::INFINITY;
                        }
                        (price.get(r) * a / (1.0 - a / c)).max(reserve.get(r) * a)
                    })
                    .sum()
            };
            if n == 0 {
                assert!(lhs(1) >= budget, "seed {seed}");
                continue;
            }
            assert!(lhs(n) < budget, "seed {seed}");
            assert!(n == max || lhs(n + 1) >= budget, "seed {seed}");
            assert!((bid.total() - lhs(n)).abs() < 1e-9 * lhs(n).max(1.0));
        }
    }

    fn base() -> VerticalInput {
        VerticalInput {
            bid: Res::new(10.0, 1.0),
            bid_min: Res::new(0.1, 0.01),
            bid_max: 100.0,
            alloc: Res::new(2.0, 900.0),
            alloc_min: Res::new(0.1, 100.0),
            alloc_max: Res::new(4.0, 900.0),
            share: Res::new(2.0, 900.0),
            v: 20.0,
            v_ref: 10.0,
            v_low: 7.5,
            v_high: 10.0,
            history: 0.0,
        }
    }

    #[test]
    fn too_slow_raises_cpu_bid_and_damps_after_reversal() {
        let p = VerticalParams::default();
        let b = vertical(&base(), &p);
        assert!(
            (b.cpu - 15.0).abs() < 1e-12,
            "T = 0.5 → factor 1.5: {}",
            b.cpu
        );
        // Memory is at its maximum: not raised.
        assert_eq!(b.mem, 1.0);
        let damped = vertical(
            &VerticalInput {
                history: 5.0,
                ..base()
            },
            &p,
        );
        assert!((damped.cpu - 12.5).abs() < 1e-12);
        let lit = vertical(
            &base(),
            &VerticalParams {
                reading: Reading::Literal,
                ..p
            },
        );
        assert!((lit.cpu - 20.0).abs() < 1e-12);
    }

    #[test]
    fn too_fast_lowers_bids_not_below_minimum() {
        let i = VerticalInput {
            v: 1.0,
            v_ref: 10.0,
            ..base()
        };
        let b = vertical(&i, &VerticalParams::default());
        assert!((b.cpu - 5.0).abs() < 1e-12);
        let tiny = VerticalInput {
            bid: Res::new(0.15, 0.01),
            ..i
        };
        assert!(vertical(&tiny, &VerticalParams::default()).cpu >= 0.1);
    }

    #[test]
    fn corrected_reading_respects_budget_literal_may_not() {
        for seed in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let i = VerticalInput {
                bid: Res::new(rng.random_range(1.0..50.0), rng.random_range(0.1..5.0)),
                bid_max: rng.random_range(1.0..30.0),
                alloc: Res::new(rng.random_range(0.0..4.0), rng.random_range(0.0..900.0)),
                v: rng.random_range(1.0..40.0),
                ..base()
            };
            let b = vertical(&i, &VerticalParams::default());
            assert!(b.total() <= i.bid_max * (1.0 + 1e-12), "seed {seed}");
            assert!(b.cpu >= 0.0 && b.mem >= 0.0);
        }
        let i = VerticalInput {
            bid_max: 5.0,
            alloc: Res::new(2.0, 450.0),
            ..base()
        };
        let lit = vertical(
            &i,
            &VerticalParams {
                reading: Reading::Literal,
                ..Default::default()
            },
        );
        assert!(lit.total() > 5.0, "the printed bid_max / w[r] overspends");
    }

    #[test]
    fn horizontal_adds_then_caps_by_budget() {
        let mut i = HorizontalInput {
            nvms: 10,
            nvms_max: 160,
            v: 5.0,
            v_low: 0.5,
            v_high: 0.5,
            idle_vm: false,
            step: 1,
            bid_max: 1e9,
            price: Res::new(1.0, 0.0),
            reserve: Res::default(),
            alloc_max: Res::new(1.0, 0.0),
            capacity: Res::new(160.0, 1.0),
        };
        assert_eq!(horizontal(&i).nvms, 11);
        i.bid_max = 5.0; // 1·n/(1 − n/160) < 5 → n ≤ 4
        assert_eq!(horizontal(&i).nvms, 4);
        i.v = 0.0;
        i.idle_vm = true;
        i.bid_max = 1e9;
        assert_eq!(horizontal(&i).nvms, 9);
    }
}
