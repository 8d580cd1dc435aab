//! Large-neighbourhood repacking for `--method bp`: free the tasks of a few machines and pack
//! them again, by the same column generation, dive and integer master as the root, into fewer
//! machines. On the §5.3 scenarios the root's packing often sits one machine above
//! `⌈z_LP⌉` while the LP leaves room for it (small tasks: tens per machine), and the waste
//! gathers in the last machines the dive fixed; a residual of about a hundred machines is small
//! enough for the integer master to pack tightly. A heuristic: it never proves anything, and
//! every packing it returns is the caller's to check against the bound.

use super::instance::Instance;
use super::packing::Machine;
use super::peak::total_demand_bound;
use super::root::aggregated_root;
use super::settings::Settings;
use crate::error::Result;
use crate::solver::Deadline;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the repacking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RepackSettings {
    /// Run it at all (when the root leaves a gap).
    pub enabled: bool,
    /// Machines freed per attempt: half the emptiest (most peak slack), half drawn at random.
    pub machines: usize,
    /// Integer finish of one attempt, seconds (its column generation is not capped).
    pub attempt_seconds: f64,
    /// Attempts in a row that gain nothing before it stops.
    pub patience: u64,
    /// Seed of the draws.
    pub seed: u64,
}

impl Default for RepackSettings {
    fn default() -> Self {
        RepackSettings {
            enabled: true,
            machines: 96,
            attempt_seconds: 2.0,
            patience: 50,
            seed: 1,
        }
    }
}

/// What the repacking did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Repacked {
    /// Attempts made.
    pub attempts: u64,
    /// Attempts that saved a machine.
    pub gains: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Repacks `machines` (a packing of `inst` without over-coverage) towards `target` machines
/// until the deadline, `patience` fruitless attempts in a row, or the target.
pub fn repack(
    inst: &Instance,
    machines: &mut Vec<Machine>,
    target: u64,
    settings: &Settings,
    rs: &RepackSettings,
    deadline: &Deadline,
) -> Result<Repacked> {
    let began = Instant::now();
    let mut out = Repacked::default();
    let mut rng = ChaCha8Rng::seed_from_u64(rs.seed);
    let mut sub_settings = settings.clone();
    sub_settings.integer_time_limit = rs.attempt_seconds;
    let mut fruitless = 0;
    while machines.len() as u64 > target && fruitless < rs.patience && !deadline.expired() {
        out.attempts += 1;
        let chosen = choose(machines, rs.machines, &mut rng);
        let (residual, jobs) = residual(inst, machines, &chosen);
        let lb = total_demand_bound(&residual);
        let sub = aggregated_root(&residual, &sub_settings, lb, true, Instant::now(), deadline)?;
        // Complete even when the deadline cut it short (the root always packs every task).
        if sub.machines.len() < chosen.len() {
            let mut kept: Vec<Machine> = machines
                .iter()
                .enumerate()
                .filter(|(i, _)| !chosen.contains(i))
                .map(|(_, m)| m.clone())
                .collect();
            for m in &sub.machines {
                let mut back = Machine::default();
                for &(j, n) in &m.tasks {
                    for _ in 0..n {
                        back.push(inst, jobs[j]);
                    }
                }
                kept.push(back);
            }
            *machines = kept;
            out.gains += 1;
            fruitless = 0;
        } else {
            fruitless += 1;
        }
    }
    out.seconds = began.elapsed().as_secs_f64();
    Ok(out)
}

/// Packs the tasks `machines` leave unplaced (a partial packing of `inst`, no over-coverage)
/// by the root's column generation, dive and integer master (`attempt_seconds` for the
/// finish), and adds those machines: the branch-and-price tree's node heuristic, after it fixed
/// the whole machines of its LP.
pub fn complete(
    inst: &Instance,
    machines: &mut Vec<Machine>,
    settings: &Settings,
    rs: &RepackSettings,
    deadline: &Deadline,
) -> Result<()> {
    let mut left: Vec<u32> = inst.jobs.iter().map(|j| j.tasks).collect();
    for m in machines.iter() {
        for &(j, n) in &m.tasks {
            left[j] = left[j].saturating_sub(n);
        }
    }
    let jobs: Vec<usize> = (0..inst.jobs.len()).filter(|&j| left[j] > 0).collect();
    if jobs.is_empty() {
        return Ok(());
    }
    let sub = Instance {
        capacity: inst.capacity,
        jobs: jobs
            .iter()
            .map(|&j| super::instance::Job {
                tasks: left[j],
                ..inst.jobs[j].clone()
            })
            .collect(),
    };
    let mut sub_settings = settings.clone();
    sub_settings.integer_time_limit = rs.attempt_seconds;
    let lb = total_demand_bound(&sub);
    let packed = aggregated_root(&sub, &sub_settings, lb, true, Instant::now(), deadline)?;
    for m in &packed.machines {
        let mut back = Machine::default();
        for &(j, n) in &m.tasks {
            for _ in 0..n {
                back.push(inst, jobs[j]);
            }
        }
        machines.push(back);
    }
    Ok(())
}

/// `k` machines: the `⌈k/2⌉` with the most peak slack, the rest at random.
fn choose(machines: &[Machine], k: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..machines.len()).collect();
    order.sort_by(|&a, &b| {
        machines[a]
            .load
            .peak()
            .total_cmp(&machines[b].load.peak())
            .then(a.cmp(&b))
    });
    let k = k.max(2).min(machines.len());
    let emptiest = k.div_ceil(2);
    let mut chosen: Vec<usize> = order[..emptiest].to_vec();
    let mut rest = order[emptiest..].to_vec();
    rest.shuffle(rng);
    chosen.extend_from_slice(&rest[..k - emptiest]);
    chosen.sort_unstable();
    chosen
}

/// The tasks of the `chosen` machines as an instance of their jobs, and each residual job's
/// index in `inst`.
fn residual(inst: &Instance, machines: &[Machine], chosen: &[usize]) -> (Instance, Vec<usize>) {
    let mut count = vec![0u32; inst.jobs.len()];
    for &i in chosen {
        for &(j, n) in &machines[i].tasks {
            count[j] += n;
        }
    }
    let jobs: Vec<usize> = (0..inst.jobs.len()).filter(|&j| count[j] > 0).collect();
    let sub = Instance {
        capacity: inst.capacity,
        jobs: jobs
            .iter()
            .map(|&j| super::instance::Job {
                tasks: count[j],
                ..inst.jobs[j].clone()
            })
            .collect(),
    };
    (sub, jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::selfcheck::{assert_valid_and_reproducible, brute_force, random_instance};

    /// One machine per task: the worst packing, so that repacking has work to do.
    fn one_per_task(inst: &Instance) -> Vec<Machine> {
        let mut out = Vec::new();
        for (j, job) in inst.jobs.iter().enumerate() {
            for _ in 0..job.tasks {
                let mut m = Machine::default();
                m.push(inst, j);
                out.push(m);
            }
        }
        out
    }

    /// From the worst packing, repacking returns a packing that places every task once, fits
    /// every machine, never uses more machines nor fewer than the brute-force optimum, and the
    /// same bits from the same seed; it must save machines somewhere.
    #[test]
    fn repacking_keeps_a_valid_packing_never_below_the_optimum() {
        let mut gains = 0;
        for seed in 0..80u64 {
            let inst = random_instance(3_000 + seed, 3..=6, 1..=3);
            let opt = brute_force(&inst);
            let rs = RepackSettings {
                machines: 4,
                patience: 4,
                seed,
                ..RepackSettings::default()
            };
            let run = || {
                let mut machines = one_per_task(&inst);
                let r = repack(
                    &inst,
                    &mut machines,
                    0,
                    &Settings::default(),
                    &rs,
                    &Deadline::none(),
                )
                .unwrap();
                (machines, r.gains)
            };
            let (machines, g) = run();
            gains += g;
            let before = one_per_task(&inst).len();
            assert!(machines.len() <= before, "seed {seed}");
            assert!(
                machines.len() as u64 >= opt,
                "seed {seed}: below the optimum"
            );
            let again = run().0;
            assert_valid_and_reproducible(&inst, &machines, &again, seed);
        }
        assert!(gains > 40, "repacking saved machines only {gains} times");
    }
}
