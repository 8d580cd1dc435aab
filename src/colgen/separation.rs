//! Separation of the subset-row cuts of [`super::cuts`]: the most violated triples
//! (`Σ_c ⌊|c ∩ S|/2⌋ λ_c ≤ 1`) by enumeration over the pairs covered together, and the most
//! violated five-row sets (`≤ 2`) by enumeration when the fractional columns hold few rows,
//! else by a greedy search from every such row with one-row swaps.

use super::cuts::Subset;
use super::Column;
use std::collections::HashSet;

/// A master solution to separate: `primal` over the columns `pool` with `rows` covering
/// rows; cuts enter when their left-hand side exceeds the right-hand side by more than
/// `min_violation`, at most `max` of each size, none of `known`.
pub struct Separation<'a> {
    /// Covering rows.
    pub rows: usize,
    /// The master's columns (the first `primal.len()` of them solved).
    pub pool: &'a [Column],
    /// The master's solution.
    pub primal: &'a [f64],
    /// Least excess of a cut's left-hand side over its right-hand side.
    pub min_violation: f64,
    /// Cuts of each size at most, the most violated.
    pub max: usize,
    /// Cuts already in the master, not returned again.
    pub known: &'a [Subset],
}

impl Separation<'_> {
    /// The most violated triples, each with its left-hand side (above `1 + min_violation`).
    pub fn triples(&self) -> Vec<(Subset, f64)> {
        let (rows, pool, primal) = (self.rows, self.pool, self.primal);
        let (min_violation, max, known) = (self.min_violation, self.max, self.known);
        // Pair weights, per row its partners (ascending) and the support columns holding it.
        let pair = super::node::together_values(pool, primal);
        let w = |i: usize, j: usize| pair.get(&(i.min(j), i.max(j))).copied().unwrap_or(0.0);
        let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); rows];
        for &(i, j) in pair.keys() {
            adjacent[i].push(j);
            adjacent[j].push(i);
        }
        let n = primal.len().min(pool.len());
        let support = Support::new(rows, &pool[..n], &primal[..n]);
        let mut count = vec![0u8; support.value.len()];
        let known: HashSet<&[usize]> = known.iter().map(|s| &s[..]).collect();
        let mut found: Vec<(Subset, f64)> = Vec::new();
        let mut seen = HashSet::new();
        for (i, adj) in adjacent.iter_mut().enumerate() {
            adj.sort_unstable();
            let adj: &[usize] = adj;
            for (a, &j) in adj.iter().enumerate() {
                for &k in &adj[a + 1..] {
                    let (wij, wik, wjk) = (w(i, j), w(i, k), w(j, k));
                    if wij + wik + wjk <= 1.0 + min_violation {
                        continue;
                    }
                    let mut t = [i, j, k];
                    t.sort_unstable();
                    if known.contains(&t[..]) || !seen.insert(t) {
                        continue;
                    }
                    // Σ λ ⌊h/2⌋: a column holding all three counts once.
                    let lhs = support.lhs(&t, &mut count);
                    if lhs > 1.0 + min_violation {
                        found.push((t.to_vec(), lhs));
                    }
                }
            }
        }
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(max);
        found
    }

    /// The most violated five-row cuts (`Σ_c ⌊|c ∩ S|/2⌋ λ_c ≤ 2`), each with its left-hand
    /// side (above `2 + min_violation`). When the fractional columns hold
    /// at most `exhaustive` rows every five of them is tried; otherwise a greedy search from each
    /// of those rows adds the row that raises the left-hand side most (ties: the lowest index),
    /// then swaps one row at a time while that raises it.
    pub fn fives(&self, exhaustive: usize) -> Vec<(Subset, f64)> {
        let (rows, pool, primal) = (self.rows, self.pool, self.primal);
        let (min_violation, max, known) = (self.min_violation, self.max, self.known);
        let n = primal.len().min(pool.len());
        let support = Support::new(rows, &pool[..n], &primal[..n]);
        let fractional = |c: &usize| primal[*c] > 1e-9 && primal[*c] < 1.0 - 1e-9;
        let mut frac: Vec<usize> = (0..n)
            .filter(fractional)
            .flat_map(|c| pool[c].iter().map(|&(r, _)| r))
            .collect();
        frac.sort_unstable();
        frac.dedup();
        if frac.len() < 5 {
            return Vec::new();
        }
        let known: HashSet<&[usize]> = known.iter().map(|s| &s[..]).collect();
        let mut count = vec![0u8; support.value.len()];
        let mut found: Vec<(Subset, f64)> = Vec::new();
        let mut seen: HashSet<Subset> = HashSet::new();
        let mut record = |mut set: Vec<usize>, lhs: f64| {
            set.sort_unstable();
            if lhs > 2.0 + min_violation && !known.contains(&set[..]) && seen.insert(set.clone()) {
                found.push((set, lhs));
            }
        };
        if frac.len() <= exhaustive.min(64) {
            let mut pick = [0, 1, 2, 3, 4];
            loop {
                let set: Vec<usize> = pick.iter().map(|&b| frac[b]).collect();
                let lhs = support.lhs(&set, &mut count);
                record(set, lhs);
                if !next_five(&mut pick, frac.len()) {
                    break;
                }
            }
        } else {
            for &seed in &frac {
                let mut set = vec![seed];
                while set.len() < 5 {
                    let mut best: Option<(f64, usize)> = None;
                    for r in support.neighbours(&set) {
                        set.push(r);
                        let v = support.lhs(&set, &mut count);
                        set.pop();
                        if best.is_none_or(|(b, _)| v > b + 1e-12) {
                            best = Some((v, r));
                        }
                    }
                    let Some((_, r)) = best else { break };
                    set.push(r);
                }
                if set.len() < 5 {
                    continue;
                }
                let mut lhs = support.lhs(&set, &mut count);
                // One-row swaps while one raises the left-hand side (at most 5 passes).
                for _ in 0..5 {
                    let mut better = false;
                    for pos in 0..5 {
                        let out = set[pos];
                        let rest: Vec<usize> = set.iter().copied().filter(|&r| r != out).collect();
                        for r in support.neighbours(&rest) {
                            set[pos] = r;
                            let v = support.lhs(&set, &mut count);
                            if v > lhs + 1e-9 {
                                lhs = v;
                                better = true;
                                break;
                            }
                            set[pos] = out;
                        }
                    }
                    if !better {
                        break;
                    }
                }
                record(set, lhs);
            }
        }
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(max);
        found
    }
}

/// The support of a master solution seen from its rows: per support column its value and
/// rows, per row the support columns holding it.
struct Support {
    value: Vec<f64>,
    rows_of: Vec<Vec<usize>>,
    holding: Vec<Vec<usize>>,
}

impl Support {
    fn new(rows: usize, pool: &[Column], primal: &[f64]) -> Support {
        let mut s = Support {
            value: Vec::new(),
            rows_of: Vec::new(),
            holding: vec![Vec::new(); rows],
        };
        for (col, &v) in pool.iter().zip(primal).filter(|(_, &v)| v > 1e-9) {
            let k = s.value.len();
            s.value.push(v);
            s.rows_of.push(col.iter().map(|&(r, _)| r).collect());
            for &(r, _) in col {
                s.holding[r].push(k);
            }
        }
        s
    }

    /// `Σ_c λ_c ⌊|c ∩ set|/2⌋`, with `count` a zeroed scratch vector (one per column) that
    /// is zeroed again on return.
    fn lhs(&self, set: &[usize], count: &mut [u8]) -> f64 {
        let mut total = 0.0;
        for &r in set {
            for &c in &self.holding[r] {
                count[c] += 1;
                if count[c].is_multiple_of(2) {
                    total += self.value[c];
                }
            }
        }
        for &r in set {
            for &c in &self.holding[r] {
                count[c] = 0;
            }
        }
        total
    }

    /// The rows sharing a support column with a row of `set`, not in it.
    fn neighbours(&self, set: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = set
            .iter()
            .flat_map(|&r| self.holding[r].iter())
            .flat_map(|&c| self.rows_of[c].iter().copied())
            .filter(|r| !set.contains(r))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The next five of `m` in lexicographic order; false after the last.
fn next_five(pick: &mut [usize; 5], m: usize) -> bool {
    for i in (0..5).rev() {
        if pick[i] < m - 5 + i {
            pick[i] += 1;
            for j in i + 1..5 {
                pick[j] = pick[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// The Petersen graph's 15 edges over vertices 0–9: the outer pentagon 0–4 first (edges
/// 0–4), then the inner pentagram and the spokes.
#[cfg(test)]
pub(crate) fn petersen_edges() -> Vec<(usize, usize)> {
    (0..5)
        .map(|i| (i, (i + 1) % 5))
        .chain((0..5).map(|i| (5 + i, 5 + (i + 2) % 5)))
        .chain((0..5).map(|i| (i, i + 5)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The point to separate, every violation counted.
    fn point<'a>(
        rows: usize,
        pool: &'a [Column],
        primal: &'a [f64],
        known: &'a [Subset],
    ) -> Separation<'a> {
        Separation {
            rows,
            pool,
            primal,
            min_violation: 0.0,
            max: usize::MAX,
            known,
        }
    }

    /// `Σ_c λ_c ⌊|c ∩ set|/2⌋` by its definition.
    fn lhs(pool: &[Column], primal: &[f64], set: &[usize]) -> f64 {
        pool.iter()
            .zip(primal)
            .map(|(c, &l)| l * (c.iter().filter(|(r, _)| set.contains(r)).count() / 2) as f64)
            .sum()
    }

    /// The most violated five-row cut by trying every five rows that some column holds (a
    /// row no column holds adds nothing to a cut: the separation leaves it out).
    fn brute(rows: usize, pool: &[Column], primal: &[f64]) -> f64 {
        let held = |r: usize| pool.iter().any(|c| c.iter().any(|&(x, _)| x == r));
        let mut best = 0.0f64;
        let mut pick = [0, 1, 2, 3, 4];
        loop {
            if pick.iter().all(|&r| held(r)) {
                best = best.max(lhs(pool, primal, &pick));
            }
            if !next_five(&mut pick, rows) {
                return best;
            }
        }
    }

    /// The Petersen graph's perfect matchings at ½ each (its fractional edge colouring): the
    /// outer pentagon's cut holds 2.5 > 2, found both by enumeration and by the greedy search.
    #[test]
    fn the_petersen_pentagon_is_separated() {
        let edges = petersen_edges();
        let mut pms: Vec<Column> = Vec::new();
        for m in 0u32..1 << 15 {
            let set: Vec<usize> = (0..15).filter(|e| m >> e & 1 == 1).collect();
            let mut covered: Vec<usize> =
                set.iter().flat_map(|&e| [edges[e].0, edges[e].1]).collect();
            covered.sort_unstable();
            covered.dedup();
            if set.len() == 5 && covered.len() == 10 {
                pms.push(set.iter().map(|&e| (e, 1.0)).collect());
            }
        }
        assert_eq!(pms.len(), 6);
        let primal = vec![0.5; 6];
        for exhaustive in [64, 0] {
            let found = point(15, &pms, &primal, &[]).fives(exhaustive);
            let pentagon = found.iter().find(|(s, _)| s == &vec![0, 1, 2, 3, 4]);
            assert!(
                pentagon.is_some_and(|(_, l)| (l - 2.5).abs() < 1e-12),
                "exhaustive {exhaustive}: {found:?}"
            );
            assert!(found.iter().all(|(_, l)| (l - 2.5).abs() < 1e-12));
        }
    }

    /// On random fractional solutions: enumeration finds the most violated five rows (as every
    /// five tried by definition), the greedy search reports only violated ones, each with its
    /// true left-hand side, and neither repeats a known cut.
    #[test]
    fn five_row_separation_matches_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut found_some, mut greedy_some) = (0, 0);
        for case in 0..300 {
            let rows = rng.random_range(5..=10);
            let cols = rng.random_range(2..=12);
            let pool: Vec<Column> = (0..cols)
                .map(|_| {
                    let mut c: Vec<usize> = (0..rows).filter(|_| rng.random_bool(0.4)).collect();
                    if c.is_empty() {
                        c.push(rng.random_range(0..rows));
                    }
                    c.into_iter().map(|r| (r, 1.0)).collect()
                })
                .collect();
            let primal: Vec<f64> = (0..cols).map(|_| rng.random_range(0.0..1.0)).collect();
            let want = brute(rows, &pool, &primal);
            let all = point(rows, &pool, &primal, &[]).fives(64);
            let greedy = point(rows, &pool, &primal, &[]).fives(0);
            for (s, l) in point(rows, &pool, &primal, &[]).triples() {
                assert!(
                    (lhs(&pool, &primal, &s) - l).abs() < 1e-9,
                    "case {case}: {s:?}"
                );
            }
            for (s, l) in all.iter().chain(&greedy) {
                assert!(
                    s.len() == 5 && s.windows(2).all(|p| p[0] < p[1]),
                    "case {case}"
                );
                assert!((lhs(&pool, &primal, s) - l).abs() < 1e-9, "case {case}");
                assert!(*l > 2.0, "case {case}");
            }
            if want > 2.0 + 1e-9 {
                // Enumeration covers the rows of the fractional columns; every row is in one
                // here unless a value is 0 or 1 exactly (measure zero).
                assert!(
                    (all[0].1 - want).abs() < 1e-9,
                    "case {case}: {} vs {want}",
                    all[0].1
                );
                found_some += 1;
                greedy_some += usize::from(!greedy.is_empty());
                let known = vec![all[0].0.clone()];
                let again = point(rows, &pool, &primal, &known).fives(64);
                assert!(again.iter().all(|(s, _)| s != &known[0]), "case {case}");
            } else {
                assert!(all.is_empty() && greedy.is_empty(), "case {case}");
            }
        }
        assert!(
            found_some >= 20,
            "only {found_some} cases with a violated cut"
        );
        assert!(
            greedy_some * 2 >= found_some,
            "greedy {greedy_some} of {found_some}"
        );
    }
}
