//! From a placement (a host per task) to CPU grants: the optimal minimum yield of the
//! placement, then the optimal average yield at that minimum (RR-6692 §3.5, §5.1).
//!
//! With the placement fixed, the best minimum yield is closed-form: host `j` carrying load
//! `L_j = Σ_{tasks on j} α_i` can give every task the yield `min(1, 1/L_j)`, and no more to
//! all of them; granting every task of job `i` the same `α_i Y` keeps the tasks of a job equal
//! (eq. 20) at no cost to the minimum. So every method, exact or heuristic, is scored on the
//! placement it returns, never on an intermediate value (a binary-search yield, a MILP
//! variable within tolerances).

use super::instance::Instance;
use crate::error::Result;
use crate::solver::Deadline;

/// A host index per task (per job when every job is sequential).
pub type Placement = Vec<usize>;

/// CPU grants and the yields they achieve.
#[derive(Debug, Clone, PartialEq)]
pub struct Allocation {
    /// Host of each task.
    pub placement: Placement,
    /// CPU fraction granted to *each task* of each job (the same for all its tasks).
    pub cpu: Vec<f64>,
    /// Smallest job yield `a_i / α_i`.
    pub min_yield: f64,
    /// Mean job yield (per job, not per task: §5.1).
    pub avg_yield: f64,
}

/// CPU load `Σ α_i` and memory load `Σ m_i` of every host, over the tasks placed on it.
pub fn host_loads(inst: &Instance, placement: &[usize]) -> (Vec<f64>, Vec<f64>) {
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    for (job, &h) in inst.tasks().zip(placement) {
        cpu[h] += job.cpu;
        mem[h] += job.mem;
    }
    (cpu, mem)
}

/// True when every task has a host and no host's memory exceeds `1 + tol`.
pub fn memory_feasible(inst: &Instance, placement: &[usize], tol: f64) -> bool {
    placement.len() == inst.num_tasks()
        && placement.iter().all(|&h| h < inst.hosts)
        && host_loads(inst, placement)
            .1
            .iter()
            .all(|&m| m <= 1.0 + tol)
}

/// The optimal minimum yield of a placement: `min(1, min_j 1 / L_j)`.
pub fn placement_min_yield(inst: &Instance, placement: &[usize]) -> f64 {
    let (cpu, _) = host_loads(inst, placement);
    cpu.iter()
        .filter(|&&l| l > 1.0)
        .map(|&l| 1.0 / l)
        .fold(1.0, f64::min)
}

/// Grants CPU for a placement: every task of job `i` gets `α_i · Y` with `Y` the placement's
/// optimal minimum yield; with `avg_phase`, the spare CPU then raises the average job yield.
///
/// Sequential jobs: the spare CPU of each host goes to its jobs in increasing `α_i` (each unit
/// of CPU buys `1/α_i` of yield, so the smallest jobs first is optimal by an exchange
/// argument, §3.5). Parallel jobs tie hosts together (a job's tasks get equal grants on all
/// their hosts), so the phase is the LP of [`super::avg_lp`], solved by HiGHS.
pub fn allocate(inst: &Instance, placement: &[usize], avg_phase: bool) -> Result<Allocation> {
    allocate_within(inst, placement, None, avg_phase, &Deadline::none())
}

/// [`allocate`] within `deadline` (the LP of parallel jobs keeps every job at its floor when
/// the deadline stops it). `floor`: grant every task `α_i · floor` before the average-yield
/// phase instead of the placement's optimal minimum yield (an MCB placement scored by its
/// binary search, RR-6692 §3.4); it is capped at that optimum, which it can only undercut by
/// round-off.
pub fn allocate_within(
    inst: &Instance,
    placement: &[usize],
    floor: Option<f64>,
    avg_phase: bool,
    deadline: &Deadline,
) -> Result<Allocation> {
    let best = placement_min_yield(inst, placement);
    let y = floor.map_or(best, |f| f.clamp(0.0, best));
    let cpu = if !avg_phase {
        inst.jobs.iter().map(|j| j.cpu * y).collect()
    } else if inst.is_parallel() {
        super::avg_lp::optimal_grants(inst, placement, y, deadline)?
    } else {
        greedy_grants(inst, placement, y)
    };
    let yields: Vec<f64> = cpu.iter().zip(&inst.jobs).map(|(a, j)| a / j.cpu).collect();
    Ok(Allocation {
        placement: placement.to_vec(),
        min_yield: yields.iter().copied().fold(f64::INFINITY, f64::min),
        avg_yield: yields.iter().sum::<f64>() / yields.len() as f64,
        cpu,
    })
}

/// The §3.5 greedy for sequential jobs (one task per job).
fn greedy_grants(inst: &Instance, placement: &[usize], y: f64) -> Vec<f64> {
    let mut cpu: Vec<f64> = inst.jobs.iter().map(|j| j.cpu * y).collect();
    let mut on_host: Vec<Vec<usize>> = vec![Vec::new(); inst.hosts];
    for (i, &h) in placement.iter().enumerate() {
        on_host[h].push(i);
    }
    for jobs in &mut on_host {
        jobs.sort_by(|&a, &b| {
            inst.jobs[a]
                .cpu
                .total_cmp(&inst.jobs[b].cpu)
                .then(a.cmp(&b))
        });
        let used: f64 = jobs.iter().map(|&i| cpu[i]).sum();
        let mut spare = (1.0 - used).max(0.0);
        for &i in jobs.iter() {
            if spare <= 0.0 {
                break;
            }
            let extra = (inst.jobs[i].cpu - cpu[i]).max(0.0).min(spare);
            cpu[i] += extra;
            spare -= extra;
        }
    }
    cpu
}
