//! The aligned fill (models/periodic.md, "1a. The aligned fill"): a constructive packing
//! into a *target* number of machines `m`, for the instances whose bound is the peak of the
//! total demand, `⌈(W + ‖A‖) / C⌉` (`W` the sum of the means, `A` the sum of the phasors).
//!
//! At the instant `t*` of the total's peak the machines' loads add up to `W + ‖A‖`, so
//! `Σ_k (C − load_k(t*)) = m·C − W − ‖A‖ =: B`, the *budget*, whatever the packing. A machine
//! fits when its peak `mean_k + ‖A_k‖` is at most `C`, and its peak is at least its load at
//! `t*`, `mean_k + A_k·u` (`u` the unit vector of `A`): with a budget of a fraction of one
//! machine (the open §5.3 instances: 2.4 units of capacity over 1,300 machines), every machine
//! must be nearly full at `t*` *and* have its phasor along `u`. Local moves from a looser
//! packing rarely get there; this builds one machine at a time so that each is:
//! - a random fill (tasks drawn uniformly from those left, so that the pool stays a scaled copy
//!   of the instance; of `candidates` draws the one that keeps the machine's phasor closest to
//!   its share of what is left of `A`, with a pull towards the jobs least used so far), up to
//!   about one large task below `C` at `t*`;
//! - completed exactly: the best of at most five more tasks (a group of up to two, or three
//!   on a retry, over `completion_types` jobs, against one from a list of up to two over all
//!   jobs and three over `triple_types`, sorted by load at `t*`) whose machine fits and wastes
//!   at most its share of what is left of `B`, scored by that waste and its phasor's distance
//!   to its share; in the first half of a machine's tries its phasor along `u` may exceed its
//!   share by `along_slack` at most (machines with a long phasor fit more easily, and without
//!   the limit the early ones take the aligned tasks and leave the last ones a pool that
//!   points against `u`);
//! - the last machine takes every task left; the attempt succeeds when it fits.
//!
//! An attempt either returns a valid packing into at most `m` machines or nothing; it proves
//! nothing, and the bound that closes a gap comes from elsewhere (the peak bound, the root).

mod completion;

use super::instance::Instance;
use super::packing::Machine;
use super::peak::{load_of, norm, total_load, Load};
use crate::solver::Deadline;
use completion::{complete, left_side, right_side, Group, NONE};
use log::debug;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the aligned fill (`[bp.aligned_fill]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlignedFillSettings {
    /// Run it at all.
    pub enabled: bool,
    /// The share of the time left it may use, before the root and again after it.
    pub share: f64,
    /// Attempts (seeds) per target machine count.
    pub attempts: u32,
    /// Random fills of one machine before the attempt gives up; each allows half as much
    /// waste again as the one before.
    pub retries: u32,
    /// Tasks drawn for each place of the random fill; the best aligned one is kept.
    pub candidates: usize,
    /// Pull of the random fill towards the jobs least used so far (0: none).
    pub balance: f64,
    /// Jobs the exact completion looks at, drawn among those left (pairs of them: about
    /// half its square).
    pub completion_types: usize,
    /// Jobs whose triples join the completion's right-hand side (drawn once per attempt;
    /// their number grows as its cube: 100 jobs make 171,700 triples).
    pub triple_types: usize,
    /// In the first half of a machine's tries, its phasor along `u` may exceed its share of
    /// what is left by this much at most.
    pub along_slack: f64,
    /// Candidate completions checked per machine at most (the best so far is kept).
    pub checks: u32,
    /// Weight, in the completion's score, of the machine's phasor's distance to its share
    /// of what is left of the total phasor (the score's other term is the waste at `t*`).
    pub steer: f64,
    /// Seed of the first attempt (attempt `i` uses `seed + i`).
    pub seed: u64,
    /// After the root, fill again even when the attempt at the peak bound spent its budget
    /// more than twice as fast as it may (large tasks; on the measured instances the fill
    /// after the root never succeeded there).
    pub after_pace: bool,
    /// No attempt when the instance has fewer tasks than this per target machine: each
    /// machine must be filled to a thousandth of its capacity at `t*`, which a few large
    /// tasks are too coarse for (models/periodic.md: on the §5.3 and 300-job instances no
    /// attempt at 3.9 tasks a machine ever succeeded, and at 300 jobs they spent the fill's
    /// whole share, 24 s of 120, before the pace rule caught them; 0: always attempt).
    pub min_tasks_per_machine: f64,
}

impl Default for AlignedFillSettings {
    fn default() -> Self {
        AlignedFillSettings {
            enabled: true,
            share: 0.2,
            attempts: 2,
            retries: 12,
            candidates: 6,
            balance: 1.0,
            completion_types: 64,
            triple_types: 100,
            checks: 20_000,
            along_slack: 0.05,
            steer: 0.05,
            seed: 1,
            after_pace: false,
            min_tasks_per_machine: 5.0,
        }
    }
}

/// What the fill did.
#[derive(Debug, Clone, Default)]
pub struct Filled {
    /// The packing, when an attempt succeeded.
    pub machines: Option<Vec<Machine>>,
    /// Attempts made.
    pub attempts: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// An attempt spent its budget more than twice as fast as it may, or the instance has too
    /// few tasks a machine to try (its sizes force the waste, not the draw).
    pub paced: bool,
}

/// Tries `settings.attempts` seeds, each into `target` machines, until one succeeds or the
/// deadline passes.
pub fn aligned_fill(
    inst: &Instance,
    target: u64,
    settings: &AlignedFillSettings,
    deadline: &Deadline,
) -> Filled {
    let began = Instant::now();
    let geometry = Geometry::new(inst, target);
    let mut out = Filled::default();
    let tasks: u64 = inst.jobs.iter().map(|j| u64::from(j.tasks)).sum();
    if (tasks as f64) < settings.min_tasks_per_machine * target as f64 {
        debug!(
            "aligned fill into {target}: not tried, {:.2} tasks a machine",
            tasks as f64 / target.max(1) as f64
        );
        out.paced = true;
        return out;
    }
    if geometry.budget < -1e-9 * inst.capacity * target as f64 {
        return out;
    }
    for a in 0..u64::from(settings.attempts) {
        if deadline.expired() {
            break;
        }
        out.attempts += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed.wrapping_add(a));
        let t = Instant::now();
        let got = attempt(inst, &geometry, settings, &mut rng, deadline);
        debug!(
            "aligned fill into {target}: attempt {a} {} in {:.2} s",
            match &got {
                Ok(_) => "succeeded",
                Err(Failed::Pace) => "spent its budget too fast",
                Err(_) => "failed",
            },
            t.elapsed().as_secs_f64()
        );
        match got {
            Ok(m) => {
                out.machines = Some(m);
                break;
            }
            // The instance, not the draw: another seed spends it as fast.
            Err(Failed::Pace) => {
                out.paced = true;
                break;
            }
            Err(Failed::Deadline) => break,
            Err(Failed::Stuck) => {}
        }
    }
    out.seconds = began.elapsed().as_secs_f64();
    out
}

/// Why an attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failed {
    /// A machine found no completion, or the last one does not fit: another seed may do.
    Stuck,
    /// The budget went more than twice as fast as it can: the instance, not the draw.
    Pace,
    /// The deadline.
    Deadline,
}

/// Each job's load at `t*` and phasor across `u`, and the budget.
struct Geometry {
    target: usize,
    /// Load of one task of job `j` at `t*`: `mean + a·u`.
    s: Vec<f64>,
    /// `a·u`.
    along: Vec<f64>,
    /// `a·u⊥`.
    across: Vec<f64>,
    /// `m·C − W − ‖A‖`.
    budget: f64,
    /// Every task's load together (`W` and `A`).
    total: Load,
    /// Tasks in all.
    tasks: u64,
    /// `(u_x, u_y)`.
    u: (f64, f64),
}

impl Geometry {
    fn new(inst: &Instance, target: u64) -> Geometry {
        let total = total_load(inst);
        let a = norm(total.x, total.y);
        let u = if a > 1e-12 {
            (total.x / a, total.y / a)
        } else {
            (1.0, 0.0)
        };
        let along: Vec<f64> = inst
            .jobs
            .iter()
            .map(|j| j.x() * u.0 + j.y() * u.1)
            .collect();
        let across = inst
            .jobs
            .iter()
            .map(|j| -j.x() * u.1 + j.y() * u.0)
            .collect();
        let s = inst
            .jobs
            .iter()
            .zip(&along)
            .map(|(j, a)| j.mean + a)
            .collect();
        let m = target.max(1) as f64;
        Geometry {
            target: target as usize,
            s,
            along,
            across,
            budget: m * inst.capacity - total.peak(),
            total,
            tasks: inst.jobs.iter().map(|j| u64::from(j.tasks)).sum(),
            u,
        }
    }

    fn along_of(&self, l: &Load) -> f64 {
        l.x * self.u.0 + l.y * self.u.1
    }

    fn across_of(&self, l: &Load) -> f64 {
        -l.x * self.u.1 + l.y * self.u.0
    }
}

/// Counts of tasks left per job, with sampling of a task uniformly (a Fenwick tree).
struct Pool {
    left: Vec<u32>,
    tree: Vec<u64>,
    total: u64,
}

impl Pool {
    fn new(counts: &[u32]) -> Pool {
        let mut p = Pool {
            left: vec![0; counts.len()],
            tree: vec![0; counts.len() + 1],
            total: 0,
        };
        for (j, &c) in counts.iter().enumerate() {
            p.change(j, i64::from(c));
        }
        p
    }

    fn change(&mut self, j: usize, d: i64) {
        self.left[j] = (i64::from(self.left[j]) + d) as u32;
        self.total = (self.total as i64 + d) as u64;
        let mut i = j + 1;
        while i < self.tree.len() {
            self.tree[i] = (self.tree[i] as i64 + d) as u64;
            i += i & i.wrapping_neg();
        }
    }

    /// The job of the `r`-th task left (`r < total`).
    fn find(&self, mut r: u64) -> usize {
        let n = self.tree.len() - 1;
        let (mut pos, mut step) = (0usize, n.next_power_of_two());
        while step > 0 {
            let next = pos + step;
            if next <= n && self.tree[next] <= r {
                pos = next;
                r -= self.tree[next];
            }
            step /= 2;
        }
        pos
    }
}

/// One attempt: machines `0..m−1` filled and completed, the last takes what is left.
fn attempt(
    inst: &Instance,
    g: &Geometry,
    settings: &AlignedFillSettings,
    rng: &mut ChaCha8Rng,
    deadline: &Deadline,
) -> Result<Vec<Machine>, Failed> {
    let counts: Vec<u32> = inst.jobs.iter().map(|j| j.tasks).collect();
    let mut pool = Pool::new(&counts);
    let right = right_side(inst, g, settings, rng);
    let mut machines = Vec::with_capacity(g.target);
    // What is left of the total phasor, along and across `u`: each machine aims at its share.
    let mut rest = g.total;
    let mut used = 0.0;
    for k in 0..g.target.saturating_sub(1) {
        if pool.total == 0 {
            break;
        }
        if deadline.expired() {
            return Err(Failed::Deadline);
        }
        let left = (g.target - k) as f64;
        // Spending at `allow` leaves `B·√(left/m)` of the budget; an attempt spending it more
        // than twice as fast will not last (the large tasks at the peak bound, where the LP
        // bound is far above it: 95% spent at machine 772 of 1,260).
        let pace = g.budget * (1.0 - (left / g.target as f64).sqrt());
        if used > 2.0 * pace + 0.05 * g.budget {
            debug!(
                "aligned fill into {}: {used:.4} of the budget {:.4} spent by machine {k}, more than twice the pace",
                g.target, g.budget
            );
            return Err(Failed::Pace);
        }
        let room = (g.budget - used).max(0.0);
        let aim = (g.along_of(&rest) / left, g.across_of(&rest) / left);
        let mut allow = 0.5 * room / left;
        let mut built = None;
        for r in 0..settings.retries.max(1) {
            built = build_machine(
                inst,
                g,
                settings,
                &right,
                &mut pool,
                allow,
                aim,
                r > 0,
                r < settings.retries / 2,
                rng,
            );
            if built.is_some() {
                break;
            }
            allow = (allow * 1.5).min(room);
        }
        let Some(tasks) = built else {
            debug!(
                "rest: mean {:.3} along {:.3} across {:.3}, machines left {}, capacity left {:.3}, types left {}",
                rest.mean, g.along_of(&rest), g.across_of(&rest), left, left * inst.capacity,
                pool.left.iter().filter(|&&n| n > 0).count()
            );
            debug!(
                "aligned fill into {}: no completion for machine {k} ({} tasks left, {:.4} of the budget {:.4} used)",
                g.target, pool.total, used, g.budget
            );
            return Err(Failed::Stuck);
        };
        let load = load_of(inst, &tasks);
        used += inst.capacity - (load.mean + g.along_of(&load));
        rest = Load {
            mean: rest.mean - load.mean,
            x: rest.x - load.x,
            y: rest.y - load.y,
        };
        for &(j, n) in &tasks {
            pool.change(j, -i64::from(n));
        }
        machines.push(Machine { load, tasks });
    }
    if pool.total > 0 {
        let tasks = nonzero(&pool.left);
        let load = load_of(inst, &tasks);
        if load.peak() > inst.capacity {
            debug!(
                "aligned fill into {}: the last machine's peak is {:.4} ({} tasks)",
                g.target,
                load.peak(),
                pool.total
            );
            return Err(Failed::Stuck);
        }
        machines.push(Machine { load, tasks });
    }
    Ok(machines)
}

/// `(job, count)` for every job with a count.
fn nonzero(counts: &[u32]) -> Vec<(usize, u32)> {
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(j, &n)| (j, n))
        .collect()
}

/// One machine: the random fill, then the exact completion; `None` when no completion fits
/// within `allow` of waste at `t*`. Leaves the pool as it found it. Retries after the first
/// complete with up to five tasks instead of four.
#[allow(clippy::too_many_arguments)]
fn build_machine(
    inst: &Instance,
    g: &Geometry,
    settings: &AlignedFillSettings,
    right: &[Group],
    pool: &mut Pool,
    allow: f64,
    aim: (f64, f64),
    triples: bool,
    strict: bool,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<(usize, u32)>> {
    let c = inst.capacity;
    let n = inst.jobs.len();
    let largest = (0..n)
        .filter(|&j| pool.left[j] > 0)
        .map(|j| g.s[j])
        .fold(0.0, f64::max);
    let reach = (1.2 * largest).min(c);
    let mut taken: Vec<u32> = vec![0; n];
    let mut load = Load::default();
    let mut s = 0.0;
    let mut misses = 0;
    let mut placed: Vec<usize> = Vec::new();
    while pool.total > 0 && s < c - 1.4 * reach {
        let rbar = pool.total as f64 / g.tasks as f64;
        let mut best: Option<(f64, usize)> = None;
        for _ in 0..settings.candidates.max(1) {
            let j = pool.find(rng.random_range(0..pool.total));
            let frac = ((s + g.s[j]) / c).min(1.0);
            let across = g.across_of(&load) + g.across[j] - aim.1 * frac;
            let along = g.along_of(&load) + g.along[j] - aim.0 * frac;
            let r = f64::from(pool.left[j]) / f64::from(inst.jobs[j].tasks);
            let score =
                across.abs() + along.abs() - settings.balance * (r - rbar) / rbar.max(1e-12);
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, j));
            }
        }
        let (_, j) = best?;
        if s + g.s[j] > c - reach {
            misses += 1;
            if misses > 30 {
                break;
            }
            continue;
        }
        pool.change(j, -1);
        taken[j] += 1;
        placed.push(j);
        load.add(inst, j, 1.0);
        s += g.s[j];
    }
    let left = left_side(inst, g, settings, pool, triples, rng);
    let cap = if strict {
        aim.0.max(0.0) + settings.along_slack
    } else {
        f64::INFINITY
    };
    let done = complete(
        inst, g, settings, &left, right, pool, &load, allow, aim, cap,
    );
    for &j in &placed {
        pool.change(j, 1);
    }
    for j in done? {
        if j != NONE {
            taken[j] += 1;
        }
    }
    Some(nonzero(&taken))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::instance::Job;
    use crate::periodic::peak::{fits, total_demand_bound};

    fn random_instance(rng: &mut ChaCha8Rng, jobs: usize, tasks: u32) -> Instance {
        Instance {
            capacity: 20.0,
            jobs: (0..jobs)
                .map(|_| {
                    let mean = rng.random_range(0.05..1.0);
                    Job {
                        mean,
                        amplitude: rng.random_range(0.0..0.5) * mean,
                        phase: rng.random_range(0.0..std::f64::consts::TAU),
                        tasks: rng.random_range(1..=tasks),
                    }
                })
                .collect(),
        }
    }

    fn check_packing(inst: &Instance, machines: &[Machine], target: u64) {
        assert!(machines.len() as u64 <= target);
        let mut seen = vec![0u32; inst.jobs.len()];
        for m in machines {
            assert!(fits(inst, &load_of(inst, &m.tasks)), "a machine overflows");
            assert!(m.load.peak() <= inst.capacity);
            for &(j, n) in &m.tasks {
                seen[j] += n;
            }
        }
        let want: Vec<u32> = inst.jobs.iter().map(|j| j.tasks).collect();
        assert_eq!(seen, want, "every task placed exactly once");
    }

    #[test]
    fn the_pool_samples_every_task_left_and_only_those() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..50 {
            let counts: Vec<u32> = (0..rng.random_range(1..40))
                .map(|_| rng.random_range(0..5))
                .collect();
            let pool = Pool::new(&counts);
            let mut hits = vec![0u32; counts.len()];
            for r in 0..pool.total {
                hits[pool.find(r)] += 1;
            }
            assert_eq!(hits, counts);
        }
    }

    #[test]
    fn a_fill_is_a_valid_packing_into_its_target_and_reproducible() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut successes = 0;
        for _ in 0..40 {
            let jobs = rng.random_range(3..30);
            let inst = random_instance(&mut rng, jobs, 60);
            let lb = total_demand_bound(&inst);
            for target in [lb, lb + 1, lb + 3] {
                let settings = AlignedFillSettings::default();
                let a = aligned_fill(&inst, target, &settings, &Deadline::none());
                let b = aligned_fill(&inst, target, &settings, &Deadline::none());
                assert_eq!(
                    a.machines
                        .as_ref()
                        .map(|m| m.iter().map(|x| x.tasks.clone()).collect::<Vec<_>>()),
                    b.machines
                        .as_ref()
                        .map(|m| m.iter().map(|x| x.tasks.clone()).collect::<Vec<_>>()),
                    "same seed, same packing"
                );
                if let Some(m) = &a.machines {
                    check_packing(&inst, m, target);
                    successes += 1;
                }
            }
        }
        // The test would pass vacuously if the fill never succeeded.
        assert!(successes > 60, "only {successes} of 120 fills succeeded");
    }

    #[test]
    fn below_the_peak_bound_there_is_no_packing() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20 {
            let inst = random_instance(&mut rng, 10, 40);
            let lb = total_demand_bound(&inst);
            if lb < 2 {
                continue;
            }
            let f = aligned_fill(
                &inst,
                lb - 1,
                &AlignedFillSettings::default(),
                &Deadline::none(),
            );
            assert!(f.machines.is_none());
        }
    }

    #[test]
    fn large_tasks_run_out_of_pace_and_small_ones_do_not() {
        use crate::periodic::{generate, Amplitude, TaskSize};
        let at_peak_bound = |tasks, jobs, seed, settings: &AlignedFillSettings| {
            let inst = generate(tasks, Amplitude::Small, jobs, seed).unwrap();
            let lb = total_demand_bound(&inst);
            aligned_fill(&inst, lb, settings, &Deadline::none())
        };
        let always = AlignedFillSettings {
            min_tasks_per_machine: 0.0,
            ..Default::default()
        };
        for seed in 1..=2 {
            // Large tasks at the paper's 100 jobs (two to four a machine): the waste is forced
            // by the sizes (at 30 jobs the attempts get stuck before the pace test bites).
            let f = at_peak_bound(TaskSize::Large, 100, seed, &always);
            assert!(f.paced && f.machines.is_none(), "seed {seed}");
            assert_eq!(f.attempts, 1, "seed {seed}: a paced attempt ends the fill");
            // By default they are not even tried: 3.9 tasks a machine is below 5.
            let f = at_peak_bound(TaskSize::Large, 100, seed, &Default::default());
            assert!(f.paced && f.attempts == 0, "seed {seed}");
            // Small tasks: the fill succeeds or gets stuck, never for pace.
            for settings in [&always, &Default::default()] {
                let f = at_peak_bound(TaskSize::Small, 10, seed, settings);
                assert!(!f.paced && f.attempts > 0, "seed {seed}");
            }
        }
    }
}
