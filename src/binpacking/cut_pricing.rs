//! The one-dimensional pricing under subset-row cut duals ([`crate::colgen::CutPricing`]):
//! maximise `Σ π_i x_i + Σ_s σ_s ⌊|x ∩ S_s| / 2⌋` over the bins, with `σ_s ≤ 0`.
//!
//! - **Quick:** the plain knapsack ([`BinKnapsack`], dynamic programming, cuts ignored). Its
//!   bins are re-valued with the penalties, and the exact search is skipped when one of them
//!   still improves. That answer proves nothing.
//! - **Exact:** a depth-first search over the items that lie in a cut with a nonzero dual,
//!   the *cut items*. The bound is an exact table `g[k][r]`: the best value of the items from
//!   `k` on within capacity `r`, penalties ignored. The penalties only lower a value, so the
//!   bound is valid. The free items come last in that order, so once the cut items are
//!   decided the rest of the bin is read back from the table, which is exact because no
//!   penalty touches the free items.

use crate::colgen::vector::{BinKnapsack, PricingSettings};
use crate::colgen::{
    bins_as_columns, cut_coefficient, CutPricing, Priced, Pricing, Subset, SuffixTable,
};
use crate::error::Result;
use crate::solver::Deadline;

/// The oracle: item weights, the capacity, the cuts with their duals.
pub struct CutKnapsack {
    weights: Vec<u64>,
    capacity: u64,
    settings: PricingSettings,
    quick: BinKnapsack,
    /// Cuts with a dual below zero.
    cuts: Vec<(Subset, f64)>,
}

impl CutKnapsack {
    /// The oracle with no cut.
    pub fn new(weights: &[u64], capacity: u64, settings: PricingSettings) -> CutKnapsack {
        let rows: Vec<Vec<u64>> = weights.iter().map(|&w| vec![w]).collect();
        CutKnapsack {
            weights: weights.to_vec(),
            capacity,
            quick: BinKnapsack::new(&rows, &[capacity], settings.clone()),
            settings,
            cuts: Vec::new(),
        }
    }

    /// The value of the bin `items` at `values` under the cuts.
    pub fn value(&self, items: &[usize], values: &[f64]) -> f64 {
        let base: f64 = items.iter().map(|&i| values[i]).sum();
        let penalty: f64 = self
            .cuts
            .iter()
            .map(|(t, s)| s * cut_coefficient(t.iter().filter(|r| items.contains(r)).count()))
            .sum();
        base + penalty
    }

    /// The exact search: the best bins above `floor` (at most `keep`, best first), and
    /// whether it completed within `limit` nodes (then no bin is worth more than the first,
    /// or than `floor` when none is returned).
    pub fn exact(
        &self,
        values: &[f64],
        floor: f64,
        keep: usize,
        limit: u64,
    ) -> (Vec<(f64, Vec<usize>)>, bool, u64) {
        let cap = self.capacity as usize;
        let in_cut = |i: usize| self.cuts.iter().any(|(t, _)| t.contains(&i));
        let cand: Vec<usize> = (0..self.weights.len())
            .filter(|&i| values[i] > 0.0 && self.weights[i] <= self.capacity)
            .collect();
        let mut seq: Vec<usize> = cand.iter().copied().filter(|&i| in_cut(i)).collect();
        let cut_items = seq.len();
        let density = |i: &usize| values[*i] / self.weights[*i].max(1) as f64;
        seq.sort_by(|a, b| density(b).total_cmp(&density(a)).then(a.cmp(b)));
        seq.extend(cand.iter().copied().filter(|&i| !in_cut(i)));
        // The best value of seq[k..] within capacity r, no penalty.
        let g = SuffixTable::new(
            seq.iter().map(|&i| self.weights[i]).collect(),
            seq.iter().map(|&i| values[i]).collect(),
            cap,
        );
        // Per cut item, the cuts holding it.
        let cuts_of: Vec<Vec<usize>> = seq[..cut_items]
            .iter()
            .map(|i| {
                (0..self.cuts.len())
                    .filter(|&s| self.cuts[s].0.contains(i))
                    .collect()
            })
            .collect();
        let mut search = Search {
            seq: &seq,
            weights: &self.weights,
            values,
            cuts: &self.cuts,
            cuts_of: &cuts_of,
            g: &g,
            cut_items,
            floor,
            keep: keep.max(1),
            limit,
            nodes: 0,
            best: Vec::new(),
            taken: Vec::new(),
            held: vec![0; self.cuts.len()],
        };
        let complete = search.dfs(0, cap, 0.0);
        let nodes = search.nodes;
        let mut best = search.best;
        best.sort_by(|a, b| b.0.total_cmp(&a.0));
        (best, complete, nodes)
    }
}

/// The depth-first search over the cut items.
struct Search<'a> {
    seq: &'a [usize],
    weights: &'a [u64],
    values: &'a [f64],
    cuts: &'a [(Subset, f64)],
    cuts_of: &'a [Vec<usize>],
    g: &'a SuffixTable,
    cut_items: usize,
    floor: f64,
    keep: usize,
    limit: u64,
    nodes: u64,
    best: Vec<(f64, Vec<usize>)>,
    taken: Vec<usize>,
    /// Per cut, how many of its items are taken.
    held: Vec<u32>,
}

impl Search<'_> {
    /// The value a bin must beat to be kept.
    fn threshold(&self) -> f64 {
        if self.best.len() < self.keep {
            self.floor
        } else {
            self.best
                .iter()
                .map(|b| b.0)
                .fold(f64::INFINITY, f64::min)
                .max(self.floor)
        }
    }

    /// Decides `seq[k..cut_items]` with `room` left and `value` so far; false when the node
    /// limit stopped it.
    fn dfs(&mut self, k: usize, room: usize, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return false;
        }
        let top = value + self.g.best(k, room);
        // Relative slack as the knapsack's own: round-off never prunes the optimum.
        if top <= self.threshold() + 1e-12 * top.abs() {
            return true;
        }
        if k == self.cut_items {
            // The free items: exact from the table.
            let mut items = self.taken.clone();
            items.extend(self.g.fill(k, room).into_iter().map(|j| self.seq[j]));
            items.sort_unstable();
            if self.best.len() >= self.keep {
                let worst = (0..self.best.len())
                    .min_by(|&a, &b| self.best[a].0.total_cmp(&self.best[b].0))
                    .expect("keep ≥ 1");
                self.best.swap_remove(worst);
            }
            self.best.push((top, items));
            return true;
        }
        let i = self.seq[k];
        let w = self.weights[i] as usize;
        if w <= room {
            let mut penalty = 0.0;
            for &s in &self.cuts_of[k] {
                self.held[s] += 1;
                // ⌊held/2⌋ grows at every even count.
                if self.held[s].is_multiple_of(2) {
                    penalty += self.cuts[s].1;
                }
            }
            self.taken.push(i);
            let done = self.dfs(k + 1, room - w, value + self.values[i] + penalty);
            self.taken.pop();
            for &s in &self.cuts_of[k] {
                self.held[s] -= 1;
            }
            if !done {
                return false;
            }
        }
        self.dfs(k + 1, room, value)
    }
}

impl Pricing for CutKnapsack {
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        let floor = 1.0 + self.settings.improvement_tol;
        let (quick, _, nodes) = self.quick.search(duals);
        let mut improving: Vec<(f64, Vec<usize>)> = quick
            .into_iter()
            .map(|(_, items)| (self.value(&items, duals), items))
            .filter(|(v, _)| *v > floor)
            .collect();
        if !improving.is_empty() || deadline.expired() {
            improving.sort_by(|a, b| b.0.total_cmp(&a.0));
            return Ok(Priced {
                columns: bins_as_columns(improving),
                proven_max: None,
                upper_bound: None,
                nodes,
            });
        }
        let mut exact = self.price_exact(duals, deadline)?;
        exact.nodes += nodes;
        Ok(exact)
    }
}

impl CutPricing for CutKnapsack {
    fn set_cuts(&mut self, cuts: &[(Subset, f64)]) {
        self.cuts = cuts.iter().filter(|c| c.1 < -1e-12).cloned().collect();
    }

    fn price_exact(&mut self, duals: &[f64], _deadline: &Deadline) -> Result<Priced> {
        let floor = 1.0 + self.settings.improvement_tol;
        let keep = self.settings.max_columns.max(1);
        let (best, complete, nodes) = self.exact(duals, floor, keep, self.settings.node_limit);
        let top = best.first().map_or(floor, |b| b.0.max(floor));
        Ok(Priced {
            columns: bins_as_columns(best),
            proven_max: complete.then_some(top),
            upper_bound: None,
            nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every bin by enumeration: the most valuable under the cuts.
    fn brute(k: &CutKnapsack, values: &[f64]) -> f64 {
        let n = k.weights.len();
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let items: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
            let w: u64 = items.iter().map(|&i| k.weights[i]).sum();
            if w <= k.capacity {
                best = best.max(k.value(&items, values));
            }
        }
        best
    }

    #[test]
    fn exact_search_matches_enumeration_under_random_cuts() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for case in 0..400 {
            let n = rng.random_range(3..=10);
            let cap = rng.random_range(10..=40u64);
            let weights: Vec<u64> = (0..n).map(|_| rng.random_range(1..=cap)).collect();
            let values: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..0.6)).collect();
            let mut k = CutKnapsack::new(&weights, cap, PricingSettings::default());
            let cuts: Vec<(Subset, f64)> = (0..rng.random_range(0..5))
                .map(|_| {
                    let size = if n >= 5 && rng.random_bool(0.5) { 5 } else { 3 };
                    let mut pool: Vec<usize> = (0..n).collect();
                    let mut t: Vec<usize> = (0..size)
                        .map(|_| pool.swap_remove(rng.random_range(0..pool.len())))
                        .collect();
                    t.sort_unstable();
                    (t, -rng.random_range(0.0..0.5))
                })
                .collect();
            k.set_cuts(&cuts);
            let want = brute(&k, &values);
            let (best, complete, _) = k.exact(&values, 0.0, 3, u64::MAX);
            assert!(complete);
            let got = best.first().map_or(0.0, |b| b.0);
            assert!((got - want).abs() < 1e-9, "case {case}: {got} vs {want}");
            for (v, items) in &best {
                assert!((k.value(items, &values) - v).abs() < 1e-9, "case {case}");
                let w: u64 = items.iter().map(|&i| weights[i]).sum();
                assert!(w <= cap, "case {case}: over capacity");
            }
        }
    }
}
