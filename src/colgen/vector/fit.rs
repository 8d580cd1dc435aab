//! First- and best-fit decreasing for vector packing: the baselines of bin packing and the
//! start packing of every vector-packing search.

/// Summed relative size `Σ_d w_d / C_d` of an item (or a load).
pub fn relative_size(w: &[u64], capacity: &[u64]) -> f64 {
    w.iter()
        .zip(capacity)
        .map(|(&x, &c)| x as f64 / c as f64)
        .sum()
}

/// First or best fit of `items` (per item, `D` weights) into bins of `capacity`, items by
/// decreasing summed relative size (ties by index); best fit: the bin left with the least
/// summed relative room. Every item must fit an empty bin.
pub fn fit_decreasing(items: &[Vec<u64>], capacity: &[u64], best: bool) -> Vec<Vec<usize>> {
    let size: Vec<f64> = items.iter().map(|w| relative_size(w, capacity)).collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| size[b].total_cmp(&size[a]).then(a.cmp(&b)));
    let mut bins: Vec<(Vec<u64>, Vec<usize>)> = Vec::new();
    for i in order {
        let w = &items[i];
        let fits = bins.iter().enumerate().filter(|(_, b)| {
            b.0.iter()
                .zip(w)
                .zip(capacity)
                .all(|((&l, &x), &c)| l + x <= c)
        });
        let pick = if best {
            fits.max_by(|a, b| {
                relative_size(&a.1 .0, capacity)
                    .total_cmp(&relative_size(&b.1 .0, capacity))
                    .then(b.0.cmp(&a.0))
            })
            .map(|(k, _)| k)
        } else {
            fits.map(|(k, _)| k).next()
        };
        match pick {
            Some(k) => {
                for (l, x) in bins[k].0.iter_mut().zip(w) {
                    *l += x;
                }
                bins[k].1.push(i);
            }
            None => bins.push((w.clone(), vec![i])),
        }
    }
    bins.into_iter().map(|b| b.1).collect()
}

/// Minimum bin slack (MBS′, Gupta & Ho 1999) in `D` dimensions: bin after bin, the largest
/// item left (by summed relative size) with the subset of the others that fills the room
/// left most (summed relative size), by the vector knapsack search within `nodes` nodes a
/// bin (its best bin so far when cut short). `None` once `deadline` passes.
pub fn min_bin_slack(
    items: &[Vec<u64>],
    capacity: &[u64],
    nodes: u64,
    deadline: &crate::solver::Deadline,
) -> Option<Vec<Vec<usize>>> {
    let size: Vec<f64> = items.iter().map(|w| relative_size(w, capacity)).collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| size[b].total_cmp(&size[a]).then(a.cmp(&b)));
    let mut left = vec![true; items.len()];
    let mut bins = Vec::new();
    let settings = super::PricingSettings {
        node_limit: nodes.max(1),
        max_columns: 1,
        // The Dantzig bounds: a bin's search is short, and the tables' fixed cost would be
        // most of it (CL_1_200_1: 0.04 s against 0.25 s, the same 51 bins).
        table_cells: 0,
        ..super::PricingSettings::default()
    };
    for &i in &order {
        if !left[i] {
            continue;
        }
        if deadline.expired() {
            return None;
        }
        left[i] = false;
        let room: Vec<u64> = capacity.iter().zip(&items[i]).map(|(c, w)| c - w).collect();
        let values: Vec<f64> = (0..items.len())
            .map(|j| if left[j] { size[j] } else { 0.0 })
            .collect();
        let mut bin = vec![i];
        if values.iter().any(|&v| v > 0.0) && room.iter().all(|&r| r > 0) {
            let (best, _, _) =
                super::BinKnapsack::new(items, &room, settings.clone()).search(&values);
            if let Some((_, fill)) = best.into_iter().next() {
                for &j in &fill {
                    left[j] = false;
                }
                bin.extend(fill);
            }
        }
        bins.push(bin);
    }
    Some(bins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Deadline;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// On random two- and three-dimensional instances, MBS′ packs every item once within the
    /// capacity, in no fewer bins than the volume bound of any dimension, and the same bins
    /// on a second run.
    #[test]
    fn min_bin_slack_packs_every_item_once() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for case in 0..200 {
            let dims = 2 + case % 2;
            let n = rng.random_range(1..=40);
            let capacity: Vec<u64> = (0..dims).map(|_| rng.random_range(10..100)).collect();
            let items: Vec<Vec<u64>> = (0..n)
                .map(|_| capacity.iter().map(|&c| rng.random_range(1..=c)).collect())
                .collect();
            let nodes = [1, 50, 2_000][case % 3];
            let bins = min_bin_slack(&items, &capacity, nodes, &Deadline::none()).unwrap();
            let mut seen = vec![0; n];
            for b in &bins {
                for d in 0..dims {
                    let load: u64 = b.iter().map(|&i| items[i][d]).sum();
                    assert!(load <= capacity[d], "case {case}: bin over capacity");
                }
                for &i in b {
                    seen[i] += 1;
                }
            }
            assert!(
                seen.iter().all(|&s| s == 1),
                "case {case}: an item not once"
            );
            for d in 0..dims {
                let total: u64 = items.iter().map(|w| w[d]).sum();
                assert!(
                    bins.len() as u64 >= total.div_ceil(capacity[d]),
                    "case {case}"
                );
            }
            let again = min_bin_slack(&items, &capacity, nodes, &Deadline::none()).unwrap();
            assert_eq!(bins, again, "case {case}: not repeatable");
        }
    }
}
