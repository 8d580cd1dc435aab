//! Exact subset sums by bitsets, one row per prefix of the items so that a subset with a given
//! sum can be read back: the exact part of the 1-D local search (its *pack* move and the split
//! of `S` into two bins) and of the minimum-bin-slack start; and the bitset words they are
//! made of, which the tight packing search's per-type tables share.

/// Sums reachable by subsets of some items, capacity `cap`, one bitset per prefix so a subset
/// can be read back (rows are kept and reused between builds).
pub(super) struct SubsetSums {
    words: usize,
    cap: u64,
    /// `rows[k]` for `k ≤ len`: the sums reachable with the first `k` items.
    rows: Vec<Vec<u64>>,
    len: usize,
}

/// Bitset words one subset-sum table may hold (64 MiB): larger capacities or item counts are
/// left to the other methods.
const MAX_WORDS: u128 = 1 << 23;

/// True when a table of `rows` items over capacity `cap` stays within [`MAX_WORDS`].
pub(super) fn table_fits(rows: usize, cap: u64) -> bool {
    (rows as u128 + 1) * (u128::from(cap) / 64 + 1) <= MAX_WORDS
}

impl SubsetSums {
    pub(super) fn new(cap: u64) -> SubsetSums {
        let words = (cap as usize + 1).div_ceil(64);
        let mut first = vec![0u64; words];
        first[0] = 1;
        SubsetSums {
            words,
            cap,
            rows: vec![first],
            len: 0,
        }
    }

    /// Reachable sums over `weights` (each ≤ cap).
    pub(super) fn build(&mut self, weights: &[u64]) {
        while self.rows.len() <= weights.len() {
            self.rows.push(vec![0u64; self.words]);
        }
        self.len = weights.len();
        for (k, &w) in weights.iter().enumerate() {
            let (done, todo) = self.rows.split_at_mut(k + 1);
            let next = &mut todo[0];
            next.copy_from_slice(&done[k]);
            shift_or(next, w as usize);
            mask(next, self.cap as usize);
        }
    }

    pub(super) fn reachable(&self, k: usize, s: u64) -> bool {
        s <= self.cap && (self.rows[k][(s / 64) as usize] >> (s % 64)) & 1 == 1
    }

    /// The largest reachable sum in `[lo, hi]`, if any.
    pub(super) fn largest_in(&self, lo: u64, hi: u64) -> Option<u64> {
        (lo..=hi.min(self.cap))
            .rev()
            .find(|&s| self.reachable(self.len, s))
    }

    /// Positions (into the built weights) of a subset summing to `s`, preferring the later
    /// weights.
    pub(super) fn subset(&self, weights: &[u64], mut s: u64) -> Vec<usize> {
        let mut out = Vec::new();
        for k in (1..=self.len).rev() {
            let w = weights[k - 1];
            if s >= w && self.reachable(k - 1, s - w) {
                out.push(k - 1);
                s -= w;
            }
        }
        debug_assert_eq!(s, 0);
        out
    }
}

/// `row |= row << w` (bit `s` is the sum `s`).
pub(super) fn shift_or(row: &mut [u64], w: usize) {
    let (q, r) = (w / 64, w % 64);
    for i in (q..row.len()).rev() {
        let lo = row[i - q];
        let carry = if r > 0 && i > q {
            row[i - q - 1] >> (64 - r)
        } else {
            0
        };
        row[i] |= if r > 0 { (lo << r) | carry } else { lo };
    }
}

/// Clears the bits above `cap`.
pub(super) fn mask(row: &mut [u64], cap: usize) {
    let (q, r) = ((cap + 1) / 64, (cap + 1) % 64);
    if q < row.len() {
        row[q] &= (1u64 << r) - 1;
        row[q + 1..].fill(0);
    }
}

/// Whether some bit in `[lo, hi]` is set.
pub(super) fn any_in(row: &[u64], lo: u64, hi: u64) -> bool {
    let (lo, hi) = (lo as usize, (hi as usize).min(row.len() * 64 - 1));
    if lo > hi {
        return false;
    }
    let (a, b) = (lo / 64, hi / 64);
    let first = u64::MAX << (lo % 64);
    let last = u64::MAX >> (63 - hi % 64);
    if a == b {
        return row[a] & first & last != 0;
    }
    row[a] & first != 0 || row[a + 1..b].iter().any(|&x| x != 0) || row[b] & last != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_sums_read_back_a_subset_with_the_sum() {
        let w = [3u64, 5, 7, 11, 13];
        let mut s = SubsetSums::new(30);
        s.build(&w);
        for target in 0..=30u64 {
            let reach = (0u32..32).any(|m| {
                (0..5)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| w[k])
                    .sum::<u64>()
                    == target
            });
            assert_eq!(s.reachable(5, target), reach, "sum {target}");
            if reach {
                let picked = s.subset(&w, target);
                assert_eq!(picked.iter().map(|&k| w[k]).sum::<u64>(), target);
            }
        }
    }
}
