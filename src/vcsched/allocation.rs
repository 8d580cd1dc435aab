//! From a placement (a host per job) to CPU grants: the optimal minimum yield of the
//! placement, then the optimal average yield at that minimum (RR-6692 §3.5).
//!
//! With the placement fixed, the best minimum yield is closed-form: host `j` carrying load
//! `L_j = Σ_{i on j} α_i` can give every job the yield `min(1, 1/L_j)`, and no more to all of
//! them. So every method, exact or heuristic, is scored on the placement it returns, never on
//! an intermediate value (a binary-search yield, a MILP variable within tolerances).

use super::instance::Instance;

/// A host index per job.
pub type Placement = Vec<usize>;

/// CPU grants and the yields they achieve.
#[derive(Debug, Clone, PartialEq)]
pub struct Allocation {
    /// Host of each job.
    pub placement: Placement,
    /// `α_ij`: CPU fraction granted to each job on its host.
    pub cpu: Vec<f64>,
    /// Smallest yield `α_ij / α_i`.
    pub min_yield: f64,
    /// Mean yield.
    pub avg_yield: f64,
}

/// CPU load `Σ α_i` and memory load `Σ m_i` of every host.
pub fn host_loads(inst: &Instance, placement: &[usize]) -> (Vec<f64>, Vec<f64>) {
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    for (job, &h) in inst.jobs.iter().zip(placement) {
        cpu[h] += job.cpu;
        mem[h] += job.mem;
    }
    (cpu, mem)
}

/// True when every job has a host and no host's memory exceeds `1 + tol`.
pub fn memory_feasible(inst: &Instance, placement: &[usize], tol: f64) -> bool {
    placement.len() == inst.num_jobs()
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

/// Grants CPU for a placement: every job gets `α_i · Y` with `Y` the placement's optimal
/// minimum yield; with `avg_phase`, the spare CPU of each host then goes to its jobs in
/// increasing `α_i` (each unit of CPU buys `1/α_i` of yield, so the smallest jobs first is
/// optimal by an exchange argument, §3.5).
pub fn allocate(inst: &Instance, placement: &[usize], avg_phase: bool) -> Allocation {
    let y = placement_min_yield(inst, placement);
    let mut cpu: Vec<f64> = inst.jobs.iter().map(|j| j.cpu * y).collect();
    if avg_phase {
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
    }
    let yields: Vec<f64> = cpu.iter().zip(&inst.jobs).map(|(a, j)| a / j.cpu).collect();
    Allocation {
        placement: placement.to_vec(),
        min_yield: yields.iter().copied().fold(f64::INFINITY, f64::min),
        avg_yield: yields.iter().sum::<f64>() / yields.len() as f64,
        cpu,
    }
}
