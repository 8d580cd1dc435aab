//! The random instances of RR-6692 §4.1.
//!
//! Memory needs have mean `H (1 − slack) / J`, CPU needs mean 0.5; both are normal with the
//! given coefficient of variation (standard deviation = cv × mean), truncated to `(0, 1]` by
//! rejection: a draw outside the interval is discarded and drawn again, so the values follow
//! the normal law conditioned on `(0, 1]`. Draws come from a ChaCha8 stream seeded by `seed`,
//! job by job, memory then CPU, each normal from one Box–Muller pair (cosine branch): the same
//! seed gives the same bits on every platform.

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
}

fn arg_error(name: &str, v: impl ToString, why: impl Into<String>) -> crate::Error {
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
    let mem_mean = spec.hosts as f64 * (1.0 - spec.slack) / spec.jobs as f64;
    let mut jobs = Vec::with_capacity(spec.jobs);
    for _ in 0..spec.jobs {
        let mem = truncated_normal(&mut rng, mem_mean, spec.cv_mem * mem_mean)
            .ok_or_else(|| arg_error("--slack", spec.slack, impossible(mem_mean, spec.cv_mem)))?;
        let cpu = truncated_normal(&mut rng, 0.5, spec.cv_cpu * 0.5)
            .ok_or_else(|| arg_error("--cv-cpu", spec.cv_cpu, impossible(0.5, spec.cv_cpu)))?;
        jobs.push(Job::new(cpu, mem));
    }
    Instance::new(spec.hosts, jobs, Path::new("<generated>"))
}

fn impossible(mean: f64, cv: f64) -> String {
    format!("a normal law of mean {mean} and cv {cv} almost never falls in (0, 1]")
}

/// A normal draw conditioned on `(0, 1]`, by rejection; `None` after too many rejections.
fn truncated_normal(rng: &mut ChaCha8Rng, mean: f64, sd: f64) -> Option<f64> {
    for _ in 0..MAX_REJECTIONS {
        // u1 in (0, 1] so that ln(u1) is finite.
        let u1 = 1.0 - rng.random::<f64>();
        let u2 = rng.random::<f64>();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let x = mean + sd * z;
        if x > 0.0 && x <= 1.0 {
            return Some(x);
        }
    }
    None
}
