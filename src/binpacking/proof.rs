//! The proofs of a packing's lower bound and their re-derivation (issue 37, models/proofs.md): `volume` and `l2` in closed form, the Farley bound of the root's duals
//! (`pricing`), the enumeration and the tree (`search`, re-run by `--deep`), the subset-row
//! cut LP (claimed).
//!
//! The pricing value is re-proved here by a knapsack independent of the solve's: a dynamic
//! programme over the capacity (one dimension, when `items × capacity` is small enough), else
//! a depth-first branch-and-bound with the fractional bound of every dimension, within a node
//! budget. Every sum is a float sum of at most `n` non-negative terms, so the exact maximum is
//! within `n·2⁻⁵³` of the value found, far inside the margin [`safe::widened`] adds.

use super::instance::Instance;
use super::solve::{Method, Settings, Solution};
use crate::colgen::safe;
use crate::problem::proof::{check_covering, check_duals, Unproved};
use crate::problem::{BoundCheck, Depth, Proof};

/// Largest `items × capacity` of the dynamic programme.
const DP_CELLS: u64 = 400_000_000;
/// Largest capacity of the dynamic programme (its table).
const DP_CAPACITY: u64 = 20_000_000;
/// Nodes of the branch-and-bound knapsack before it gives up.
const SEARCH_NODES: u64 = 2_000_000;

/// A pricing proof of the bound `lp` by the duals `pi` (one per item).
pub(super) fn pricing(pi: &[f64], lp: f64) -> Proof {
    Proof::pricing(pi, pi.iter().map(|p| p.max(0.0)).sum(), lp)
}

/// The closed forms: the volume bound, and in one dimension the Martello–Toth `L2`.
pub fn closed_form(inst: &Instance) -> u64 {
    let volume = inst.volume_bound();
    if inst.dims() == 1 {
        let w: Vec<u64> = inst.items.iter().map(|w| w[0]).collect();
        volume.max(super::local::l2_bound(&w, inst.capacity[0]))
    } else {
        volume
    }
}

/// Re-derives the bound of `sol`.
pub fn check(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    check_covering(
        &sol.certificate,
        closed_form(inst) as f64,
        depth,
        |duals, _| farley(inst, duals),
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
mod tests {
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
