//! The instance sets of the papers' sweeps, enumerated deterministically: an instance is
//! identified by (set, specification, index) and its seed derives from those and the base
//! seed, so any shard, rerun or other tool regenerates the same instance.

use crate::periodic::{self, Amplitude, TaskSize};
use crate::vcsched;
use serde::{Deserialize, Serialize};

/// A sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetName {
    /// RR-6692 §4.1 small set: 4 hosts, 6/8/10/12 jobs (144 specifications).
    VcschedSmall,
    /// RR-6692 §4.1 large set: 64 hosts, 100/250/500 jobs (108 specifications).
    VcschedLarge,
    /// Belaid 2015 §5.3: tasks large/medium/small × amplitude large/small, 100 jobs.
    PeriodicSynthetic,
}

impl SetName {
    /// Name on the command line and in files.
    pub fn name(&self) -> &'static str {
        match self {
            SetName::VcschedSmall => "vcsched-small",
            SetName::VcschedLarge => "vcsched-large",
            SetName::PeriodicSynthetic => "periodic-synthetic",
        }
    }

    /// Instances per specification in the papers (10, 100, 20).
    pub fn default_per_spec(&self) -> usize {
        match self {
            SetName::VcschedSmall => 10,
            SetName::VcschedLarge => 100,
            SetName::PeriodicSynthetic => 20,
        }
    }

    /// The methods run when none are named.
    pub fn default_methods(&self) -> Vec<String> {
        match self {
            // `adapt` is for adaptation instances; on these it is greedy + local search.
            SetName::VcschedSmall => vcsched::Method::all()
                .iter()
                .filter(|m| **m != vcsched::Method::Adapt)
                .map(|m| m.name())
                .collect(),
            SetName::VcschedLarge => vcsched::Method::all()
                .iter()
                .skip(1)
                .filter(|m| **m != vcsched::Method::Adapt)
                .map(|m| m.name())
                .collect(),
            SetName::PeriodicSynthetic => ["cg", "bfd", "mm", "mmm", "lower-bound"]
                .map(String::from)
                .to_vec(),
        }
    }
}

/// One specification of a set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spec {
    /// A VCSched generator specification.
    Vcsched(vcsched::Spec),
    /// A periodic scenario.
    Periodic {
        /// Task size class.
        tasks: TaskSize,
        /// Amplitude class.
        amplitude: Amplitude,
        /// Jobs.
        jobs: usize,
    },
}

/// One instance of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceRef {
    /// Position in the whole set (shards split on it).
    pub ordinal: usize,
    /// Stable identifier, e.g. `h4-j6-s0.1-m0.25-c0.25-i3`.
    pub id: String,
    /// The specification.
    pub spec: Spec,
    /// Index within the specification.
    pub index: usize,
    /// The seed of the generator.
    pub seed: u64,
}

/// A concrete instance.
#[derive(Debug, Clone)]
pub enum Generated {
    /// A VCSched instance.
    Vcsched(vcsched::Instance),
    /// A periodic instance.
    Periodic(periodic::Instance),
}

/// SplitMix64: a seed per (base, ordinal of the specification, index) with no collisions in
/// practice and no dependence on the order of the run.
pub fn derive_seed(base: u64, spec: usize, index: usize) -> u64 {
    let mut z = base
        ^ (spec as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (index as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every instance of `set`, `per_spec` per specification.
pub fn instances(set: SetName, per_spec: usize, base_seed: u64) -> Vec<InstanceRef> {
    let mut specs: Vec<(String, Spec)> = Vec::new();
    match set {
        SetName::VcschedSmall | SetName::VcschedLarge => {
            let (hosts, sizes): (usize, &[usize]) = match set {
                SetName::VcschedSmall => (4, &[6, 8, 10, 12]),
                _ => (64, &[100, 250, 500]),
            };
            for &jobs in sizes {
                for s in 1..=9 {
                    for cv_mem in [0.25, 0.75] {
                        for cv_cpu in [0.25, 0.75] {
                            let slack = f64::from(s) / 10.0;
                            let id = format!("h{hosts}-j{jobs}-s{slack}-m{cv_mem}-c{cv_cpu}");
                            let spec = vcsched::Spec {
                                hosts,
                                jobs,
                                slack,
                                cv_mem,
                                cv_cpu,
                                seed: 0,
                            };
                            specs.push((id, Spec::Vcsched(spec)));
                        }
                    }
                }
            }
        }
        SetName::PeriodicSynthetic => {
            for (tn, tasks) in [
                ("large", TaskSize::Large),
                ("medium", TaskSize::Medium),
                ("small", TaskSize::Small),
            ] {
                for (an, amplitude) in [("large", Amplitude::Large), ("small", Amplitude::Small)] {
                    specs.push((
                        format!("t{tn}-a{an}"),
                        Spec::Periodic {
                            tasks,
                            amplitude,
                            jobs: 100,
                        },
                    ));
                }
            }
        }
    }
    let mut out = Vec::with_capacity(specs.len() * per_spec);
    for (k, (id, spec)) in specs.into_iter().enumerate() {
        for index in 0..per_spec {
            let seed = derive_seed(base_seed, k, index);
            let spec = match spec {
                Spec::Vcsched(s) => Spec::Vcsched(vcsched::Spec { seed, ..s }),
                p => p,
            };
            out.push(InstanceRef {
                ordinal: out.len(),
                id: format!("{id}-i{index}"),
                spec,
                index,
                seed,
            });
        }
    }
    out
}

impl InstanceRef {
    /// Generates the instance.
    pub fn generate(&self) -> crate::Result<Generated> {
        Ok(match self.spec {
            Spec::Vcsched(s) => Generated::Vcsched(vcsched::generate(&s)?),
            Spec::Periodic {
                tasks,
                amplitude,
                jobs,
            } => Generated::Periodic(periodic::generate(tasks, amplitude, jobs, self.seed)?),
        })
    }
}
