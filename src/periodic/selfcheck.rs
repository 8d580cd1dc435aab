//! The family's self-check: tiny random periodic instances whose fewest machines brute-force
//! partitioning finds; every method's machines and bound held against it, column
//! generation's LP bound against it and the total-demand bound, every answer verified.
//! `tests/it/periodic_cg.rs` draws from here.

use super::{peak, solve, BranchSettings, Instance, Job, Method, Settings};
use crate::problem::selfcheck::CaseReport;
use crate::{ceil_with_tolerance, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &super::Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::Periodic>(inst, sol)
}

/// Jobs with means in `[1, 9)`, amplitudes up to the mean, any phase, on capacity 20.
pub fn random_instance(
    seed: u64,
    jobs: std::ops::RangeInclusive<usize>,
    tasks: std::ops::RangeInclusive<u32>,
) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let jobs = (0..rng.random_range(jobs))
        .map(|_| {
            let mean = rng.random_range(1.0..9.0);
            Job {
                mean,
                amplitude: mean * rng.random::<f64>(),
                phase: std::f64::consts::TAU * rng.random::<f64>(),
                tasks: rng.random_range(tasks.clone()),
            }
        })
        .collect();
    Instance {
        capacity: 20.0,
        jobs,
    }
}

/// Fewest machines over every partition of the tasks.
pub fn brute_force(inst: &Instance) -> u64 {
    let tasks: Vec<usize> = inst
        .jobs
        .iter()
        .enumerate()
        .flat_map(|(j, job)| std::iter::repeat_n(j, job.tasks as usize))
        .collect();
    fn go(
        inst: &Instance,
        tasks: &[usize],
        i: usize,
        bins: &mut Vec<Vec<(usize, u32)>>,
        best: &mut u64,
    ) {
        if bins.len() as u64 >= *best {
            return;
        }
        if i == tasks.len() {
            *best = bins.len() as u64;
            return;
        }
        let j = tasks[i];
        for b in 0..bins.len() {
            let mut trial = bins[b].clone();
            match trial.iter_mut().find(|e| e.0 == j) {
                Some(e) => e.1 += 1,
                None => trial.push((j, 1)),
            }
            if peak::fits(inst, &peak::load_of(inst, &trial)) {
                let keep = std::mem::replace(&mut bins[b], trial);
                go(inst, tasks, i + 1, bins, best);
                bins[b] = keep;
            }
        }
        bins.push(vec![(j, 1)]);
        go(inst, tasks, i + 1, bins, best);
        bins.pop();
    }
    let mut best = tasks.len() as u64;
    go(inst, &tasks, 0, &mut Vec::new(), &mut best);
    best
}

/// Every method on `inst` held against the brute-force optimum.
pub fn check(r: &mut CaseReport, inst: &Instance, settings: &Settings) {
    let opt = brute_force(inst);
    check_tree(r, inst, opt);
    for m in Method::all() {
        let Some(sol) = r.answer(&m.to_string(), solve(inst, m, settings)) else {
            continue;
        };
        let v = verify(inst, &sol);
        r.check(v.is_empty(), || format!("{m}: verify: {v:?}"));
        let lb = sol.lower_bound();
        r.check(lb <= opt, || format!("{m}: bound {lb} above optimum {opt}"));
        if let Some(machines) = sol.machines() {
            r.check(machines >= opt, || {
                format!("{m}: {machines} below optimum {opt}")
            });
            r.check(sol.status != Status::Optimal || machines == opt, || {
                format!("{m}: claims optimal at {machines}, optimum {opt}")
            });
        }
        if m == Method::Bp {
            // Tiny trees never reach a limit: the search ends with a proof.
            r.check(sol.status == Status::Optimal, || {
                format!(
                    "bp: {:?} at {:?}, optimum {opt}",
                    sol.status,
                    sol.machines()
                )
            });
        }
        if m == Method::Cg {
            // Tiny searches never reach a node cap: the loop ends with a proof or a closure.
            r.check(sol.stats["pricing_limit"] == 0.0, || {
                "cg: pricing hit its limit".into()
            });
            let Some(z) = sol.lp_bound else {
                r.check(false, || "cg: no LP bound".into());
                continue;
            };
            let w = peak::total_demand_bound(inst);
            // z_LP ≥ W/C up to rounding; machines ≥ ⌈z_LP⌉ and ≥ ⌈W/C⌉.
            let zc = ceil_with_tolerance(z);
            r.check(zc <= opt, || {
                format!("cg: ⌈z_LP⌉ = {zc} above the optimum {opt}")
            });
            r.check(sol.machines().is_some_and(|k| k >= zc.max(w)), || {
                format!(
                    "cg: {:?} machines below ⌈z_LP⌉ {zc} or ⌈W/C⌉ {w}",
                    sol.machines()
                )
            });
            if sol.stats["converged"] == 1.0 {
                r.check(z >= (w as f64 - 1.0) - 1e-9, || {
                    format!("cg: z_LP {z} far below ⌈W/C⌉ {w}")
                });
            }
        }
    }
}

/// `bp` with the tree alone (no integer finish at the root, no dive or integer master in the
/// tree): branching itself must find the brute-force optimum and prove it. Returns whether
/// the tree had to start (the root's heuristic packing was above the bound).
pub fn check_tree(r: &mut CaseReport, inst: &Instance, opt: u64) -> bool {
    let settings = Settings {
        bp: BranchSettings::branching_only(),
        ..Settings::default()
    };
    let Some(sol) = r.answer("bp (tree alone)", solve(inst, Method::Bp, &settings)) else {
        return false;
    };
    let v = verify(inst, &sol);
    r.check(v.is_empty(), || format!("bp (tree alone): verify: {v:?}"));
    r.check(
        sol.status == Status::Optimal && sol.machines() == Some(opt),
        || {
            format!(
                "bp (tree alone): {:?} {:?} machines, bound {}, optimum {opt}",
                sol.status,
                sol.machines(),
                sol.lower_bound()
            )
        },
    );
    sol.stats.get("tree_started") == Some(&1.0)
}

/// One soak case: 1–4 jobs of 1–2 tasks, or 2–4 jobs of 1–3 tasks.
pub fn case(seed: u64) -> CaseReport {
    let (kind, inst) = if seed.is_multiple_of(2) {
        ("1-4 jobs x 1-2 tasks", random_instance(seed, 1..=4, 1..=2))
    } else {
        ("2-4 jobs x 1-3 tasks", random_instance(seed, 2..=4, 1..=3))
    };
    let mut r = CaseReport::new(kind, &inst);
    check(&mut r, &inst, &Settings::default());
    r
}

/// Test helper: `machines` place every task of `inst` exactly once and each fits, and a second
/// `run` gives the same machines (same seed, same bits).
#[cfg(test)]
pub fn assert_valid_and_reproducible(
    inst: &Instance,
    machines: &[super::Machine],
    again: &[super::Machine],
    seed: u64,
) {
    let mut placed = vec![0u32; inst.jobs.len()];
    for m in machines {
        assert!(
            peak::fits(inst, &m.load),
            "seed {seed}: a machine overflows"
        );
        for &(j, n) in &m.tasks {
            placed[j] += n;
        }
    }
    let tasks: Vec<u32> = inst.jobs.iter().map(|j| j.tasks).collect();
    assert_eq!(placed, tasks, "seed {seed}: tasks not placed once");
    let key = |ms: &[super::Machine]| ms.iter().map(|m| m.tasks.clone()).collect::<Vec<_>>();
    assert_eq!(key(machines), key(again), "seed {seed}: not reproducible");
}
