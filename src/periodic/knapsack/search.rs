//! Minimising the directional bound over directions (`knapsack_relax.rs` evaluates one).
//!
//! Every direction `e` of the unit disc gives a valid bound; these searches only make it tight.
//! `disc_search`: a compass pattern search ordered by the subgradient `−λ v`, for nodes whose
//! minimiser may be anywhere in the disc. `rim_search`: a one-dimensional search in the angle,
//! for nodes whose relaxation does not cancel the phases (the cancelling LP of
//! `knapsack_lp.rs` says so), whose minimiser is on the rim. Where the LP does cancel the
//! phases, its direction is the minimiser and no search is needed.

use super::relax::{into_disc, Bound, NodeView, Probe, Relaxed};
use super::Knapsack;

/// Pattern-search moves per node. Measured on a 100-job large-task instance (docs/results.md):
/// 2 moves left bounds so loose that nodes grew tenfold; 40 made each node 3x dearer for
/// 5% fewer nodes; 6 was the fastest. With reduced-cost fixing (2026-11-23) a tight bound is
/// worth more than a cheap node: 3 / 6 / 12 / 24 moves took 5.6 / 4.2 / 3.7 / 5.3 s of first
/// phase on Large/Large seed 1 (349k / 164k / 113k / 132k nodes).
pub const SEARCH_STEPS: usize = 12;

/// The directional dual minimised over the unit disc by a pattern search started at `e0`
/// (or at the best of a coarse grid). Any point of the disc gives a valid bound; the search
/// only makes it tight. (The minimiser lies inside the disc when the relaxation cancels the
/// phases completely, on its boundary otherwise.)
///
/// The search stops as soon as the bound falls to `cutoff` or below (the node is pruned then;
/// pass `f64::NEG_INFINITY` for the tightest bound).
pub fn directional_search(
    k: &Knapsack,
    lower: &[u32],
    upper: &[u32],
    e0: Option<[f64; 2]>,
    cutoff: f64,
    bound: Bound,
) -> Relaxed {
    disc_search(&NodeView::new(k, lower, upper), e0, None, cutoff, bound)
}

/// [`directional_search`] over a node already seen; `at_start` is the fractional evaluation at
/// `e0` when the caller has it (from [`NodeView::screen`]), so it is not evaluated twice.
pub fn disc_search(
    view: &NodeView,
    e0: Option<[f64; 2]>,
    at_start: Option<Probe>,
    cutoff: f64,
    bound: Bound,
) -> Relaxed {
    if view.flat() {
        // Every direction gives the same row; the origin is the direction the children are
        // screened with and reduced-cost fixing works along.
        return view.relaxed_at([0.0, 0.0], bound, f64::INFINITY);
    }
    // The search minimises the fractional bound, which is quasi-convex in `e`: minimising the
    // integer bound instead (piecewise, not convex) led the pattern search astray — 20% more
    // nodes on a large-task pricing (docs/results.md).
    let eval = |e: [f64; 2]| view.probe(e);
    let mut starts: Vec<[f64; 2]> = Vec::new();
    match e0 {
        Some(e) => starts.push(into_disc(e)),
        None => {
            starts.push([0.0, 0.0]);
            for s in 0..12 {
                let t = std::f64::consts::TAU * f64::from(s) / 12.0;
                starts.push([t.cos(), t.sin()]);
                starts.push([0.5 * t.cos(), 0.5 * t.sin()]);
            }
        }
    }
    let mut best: Option<([f64; 2], Probe)> = None;
    for e in starts {
        let known = at_start.filter(|_| e0.is_some());
        let Some(p) = known.or_else(|| eval(e)) else {
            return Relaxed::Infeasible;
        };
        if best.is_none_or(|(_, b)| p.0 < b.0) {
            best = Some((e, p));
        }
    }
    let (mut e, mut at) = best.expect("at least one start");
    // The search only tightens a bound that is valid anyway: a few dozen evaluations suffice.
    let mut step = if e0.is_some() { 0.02 } else { 0.1 };
    let mut moves = 0;
    while at.0 > cutoff && step > 1e-3 && moves < SEARCH_STEPS {
        moves += 1;
        // Compass moves, steepest first by the slope of the subgradient `-λ v`; a move the
        // slope calls ascending cannot improve a quasi-convex function, so it is not tried
        // (this halved the evaluations per node at the same node counts).
        let (_, lambda, v) = at;
        let slope = |d: &[f64; 2]| -lambda * (v[0] * d[0] + v[1] * d[1]);
        let mut dirs = [[step, 0.0], [-step, 0.0], [0.0, step], [0.0, -step]];
        dirs.sort_by(|a, b| slope(a).total_cmp(&slope(b)));
        let mut moved = false;
        for d in dirs.iter().filter(|d| slope(d) < 0.0) {
            let cand = into_disc([e[0] + d[0], e[1] + d[1]]);
            let Some(p) = eval(cand) else {
                return Relaxed::Infeasible;
            };
            if p.0 < at.0 - 1e-15 {
                e = cand;
                at = p;
                moved = true;
                break;
            }
        }
        if moved {
            step *= 1.5;
        } else {
            step *= 0.5;
        }
    }
    // The point of the best direction, evaluated once at the end, with `bound` there.
    view.relaxed_at(e, bound, at.0)
}

/// Evaluations of one [`rim_search`].
pub const RIM_EVALUATIONS: usize = 10;

/// The directional bound minimised along the rim of the disc, `e = (cos θ, sin θ)`, from the
/// angle of `e0` (with its evaluation `at_start` when known): for nodes whose relaxation does
/// not cancel the phases ([`super::lp`] says so), the minimiser is on the rim, and a
/// one-dimensional search uses the evaluations better than compass moves in the plane. The
/// derivative in `θ` is `−λ v·(−sin θ, cos θ)` (the subgradient `−λ v` along the tangent): steps
/// grow downhill until it changes sign, then the bracket shrinks by safeguarded secant steps.
/// Stops at `cutoff` like [`disc_search`].
pub fn rim_search(
    view: &NodeView,
    e0: [f64; 2],
    at_start: Option<Probe>,
    cutoff: f64,
    bound: Bound,
) -> Relaxed {
    // The bound at angle `t` and its slope there, from an evaluation.
    let slope =
        |(v, lambda, ph): Probe, t: f64| (v, -lambda * (-ph[0] * t.sin() + ph[1] * t.cos()));
    let eval = |t: f64| Some(slope(view.probe([t.cos(), t.sin()])?, t));
    let t0 = e0[1].atan2(e0[0]);
    let Some(first) = at_start.map(|p| slope(p, t0)).or_else(|| eval(t0)) else {
        return Relaxed::Infeasible;
    };
    let mut best = (t0, first.0);
    let mut evals = 1;
    // Downhill until the slope changes sign: the bracket `[a, b]` with slopes of opposite sign.
    let (mut a, mut fa) = (t0, first);
    let mut step = 0.02 * -first.1.signum();
    let mut bracket = None;
    while evals < RIM_EVALUATIONS && best.1 > cutoff && first.1 != 0.0 {
        let t = a + step;
        let Some(p) = eval(t) else {
            return Relaxed::Infeasible;
        };
        evals += 1;
        if p.0 < best.1 {
            best = (t, p.0);
        }
        if p.1.signum() != fa.1.signum() || p.0 > fa.0 {
            bracket = Some(((a, fa), (t, p)));
            break;
        }
        (a, fa) = (t, p);
        step *= 2.0;
    }
    // Shrink the bracket: secant on the slope, kept inside its middle.
    while let Some(((a, fa), (b, fb))) = bracket {
        if evals >= RIM_EVALUATIONS || best.1 <= cutoff || (b - a).abs() < 1e-3 {
            break;
        }
        let w = if fa.1 != fb.1 {
            (fa.1 / (fa.1 - fb.1)).clamp(0.1, 0.9)
        } else {
            0.5
        };
        let t = a + w * (b - a);
        let Some(p) = eval(t) else {
            return Relaxed::Infeasible;
        };
        evals += 1;
        if p.0 < best.1 {
            best = (t, p.0);
        }
        bracket = Some(if p.1.signum() == fa.1.signum() && p.0 <= fa.0 {
            ((t, p), (b, fb))
        } else {
            ((a, fa), (t, p))
        });
    }
    view.relaxed_at([best.0.cos(), best.0.sin()], bound, best.1)
}
