//! Exact subset sums by bitsets, one row per prefix of the items so that a subset with a given
//! sum can be read back: the exact part of the 1-D local search (its *pack* move and the split
//! of `S` into two bins) and of the minimum-bin-slack start.

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
        let tail = (self.cap as usize + 1) % 64;
        for (k, &w) in weights.iter().enumerate() {
            let (done, todo) = self.rows.split_at_mut(k + 1);
            let (prev, next) = (&done[k], &mut todo[0]);
            next.copy_from_slice(prev);
            let (shift_w, shift_b) = ((w / 64) as usize, (w % 64) as u32);
            for i in shift_w..self.words {
                let mut v = prev[i - shift_w] << shift_b;
                if shift_b > 0 && i > shift_w {
                    v |= prev[i - shift_w - 1] >> (64 - shift_b);
                }
                next[i] |= v;
            }
            if tail != 0 {
                next[self.words - 1] &= (1u64 << tail) - 1;
            }
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
