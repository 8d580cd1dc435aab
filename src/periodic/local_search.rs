//! A consistent-neighbourhood local search for `--method bp` (after Buljubašić & Vasquez,
//! "Consistent neighborhood search for one-dimensional bin packing and two-dimensional vector
//! packing", Computers & Operations Research 76, 2016): to save one machine of a packing of
//! `m`, the tasks of its two least loaded machines are set aside (`U`) and the `m − 2` others
//! are refilled, one or two at a time, from their own tasks and `U` by an exact search for the
//! heaviest subset that fits; when `U` fits in one machine, the packing has `m − 1`.
//!
//! Why it suits the §5.3 scenarios: where `⌈z_LP⌉ = ⌈W/C⌉` a packing at the bound must fill
//! almost every machine to a few thousandths of its capacity, and a machine refilled from its
//! eight (medium tasks) to forty (small tasks) own tasks plus the set-aside ones has millions
//! of subsets to choose from: one pass moves the slack of every machine into `U`. The
//! refill's objective is the mean load `Σ C_j` (what `W/C` counts) under the peak constraint
//! `Σ C_j + ‖Σ ρ_j e^{iφ_j}‖ ≤ C`. A heuristic: it never proves anything; every packing it
//! returns places each task once and fits (the caller checks it against the bound).

use super::instance::Instance;
use super::packing::Machine;
use super::peak::{fit_limit, load_of, norm, Load};
use crate::solver::Deadline;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the local search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalSearchSettings {
    /// Run it at all (when the root leaves a gap).
    pub enabled: bool,
    /// The share of the time left it may use (before the repacking and the tree).
    pub share: f64,
    /// Passes over the machines in a row that do not lower `U`'s load before an attempt
    /// gives up.
    pub patience: u64,
    /// Search nodes of one refill at most in the first pass of an attempt (its best subset
    /// so far is used beyond); tripled after each pass that does not lower `U`'s peak, up to
    /// 27 times.
    pub node_limit: u64,
    /// Seed of the draws (machine order, pairs).
    pub seed: u64,
    /// Two-machine moves only once a pass of single refills has not lowered `U`'s peak (then
    /// in every pass of the attempt); `false` (default): in every pass. They cost about twice
    /// a single refill and, while single refills still lower `U`, rarely add to them (300
    /// jobs, Small/Large seed 1: 1 of 12,107 kept against 80 of 12,114 single ones, two
    /// thirds of the search's time). Measured in models/periodic.md, "2. Local search".
    pub pairs_when_stalled: bool,
}

impl Default for LocalSearchSettings {
    fn default() -> Self {
        LocalSearchSettings {
            enabled: true,
            share: 0.5,
            patience: 30,
            node_limit: 20_000,
            seed: 1,
            pairs_when_stalled: false,
        }
    }
}

/// What the local search did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Searched {
    /// Attempts (one per machine it tried to save).
    pub attempts: u64,
    /// Machines saved.
    pub gains: u64,
    /// Refills applied.
    pub moves: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// A multiset of tasks as `(job, count)`, one entry per job, counts positive.
type Tasks = Vec<(usize, u32)>;

/// Lowers the machine count of `machines` (a packing of `inst`: every task once, every
/// machine fits) towards `target` until the deadline or an attempt that saves nothing.
pub fn local_search(
    inst: &Instance,
    machines: &mut Vec<Machine>,
    target: u64,
    ls: &LocalSearchSettings,
    deadline: &Deadline,
) -> Searched {
    let began = Instant::now();
    let mut out = Searched::default();
    let mut rng = ChaCha8Rng::seed_from_u64(ls.seed);
    while machines.len() as u64 > target.max(1) && machines.len() >= 2 && !deadline.expired() {
        out.attempts += 1;
        match save_one(inst, machines, ls, deadline, &mut rng, &mut out.moves) {
            Some(better) => {
                *machines = better;
                out.gains += 1;
            }
            None => break,
        }
    }
    out.seconds = began.elapsed().as_secs_f64();
    out
}

/// The unit vector of a load's phasor (zero when it has none): the direction in which a
/// task's phasor adds to the peak at first order.
fn direction(load: &Load) -> (f64, f64) {
    let r = norm(load.x, load.y);
    if r > 1e-12 {
        (load.x / r, load.y / r)
    } else {
        (0.0, 0.0)
    }
}

/// One attempt: a packing with one machine fewer, or `None`. `U` holds the tasks of the two
/// least loaded machines; each step refills one machine (or two) from its tasks and `U` with
/// the subset heaviest in `U`'s linearised peak (mean plus the phasor along `U`'s), kept
/// when `U`'s true peak falls; done when `U` fits one machine.
fn save_one(
    inst: &Instance,
    machines: &[Machine],
    ls: &LocalSearchSettings,
    deadline: &Deadline,
    rng: &mut ChaCha8Rng,
    moves: &mut u64,
) -> Option<Vec<Machine>> {
    let mut order: Vec<usize> = (0..machines.len()).collect();
    order.sort_by(|&a, &b| {
        machines[a]
            .load
            .mean
            .total_cmp(&machines[b].load.mean)
            .then(a.cmp(&b))
    });
    let mut set_aside: Tasks = Vec::new();
    for &i in &order[..2] {
        for &(j, n) in &machines[i].tasks {
            add(&mut set_aside, j, n);
        }
    }
    let mut kept: Vec<Machine> = order[2..].iter().map(|&i| machines[i].clone()).collect();
    let limit = fit_limit(inst);
    let mut aside = load_of(inst, &set_aside);
    let mut fruitless = 0;
    let mut searcher = Refill::new(inst, ls.node_limit);
    // Single refills alone until a pass of them stalls; both kinds from then on.
    let mut pairs = false;
    while aside.peak() > limit && !kept.is_empty() {
        if fruitless >= ls.patience || deadline.expired() {
            return None;
        }
        let before = aside.peak();
        searcher.node_limit = ls
            .node_limit
            .saturating_mul(3u64.pow(fruitless.min(3) as u32));
        pairs |= !ls.pairs_when_stalled || fruitless > 0;
        let mut idx: Vec<usize> = (0..kept.len()).collect();
        idx.shuffle(rng);
        for &i in &idx {
            if deadline.expired() {
                return None;
            }
            // One machine from its own tasks and `U`.
            let mut pool = kept[i].tasks.clone();
            for &(j, n) in &set_aside {
                add(&mut pool, j, n);
            }
            let d = direction(&aside);
            let best = searcher.least_leaving(&pool, d);
            let rest = minus(&pool, &best.tasks);
            let after = load_of(inst, &rest);
            if after.peak() < aside.peak() - 1e-12 {
                set_aside = rest;
                aside = after;
                kept[i] = machine(inst, &best.tasks);
                *moves += 1;
                if aside.peak() <= limit {
                    break;
                }
            }
            // Two machines, the other drawn at random: the heavier first, the other from
            // what is left; kept when `U`'s peak falls, or stays and one machine gets
            // heavier (slack gathers in the other).
            if !pairs {
                continue;
            }
            let k = rng.random_range(0..kept.len());
            if k == i {
                continue;
            }
            let mut pool = kept[i].tasks.clone();
            for &(j, n) in kept[k].tasks.iter().chain(&set_aside) {
                add(&mut pool, j, n);
            }
            let d = direction(&aside);
            let first = searcher.heaviest(&pool, d);
            let rest = minus(&pool, &first.tasks);
            let second = searcher.least_leaving(&rest, d);
            let left = minus(&rest, &second.tasks);
            let after = load_of(inst, &left);
            let along = |l: &Load| l.mean + l.x * d.0 + l.y * d.1;
            let heavier = first.weight.max(second.weight)
                > along(&kept[i].load).max(along(&kept[k].load)) + 1e-12;
            let fell = after.peak() < aside.peak() - 1e-12;
            if fell || (heavier && after.peak() <= aside.peak() + 1e-12) {
                set_aside = left;
                aside = after;
                kept[i] = machine(inst, &first.tasks);
                kept[k] = machine(inst, &second.tasks);
                *moves += 1;
                if aside.peak() <= limit {
                    break;
                }
            }
        }
        log::debug!(
            "local search: U peak {:.6}, mean {:.6}, {} jobs",
            aside.peak(),
            aside.mean,
            set_aside.len()
        );
        if aside.peak() < before - 1e-9 {
            fruitless = 0;
        } else {
            fruitless += 1;
        }
    }
    if aside.peak() > limit {
        return None;
    }
    kept.retain(|m| !m.tasks.is_empty());
    if !set_aside.is_empty() {
        kept.push(machine(inst, &set_aside));
    }
    (kept.len() < machines.len()).then_some(kept)
}

/// Adds `n` tasks of job `j` to a multiset.
fn add(tasks: &mut Tasks, j: usize, n: u32) {
    if n == 0 {
        return;
    }
    match tasks.iter_mut().find(|e| e.0 == j) {
        Some(e) => e.1 += n,
        None => tasks.push((j, n)),
    }
}

/// `a − b` (`b` a sub-multiset of `a`).
fn minus(a: &Tasks, b: &Tasks) -> Tasks {
    a.iter()
        .filter_map(|&(j, n)| {
            let m = b.iter().find(|e| e.0 == j).map_or(0, |e| e.1);
            (n > m).then_some((j, n - m))
        })
        .collect()
}

fn machine(inst: &Instance, tasks: &Tasks) -> Machine {
    Machine {
        load: load_of(inst, tasks),
        tasks: tasks.clone(),
    }
}

/// A subset and its weight.
struct Best {
    weight: f64,
    tasks: Tasks,
}

/// The exact search for the heaviest (largest weight) sub-multiset of a pool that fits one
/// machine: depth first over the jobs by decreasing weight, each job's count from the most
/// that fits the means down to 0; pruned by the weights left (they cannot beat the best) and
/// by the amplitudes left (they cannot bring the peak back under the capacity).
struct Refill<'a> {
    inst: &'a Instance,
    node_limit: u64,
    nodes: u64,
    groups: Vec<Group>,
    counts: Vec<u32>,
    best_weight: f64,
    best_score: f64,
    best_counts: Vec<u32>,
    limit: f64,
    goal: f64,
    /// Minimise the peak of what is left of this pool instead of maximising the weight.
    least_left: Option<Load>,
    /// The pool's weight along `d` with `least_left` (else 0).
    pool_along: f64,
}

/// One job of the pool.
struct Group {
    job: usize,
    count: u32,
    task: Load,
    weight: f64,
    amplitude: f64,
}

impl<'a> Refill<'a> {
    fn new(inst: &'a Instance, node_limit: u64) -> Self {
        Refill {
            inst,
            node_limit,
            nodes: 0,
            groups: Vec::new(),
            counts: Vec::new(),
            best_weight: 0.0,
            best_score: f64::NEG_INFINITY,
            best_counts: Vec::new(),
            least_left: None,
            pool_along: 0.0,
            limit: fit_limit(inst),
            goal: inst.capacity,
        }
    }

    /// The heaviest fitting sub-multiset of `pool` (within the node limit), a task of job
    /// `j` weighing `C_j + ⟨(x_j, y_j), d⟩` (at least 0: `ρ_j ≤ C_j`, `‖d‖ ≤ 1`).
    fn heaviest(&mut self, pool: &Tasks, d: (f64, f64)) -> Best {
        self.least_left = None;
        self.search(pool, d)
    }

    /// The fitting sub-multiset of `pool` whose complement has the least peak (within the
    /// node limit), searched in the order of the weights along `d`.
    fn least_leaving(&mut self, pool: &Tasks, d: (f64, f64)) -> Best {
        self.least_left = Some(load_of(self.inst, pool));
        self.search(pool, d)
    }

    fn search(&mut self, pool: &Tasks, d: (f64, f64)) -> Best {
        self.groups = pool
            .iter()
            .map(|&(j, n)| Group {
                job: j,
                count: n,
                task: Load::of_task(self.inst, j),
                weight: {
                    let t = &self.inst.jobs[j];
                    (t.mean + t.x() * d.0 + t.y() * d.1).max(0.0)
                },
                amplitude: self.inst.jobs[j].amplitude,
            })
            .collect();
        self.groups
            .sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.job.cmp(&b.job)));
        let g = self.groups.len();
        self.counts = vec![0; g];
        self.best_counts = vec![0; g];
        self.best_weight = 0.0;
        self.best_score = f64::NEG_INFINITY;
        self.nodes = 0;
        // Suffix sums of weights and amplitudes for the bounds.
        let mut weight_left = vec![0.0; g + 1];
        let mut amp_left = vec![0.0; g + 1];
        for i in (0..g).rev() {
            let gr = &self.groups[i];
            weight_left[i] = weight_left[i + 1] + f64::from(gr.count) * gr.weight;
            amp_left[i] = amp_left[i + 1] + f64::from(gr.count) * gr.amplitude;
        }
        match &self.least_left {
            None => {
                self.pool_along = 0.0;
                self.goal = self.inst.capacity.min(weight_left[0]) - 1e-9;
            }
            Some(_) => {
                self.pool_along = weight_left[0];
                // Done when what is left fits one machine.
                self.goal = -self.limit;
            }
        }
        self.dfs(0, Load::default(), 0.0, &weight_left, &amp_left);
        let tasks = self
            .groups
            .iter()
            .zip(&self.best_counts)
            .filter(|(_, &n)| n > 0)
            .map(|(gr, &n)| (gr.job, n))
            .collect();
        Best {
            weight: self.best_weight,
            tasks,
        }
    }

    /// The score of a subset: its weight, or (`least_left`) minus the peak of what it leaves.
    fn score(&self, load: &Load, weight: f64) -> f64 {
        match &self.least_left {
            None => weight,
            Some(pool) => -Load {
                mean: pool.mean - load.mean,
                x: pool.x - load.x,
                y: pool.y - load.y,
            }
            .peak(),
        }
    }

    fn dfs(&mut self, i: usize, load: Load, weight: f64, weight_left: &[f64], amp_left: &[f64]) {
        self.nodes += 1;
        let score = self.score(&load, weight);
        if score > self.best_score && load.peak() <= self.limit {
            self.best_score = score;
            self.best_weight = weight;
            self.best_counts.copy_from_slice(&self.counts);
        }
        // What a subset of this branch scores at most: its weight, or minus what it leaves
        // along `d` (a peak is at least its mean plus its phasor along any unit vector).
        let most = weight + weight_left[i] - self.pool_along;
        if i == self.groups.len()
            || self.best_score >= self.goal
            || self.nodes >= self.node_limit
            || most <= self.best_score + 1e-12
            || load.mean + norm(load.x, load.y) - amp_left[i] > self.limit
        {
            return;
        }
        let task = self.groups[i].task;
        let w = self.groups[i].weight;
        let room = ((self.limit - load.mean) / task.mean).floor().max(0.0);
        let most = self.groups[i]
            .count
            .min(room.min(f64::from(u32::MAX)) as u32);
        for n in (0..=most).rev() {
            self.counts[i] = n;
            let next = Load {
                mean: load.mean + f64::from(n) * task.mean,
                x: load.x + f64::from(n) * task.x,
                y: load.y + f64::from(n) * task.y,
            };
            self.dfs(
                i + 1,
                next,
                weight + f64::from(n) * w,
                weight_left,
                amp_left,
            );
            if self.best_score >= self.goal || self.nodes >= self.node_limit {
                break;
            }
        }
        self.counts[i] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::heuristics::best_fit_decreasing_within;
    use crate::periodic::peak;
    use crate::periodic::selfcheck::{assert_valid_and_reproducible, brute_force, random_instance};

    fn all_tasks(inst: &Instance) -> Vec<(usize, u32)> {
        inst.jobs
            .iter()
            .enumerate()
            .map(|(j, job)| (j, job.tasks))
            .collect()
    }

    /// The refill against enumeration of every sub-multiset on small pools.
    #[test]
    fn the_refill_finds_the_heaviest_fitting_subset() {
        for seed in 0..200u64 {
            let inst = random_instance(7_000 + seed, 2..=5, 1..=3);
            let pool = all_tasks(&inst);
            let d = (0.6, -0.8);
            let w: Vec<f64> = inst
                .jobs
                .iter()
                .map(|t| t.mean + t.x() * d.0 + t.y() * d.1)
                .collect();
            let got = Refill::new(&inst, u64::MAX).heaviest(&pool, d);
            let mut best = 0.0f64;
            let mut counts = vec![0u32; pool.len()];
            loop {
                let tasks: Tasks = pool
                    .iter()
                    .zip(&counts)
                    .filter(|(_, &n)| n > 0)
                    .map(|(&(j, _), &n)| (j, n))
                    .collect();
                let l = load_of(&inst, &tasks);
                if peak::fits(&inst, &l) {
                    best = best.max(tasks.iter().map(|&(j, n)| f64::from(n) * w[j]).sum());
                }
                let mut k = 0;
                while k < pool.len() && counts[k] == pool[k].1 {
                    counts[k] = 0;
                    k += 1;
                }
                if k == pool.len() {
                    break;
                }
                counts[k] += 1;
            }
            assert!(
                (got.weight - best).abs() <= 1e-9,
                "seed {seed}: {} vs {best}",
                got.weight
            );
            assert!(
                peak::fits(&inst, &load_of(&inst, &got.tasks)),
                "seed {seed}"
            );
            assert!(minus(&pool, &got.tasks).iter().all(|e| e.1 > 0));
        }
    }

    /// From best fit decreasing, the search keeps a packing that places every task once and
    /// fits, never below the brute-force optimum, the same bits from the same seed; it must
    /// save machines somewhere.
    #[test]
    fn the_search_keeps_a_valid_packing_never_below_the_optimum() {
        let mut gains = 0;
        for seed in 0..60u64 {
            let inst = random_instance(9_000 + seed, 3..=6, 1..=4);
            let opt = brute_force(&inst);
            let start = best_fit_decreasing_within(&inst, &Deadline::none());
            // Both pair-move regimes: every pass, or only once single refills stall.
            let ls = LocalSearchSettings {
                seed,
                patience: 3,
                pairs_when_stalled: seed % 2 == 1,
                ..LocalSearchSettings::default()
            };
            let run = || {
                let mut machines = start.clone();
                let r = local_search(&inst, &mut machines, 0, &ls, &Deadline::none());
                (machines, r.gains)
            };
            let (machines, g) = run();
            gains += g;
            assert!(machines.len() <= start.len(), "seed {seed}");
            assert!(
                machines.len() as u64 >= opt,
                "seed {seed}: below the optimum"
            );
            let again = run().0;
            assert_valid_and_reproducible(&inst, &machines, &again, seed);
        }
        assert!(gains > 5, "the search saved machines only {gains} times");
    }
}
