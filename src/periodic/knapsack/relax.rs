//! Node relaxations of the periodic knapsack, by direction.
//!
//! The node SOCP (`knapsack_socp.rs`, Clarabel) is `max π·U` over the box `l ≤ U ≤ u` and the
//! cone `(C − Σ C_j U_j, Σ x_j U_j, Σ y_j U_j) ∈ SOC₃`. **Its dual, by direction**
//! (`directional`): for a unit vector `e`, `e·v ≤ ‖v‖` turns the cone into the linear row
//! `Σ U_j (C_j + e·r_j) ≤ C`, whose bounded fractional knapsack is solved exactly by sorting.
//! Every `e` gives a valid bound, and at the SOCP optimum `U*` the KKT multipliers give a
//! direction `e*` (unit when `v(U*) ≠ 0`, inside the disc otherwise) at which it equals the SOCP
//! value; so minimising over `e` in the unit disc (`knapsack_search.rs`, or the cancelling LP of
//! `knapsack_lp.rs`) recovers the SOCP bound at a fraction of an interior-point solve. This
//! file evaluates one direction (the fractional bound, Martello–Toth's `U2`) and holds
//! reduced-cost fixing along a direction.

use super::{Knapsack, FIT_TOLERANCE};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Which bound of the knapsack along one direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// Dantzig's fractional bound; minimised over the disc it is the SOCP relaxation's value.
    Fractional,
    /// Martello and Toth's `U2`, which also knows the critical item is integer: never above
    /// the fractional bound, and its minimum over the disc can lie below the SOCP value.
    #[default]
    Integer,
}

impl std::str::FromStr for Bound {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "fractional" => Ok(Bound::Fractional),
            "integer" => Ok(Bound::Integer),
            _ => Err(format!(
                "unknown node bound `{s}`; expected fractional or integer"
            )),
        }
    }
}

/// A node's relaxation.
#[derive(Debug, Clone, PartialEq)]
pub enum Relaxed {
    /// The node has no feasible point (proven by a certificate or by a valid linear row).
    Infeasible,
    /// A valid upper bound, the relaxation's point and the direction it was priced at.
    Bounded {
        /// Upper bound on the node's optimum.
        bound: f64,
        /// The relaxation's maximiser (possibly slightly outside the cone).
        x: Vec<f64>,
        /// The linearisation direction `e` (in the unit disc), for the children.
        dir: Option<[f64; 2]>,
    },
    /// The solver gave no trustworthy answer (no bound from this node).
    Unreliable,
}

/// The bounded knapsack along `e` (`‖e‖ ≤ 1`): its `bound` and its fractional maximiser, or
/// `None` when the lower bounds alone overflow the row (the node is infeasible).
pub fn directional(
    k: &Knapsack,
    lower: &[u32],
    upper: &[u32],
    e: [f64; 2],
    bound: Bound,
) -> Option<(f64, Vec<f64>)> {
    NodeView::new(k, lower, upper).directional(e, bound)
}

/// A node's box `lower ≤ U ≤ upper` seen once: the load and value of its lower bounds, and its
/// free items. Every evaluation of a direction then costs `O(free)` instead of `O(items)` —
/// after reduced-cost fixing, most items of a deep node are fixed.
pub struct NodeView<'a> {
    k: &'a Knapsack,
    lower: &'a [u32],
    upper: &'a [u32],
    /// `Σ π_j l_j`.
    value: f64,
    /// `(Σ C_j l_j, Σ x_j l_j, Σ y_j l_j)`.
    load: [f64; 3],
    /// Items with `l_j < u_j`.
    free: Vec<usize>,
    /// No item has an amplitude: every direction gives the same row.
    flat: bool,
    /// The free items' `(ratio, item, weight)` as the last evaluation left them: best ratios
    /// first. The next direction is usually close, so its evaluation starts from this order and
    /// bringing the best items to the front moves few of them (insertions were half the cost of
    /// an evaluation when every one started from item order).
    order: RefCell<Vec<(f64, usize, f64)>>,
}

impl<'a> NodeView<'a> {
    /// The view of the box `lower ≤ U ≤ upper` of `k`.
    pub fn new(k: &'a Knapsack, lower: &'a [u32], upper: &'a [u32]) -> Self {
        let (mut value, mut load) = (0.0, [0.0; 3]);
        let mut free = Vec::with_capacity(k.items.len());
        let mut flat = true;
        for (i, ((it, &l), &u)) in k.items.iter().zip(lower).zip(upper).enumerate() {
            flat &= it.x == 0.0 && it.y == 0.0;
            let l = f64::from(l);
            value += it.profit * l;
            load[0] += it.mean * l;
            load[1] += it.x * l;
            load[2] += it.y * l;
            if u as f64 > l {
                free.push(i);
            }
        }
        NodeView {
            k,
            lower,
            upper,
            value,
            load,
            free,
            flat,
            order: RefCell::new(Vec::new()),
        }
    }

    /// The knapsack.
    pub fn knapsack(&self) -> &Knapsack {
        self.k
    }

    /// The box's lower bounds.
    pub fn lower(&self) -> &[u32] {
        self.lower
    }

    /// The box's upper bounds.
    pub fn upper(&self) -> &[u32] {
        self.upper
    }

    /// `Σ π_j l_j`.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// `(Σ C_j l_j, Σ x_j l_j, Σ y_j l_j)`.
    pub fn load(&self) -> [f64; 3] {
        self.load
    }

    /// The items with `l_j < u_j`.
    pub fn free(&self) -> &[usize] {
        &self.free
    }

    /// `true` when no item has an amplitude (e.g. classic bin packing): every direction gives
    /// the same row.
    pub fn flat(&self) -> bool {
        self.flat
    }

    /// [`directional`] over this node.
    pub fn directional(&self, e: [f64; 2], bound: Bound) -> Option<(f64, Vec<f64>)> {
        let mut x: Vec<f64> = self.lower.iter().map(|&l| f64::from(l)).collect();
        let (value, _) = fractional(self, e, bound, Some(&mut x))?;
        Some((value, x))
    }

    /// The node's relaxation at the direction `e` (in the disc) a search settled on: the bound
    /// there — no more than `known`, a bound already found (`f64::INFINITY` for none) — and its
    /// maximiser.
    pub fn relaxed_at(&self, e: [f64; 2], bound: Bound, known: f64) -> Relaxed {
        match self.directional(e, bound) {
            Some((at, x)) => Relaxed::Bounded {
                bound: known.min(at),
                x,
                dir: Some(e),
            },
            None => Relaxed::Infeasible,
        }
    }

    /// The fractional evaluation along `e` (what the direction searches need), `None` when the
    /// node is infeasible.
    pub fn probe(&self, e: [f64; 2]) -> Option<Probe> {
        dantzig(self, e, &mut self.order.borrow_mut(), None).map(|d| d.probe())
    }

    /// The bound along `e` alone, without the maximiser (a node screened with its parent's
    /// direction), and the fractional evaluation there, from which
    /// [`super::search::disc_search`] can start.
    /// `None` when the node is infeasible.
    pub fn screen(&self, e: [f64; 2], bound: Bound) -> Option<(f64, Probe)> {
        let (value, d) = fractional(self, e, bound, None)?;
        Some((value, d.probe()))
    }
}

/// The knapsack along `e`: its `bound`, and Dantzig's solution it came from; when `x` is given
/// (holding `lower`), the amounts the fractional solution takes are added to it.
fn fractional(
    view: &NodeView,
    e: [f64; 2],
    bound: Bound,
    x: Option<&mut Vec<f64>>,
) -> Option<(f64, Dantzig)> {
    let k = view.k;
    let free = &mut *view.order.borrow_mut();
    let d = dantzig(view, e, free, x)?;
    match (bound, d.critical) {
        (Bound::Integer, Some((s, take))) => {
            // The next item's ratio: the best of the rest, sorted or not.
            let next = if s + 1 < d.sorted {
                free.get(s + 1).map(|f| f.0)
            } else {
                free[s + 1..].iter().map(|f| f.0).max_by(f64::total_cmp)
            };
            let change = martello_toth(free, s, take, k.items[free[s].1].profit, next);
            Some((d.value + change.min(0.0), d))
        }
        _ => Some((d.value, d)),
    }
}

/// Dantzig's solution of the linear knapsack along one direction.
struct Dantzig {
    /// Its value (the fractional bound).
    value: f64,
    /// The critical item (its position in the buffer) and how much of it was taken; `None`
    /// when every free item fits whole.
    critical: Option<(usize, f64)>,
    /// The buffer is sorted up to here (the critical item lies before).
    sorted: usize,
    /// The row's multiplier: the critical item's profit per unit of weight (0 when every
    /// free item fits whole).
    lambda: f64,
    /// The phasor `Σ x_j r_j` of the fractional solution `x` (lower bounds included).
    phasor: [f64; 2],
}

impl Dantzig {
    /// What the disc search needs of it.
    fn probe(&self) -> Probe {
        (self.value, self.lambda, self.phasor)
    }
}

/// The order of a buffer `(ratio, item, ..)`: best ratio first, ties by item. A total order
/// (`total_cmp`), unlike cross-multiplied ratios, so an unstable sort gives the one order.
pub(super) fn ratio_order<T>(a: &(f64, usize, T), b: &(f64, usize, T)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

/// Dantzig's solution along `e` over the node `view`: fills `free` with the free items'
/// `(profit per unit of weight, item, weight)`, in [`ratio_order`] up to the critical item,
/// and adds the amounts taken to `x` when given (holding `lower`). `None` when the lower
/// bounds alone overflow the row. `free` is empty or holds the view's free items from an
/// earlier evaluation, whose order it starts from (the result does not depend on it).
fn dantzig(
    view: &NodeView,
    e: [f64; 2],
    free: &mut Vec<(f64, usize, f64)>,
    mut x: Option<&mut Vec<f64>>,
) -> Option<Dantzig> {
    let (k, lower, upper) = (view.k, view.lower, view.upper);
    // A direction from a failed solve could be NaN: the origin is always a valid direction.
    let e = if e[0].is_finite() && e[1].is_finite() {
        into_disc(e)
    } else {
        [0.0, 0.0]
    };
    // Every weight `C_j + e·r_j` is non-negative (`ρ_j ≤ C_j`, `‖e‖ ≤ 1`), so the lower
    // bounds' weight is their load along `e`.
    let fixed = (view.load[0] + e[0] * view.load[1] + e[1] * view.load[2]).max(0.0);
    let mut room = k.capacity - fixed;
    let mut value = view.value;
    let mut phasor = [view.load[1], view.load[2]];
    // A fresh view starts from item order; later evaluations from the last one's.
    if free.is_empty() {
        free.extend(view.free.iter().map(|&i| (0.0, i, 0.0)));
    }
    debug_assert_eq!(free.len(), view.free.len());
    for f in free.iter_mut() {
        let it = &k.items[f.1];
        let w = (it.mean + e[0] * it.x + e[1] * it.y).max(0.0);
        // Zero weight ranks first (free profit).
        *f = (
            if w > 0.0 {
                it.profit / w
            } else {
                f64::INFINITY
            },
            f.1,
            w,
        );
    }
    if room < -FIT_TOLERANCE {
        return None;
    }
    // Usually a handful of items fill the room: bring the best `HEAD` to the front in order
    // (one pass of insertions, cheaper than a selection on ~100 items), then the next chunk
    // only when the room outlasts them — the same order as a full sort.
    let mut sorted = 0;
    let mut at = 0;
    let mut critical = None;
    while at < free.len() {
        if at == sorted {
            let rest = &mut free[sorted..];
            let chunk = HEAD << (sorted / HEAD).min(8);
            sorted += best_to_front(rest, chunk);
        }
        let (_, i, w) = free[at];
        at += 1;
        let n = f64::from(upper[i] - lower[i]);
        let take = if w <= 0.0 {
            n
        } else {
            (room.max(0.0) / w).min(n)
        };
        let it = &k.items[i];
        value += it.profit * take;
        room -= w * take;
        phasor[0] += take * it.x;
        phasor[1] += take * it.y;
        if let Some(x) = x.as_deref_mut() {
            x[i] += take;
        }
        if take < n {
            critical = Some((at - 1, take));
            break;
        }
    }
    let lambda = critical.map_or(0.0, |(s, _)| free[s].0);
    Some(Dantzig {
        value,
        critical,
        sorted,
        lambda,
        phasor,
    })
}

/// The Martello–Toth bound `U2` of the knapsack along one direction, from its fractional
/// solution: either the critical item `s` (profit `p`, weight `w`, `take` copies in the
/// fractional solution) is taken at most `t = ⌊take⌋` times, and the room left is worth at most
/// the next item's ratio, or at least `t + 1` times, and the overflow must be freed from the
/// items before it, each worth at least the ratio of the last of them. Both cases bound the
/// integer knapsack along the direction, hence the periodic knapsack; the larger is returned,
/// as a change to the fractional value (never positive in exact arithmetic).
fn martello_toth(
    free: &[(f64, usize, f64)],
    s: usize,
    take: f64,
    p: f64,
    next_ratio: Option<f64>,
) -> f64 {
    let w = free[s].2;
    let t = f64::from(take as u32); // `⌊take⌋` (take ≥ 0) without a libm call
    let base = -p * take;
    // Room left after `t` copies.
    let left = (take - t) * w;
    let at_most = base + p * t + left * next_ratio.unwrap_or(0.0).max(0.0);
    // Items of zero weight free no room; no positive-weight item before `s`: the case is
    // infeasible.
    let at_least = free[..s]
        .iter()
        .rev()
        .find(|f| f.2 > 0.0)
        .map_or(f64::NEG_INFINITY, |f| {
            base + p * (t + 1.0) - (w - left) * f.0
        });
    at_most.max(at_least)
}

/// Items sorted up front by the fractional knapsack (see there).
const HEAD: usize = 8;

/// Moves the best `k` entries of `v` in [`ratio_order`] to its front, in that order, and
/// returns how many that is (`min(k, len)`): one pass keeping the best so far sorted at the
/// front, each newcomer better than the worst of them inserted in place.
fn best_to_front(v: &mut [(f64, usize, f64)], k: usize) -> usize {
    let k = k.min(v.len());
    if k == 0 {
        return 0;
    }
    if k <= 16 {
        insertion_sort(&mut v[..k]);
    } else {
        v[..k].sort_unstable_by(ratio_order);
    }
    let mut worst = v[k - 1];
    for i in k..v.len() {
        let c = v[i];
        if better(&c, &worst) {
            // `c` enters the front, `worst` leaves it for `c`'s place.
            v[i] = worst;
            let mut j = k - 1;
            while j > 0 && better(&c, &v[j - 1]) {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = c;
            worst = v[k - 1];
        }
    }
    k
}

/// Sorts `v` in [`ratio_order`] by insertion, for the few best items (the standard library's
/// small sort with a `total_cmp` comparator was 15% of a large-task profile).
fn insertion_sort(v: &mut [(f64, usize, f64)]) {
    for i in 1..v.len() {
        let c = v[i];
        let mut j = i;
        while j > 0 && better(&c, &v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = c;
    }
}

/// `a` before `b` in [`ratio_order`], for ratios that are never NaN (positive profits over
/// non-negative weights): plain comparisons in the hot loop.
#[inline]
fn better(a: &(f64, usize, f64), b: &(f64, usize, f64)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

pub(super) fn into_disc(e: [f64; 2]) -> [f64; 2] {
    let n2 = e[0] * e[0] + e[1] * e[1];
    if n2 > 1.0 {
        let n = n2.sqrt();
        [e[0] / n, e[1] / n]
    } else {
        e
    }
}

/// One evaluation of the fractional bound along `e`: its value, the row's multiplier `λ` and
/// the phasor `v` of the fractional solution; `-λ v` is a subgradient in `e`.
pub type Probe = (f64, f64, [f64; 2]);

/// Reduced-cost fixing along `e` (Dantzig's bound `B` and critical ratio `λ` of the node's
/// linear knapsack): a unit of item `j` beyond its fractional amount changes that bound by
/// `d_j = π_j − λ w_j` at least, so no point of the box with `k` more (or fewer) units than the
/// fractional solution can beat `target` once `B + k d_j ≤ target`. Returns the new bounds (see
/// [`Fixing`]); `None` when the node cannot beat `target` at all.
pub fn fix_by_reduced_costs(view: &NodeView, e: [f64; 2], target: f64) -> Option<Fixing> {
    let (k, lower, upper) = (view.k, view.lower, view.upper);
    let free = &mut *view.order.borrow_mut();
    let d = dantzig(view, e, free, None)?;
    let slack = d.value - target;
    if slack <= 0.0 {
        return None;
    }
    // Items before the critical one (in ratio order) are taken whole, those after it left
    // out.
    let critical = d.critical.map(|(s, _)| free[s]);
    let mut fixed = Vec::new();
    for f in free.iter() {
        let (_, i, w) = *f;
        let before = match critical {
            None => true,
            Some(c) if c.1 == i => continue,
            Some(c) => ratio_order(f, &c).is_lt(),
        };
        let d = k.items[i].profit - d.lambda * w;
        let span = upper[i] - lower[i];
        if before && d > 0.0 {
            // Taken fully: at most `slack / d` units fewer.
            let keep = (slack / d + 1e-9).floor();
            if keep < f64::from(span) {
                fixed.push((i, upper[i] - keep as u32, upper[i]));
            }
        } else if !before && d < 0.0 {
            // Left out: at most `slack / −d` units more.
            let add = (slack / -d + 1e-9).floor();
            if add < f64::from(span) {
                fixed.push((i, lower[i], lower[i] + add as u32));
            }
        }
    }
    // The integer point along `e` of Dantzig's solution rounded down (inside the new box).
    let rounded = match d.critical {
        Some((s, take)) => d.value - (take - f64::from(take as u32)) * k.items[free[s].1].profit,
        None => d.value,
    };
    Some(Fixing {
        bounds: fixed,
        rounded,
    })
}

/// What reduced-cost fixing found at a node.
pub struct Fixing {
    /// The items whose range shrinks, with their new `(lower, upper)`.
    pub bounds: Vec<(usize, u32, u32)>,
    /// The value of Dantzig's solution rounded down: an integer point of the new box along the
    /// direction.
    pub rounded: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A view's evaluations start from the order the previous one left: the bound, the
    /// fractional point and reduced-cost fixing along a direction are the same bits as on a
    /// fresh view, whatever was evaluated before.
    #[test]
    fn evaluations_do_not_depend_on_the_previous_order() {
        use super::super::tests::random_item;
        use super::super::Item;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let dir = |rng: &mut ChaCha8Rng| {
            let t = std::f64::consts::TAU * rng.random::<f64>();
            let r: f64 = rng.random_range(0.0..=1.0);
            [r * t.cos(), r * t.sin()]
        };
        for case in 0..300 {
            let n = rng.random_range(1..40);
            let items: Vec<Item> = (0..n)
                .map(|job| {
                    // A few equal profits, so ratios tie.
                    let profit = f64::from(rng.random_range(1..6u32)) * 0.1;
                    let ub = rng.random_range(1..=3);
                    random_item(&mut rng, job, 0.2..10.0, profit, ub)
                })
                .collect();
            let k = Knapsack::new(20.0, items);
            let lower: Vec<u32> = k.items.iter().map(|_| rng.random_range(0..=1)).collect();
            let lower: Vec<u32> = lower
                .iter()
                .zip(&k.items)
                .map(|(&l, it)| l.min(it.ub))
                .collect();
            let upper: Vec<u32> = k.items.iter().map(|it| it.ub).collect();
            let used = NodeView::new(&k, &lower, &upper);
            for _ in 0..4 {
                let e = dir(&mut rng);
                let fresh = NodeView::new(&k, &lower, &upper);
                for bound in [Bound::Fractional, Bound::Integer] {
                    assert_eq!(
                        used.directional(e, bound),
                        fresh.directional(e, bound),
                        "case {case}"
                    );
                }
                let target = rng.random_range(0.0..3.0);
                let (a, b) = (
                    fix_by_reduced_costs(&used, e, target),
                    fix_by_reduced_costs(&fresh, e, target),
                );
                assert_eq!(a.is_some(), b.is_some(), "case {case}");
                if let (Some(mut a), Some(mut b)) = (a, b) {
                    a.bounds.sort_unstable();
                    b.bounds.sort_unstable();
                    assert_eq!(a.bounds, b.bounds, "case {case}");
                    assert_eq!(a.rounded, b.rounded, "case {case}");
                }
            }
        }
    }

    /// The insertion selection puts the same entries in the same order at the front as a full
    /// sort, ties (equal ratios, infinite ratios) included.
    #[test]
    fn best_to_front_matches_a_full_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..500 {
            let n = rng.random_range(0..40);
            let mut v: Vec<(f64, usize, f64)> = (0..n)
                .map(|i| {
                    let r = match rng.random_range(0..5) {
                        0 => f64::INFINITY,
                        1 => 1.5,
                        _ => rng.random_range(0.01..10.0),
                    };
                    (r, i, rng.random_range(0.0..5.0))
                })
                .collect();
            // Shuffle the item order so ties are not already in index order.
            for i in (1..v.len()).rev() {
                let j = rng.random_range(0..=i);
                v.swap(i, j);
            }
            let mut sorted = v.clone();
            sorted.sort_by(ratio_order);
            // Both the insertion sort (k ≤ 16) and the standard sort of the head, and heads
            // longer than the slice.
            let k = rng.random_range(1..48);
            let got = best_to_front(&mut v, k);
            assert_eq!(got, k.min(n), "case {case}");
            assert_eq!(v[..got], sorted[..got], "case {case}");
            // The rest is a permutation of what is left.
            let mut rest = v[got..].to_vec();
            rest.sort_by(ratio_order);
            assert_eq!(rest, sorted[got..], "case {case}");
        }
    }
}
