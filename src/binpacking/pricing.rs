//! The pricing of bin packing under Ryan–Foster decisions: a 0-1 knapsack whose items are the
//! together-groups (weights and duals summed) and whose conflicts are the apart pairs, solved
//! exactly by depth-first branch-and-bound (items by dual per unit weight, the Dantzig bound
//! of the fractional knapsack over the items left that do not conflict with those taken).

use crate::colgen::{BranchPricing, Column, Priced, Pricing};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Pricing settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingSettings {
    /// Search nodes of one call at most (then the answer proves nothing).
    pub node_limit: u64,
    /// Improving columns returned per call at most (the best found).
    pub max_columns: usize,
    /// A column must be worth more than `1 + improvement_tol`.
    pub improvement_tol: f64,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            node_limit: 5_000_000,
            max_columns: 10,
            improvement_tol: 1e-9,
        }
    }
}

/// The oracle: item weights, capacity, and the current decisions.
pub struct BinKnapsack {
    weights: Vec<u64>,
    capacity: u64,
    settings: PricingSettings,
    /// Members of each group (a group is an item or a together-set).
    groups: Vec<Vec<usize>>,
    /// Per group, the groups it may not share a bin with.
    conflicts: Vec<Vec<usize>>,
    /// Groups that hold both items of an apart pair: no bin may take them.
    forbidden: Vec<bool>,
}

impl BinKnapsack {
    /// The oracle with no decisions.
    pub fn new(weights: &[u64], capacity: u64, settings: PricingSettings) -> BinKnapsack {
        let mut k = BinKnapsack {
            weights: weights.to_vec(),
            capacity,
            settings,
            groups: Vec::new(),
            conflicts: Vec::new(),
            forbidden: Vec::new(),
        };
        k.restrict(&[], &[]);
        k
    }

    /// The most valuable bins at `values` (per item), best first, and whether the search
    /// completed (then the first is the exact optimum).
    pub fn search(&self, values: &[f64]) -> (Vec<(f64, Vec<usize>)>, bool, u64) {
        // Candidate groups: positive value, fitting alone.
        let mut cand: Vec<(usize, u64, f64)> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, m)| {
                let w: u64 = m.iter().map(|&i| self.weights[i]).sum();
                let v: f64 = m.iter().map(|&i| values[i].max(0.0)).sum();
                (g, w, v)
            })
            .filter(|&(g, w, v)| v > 0.0 && w <= self.capacity && !self.forbidden[g])
            .collect();
        cand.sort_by(|a, b| {
            (b.2 / b.1 as f64)
                .total_cmp(&(a.2 / a.1 as f64))
                .then(a.0.cmp(&b.0))
        });
        let n = cand.len();
        let index: std::collections::HashMap<usize, usize> =
            cand.iter().enumerate().map(|(k, c)| (c.0, k)).collect();
        let conflicts: Vec<Vec<usize>> = cand
            .iter()
            .map(|c| {
                self.conflicts[c.0]
                    .iter()
                    .filter_map(|g| index.get(g).copied())
                    .collect()
            })
            .collect();
        let mut s = State {
            cand: &cand,
            conflicts: &conflicts,
            capacity: self.capacity,
            blocked: vec![0u32; n],
            taken: Vec::new(),
            best: Vec::new(),
            keep: self.settings.max_columns.max(1),
            floor: 1.0 + self.settings.improvement_tol,
            nodes: 0,
            limit: self.settings.node_limit,
        };
        // Greedy first: a good incumbent prunes the search.
        let mut w = 0;
        let mut v = 0.0;
        let mut greedy = Vec::new();
        let mut blocked = vec![false; n];
        for k in 0..n {
            if !blocked[k] && w + cand[k].1 <= self.capacity {
                w += cand[k].1;
                v += cand[k].2;
                greedy.push(k);
                for &c in &conflicts[k] {
                    blocked[c] = true;
                }
            }
        }
        s.offer(v, &greedy);
        let complete = s.dfs(0, 0, 0.0);
        let nodes = s.nodes;
        let mut out: Vec<(f64, Vec<usize>)> = s
            .best
            .into_iter()
            .map(|(v, ks)| {
                let mut items: Vec<usize> = ks
                    .iter()
                    .flat_map(|&k| self.groups[cand[k].0].iter().copied())
                    .collect();
                items.sort_unstable();
                (v, items)
            })
            .collect();
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        (out, complete, nodes)
    }
}

/// The depth-first search.
struct State<'a> {
    cand: &'a [(usize, u64, f64)],
    conflicts: &'a [Vec<usize>],
    capacity: u64,
    /// How many taken groups conflict with each candidate.
    blocked: Vec<u32>,
    taken: Vec<usize>,
    /// The best bins found (value, candidate indices), at most `keep`, plus the overall best
    /// even below `floor`.
    best: Vec<(f64, Vec<usize>)>,
    keep: usize,
    floor: f64,
    nodes: u64,
    limit: u64,
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

    /// The Dantzig bound over candidates `k..` not blocked.
    fn bound(&self, k: usize, room: u64) -> f64 {
        let mut left = room;
        let mut v = 0.0;
        for c in k..self.cand.len() {
            if self.blocked[c] > 0 {
                continue;
            }
            let (_, w, p) = self.cand[c];
            if w <= left {
                left -= w;
                v += p;
            } else {
                v += p * left as f64 / w as f64;
                break;
            }
        }
        v
    }

    /// Explores candidates from `k` on; `false` when the node limit stopped it.
    fn dfs(&mut self, k: usize, used: u64, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return false;
        }
        let room = self.capacity - used;
        // What a bin must beat to matter: the best (its value must be exact), and while fewer
        // than `keep` bins are held, anything improving; then the worst one kept.
        let cut = if self.best.len() >= self.keep {
            self.best.last().map_or(0.0, |b| b.0)
        } else {
            self.top().min(self.floor)
        };
        if value + self.bound(k, room) <= cut + 1e-12 {
            return true;
        }
        let Some(next) =
            (k..self.cand.len()).find(|&c| self.blocked[c] == 0 && self.cand[c].1 <= room)
        else {
            let ks = self.taken.clone();
            self.offer(value, &ks);
            return true;
        };
        // Take `next`.
        let (_, w, p) = self.cand[next];
        self.taken.push(next);
        for &c in &self.conflicts[next] {
            self.blocked[c] += 1;
        }
        let done = self.dfs(next + 1, used + w, value + p);
        for &c in &self.conflicts[next] {
            self.blocked[c] -= 1;
        }
        self.taken.pop();
        if !done {
            return false;
        }
        // Leave it.
        self.blocked[next] += 1;
        let done = self.dfs(next + 1, used, value);
        self.blocked[next] -= 1;
        done
    }
}

impl Pricing for BinKnapsack {
    fn price(&mut self, duals: &[f64], _deadline: &Deadline) -> Result<Priced> {
        let (bins, complete, nodes) = self.search(duals);
        let best = bins.first().map_or(0.0, |b| b.0);
        let columns: Vec<(Column, f64)> = bins
            .into_iter()
            .map(|(v, items)| (items.into_iter().map(|i| (i, 1.0)).collect(), v))
            .collect();
        Ok(Priced {
            columns,
            proven_max: complete.then_some(best),
            upper_bound: None,
            nodes,
        })
    }
}

impl BranchPricing for BinKnapsack {
    fn restrict(&mut self, together: &[(usize, usize)], apart: &[(usize, usize)]) {
        let n = self.weights.len();
        let mut rep: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while p[r] != r {
                r = p[r];
            }
            p[x] = r;
            r
        }
        for &(i, j) in together {
            let (a, b) = (find(&mut rep, i), find(&mut rep, j));
            if a != b {
                rep[a.max(b)] = a.min(b);
            }
        }
        let mut group_of = vec![usize::MAX; n];
        self.groups.clear();
        for i in 0..n {
            let r = find(&mut rep, i);
            if group_of[r] == usize::MAX {
                group_of[r] = self.groups.len();
                self.groups.push(Vec::new());
            }
            group_of[i] = group_of[r];
            self.groups[group_of[i]].push(i);
        }
        self.conflicts = vec![Vec::new(); self.groups.len()];
        self.forbidden = vec![false; self.groups.len()];
        for &(i, j) in apart {
            let (a, b) = (group_of[i], group_of[j]);
            if a == b {
                self.forbidden[a] = true;
            } else {
                self.conflicts[a].push(b);
                self.conflicts[b].push(a);
            }
        }
    }
}
