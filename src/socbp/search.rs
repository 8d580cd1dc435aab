//! The exact depth-first search of the SOC pricing (`pricing.rs`): candidates by value per
//! unit of load, copies never permuted, pruned by the piecewise-chord Dantzig bound and, when
//! given, the Lagrangian bound (`lagrange.rs`). The bound at a node (taken sums `A`, `B`; items
//! left `R`): the bin's final `S = B + b(R)` lies in one piece `[S_k, S_{k+1}]` of a fixed grid
//! over `[0, (c/D)²]`, where the concave `√S` is above its chord; so in that piece `a(R) +
//! Dσ_k·b(R) ≤ c − A − D(√S_k + σ_k(B − S_k))`, a linear knapsack whose Dantzig value bounds
//! the completions ending there, and the node's bound is the largest over the pieces `R` can
//! reach (`models/packing.md` §8).

use super::chord_tables::ChordTables;
use super::chords::node_room;
use super::instance::{Instance, TOL};
use super::lagrange::Lagrange;
use crate::solver::Deadline;

/// A candidate group: its index, `Σa`, `Σb`, value.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cand {
    pub(super) group: usize,
    pub(super) a: f64,
    pub(super) b: f64,
    pub(super) v: f64,
}

/// `v / w`, infinite for a weightless candidate of positive value.
pub(super) fn ratio(v: f64, w: f64) -> f64 {
    if w > 0.0 {
        v / w
    } else {
        f64::INFINITY
    }
}

/// The pieces `[S_k, S_{k+1}]` of the chord relaxation: `0`, then `count` geometric steps from
/// the least positive `b` among the candidates (at least `B_cap/4096`) to
/// `B_cap = (c/D)²`, the most `Σb` a bin holds. Without a root term: one piece of slope 0.
pub(super) fn pieces(inst: &Instance, cand: &[Cand], count: usize) -> Vec<Piece> {
    let b_min = cand
        .iter()
        .map(|c| c.b)
        .filter(|&b| b > 0.0)
        .fold(f64::INFINITY, f64::min);
    let flat = vec![Piece {
        lo: 0.0,
        hi: f64::INFINITY,
        slope: 0.0,
    }];
    if inst.d <= 0.0 || !b_min.is_finite() {
        return flat;
    }
    let b_cap = (inst.capacity * (1.0 + TOL) / inst.d).powi(2);
    let first = b_min.max(b_cap / 4096.0).min(b_cap);
    let mut ends = vec![0.0, first];
    let steps = count.max(1);
    let ratio = (b_cap / first).powf(1.0 / steps as f64);
    for k in 1..=steps {
        ends.push(if k == steps {
            b_cap
        } else {
            first * ratio.powi(k as i32)
        });
    }
    ends.dedup_by(|x, y| *x <= *y);
    let mut out: Vec<Piece> = ends
        .windows(2)
        .map(|w| Piece {
            lo: w[0],
            hi: w[1],
            slope: (w[1].sqrt() - w[0].sqrt()) / (w[1] - w[0]),
        })
        .collect();
    // Beyond B_cap no bin goes; the last piece is open-ended for round-off.
    if let Some(last) = out.last_mut() {
        last.hi = f64::INFINITY;
    }
    out
}

/// A piece of the chord relaxation: `√S ≥ √lo + slope·(S − lo)` on `[lo, hi]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) slope: f64,
}

/// The depth-first search.
pub(super) struct Search<'a> {
    pub(super) inst: &'a Instance,
    pub(super) cand: &'a [Cand],
    pub(super) conflicts: &'a [Vec<usize>],
    /// `twin[k]`: candidate `k` is a conflict-free copy of `k − 1`.
    pub(super) twin: &'a [bool],
    /// The pieces, and per piece the candidates by value per unit of linearised weight.
    pub(super) grid: &'a [Piece],
    pub(super) orders: &'a [Vec<usize>],
    /// The Lagrangian bound's tables over the candidates in order, when used.
    pub(super) lag: Option<&'a Lagrange>,
    /// The chord rows' integer tables over the candidates in order, when used.
    pub(super) tables: Option<&'a ChordTables>,
    pub(super) blocked: Vec<u32>,
    /// Scratch of [`Search::bound`]: which candidates are open at the node.
    pub(super) open_at: Vec<bool>,
    pub(super) taken: Vec<usize>,
    pub(super) best: Vec<(f64, Vec<usize>)>,
    pub(super) keep: usize,
    pub(super) floor: f64,
    /// Prune at this value even without a bin worth it.
    pub(super) aim: f64,
    /// A bin above this loses the call's proof (`after_improving` counts from it).
    pub(super) enough: f64,
    /// Nodes allowed once an improving bin is held, and the node count when one first was.
    pub(super) after_improving: u64,
    pub(super) improving_at: Option<u64>,
    pub(super) nodes: u64,
    pub(super) limit: u64,
    pub(super) deadline: &'a Deadline,
}

impl Search<'_> {
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

    /// A suggested bin made feasible: its candidates in order while they fit and conflict
    /// with none kept, then any other candidate that fits, in order; offered.
    pub(super) fn repair(&mut self, suggested: &[usize]) {
        let (mut a, mut b, mut v) = (0.0, 0.0, 0.0);
        let mut blocked = vec![false; self.cand.len()];
        let mut ks = Vec::new();
        let rest = (0..self.cand.len()).filter(|k| !suggested.contains(k));
        for k in suggested.iter().copied().chain(rest) {
            let c = &self.cand[k];
            if !blocked[k] && self.inst.fits(a + c.a, b + c.b) {
                (a, b, v) = (a + c.a, b + c.b, v + c.v);
                ks.push(k);
                for &x in &self.conflicts[k] {
                    blocked[x] = true;
                }
            }
        }
        self.offer(v, &ks);
    }

    /// Whether candidate `c` is still available at `k` with sums `(a, b)`.
    fn open(&self, c: usize, k: usize, a: f64, b: f64) -> bool {
        c >= k && self.blocked[c] == 0 && self.inst.fits(a + self.cand[c].a, b + self.cand[c].b)
    }

    /// The piecewise-chord bound on what candidates `k..` can add to sums `(a, b)` and
    /// `value`: the largest over the pieces the bin can end in (stopping early once above
    /// `cut`) of the rows' integer tables when given, else (or when those are above `cut`)
    /// their Dantzig bounds.
    pub(super) fn bound(&mut self, k: usize, a: f64, b: f64, value: f64, cut: f64) -> f64 {
        let mut total_b = 0.0;
        let mut any = false;
        let mut open_at = std::mem::take(&mut self.open_at);
        open_at.resize(self.cand.len(), false);
        // Whether each candidate fits, without a square root or a branch: `r ≥ 0` and
        // `D²(B + b) ≤ r²` with `r = c − A − a`, loosened by far more than the round-off,
        // so every candidate `open` admits is here (a relaxation; the bound stays valid).
        let inst = self.inst;
        let room = inst.capacity * (1.0 + TOL) - a;
        let d2 = inst.d * inst.d;
        let slack = 1e-9 * inst.capacity;
        for (c, open) in open_at.iter_mut().enumerate().skip(k) {
            let x = &self.cand[c];
            let r = room - x.a;
            let ok = (self.blocked[c] == 0)
                & (r >= -slack)
                & (d2 * (b + x.b) <= (r * r + slack) * (1.0 + 1e-9));
            *open = ok;
            total_b += if ok { x.b } else { 0.0 };
            any |= ok;
        }
        let best = if any {
            let top = self.top_b(a, b, total_b);
            let table = self
                .tables
                .map_or(f64::INFINITY, |t| t.bound(inst, (k, a, b, top), value, cut));
            if table <= cut {
                table
            } else {
                self.pieces_bound(k, a, b, cut, top, &open_at).min(table)
            }
        } else {
            0.0
        };
        self.open_at = open_at;
        best
    }

    /// The most `Σb` the bin of a node with sums `(a, b)` can end with, given the open
    /// candidates' total `Σb`.
    fn top_b(&self, a: f64, b: f64, total_b: f64) -> f64 {
        let inst = self.inst;
        let cap = inst.capacity * (1.0 + TOL);
        let mut t = total_b;
        if inst.d > 0.0 {
            t = t.min(((cap - a) / inst.d).powi(2) - b);
        }
        b + t.max(0.0)
    }

    /// [`Search::bound`] over the pieces, given the candidates open at the node
    /// (`open_at[c]` for `c ≥ k`) and the most `Σb` its bin can end with.
    fn pieces_bound(&self, k: usize, a: f64, b: f64, cut: f64, top: f64, open_at: &[bool]) -> f64 {
        let inst = self.inst;
        let cap = inst.capacity * (1.0 + TOL);
        let mut best = 0.0f64;
        for (p, order) in self.grid.iter().zip(self.orders) {
            if p.hi < b || p.lo > top {
                continue;
            }
            let mut room = node_room(cap, inst.d, inst.capacity, (p.lo, p.slope), (a, b));
            if room < 0.0 {
                continue;
            }
            let mut v = 0.0;
            for &c in order {
                if c < k || !open_at[c] {
                    continue;
                }
                let x = &self.cand[c];
                let w = x.a + inst.d * p.slope * x.b;
                if w <= room {
                    room -= w;
                    v += x.v;
                } else {
                    v += x.v * room / w;
                    break;
                }
            }
            best = best.max(v);
            if best > cut {
                break;
            }
        }
        best
    }

    /// Explores candidates from `k` on with sums `(a, b)` and `value`; `false` when a limit
    /// stopped it.
    pub(super) fn dfs(&mut self, k: usize, a: f64, b: f64, value: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit || (self.nodes.is_multiple_of(4096) && self.deadline.expired()) {
            return false;
        }
        if self.improving_at.is_none() && self.top() > self.enough {
            self.improving_at = Some(self.nodes);
        }
        if self
            .improving_at
            .is_some_and(|at| self.nodes - at > self.after_improving)
        {
            return false;
        }
        let cut = self.top().max(self.aim) + 1e-12 - value;
        if self.bound(k, a, b, value, cut) <= cut
            || self.lag.is_some_and(|l| l.bound(k, a, b, cut) <= cut)
        {
            return true;
        }
        let Some(next) = (k..self.cand.len()).find(|&c| self.open(c, k, a, b)) else {
            let ks = self.taken.clone();
            self.offer(value, &ks);
            return true;
        };
        let x = self.cand[next];
        self.taken.push(next);
        for &c in &self.conflicts[next] {
            self.blocked[c] += 1;
        }
        let done = self.dfs(next + 1, a + x.a, b + x.b, value + x.v);
        for &c in &self.conflicts[next] {
            self.blocked[c] -= 1;
        }
        self.taken.pop();
        if !done {
            return false;
        }
        // Leave it and its copies after it (a bin with a later copy instead is one with
        // `next`, already explored).
        let mut skip = next + 1;
        while skip < self.cand.len() && self.twin[skip] {
            skip += 1;
        }
        for c in next..skip {
            self.blocked[c] += 1;
        }
        let done = self.dfs(skip, a, b, value);
        for c in next..skip {
            self.blocked[c] -= 1;
        }
        done
    }
}
