//! A Lagrangian bound for the conic knapsack `max v·x`, `a·x + D√(b·x) ≤ c`, `x ∈ {0,1}ⁿ`,
//! exact in the `a` row and relaxed in the root term.
//!
//! For a completion `R` of a partial bin with sums `(A, B)`: `B + b(R) ≤ ((c − A − a(R))/D)²`.
//! Dualise that row with `λ ≥ 0` and round each `a_i` *down* to a grid of `1/scale`
//! (`w_i = ⌊a_i·scale⌋ ≤ a_i·scale`): then for every feasible `R`, with `r = w(R)`, and every λ,
//!
//! `v(R) ≤ f^λ_k(r) + λ·(((c − A − r/scale)/D)² − B)`,
//!
//! where `f^λ_k(r) = max {Σ_{i∈Q} (v_i − λ b_i) : Q ⊆ items k.., w(Q) ≤ r}` is a 0-1
//! knapsack table computed by dynamic programming. Since the row is nonlinear in `a(R)`, one
//! λ is weak (small `r` wants a small λ, large `r` a large one), so the bound takes, per cell
//! `r`, the least right-hand side over a set of multipliers, and then the largest over the
//! cells in reach: `max_r min_j (…)`. The multipliers kept are those of a geometric grid that
//! are the best at some cell at the root. The bound ignores apart conflicts (a relaxation).
//! `models/packing.md` §8.

use super::instance::TOL;

/// The suffix tables at a few multipliers.
pub struct Lagrange {
    /// The multipliers kept.
    pub lambdas: Vec<f64>,
    scale: f64,
    /// Cells of a table: `0 ..= cells`.
    cells: usize,
    cap: f64,
    d: f64,
    /// Rounded weights `⌊a_i·scale⌋`.
    w: Vec<usize>,
    /// The tables interleaved: `tables[(k·(cells+1) + r)·m + j] = f^{λ_j}_k(r)`, `k = 0 ..= n`,
    /// `m` multipliers, so a cell's values at every multiplier are adjacent (the bound reads
    /// them together, at every node of the search).
    tables: Vec<f64>,
}

/// `(a, b, v)` of the candidates, in the search's order.
pub type Terms = [(f64, f64, f64)];

/// One DP step: `row = max(next, next shifted by w plus gain)`.
fn step(next: &[f64], row: &mut [f64], w: usize, gain: f64) {
    row.copy_from_slice(next);
    if gain > 0.0 && w < row.len() {
        for (x, s) in row[w..].iter_mut().zip(next) {
            *x = x.max(*s + gain);
        }
    }
}

impl Lagrange {
    /// The tables for `terms` over `cells` grid cells, with the multipliers of a
    /// `multipliers`-point geometric grid (and 0) that are the best at some cell at the root.
    pub fn new(capacity: f64, d: f64, terms: &Terms, cells: usize, multipliers: usize) -> Lagrange {
        let cap = capacity * (1.0 + TOL);
        let cells = cells.max(1);
        let width = cells + 1;
        let scale = cells as f64 / cap;
        let w: Vec<usize> = terms
            .iter()
            .map(|t| ((t.0 * scale).floor().max(0.0) as usize).min(width))
            .collect();
        let mut grid = vec![0.0];
        let hi = terms
            .iter()
            .filter(|t| t.1 > 0.0)
            .map(|t| t.2 / t.1)
            .fold(0.0, f64::max);
        if d > 0.0 && hi > 0.0 && multipliers > 0 {
            let lo = hi * 1e-4;
            let m = multipliers.max(2);
            grid.extend((0..m).map(|j| lo * (hi / lo).powf(j as f64 / (m - 1) as f64)));
        }
        // Root tables (k = 0) per multiplier, by a rolling row.
        let roots: Vec<Vec<f64>> = grid
            .iter()
            .map(|&lambda| {
                let mut f = vec![0.0f64; width];
                let mut tmp = vec![0.0f64; width];
                for (t, &wi) in terms.iter().zip(&w) {
                    step(&f, &mut tmp, wi, t.2 - lambda * t.1);
                    std::mem::swap(&mut f, &mut tmp);
                }
                f
            })
            .collect();
        // Keep the multipliers that are the least at some cell.
        let mut used = vec![false; grid.len()];
        #[allow(clippy::needless_range_loop)] // `r` indexes every multiplier's row
        for r in 0..width {
            let s = (cap - r as f64 / scale).max(0.0) / d.max(f64::MIN_POSITIVE);
            let value = |j: usize| {
                if d > 0.0 {
                    roots[j][r] + grid[j] * s * s
                } else {
                    roots[j][r]
                }
            };
            let best = (0..grid.len())
                .min_by(|&x, &y| value(x).total_cmp(&value(y)))
                .unwrap_or(0);
            used[best] = true;
        }
        let n = terms.len();
        let lambdas: Vec<f64> = grid
            .iter()
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(&l, _)| l)
            .collect();
        let m = lambdas.len();
        let mut tables = vec![0.0f64; (n + 1) * width * m];
        let mut t = vec![0.0f64; (n + 1) * width];
        for (j, &lambda) in lambdas.iter().enumerate() {
            for k in (0..n).rev() {
                let (done, todo) = t.split_at_mut((k + 1) * width);
                step(
                    &todo[..width],
                    &mut done[k * width..],
                    w[k],
                    terms[k].2 - lambda * terms[k].1,
                );
            }
            for (cell, &x) in t.iter().enumerate() {
                tables[cell * m + j] = x;
            }
        }
        Lagrange {
            lambdas,
            scale,
            cells,
            cap,
            d,
            w,
            tables,
        }
    }

    /// The bound on what items `k..` add to a bin with sums `(a, b)`, exact when it is at
    /// most `cut` (otherwise some value above `cut`): blocks of cells first, each bounded by
    /// its last cell's tables and its first cell's root term (both monotone), and a block's
    /// cells one by one only when its block bound is above `cut`.
    pub fn bound(&self, k: usize, a: f64, b: f64, cut: f64) -> f64 {
        const BLOCK: usize = 32;
        let width = self.cells + 1;
        let left = self.cap - a;
        if left < 0.0 {
            return f64::NEG_INFINITY;
        }
        let reach = ((left * self.scale + 1e-9).floor() as usize).min(self.cells);
        let m = self.lambdas.len();
        let cell = |r: usize| &self.tables[(k * width + r) * m..][..m];
        if self.d <= 0.0 {
            return cell(reach).iter().copied().fold(f64::INFINITY, f64::min);
        }
        let at = |f_cell: usize, root_cell: usize| -> f64 {
            let s = (left - root_cell as f64 / self.scale) / self.d;
            let room = s * s - b;
            cell(f_cell)
                .iter()
                .zip(&self.lambdas)
                .map(|(f, &l)| f + l * room)
                .fold(f64::INFINITY, f64::min)
        };
        let mut best = f64::NEG_INFINITY;
        let mut start = 0;
        while start <= reach {
            let end = (start + BLOCK - 1).min(reach);
            let need = cut.max(best);
            if need == f64::INFINITY || at(end, start) > need {
                for r in start..=end {
                    best = best.max(at(r, r));
                }
                if best > cut {
                    return best;
                }
            }
            start = end + 1;
        }
        best
    }

    /// Bins the tables point at (a primal heuristic, no proof): per multiplier, the items of
    /// its root table's best cell, read back from the suffix tables. They fit the rounded `a`
    /// row only; the caller checks the true capacity and the conflicts.
    pub fn suggestions(&self) -> Vec<Vec<usize>> {
        let width = self.cells + 1;
        let n = self.w.len();
        let mut out = Vec::new();
        let m = self.lambdas.len();
        for (j, &l) in self.lambdas.iter().enumerate() {
            let t = |cell: usize| self.tables[cell * m + j];
            let value = |r: usize| {
                let s = (self.cap - r as f64 / self.scale).max(0.0) / self.d.max(f64::MIN_POSITIVE);
                t(r) + if self.d > 0.0 { l * s * s } else { 0.0 }
            };
            let Some(mut r) = (0..width).max_by(|&x, &y| value(x).total_cmp(&value(y))) else {
                continue;
            };
            let mut items = Vec::new();
            for k in 0..n {
                if t(k * width + r) != t((k + 1) * width + r) {
                    items.push(k);
                    r -= self.w[k].min(r);
                }
            }
            out.push(items);
        }
        out
    }
}
