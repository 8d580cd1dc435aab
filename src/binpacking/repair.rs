//! Repair rounds for a perfect packing (`Σw = k·C`, every bin full) the tight search did not
//! find: a large-neighbourhood search around its deepest partial packing, with the tight
//! search itself as the exact repair.
//!
//! A round releases `release` of the partial packing's full bins and searches, within
//! `nodes`, for the released items and every item left over in those bins plus the missing
//! ones (`tight::pack_partial`, its own seed each round). A packing found completes the
//! whole; otherwise the round's deepest partial packing replaces the released bins when it
//! holds at least as many (plateau moves are taken). Every other round is *guided* by an
//! ejection chain: a large item left over (above `C/2`) takes one of its two-item
//! completions among all the items, drawn at random; the bins holding those are released,
//! their large items, now without partners, take completions in turn, and so on until
//! `release` bins are named (the rest drawn at random). An AI bin is nearly always a large
//! item and two small ones, so a fix is such a chain, which random releases seldom hold.
//! The first descent of the tight search dies of an early choice that backtracking never
//! gets back to (models/packing.md §5); the rounds revisit every part of the packing.
//!
//! Seeded: the same seed gives the same rounds (the deadline only cuts them short). A
//! packing returned is checked complete and within capacity.

use std::collections::HashMap;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::tight::{pack_partial, Tight, TightSettings};
use crate::solver::Deadline;

/// Looks for a packing of `weights` into `k` full bins of capacity `cap` around `partial`
/// (full bins, each item in one at most): rounds of `settings.repair_release` bins and
/// `settings.repair_nodes` nodes, seeded by `settings.seed`, until the deadline. `None` when
/// the deadline comes first.
pub fn repair(
    weights: &[u64],
    cap: u64,
    k: usize,
    partial: Vec<Vec<usize>>,
    settings: &TightSettings,
    deadline: &Deadline,
) -> Option<Vec<Vec<usize>>> {
    let (release, nodes) = (settings.repair_release, settings.repair_nodes);
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    if total != k as u128 * cap as u128 || release == 0 || partial.len() > k {
        return None;
    }
    let mut bins = partial;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut rounds = 0u64;
    while !deadline.expired() {
        rounds += 1;
        let mut bin_of = vec![usize::MAX; weights.len()];
        for (b, bin) in bins.iter().enumerate() {
            for &i in bin {
                bin_of[i] = b;
            }
        }
        let freed = released(
            weights,
            cap,
            &bins,
            &bin_of,
            release,
            rounds.is_multiple_of(2),
            &mut rng,
        );
        let mut items: Vec<usize> = freed.iter().flat_map(|&b| bins[b].clone()).collect();
        items.extend((0..weights.len()).filter(|&i| bin_of[i] == usize::MAX));
        let sub: Vec<u64> = items.iter().map(|&i| weights[i]).collect();
        let target = (freed.len() + k - bins.len()) as u64;
        let round = TightSettings {
            node_limit: nodes,
            seed: rng.random(),
            ..settings.clone()
        };
        let (found, part) = pack_partial(&sub, cap, target, &round, deadline);
        let (new, done) = match found {
            Tight::Found(p) => (p, true),
            _ if part.len() >= freed.len() => (part, false),
            _ => continue,
        };
        let mut keep = vec![true; bins.len()];
        for &b in &freed {
            keep[b] = false;
        }
        let mut next: Vec<Vec<usize>> = bins
            .into_iter()
            .zip(keep)
            .filter_map(|(b, k)| k.then_some(b))
            .collect();
        next.extend(
            new.into_iter()
                .map(|b| b.into_iter().map(|j| items[j]).collect()),
        );
        bins = next;
        if done {
            log::debug!("perfect-packing repair: found in {rounds} rounds");
            return is_perfect(weights, cap, k, &bins).then_some(bins);
        }
    }
    log::debug!(
        "perfect-packing repair: none in {rounds} rounds, {} of {k} bins",
        bins.len()
    );
    None
}

/// The bins a round releases: `release` of them, drawn at random, the first ones named by a
/// two-item completion of a large item left over when `guided`.
fn released(
    weights: &[u64],
    cap: u64,
    bins: &[Vec<usize>],
    bin_of: &[usize],
    release: usize,
    guided: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let mut freed: Vec<usize> = Vec::new();
    if guided {
        // A chain: a large item left over takes one of its two-item completions (among all
        // the items, at random); the bins holding those go, and their large items, now
        // without partners, take theirs in turn, until `release` bins are named.
        let mut by_weight: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, &w) in weights.iter().enumerate() {
            if 2 * w < cap {
                by_weight.entry(w).or_default().push(i);
            }
        }
        let mut needy: Vec<usize> = (0..weights.len())
            .filter(|&i| bin_of[i] == usize::MAX && 2 * weights[i] > cap)
            .collect();
        needy.shuffle(rng);
        let mut steps = 0;
        while let Some(x) = needy.pop() {
            steps += 1;
            if freed.len() >= release || steps > 4 * release {
                break;
            }
            let room = cap - weights[x];
            let mut pairs = Vec::new();
            let mut lights: Vec<&u64> = by_weight.keys().filter(|&&a| 2 * a < room).collect();
            // The map's order is not seeded; the pairs' is.
            lights.sort_unstable();
            for a in lights {
                if let Some(zs) = by_weight.get(&(room - a)) {
                    let ys = &by_weight[a];
                    pairs.extend(ys.iter().flat_map(|&y| zs.iter().map(move |&z| (y, z))));
                }
            }
            let Some(&(y, z)) = pairs.choose(rng) else {
                continue;
            };
            for i in [y, z] {
                let b = bin_of[i];
                if b != usize::MAX && !freed.contains(&b) {
                    freed.push(b);
                    needy.extend(bins[b].iter().filter(|&&j| 2 * weights[j] > cap));
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..bins.len()).collect();
    order.shuffle(rng);
    for b in order {
        if freed.len() >= release.min(bins.len()) {
            break;
        }
        if !freed.contains(&b) {
            freed.push(b);
        }
    }
    freed
}

/// Every item in exactly one of at most `k` bins, each exactly full.
fn is_perfect(weights: &[u64], cap: u64, k: usize, bins: &[Vec<usize>]) -> bool {
    let mut seen = vec![false; weights.len()];
    bins.len() <= k
        && bins.iter().all(|b| {
            b.iter().map(|&i| weights[i]).sum::<u64>() == cap
                && b.iter().all(|&i| !std::mem::replace(&mut seen[i], true))
        })
        && seen.iter().all(|&s| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planted perfect packing of `k` bins: each bin's capacity split at random into 3–5
    /// items, shuffled.
    fn planted(k: usize, cap: u64, seed: u64) -> Vec<u64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = Vec::new();
        for _ in 0..k {
            let parts = rng.random_range(3..=5);
            crate::binpacking::tight::tests::cut_into(&mut rng, cap, parts, &mut w);
        }
        w.shuffle(&mut rng);
        w
    }

    fn with(release: usize, nodes: u64, seed: u64) -> TightSettings {
        TightSettings {
            repair_release: release,
            repair_nodes: nodes,
            seed,
            ..TightSettings::default()
        }
    }

    #[test]
    fn repairs_from_nothing_find_planted_packings_and_check_them() {
        let (cap, k) = (10_007u64, 30usize);
        let mut found = 0;
        for seed in 0..10 {
            let w = planted(k, cap, seed);
            let deadline = Deadline::after(Some(2.0));
            if let Some(bins) = repair(&w, cap, k, Vec::new(), &with(8, 300, seed), &deadline) {
                assert!(is_perfect(&w, cap, k, &bins));
                found += 1;
            }
        }
        assert!(found >= 8, "{found} of 10 planted packings found");
    }

    #[test]
    fn no_repair_without_a_perfect_total_and_the_same_seed_gives_the_same_bins() {
        let (cap, k) = (10_007u64, 20usize);
        let mut w = planted(k, cap, 3);
        let d = || Deadline::after(Some(1.0));
        let a = repair(&w, cap, k, Vec::new(), &with(6, 200, 5), &d());
        let b = repair(&w, cap, k, Vec::new(), &with(6, 200, 5), &d());
        assert_eq!(a, b);
        w[0] += 1;
        assert_eq!(repair(&w, cap, k, Vec::new(), &with(6, 200, 5), &d()), None);
        assert!(!is_perfect(&w, cap, k, &[vec![0]]));
    }
}
