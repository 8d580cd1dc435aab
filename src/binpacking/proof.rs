//! The proofs of a packing's lower bound and their re-derivation (issue 37, models/proofs.md): `volume` and `l2` in closed form, the Farley bound of the root's duals
//! (`pricing`), the Farley bound of a subset-row cut round (`pricing` with the cuts' rows
//! and duals), the enumeration and the tree (`search`, re-run by `--deep`).
//!
//! The pricing value is re-proved here by a knapsack independent of the solve's: a dynamic
//! programme over the capacity (one dimension, when `items × capacity` is small enough), else
//! a depth-first branch-and-bound with the fractional bound of every dimension, within a node
//! budget. Every sum is a float sum of at most `n` non-negative terms, so the exact maximum is
//! within `n·2⁻⁵³` of the value found, far inside the margin [`safe::widened`] adds.
//!
//! Under cut duals the pricing is re-proved by [`best_bin_with_cuts`], written apart from the
//! solve's [`super::cut_pricing`]: a depth-first search over the items of the cuts (by index)
//! bounded by exact tables of the remaining items without penalties, every sum rounded up.

use super::instance::Instance;
use super::solve::{Method, Settings, Solution};
use crate::colgen::{safe, CutProof};
use crate::problem::proof::{check_covering, check_duals, CutDual, Unproved};
use crate::problem::{BoundCheck, Depth, Proof};

/// Largest `items × capacity` of the dynamic programme.
const DP_CELLS: u64 = 400_000_000;
/// Largest capacity of the dynamic programme (its table).
const DP_CAPACITY: u64 = 20_000_000;
/// Nodes of the branch-and-bound knapsack before it gives up.
const SEARCH_NODES: u64 = 2_000_000;
/// Largest table of the cut pricing's re-proof: `(cut items + 1) × (capacity + 1)` cells.
const CUT_CELLS: u64 = 50_000_000;
/// Nodes of the cut pricing's re-proof before it gives up.
const CUT_NODES: u64 = 20_000_000;

/// A pricing proof of the bound `lp` by the duals `pi` (one per item).
pub(super) fn pricing(pi: &[f64], lp: f64) -> Proof {
    Proof::pricing(pi, pi.iter().map(|p| p.max(0.0)).sum(), lp)
}

/// The pricing proof of a cut round's bound: the item duals, the cuts' rows and duals, and
/// the proven best pricing value under them.
pub(super) fn cut_pricing(p: &CutProof) -> Proof {
    Proof::Pricing {
        duals: p.pi.clone(),
        best: p.best,
        cuts: p
            .cuts
            .iter()
            .map(|(rows, dual)| CutDual {
                rows: rows.clone(),
                dual: *dual,
            })
            .collect(),
    }
}

/// The closed forms: the volume bound, and in one dimension the Martello–Toth `L2`.
pub fn closed_form(inst: &Instance) -> u64 {
    let volume = inst.volume_bound();
    match inst.weights() {
        Some(w) => volume.max(super::local::l2_bound(&w, inst.capacity[0])),
        None => volume,
    }
}

/// Re-derives the bound of `sol`.
pub fn check(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    check_covering(
        &sol.certificate,
        closed_form(inst) as f64,
        depth,
        |duals, _| match &sol.certificate.proof {
            Some(Proof::Pricing { cuts, .. }) if !cuts.is_empty() => cut_farley(inst, duals, cuts),
            _ => farley(inst, duals),
        },
        |d| {
            super::solve::solve(inst, Method::Bp, &Settings::default(), d)
                .map(|s| s.certificate.bound)
        },
    )
}

/// `π·1 / max(1, v)` (before the ceiling) with `v` the proven best bin under the duals `pi`, rounded outward;
/// an error naming what is wrong with the duals.
pub fn farley(inst: &Instance, pi: &[f64]) -> Result<f64, Unproved> {
    check_duals(pi, inst.len(), "items")?;
    let v = best_bin(inst, pi).ok_or_else(|| {
        Unproved::Budget(
            "the best bin under the proof's duals was not proved within the node budget".into(),
        )
    })?;
    let ones = vec![1.0; pi.len()];
    Ok(safe::farley(pi, &ones, v))
}

/// The Farley bound of a cut round, `(Σ max(π,0) + Σ min(σ,0)·⌊|S|/2⌋) / max(1, v)` before
/// the ceiling, `v` re-proved by [`best_bin_with_cuts`]; rounded outward. The duals are moved
/// into the dual-feasible signs (`π ≥ 0` for the covering rows, `σ ≤ 0` for the `≤ ⌊|S|/2⌋`
/// cut rows), so any values give a valid bound: the subset-row cut over any two or more
/// distinct items is valid for every packing. Rows that are not two or more increasing items,
/// or duals that do not fit, are refused.
pub fn cut_farley(inst: &Instance, pi: &[f64], cuts: &[CutDual]) -> Result<f64, Unproved> {
    check_duals(pi, inst.len(), "items")?;
    let n = inst.len();
    for (s, c) in cuts.iter().enumerate() {
        let increasing = c.rows.windows(2).all(|p| p[0] < p[1]);
        if c.rows.len() < 2 || !increasing || c.rows.iter().any(|&r| r >= n) {
            return Err(Unproved::Malformed(format!(
                "cut {s} of the pricing proof: rows {:?} are not two or more increasing items below {n}",
                c.rows
            )));
        }
        if !c.dual.is_finite() {
            return Err(Unproved::Malformed(format!(
                "cut {s} of the pricing proof: its dual is not a finite number"
            )));
        }
    }
    if inst.dims() != 1 {
        return Err(Unproved::Budget(
            "cut duals are re-proved in one dimension only".into(),
        ));
    }
    let sigma: Vec<(Vec<usize>, f64)> = cuts
        .iter()
        .filter(|c| c.dual < 0.0)
        .map(|c| (c.rows.clone(), c.dual))
        .collect();
    let v = best_bin_with_cuts(inst, pi, &sigma).ok_or_else(|| {
        Unproved::Budget(
            "the best bin under the proof's item and cut duals was not proved within budget".into(),
        )
    })?;
    // σ·⌊|S|/2⌋ is exact in floating point (a small integer times σ); the sum rounds down.
    let numerator = safe::sum_down(
        pi.iter()
            .map(|p| p.max(0.0))
            .chain(sigma.iter().map(|(rows, d)| d * (rows.len() / 2) as f64)),
    );
    Ok(safe::farley_from(numerator, v))
}

/// An upper bound on `max_a (Σ_{i∈a} π_i + Σ_s σ_s ⌊|a ∩ S_s|/2⌋)` over the bins `a`
/// of a one-dimensional instance, the cuts' duals `σ_s < 0`; `None` beyond the table or node
/// budget. Items without a positive dual are left out (dropping one from a bin loses no value
/// and no penalty grows). The items in no cut (*free*) get an exact table `f[r]`; the cut
/// items are decided depth-first in index order, bounded by `value + g_k[room]`, `g_k` the
/// exact table of the cut items from `k` on and the free items, penalties ignored (they only
/// lower a value). Every sum is rounded up, so each figure is at least its exact value, and so
/// is the result.
pub fn best_bin_with_cuts(inst: &Instance, pi: &[f64], cuts: &[(Vec<usize>, f64)]) -> Option<f64> {
    let cap = inst.capacity[0];
    let fits = |i: usize| pi[i] > 0.0 && inst.items[i][0] <= cap;
    let in_cut = |i: usize| cuts.iter().any(|(t, _)| t.contains(&i));
    let cut_items: Vec<usize> = (0..inst.len()).filter(|&i| fits(i) && in_cut(i)).collect();
    let k = cut_items.len() as u64;
    if cap > DP_CAPACITY || (k + 1).saturating_mul(cap + 1) > CUT_CELLS {
        return None;
    }
    let width = cap as usize + 1;
    let add = |t: &mut [f64], w: usize, v: f64| {
        for r in (w..width).rev() {
            let with = (t[r - w] + v).next_up();
            if with > t[r] {
                t[r] = with;
            }
        }
    };
    // tables[k]: the cut items from k on and every free item; tables[len]: free items only.
    let mut last = vec![0.0f64; width];
    for i in (0..inst.len()).filter(|&i| fits(i) && !in_cut(i)) {
        add(&mut last, inst.items[i][0] as usize, pi[i]);
    }
    let mut tables = vec![last];
    for &i in cut_items.iter().rev() {
        let mut t = tables.last().expect("one table").clone();
        add(&mut t, inst.items[i][0] as usize, pi[i]);
        tables.push(t);
    }
    tables.reverse();
    let mut s = CutSearch {
        items: &cut_items,
        weights: cut_items
            .iter()
            .map(|&i| inst.items[i][0] as usize)
            .collect(),
        pi,
        cuts,
        cuts_of: cut_items
            .iter()
            .map(|i| (0..cuts.len()).filter(|&c| cuts[c].0.contains(i)).collect())
            .collect(),
        held: vec![0; cuts.len()],
        tables: &tables,
        best: 0.0,
        nodes: 0,
    };
    s.dfs(0, cap as usize, 0.0).then_some(s.best)
}

/// The depth-first search of [`best_bin_with_cuts`].
struct CutSearch<'a> {
    items: &'a [usize],
    weights: Vec<usize>,
    pi: &'a [f64],
    cuts: &'a [(Vec<usize>, f64)],
    cuts_of: Vec<Vec<usize>>,
    held: Vec<u32>,
    tables: &'a [Vec<f64>],
    best: f64,
    nodes: u64,
}

impl CutSearch<'_> {
    /// Decides cut item `k` on with `room` left and `value` (rounded up) so far; false when
    /// the node budget ran out.
    fn dfs(&mut self, k: usize, room: usize, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > CUT_NODES {
            return false;
        }
        let top = (value + self.tables[k][room]).next_up();
        if top <= self.best {
            return true;
        }
        if k == self.items.len() {
            // Only free items are left: the table is exact for them.
            self.best = top;
            return true;
        }
        let w = self.weights[k];
        if w <= room {
            let mut v = (value + self.pi[self.items[k]]).next_up();
            for &c in &self.cuts_of[k] {
                self.held[c] += 1;
                // ⌊held/2⌋ grows by one at every even count.
                if self.held[c].is_multiple_of(2) {
                    v = (v + self.cuts[c].1).next_up();
                }
            }
            let ok = self.dfs(k + 1, room - w, v);
            for &c in &self.cuts_of[k] {
                self.held[c] -= 1;
            }
            if !ok {
                return false;
            }
        }
        self.dfs(k + 1, room, value)
    }
}

/// An upper bound on `max Σ_{i in a bin} π_i` over the bins that fit, `None` when the search
/// ran out of nodes.
pub fn best_bin(inst: &Instance, pi: &[f64]) -> Option<f64> {
    // Items with no positive dual or that fit no bin never help.
    let items: Vec<usize> = (0..inst.len())
        .filter(|&i| {
            pi[i] > 0.0
                && inst.items[i]
                    .iter()
                    .zip(&inst.capacity)
                    .all(|(w, c)| w <= c)
        })
        .collect();
    let cap = &inst.capacity;
    if inst.dims() == 1
        && cap[0] <= DP_CAPACITY
        && (items.len() as u64).saturating_mul(cap[0]) <= DP_CELLS
    {
        let c = cap[0] as usize;
        let mut best = vec![0.0f64; c + 1];
        for &i in &items {
            let w = inst.items[i][0] as usize;
            for r in (w..=c).rev() {
                let with = (best[r - w] + pi[i]).next_up();
                if with > best[r] {
                    best[r] = with;
                }
            }
        }
        return Some(best[c]);
    }
    Knapsack::new(inst, pi, items).run()
}

/// Depth-first branch-and-bound over items in decreasing dual, bounded by the least of the
/// dimensions' fractional knapsacks.
struct Knapsack<'a> {
    inst: &'a Instance,
    pi: &'a [f64],
    items: Vec<usize>,
    /// Per dimension: the items (positions in `items`) in decreasing `π / w`.
    by_ratio: Vec<Vec<usize>>,
    best: f64,
    nodes: u64,
}

impl<'a> Knapsack<'a> {
    fn new(inst: &'a Instance, pi: &'a [f64], mut items: Vec<usize>) -> Self {
        items.sort_by(|&a, &b| pi[b].total_cmp(&pi[a]));
        let by_ratio = (0..inst.dims())
            .map(|d| {
                let ratio = |k: usize| {
                    let i = items[k];
                    pi[i] / (inst.items[i][d] as f64).max(1e-300)
                };
                let mut order: Vec<usize> = (0..items.len()).collect();
                order.sort_by(|&a, &b| ratio(b).total_cmp(&ratio(a)));
                order
            })
            .collect();
        Knapsack {
            inst,
            pi,
            items,
            by_ratio,
            best: 0.0,
            nodes: 0,
        }
    }

    fn run(mut self) -> Option<f64> {
        let mut room = self.inst.capacity.clone();
        let finished = self.dfs(0, 0.0, &mut room);
        finished.then_some(self.best)
    }

    /// The fractional bound of what items `k..` can add in `room`.
    fn bound(&self, k: usize, room: &[u64]) -> f64 {
        let mut least = f64::INFINITY;
        for (d, order) in self.by_ratio.iter().enumerate() {
            let mut left = room[d] as f64;
            let mut add = 0.0;
            for &p in order.iter().filter(|&&p| p >= k) {
                let i = self.items[p];
                let w = self.inst.items[i][d] as f64;
                if w <= left {
                    left -= w;
                    add += self.pi[i];
                } else {
                    add += self.pi[i] * left / w;
                    break;
                }
            }
            least = least.min(add);
        }
        least
    }

    /// False when the node budget ran out.
    fn dfs(&mut self, k: usize, value: f64, room: &mut Vec<u64>) -> bool {
        self.nodes += 1;
        if self.nodes > SEARCH_NODES {
            return false;
        }
        self.best = self.best.max(value);
        if k == self.items.len() || value + self.bound(k, room) <= self.best {
            return true;
        }
        let i = self.items[k];
        let w = &self.inst.items[i];
        if w.iter().zip(room.iter()).all(|(a, b)| a <= b) {
            for (r, a) in room.iter_mut().zip(w) {
                *r -= a;
            }
            let ok = self.dfs(k + 1, value + self.pi[i], room);
            for (r, a) in room.iter_mut().zip(w) {
                *r += a;
            }
            if !ok {
                return false;
            }
        }
        self.dfs(k + 1, value, room)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn inst(items: Vec<Vec<u64>>, capacity: Vec<u64>) -> Instance {
        Instance { capacity, items }
    }

    #[test]
    fn both_knapsacks_find_the_best_bin() {
        // Capacity 10: {6, 4} is worth 1.0, {5, 5} only 0.8.
        let i = inst(vec![vec![6], vec![4], vec![5], vec![5]], vec![10]);
        let pi = [0.6, 0.4, 0.4, 0.4];
        let dp = best_bin(&i, &pi).unwrap();
        assert!((dp - 1.0).abs() < 1e-12, "{dp}");
        let items = (0..4).collect();
        let bb = Knapsack::new(&i, &pi, items).run().unwrap();
        assert!((bb - 1.0).abs() < 1e-12, "{bb}");
        // Two dimensions: {0, 1} breaks the second.
        let j = inst(
            vec![vec![6, 6], vec![4, 6], vec![5, 1], vec![5, 1]],
            vec![10, 10],
        );
        let v = best_bin(&j, &pi).unwrap();
        assert!((v - 0.8).abs() < 1e-12, "{v}");
    }

    /// The re-proof of the cut pricing equals the best bin by enumeration (within its upward
    /// rounding) under random item and cut duals.
    #[test]
    fn cut_pricing_reproof_matches_enumeration() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for case in 0..400 {
            let n = rng.random_range(3..=11);
            let cap = rng.random_range(10..=40u64);
            let w: Vec<u64> = (0..n).map(|_| rng.random_range(1..=cap + 3)).collect();
            let i = inst(w.iter().map(|&x| vec![x]).collect(), vec![cap]);
            let pi: Vec<f64> = (0..n).map(|_| rng.random_range(-0.2..0.7)).collect();
            let cuts: Vec<(Vec<usize>, f64)> = (0..rng.random_range(0..6))
                .map(|_| {
                    let size = if n >= 5 && rng.random_bool(0.5) { 5 } else { 3 };
                    let mut pool: Vec<usize> = (0..n).collect();
                    let mut t: Vec<usize> = (0..size)
                        .map(|_| pool.swap_remove(rng.random_range(0..pool.len())))
                        .collect();
                    t.sort_unstable();
                    (t, -rng.random_range(0.0..0.6))
                })
                .collect();
            let mut want = 0.0f64;
            for mask in 0u32..(1 << n) {
                let items: Vec<usize> = (0..n).filter(|k| mask >> k & 1 == 1).collect();
                if items.iter().map(|&k| w[k]).sum::<u64>() > cap {
                    continue;
                }
                let held = |t: &[usize]| t.iter().filter(|r| items.contains(r)).count();
                let v: f64 = items.iter().map(|&k| pi[k]).sum::<f64>()
                    + cuts
                        .iter()
                        .map(|(t, s)| (held(t) / 2) as f64 * s)
                        .sum::<f64>();
                want = want.max(v);
            }
            let got = best_bin_with_cuts(&i, &pi, &cuts).unwrap();
            assert!(
                got >= want && got <= want + 1e-12,
                "case {case}: {got} vs {want}"
            );
        }
    }

    /// A cut round's proof on weights `w` in bins of `cap` (optimum `opt`): verify's
    /// re-derivation gives its bound again, never above the optimum; doctored duals give a
    /// weaker bound or are refused. Called by `binpacking::tests` on its cut rounds.
    pub(crate) fn assert_cut_proof(w: &[u64], cap: u64, p: &CutProof, opt: f64, case: usize) {
        let n = w.len();
        let i = inst(w.iter().map(|&x| vec![x]).collect(), vec![cap]);
        let Proof::Pricing { duals, cuts, .. } = cut_pricing(p) else {
            unreachable!()
        };
        let again = cut_farley(&i, &duals, &cuts).unwrap();
        assert!(
            again >= p.bound * (1.0 - 1e-9) && again <= opt + 1e-9,
            "case {case}: {again} vs {} (optimum {opt})",
            p.bound
        );
        // Doctored: cut duals made positive or scaled, item duals scaled.
        let mut worse = cuts.clone();
        worse.iter_mut().for_each(|c| c.dual = -c.dual);
        assert!(cut_farley(&i, &duals, &worse).unwrap() <= opt + 1e-9);
        for f in [0.5, 3.0, 100.0] {
            let mut sc = cuts.clone();
            sc.iter_mut().for_each(|c| c.dual *= f);
            assert!(
                cut_farley(&i, &duals, &sc).unwrap() <= opt + 1e-9,
                "case {case}"
            );
            let d: Vec<f64> = duals.iter().map(|x| x * f).collect();
            assert!(
                cut_farley(&i, &d, &cuts).unwrap() <= opt + 1e-9,
                "case {case}"
            );
        }
        let mut bad = cuts.clone();
        bad[0].rows = vec![0, 0, 1];
        assert!(matches!(
            cut_farley(&i, &duals, &bad),
            Err(Unproved::Malformed(_))
        ));
        bad[0].rows = vec![0, 1, n];
        assert!(matches!(
            cut_farley(&i, &duals, &bad),
            Err(Unproved::Malformed(_))
        ));
        bad[0].rows = vec![1];
        assert!(matches!(
            cut_farley(&i, &duals, &bad),
            Err(Unproved::Malformed(_))
        ));
        let mut nan = cuts.clone();
        nan[0].dual = f64::NAN;
        assert!(matches!(
            cut_farley(&i, &duals, &nan),
            Err(Unproved::Malformed(_))
        ));
        assert!(cut_farley(&i, &duals[1..], &cuts).is_err());
    }

    #[test]
    fn doctored_duals_give_a_smaller_bound() {
        // Four items of 6 in bins of 10: four bins; π = 1 each proves it.
        let i = inst(vec![vec![6]; 4], vec![10]);
        let b = farley(&i, &[1.0; 4]).unwrap();
        assert_eq!(crate::ceil_with_tolerance(b), 4, "{b}");
        // Duals inflated for one item: the best bin is worth more, the bound falls.
        assert!(farley(&i, &[1.0, 1.0, 1.0, 3.0]).unwrap() < 3.0);
        assert!(matches!(farley(&i, &[1.0; 3]), Err(Unproved::Malformed(_))));
        assert!(farley(&i, &[f64::NAN; 4]).is_err());
    }
}
