//! Adaptation instances (RR-6692 §6): a §4.1 instance solved to optimality, then a changed
//! workload — some jobs leave, some arrive, some change CPU need — with the tasks that stay
//! on the hosts of that optimum and a migration budget.
//!
//! Deterministic from the specification's seed: the base instance comes from
//! [`super::generate`] (a seed whose instance is infeasible is replaced by the next one of a
//! fixed sequence), its optimum from the MILP with one HiGHS thread (MCB8 if the MILP stops at
//! its time limit without an incumbent), and the changes from a ChaCha8 stream seeded by the
//! specification's seed.

use super::generate::{arg_error, draw_cpu, draw_mem, generate, Spec};
use super::instance::{Instance, Job};
use super::method::{solve, solve_within, Method, Settings};
use crate::error::Result;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the workload changes between the optimum and the adaptation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Perturbation {
    /// Probability that a job leaves.
    pub departure: f64,
    /// New jobs, as a fraction of the base's job count (rounded).
    pub arrival: f64,
    /// Probability that a staying job's CPU need is drawn again.
    pub change: f64,
    /// The budget, as a fraction of the memory of the staying tasks.
    pub budget_fraction: f64,
}

impl Default for Perturbation {
    fn default() -> Self {
        Perturbation {
            departure: 0.2,
            arrival: 0.2,
            change: 0.3,
            budget_fraction: 0.2,
        }
    }
}

/// Seeds tried for a feasible base instance before giving up.
const BASE_ATTEMPTS: u64 = 100;

/// Builds an adaptation instance; `milp_seconds` bounds each MILP of the base optimum.
pub fn adaptation(spec: &Spec, p: &Perturbation, milp_seconds: Option<f64>) -> Result<Instance> {
    for (name, v) in [("departure", p.departure), ("change", p.change)] {
        if !(0.0..=1.0).contains(&v) {
            return Err(arg_error(name, v, "must be a probability in [0, 1]"));
        }
    }
    for (name, v) in [
        ("arrival", p.arrival),
        ("budget fraction", p.budget_fraction),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(arg_error(name, v, "must be a finite number >= 0"));
        }
    }
    let settings = Settings::default();
    let mut base = None;
    for k in 0..BASE_ATTEMPTS {
        let seed = spec
            .seed
            .wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let inst = generate(&Spec { seed, ..*spec })?;
        let deadline = Deadline::after(milp_seconds);
        let mut sol = solve_within(&inst, Method::Milp, &settings, &deadline)?;
        if sol.min_yield().is_none() {
            sol = solve(&inst, Method::Mcb(8), &settings)?;
        }
        if sol.min_yield().is_some() {
            base = Some((inst, sol.placement()));
            break;
        }
    }
    let Some((inst, placement)) = base else {
        return Err(arg_error(
            "--slack",
            spec.slack,
            format!("no feasible instance in {BASE_ATTEMPTS} seeds"),
        ));
    };
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed ^ 0xADA7_0000_0000_0001);
    let mut jobs = Vec::new();
    let mut current = Vec::new();
    let mut hosts = placement.into_iter();
    for job in &inst.jobs {
        let on: Vec<usize> = hosts.by_ref().take(job.tasks as usize).collect();
        if rng.random::<f64>() < p.departure {
            continue;
        }
        let mut job = job.clone();
        if rng.random::<f64>() < p.change {
            job.cpu = draw_cpu(&mut rng, spec)?;
        }
        current.extend(on.into_iter().map(Some));
        jobs.push(job);
    }
    let staying_mem: f64 = jobs.iter().map(|j| j.mem * f64::from(j.tasks)).sum();
    let arrivals = (p.arrival * inst.num_jobs() as f64).round() as usize;
    for _ in 0..arrivals {
        let mem = draw_mem(&mut rng, spec)?;
        let cpu = draw_cpu(&mut rng, spec)?;
        jobs.push(Job::new(cpu, mem));
        current.push(None);
    }
    if jobs.is_empty() {
        // Everyone left and nobody came: keep one new job so the instance is valid.
        jobs.push(inst.jobs[0].clone());
        current.extend(std::iter::repeat_n(None, inst.jobs[0].tasks as usize));
    }
    let out = Instance {
        hosts: inst.hosts,
        jobs,
        current: Some(current),
        budget: Some(p.budget_fraction * staying_mem),
    };
    out.validate(std::path::Path::new("<generated>"))?;
    Ok(out)
}
