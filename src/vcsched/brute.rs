//! Brute-force oracle for tiny instances: every placement, each scored with the optimal CPU
//! split. Written independently of the methods so that tests can check them against it.

use super::instance::Instance;

/// Largest `J` the enumerator accepts (the count of placements grows like the Bell numbers).
pub const MAX_JOBS: usize = 12;

/// The optimal minimum yield, or `None` when no placement fits in memory.
///
/// Hosts are identical, so placements are enumerated up to relabelling (restricted growth
/// strings: job `i` goes to a used host or to the first unused one). For a placement, the
/// best split gives every job on host `j` the yield `min(1, 1 / Σ_{i on j} α_i)`.
pub fn optimal_min_yield(inst: &Instance) -> Option<f64> {
    assert!(
        inst.num_jobs() <= MAX_JOBS,
        "brute force is for tiny instances"
    );
    let mut best: Option<f64> = None;
    let mut host_of = vec![0usize; inst.num_jobs()];
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    descend(inst, 0, 0, &mut host_of, &mut cpu, &mut mem, &mut best);
    best
}

fn descend(
    inst: &Instance,
    i: usize,
    used: usize,
    host_of: &mut [usize],
    cpu: &mut [f64],
    mem: &mut [f64],
    best: &mut Option<f64>,
) {
    if i == inst.num_jobs() {
        let worst_load = cpu[..used].iter().copied().fold(0.0, f64::max);
        let y = if worst_load <= 1.0 {
            1.0
        } else {
            1.0 / worst_load
        };
        if best.is_none_or(|b| y > b) {
            *best = Some(y);
        }
        return;
    }
    let job = &inst.jobs[i];
    for h in 0..(used + 1).min(inst.hosts) {
        if mem[h] + job.mem > 1.0 {
            continue;
        }
        host_of[i] = h;
        cpu[h] += job.cpu;
        mem[h] += job.mem;
        descend(inst, i + 1, used.max(h + 1), host_of, cpu, mem, best);
        cpu[h] -= job.cpu;
        mem[h] -= job.mem;
    }
}

/// The optimal minimum yield of an adaptation (tasks with current hosts, a migration
/// budget), or `None` when no placement fits in memory and budget. Current hosts make hosts
/// distinct, so all `H^T` placements of the tasks are enumerated.
pub fn adapted_min_yield(inst: &Instance) -> Option<f64> {
    let tasks: Vec<_> = inst.tasks().collect();
    assert!(tasks.len() <= MAX_JOBS, "brute force is for tiny instances");
    let budget = inst.budget.unwrap_or(f64::INFINITY);
    let mut best: Option<f64> = None;
    let mut placement = vec![0usize; tasks.len()];
    loop {
        let mut cpu = vec![0.0; inst.hosts];
        let mut mem = vec![0.0; inst.hosts];
        let mut moved = 0.0;
        for (t, (job, &h)) in tasks.iter().zip(&placement).enumerate() {
            cpu[h] += job.cpu;
            mem[h] += job.mem;
            if inst.current_host(t).is_some_and(|c| c != h) {
                moved += job.mem;
            }
        }
        if mem.iter().all(|&m| m <= 1.0) && moved <= budget + 1e-9 {
            let worst = cpu.iter().copied().fold(0.0, f64::max);
            let y = if worst <= 1.0 { 1.0 } else { 1.0 / worst };
            if best.is_none_or(|b| y > b) {
                best = Some(y);
            }
        }
        // Next placement in lexicographic order.
        let mut t = 0;
        loop {
            if t == placement.len() {
                return best;
            }
            placement[t] += 1;
            if placement[t] < inst.hosts {
                break;
            }
            placement[t] = 0;
            t += 1;
        }
    }
}
