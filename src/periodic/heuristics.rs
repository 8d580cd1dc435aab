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

/// BFD until `deadline`; once it has passed, the tasks left go to new machines by next fit
/// ([`next_fit`], constant time a task), so a valid packing comes back at once.
pub fn best_fit_decreasing_within(inst: &Instance, deadline: &Deadline) -> Vec<Machine> {
    let limit = fit_limit(inst);
    let mut machines: Vec<Machine> = Vec::new();
    let order = task_order(inst);
    for (done, &j) in order.iter().enumerate() {
        if deadline.expired() {
            machines.extend(next_fit(inst, order[done..].iter().copied()));
            break;
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
/// packing found so far, or [`next_fit`]'s when there is none yet.
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
            Err(Expired) => return next_fit(inst, task_order(inst)),
        }
        if m >= total {
            // Every task fits alone (validated), so next fit always packs.
            return next_fit(inst, task_order(inst));
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

/// Next fit: each task on the last machine opened if it fits there, else on a new one. The
/// fallback once a deadline has passed: constant time a task (2 million tasks in tens of
/// milliseconds), and with the tasks of a job together it fills each machine with one job's
/// identical tasks — far fewer machines than one a task. Every task fits alone (validated).
pub fn next_fit(inst: &Instance, tasks: impl IntoIterator<Item = usize>) -> Vec<Machine> {
    let limit = fit_limit(inst);
    let mut machines: Vec<Machine> = Vec::new();
    for j in tasks {
        let task = Load::of_task(inst, j);
        match machines.last_mut() {
            Some(m) if m.load.plus(&task).peak() <= limit => m.push(inst, j),
            _ => {
                let mut m = Machine::default();
                m.push(inst, j);
                machines.push(m);
            }
        }
    }
    machines
}

/// MM with the search on `M` of [`dichotomic`].
pub fn min_max_search(inst: &Instance) -> Vec<Machine> {
    min_max_search_within(inst, &Deadline::none())
}

/// [`min_max_search`] until `deadline`: the best packing found by then ([`next_fit`] when
/// none).
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

#[cfg(test)]
mod tests {
    use super::super::generate::{generate, Amplitude, TaskSize};
    use super::super::peak::fits;
    use super::*;

    /// Each job's task count over a packing.
    fn counts(inst: &Instance, machines: &[Machine]) -> Vec<u64> {
        let mut n = vec![0u64; inst.jobs.len()];
        for m in machines {
            for &(j, c) in &m.tasks {
                n[j] += u64::from(c);
            }
        }
        n
    }

    #[test]
    fn the_fallbacks_place_every_task_once_and_fit() {
        for seed in 0..6 {
            let inst = generate(TaskSize::Large, Amplitude::Large, 8, seed).unwrap();
            let want: Vec<u64> = inst.jobs.iter().map(|j| u64::from(j.tasks)).collect();
            let nf = next_fit(&inst, task_order(&inst));
            let gone = Deadline::after(Some(0.0));
            for p in [
                nf.clone(),
                best_fit_decreasing_within(&inst, &gone),
                min_max_search_within(&inst, &gone),
            ] {
                assert_eq!(counts(&inst, &p), want, "seed {seed}");
                assert!(p.iter().all(|m| fits(&inst, &m.load)), "seed {seed}");
                assert!(p.len() as u64 >= total_demand_bound(&inst), "seed {seed}");
            }
            // Next fit shares machines (a job's tasks together): fewer than one a task.
            assert!(nf.len() < inst.num_tasks() as usize, "seed {seed}");
        }
    }
}
