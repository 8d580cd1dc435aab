//! Bounds that are safe to the last digit: weak-duality bounds evaluated with outward
//! rounding, never a solver's floating objective.
//!
//! With unit column costs, any `π ≥ 0` scaled by `1 / max(1, v)`, where `v ≥ max_a π·a` is a
//! pricing proof, is feasible for the dual of the covering master, so `π·N / max(1, v)` is
//! a lower bound on the LP optimum (Farley's bound; the Lagrangian bound of the master).
//! Floating-point evaluation can land above the exact value; here:
//! - every product and partial sum of the numerator is rounded *down* (the round-to-nearest
//!   result, or the float below it when that result is above the exact value — its error is
//!   exact by a fused multiply-add or Knuth's two-sum), so the numerator is at most the exact
//!   `π·N`;
//! - the pricing's `v` is widened by [`PRICING_MARGIN`] (relative) and rounded *up*: the
//!   pricings evaluate `π·a` as floating sums of at most `K` non-negative terms (relative
//!   error at most `K·2⁻⁵³`, below 1e-11 for `K ≤ 10⁵`) and prune with an absolute slack of at
//!   most 1e-12 or a relative one of at most 1e-9 (the periodic knapsack), so the exact
//!   `max_a π·a` is below `v·(1 + 2·10⁻⁹)`; models/packing.md §"Safe bounds";
//! - the quotient is rounded down.
//!
//! So the bound returned is at most the exact bound of the exact data, whatever the master
//! solver's tolerances were: HiGHS only *chooses* `π`.

/// Relative widening of a pricing's proven maximum `v` before it divides (see the module
/// documentation for the argument).
pub const PRICING_MARGIN: f64 = 2e-9;

/// Below this magnitude a product's rounding error may not be a float (`2⁻⁹⁶⁸`).
pub const TINY: f64 = 4.008336720017946e-292;

/// `x·y` rounded down: at most the exact product. The rounding error of the product is
/// exact by a fused multiply-add; the float below is taken only when the product came out
/// above the exact value.
pub fn mul_down(x: f64, y: f64) -> f64 {
    let p = x * y;
    if !p.is_finite() {
        return p;
    }
    // Near the subnormals the error may not be representable: always step down there.
    if p.abs() < TINY || x.mul_add(y, -p) < 0.0 {
        p.next_down()
    } else {
        p
    }
}

/// `a + b` and the sign of its rounding error (`exact − float`), by Knuth's two-sum (exact
/// for finite sums that do not overflow).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, err)
}

/// `a + b` rounded down: at most the exact sum.
fn add_down(a: f64, b: f64) -> f64 {
    let (s, err) = two_sum(a, b);
    if !s.is_finite() || err.is_nan() {
        return s.next_down();
    }
    if err < 0.0 {
        s.next_down()
    } else {
        s
    }
}

/// `a + b` rounded up: at least the exact sum.
fn add_up(a: f64, b: f64) -> f64 {
    let (s, err) = two_sum(a, b);
    if !s.is_finite() || err.is_nan() {
        return s.next_up();
    }
    if err > 0.0 {
        s.next_up()
    } else {
        s
    }
}

/// `Σ terms` with each partial sum rounded down: at most the exact sum.
pub fn sum_down(terms: impl IntoIterator<Item = f64>) -> f64 {
    terms.into_iter().fold(0.0, add_down)
}

/// `Σ terms` with each partial sum rounded up: at least the exact sum.
pub fn sum_up(terms: impl IntoIterator<Item = f64>) -> f64 {
    terms.into_iter().fold(0.0, add_up)
}

/// `Σ max(π_r, 0)·N_r`, rounded down (`N ≥ 0`).
pub fn covered_down(pi: &[f64], demands: &[f64]) -> f64 {
    sum_down(
        pi.iter()
            .zip(demands)
            .map(|(&p, &n)| mul_down(p.max(0.0), n)),
    )
}

/// `Σ max(π_r, 0)·N_r`, rounded up (`N ≥ 0`).
pub fn covered_up(pi: &[f64], demands: &[f64]) -> f64 {
    sum_up(
        pi.iter()
            .zip(demands)
            .map(|(&p, &n)| -mul_down(-p.max(0.0), n)),
    )
}

/// The pricing proof `v` made safe: `max(1, v)·(1 + PRICING_MARGIN)`, rounded up.
pub fn widened(v: f64) -> f64 {
    (v.max(1.0) * (1.0 + PRICING_MARGIN)).next_up()
}

/// The Farley bound `dual_value / max(1, v)` where `dual_value` is already rounded down (e.g.
/// [`covered_down`], or a sum with cut duals by [`sum_down`]); never negative, and 0 (no
/// proof) when `v` is not finite.
pub fn farley_from(dual_value: f64, v: f64) -> f64 {
    if dual_value.is_nan() || dual_value <= 0.0 || !v.is_finite() {
        return 0.0;
    }
    (dual_value / widened(v)).next_down().max(0.0)
}

/// `numerator / v` rounded down, `numerator` already rounded down and `v > 0` a pricing
/// proof widened by [`PRICING_MARGIN`] (no `max(1, ·)`: for bounds whose scale is not the
/// covering master's); 0 when `v` is not a positive finite number.
pub fn ratio_down(numerator: f64, v: f64) -> f64 {
    if numerator.is_nan() || numerator <= 0.0 || v.is_nan() || v <= 0.0 || !v.is_finite() {
        return 0.0;
    }
    (numerator / (v * (1.0 + PRICING_MARGIN)).next_up()).next_down()
}

/// The Farley bound `π·N / max(1, v)` of duals `π` (negative entries count as 0) for the
/// covering master with demands `N`, `v` a pricing proof of `max_a π·a`: a lower bound on the
/// LP optimum, rounded outward.
pub fn farley(pi: &[f64], demands: &[f64], v: f64) -> f64 {
    farley_from(covered_down(pi, demands), v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Exact rational check: the bound times the widened `v` is at most the exact `π·N`,
    /// computed in 128-bit integers on dyadic data.
    #[test]
    fn farley_never_exceeds_the_exact_value() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..2_000 {
            let n = rng.random_range(1..60);
            // Duals with 20 fractional bits, demands small integers: π·N is exact in i128.
            let pi: Vec<f64> = (0..n)
                .map(|_| rng.random_range(0..(1u64 << 21)) as f64 / (1u64 << 20) as f64)
                .collect();
            let demands: Vec<f64> = (0..n).map(|_| rng.random_range(0..5) as f64).collect();
            let exact: i128 = pi
                .iter()
                .zip(&demands)
                .map(|(p, d)| (p * (1u64 << 20) as f64) as i128 * *d as i128)
                .sum();
            let exact = exact as f64 / (1u64 << 20) as f64; // exact: below 2^53
            let down = covered_down(&pi, &demands);
            let up = covered_up(&pi, &demands);
            assert!(down <= exact && exact <= up, "{down} {exact} {up}");
            let v = 1.0 + rng.random_range(0.0..0.5);
            let b = farley(&pi, &demands, v);
            assert!(b * v <= exact, "bound {b}·{v} above {exact}");
            assert!(b >= exact / v * (1.0 - 1e-8), "bound {b} too loose");
        }
    }

    /// A master value HiGHS may report within its tolerances just above an integer, while the
    /// duals prove only the integer: the old rule (`⌈master value⌉`) claims one bin too many,
    /// the bound from the duals does not.
    #[test]
    fn near_integer_value_does_not_round_up() {
        use crate::outcome::ceil_with_tolerance;
        // 30 items of size 1/3 of a bin (demand 1 each): z_LP = 10 exactly, and the duals
        // π = 1/3 prove it (no bin holds more than 3 items, v = 1).
        let demands = vec![1.0; 30];
        let pi = vec![1.0 / 3.0; 30];
        // A master objective off by HiGHS's primal feasibility tolerance (1e-7 relative).
        let reported = 10.0 * (1.0 + 1e-7);
        assert_eq!(ceil_with_tolerance(reported), 11, "the old rule rounds up");
        let b = farley(&pi, &demands, 1.0);
        assert!(b <= 10.0 && b > 10.0 - 1e-6);
        assert_eq!(ceil_with_tolerance(b), 10);
    }

    #[test]
    fn degenerate_inputs_prove_nothing() {
        assert_eq!(farley(&[], &[], 1.0), 0.0);
        assert_eq!(farley(&[-1.0, 0.0], &[1.0, 1.0], 1.0), 0.0);
        assert_eq!(farley(&[1.0], &[1.0], f64::NAN), 0.0);
        assert_eq!(farley(&[1.0], &[1.0], f64::INFINITY), 0.0);
        assert!(farley(&[1.0], &[1.0], 0.5) < 1.0);
    }
}
