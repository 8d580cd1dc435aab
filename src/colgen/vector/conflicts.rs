//! The exact 1-D pricing under apart pairs: a depth-first search over the candidates that
//! conflict with another, the rest read back from a suffix table ([`SuffixTable`]).
//!
//! Ryan–Foster branching leaves a node's pricing with a handful of apart pairs among a few
//! hundred candidates. The general branch-and-bound ([`super::knapsack`]) bounds by the
//! Dantzig bound and, on ANI 201 (201 items, capacity 2,048), ran out of its 5,000,000 nodes
//! at depth 6 and below, leaving the node's LP unproven. Here the candidates in a conflict
//! come first in the order and the others after them; the table `g[k][r]` (the best value of
//! the candidates from `k` on within room `r`, conflicts ignored) bounds every node, and once
//! the conflicted candidates are decided it is exact, so the free ones are read back from it
//! without search. The nodes are at most `2^m` for `m` conflicted candidates, and the table
//! prunes nearly all of them.

use crate::colgen::SuffixTable;
use crate::solver::Deadline;

/// What the search needs: candidates (1-D weight, value), their conflicts (indices into the
/// candidates), the capacity, and the pruning thresholds.
pub(super) struct ConflictSearch<'a> {
    /// Per candidate, its weight.
    pub weights: &'a [u64],
    /// Per candidate, its value (> 0).
    pub values: &'a [f64],
    /// Per candidate, the candidates it may not share a bin with (symmetric).
    pub conflicts: &'a [Vec<usize>],
    /// The bin's capacity.
    pub capacity: u64,
    /// Bins kept at most (the best found above `floor`, and always the best overall).
    pub keep: usize,
    /// A bin is kept beside the best when worth more than this.
    pub floor: f64,
    /// Prune at this value even without a bin worth it.
    pub aim: f64,
    /// Search nodes at most (then the answer proves nothing).
    pub limit: u64,
    /// Stop (not complete) once it passes, checked every 4,096 nodes.
    pub deadline: &'a Deadline,
}

/// The search's own state.
struct State<'a> {
    /// The order: the conflicted candidates, then the free ones.
    seq: Vec<usize>,
    /// How many of `seq` are conflicted.
    conflicted: usize,
    /// The suffix table over `seq`.
    g: SuffixTable,
    /// Per candidate, how many taken ones conflict with it.
    blocked: Vec<u32>,
    /// The conflicted candidates taken so far.
    taken: Vec<usize>,
    /// The bins found (value, candidates), best first, at most `keep`.
    best: Vec<(f64, Vec<usize>)>,
    nodes: u64,
    ask: &'a ConflictSearch<'a>,
}

impl ConflictSearch<'_> {
    /// The best bins (value, candidate indices), best first, whether the search completed
    /// (then the first is the exact optimum, or none beats `aim`), and the nodes.
    pub fn run(&self) -> (Vec<(f64, Vec<usize>)>, bool, u64) {
        let n = self.weights.len();
        let cap = self.capacity as usize;
        // The conflicted candidates first, each group in the caller's order.
        let mut seq: Vec<usize> = (0..n).filter(|&c| !self.conflicts[c].is_empty()).collect();
        let conflicted = seq.len();
        seq.extend((0..n).filter(|&c| self.conflicts[c].is_empty()));
        let w: Vec<u64> = seq.iter().map(|&c| self.weights[c]).collect();
        let v: Vec<f64> = seq.iter().map(|&c| self.values[c]).collect();
        let mut s = State {
            g: SuffixTable::new(w, v, cap),
            seq,
            conflicted,
            blocked: vec![0; n],
            taken: Vec::new(),
            best: Vec::new(),
            nodes: 0,
            ask: self,
        };
        let complete = s.dfs(0, cap, 0.0);
        let mut best = s.best;
        best.sort_by(|a, b| b.0.total_cmp(&a.0));
        (best, complete, s.nodes)
    }
}

impl State<'_> {
    fn top(&self) -> f64 {
        self.best.iter().map(|b| b.0).fold(0.0, f64::max)
    }

    /// Decides `seq[k..conflicted]` with `room` left and `value` so far; false when the node
    /// limit or the deadline stopped it.
    fn dfs(&mut self, k: usize, room: usize, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.ask.limit
            || (self.nodes.is_multiple_of(4096) && self.ask.deadline.expired())
        {
            return false;
        }
        let top = value + self.g.best(k, room);
        // As the branch-and-bound: prune on the best bin only (and the aim).
        if top <= self.top().max(self.ask.aim) + 1e-12 {
            return true;
        }
        if k == self.conflicted {
            let mut ks = self.taken.clone();
            ks.extend(self.g.fill(k, room).into_iter().map(|j| self.seq[j]));
            if top > self.top() || top > self.ask.floor {
                self.best.push((top, ks));
                self.best.sort_by(|a, b| b.0.total_cmp(&a.0));
                self.best.truncate(self.ask.keep.max(1));
            }
            return true;
        }
        let c = self.seq[k];
        let w = self.ask.weights[c] as usize;
        if self.blocked[c] == 0 && w <= room {
            for &o in &self.ask.conflicts[c] {
                self.blocked[o] += 1;
            }
            self.taken.push(c);
            let done = self.dfs(k + 1, room - w, value + self.ask.values[c]);
            self.taken.pop();
            for &o in &self.ask.conflicts[c] {
                self.blocked[o] -= 1;
            }
            if !done {
                return false;
            }
        }
        self.dfs(k + 1, room, value)
    }
}
