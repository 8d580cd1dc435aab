//! The bounds of the vector knapsack's branch-and-bound: surrogate rows
//! `Σ_d λ_d w_d / C_d ≤ Σ_d λ_d` (each valid, since a bin within every row is within their
//! nonnegative combination), bounded either by their fractional knapsack (the Dantzig bound)
//! or by their integer knapsack over the candidates left, read from a suffix table
//! ([`TableBound`]).

use crate::colgen::SuffixTable;

/// A surrogate row: multipliers `λ_d / C_d`, candidate sizes, and the candidates by value
/// per unit of size.
pub(super) struct Surrogate {
    pub per: Vec<f64>,
    pub sizes: Vec<f64>,
    pub order: Vec<usize>,
}

impl Surrogate {
    /// The row of multipliers `lambda` over candidates of `weights` and `values`.
    pub fn new(lambda: &[f64], weights: &[&[u64]], values: &[f64], capacity: &[u64]) -> Self {
        let per: Vec<f64> = lambda
            .iter()
            .zip(capacity)
            .map(|(l, &c)| l / c as f64)
            .collect();
        let sizes: Vec<f64> = weights
            .iter()
            .map(|w| w.iter().zip(&per).map(|(&x, p)| x as f64 * p).sum())
            .collect();
        let mut order: Vec<usize> = (0..weights.len()).collect();
        order.sort_by(|&a, &b| {
            (values[b] / sizes[b])
                .total_cmp(&(values[a] / sizes[a]))
                .then(a.cmp(&b))
        });
        Surrogate { per, sizes, order }
    }

    /// The Dantzig bound of the candidates not `skip`ped within `room` of the surrogate row.
    pub fn dantzig(&self, values: &[f64], room: f64, skip: impl Fn(usize) -> bool) -> f64 {
        let (mut left, mut v) = (room, 0.0);
        for &c in &self.order {
            if skip(c) {
                continue;
            }
            let (w, p) = (self.sizes[c], values[c]);
            if w <= left {
                left -= w;
                v += p;
            } else {
                return v + p * left / w;
            }
        }
        v
    }
}

/// A surrogate row in integers, `Σ_d m_d w_d ≤ Σ_d m_d C_d` (`m_d` the row's multipliers
/// `λ_d / C_d` scaled and rounded, then divided by their greatest common divisor: any
/// nonnegative integers give a valid row), its sizes and room divided by `q` (rounded down:
/// `Σ ⌊s/q⌋ ≤ ⌊Σ s / q⌋ ≤ ⌊R/q⌋`, still valid) so that the table holds at most the cells
/// allowed, and the suffix table of its 0-1 knapsack over the candidates in the search's
/// order. Its bound at a node is the best value of candidates `k..` within the room left:
/// integral in the candidates, at least as strong as the row's Dantzig bound when `q = 1`,
/// and one read instead of a pass over the candidates. Blocked candidates and the other
/// rows are ignored (a relaxation).
pub(super) struct TableBound {
    multipliers: Vec<u64>,
    q: u64,
    table: SuffixTable,
}

impl TableBound {
    /// The table of `row` over candidates of `weights` and `values` (in the search's order),
    /// with at most `cells` cells; `None` when not even one cell a unit of room fits.
    pub fn new(
        row: &Surrogate,
        weights: &[&[u64]],
        values: &[f64],
        capacity: &[u64],
        cells: u64,
    ) -> Option<TableBound> {
        let n = weights.len() as u64;
        let top = capacity.iter().copied().max().unwrap_or(1).max(1);
        // At most four units of room a unit of the largest capacity: exact for one row alone
        // and for the sum of two, and a fine enough scale for the others.
        let width_max = (cells / (n + 1)).min(top.saturating_mul(4).saturating_add(1));
        if width_max < 2 {
            return None;
        }
        let top = top as f64;
        // λ_d / C_d on a scale where the largest capacity counts 2^20 (exact for one
        // dimension alone: m = e_d once divided by the gcd).
        let mut m: Vec<u64> = row
            .per
            .iter()
            .map(|p| (p * top * f64::from(1u32 << 20)).round().max(0.0) as u64)
            .collect();
        let g = m.iter().fold(0u64, |a, &b| gcd(a, b));
        if g == 0 {
            return None;
        }
        for x in &mut m {
            *x /= g;
        }
        let room: u128 = m
            .iter()
            .zip(capacity)
            .map(|(&x, &c)| u128::from(x) * u128::from(c))
            .sum();
        let q = (room + 1).div_ceil(u128::from(width_max)).max(1);
        let q = u64::try_from(q).ok()?;
        let width = usize::try_from(room / u128::from(q)).ok()?;
        let sizes: Vec<u64> = weights
            .iter()
            .map(|w| {
                let s: u128 = w
                    .iter()
                    .zip(&m)
                    .map(|(&x, &y)| u128::from(x) * u128::from(y))
                    .sum();
                u64::try_from(s / u128::from(q)).unwrap_or(u64::MAX)
            })
            .collect();
        Some(TableBound {
            multipliers: m,
            q,
            table: SuffixTable::new(sizes, values.to_vec(), width),
        })
    }

    /// The best value of candidates `k..` within the row's room left at loads `used`.
    pub fn bound(&self, k: usize, used: &[u64], capacity: &[u64]) -> f64 {
        let room: u128 = self
            .multipliers
            .iter()
            .zip(used.iter().zip(capacity))
            .map(|(&x, (&u, &c))| u128::from(x) * u128::from(c - u))
            .sum();
        self.table.best(k, (room / u128::from(self.q)) as usize)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The best value of a 0-1 knapsack over items `k..` within every capacity, by brute force.
    fn brute(weights: &[Vec<u64>], values: &[f64], k: usize, room: &[u64]) -> f64 {
        let n = weights.len() - k;
        let mut best = 0.0f64;
        for mask in 0u32..(1 << n) {
            let mut load = vec![0u64; room.len()];
            let mut v = 0.0;
            for j in 0..n {
                if mask & (1 << j) != 0 {
                    for (l, w) in load.iter_mut().zip(&weights[k + j]) {
                        *l += w;
                    }
                    v += values[k + j];
                }
            }
            if load.iter().zip(room).all(|(l, r)| l <= r) {
                best = best.max(v);
            }
        }
        best
    }

    /// On random two- and three-row knapsacks, every table's bound (some tables small enough
    /// to be scaled down) is at least the true optimum of the candidates left at any loads,
    /// and where the table holds every unit of room it equals the brute-force optimum of its
    /// row alone.
    #[test]
    fn table_bounds_are_never_below_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..300 {
            let dims = 2 + case % 2;
            let n = rng.random_range(1..=10);
            let capacity: Vec<u64> = (0..dims).map(|_| rng.random_range(5..60)).collect();
            let weights: Vec<Vec<u64>> = (0..n)
                .map(|_| capacity.iter().map(|&c| rng.random_range(1..=c)).collect())
                .collect();
            let values: Vec<f64> = (0..n).map(|_| rng.random_range(0.01..1.0)).collect();
            let refs: Vec<&[u64]> = weights.iter().map(|w| w.as_slice()).collect();
            let lambda: Vec<f64> = (0..dims).map(|_| rng.random_range(0.0..1.0)).collect();
            let row = Surrogate::new(&lambda, &refs, &values, &capacity);
            let cells = if case % 3 == 0 { 40 } else { 1_000_000 };
            let Some(t) = TableBound::new(&row, &refs, &values, &capacity, cells) else {
                continue;
            };
            for _ in 0..5 {
                let k = rng.random_range(0..=n);
                let used: Vec<u64> = capacity.iter().map(|&c| rng.random_range(0..=c)).collect();
                let room: Vec<u64> = capacity.iter().zip(&used).map(|(c, u)| c - u).collect();
                let opt = brute(&weights, &values, k, &room);
                let b = t.bound(k, &used, &capacity);
                assert!(
                    b >= opt - 1e-12,
                    "case {case}: bound {b} below optimum {opt}"
                );
                // One row alone, every unit of room in the table: the bound is that row's
                // integer optimum, which the other rows can only lower.
                if t.q == 1 {
                    let sur: Vec<Vec<u64>> = weights
                        .iter()
                        .map(|w| vec![w.iter().zip(&t.multipliers).map(|(a, b)| a * b).sum()])
                        .collect();
                    let r: u64 = t.multipliers.iter().zip(&room).map(|(a, b)| a * b).sum();
                    let alone = brute(&sur, &values, k, &[r]);
                    assert!((b - alone).abs() < 1e-9, "case {case}: {b} against {alone}");
                }
            }
        }
    }
}
