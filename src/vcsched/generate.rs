//! The random instances of RR-6692 §4.1.
//!
//! Memory needs have mean `H (1 − slack) / J`, CPU needs mean 0.5; both are normal with the
//! given coefficient of variation (standard deviation = cv × mean), truncated to `(0, 1]` by
//! rejection: a draw outside the interval is discarded and drawn again, so the values follow
//! the normal law conditioned on `(0, 1]` (CPU needs also at least `MIN_CPU` = 10⁻⁶, the
//! least an instance accepts). Draws come from a ChaCha8 stream seeded by `seed`,
//! job by job, memory then CPU, each normal from one Box–Muller pair (cosine branch): the same
//! seed gives the same bits on every platform.
//!
//! Parallel jobs (§5.2): the count `J` of the specification is then a count of *tasks*, as on
//! the x axis of the paper's Figs. 19–22. Jobs are drawn until their tasks total `J` (the
//! last job is cut to fit), each job drawing its task count first, then memory and CPU; the
//! memory mean is `H (1 − slack) / J` per task. Task counts follow the Lublin–Feitelson model
//! ([`lublin_tasks`]).

use super::instance::{Instance, Job};
use crate::error::{InputError, Location, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Draws rejected for one value before the specification is declared impossible.
pub const MAX_REJECTIONS: u32 = 1_000_000;

/// A §4.1 specification.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Hosts `H`.
    pub hosts: usize,
    /// Jobs `J`.
    pub jobs: usize,
    /// Memory slack in `[0, 1)`.
    pub slack: f64,
    /// Coefficient of variation of memory needs.
    pub cv_mem: f64,
    /// Coefficient of variation of CPU needs.
    pub cv_cpu: f64,
    /// Seed of the random stream.
    pub seed: u64,
    /// Parallel jobs with Lublin–Feitelson task counts; `jobs` then counts tasks.
    pub parallel: bool,
}

/// Lublin & Feitelson (JPDC 63(11), 2003), the size model of rigid parallel jobs as RR-6692
/// §5.2 instantiates it, for 1 to 64 tasks.
pub mod lublin {
    /// Probability that a job is serial (one task).
    pub const SERIAL_PROB: f64 = 0.244;
    /// Lower end of the first uniform stage of `log2(size)`.
    pub const U_LOW: f64 = 0.8;
    /// `log2` of the largest size, 64.
    pub const U_HI: f64 = 6.0;
    /// Boundary of the two stages, `U_HI − 2.5`.
    pub const U_MED: f64 = U_HI - 2.5;
    /// Probability of the first stage `[U_LOW, U_MED]` (else `[U_MED, U_HI]`).
    pub const U_PROB: f64 = 0.86;
    /// Probability that a parallel job's size is rounded to a power of two:
    /// `0.576 / (1 − 0.244)` of the parallel jobs.
    pub const POW2_PROB: f64 = 0.576 / (1.0 - SERIAL_PROB);
    /// Largest number of tasks.
    pub const MAX_TASKS: u32 = 64;
}

/// One job's task count by the Lublin–Feitelson model: serial with probability
/// [`lublin::SERIAL_PROB`]; otherwise `u = log2(size)` from the two-stage uniform, and the
/// size `2^round(u)` with probability [`lublin::POW2_PROB`], else `round(2^u)`; capped at 64.
pub fn lublin_tasks<R: Rng>(rng: &mut R) -> u32 {
    use lublin::*;
    if rng.random::<f64>() < SERIAL_PROB {
        return 1;
    }
    let u = if rng.random::<f64>() < U_PROB {
        rng.random_range(U_LOW..U_MED)
    } else {
        rng.random_range(U_MED..U_HI)
    };
    let size = if rng.random::<f64>() < POW2_PROB {
        2f64.powi(u.round() as i32)
    } else {
        2f64.powf(u).round()
    };
    (size as u32).clamp(1, MAX_TASKS)
}

pub(super) fn arg_error(name: &str, v: impl ToString, why: impl Into<String>) -> crate::Error {
    InputError::new(
        "<arguments>",
        Location::Argument(name.into()),
        v.to_string(),
        why,
    )
    .into()
}

/// Generates one instance.
pub fn generate(spec: &Spec) -> Result<Instance> {
    if spec.hosts == 0 || spec.hosts > super::instance::MAX_HOSTS {
        return Err(arg_error("--hosts", spec.hosts, "must be at least 1"));
    }
    if spec.jobs == 0 {
        return Err(arg_error("--jobs", spec.jobs, "must be at least 1"));
    }
    if !(0.0..1.0).contains(&spec.slack) {
        return Err(arg_error("--slack", spec.slack, "must be in [0, 1)"));
    }
    for (name, cv) in [("--cv-mem", spec.cv_mem), ("--cv-cpu", spec.cv_cpu)] {
        if !(cv.is_finite() && cv >= 0.0) {
            return Err(arg_error(name, cv, "must be a finite number >= 0"));
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut jobs = Vec::with_capacity(spec.jobs);
    let mut tasks_left = spec.jobs;
    while tasks_left > 0 {
        let tasks = if spec.parallel {
            lublin_tasks(&mut rng).min(tasks_left as u32)
        } else {
            1
        };
        tasks_left -= tasks as usize;
        let mem = draw_mem(&mut rng, spec)?;
        let cpu = draw_cpu(&mut rng, spec)?;
        jobs.push(Job {
            tasks,
            ..Job::new(cpu, mem)
        });
    }
    Instance::new(spec.hosts, jobs, Path::new("<generated>"))
}

/// One memory need of `spec`'s law: mean `H (1 − slack) / J`, sd `cv_mem × mean`, in `(0, 1]`.
pub(super) fn draw_mem(rng: &mut ChaCha8Rng, spec: &Spec) -> Result<f64> {
    let mean = spec.hosts as f64 * (1.0 - spec.slack) / spec.jobs as f64;
    truncated_normal(rng, mean, spec.cv_mem * mean, 0.0)
        .ok_or_else(|| arg_error("--slack", spec.slack, impossible(mean, spec.cv_mem)))
}

/// One CPU need of `spec`'s law: mean 0.5, sd `cv_cpu × 0.5`, in `(0, 1]`.
pub(super) fn draw_cpu(rng: &mut ChaCha8Rng, spec: &Spec) -> Result<f64> {
    // Below `MIN_CPU` an instance is refused (the solvers' tolerances): such a draw is
    // rejected like one outside the interval (one instance of the large set drew 5.9e-7).
    truncated_normal(rng, 0.5, spec.cv_cpu * 0.5, super::instance::MIN_CPU)
        .ok_or_else(|| arg_error("--cv-cpu", spec.cv_cpu, impossible(0.5, spec.cv_cpu)))
}

fn impossible(mean: f64, cv: f64) -> String {
    format!("a normal law of mean {mean} and cv {cv} almost never falls in (0, 1]")
}

/// One standard normal draw from a Box–Muller pair (cosine branch).
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    // u1 in (0, 1] so that ln(u1) is finite.
    let u1 = 1.0 - rng.random::<f64>();
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A normal draw conditioned on `(0, 1]` and `≥ least`, by rejection; `None` after too many
/// rejections.
fn truncated_normal(rng: &mut ChaCha8Rng, mean: f64, sd: f64, least: f64) -> Option<f64> {
    for _ in 0..MAX_REJECTIONS {
        let x = mean + sd * standard_normal(rng);
        if x > 0.0 && x >= least && x <= 1.0 {
            return Some(x);
        }
    }
    None
}

/// Readings of §4.1's "sampled from a normal distribution with given mean and coefficient of
/// variance, truncated so that values are between 0 and 1", for the study of the infeasible
/// count (`experiment vcsched-infeasible`; the sweeps use [`Reading::Reject`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// Ours ([`generate`]): a draw outside `(0, 1]` is drawn again.
    Reject,
    /// A draw outside is moved to the nearest end (`10⁻⁶` below, 1 above).
    Clip,
    /// As `Reject`, then memory scaled so that `Σ m = H (1 − slack)` exactly (the slack as
    /// the total free memory, §4.1's definition), values above 1 capped at 1.
    ExactSlack,
    /// "Coefficient of variance" read as variance / mean²: sd = `√cv × mean`, by rejection.
    SqrtCv,
}

impl Reading {
    /// Every reading, ours first.
    pub const ALL: [Reading; 4] = [
        Reading::Reject,
        Reading::Clip,
        Reading::ExactSlack,
        Reading::SqrtCv,
    ];

    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Reading::Reject => "reject",
            Reading::Clip => "clip",
            Reading::ExactSlack => "exact-slack",
            Reading::SqrtCv => "sqrt-cv",
        }
    }
}

/// A sequential instance of `spec` under `reading` (same stream and draw order as
/// [`generate`]; `Reject` is [`generate`] itself).
pub fn generate_read(spec: &Spec, reading: Reading) -> Result<Instance> {
    let inst = match reading {
        Reading::Reject | Reading::ExactSlack => generate(spec)?,
        Reading::SqrtCv => generate(&Spec {
            cv_mem: spec.cv_mem.sqrt(),
            cv_cpu: spec.cv_cpu.sqrt(),
            ..*spec
        })?,
        Reading::Clip => {
            generate(spec)?; // the same checks of the specification
            let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
            let mean = spec.hosts as f64 * (1.0 - spec.slack) / spec.jobs as f64;
            let clip = |x: f64| x.clamp(1e-6, 1.0);
            let jobs = (0..spec.jobs)
                .map(|_| {
                    let mem = clip(mean + spec.cv_mem * mean * standard_normal(&mut rng));
                    let cpu = clip(0.5 + spec.cv_cpu * 0.5 * standard_normal(&mut rng));
                    Job::new(cpu, mem)
                })
                .collect();
            return Instance::new(spec.hosts, jobs, Path::new("<generated>"));
        }
    };
    if reading != Reading::ExactSlack {
        return Ok(inst);
    }
    let target = spec.hosts as f64 * (1.0 - spec.slack);
    let scale = target / inst.total_mem();
    let jobs = inst
        .jobs
        .iter()
        .map(|j| Job::new(j.cpu, (j.mem * scale).min(1.0)))
        .collect();
    Instance::new(spec.hosts, jobs, Path::new("<generated>"))
}
