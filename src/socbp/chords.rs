//! The pieces of `Σb` the SOC grid bound works on (`grid.rs`): where they are cut, each
//! piece's chord of `√S` (its slope, the row's right-hand side) and how far the chord falls
//! below `D√S` (`models/packing.md` §8).

/// The chord's slope over the piece `[lo, hi]` (0 for the single row without a root term).
pub(super) fn slope((lo, hi): (f64, f64)) -> f64 {
    if hi.is_finite() && hi > lo {
        (hi.sqrt() - lo.sqrt()) / (hi - lo)
    } else {
        0.0
    }
}

/// The right-hand side of the piece `[S_k, S_{k+1}]`'s row: `c − D(√S_k − σ S_k)`.
pub(super) fn row_room(cap: f64, d: f64, ends: (f64, f64)) -> f64 {
    let lo = ends.0;
    cap - d * (lo.sqrt() - slope(ends) * lo)
}

/// What a node with sums `(a, b)` leaves of the row of the piece starting at `lo` with chord
/// `slope`: `cap − a − D(√lo + slope·(b − lo))`, plus the exact search's slack of `1e-9·c`
/// (`capacity`) for the round-off (shared by its Dantzig and table bounds).
pub(super) fn node_room(
    cap: f64,
    d: f64,
    capacity: f64,
    (lo, slope): (f64, f64),
    (a, b): (f64, f64),
) -> f64 {
    cap - a - d * (lo.sqrt() + slope * (b - lo)) + 1e-9 * capacity
}

/// The largest gap between `D√S` and its chord over the piece, in load: `D√lo·g(hi/lo)`
/// (`g` as in [`pieces`]), and `D√hi/4` from 0.
pub(super) fn chord_gap(d: f64, (lo, hi): (f64, f64)) -> f64 {
    if !hi.is_finite() || hi <= lo {
        return 0.0;
    }
    if lo <= 0.0 {
        return d * hi.sqrt() / 4.0;
    }
    let r = (hi / lo).sqrt();
    d * lo.sqrt() * ((r + 1.0) / 4.0 - 1.0 + 1.0 / (r + 1.0))
}

/// The pieces also cut at the points of `cuts` strictly inside one (the single row without a
/// root term is never cut).
pub(super) fn cut(pieces: Vec<(f64, f64)>, cuts: &[f64]) -> Vec<(f64, f64)> {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
        return pieces;
    };
    if !last.1.is_finite() || cuts.is_empty() {
        return pieces;
    }
    let (lo, hi) = (first.0, last.1);
    let mut ends: Vec<f64> = pieces.iter().map(|p| p.0).collect();
    ends.push(hi);
    ends.extend(cuts.iter().copied().filter(|&x| x > lo && x < hi));
    ends.sort_by(f64::total_cmp);
    ends.dedup();
    ends.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The pieces `[S_k, S_{k+1}]`: `[0, b_min]` (only sets of `Σb ≤
/// b_min` in it: the empty set, single items and `b = 0` items), then pieces up to `(c/D)²`,
/// the most `Σb` a bin holds, each as long as its chord stays within `tol·c` of `D√S`: the
/// chord's largest gap on `[S, qS]` is `√S·g(q)`, `g(q) = (√q+1)/4 − 1 + 1/(√q+1)`, so long
/// pieces where `S` is small and ratios near `1 + 4√(2·tol)` at the top (about 22 pieces
/// for `tol = 0.001`). Without a root term, one row.
pub(super) fn pieces(
    cap: f64,
    d: f64,
    terms: &[(f64, f64, f64)],
    items: &[usize],
    tol: f64,
) -> Vec<(f64, f64)> {
    let b_min = items
        .iter()
        .map(|&i| terms[i].1)
        .filter(|&b| b > 0.0)
        .fold(f64::INFINITY, f64::min);
    if d <= 0.0 || !b_min.is_finite() {
        return vec![(0.0, f64::INFINITY)];
    }
    let b_cap = (cap / d).powi(2);
    let gap = |q: f64| {
        let r = q.sqrt();
        (r + 1.0) / 4.0 - 1.0 + 1.0 / (r + 1.0)
    };
    let allowed = tol.max(1e-9) * cap;
    let mut ends = vec![0.0, b_min.min(b_cap)];
    while ends[ends.len() - 1] < b_cap {
        let s = ends[ends.len() - 1];
        // The largest ratio (up to 2¹⁰) whose gap is allowed, by bisection on `ln q`.
        let (mut lo, mut hi) = (0.0f64, 10.0f64 * std::f64::consts::LN_2);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if d * s.sqrt() * gap(mid.exp()) <= allowed {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let q = lo.exp().max(1.0 + 1e-9);
        ends.push((s * q).min(b_cap));
    }
    ends.windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| (w[0], w[1]))
        .collect()
}
