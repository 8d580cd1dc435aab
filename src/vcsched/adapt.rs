//! A heuristic for adaptation under a migration budget (RR-6692 §6.1 leaves one to future
//! work). Two starts, each improved by local search within the budget; the better wins:
//!
//! 1. *Keep*: every task stays on its current host; a host whose memory now overflows sheds
//!    tasks (the smallest one that covers the excess, else the largest, repeatedly); new and
//!    shed tasks go, by decreasing memory, to the host with the least CPU load that holds
//!    them (the SG rule) or, when that strands a task, to the fullest host that holds them
//!    (best-fit decreasing).
//! 2. *Fresh*: the MCB8 placement of the whole workload, its hosts relabelled to move the
//!    least memory ([`super::relabel`]); used only when that fits the budget.
//!
//! Local search: while some host is a bottleneck (largest CPU load `L_max > 1`), apply the
//! move or swap of a task on a bottleneck host that lowers the two loads it touches the most
//! below `L_max`, cheapest in migrated memory on ties, and within the remaining budget.
//! Moving a task back to its current host refunds its memory. Every step lowers the sorted
//! load vector lexicographically, so the search ends.

use super::allocation::{host_loads, placement_min_yield, Placement};
use super::instance::{Instance, BUDGET_TOLERANCE};
use super::{mcb, relabel};

/// What the heuristic found.
#[derive(Debug, Clone, PartialEq)]
pub struct Adapted {
    /// The best placement within the budget, if either start fits.
    pub placement: Option<Placement>,
    /// Moves and swaps applied by the local search (to the returned placement).
    pub moves: usize,
}

/// Runs both starts; `upper` is the relaxation bound given to MCB8 and `tolerance` its
/// binary-search tolerance.
pub fn adapt(inst: &Instance, upper: f64, tolerance: f64) -> Adapted {
    let budget = inst.budget.unwrap_or(f64::INFINITY);
    let mut best: Option<(Placement, usize)> = None;
    let flat = inst.flattened();
    let fresh = mcb::mcb(&flat, 8, upper, tolerance)
        .placement
        .map(|p| relabel::least_migration(inst, &p));
    for start in [keep_start(inst), fresh].into_iter().flatten() {
        if inst.migration_cost(&start) > budget + BUDGET_TOLERANCE {
            continue;
        }
        let (p, moves) = improve(inst, start, budget);
        let better = best.as_ref().is_none_or(|(b, _)| {
            let (y, yb) = (placement_min_yield(inst, &p), placement_min_yield(inst, b));
            y > yb + 1e-12
                || (y > yb - 1e-12 && inst.migration_cost(&p) < inst.migration_cost(b) - 1e-12)
        });
        if better {
            best = Some((p, moves));
        }
    }
    match best {
        Some((p, moves)) => Adapted {
            placement: Some(p),
            moves,
        },
        None => Adapted {
            placement: None,
            moves: 0,
        },
    }
}

/// Start 1: current hosts kept where memory allows, the rest placed by the SG rule.
fn keep_start(inst: &Instance) -> Option<Placement> {
    let tasks: Vec<_> = inst.tasks().collect();
    let n = tasks.len();
    let mut p = vec![usize::MAX; n];
    let mut mem = vec![0.0; inst.hosts];
    let mut cpu = vec![0.0; inst.hosts];
    for (t, job) in tasks.iter().enumerate() {
        if let Some(h) = inst.current_host(t) {
            p[t] = h;
            mem[h] += job.mem;
            cpu[h] += job.cpu;
        }
    }
    for h in 0..inst.hosts {
        while mem[h] > 1.0 {
            let excess = mem[h] - 1.0;
            let on: Vec<usize> = (0..n).filter(|&t| p[t] == h).collect();
            let covering = on
                .iter()
                .filter(|&&t| tasks[t].mem >= excess)
                .min_by(|&&a, &&b| tasks[a].mem.total_cmp(&tasks[b].mem));
            let largest = on
                .iter()
                .max_by(|&&a, &&b| tasks[a].mem.total_cmp(&tasks[b].mem));
            let t = *covering.or(largest)?;
            p[t] = usize::MAX;
            mem[h] -= tasks[t].mem;
            cpu[h] -= tasks[t].cpu;
        }
    }
    let mut pending: Vec<usize> = (0..n).filter(|&t| p[t] == usize::MAX).collect();
    pending.sort_by(|&a, &b| tasks[b].mem.total_cmp(&tasks[a].mem).then(a.cmp(&b)));
    // The SG rule balances CPU; when it strands a task, best-fit decreasing on memory (the
    // fullest host that holds it) packs tighter.
    for best_fit in [false, true] {
        let (mut p, mut mem, mut cpu) = (p.clone(), mem.clone(), cpu.clone());
        let mut placed = true;
        for &t in &pending {
            let fits = (0..inst.hosts).filter(|&h| mem[h] + tasks[t].mem <= 1.0);
            let h = if best_fit {
                fits.max_by(|&a, &b| mem[a].total_cmp(&mem[b]).then(b.cmp(&a)))
            } else {
                fits.min_by(|&a, &b| cpu[a].total_cmp(&cpu[b]).then(a.cmp(&b)))
            };
            let Some(h) = h else {
                placed = false;
                break;
            };
            p[t] = h;
            mem[h] += tasks[t].mem;
            cpu[h] += tasks[t].cpu;
        }
        if placed {
            return Some(p);
        }
    }
    None
}

/// Memory moved if task `t` (of memory `m`) ends on host `h`.
fn cost(inst: &Instance, t: usize, m: f64, h: usize) -> f64 {
    if inst.current_host(t).is_some_and(|c| c != h) {
        m
    } else {
        0.0
    }
}

/// Local search of the module documentation; returns the placement and the steps applied.
fn improve(inst: &Instance, mut p: Placement, budget: f64) -> (Placement, usize) {
    const EPS: f64 = 1e-12;
    let tasks: Vec<_> = inst.tasks().collect();
    let (mut cpu, mut mem) = host_loads(inst, &p);
    let mut spent = inst.migration_cost(&p);
    let mut steps = 0;
    // A step strictly lowers the sorted load vector; the cap is a guard, not a rule.
    for _ in 0..(20 * tasks.len() + 100) {
        let peak = cpu.iter().copied().fold(0.0, f64::max);
        if peak <= 1.0 {
            break;
        }
        // (new peak of the two hosts, cost delta, task, destination, swapped task)
        let mut best: Option<(f64, f64, usize, usize, Option<usize>)> = None;
        let mut consider = |cand: (f64, f64, usize, usize, Option<usize>)| {
            let ok = cand.0 < peak - EPS && spent + cand.1 <= budget + BUDGET_TOLERANCE;
            let better = best
                .as_ref()
                .is_none_or(|b| cand.0 < b.0 - EPS || (cand.0 < b.0 + EPS && cand.1 < b.1 - EPS));
            if ok && better {
                best = Some(cand);
            }
        };
        for t in (0..tasks.len()).filter(|&t| cpu[p[t]] >= peak - EPS) {
            let (s, a, m) = (p[t], tasks[t].cpu, tasks[t].mem);
            for d in (0..inst.hosts).filter(|&d| d != s) {
                if mem[d] + m <= 1.0 {
                    let delta = cost(inst, t, m, d) - cost(inst, t, m, s);
                    consider(((cpu[s] - a).max(cpu[d] + a), delta, t, d, None));
                }
                for u in (0..tasks.len()).filter(|&u| p[u] == d && tasks[u].cpu < a) {
                    let (b, mu) = (tasks[u].cpu, tasks[u].mem);
                    if mem[d] - mu + m > 1.0 || mem[s] - m + mu > 1.0 {
                        continue;
                    }
                    let delta = cost(inst, t, m, d) + cost(inst, u, mu, s)
                        - cost(inst, t, m, s)
                        - cost(inst, u, mu, d);
                    consider(((cpu[s] - a + b).max(cpu[d] + a - b), delta, t, d, Some(u)));
                }
            }
        }
        let Some((_, delta, t, d, swap)) = best else {
            break;
        };
        let s = p[t];
        for (task, from, to) in [(Some(t), s, d), (swap, d, s)] {
            if let Some(x) = task {
                p[x] = to;
                cpu[from] -= tasks[x].cpu;
                cpu[to] += tasks[x].cpu;
                mem[from] -= tasks[x].mem;
                mem[to] += tasks[x].mem;
            }
        }
        spent += delta;
        steps += 1;
    }
    (p, steps)
}
