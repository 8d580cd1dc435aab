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
