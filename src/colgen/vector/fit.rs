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
