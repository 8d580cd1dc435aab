//! Random instances for tests and the enumeration study: Poisson-like arrivals on an integer
//! grid (so that simultaneous arrivals and equal works — the tie cases — happen) and
//! log-uniform works.

use super::instance::{Instance, Job};
use super::sharing::VmSpec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenSpec {
    /// PMs.
    pub pms: usize,
    /// VMs per PM.
    pub vms_per_pm: usize,
    /// Sharing setting of every VM.
    pub vm: VmSpec,
    /// Number of jobs.
    pub jobs: usize,
    /// Mean inter-arrival time, seconds (exponential, rounded to whole seconds).
    pub mean_interarrival: f64,
    /// Smallest work, seconds.
    pub work_min: f64,
    /// Largest work, seconds (log-uniform between the two, rounded to whole seconds).
    pub work_max: f64,
    /// Seed of the random stream (the command line's `--seed`).
    pub seed: u64,
}

impl Default for GenSpec {
    /// The enumeration's size: 2 PMs × 2 VMs, 8 jobs.
    fn default() -> Self {
        GenSpec {
            pms: 2,
            vms_per_pm: 2,
            vm: VmSpec::default(),
            jobs: 8,
            mean_interarrival: 20.0,
            work_min: 1.0,
            work_max: 200.0,
            seed: 0,
        }
    }
}

/// A deterministic instance: same spec and seed, same bits.
pub fn generate(spec: &GenSpec, seed: u64) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = 0.0;
    let lo = spec.work_min.max(1e-9).ln();
    let hi = spec.work_max.max(spec.work_min).max(1e-9).ln();
    let jobs = (0..spec.jobs)
        .map(|k| {
            if k > 0 {
                let u: f64 = rng.random_range(0.0..1.0);
                t += (-(1.0 - u).ln() * spec.mean_interarrival).round();
            }
            let work = rng.random_range(lo..=hi).exp().round().max(1.0);
            Job {
                id: k as i64 + 1,
                submit: t,
                work,
            }
        })
        .collect();
    Instance {
        pms: spec.pms,
        vms_per_pm: spec.vms_per_pm,
        vm: spec.vm,
        pcap: 1.0,
        jobs,
    }
}
