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
    /// RR-6692 §5.2: the large set with parallel jobs, 100/250/500 tasks (108 specifications).
    VcschedParallel,
    /// RR-6692 §6.1: adaptations of 6-host, 12-job optima under 7 migration budgets.
    VcschedAdapt,
}

/// Budgets of `vcsched-adapt`, as fractions of the staying tasks' memory.
pub const ADAPT_BUDGETS: [f64; 7] = [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0];

impl SetName {
    /// Name on the command line and in files.
    pub fn name(&self) -> &'static str {
        match self {
            SetName::VcschedSmall => "vcsched-small",
            SetName::VcschedLarge => "vcsched-large",
            SetName::PeriodicSynthetic => "periodic-synthetic",
            SetName::VcschedParallel => "vcsched-parallel",
            SetName::VcschedAdapt => "vcsched-adapt",
        }
    }

    /// Instances per specification in the papers (10, 100, 20).
    pub fn default_per_spec(&self) -> usize {
        match self {
            SetName::VcschedSmall => 10,
            SetName::VcschedLarge => 100,
            SetName::PeriodicSynthetic => 20,
            SetName::VcschedParallel => 100,
            SetName::VcschedAdapt => 10,
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
            // Every row carries the §3.1 bound (closed form = LP value), so `lp-bound`, a
            // 64-host HiGHS LP, is left to `--methods`.
            SetName::VcschedParallel => ["sg", "mcb8"].map(String::from).to_vec(),
            SetName::VcschedAdapt => ["milp", "adapt", "mcb8", "sg", "lp-bound"]
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
    /// A VCSched adaptation: the base specification and the budget fraction.
    Adapt {
        /// The workload before the change (its seed is the instance's).
        base: vcsched::Spec,
        /// Budget as a fraction of the staying tasks' memory.
        budget_fraction: f64,
    },
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
///
/// The seed of an instance derives from its *workload group* and index: for `vcsched-adapt`
/// the budgets of one workload share a group, so every budget adapts the same workload.
pub fn instances(set: SetName, per_spec: usize, base_seed: u64) -> Vec<InstanceRef> {
    let mut specs: Vec<(String, Spec)> = Vec::new();
    let mut groups: Vec<usize> = Vec::new();
    match set {
        SetName::VcschedSmall | SetName::VcschedLarge | SetName::VcschedParallel => {
            let (hosts, sizes): (usize, &[usize]) = match set {
                SetName::VcschedSmall => (4, &[6, 8, 10, 12]),
                _ => (64, &[100, 250, 500]),
            };
            let parallel = set == SetName::VcschedParallel;
            let count = if parallel { "t" } else { "j" };
            for &jobs in sizes {
                for s in 1..=9 {
                    for cv_mem in [0.25, 0.75] {
                        for cv_cpu in [0.25, 0.75] {
                            let slack = f64::from(s) / 10.0;
                            let id = format!("h{hosts}-{count}{jobs}-s{slack}-m{cv_mem}-c{cv_cpu}");
                            let spec = vcsched::Spec {
                                hosts,
                                jobs,
                                slack,
                                cv_mem,
                                cv_cpu,
                                seed: 0,
                                parallel,
                            };
                            groups.push(specs.len());
                            specs.push((id, Spec::Vcsched(spec)));
                        }
                    }
                }
            }
        }
        SetName::VcschedAdapt => {
            let mut group = 0;
            for s in [2, 4, 6, 8] {
                for cv in [0.25, 0.75] {
                    let slack = f64::from(s) / 10.0;
                    let base = vcsched::Spec {
                        hosts: 6,
                        jobs: 12,
                        slack,
                        cv_mem: cv,
                        cv_cpu: cv,
                        seed: 0,
                        parallel: false,
                    };
                    for budget_fraction in ADAPT_BUDGETS {
                        let id = format!("h6-j12-s{slack}-cv{cv}-b{budget_fraction}");
                        groups.push(group);
                        specs.push((
                            id,
                            Spec::Adapt {
                                base,
                                budget_fraction,
                            },
                        ));
                    }
                    group += 1;
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
                    groups.push(specs.len());
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
            let seed = derive_seed(base_seed, groups[k], index);
            let spec = match spec {
                Spec::Vcsched(s) => Spec::Vcsched(vcsched::Spec { seed, ..s }),
                Spec::Adapt {
                    base,
                    budget_fraction,
                } => Spec::Adapt {
                    base: vcsched::Spec { seed, ..base },
                    budget_fraction,
                },
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
            Spec::Adapt {
                base,
                budget_fraction,
            } => {
                let p = vcsched::perturb::Perturbation {
                    budget_fraction,
                    ..Default::default()
                };
                Generated::Vcsched(vcsched::perturb::adaptation(&base, &p, Some(60.0))?)
            }
            Spec::Periodic {
                tasks,
                amplitude,
                jobs,
            } => Generated::Periodic(periodic::generate(tasks, amplitude, jobs, self.seed)?),
        })
    }
}
