//! The greedy heuristics of RR-6692 §3.3: GR, SG (jobs by decreasing memory), and their
//! backtracking versions GB and SGB with a cap on placement attempts.
//!
//! Greedy rule: a job goes to the host with the smallest CPU load `Σ α_i` (ties: lowest
//! index) among the hosts whose memory can still hold it.

use super::allocation::Placement;
use super::instance::Instance;
use crate::solver::Deadline;

/// Jobs in file order (GR, GB).
pub fn file_order(inst: &Instance) -> Vec<usize> {
    (0..inst.num_jobs()).collect()
}

/// Jobs by decreasing memory need, ties by index (SG, SGB).
pub fn memory_order(inst: &Instance) -> Vec<usize> {
    let mut order = file_order(inst);
    order.sort_by(|&a, &b| {
        inst.jobs[b]
            .mem
            .total_cmp(&inst.jobs[a].mem)
            .then(a.cmp(&b))
    });
    order
}

/// GR / SG: places the jobs in `order`; `None` when some job fits nowhere.
pub fn greedy(inst: &Instance, order: &[usize]) -> Option<Placement> {
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    let mut placement = vec![usize::MAX; inst.num_jobs()];
    for &i in order {
        let job = &inst.jobs[i];
        let mut best: Option<usize> = None;
        for h in 0..inst.hosts {
            if mem[h] + job.mem <= 1.0 && best.is_none_or(|b| cpu[h] < cpu[b]) {
                best = Some(h);
            }
        }
        let h = best?;
        cpu[h] += job.cpu;
        mem[h] += job.mem;
        placement[i] = h;
    }
    Some(placement)
}

/// What a backtracking search did.
#[derive(Debug, Clone, PartialEq)]
pub struct Backtrack {
    /// The first complete placement found, if any.
    pub placement: Option<Placement>,
    /// Job placement attempts made.
    pub attempts: u64,
    /// True when the search stopped at the attempt cap or the deadline.
    pub truncated: bool,
}

/// GB / SGB: depth-first search in greedy order, returning the first complete placement.
///
/// Hosts in identical states (same CPU and memory load) lead to isomorphic subtrees, so only
/// the first of them is tried at each node: this changes no outcome, it only saves attempts.
pub fn backtracking(
    inst: &Instance,
    order: &[usize],
    max_attempts: u64,
    deadline: &Deadline,
) -> Backtrack {
    let n = order.len();
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    let mut placement = vec![usize::MAX; inst.num_jobs()];
    // candidates[d]: hosts still to try for the job at depth d, best last (popped first).
    let mut candidates: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut attempts = 0u64;
    let rank = |cpu: &[f64], mem: &[f64], job: usize| -> Vec<usize> {
        let need = inst.jobs[job].mem;
        let mut hs: Vec<usize> = (0..inst.hosts).filter(|&h| mem[h] + need <= 1.0).collect();
        hs.sort_by(|&a, &b| cpu[a].total_cmp(&cpu[b]).then(a.cmp(&b)));
        hs.dedup_by(|b, a| cpu[*a] == cpu[*b] && mem[*a] == mem[*b]);
        hs.reverse();
        hs
    };
    if n == 0 {
        return Backtrack {
            placement: Some(placement),
            attempts,
            truncated: false,
        };
    }
    candidates.push(rank(&cpu, &mem, order[0]));
    loop {
        let depth = candidates.len() - 1;
        let job = order[depth];
        // Undo this depth's previous choice, if any.
        if placement[job] != usize::MAX {
            let h = placement[job];
            cpu[h] -= inst.jobs[job].cpu;
            mem[h] -= inst.jobs[job].mem;
            placement[job] = usize::MAX;
        }
        match candidates[depth].pop() {
            None => {
                candidates.pop();
                if candidates.is_empty() {
                    return Backtrack {
                        placement: None,
                        attempts,
                        truncated: false,
                    };
                }
            }
            Some(h) => {
                if attempts >= max_attempts || (attempts.is_multiple_of(1024) && deadline.expired())
                {
                    return Backtrack {
                        placement: None,
                        attempts,
                        truncated: true,
                    };
                }
                attempts += 1;
                cpu[h] += inst.jobs[job].cpu;
                mem[h] += inst.jobs[job].mem;
                placement[job] = h;
                if depth + 1 == n {
                    return Backtrack {
                        placement: Some(placement),
                        attempts,
                        truncated: false,
                    };
                }
                candidates.push(rank(&cpu, &mem, order[depth + 1]));
            }
        }
    }
}
