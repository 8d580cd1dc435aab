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
        steps += repartition(inst, p, floor, deadline);
        let now = max_load(inst, p);
        if now >= peak * (1.0 - PROGRESS) {
            break;
        }
        peak = now;
    }
    steps
}

/// Items of two hosts at most for [`repartition`] (its search is exponential in them).
pub const PAIR_ITEMS: usize = 20;

/// Pairwise re-partition: take a most loaded host and, trying the other hosts from the least
/// loaded, split the items of the two anew — the split of least larger load that fits both
/// memories, found by a complete search — and keep the first that lowers the largest load;
/// again until no pair does, the largest load reaches `floor`, or `deadline`. A
/// neighbourhood that contains every move and swap between the two (and all `k`-for-`l`
/// exchanges), which balances many small items to a near-perfect split. Each step lowers the
/// sorted vector of loads lexicographically, so it ends.
pub fn repartition(inst: &Instance, p: &mut [usize], floor: f64, deadline: &Deadline) -> u64 {
    let (mut cpu, mut mem, mut on) = state(inst, p);
    let mut steps = 0u64;
    'step: loop {
        let top = (0..inst.hosts)
            .max_by(|&x, &y| cpu[x].total_cmp(&cpu[y]).then(y.cmp(&x)))
            .unwrap_or(0);
        let peak = cpu[top];
        if peak <= floor || deadline.expired() {
            return steps;
        }
        let mut others: Vec<usize> = (0..inst.hosts).filter(|&g| g != top).collect();
        others.sort_by(|&x, &y| cpu[x].total_cmp(&cpu[y]).then(x.cmp(&y)));
        for g in others {
            let items: Vec<usize> = on[top].iter().chain(&on[g]).copied().collect();
            if items.len() > PAIR_ITEMS || items.len() < 2 {
                continue;
            }
            let Some(side) = best_split(inst, &items, peak * (1.0 - PROGRESS)) else {
                continue;
            };
            steps += 1;
            for (&i, &in_top) in items.iter().zip(&side) {
                p[i] = if in_top { top } else { g };
            }
            on[top] = items
                .iter()
                .zip(&side)
                .filter(|x| *x.1)
                .map(|x| *x.0)
                .collect();
            on[g] = items
                .iter()
                .zip(&side)
                .filter(|x| !*x.1)
                .map(|x| *x.0)
                .collect();
            for h in [top, g] {
                cpu[h] = on[h].iter().map(|&i| inst.jobs[i].cpu).sum();
                mem[h] = on[h].iter().map(|&i| inst.jobs[i].mem).sum();
            }
            continue 'step;
        }
        return steps;
    }
}

/// The split of `items` into two hosts (`true`: the first) whose larger CPU load is least and
/// below `below`, both within memory 1; `None` when no split is below `below`. Depth-first
/// over the items by decreasing `α`, the first item on the first host (the hosts are
/// interchangeable), cut when the first host's load passes the best larger load or either
/// memory cannot fit.
fn best_split(inst: &Instance, items: &[usize], below: f64) -> Option<Vec<bool>> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    let a = |k: usize| inst.jobs[items[k]].cpu;
    let m = |k: usize| inst.jobs[items[k]].mem;
    order.sort_by(|&x, &y| a(y).total_cmp(&a(x)).then(x.cmp(&y)));
    let total_a: f64 = order.iter().map(|&k| a(k)).sum();
    let total_m: f64 = order.iter().map(|&k| m(k)).sum();
    struct Split<'a> {
        a: Vec<f64>,
        m: Vec<f64>,
        total_a: f64,
        total_m: f64,
        side: Vec<bool>,
        best: f64,
        found: Option<Vec<bool>>,
        _items: &'a [usize],
    }
    impl Split<'_> {
        fn go(&mut self, k: usize, load: f64, mem: f64) {
            let n = self.a.len();
            // The second host takes at least what the first cannot: a lower bound on the
            // larger load of every completion is max(load, total − load − rest).
            if load >= self.best || mem > 1.0 {
                return;
            }
            if k == n {
                let other = self.total_a - load;
                if self.total_m - mem <= 1.0 && other.max(load) < self.best {
                    self.best = other.max(load);
                    self.found = Some(self.side.clone());
                }
                return;
            }
            let rest: f64 = self.a[k..].iter().sum();
            if self.total_a - load - rest >= self.best {
                return;
            }
            self.side[k] = true;
            self.go(k + 1, load + self.a[k], mem + self.m[k]);
            self.side[k] = false;
            if k > 0 {
                self.go(k + 1, load, mem);
            }
        }
    }
    let mut s = Split {
        a: order.iter().map(|&k| a(k)).collect(),
        m: order.iter().map(|&k| m(k)).collect(),
        total_a,
        total_m,
        side: vec![false; items.len()],
        best: below,
        found: None,
        _items: items,
    };
    s.go(0, 0.0, 0.0);
    let sorted = s.found?;
    let mut side = vec![false; items.len()];
    for (pos, &k) in order.iter().enumerate() {
        side[k] = sorted[pos];
    }
    Some(side)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcsched::{memory_feasible, Job};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random(rng: &mut ChaCha8Rng, hosts: usize, n: usize) -> Instance {
        let jobs = (0..n)
            .map(|_| Job::new(rng.random_range(0.05..1.0), rng.random_range(0.01..0.5)))
            .collect();
        Instance::new(hosts, jobs, std::path::Path::new("<test>")).unwrap()
    }

    /// Every split of `items` in two by enumeration: the least larger load within memory.
    fn brute_split(inst: &Instance, items: &[usize]) -> Option<f64> {
        let n = items.len();
        (0..1u32 << n)
            .filter_map(|mask| {
                let (mut a, mut b, mut ma, mut mb) = (0.0, 0.0, 0.0, 0.0);
                for (k, &i) in items.iter().enumerate() {
                    let j = &inst.jobs[i];
                    if mask >> k & 1 == 1 {
                        a += j.cpu;
                        ma += j.mem;
                    } else {
                        b += j.cpu;
                        mb += j.mem;
                    }
                }
                (ma <= 1.0 && mb <= 1.0).then(|| f64::max(a, b))
            })
            .min_by(f64::total_cmp)
    }

    #[test]
    fn best_split_is_the_least_larger_load_of_all_splits() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..300 {
            let n = rng.random_range(2..=12);
            let inst = random(&mut rng, 2, n);
            let items: Vec<usize> = (0..n).collect();
            let truth = brute_split(&inst, &items);
            let got = best_split(&inst, &items, f64::INFINITY).map(|side| {
                let load = |s: bool| -> f64 {
                    items
                        .iter()
                        .zip(&side)
                        .filter(|x| *x.1 == s)
                        .map(|x| inst.jobs[*x.0].cpu)
                        .sum()
                };
                load(true).max(load(false))
            });
            match (truth, got) {
                (None, None) => {}
                (Some(t), Some(g)) => assert!((t - g).abs() <= 1e-12, "case {case}: {g} vs {t}"),
                other => panic!("case {case}: {other:?}"),
            }
        }
    }

    #[test]
    fn repartition_never_raises_the_largest_load_and_keeps_memory() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut lowered = 0;
        for case in 0..100 {
            let (hosts, n) = (rng.random_range(2..=6), rng.random_range(6..=24));
            let inst = random(&mut rng, hosts, n);
            let Some(mut p) = lpt(&inst) else { continue };
            let before = max_load(&inst, &p);
            repartition(&inst, &mut p, 0.0, &Deadline::none());
            let after = max_load(&inst, &p);
            assert!(after <= before, "case {case}: {before} -> {after}");
            assert!(memory_feasible(&inst, &p, 1e-9), "case {case}");
            lowered += usize::from(after < before);
        }
        assert!(lowered > 20, "LPT improved on only {lowered} of 100");
    }
}
