//! Enumeration of the maximal one-dimensional bins worth at least a value, for the
//! engine's reduced-cost enumeration ([`crate::colgen::close_by_enumeration`]).
//!
//! Item types (a weight, a value, a count) in order of decreasing weight; a depth-first search
//! chooses how many copies of each type a bin holds, most first. Two exact suffix tables prune
//! it: `value[k][r]`, the best value of the types from `k` on within room `r`, and
//! `fill[k][r]`, the largest weight they can put in room `r`. A bin is *maximal* when no copy
//! left out still fits; a branch whose room cannot be brought below the lightest type left
//! with copies is cut, so every leaf is an answer and the search costs at most
//! `types × answers` nodes beyond the pruned ones. A waste budget prunes as well: a branch
//! whose room cannot be brought down to `max_waste` is cut (see [`waste_budget`]).

use crate::colgen::Column;
use crate::solver::Deadline;

/// Why an enumeration gave no list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// More than the limit of bins.
    Limit,
    /// The tables would exceed their cell budget.
    Cells,
    /// The deadline.
    Deadline,
}

/// The room a single bin may leave empty in a packing of all the copies into `bins` bins:
/// `bins × capacity − Σ weight × count` (0 when they do not fit at all). In a *partition*
/// into at most `bins` bins the empty room of all bins together is at most that, so each
/// bin's is; a maximal bin above one of them wastes no more. An enumeration for such a
/// partition may therefore leave out every bin wasting more (the perfect packings of the
/// BPPLIB AI/ANI sets: there it is 0 at one bin below the incumbent).
pub fn waste_budget(weights: &[u64], counts: &[u64], capacity: u64, bins: u64) -> u64 {
    let total: u128 = weights
        .iter()
        .zip(counts)
        .map(|(&w, &c)| u128::from(w) * u128::from(c))
        .sum();
    let room = u128::from(bins) * u128::from(capacity);
    u64::try_from(room.saturating_sub(total)).unwrap_or(u64::MAX)
}

/// Every maximal bin (per type, the copies it holds) whose value is at least `min_value` and
/// whose empty room is at most `max_waste`: `weights[t]`, `values[t]` and `counts[t]` per
/// type, `capacity` the bin's. Types heavier than the bin or with no copy never enter. At
/// most `limit` bins; the tables hold at most `max_cells` cells.
#[allow(clippy::too_many_arguments)]
pub fn maximal_bins(
    weights: &[u64],
    values: &[f64],
    counts: &[u64],
    capacity: u64,
    min_value: f64,
    max_waste: u64,
    limit: usize,
    max_cells: u64,
    deadline: &Deadline,
) -> Result<Vec<Vec<(usize, u64)>>, Stopped> {
    let mut order: Vec<usize> = (0..weights.len())
        .filter(|&t| counts[t] > 0 && weights[t] <= capacity && weights[t] > 0)
        .collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let n = order.len();
    let width = capacity as usize + 1;
    if ((n + 1) as u64).saturating_mul(width as u64) > max_cells {
        return Err(Stopped::Cells);
    }
    // Bounded knapsacks over the suffixes, by copy counts (the counts are small: a type's
    // copies are capped by what fits in one bin).
    let mut value = vec![0.0f64; (n + 1) * width];
    let mut fill = vec![0u64; (n + 1) * width];
    for k in (0..n).rev() {
        let t = order[k];
        let (w, v) = (weights[t] as usize, values[t]);
        for r in 0..width {
            let (mut best_v, mut best_f) = (value[(k + 1) * width + r], fill[(k + 1) * width + r]);
            let mut c = 1;
            while c as u64 <= counts[t] && c * w <= r {
                let rest = (k + 1) * width + r - c * w;
                best_v = best_v.max(c as f64 * v + value[rest]);
                best_f = best_f.max((c * w) as u64 + fill[rest]);
                c += 1;
            }
            value[k * width + r] = best_v;
            fill[k * width + r] = best_f;
        }
    }
    let mut search = Search {
        order: &order,
        weights,
        values,
        counts,
        value: &value,
        fill: &fill,
        width,
        floor: min_value,
        max_waste,
        limit,
        deadline,
        nodes: 0,
        taken: Vec::new(),
        found: Vec::new(),
    };
    search.dfs(0, capacity, 0.0, u64::MAX)?;
    Ok(search.found)
}

/// [`maximal_bins`] as covering columns (row = type, coefficient = copies); `None` when a
/// limit or the deadline stopped it (what a [`crate::colgen::Pricing::enumerate`] returns).
#[allow(clippy::too_many_arguments)]
pub fn maximal_columns(
    weights: &[u64],
    values: &[f64],
    counts: &[u64],
    capacity: u64,
    min_value: f64,
    max_waste: u64,
    limit: usize,
    max_cells: u64,
    deadline: &Deadline,
) -> Option<Vec<Column>> {
    let bins = maximal_bins(
        weights, values, counts, capacity, min_value, max_waste, limit, max_cells, deadline,
    );
    bins.ok().map(|bins| {
        bins.into_iter()
            .map(|b| b.into_iter().map(|(t, c)| (t, c as f64)).collect())
            .collect()
    })
}

/// The depth-first search's state.
struct Search<'a> {
    order: &'a [usize],
    weights: &'a [u64],
    values: &'a [f64],
    counts: &'a [u64],
    value: &'a [f64],
    fill: &'a [u64],
    width: usize,
    floor: f64,
    max_waste: u64,
    limit: usize,
    deadline: &'a Deadline,
    nodes: u64,
    taken: Vec<(usize, u64)>,
    found: Vec<Vec<(usize, u64)>>,
}

impl Search<'_> {
    /// Decides the types from `k` on with `room` left, `got` the value so far and `open` the
    /// lightest weight of a type decided with copies left out.
    fn dfs(&mut self, k: usize, room: u64, got: f64, open: u64) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && self.deadline.expired() {
            return Err(Stopped::Deadline);
        }
        let cell = k * self.width + room as usize;
        // Round-off never prunes a bin at the floor: the slack is relative.
        if got + self.value[cell] < self.floor - 1e-12 * self.floor.abs().max(1.0) {
            return Ok(());
        }
        if room - self.fill[cell] >= open || room - self.fill[cell] > self.max_waste {
            return Ok(());
        }
        if k == self.order.len() {
            if self.taken.is_empty() {
                return Ok(());
            }
            if self.found.len() >= self.limit {
                return Err(Stopped::Limit);
            }
            let mut bin = self.taken.clone();
            bin.sort_unstable();
            self.found.push(bin);
            return Ok(());
        }
        let t = self.order[k];
        let w = self.weights[t];
        let most = self.counts[t].min(room / w);
        for c in (0..=most).rev() {
            let left_out = if c < self.counts[t] {
                open.min(w)
            } else {
                open
            };
            if c > 0 {
                self.taken.push((t, c));
            }
            let r = self.dfs(
                k + 1,
                room - c * w,
                got + c as f64 * self.values[t],
                left_out,
            );
            if c > 0 {
                self.taken.pop();
            }
            r?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every bin (copies per type) by brute force: maximal ones worth at least `floor`.
    fn brute(w: &[u64], v: &[f64], n: &[u64], cap: u64, floor: f64) -> Vec<Vec<(usize, u64)>> {
        let mut all = vec![Vec::new()];
        for (t, &copies) in n.iter().enumerate() {
            let mut next = Vec::new();
            for b in &all {
                for c in 0..=copies {
                    let mut b2: Vec<(usize, u64)> = b.clone();
                    if c > 0 {
                        b2.push((t, c));
                    }
                    next.push(b2);
                }
            }
            all = next;
        }
        let load = |b: &[(usize, u64)]| b.iter().map(|&(t, c)| w[t] * c).sum::<u64>();
        let val = |b: &[(usize, u64)]| b.iter().map(|&(t, c)| v[t] * c as f64).sum::<f64>();
        let mut out: Vec<Vec<(usize, u64)>> = all
            .into_iter()
            .filter(|b| !b.is_empty() && load(b) <= cap && val(b) >= floor)
            .filter(|b| {
                let room = cap - load(b);
                (0..w.len()).all(|t| {
                    let held = b.iter().find(|x| x.0 == t).map_or(0, |x| x.1);
                    held == n[t] || w[t] > room
                })
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn maximal_bins_match_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let mut nonempty = 0;
        for _ in 0..300 {
            let types = rng.random_range(1..=6);
            let cap = rng.random_range(5..35u64);
            let w: Vec<u64> = (0..types).map(|_| rng.random_range(1..cap + 4)).collect();
            let v: Vec<f64> = (0..types)
                .map(|_| rng.random_range(0..5) as f64 * 0.25 + rng.random::<f64>() * 0.1)
                .collect();
            let n: Vec<u64> = (0..types).map(|_| rng.random_range(0..3)).collect();
            let floor = rng.random::<f64>() * 1.5;
            // Half the cases with a waste budget (a bin's empty room at most `waste`).
            let waste = if rng.random_bool(0.5) {
                rng.random_range(0..cap / 2 + 1)
            } else {
                u64::MAX
            };
            let lim = Deadline::none();
            let mut got = maximal_bins(&w, &v, &n, cap, floor, waste, 100_000, 1 << 20, &lim)
                .expect("within limits");
            got.sort();
            let load = |b: &[(usize, u64)]| b.iter().map(|&(t, c)| w[t] * c).sum::<u64>();
            let want: Vec<_> = brute(&w, &v, &n, cap, floor)
                .into_iter()
                .filter(|b| cap - load(b) <= waste)
                .collect();
            nonempty += usize::from(!want.is_empty() && waste < u64::MAX);
            assert_eq!(
                got, want,
                "w {w:?} v {v:?} n {n:?} cap {cap} floor {floor} waste {waste}"
            );
        }
        assert!(nonempty > 50, "the cases must hold bins ({nonempty})");
    }

    #[test]
    fn limits_stop_the_enumeration() {
        let w = vec![1u64; 12];
        let v = vec![0.1; 12];
        let n = vec![1u64; 12];
        // C(12, 6) = 924 maximal bins of six unit items.
        let all = maximal_bins(
            &w,
            &v,
            &n,
            6,
            0.0,
            u64::MAX,
            10_000,
            1 << 20,
            &Deadline::none(),
        );
        assert_eq!(all.map(|b| b.len()), Ok(924));
        let few = maximal_bins(
            &w,
            &v,
            &n,
            6,
            0.0,
            u64::MAX,
            100,
            1 << 20,
            &Deadline::none(),
        );
        assert_eq!(few.err(), Some(Stopped::Limit));
        let cells = maximal_bins(&w, &v, &n, 6, 0.0, u64::MAX, 10_000, 10, &Deadline::none());
        assert_eq!(cells.err(), Some(Stopped::Cells));
    }

    #[test]
    fn the_waste_budget_is_the_room_left_by_a_full_packing() {
        // 3 + 2·4 = 11 in 2 bins of 6: 1 to spare; in 1 bin the copies do not fit (0).
        assert_eq!(waste_budget(&[3, 4], &[1, 2], 6, 2), 1);
        assert_eq!(waste_budget(&[3, 4], &[1, 2], 6, 1), 0);
        assert_eq!(waste_budget(&[u64::MAX], &[2], u64::MAX, 3), u64::MAX);
    }
}
