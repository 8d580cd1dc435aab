//! Host relabelling for an adaptation: hosts are identical, so a placement computed from
//! scratch can have its host labels permuted freely. The permutation that keeps the most
//! memory where it already runs is a maximum-weight assignment between the placement's
//! hosts and the current hosts (Kuhn–Munkres, from the `pathfinding` crate).

use super::allocation::Placement;
use super::instance::Instance;
use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;

/// Memory weights are scaled to integers with this resolution (the assignment crate works on
/// an ordered numeric type); the migration cost is recomputed exactly afterwards.
const SCALE: f64 = 1e12;

/// `placement` with its host labels permuted so that it moves the least memory away from the
/// instance's current hosts (unchanged when the instance gives none).
pub fn least_migration(inst: &Instance, placement: &[usize]) -> Placement {
    if !inst.is_adaptation() {
        return placement.to_vec();
    }
    let h = inst.hosts;
    // kept[p][g]: memory that stays put if label p becomes host g.
    let mut kept = vec![0.0_f64; h * h];
    for (t, (job, &p)) in inst.tasks().zip(placement).enumerate() {
        if let Some(g) = inst.current_host(t) {
            kept[p * h + g] += job.mem;
        }
    }
    let weights = Matrix::from_vec(
        h,
        h,
        kept.iter().map(|&w| (w * SCALE).round() as i64).collect(),
    )
    .expect("an h × h matrix");
    let (_, to) = kuhn_munkres(&weights);
    placement.iter().map(|&p| to[p]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcsched::Job;

    /// Every permutation of `0..n`.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for k in 0..n {
                let mut q = p.clone();
                q.insert(k, n - 1);
                out.push(q);
            }
        }
        out
    }

    #[test]
    fn relabelling_is_the_cheapest_permutation() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let hosts = rng.random_range(1..=4);
            let n = rng.random_range(1..=8);
            let jobs = (0..n)
                .map(|_| Job::new(rng.random_range(0.05..1.0), rng.random_range(0.01..0.3)))
                .collect();
            let current = (0..n)
                .map(|_| rng.random_bool(0.7).then(|| rng.random_range(0..hosts)))
                .collect();
            let inst = Instance {
                hosts,
                jobs,
                current: Some(current),
                budget: None,
            };
            let p: Vec<usize> = (0..n).map(|_| rng.random_range(0..hosts)).collect();
            let best = permutations(hosts)
                .iter()
                .map(|s| inst.migration_cost(&p.iter().map(|&x| s[x]).collect::<Vec<_>>()))
                .fold(f64::INFINITY, f64::min);
            let q = least_migration(&inst, &p);
            assert!((inst.migration_cost(&q) - best).abs() < 1e-9);
            // Same partition of tasks into hosts.
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(p[a] == p[b], q[a] == q[b]);
                }
            }
        }
    }
}
