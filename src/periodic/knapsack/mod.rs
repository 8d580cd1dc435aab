//! The periodic knapsack (pricing subproblem, eqs. 9–10): choose task counts `U_j` maximising
//! `Σ π_j U_j` subject to one machine's peak `Σ U_j C_j + ‖Σ U_j (ρ_j cos φ_j, ρ_j sin φ_j)‖ ≤ C`
//! and `0 ≤ U_j ≤ min(N_j, ⌊C / C_j⌋)` integer. This file holds the data and the greedy;
//! `knapsack_relax.rs` the relaxations by direction, `knapsack_search.rs` their minimisation
//! over directions, `knapsack_lp.rs` the cancelling LP that finds the minimiser inside the disc,
//! `knapsack_socp.rs` Clarabel's node SOCP, `knapsack_rows.rs` the integer row test,
//! `knapsack_bnb.rs` the exact branch-and-bound, `expand.rs` its nodes.

mod bnb;
mod expand;
mod lp;
mod relax;
mod rows;
mod search;
mod socp;

pub use bnb::{branch_and_bound, NodeSolver, Search, Solved};
pub use relax::{directional, Bound, Relaxed};
pub use search::directional_search;
pub use socp::Socp;

use super::peak::norm;

/// One candidate job of the knapsack.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Index of the job in the instance.
    pub job: usize,
    /// `π_j`.
    pub profit: f64,
    /// `C_j`.
    pub mean: f64,
    /// `ρ_j cos φ_j`.
    pub x: f64,
    /// `ρ_j sin φ_j`.
    pub y: f64,
    /// Upper bound on `U_j`.
    pub ub: u32,
}

/// A knapsack instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Knapsack {
    /// Machine capacity `C`.
    pub capacity: f64,
    /// Candidate jobs (those with positive profit).
    pub items: Vec<Item>,
    /// Per item, the items it may not share a column with (branch-and-price's *apart*
    /// decisions); empty when there are none. Every relaxation ignores them (a superset:
    /// bounds stay valid); the search honours them exactly (see [`branch_and_bound`]).
    pub conflicts: Vec<Vec<usize>>,
    /// Per item, the fewest tasks a column must take (branch-and-price's cells, see
    /// `periodic::branched`); empty when there are none. Every search starts from this box.
    pub lower: Vec<u32>,
}

/// Absolute tolerance on the peak when checking that a count vector fits.
pub const FIT_TOLERANCE: f64 = super::peak::FIT_TOLERANCE;

impl Knapsack {
    /// A knapsack without conflicts.
    pub fn new(capacity: f64, items: Vec<Item>) -> Self {
        Knapsack {
            capacity,
            items,
            conflicts: Vec::new(),
            lower: Vec::new(),
        }
    }

    /// The fewest tasks of each item a column must take (zeros when there is no lower bound).
    pub fn lower_bounds(&self) -> Vec<u32> {
        if self.lower.is_empty() {
            vec![0; self.items.len()]
        } else {
            self.lower.clone()
        }
    }

    /// Whether item `i` may join `u`: no item it conflicts with is taken.
    #[inline]
    pub fn allowed(&self, u: &[u32], i: usize) -> bool {
        self.conflicts
            .get(i)
            .is_none_or(|c| c.iter().all(|&j| u[j] == 0))
    }

    /// A conflicting pair `u` takes, if any.
    pub fn conflict_in(&self, u: &[u32]) -> Option<(usize, usize)> {
        self.conflicts.iter().enumerate().find_map(|(i, c)| {
            let j = *c.iter().find(|&&j| u[i] > 0 && u[j] > 0)?;
            Some((i, j))
        })
    }

    /// Whether `u` takes no conflicting pair.
    pub fn compatible(&self, u: &[u32]) -> bool {
        self.conflict_in(u).is_none()
    }

    /// Conflict propagation on a box: an item taken at least once (`lower > 0`) excludes its
    /// conflicts (`upper = 0`); `false` when two conflicting items are both taken.
    pub fn exclude_conflicts(&self, lower: &[u32], upper: &mut [u32]) -> bool {
        for (i, c) in self.conflicts.iter().enumerate() {
            if lower[i] == 0 {
                continue;
            }
            for &j in c {
                if lower[j] > 0 {
                    return false;
                }
                upper[j] = 0;
            }
        }
        true
    }

    /// Peak of a count vector.
    pub fn peak(&self, u: &[u32]) -> f64 {
        let (mut m, mut x, mut y) = (0.0, 0.0, 0.0);
        for (it, &k) in self.items.iter().zip(u) {
            let k = f64::from(k);
            m += k * it.mean;
            x += k * it.x;
            y += k * it.y;
        }
        m + norm(x, y)
    }

    /// True when the count vector fits in a machine.
    pub fn fits(&self, u: &[u32]) -> bool {
        self.peak(u) <= self.capacity + FIT_TOLERANCE
    }

    /// `Σ π_j U_j`.
    pub fn value(&self, u: &[u32]) -> f64 {
        self.items
            .iter()
            .zip(u)
            .map(|(it, &k)| it.profit * f64::from(k))
            .sum()
    }

    /// Running sums `(Σ C U, Σ x U, Σ y U)` of a count vector.
    fn sums(&self, u: &[u32]) -> [f64; 3] {
        let mut s = [0.0; 3];
        for (it, &k) in self.items.iter().zip(u) {
            let k = f64::from(k);
            s[0] += k * it.mean;
            s[1] += k * it.x;
            s[2] += k * it.y;
        }
        s
    }

    /// Peak of the sums plus `n` tasks of item `i`.
    fn peak_with(&self, s: [f64; 3], i: usize, n: f64) -> f64 {
        let it = &self.items[i];
        s[0] + n * it.mean + norm(s[1] + n * it.x, s[2] + n * it.y)
    }

    /// The room the means leave after `n` more tasks of item `i` next to the sums `s`, and the
    /// squared norm of the phasor then: the peak fits iff the room is non-negative and holds
    /// the norm, decided here without a square root.
    #[inline]
    fn room_and_squared_norm(&self, s: [f64; 3], i: usize, n: f64) -> (f64, f64) {
        let it = &self.items[i];
        let room = self.capacity + FIT_TOLERANCE - (s[0] + n * it.mean);
        let (x, y) = (s[1] + n * it.x, s[2] + n * it.y);
        (room, x * x + y * y)
    }

    /// `true` when `n` more tasks of item `i` fit next to the sums `s` with a margin (the
    /// cases it leaves open go to [`Self::peak_with`]).
    #[inline]
    fn clearly_fits(&self, s: [f64; 3], i: usize, n: f64) -> bool {
        let (room, norm2) = self.room_and_squared_norm(s, i, n);
        room >= 0.0 && norm2 <= room * room * (1.0 - 1e-9)
    }

    /// `true` when `n` more tasks of item `i` overflow next to the sums `s` by a margin.
    #[inline]
    fn clearly_overflows(&self, s: [f64; 3], i: usize, n: f64) -> bool {
        let (room, norm2) = self.room_and_squared_norm(s, i, n);
        room < 0.0 || norm2 > room * room * (1.0 + 1e-9) + 1e-18
    }

    /// The largest count `n` in `lo..=hi` of item `i` that fits next to the sums `s`, given
    /// that `lo` fits (the peak is convex in `n`: binary search).
    fn most_that_fit(&self, s: [f64; 3], i: usize, mut lo: u32, mut hi: u32) -> u32 {
        let limit = self.capacity + FIT_TOLERANCE;
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.peak_with(s, i, f64::from(mid)) <= limit {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Bound tightening by feasibility: the peak never decreases when a task is added
    /// (`‖v + r‖ ≥ ‖v‖ − ρ` and `ρ ≤ C_j`), so no point of the box `lower ≤ U ≤ upper` takes
    /// more of item `i` than fit next to `lower` alone. Lowers `upper` to that; `false` when
    /// `lower` itself does not fit. The node relaxations miss this: they linearise the norm,
    /// and fractional amounts of tasks with opposite phases cancel (a large-task pricing root
    /// priced at 1.5–1.8 while no column is worth more than 1.0001).
    pub fn tighten(&self, lower: &[u32], upper: &mut [u32]) -> bool {
        let limit = self.capacity + FIT_TOLERANCE;
        let s = self.sums(lower);
        if s[0] + norm(s[1], s[2]) > limit {
            return false;
        }
        for (i, (&l, u)) in lower.iter().zip(upper.iter_mut()).enumerate() {
            if *u <= l {
                continue;
            }
            // The peak is at least the mean load (`‖v + r‖ ≥ 0`): no task fits past it.
            if s[0] + self.items[i].mean > limit {
                *u = l;
                continue;
            }
            if self.clearly_fits(s, i, f64::from(*u - l))
                || self.peak_with(s, i, f64::from(*u - l)) <= limit
            {
                continue;
            }
            *u = l + self.most_that_fit(s, i, 0, *u - l - 1);
        }
        true
    }

    /// Greedy completion of `u` within `[.., upper]`: repeatedly takes the job with the best
    /// profit per unit of peak increase and adds as many of its tasks as fit.
    pub fn complete(&self, u: &mut [u32], upper: &[u32]) {
        self.complete_among(u, upper, 0..self.items.len());
    }

    /// [`Self::complete`] when only the items `among` (in increasing order) can have
    /// `u_j < upper_j`, e.g. a branch-and-bound node's free items: the others are not looked at.
    pub fn complete_among(
        &self,
        u: &mut [u32],
        upper: &[u32],
        among: impl Iterator<Item = usize> + Clone,
    ) {
        let limit = self.capacity + FIT_TOLERANCE;
        let mut s = self.sums(u);
        loop {
            let peak = s[0] + norm(s[1], s[2]);
            let mut best: Option<(usize, f64)> = None;
            for i in among.clone() {
                let it = &self.items[i];
                if u[i] >= upper[i] || self.clearly_overflows(s, i, 1.0) || !self.allowed(u, i) {
                    continue;
                }
                let after = self.peak_with(s, i, 1.0);
                if after > limit {
                    continue;
                }
                let ratio = it.profit / (after - peak).max(1e-12);
                if best.is_none_or(|(_, r)| ratio > r) {
                    best = Some((i, ratio));
                }
            }
            let Some((i, _)) = best else { return };
            let lo = self.most_that_fit(s, i, 1, upper[i] - u[i]);
            u[i] += lo;
            let it = &self.items[i];
            let n = f64::from(lo);
            s = [s[0] + n * it.mean, s[1] + n * it.x, s[2] + n * it.y];
        }
    }

    /// Several greedy solutions: from scratch, and seeded with each of the `seeds` most
    /// profitable jobs at their largest count that fits (diverse columns per iteration).
    pub fn greedy_family(&self, seeds: usize) -> Vec<Vec<u32>> {
        let upper: Vec<u32> = self.items.iter().map(|i| i.ub).collect();
        let mut out = vec![self.greedy()];
        let mut order: Vec<usize> = (0..self.items.len()).collect();
        order.sort_by(|&a, &b| self.items[b].profit.total_cmp(&self.items[a].profit));
        for &i in order.iter().take(seeds) {
            let mut u = vec![0; self.items.len()];
            let mut only = vec![0; self.items.len()];
            only[i] = upper[i];
            self.complete(&mut u, &only);
            self.complete(&mut u, &upper);
            if !out.contains(&u) {
                out.push(u);
            }
        }
        out
    }

    /// Swap local search: repeatedly tries every "drop one task of job `a`, fill with job `b`,
    /// complete greedily" move and keeps the best, until no move improves (or `rounds` passes).
    pub fn improve(&self, u: &mut Vec<u32>, rounds: usize) {
        let upper: Vec<u32> = self.items.iter().map(|i| i.ub).collect();
        let mut value = self.value(u);
        let mut t = u.clone();
        for _ in 0..rounds {
            let mut best: Option<(Vec<u32>, f64)> = None;
            for a in (0..u.len()).filter(|&a| u[a] > 0) {
                t.copy_from_slice(u);
                t[a] -= 1;
                // Dropping a task keeps the rest fitting (peaks are monotone).
                let s = self.sums(&t);
                // `b` may join once one task of `a` has left.
                let joins = |b: usize| {
                    self.conflicts
                        .get(b)
                        .is_none_or(|c| c.iter().all(|&j| u[j] == 0 || (j == a && u[a] == 1)))
                };
                for b in (0..u.len()).filter(|&b| b != a && u[b] < upper[b] && joins(b)) {
                    if self.clearly_overflows(s, b, 1.0) {
                        continue;
                    }
                    let n = self.most_that_fit(s, b, 0, upper[b] - u[b]);
                    if n == 0 {
                        continue;
                    }
                    t.copy_from_slice(u);
                    t[a] -= 1;
                    t[b] += n;
                    self.complete(&mut t, &upper);
                    let v = self.value(&t);
                    if v > value + 1e-12 && best.as_ref().is_none_or(|(_, bv)| v > *bv) {
                        best = Some((t.clone(), v));
                    }
                }
            }
            match best {
                Some((b, v)) => {
                    *u = b;
                    value = v;
                }
                None => return,
            }
        }
    }

    /// A greedy solution from scratch.
    pub fn greedy(&self) -> Vec<u32> {
        let mut u = vec![0; self.items.len()];
        let upper: Vec<u32> = self.items.iter().map(|i| i.ub).collect();
        self.complete(&mut u, &upper);
        u
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// An item of `job` with a mean drawn from `means`, an amplitude up to the mean and any
    /// phase (shared by the knapsack modules' tests).
    pub(crate) fn random_item(
        rng: &mut ChaCha8Rng,
        job: usize,
        means: std::ops::Range<f64>,
        profit: f64,
        ub: u32,
    ) -> Item {
        let mean: f64 = rng.random_range(means);
        let rho = mean * rng.random::<f64>();
        let phi = std::f64::consts::TAU * rng.random::<f64>();
        Item {
            job,
            profit,
            mean,
            x: rho * phi.cos(),
            y: rho * phi.sin(),
            ub,
        }
    }

    fn random(rng: &mut ChaCha8Rng, n: usize) -> Knapsack {
        let items = (0..n)
            .map(|job| {
                let (profit, ub) = (rng.random_range(0.05..1.0), rng.random_range(1..=4));
                random_item(rng, job, 0.2..10.0, profit, ub)
            })
            .collect();
        Knapsack::new(20.0, items)
    }

    /// The square-root-free tests never contradict the peak: what clearly fits fits, what
    /// clearly overflows does not, and both decide most cases.
    #[test]
    fn clear_fit_tests_agree_with_the_peak() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut decided = 0;
        for case in 0..20_000 {
            let k = random(&mut rng, 3);
            let u: Vec<u32> = k
                .items
                .iter()
                .map(|it| rng.random_range(0..=it.ub))
                .collect();
            let s = k.sums(&u);
            let n = f64::from(rng.random_range(0..4u32));
            let fits = k.peak_with(s, 0, n) <= k.capacity + FIT_TOLERANCE;
            if k.clearly_fits(s, 0, n) {
                assert!(fits, "case {case}");
                decided += 1;
            }
            if k.clearly_overflows(s, 0, n) {
                assert!(!fits, "case {case}");
                decided += 1;
            }
        }
        assert!(decided > 19_000, "only {decided} decided");
    }

    /// Completing over a box's free items gives what completing over every item gives.
    #[test]
    fn completion_among_free_items_matches_the_full_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for case in 0..2_000 {
            let n = rng.random_range(1..12);
            let k = random(&mut rng, n);
            let lower: Vec<u32> = k
                .items
                .iter()
                .map(|it| rng.random_range(0..=it.ub.min(1)))
                .collect();
            let upper: Vec<u32> = k
                .items
                .iter()
                .zip(&lower)
                .map(|(it, &l)| rng.random_range(l..=it.ub))
                .collect();
            if !k.fits(&lower) {
                continue;
            }
            let free: Vec<usize> = (0..k.items.len())
                .filter(|&i| lower[i] < upper[i])
                .collect();
            let (mut a, mut b) = (lower.clone(), lower.clone());
            k.complete(&mut a, &upper);
            k.complete_among(&mut b, &upper, free.iter().copied());
            assert_eq!(a, b, "case {case}");
            assert!(k.fits(&a), "case {case}");
        }
    }
}
