//! Exact repacking of a few bins, the large-neighbourhood move of the local search
//! (`models/packing.md` §5): the items of `k` bins of the partial packing and the unassigned set
//! `S` are packed, if they can be, into `k + 2` bins by a depth-first search with a node limit.
//! A success ends the attempt at one bin fewer at once: the other bins are untouched. The bins
//! are, first, pairs that hold two items completing an item of `S` to the capacity exactly
//! (an ejection chain's first links), then bins drawn at random (of two, the lighter).
//!
//! The search places the items by decreasing weight, each into an open bin (the fullest first,
//! bins of equal load tried once) or one new bin, and prunes when the room that can no longer
//! be used (residuals below the smallest item left) exceeds the total slack.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The move: `k` bins of the partial packing `bins` (loads `load`, unassigned items `free`) —
/// pairs that complete items of `S` when `targeted`, then bins drawn at random, of two the
/// lighter — their items and `S` into `k + 2` bins: every bin of a packing with one bin more
/// than the partial one, if found.
#[allow(clippy::too_many_arguments)]
pub fn repack(
    w: &[u64],
    cap: u64,
    bins: &[Vec<usize>],
    load: &[u64],
    free: &[usize],
    k: usize,
    nodes: u64,
    targeted: bool,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Vec<usize>>> {
    let m = bins.len();
    let k = k.min(m);
    let mut picked: Vec<usize> = Vec::with_capacity(k);
    if targeted {
        pick_complements(w, cap, bins, free, k, &mut picked, rng);
    }
    let mut tries = 0;
    while picked.len() < k && tries < 8 * k + 8 {
        tries += 1;
        let (a, b) = (rng.random_range(0..m), rng.random_range(0..m));
        let pick = if load[b] < load[a] { b } else { a };
        if !picked.contains(&pick) {
            picked.push(pick);
        }
    }
    let mut items = free.to_vec();
    for &b in &picked {
        items.extend_from_slice(&bins[b]);
    }
    let fresh = pack_into(w, &items, picked.len() + 2, cap, nodes)?;
    let mut next: Vec<Vec<usize>> = (0..m)
        .filter(|b| !picked.contains(b))
        .map(|b| bins[b].clone())
        .collect();
    next.extend(fresh);
    Some(next)
}

/// Bins that complete items of `S` exactly: for an item `x` of `S` (in random order), an item
/// `y` of a bin drawn at random and an item `z` of another bin with `x + y + z` = the
/// capacity; both bins are picked (at most `k` in all).
fn pick_complements(
    w: &[u64],
    cap: u64,
    bins: &[Vec<usize>],
    free: &[usize],
    k: usize,
    picked: &mut Vec<usize>,
    rng: &mut ChaCha8Rng,
) {
    let m = bins.len();
    let mut at: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    for (b, items) in bins.iter().enumerate() {
        for &i in items {
            at.entry(w[i]).or_default().push(b);
        }
    }
    let mut free = free.to_vec();
    for a in (1..free.len()).rev() {
        free.swap(a, rng.random_range(0..=a));
    }
    for x in free {
        if picked.len() + 2 > k || m == 0 {
            break;
        }
        'draw: for _ in 0..8 {
            let b = rng.random_range(0..m);
            if picked.contains(&b) {
                continue;
            }
            for &y in &bins[b] {
                let Some(t) = cap.checked_sub(w[x] + w[y]) else {
                    continue;
                };
                let Some(list) = at.get(&t) else { continue };
                let c = list[rng.random_range(0..list.len())];
                if c != b && !picked.contains(&c) {
                    picked.push(b);
                    picked.push(c);
                    break 'draw;
                }
            }
        }
    }
}

/// The items (indices into `w`) packed into `bins` bins of `cap`, if the search finds a
/// packing within `node_limit` nodes.
pub fn pack_into(
    w: &[u64],
    items: &[usize],
    bins: usize,
    cap: u64,
    node_limit: u64,
) -> Option<Vec<Vec<usize>>> {
    let total: u64 = items.iter().map(|&i| w[i]).sum();
    let room = (bins as u64).checked_mul(cap)?;
    if total > room || items.iter().any(|&i| w[i] > cap) {
        return None;
    }
    let mut order = items.to_vec();
    order.sort_by_key(|&i| std::cmp::Reverse(w[i]));
    // Items above half the capacity need a bin each.
    if order.iter().filter(|&&i| 2 * w[i] > cap).count() > bins {
        return None;
    }
    let mut s = Search {
        w,
        order: &order,
        cap,
        bins,
        slack: room - total,
        load: Vec::with_capacity(bins),
        at: vec![0; order.len()],
        nodes: 0,
        node_limit,
    };
    if !s.place(0) {
        return None;
    }
    let mut out = vec![Vec::new(); s.load.len()];
    for (k, &i) in order.iter().enumerate() {
        out[s.at[k]].push(i);
    }
    Some(out)
}

struct Search<'a> {
    w: &'a [u64],
    order: &'a [usize],
    cap: u64,
    bins: usize,
    /// Room of the `bins` bins minus the weight of every item.
    slack: u64,
    load: Vec<u64>,
    /// The bin of each position of `order` placed so far.
    at: Vec<usize>,
    nodes: u64,
    node_limit: u64,
}

impl Search<'_> {
    fn place(&mut self, k: usize) -> bool {
        if k == self.order.len() {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return false;
        }
        // Room no item left can use: in the open bins below the smallest item, and whole
        // bins never opened count as usable.
        let smallest = self.w[self.order[self.order.len() - 1]];
        let waste: u64 = self
            .load
            .iter()
            .map(|&l| self.cap - l)
            .filter(|&r| r < smallest)
            .sum();
        if waste > self.slack {
            return false;
        }
        let wk = self.w[self.order[k]];
        // Open bins, fullest first; one bin per distinct load.
        let mut cand: Vec<usize> = (0..self.load.len())
            .filter(|&b| self.load[b] + wk <= self.cap)
            .collect();
        cand.sort_by_key(|&b| (std::cmp::Reverse(self.load[b]), b));
        cand.dedup_by_key(|b| self.load[*b]);
        for b in cand {
            self.load[b] += wk;
            self.at[k] = b;
            if self.place(k + 1) {
                return true;
            }
            self.load[b] -= wk;
            if self.nodes > self.node_limit {
                return false;
            }
        }
        if self.load.len() < self.bins {
            self.load.push(wk);
            self.at[k] = self.load.len() - 1;
            if self.place(k + 1) {
                return true;
            }
            self.load.pop();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn packs_exactly_when_brute_force_can() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..400 {
            let n = rng.random_range(1..=9);
            let cap = rng.random_range(10..=40);
            let w: Vec<u64> = (0..n).map(|_| rng.random_range(1..=cap)).collect();
            let items: Vec<usize> = (0..n).collect();
            let opt = super::super::tests::min_bins(&w, cap);
            for bins in 1..=n {
                let got = pack_into(&w, &items, bins, cap, u64::MAX);
                assert_eq!(got.is_some(), bins >= opt, "case {case}, {bins} bins");
                if let Some(p) = got {
                    assert!(p.len() <= bins, "case {case}");
                    let mut seen: Vec<usize> = p.concat();
                    seen.sort_unstable();
                    assert_eq!(seen, items, "case {case}: every item once");
                    for b in &p {
                        assert!(b.iter().map(|&i| w[i]).sum::<u64>() <= cap, "case {case}");
                    }
                }
            }
        }
    }

    #[test]
    fn node_limit_only_loses_packings() {
        let w = [6u64, 6, 5, 5, 4, 4, 3, 3, 2, 2];
        let items: Vec<usize> = (0..w.len()).collect();
        assert!(pack_into(&w, &items, 4, 10, u64::MAX).is_some());
        assert!(pack_into(&w, &items, 4, 10, 1).is_none());
        assert!(pack_into(&w, &items, 3, 10, u64::MAX).is_none());
    }
}
