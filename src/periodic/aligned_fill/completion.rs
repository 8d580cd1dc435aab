//! The aligned fill's exact completion of a machine: a left group of tasks against a right
//! one from a list sorted by load at `t*`, by binary search on the waste's window.

use super::{AlignedFillSettings, Geometry, Pool};
use crate::periodic::instance::Instance;
use crate::periodic::peak::Load;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A group of at most three tasks for the completion (`NONE` in the unused places).
#[derive(Clone, Copy)]
pub(super) struct Group {
    s: f64,
    load: Load,
    jobs: [usize; 3],
}

pub(super) const NONE: usize = usize::MAX;

impl Group {
    fn of(inst: &Instance, g: &Geometry, jobs: &[usize]) -> Group {
        let mut t = [NONE; 3];
        let mut load = Load::default();
        let mut s = 0.0;
        for (k, &j) in jobs.iter().enumerate() {
            t[k] = j;
            load.add(inst, j, 1.0);
            s += g.s[j];
        }
        Group { s, load, jobs: t }
    }
}

/// Every group of at most two tasks over all jobs, and of three over `triple_types` jobs
/// drawn once, by load at `t*`: the right-hand side of every completion of an attempt
/// (availability is checked as they are used).
pub(super) fn right_side(
    inst: &Instance,
    g: &Geometry,
    settings: &AlignedFillSettings,
    rng: &mut ChaCha8Rng,
) -> Vec<Group> {
    let n = inst.jobs.len();
    let mut groups = vec![Group::of(inst, g, &[])];
    for a in 0..n {
        groups.push(Group::of(inst, g, &[a]));
        for b in a..n {
            groups.push(Group::of(inst, g, &[a, b]));
        }
    }
    let mut types: Vec<usize> = (0..n).collect();
    let k = settings.triple_types.min(n);
    for i in 0..k {
        let r = rng.random_range(i..n);
        types.swap(i, r);
    }
    types.truncate(k);
    types.sort_unstable();
    for (i, &a) in types.iter().enumerate() {
        for (i2, &b) in types.iter().enumerate().skip(i) {
            for &c in &types[i2..] {
                groups.push(Group::of(inst, g, &[a, b, c]));
            }
        }
    }
    groups.sort_by(|x, y| x.s.total_cmp(&y.s));
    groups
}

/// The left-hand side of a completion: no task, one, two, and with `triples` three, over
/// `completion_types` jobs drawn among those left (a third as many for the triples).
pub(super) fn left_side(
    inst: &Instance,
    g: &Geometry,
    settings: &AlignedFillSettings,
    pool: &Pool,
    triples: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<Group> {
    let mut types: Vec<usize> = (0..inst.jobs.len()).filter(|&j| pool.left[j] > 0).collect();
    let k = settings.completion_types.max(1).min(types.len());
    for i in 0..k {
        let r = rng.random_range(i..types.len());
        types.swap(i, r);
    }
    types.truncate(k);
    // The triples' jobs: the first third of the draw.
    let mut t = types[..(k / 3).max(1).min(k)].to_vec();
    t.sort_unstable();
    types.sort_unstable();
    let mut groups = vec![Group::of(inst, g, &[])];
    for (i, &a) in types.iter().enumerate() {
        groups.push(Group::of(inst, g, &[a]));
        for &b in &types[i..] {
            groups.push(Group::of(inst, g, &[a, b]));
        }
    }
    if triples {
        for (i, &a) in t.iter().enumerate() {
            for (k2, &b) in t.iter().enumerate().skip(i) {
                for &c in &t[k2..] {
                    groups.push(Group::of(inst, g, &[a, b, c]));
                }
            }
        }
    }
    groups
}

/// The best completion (a left group and a right one): fits, wastes at most `allow` at
/// `t*`; scored by its waste plus `steer` times its phasor's distance to `aim`.
#[allow(clippy::too_many_arguments)]
pub(super) fn complete(
    inst: &Instance,
    g: &Geometry,
    settings: &AlignedFillSettings,
    left: &[Group],
    right: &[Group],
    pool: &Pool,
    load: &Load,
    allow: f64,
    aim: (f64, f64),
    cap: f64,
) -> Option<[usize; 6]> {
    let c = inst.capacity;
    let need = c - (load.mean + g.along_of(load));
    let rbar = pool.total as f64 / g.tasks as f64;
    let mut best: Option<(f64, [usize; 6])> = None;
    let mut checks = 0u32;
    for x in left {
        let lo = need - allow - x.s;
        let hi = need - x.s;
        if hi < 0.0 {
            continue;
        }
        let start = right.partition_point(|y| y.s < lo);
        for y in &right[start..] {
            if y.s > hi {
                break;
            }
            let items = [
                x.jobs[0], x.jobs[1], x.jobs[2], y.jobs[0], y.jobs[1], y.jobs[2],
            ];
            if x.jobs[2] != NONE && y.jobs[2] != NONE {
                continue;
            }
            if !available(pool, &items) {
                continue;
            }
            checks += 1;
            let l = load.plus(&x.load).plus(&y.load);
            if l.peak() > c || g.along_of(&l) > cap {
                continue;
            }
            let waste = c - (l.mean + g.along_of(&l));
            let off = (g.along_of(&l) - aim.0).abs() + (g.across_of(&l) - aim.1).abs();
            let lag: f64 = items
                .iter()
                .filter(|&&j| j != NONE)
                .map(|&j| rbar - f64::from(pool.left[j]) / f64::from(inst.jobs[j].tasks))
                .sum();
            let score = waste + settings.steer * (off + settings.balance * lag / rbar.max(1e-12));
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, items));
            }
        }
        if checks > settings.checks {
            break;
        }
    }
    best.map(|(_, t)| t)
}

/// True when the pool holds the tasks `items` (`NONE` for none), counted with repeats.
fn available(pool: &Pool, items: &[usize; 6]) -> bool {
    items.iter().enumerate().all(|(i, &j)| {
        j == NONE || {
            let wanted = items[..=i].iter().filter(|&&k| k == j).count() as u32;
            pool.left[j] >= wanted
        }
    })
}
