//! When a column-generation loop may stop: its integer bound settled (`⌈bound⌉ = ⌈master⌉`)
//! or closed, its LP value pinned, and the pricing value (`aim`) whose proof settles it.

use super::engine::CgSettings;
use super::smoothing::dot;
use crate::outcome::ceil_with_tolerance;

/// `⌈bound⌉ = ⌈master⌉`: no column can lower the integer bound any more.
pub(crate) fn settled(bound: f64, master: f64) -> bool {
    bound > 0.0 && ceil_with_tolerance(bound) >= ceil_with_tolerance(master)
}

/// The integer bound is settled and the master is close enough to it.
pub(super) fn closed(settings: &CgSettings, bound: f64, master: f64) -> bool {
    settings.stop_when_bound_closes
        && settled(bound, master)
        && master - bound <= settings.closure_gap * master
}

/// The LP value is known to the precision of a convergence proof: the master (an upper bound
/// on the LP optimum) lies within `reduced_cost_tol` (and the pricing's 1e-8) of `proved`, a
/// Farley bound of this loop (not a caller's bound, which may lie above the LP). A proof of
/// `v ≤ 1 + tol + 1e-8` at the master's duals, the other way to converge, leaves the same gap.
pub(super) fn pinned(settings: &CgSettings, proved: f64, master: f64) -> bool {
    let slack = settings.reduced_cost_tol.max(0.0) + 1e-8;
    proved > 0.0 && master - proved <= master * slack / (1.0 + slack)
}

/// The largest pricing value whose proof closes the bound at the master value `master`
/// (see [`Pricing::aim`]): the Lagrangian bound `π·N / v` must exceed `⌈master⌉ − 1` and lie
/// within `closure_gap` of the master. 1 when the loop does not stop on closure.
pub(super) fn enough(settings: &CgSettings, pi: &[f64], demands: &[f64], master: f64) -> f64 {
    if !settings.stop_when_bound_closes {
        return 1.0;
    }
    let needed = above_next_below(master).max(master * (1.0 - settings.closure_gap));
    settling_aim(dot(pi, demands), needed)
}

/// Just above the integer below `⌈master⌉`: a bound past it rounds up to `⌈master⌉` (by more
/// than `ceil_with_tolerance`'s own tolerance, 1e-9 relative).
pub fn above_next_below(master: f64) -> f64 {
    let next_below = ceil_with_tolerance(master) as f64 - 1.0;
    next_below * (1.0 + 1e-8) + 1e-6
}

/// The pricing value whose proof settles a bound of `needed` from a dual point worth `value`
/// (`π·N`): when no column is worth more, the Farley bound `value / v` exceeds `needed` (with
/// a margin above the branch-and-bound's own, 1e-9 relative, and round-off). 1 (the proof of
/// convergence) when `value` is not above `needed`.
pub fn settling_aim(value: f64, needed: f64) -> f64 {
    if needed > 0.0 && value > needed {
        (value / needed) * (1.0 - 1e-8)
    } else {
        1.0
    }
}
