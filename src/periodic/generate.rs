//! The synthetic instances of §5.3: capacity 20, 100 jobs by default; task means uniform in
//! `(0, 10]`, `(0, 5]` or `(0, 1]` with 50, 100 or 500 tasks per job (large, medium, small
//! tasks); amplitudes uniform in `[0, C_j]` (large) or `[0, C_j / 2]` (small); phases uniform in
//! `[0, 2π)`. The paper's intervals start at 0; a mean of exactly 0 is excluded (`1 − U` with
//! `U ∈ [0, 1)`). Draws: ChaCha8 seeded with `seed`, job by job, mean, amplitude, phase.

use super::instance::{Instance, Job};
use crate::error::Result;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Task size class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSize {
    /// Means in (0, 10], 50 tasks per job.
    Large,
    /// Means in (0, 5], 100 tasks per job.
    Medium,
    /// Means in (0, 1], 500 tasks per job.
    Small,
}

/// Amplitude class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Amplitude {
    /// Amplitudes in [0, C_j].
    Large,
    /// Amplitudes in [0, C_j / 2].
    Small,
}

impl std::str::FromStr for TaskSize {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "large" => Ok(TaskSize::Large),
            "medium" => Ok(TaskSize::Medium),
            "small" => Ok(TaskSize::Small),
            _ => Err(format!(
                "unknown task size `{s}`; expected large, medium or small"
            )),
        }
    }
}

impl std::str::FromStr for Amplitude {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "large" => Ok(Amplitude::Large),
            "small" => Ok(Amplitude::Small),
            _ => Err(format!("unknown amplitude `{s}`; expected large or small")),
        }
    }
}

/// Generates one §5.3 instance.
pub fn generate(tasks: TaskSize, amplitude: Amplitude, jobs: usize, seed: u64) -> Result<Instance> {
    let (max_mean, n) = match tasks {
        TaskSize::Large => (10.0, 50),
        TaskSize::Medium => (5.0, 100),
        TaskSize::Small => (1.0, 500),
    };
    let amp = match amplitude {
        Amplitude::Large => 1.0,
        Amplitude::Small => 0.5,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let jobs = (0..jobs)
        .map(|_| {
            let mean = max_mean * (1.0 - rng.random::<f64>());
            let amplitude = amp * mean * rng.random::<f64>();
            let phase = std::f64::consts::TAU * rng.random::<f64>();
            Job {
                mean,
                amplitude,
                phase,
                tasks: n,
            }
        })
        .collect();
    let inst = Instance {
        capacity: 20.0,
        jobs,
    };
    inst.validate(Path::new("<generated>"))?;
    Ok(inst)
}
