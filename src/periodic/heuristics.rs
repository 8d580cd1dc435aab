//! The greedy heuristics of §5.2: Best-Fit Decreasing, Min-Max `MM(M)` with a dichotomic
//! search on `M`, and Min-Max-Module (MM on peak demands `C_j + ρ_j`, ignoring phases).
//! Tasks are taken by decreasing mean `C_j` (ties: job index), the tasks of a job together.

use super::instance::Instance;
use super::packing::Machine;
use super::peak::{fits, total_demand_bound};

fn task_order(inst: &Instance) -> Vec<usize> {
    let mut jobs: Vec<usize> = (0..inst.jobs.len()).collect();
    jobs.sort_by(|&a, &b| {
        inst.jobs[b]
            .mean
            .total_cmp(&inst.jobs[a].mean)
            .then(a.cmp(&b))
    });
    jobs.into_iter()
        .flat_map(|j| std::iter::repeat_n(j, inst.jobs[j].tasks as usize))
        .collect()
}

/// BFD: each task goes to the machine whose peak *after* adding it is largest while still
/// fitting; a new machine is opened when none fits.
pub fn best_fit_decreasing(inst: &Instance) -> Vec<Machine> {
    let mut machines: Vec<Machine> = Vec::new();
    for j in task_order(inst) {
        let mut best: Option<(usize, f64)> = None;
        for (k, m) in machines.iter().enumerate() {
            let after = m.load.with(inst, j, 1.0);
            if fits(inst, &after) && best.is_none_or(|(_, p)| after.peak() > p) {
                best = Some((k, after.peak()));
            }
        }
        let k = match best {
            Some((k, _)) => k,
            None => {
                machines.push(Machine::default());
                machines.len() - 1
            }
        };
        machines[k].push(inst, j);
    }
    machines
}

/// `MM(M)`: `m` machines; each task goes to the machine whose peak after adding it is
/// smallest, if it fits. `None` when some task fits nowhere.
pub fn min_max(inst: &Instance, m: usize) -> Option<Vec<Machine>> {
    let mut machines = vec![Machine::default(); m];
    for j in task_order(inst) {
        let mut best: Option<(usize, f64)> = None;
        for (k, mach) in machines.iter().enumerate() {
            let after = mach.load.with(inst, j, 1.0);
            if fits(inst, &after) && best.is_none_or(|(_, p)| after.peak() < p) {
                best = Some((k, after.peak()));
            }
        }
        machines[best?.0].push(inst, j);
    }
    Some(machines)
}

/// The smallest `M` for which `pack(M)` succeeds, by dichotomic search between the §5.1 lower
/// bound and a size known to succeed (found by doubling from `start`).
pub fn dichotomic<F>(inst: &Instance, start: usize, pack: F) -> Vec<Machine>
where
    F: Fn(usize) -> Option<Vec<Machine>>,
{
    let total = inst.num_tasks() as usize;
    let mut lo = (total_demand_bound(inst) as usize).max(1);
    let mut hi = start.max(lo);
    let mut best = loop {
        if let Some(p) = pack(hi) {
            break p;
        }
        if hi >= total {
            // One task per machine always fits (validated: every task fits alone).
            let mut all = pack(total).expect("one task per machine fits");
            all.retain(|m| !m.tasks.is_empty());
            return all;
        }
        lo = hi + 1;
        hi = (hi * 2).min(total);
    };
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match pack(mid) {
            Some(p) => {
                hi = mid;
                best = p;
            }
            None => lo = mid + 1,
        }
    }
    best.retain(|m| !m.tasks.is_empty());
    best
}

/// MM with the dichotomic search on `M`, started at the BFD machine count.
pub fn min_max_search(inst: &Instance) -> Vec<Machine> {
    let start = best_fit_decreasing(inst).len();
    dichotomic(inst, start, |m| min_max(inst, m))
}

/// MMM: MM on the instance whose tasks are flattened to their peak `C_j + ρ_j`. The packing
/// is feasible for the real demands too (a sum of peaks bounds the peak of the sum).
pub fn min_max_module(inst: &Instance) -> Vec<Machine> {
    let flat = Instance {
        capacity: inst.capacity,
        jobs: inst
            .jobs
            .iter()
            .map(|j| super::instance::Job {
                mean: j.peak(),
                amplitude: 0.0,
                phase: 0.0,
                tasks: j.tasks,
            })
            .collect(),
    };
    let start = best_fit_decreasing(&flat).len();
    let flat_packing = dichotomic(&flat, start, |m| min_max(&flat, m));
    // Re-read the same task lists with the real demands.
    flat_packing
        .into_iter()
        .map(|m| {
            let mut real = Machine::default();
            for &(j, n) in &m.tasks {
                for _ in 0..n {
                    real.push(inst, j);
                }
            }
            real
        })
        .collect()
}
