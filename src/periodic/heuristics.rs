//! The greedy heuristics of §5.2: Best-Fit Decreasing, Min-Max `MM(M)` with a dichotomic
//! search on `M`, and Min-Max-Module (MM on peak demands `C_j + ρ_j`, ignoring phases).
//! Tasks are taken by decreasing mean `C_j` (ties: job index), the tasks of a job together.

use super::instance::Instance;
use super::packing::Machine;
use super::peak::{fit_limit, total_demand_bound, Load};
use crate::solver::Deadline;

/// A packing attempt stopped by its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expired;

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
    best_fit_decreasing_within(inst, &Deadline::none())
}

/// BFD until `deadline`; once it has passed, each task left gets a machine of its own (every
/// task fits alone), so a valid packing comes back at once.
pub fn best_fit_decreasing_within(inst: &Instance, deadline: &Deadline) -> Vec<Machine> {
    let limit = fit_limit(inst);
    let mut machines: Vec<Machine> = Vec::new();
    for j in task_order(inst) {
        if deadline.expired() {
            let mut alone = Machine::default();
            alone.push(inst, j);
            machines.push(alone);
            continue;
        }
        let task = Load::of_task(inst, j);
        let mut best: Option<(usize, f64)> = None;
        for (k, m) in machines.iter().enumerate() {
            let peak = m.load.plus(&task).peak();
            if peak <= limit && best.is_none_or(|(_, p)| peak > p) {
                best = Some((k, peak));
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
    min_max_within(inst, m, &Deadline::none()).unwrap_or(None)
}

/// [`min_max`] polling `deadline` before each task.
fn min_max_within(
    inst: &Instance,
    m: usize,
    deadline: &Deadline,
) -> Result<Option<Vec<Machine>>, Expired> {
    let limit = fit_limit(inst);
    let mut machines = vec![Machine::default(); m];
    for j in task_order(inst) {
        if deadline.expired() {
            return Err(Expired);
        }
        let task = Load::of_task(inst, j);
        let mut best: Option<(usize, f64)> = None;
        for (k, mach) in machines.iter().enumerate() {
            let peak = mach.load.plus(&task).peak();
            if peak <= limit && best.is_none_or(|(_, p)| peak < p) {
                best = Some((k, peak));
            }
        }
        match best {
            Some((k, _)) => machines[k].push(inst, j),
            None => return Ok(None),
        }
    }
    Ok(Some(machines))
}

/// The smallest `M` for which `pack(M)` succeeds, assuming success is monotone in `M`: an
/// exponential search up from the §5.1 lower bound (`lo`, `lo + 1`, `lo + 3`, `lo + 7`, …,
/// capped at one machine per task) brackets it, then a dichotomic search closes the bracket.
/// Good packings sit just above the bound, so this costs a few packings near `lo` instead of
/// a bisection over the whole range up to a weak start (BFD can be 30% above it).
pub fn dichotomic<F>(inst: &Instance, pack: F) -> Vec<Machine>
where
    F: Fn(usize) -> Option<Vec<Machine>>,
{
    dichotomic_within(inst, |m| Ok(pack(m)))
}

/// [`dichotomic`] with a packer that may stop at its deadline: it then returns the best
/// packing found so far, or one machine per task when there is none yet.
pub fn dichotomic_within<F>(inst: &Instance, pack: F) -> Vec<Machine>
where
    F: Fn(usize) -> Result<Option<Vec<Machine>>, Expired>,
{
    let total = inst.num_tasks() as usize;
    let bound = (total_demand_bound(inst) as usize).clamp(1, total.max(1));
    // `lo`: the smallest count not known to fail.
    let (mut lo, mut m, mut step) = (bound, bound, 1);
    let (mut hi, mut best) = loop {
        match pack(m) {
            Ok(Some(p)) => break (m, p),
            Ok(None) => {}
            Err(Expired) => return one_per_machine(inst),
        }
        if m >= total {
            // Every task fits alone (validated), so one machine per task always works.
            return one_per_machine(inst);
        }
        lo = m + 1;
        m = (bound + 2 * step - 1).min(total);
        step *= 2;
    };
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match pack(mid) {
            Ok(Some(p)) => {
                hi = mid;
                best = p;
            }
            Ok(None) => lo = mid + 1,
            Err(Expired) => break,
        }
    }
    best.retain(|m| !m.tasks.is_empty());
    best
}

/// Every task on a machine of its own.
fn one_per_machine(inst: &Instance) -> Vec<Machine> {
    task_order(inst)
        .into_iter()
        .map(|j| {
            let mut m = Machine::default();
            m.push(inst, j);
            m
        })
        .collect()
}

/// MM with the search on `M` of [`dichotomic`].
pub fn min_max_search(inst: &Instance) -> Vec<Machine> {
    min_max_search_within(inst, &Deadline::none())
}

/// [`min_max_search`] until `deadline`: the best packing found by then (one machine per task
/// when none).
pub fn min_max_search_within(inst: &Instance, deadline: &Deadline) -> Vec<Machine> {
    dichotomic_within(inst, |m| min_max_within(inst, m, deadline))
}

/// MMM: MM on the instance whose tasks are flattened to their peak `C_j + ρ_j`. The packing
/// is feasible for the real demands too (a sum of peaks bounds the peak of the sum).
pub fn min_max_module(inst: &Instance) -> Vec<Machine> {
    min_max_module_within(inst, &Deadline::none())
}

/// [`min_max_module`] until `deadline`, as [`min_max_search_within`].
pub fn min_max_module_within(inst: &Instance, deadline: &Deadline) -> Vec<Machine> {
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
    let flat_packing = min_max_search_within(&flat, deadline);
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
