//! The items' exchanges behind the root's dual-optimal inequalities: the componentwise
//! dominance pairs (`π_light ≤ π_heavy`) and, at given duals, the violated pair
//! inequalities (`π_j + π_k ≤ π_i` when `j` and `k` fit in `i`'s place). Both are valid
//! because the load `Σa + D√Σb` grows with every item's `a` and `b` (models/packing.md §8,
//! "Stabilisation", "Pairs and recovery").

use super::instance::Instance;

/// See [`super::SocKnapsack`]'s `dominance`: pairs `(light, heavy)`, at most one per light item.
pub(super) fn dominance_pairs(inst: &Instance) -> Vec<(usize, usize)> {
    let n = inst.len();
    let mut order: Vec<usize> = (0..n).collect();
    let size = |i: usize| inst.a[i] + inst.b[i];
    order.sort_by(|&x, &y| size(x).total_cmp(&size(y)).then(x.cmp(&y)));
    let mut pairs = Vec::new();
    for (k, &light) in order.iter().enumerate() {
        let heavy = order[k + 1..]
            .iter()
            .copied()
            .find(|&h| inst.a[h] >= inst.a[light] && inst.b[h] >= inst.b[light]);
        if let Some(h) = heavy {
            pairs.push((light, h));
        }
    }
    pairs
}

/// See [`super::SocKnapsack`]'s `violated_pairs`. The items by decreasing dual: for each `i` and
/// each `j` that fits in it, the first `k` after `j` that fits in what is left is the best
/// partner of `j`; both scans stop once no pair can beat the best found (or `π_i`). The
/// scans run over the items laid out in that order, and skip a block of [`PAIR_BLOCK`]
/// items at once when the block's least `a` or least `b` does not fit (none of its items
/// would): the same triples as an item-by-item scan, found in a fraction of the time at
/// n = 1,000, where the scans were a fifth of a root's time.
pub(super) fn violated_pairs(inst: &Instance, pi: &[f64]) -> Vec<(usize, usize, usize)> {
    const TOL: f64 = 1e-9;
    let n = inst.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| pi[y].total_cmp(&pi[x]).then(x.cmp(&y)));
    let sorted = SortedItems::new(inst, pi, &order);
    let mut out = Vec::new();
    for (i, &pi_i) in pi.iter().enumerate().take(n) {
        let (ai, bi) = (inst.a[i], inst.b[i]);
        let mut best: Option<(f64, usize, usize)> = None;
        let mut from = 0;
        loop {
            let floor = best.map_or(pi_i + TOL, |b| b.0);
            let Some(p) = sorted.next_fit(from, ai, bi, i, |pk| 2.0 * pk <= floor) else {
                break;
            };
            let pj = sorted.pi[p];
            let (ra, rb) = (ai - sorted.a[p], bi - sorted.b[p]);
            if let Some(q) = sorted.next_fit(p + 1, ra, rb, i, |pk| pj + pk <= floor) {
                best = Some((pj + sorted.pi[q], order[p], order[q]));
            }
            from = p + 1;
        }
        if let Some((_, j, k)) = best {
            out.push((j, k, i));
        }
    }
    out
}

/// Items per block of [`SortedItems`].
const PAIR_BLOCK: usize = 8;

/// The items' terms and duals in the order of the pair scans, with each block's least terms.
struct SortedItems {
    a: Vec<f64>,
    b: Vec<f64>,
    pi: Vec<f64>,
    order: Vec<usize>,
    block_a: Vec<f64>,
    block_b: Vec<f64>,
}

impl SortedItems {
    fn new(inst: &Instance, pi: &[f64], order: &[usize]) -> Self {
        let a: Vec<f64> = order.iter().map(|&x| inst.a[x]).collect();
        let b: Vec<f64> = order.iter().map(|&x| inst.b[x]).collect();
        let least = |v: &[f64]| -> Vec<f64> {
            v.chunks(PAIR_BLOCK)
                .map(|c| c.iter().copied().fold(f64::INFINITY, f64::min))
                .collect()
        };
        Self {
            block_a: least(&a),
            block_b: least(&b),
            pi: order.iter().map(|&x| pi[x]).collect(),
            a,
            b,
            order: order.to_vec(),
        }
    }

    /// The first position from `from` whose item is not `skip` and fits in `(ra, rb)`, or
    /// `None` once `stop` holds for the dual at the position reached (the duals decrease).
    fn next_fit(
        &self,
        from: usize,
        ra: f64,
        rb: f64,
        skip: usize,
        stop: impl Fn(f64) -> bool,
    ) -> Option<usize> {
        let n = self.a.len();
        let mut q = from;
        while q < n {
            if stop(self.pi[q]) {
                return None;
            }
            if q.is_multiple_of(PAIR_BLOCK) {
                let c = q / PAIR_BLOCK;
                if self.block_a[c] > ra || self.block_b[c] > rb {
                    q += PAIR_BLOCK;
                    continue;
                }
            }
            if self.order[q] != skip && self.a[q] <= ra && self.b[q] <= rb {
                return Some(q);
            }
            q += 1;
        }
        None
    }
}
