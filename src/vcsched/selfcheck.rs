//! The family's self-check: seeded tiny instances (sequential, parallel, adaptation), the
//! brute-force optimum, and every method's answer held against it. The oracle tests in
//! `tests/vcsched_*.rs` draw their instances and run their checks from here too.

use super::{brute, generate, solve, Instance, Job, Method, Settings, Solution, Spec};
use crate::problem::selfcheck::CaseReport;
use crate::Status;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::VcSched>(inst, sol)
}

/// A tiny random instance (1–`max_hosts` hosts, 1–`max_jobs` jobs) from `seed`: half of the
/// time drawn by the §4.1 generator with random parameters, half uniform in (0, 1].
pub fn tiny_instance(seed: u64, max_hosts: usize, max_jobs: usize) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hosts = rng.random_range(1..=max_hosts);
    let jobs = rng.random_range(1..=max_jobs);
    if rng.random_bool(0.5) {
        let spec = Spec {
            hosts,
            jobs,
            slack: rng.random_range(0.1..0.9),
            cv_mem: [0.25, 0.75][rng.random_range(0..2)],
            cv_cpu: [0.25, 0.75][rng.random_range(0..2)],
            seed: rng.random(),
            parallel: false,
        };
        if let Ok(inst) = generate(&spec) {
            return inst;
        }
    }
    let jobs = (0..jobs)
        .map(|_| {
            Job::new(
                1.0 - rng.random::<f64>(),
                (1.0 - rng.random::<f64>()) * rng.random_range(0.2..1.0),
            )
        })
        .collect();
    Instance::new(hosts, jobs, Path::new("<test>")).expect("valid by construction")
}

/// A tiny random instance with parallel jobs: 1–`max_hosts` hosts and jobs of 1–3 tasks, at
/// most `max_tasks` tasks in all.
pub fn tiny_parallel_instance(seed: u64, max_hosts: usize, max_tasks: usize) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_7A5C);
    let hosts = rng.random_range(1..=max_hosts);
    let total = rng.random_range(1..=max_tasks);
    let mut jobs = Vec::new();
    let mut placed = 0;
    while placed < total {
        let tasks = rng.random_range(1..=3u32).min((total - placed) as u32);
        placed += tasks as usize;
        jobs.push(Job {
            tasks,
            ..Job::new(
                1.0 - rng.random::<f64>(),
                (1.0 - rng.random::<f64>()) * rng.random_range(0.1..0.7),
            )
        });
    }
    Instance::new(hosts, jobs, Path::new("<test>")).expect("valid by construction")
}

/// A tiny adaptation: a tiny (possibly parallel) instance whose tasks run on random hosts
/// (each new with probability 0.3), with a budget drawn between 0 and the total memory.
pub fn tiny_adaptation(seed: u64, max_hosts: usize, max_tasks: usize) -> Instance {
    let mut inst = tiny_parallel_instance(seed, max_hosts, max_tasks);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xADA7);
    let current = (0..inst.num_tasks())
        .map(|_| (!rng.random_bool(0.3)).then(|| rng.random_range(0..inst.hosts)))
        .collect();
    inst.current = Some(current);
    inst.budget = Some(rng.random_range(0.0..=inst.total_mem()));
    inst.validate(Path::new("<test>"))
        .expect("valid by construction");
    inst
}

/// The brute-force optimum of any tiny instance: `None` when infeasible.
pub fn truth(inst: &Instance) -> Option<f64> {
    if inst.current.is_some() {
        brute::adapted_min_yield(inst)
    } else {
        brute::optimal_min_yield(&inst.flattened())
    }
}

/// Solves `inst` with every method of `methods` and holds each answer against the true
/// optimum `truth` (`None`: infeasible): it passes `verify`; no heuristic beats the optimum;
/// no bound falls below it; `optimal` and `infeasible` are claimed only when true; `milp`
/// finds the optimum. Records into `r`; returns the answers.
pub fn check_methods(
    r: &mut CaseReport,
    inst: &Instance,
    truth: Option<f64>,
    methods: &[Method],
    settings: &Settings,
) -> Vec<Solution> {
    let mut answers = Vec::new();
    for &m in methods {
        let Some(sol) = r.answer(&m.to_string(), solve(inst, m, settings)) else {
            continue;
        };
        let v = verify(inst, &sol);
        r.check(v.is_empty(), || format!("{m}: verify: {v:?}"));
        if let (Some(ub), Some(y)) = (sol.upper_bound(), truth) {
            r.check(ub >= y - 1e-9, || {
                format!("{m}: bound {ub} below optimum {y}")
            });
        }
        match (sol.min_yield(), truth) {
            (Some(got), Some(y)) => {
                r.check(got <= y + 1e-9, || {
                    format!("{m}: found {got} > optimum {y}")
                });
                if sol.status == Status::Optimal || m == Method::Milp {
                    r.check(got >= y - 1e-6, || format!("{m}: {got}, optimum {y}"));
                }
            }
            (Some(got), None) => r.check(false, || format!("{m}: {got} on an infeasible instance")),
            (None, Some(_)) => r.check(m != Method::Milp && sol.status == Status::Unknown, || {
                format!("{m}: ended {} on a feasible instance", sol.status)
            }),
            (None, None) => r.check(
                m == Method::LpBound || matches!(sol.status, Status::Unknown | Status::Infeasible),
                || format!("{m}: ended {} with no allocation", sol.status),
            ),
        }
        if m == Method::Milp && truth.is_none() {
            r.check(sol.status == Status::Infeasible, || {
                format!("milp: ended {} on an infeasible instance", sol.status)
            });
        }
        answers.push(sol);
    }
    answers
}

/// One soak case: a third sequential, a third parallel, a third adaptation; every method.
pub fn case(seed: u64) -> CaseReport {
    let (kind, inst) = match seed % 3 {
        0 => ("sequential", tiny_instance(seed, 3, 7)),
        1 => ("parallel", tiny_parallel_instance(seed, 3, 8)),
        _ => ("adaptation", tiny_adaptation(seed, 3, 7)),
    };
    let mut r = CaseReport::new(kind, &inst);
    check_methods(
        &mut r,
        &inst,
        truth(&inst),
        &Method::all(),
        &Settings::default(),
    );
    r
}
