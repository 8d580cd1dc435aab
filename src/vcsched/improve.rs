//! Incumbents for the exact method: seeds that minimise the largest CPU load `Σ α` of a host
//! subject to memory, and a move/swap descent on that largest load.
//!
//! Every routine works on items (tasks) as a sequential instance ([`Instance::flattened`]):
//! by `models/vcsched.md` (the exact method), a placement's minimum yield is
//! `min(1, 1 / max_j L_j)`, so lowering the largest load is all that matters.

use super::allocation::{host_loads, Placement};
use super::instance::Instance;
use crate::solver::Deadline;

/// Relative amount by which a move must lower a load to count as a progress (float noise).
const PROGRESS: f64 = 1e-12;

/// The largest CPU load of a placement.
pub fn max_load(inst: &Instance, p: &[usize]) -> f64 {
    host_loads(inst, p).0.into_iter().fold(0.0, f64::max)
}

/// LPT under memory: items by decreasing `α`, each to the least loaded host its memory fits
/// on (ties: lowest index); `None` when an item fits nowhere.
pub fn lpt(inst: &Instance) -> Option<Placement> {
    let mut order: Vec<usize> = (0..inst.num_jobs()).collect();
    order.sort_by(|&a, &b| {
        inst.jobs[b]
            .cpu
            .total_cmp(&inst.jobs[a].cpu)
            .then(a.cmp(&b))
    });
    let mut cpu = vec![0.0_f64; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    let mut p = vec![usize::MAX; inst.num_jobs()];
    for i in order {
        let job = &inst.jobs[i];
        let h = (0..inst.hosts)
            .filter(|&h| mem[h] + job.mem <= 1.0)
            .min_by(|&a, &b| cpu[a].total_cmp(&cpu[b]).then(a.cmp(&b)))?;
        p[i] = h;
        cpu[h] += job.cpu;
        mem[h] += job.mem;
    }
    Some(p)
}

/// First-fit decreasing on memory alone (a packing when the memory is tight), `None` when it
/// needs more than `H` hosts.
pub fn memory_ffd(inst: &Instance) -> Option<Placement> {
    let order = super::greedy::memory_order(inst);
    let mut mem = vec![0.0; inst.hosts];
    let mut p = vec![usize::MAX; inst.num_jobs()];
    for i in order {
        let m = inst.jobs[i].mem;
        let h = (0..inst.hosts).find(|&h| mem[h] + m <= 1.0)?;
        p[i] = h;
        mem[h] += m;
    }
    Some(p)
}

/// Descent on the largest load: take a most loaded host and make the move (one item to
/// another host) or swap (one item each way) that lowers it most while the other host stays
/// below the old maximum and both fit in memory; stop when no such change exists, when the
/// largest load reaches `floor` (nothing below it can be worth anything), or at `deadline`.
///
/// Each step lowers the sorted vector of loads lexicographically, so the descent ends.
pub fn descend(inst: &Instance, p: &mut [usize], floor: f64, deadline: &Deadline) -> u64 {
    let (mut cpu, mut mem, mut on) = state(inst, p);
    let a = |i: usize| inst.jobs[i].cpu;
    let m = |i: usize| inst.jobs[i].mem;
    let mut steps = 0u64;
    loop {
        let top = (0..inst.hosts)
            .max_by(|&x, &y| cpu[x].total_cmp(&cpu[y]).then(y.cmp(&x)))
            .unwrap_or(0);
        let peak = cpu[top];
        if peak <= floor || (steps.is_multiple_of(64) && deadline.expired()) {
            return steps;
        }
        let bar = peak * (1.0 - PROGRESS);
        // Best change: (new load of `top`, other host, item out, item in).
        let mut best: Option<(f64, usize, usize, Option<usize>)> = None;
        for g in (0..inst.hosts).filter(|&g| g != top) {
            for &i in &on[top] {
                let (ai, mi) = (a(i), m(i));
                if cpu[g] + ai < bar && mem[g] + mi <= 1.0 {
                    let new_top = peak - ai;
                    if best.is_none_or(|b| new_top.max(cpu[g] + ai) < b.0) {
                        best = Some((new_top.max(cpu[g] + ai), g, i, None));
                    }
                }
                for &j in &on[g] {
                    let d = ai - a(j);
                    if d <= 0.0
                        || cpu[g] + d >= bar
                        || mem[g] + mi - m(j) > 1.0
                        || mem[top] - mi + m(j) > 1.0
                    {
                        continue;
                    }
                    let worse = (peak - d).max(cpu[g] + d);
                    if best.is_none_or(|b| worse < b.0) {
                        best = Some((worse, g, i, Some(j)));
                    }
                }
            }
        }
        let Some((_, g, i, j)) = best else {
            return steps;
        };
        steps += 1;
        shift(&mut on, &mut cpu, &mut mem, p, i, top, g, a(i), m(i));
        if let Some(j) = j {
            shift(&mut on, &mut cpu, &mut mem, p, j, g, top, a(j), m(j));
        }
    }
}

/// [`descend`], then, while it helps, a balancing pass and [`descend`] again: the pass takes
/// every pair of hosts and makes the move or swap between them that brings their loads
/// closest (lowering `Σ L²`) without either passing the largest load or the memory; the
/// freed room lets the next descent lower the largest load further. Stops after a round that
/// does not lower the largest load.
pub fn improve(inst: &Instance, p: &mut [usize], floor: f64, deadline: &Deadline) -> u64 {
    let mut steps = descend(inst, p, floor, deadline);
    let mut peak = max_load(inst, p);
    while peak > floor && !deadline.expired() {
        steps += balance(inst, p, peak);
        steps += descend(inst, p, floor, deadline);
        let now = max_load(inst, p);
        if now >= peak * (1.0 - PROGRESS) {
            break;
        }
        peak = now;
    }
    steps
}

/// One balancing pass over all pairs of hosts (see [`improve`]); returns the changes made.
fn balance(inst: &Instance, p: &mut [usize], peak: f64) -> u64 {
    let (mut cpu, mut mem, mut on) = state(inst, p);
    let a = |i: usize| inst.jobs[i].cpu;
    let m = |i: usize| inst.jobs[i].mem;
    let mut changes = 0;
    for x in 0..inst.hosts {
        for y in x + 1..inst.hosts {
            // The CPU shifted from x to y and the memory with it; best = closest loads.
            let diff = cpu[x] - cpu[y];
            let mut best: Option<(f64, usize, Option<usize>, bool)> = None;
            let mut consider = |d: f64, dm: f64, i: usize, j: Option<usize>, x_to_y: bool| {
                let (d, dm) = if x_to_y { (d, dm) } else { (-d, -dm) };
                let gap = (diff - 2.0 * d).abs();
                if gap < diff.abs() * (1.0 - PROGRESS)
                    && cpu[x] - d < peak
                    && cpu[y] + d < peak
                    && mem[x] - dm <= 1.0
                    && mem[y] + dm <= 1.0
                    && best.is_none_or(|b| gap < b.0)
                {
                    best = Some((gap, i, j, x_to_y));
                }
            };
            for &i in &on[x] {
                consider(a(i), m(i), i, None, true);
                for &j in &on[y] {
                    consider(a(i) - a(j), m(i) - m(j), i, Some(j), true);
                }
            }
            for &j in &on[y] {
                consider(a(j), m(j), j, None, false);
            }
            let Some((_, i, j, x_to_y)) = best else {
                continue;
            };
            changes += 1;
            let (from, to) = if x_to_y { (x, y) } else { (y, x) };
            shift(&mut on, &mut cpu, &mut mem, p, i, from, to, a(i), m(i));
            if let Some(j) = j {
                shift(&mut on, &mut cpu, &mut mem, p, j, to, from, a(j), m(j));
            }
        }
    }
    changes
}

/// CPU and memory load of every host, and the items on it.
type State = (Vec<f64>, Vec<f64>, Vec<Vec<usize>>);

fn state(inst: &Instance, p: &[usize]) -> State {
    let (cpu, mem) = host_loads(inst, p);
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); inst.hosts];
    for (i, &h) in p.iter().enumerate() {
        on[h].push(i);
    }
    (cpu, mem, on)
}

#[allow(clippy::too_many_arguments)]
fn shift(
    on: &mut [Vec<usize>],
    cpu: &mut [f64],
    mem: &mut [f64],
    p: &mut [usize],
    i: usize,
    from: usize,
    to: usize,
    a: f64,
    m: f64,
) {
    on[from].retain(|&x| x != i);
    on[to].push(i);
    cpu[from] -= a;
    cpu[to] += a;
    mem[from] -= m;
    mem[to] += m;
    p[i] = to;
}
