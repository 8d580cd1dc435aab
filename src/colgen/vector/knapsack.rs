//! The pricing of (vector) bin packing under Ryan–Foster decisions: a 0-1 knapsack with `D`
//! capacity rows whose items are the together-groups (weights and duals summed) and whose
//! conflicts are the apart pairs. Exact either way: with one dimension and no apart pair among
//! the candidates, dynamic programming over the capacity; with one dimension and apart pairs,
//! the exact step is the conflict search ([`super::conflicts`]); otherwise depth-first
//! branch-and-bound (items by dual per unit of summed relative size; bound: the least over the
//! dimensions of the Dantzig bound of that dimension's fractional knapsack over the items left
//! that do not conflict with those taken — each drops the other rows, so each is valid;
//! identical items are left in order, so copies of a `.vbp` item type are not permuted).

use super::conflicts::ConflictSearch;
use super::enumerate::{maximal_columns, waste_budget};
use super::surrogate::{Surrogate, TableBound};
use crate::colgen::{
    covered_items, price_uncovered, quick_then_exact, relax, BranchPricing, Column, Decisions,
    Priced, Pricing, Searched, Taken,
};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Pricing settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingSettings {
    /// Search nodes of one call at most (then the answer proves nothing).
    pub node_limit: u64,
    /// Nodes of the quick search tried first: when it finds an improving bin the exact
    /// search is skipped (that iteration then proves no bound).
    pub quick_nodes: u64,
    /// Improving columns returned per call at most (the best found).
    pub max_columns: usize,
    /// A column must be worth more than `1 + improvement_tol`.
    pub improvement_tol: f64,
    /// Without apart pairs among the candidates, dynamic programming over the capacity when
    /// items × (capacity + 1) is at most this; otherwise the branch-and-bound.
    pub dp_cells: u64,
    /// Cells (types × (capacity + 1)) of the reduced-cost enumeration's tables at most.
    pub enumeration_cells: u64,
    /// With apart pairs among the candidates and one dimension: the search over the
    /// conflicted candidates with a suffix table of `f64` cells (`conflicts.rs`) when
    /// candidates × (capacity + 1) is at most this; otherwise the branch-and-bound.
    pub conflict_cells: u64,
    /// One dimension without conflicts, not diving: when the bins of distinct weights the
    /// dynamic programme reads back are fewer than `max_columns`, also up to this many
    /// one-step deviations a step of each one's traceback (bins of the same weight, each the
    /// best of its stage; `BinKnapsack::deviations`); 0: off (the bin-packing family sets
    /// 16 at its aggregated root, `root_deviations`).
    pub deviations: usize,
    /// The exact branch-and-bound's surrogate rows bounded by the integer knapsack of each,
    /// read from suffix tables of at most this many `f64` cells in all (shared equally by the
    /// rows, whose sizes are scaled down to fit; `colgen/vector/surrogate.rs`); 0: by their
    /// Dantzig bounds (before the thirty-sixth session).
    pub table_cells: u64,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            node_limit: 5_000_000,
            quick_nodes: 20_000,
            max_columns: 10,
            improvement_tol: 1e-9,
            dp_cells: 200_000_000,
            enumeration_cells: 10_000_000,
            conflict_cells: 20_000_000,
            deviations: 0,
            table_cells: 12_000_000,
        }
    }
}

/// The oracle: item weights, capacity, and the current decisions.
pub struct BinKnapsack {
    /// Per item, per dimension.
    weights: Vec<Vec<u64>>,
    capacity: Vec<u64>,
    settings: PricingSettings,
    /// The groups and conflicts of the current decisions.
    decisions: Decisions,
    /// Some decision holds (then no enumeration).
    decided: bool,
    /// In a dive: the quick search only.
    diving: bool,
    /// In a dive over unit items: the items already covered by the fixed bins. They are
    /// priced at 0 and left out of the columns (a bin holding them would be valued for
    /// coverage the residual problem does not need).
    covered: Option<Vec<bool>>,
    /// The value whose proof already closes the caller's bound ([`Pricing::aim`]): the
    /// branch-and-bound prunes at it (0: no aim).
    aim: f64,
}

impl BinKnapsack {
    /// The oracle with no decisions.
    pub fn new(weights: &[Vec<u64>], capacity: &[u64], settings: PricingSettings) -> BinKnapsack {
        let mut k = BinKnapsack {
            weights: weights.to_vec(),
            capacity: capacity.to_vec(),
            decisions: Decisions::new(weights.len(), &[], &[]),
            decided: false,
            settings,
            diving: false,
            covered: None,
            aim: 0.0,
        };
        k.restrict(&[], &[]);
        k
    }

    /// The most valuable bins at `values` (per item), best first, and whether the search
    /// completed (then the first is the exact optimum).
    pub fn search(&self, values: &[f64]) -> Searched {
        self.search_within(values, self.settings.node_limit, true, &Deadline::none())
    }

    /// [`BinKnapsack::search`] with at most `limit` branch-and-bound nodes, stopping (not
    /// complete) once `deadline` passes. `exact`: the call that must prove (the quick one
    /// found nothing); under apart pairs in one dimension it is the conflict search.
    fn search_within(
        &self,
        values: &[f64],
        limit: u64,
        exact: bool,
        deadline: &Deadline,
    ) -> Searched {
        // Candidate groups: positive value, fitting alone.
        let dims = self.capacity.len();
        let mut cand: Vec<(usize, Vec<u64>, f64)> = self
            .decisions
            .groups
            .iter()
            .enumerate()
            .map(|(g, m)| {
                let w: Vec<u64> = (0..dims)
                    .map(|d| m.iter().map(|&i| self.weights[i][d]).sum())
                    .collect();
                let v: f64 = m.iter().map(|&i| values[i].max(0.0)).sum();
                (g, w, v)
            })
            .filter(|(g, w, v)| {
                *v > 0.0
                    && w.iter().zip(&self.capacity).all(|(x, c)| x <= c)
                    && !self.decisions.forbidden[*g]
            })
            .collect();
        let size = |w: &[u64]| -> f64 {
            w.iter()
                .zip(&self.capacity)
                .map(|(&x, &c)| x as f64 / c as f64)
                .sum()
        };
        // By value per unit of size; equal items (same weights and value) end up adjacent.
        cand.sort_by(|a, b| {
            (b.2 / size(&b.1))
                .total_cmp(&(a.2 / size(&a.1)))
                .then(a.1.cmp(&b.1))
                .then(a.0.cmp(&b.0))
        });
        let n = cand.len();
        let conflicted = cand
            .iter()
            .any(|c| !self.decisions.conflicts[c.0].is_empty());
        if dims == 1
            && !conflicted
            && (n as u64).saturating_mul(self.capacity[0] + 1) <= self.settings.dp_cells
        {
            return self.dynamic(&cand);
        }
        let index: std::collections::HashMap<usize, usize> =
            cand.iter().enumerate().map(|(k, c)| (c.0, k)).collect();
        let conflicts: Vec<Vec<usize>> = cand
            .iter()
            .map(|c| {
                self.decisions.conflicts[c.0]
                    .iter()
                    .filter_map(|g| index.get(g).copied())
                    .collect()
            })
            .collect();
        let to_items = |best: Vec<(f64, Vec<usize>)>| {
            let mut out: Vec<(f64, Vec<usize>)> = best
                .into_iter()
                .map(|(v, ks)| (v, self.items_of(&cand, &ks)))
                .collect();
            out.sort_by(|a, b| b.0.total_cmp(&a.0));
            out
        };
        if dims == 1
            && exact
            && (n as u64).saturating_mul(self.capacity[0] + 1) <= self.settings.conflict_cells
        {
            let weights: Vec<u64> = cand.iter().map(|c| c.1[0]).collect();
            let values: Vec<f64> = cand.iter().map(|c| c.2).collect();
            let (best, complete, nodes) = ConflictSearch {
                weights: &weights,
                values: &values,
                conflicts: &conflicts,
                capacity: self.capacity[0],
                keep: self.settings.max_columns.max(1),
                floor: 1.0 + self.settings.improvement_tol,
                aim: self.aim,
                limit,
                deadline,
            }
            .run();
            return (to_items(best), complete, nodes);
        }
        // Surrogate rows `Σ_d λ_d w_d / C_d ≤ Σ_d λ_d`: each dimension alone, and for more
        // than one the average (two dimensions: also 1/4–3/4 both ways); per surrogate, the
        // candidates by value per unit of its size.
        let mut lambdas: Vec<Vec<f64>> = (0..dims)
            .map(|d| (0..dims).map(|e| f64::from(u8::from(d == e))).collect())
            .collect();
        if dims > 1 {
            lambdas.push(vec![1.0 / dims as f64; dims]);
        }
        if dims == 2 {
            lambdas.push(vec![0.25, 0.75]);
            lambdas.push(vec![0.75, 0.25]);
        }
        let cand_weights: Vec<&[u64]> = cand.iter().map(|c| c.1.as_slice()).collect();
        let cand_values: Vec<f64> = cand.iter().map(|c| c.2).collect();
        let surrogate =
            |lambda: &[f64]| Surrogate::new(lambda, &cand_weights, &cand_values, &self.capacity);
        let mut surrogates: Vec<Surrogate> = lambdas.iter().map(|l| surrogate(l)).collect();
        if dims == 2 && n > 0 {
            // The multipliers of the least Dantzig bound at the root (the surrogate dual of
            // the knapsack's LP relaxation, unimodal in the split): a golden-section search.
            let at = |mu: f64| {
                let sur = surrogate(&[mu, 1.0 - mu]);
                let b = sur.dantzig(&cand_values, 1.0, |_| false);
                (b, sur)
            };
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            let g = 0.5 * (5f64.sqrt() - 1.0);
            let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
            let (mut f1, mut f2) = (at(x1).0, at(x2).0);
            for _ in 0..24 {
                if f1 <= f2 {
                    hi = x2;
                    (x2, f2) = (x1, f1);
                    x1 = hi - g * (hi - lo);
                    f1 = at(x1).0;
                } else {
                    lo = x1;
                    (x1, f1) = (x2, f2);
                    x2 = lo + g * (hi - lo);
                    f2 = at(x2).0;
                }
            }
            surrogates.push(at(0.5 * (lo + hi)).1);
        }
        // In the exact search, the same rows in integers, each bounded by its suffix table
        // (when every row's table fits; otherwise the Dantzig bounds). Not in the quick one:
        // the tables' cost is fixed, and the quick search is cut short anyway.
        let tables: Vec<TableBound> = if exact && self.settings.table_cells > 0 {
            let share = self.settings.table_cells / surrogates.len() as u64;
            surrogates
                .iter()
                .map(|sur| TableBound::new(sur, &cand_weights, &cand_values, &self.capacity, share))
                .collect::<Option<Vec<TableBound>>>()
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        // A candidate that is an exact copy of the one before it (free of conflicts both).
        let twin: Vec<bool> = (0..n)
            .map(|k| {
                k > 0
                    && cand[k].1 == cand[k - 1].1
                    && cand[k].2 == cand[k - 1].2
                    && conflicts[k].is_empty()
                    && conflicts[k - 1].is_empty()
            })
            .collect();
        let mut s = State {
            cand: &cand,
            values: &cand_values,
            conflicts: &conflicts,
            surrogates: &surrogates,
            tables: &tables,
            twin: &twin,
            capacity: &self.capacity,
            blocked: vec![0u32; n],
            taken: Vec::new(),
            best: Vec::new(),
            keep: self.settings.max_columns.max(1),
            floor: 1.0 + self.settings.improvement_tol,
            aim: self.aim,
            nodes: 0,
            limit,
            deadline,
        };
        // Greedy first: a good incumbent prunes the search.
        let mut w = vec![0u64; dims];
        let mut v = 0.0;
        let mut greedy = Vec::new();
        let mut blocked = vec![false; n];
        for k in 0..n {
            if !blocked[k] && fits(&w, &cand[k].1, &self.capacity) {
                for (x, y) in w.iter_mut().zip(&cand[k].1) {
                    *x += y;
                }
                v += cand[k].2;
                greedy.push(k);
                for &c in &conflicts[k] {
                    blocked[c] = true;
                }
            }
        }
        s.offer(v, &greedy);
        let complete = s.dfs(0, &mut vec![0; dims], 0.0);
        let nodes = s.nodes;
        (to_items(s.best), complete, nodes)
    }
}

impl BinKnapsack {
    /// The 0-1 knapsack by dynamic programming over exact weights (no conflicts among the
    /// candidates): `f[w]` = the most value of a bin of weight exactly `w`; the best bins of
    /// distinct weights are read back, best first (distinct weights: distinct item sets).
    fn dynamic(&self, cand: &[(usize, Vec<u64>, f64)]) -> Searched {
        let cap = self.capacity[0] as usize;
        let n = cand.len();
        let mut f = vec![f64::NEG_INFINITY; cap + 1];
        f[0] = 0.0;
        // took.get(k, w): candidate k improved f[w].
        let mut took = Taken::new(n, cap + 1);
        for (k, (_, w, v)) in cand.iter().enumerate() {
            let w = w[0] as usize;
            if w <= cap {
                relax(&mut f, w, *v, Some(took.row(k)));
            }
        }
        let mut order: Vec<usize> = (0..=cap).filter(|&c| f[c] > 0.0).collect();
        order.sort_by(|&a, &b| f[b].total_cmp(&f[a]).then(a.cmp(&b)));
        let floor = 1.0 + self.settings.improvement_tol;
        let keep = self.settings.max_columns.max(1);
        let mut paths: Vec<(f64, Vec<usize>)> = Vec::new();
        for (rank, &c) in order.iter().enumerate() {
            if paths.len() >= keep || (rank > 0 && f[c] <= floor) {
                break;
            }
            let mut path = Vec::new();
            trace(&took, cand, n, c, &mut path);
            paths.push((f[c], path));
        }
        if paths.len() < keep && self.settings.deviations > 0 && !self.diving {
            paths.extend(self.deviations(cand, &paths, &took, floor, keep - paths.len()));
        }
        let out = paths
            .into_iter()
            .map(|(v, path)| (v, self.items_of(cand, &path)))
            .collect();
        (out, true, (n * (cap + 1)) as u64)
    }

    /// The items of the candidates `ks` (their together-groups), sorted.
    fn items_of(&self, cand: &[(usize, Vec<u64>, f64)], ks: &[usize]) -> Vec<usize> {
        let mut items: Vec<usize> = ks
            .iter()
            .flat_map(|&k| self.decisions.groups[cand[k].0].iter().copied())
            .collect();
        items.sort_unstable();
        items
    }

    /// More improving bins from the same table, for the tail of a root whose columns must all
    /// be full bins, where the distinct weights give one bin a call. Along each traceback of
    /// `paths`, a step may take, instead of the last candidate that improved its cell, one
    /// that improved it earlier (at most `deviations` of them a step, none a copy of the
    /// candidate it replaces): the best bin of that weight at that stage, completed the usual
    /// way. Each is a bin of the same weight, worth at most as much; those worth more than
    /// `floor` and new are returned, best first, at most `room`.
    fn deviations(
        &self,
        cand: &[(usize, Vec<u64>, f64)],
        paths: &[(f64, Vec<usize>)],
        took: &Taken,
        floor: f64,
        room: usize,
    ) -> Vec<(f64, Vec<usize>)> {
        let weight = |k: usize| cand[k].1[0] as usize;
        let twin = |a: usize, b: usize| cand[a].1 == cand[b].1 && cand[a].2 == cand[b].2;
        let sorted = |p: &[usize]| {
            let mut key = p.to_vec();
            key.sort_unstable();
            key
        };
        let mut seen: std::collections::HashSet<Vec<usize>> =
            paths.iter().map(|p| sorted(&p.1)).collect();
        let mut found: Vec<(f64, Vec<usize>)> = Vec::new();
        for (_, path) in paths {
            let mut w = path.iter().map(|&k| weight(k)).sum::<usize>();
            for (step, &k) in path.iter().enumerate() {
                let mut tried = 0;
                for alt in (0..k).rev() {
                    if tried >= self.settings.deviations {
                        break;
                    }
                    if !took.get(alt, w) || twin(alt, k) {
                        continue;
                    }
                    tried += 1;
                    let mut dev = path[..step].to_vec();
                    dev.push(alt);
                    let left = trace(took, cand, alt, w - weight(alt), &mut dev);
                    let value: f64 = dev.iter().map(|&j| cand[j].2).sum();
                    if left == 0 && value > floor && seen.insert(sorted(&dev)) {
                        found.push((value, dev));
                    }
                }
                w -= weight(k);
            }
        }
        found.sort_by(|a, b| b.0.total_cmp(&a.0));
        found.truncate(room);
        found
    }
}

/// The read-back of the one-dimensional table: the bin of weight `w` over the candidates below
/// `below`, each step taking the last candidate that improved the cell (the best bin of that
/// weight at its stage), pushed onto `path`. Returns the weight left (0 when the cell is
/// reached).
fn trace(
    took: &Taken,
    cand: &[(usize, Vec<u64>, f64)],
    mut below: usize,
    mut w: usize,
    path: &mut Vec<usize>,
) -> usize {
    while w > 0 {
        match (0..below).rev().find(|&k| took.get(k, w)) {
            Some(k) => {
                path.push(k);
                w -= cand[k].1[0] as usize;
                below = k;
            }
            None => break,
        }
    }
    w
}

/// `load + w ≤ capacity` in every dimension.
fn fits(load: &[u64], w: &[u64], capacity: &[u64]) -> bool {
    load.iter()
        .zip(w)
        .zip(capacity)
        .all(|((&l, &x), &c)| l + x <= c)
}

/// The depth-first search.
struct State<'a> {
    cand: &'a [(usize, Vec<u64>, f64)],
    /// The candidates' values (`cand[k].2`).
    values: &'a [f64],
    conflicts: &'a [Vec<usize>],
    /// The surrogate rows of the bound.
    surrogates: &'a [Surrogate],
    /// Their suffix tables (empty: their Dantzig bounds).
    tables: &'a [TableBound],
    /// `twin[k]`: candidate `k` is a conflict-free copy of `k − 1`.
    twin: &'a [bool],
    capacity: &'a [u64],
    /// How many taken groups conflict with each candidate.
    blocked: Vec<u32>,
    taken: Vec<usize>,
    /// The best bins found (value, candidate indices), at most `keep`, plus the overall best
    /// even below `floor`.
    best: Vec<(f64, Vec<usize>)>,
    keep: usize,
    floor: f64,
    /// Prune at this value even without a bin worth it.
    aim: f64,
    nodes: u64,
    limit: u64,
    deadline: &'a Deadline,
}

impl State<'_> {
    fn top(&self) -> f64 {
        self.best.iter().map(|b| b.0).fold(0.0, f64::max)
    }

    /// Records a bin: always the best so far, and improving ones up to `keep`.
    fn offer(&mut self, value: f64, ks: &[usize]) {
        if value > self.top() || value > self.floor {
            self.best.push((value, ks.to_vec()));
            self.best.sort_by(|a, b| b.0.total_cmp(&a.0));
            self.best.truncate(self.keep);
        }
    }

    /// The least over the surrogate rows of the Dantzig bound over candidates `k..` not
    /// blocked. Sizes are floats: the room is widened by `1e-9` so round-off cannot cut.
    fn bound(&self, k: usize, used: &[u64]) -> f64 {
        if !self.tables.is_empty() {
            return self
                .tables
                .iter()
                .map(|t| t.bound(k, used, self.capacity))
                .fold(f64::INFINITY, f64::min);
        }
        let mut least = f64::INFINITY;
        for sur in self.surrogates {
            let left: f64 = used
                .iter()
                .zip(self.capacity)
                .zip(&sur.per)
                .map(|((&u, &c), p)| (c - u) as f64 * p)
                .sum::<f64>()
                + 1e-9;
            let v = sur.dantzig(self.values, left, |c| c < k || self.blocked[c] > 0);
            least = least.min(v);
        }
        least
    }

    /// Explores candidates from `k` on; `false` when the node limit stopped it.
    fn dfs(&mut self, k: usize, used: &mut Vec<u64>, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit || (self.nodes.is_multiple_of(4096) && self.deadline.expired()) {
            return false;
        }
        // Prune on the best bin only: the others kept are the improving bins met on the way
        // (asking the search for the `keep` best would enumerate every bin above the floor).
        let cut = self.top().max(self.aim);
        if value + self.bound(k, used) <= cut + 1e-12 {
            return true;
        }
        let Some(next) = (k..self.cand.len())
            .find(|&c| self.blocked[c] == 0 && fits(used, &self.cand[c].1, self.capacity))
        else {
            let ks = self.taken.clone();
            self.offer(value, &ks);
            return true;
        };
        // Take `next`.
        let p = self.cand[next].2;
        self.taken.push(next);
        for &c in &self.conflicts[next] {
            self.blocked[c] += 1;
        }
        for (u, x) in used.iter_mut().zip(&self.cand[next].1) {
            *u += x;
        }
        let done = self.dfs(next + 1, used, value + p);
        for (u, x) in used.iter_mut().zip(&self.cand[next].1) {
            *u -= x;
        }
        for &c in &self.conflicts[next] {
            self.blocked[c] -= 1;
        }
        self.taken.pop();
        if !done {
            return false;
        }
        // Leave it, and its copies after it: a bin without `next` but with a later copy is a
        // bin with `next` already explored.
        let mut skip = next + 1;
        while skip < self.cand.len() && self.twin[skip] {
            skip += 1;
        }
        for c in next..skip {
            self.blocked[c] += 1;
        }
        let done = self.dfs(skip, used, value);
        for c in next..skip {
            self.blocked[c] -= 1;
        }
        done
    }
}

impl Pricing for BinKnapsack {
    /// A quick search first (`quick_nodes`); the exact one only when it found no improving
    /// bin (while diving, never: the dive wants cheap columns, not proofs).
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        if let Some(covered) = self.covered.take() {
            let priced = price_uncovered(&covered, duals, |v| self.price(v, deadline));
            self.covered = Some(covered);
            return priced;
        }
        let st = &self.settings;
        Ok(quick_then_exact(
            |limit, exact| self.search_within(duals, limit, exact, deadline),
            st.quick_nodes,
            st.node_limit,
            1.0 + st.improvement_tol,
            self.aim,
            self.diving,
        ))
    }

    fn aim(&mut self, enough: f64) {
        self.aim = enough;
    }

    /// `residual` per item (an empty slice from a caller whose rows are not the items, such
    /// as the aggregated pricing over copies: then only the quick search is switched on).
    fn dive(&mut self, residual: &[f64]) {
        self.diving = true;
        self.covered = covered_items(residual, self.weights.len());
    }

    fn end_dive(&mut self) {
        self.diving = false;
        self.covered = None;
    }

    fn can_enumerate(&self) -> bool {
        self.capacity.len() == 1 && !self.decided
    }

    /// One dimension and no decision: every maximal bin worth `min_value`.
    fn enumerate(
        &mut self,
        duals: &[f64],
        min_value: f64,
        bins: u64,
        limit: usize,
        deadline: &Deadline,
    ) -> Result<Option<Vec<Column>>> {
        if !self.can_enumerate() {
            return Ok(None);
        }
        let weights: Vec<u64> = self.weights.iter().map(|w| w[0]).collect();
        let counts = vec![1; weights.len()];
        Ok(maximal_columns(
            &weights,
            duals,
            &counts,
            self.capacity[0],
            min_value,
            waste_budget(&weights, &counts, self.capacity[0], bins),
            limit,
            self.settings.enumeration_cells,
            deadline,
        ))
    }
}

impl BranchPricing for BinKnapsack {
    fn restrict(&mut self, together: &[(usize, usize)], apart: &[(usize, usize)]) {
        self.decided = !together.is_empty() || !apart.is_empty();
        self.decisions = Decisions::new(self.weights.len(), together, apart);
    }
}
