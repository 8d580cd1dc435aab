//! Integer chord bounds for the exact SOC search (`search.rs`): for each piece `[S_k,
//! S_{k+1}]` of the search's chord relaxation, the suffix table of the 0-1 knapsack of its
//! linear row over the candidates in the search's order.
//!
//! A completion `R` of a node with sums `(A, B)` whose bin ends with `Σb` in piece `k`
//! satisfies `Σ_{i∈R} w_i ≤ ρ_k(A, B)` with `w_i = a_i + Dσ_k b_i` and `ρ_k = c − A −
//! D(√S_k + σ_k(B − S_k))`. Each row is put on a grid of `s_k` cells per unit of load, its
//! weights rounded *down* (`⌊w_i s_k⌋ ≤ w_i s_k`, so `Σ ⌊w_i s_k⌋ ≤ ⌊ρ_k s_k⌋`): every such
//! completion stays within the row's cells, and the table's value of candidates `k..` within
//! `⌊ρ_k s_k⌋` bounds it. The node's bound is the largest over the pieces its `Σb` can
//! reach: one read a piece, integral in the candidates (no fractional item), where the
//! Dantzig bound of the same rows is a pass over the candidates. Conflicts and candidates that
//! no longer fit are ignored (a relaxation). `models/packing.md` §8.

use super::chords::{node_room, slope};
use super::instance::{Instance, TOL};
use super::search::Cand;
use crate::colgen::SuffixTable;

/// The tables of one call's exact search.
pub(super) struct ChordTables {
    /// Per piece `[lo, hi]` of `Σb`: its ends, chord slope, cells per unit of load and
    /// table (pieces whose row has no room are left out: no bin ends there).
    rows: Vec<Row>,
    /// What a bin whose `Σb` ends in a piece left out is worth at most.
    left_out: f64,
}

struct Row {
    lo: f64,
    hi: f64,
    slope: f64,
    scale: f64,
    table: SuffixTable,
}

/// A relative margin far above the round-off of a product, so that a weight's cell is never
/// above its exact value and a room's never below.
const MARGIN: f64 = 1e-12;

impl ChordTables {
    /// The tables of the rows of `pieces` (their ends) over `cand` (in the search's order),
    /// `cells` cells over all rows together (each row at most `max_width` cells wide); `None`
    /// when a row would get fewer than 2 cells. The pieces must cover every `Σb` a bin can
    /// end with, except pieces where no bin is worth more than `left_out` (the grid's rows
    /// prove that for the pieces below the search's aim, which need no table).
    pub fn new(
        inst: &Instance,
        cand: &[Cand],
        pieces: &[(f64, f64)],
        left_out: f64,
        cells: usize,
        max_width: usize,
    ) -> Option<ChordTables> {
        let n = cand.len();
        let width = (cells / (pieces.len().max(1) * (n + 1))).min(max_width);
        if width < 2 {
            return None;
        }
        let cap = inst.capacity * (1.0 + TOL);
        let values: Vec<f64> = cand.iter().map(|c| c.v).collect();
        let rows = pieces
            .iter()
            .filter_map(|&(lo, hi)| {
                let slope = if inst.d > 0.0 { slope((lo, hi)) } else { 0.0 };
                // The row's room at `A = 0, B = 0`, its largest (`ρ_k` falls with `A` and,
                // since `σ_k ≥ 0`, with `B`), plus the search's slack.
                let room = node_room(cap, inst.d, inst.capacity, (lo, slope), (0.0, 0.0));
                if room <= 0.0 {
                    return None;
                }
                let scale = width as f64 / room;
                let weights: Vec<u64> = cand
                    .iter()
                    .map(|c| {
                        let w = (c.a + inst.d * slope * c.b).max(0.0);
                        (w * scale * (1.0 - MARGIN)).floor().max(0.0) as u64
                    })
                    .collect();
                Some(Row {
                    lo,
                    hi,
                    slope,
                    scale,
                    table: SuffixTable::new(weights, values.clone(), width),
                })
            })
            .collect();
        Some(ChordTables { rows, left_out })
    }

    /// The bound on what candidates `k..` add to a node with sums `(a, b)` and `value`, whose
    /// bin's final `Σb` lies in `[b, top]`: the largest over the reachable pieces (stopping
    /// early once above `cut`), and what the pieces left out allow.
    pub fn bound(
        &self,
        inst: &Instance,
        (k, a, b, top): (usize, f64, f64, f64),
        value: f64,
        cut: f64,
    ) -> f64 {
        let cap = inst.capacity * (1.0 + TOL);
        let mut best = (self.left_out - value).max(0.0);
        for r in &self.rows {
            // (The top piece ends at the most `Σb` a bin holds; a relative 1e-9 beyond it
            // for the round-off of the capacity test.)
            if r.hi * (1.0 + 1e-9) < b || r.lo > top {
                continue;
            }
            let room = node_room(cap, inst.d, inst.capacity, (r.lo, r.slope), (a, b));
            if room < 0.0 {
                continue;
            }
            let cells = (room * r.scale * (1.0 + MARGIN)).floor() as usize;
            best = best.max(r.table.best(k, cells.min(r.table.cap())));
            if best > cut {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::chords::pieces;
    use super::super::selfcheck::random_case;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// At random nodes of random instances (items `..k` decided, some taken), the tables'
    /// bound is never below the best completion from items `k..`, found by enumeration: on
    /// every piece at coarse and fine cells and chord gaps, and with a piece left out and the
    /// best bin ending in it as `left_out`. With fine cells it is often within a few percent.
    #[test]
    fn never_below_the_best_completion() {
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let mut close = 0;
        for case in 0..400 {
            let inst = random_case(&mut rng, case);
            let n = inst.len();
            let cand: Vec<Cand> = (0..n)
                .map(|i| Cand {
                    group: i,
                    a: inst.a[i],
                    b: inst.b[i],
                    v: rng.random_range(0.01..1.0),
                })
                .collect();
            let terms: Vec<(f64, f64, f64)> = cand.iter().map(|c| (c.a, c.b, c.v)).collect();
            let all: Vec<usize> = (0..n).collect();
            let cap = inst.capacity * (1.0 + TOL);
            let gap = [0.001, 0.05, 0.3][case % 3];
            let mut ps = pieces(cap, inst.d, &terms, &all, gap);
            let width = [3, 40, 5_000][(case / 3) % 3];
            // A node: items `..k` decided, a random fitting part of them taken.
            let k = rng.random_range(0..=n);
            let mut taken = Vec::new();
            for i in 0..k {
                let (a, b) = inst.sums(&[taken.clone(), vec![i]].concat());
                if rng.random_bool(0.4) && inst.fits(a, b) {
                    taken.push(i);
                }
            }
            let (a, b) = inst.sums(&taken);
            let value: f64 = taken.iter().map(|&i| cand[i].v).sum();
            // The completions from `k..`, with the piece their bin ends in.
            let piece_of =
                |s: f64, ps: &[(f64, f64)]| ps.iter().position(|&(lo, hi)| s >= lo && s <= hi);
            let mut completions = Vec::new();
            for mask in 0u32..1 << (n - k) {
                let r: Vec<usize> = (k..n).filter(|&i| mask >> (i - k) & 1 == 1).collect();
                let (ra, rb) = inst.sums(&r);
                if inst.fits(a + ra, b + rb) {
                    let v: f64 = r.iter().map(|&i| cand[i].v).sum();
                    completions.push((v, b + rb));
                }
            }
            let best = completions.iter().map(|c| c.0).fold(0.0, f64::max);
            // Optionally a piece left out, with what its bins are worth.
            let mut left_out = 0.0;
            if case % 2 == 1 && ps.len() > 1 {
                let gone = rng.random_range(0..ps.len());
                for &(v, s) in &completions {
                    if piece_of(s, &ps) == Some(gone) {
                        left_out = f64::max(left_out, value + v);
                    }
                }
                ps.remove(gone);
            }
            let cells = width * ps.len().max(1) * (n + 1);
            let Some(t) = ChordTables::new(&inst, &cand, &ps, left_out, cells, width) else {
                continue;
            };
            let top = b + cand[k..].iter().map(|c| c.b).sum::<f64>();
            let bound = t.bound(&inst, (k, a, b, top), value, f64::INFINITY);
            assert!(
                bound >= best - 1e-9,
                "case {case}: bound {bound} below the best completion {best}"
            );
            close += usize::from(width == 5_000 && gap == 0.001 && bound <= best * 1.02 + 1e-9);
        }
        assert!(close >= 10, "only {close} fine bounds within 2%");
    }
}
