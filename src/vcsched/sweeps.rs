//! The sweeps of RR-6692: the §4.1 small and large sets, §5.2 parallel jobs, §6.1
//! adaptations. Identifiers and seeds are those of every earlier run.

use super::generate::Spec;
use super::problem::{expanded, spec_of, GenSpec};
use crate::experiment::SpecEntry;
use crate::problem::{Sweep, SweepInstance};

/// Budgets of `vcsched-adapt`, as fractions of the staying tasks' memory.
pub const ADAPT_BUDGETS: [f64; 7] = [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0];

/// The CSV columns of every VCSched sweep.
const COLUMNS: [&str; 9] = [
    "hosts",
    "jobs",
    "slack",
    "cv_mem",
    "cv_cpu",
    "budget",
    "avg_yield",
    "migration",
    "search_yield",
];

fn params(s: &Spec) -> Vec<(&'static str, String)> {
    vec![
        ("hosts", s.hosts.to_string()),
        ("jobs", s.jobs.to_string()),
        ("slack", s.slack.to_string()),
        ("cv_mem", s.cv_mem.to_string()),
        ("cv_cpu", s.cv_cpu.to_string()),
    ]
}

/// The 36 × sizes specifications of §4.1 (slack 0.1–0.9, cv 0.25/0.75 each).
fn grid(hosts: usize, sizes: &[usize], parallel: bool) -> Vec<SpecEntry<GenSpec>> {
    let count = if parallel { "t" } else { "j" };
    let mut specs = Vec::new();
    for &jobs in sizes {
        for s in 1..=9 {
            for cv_mem in [0.25, 0.75] {
                for cv_cpu in [0.25, 0.75] {
                    let slack = f64::from(s) / 10.0;
                    let spec = Spec {
                        hosts,
                        jobs,
                        slack,
                        cv_mem,
                        cv_cpu,
                        seed: 0,
                        parallel,
                    };
                    specs.push(SpecEntry {
                        id: format!("h{hosts}-{count}{jobs}-s{slack}-m{cv_mem}-c{cv_cpu}"),
                        group: specs.len(),
                        params: params(&spec),
                        spec: spec_of(spec, None),
                    });
                }
            }
        }
    }
    specs
}

pub(super) fn small(per_spec: usize, seed: u64) -> Vec<SweepInstance<GenSpec>> {
    expanded(grid(4, &[6, 8, 10, 12], false), per_spec, seed)
}

pub(super) fn large(per_spec: usize, seed: u64) -> Vec<SweepInstance<GenSpec>> {
    expanded(grid(64, &[100, 250, 500], false), per_spec, seed)
}

fn parallel(per_spec: usize, seed: u64) -> Vec<SweepInstance<GenSpec>> {
    expanded(grid(64, &[100, 250, 500], true), per_spec, seed)
}

/// Every budget of one workload shares its seeds, so each budget adapts the same workload.
fn adapt(per_spec: usize, seed: u64) -> Vec<SweepInstance<GenSpec>> {
    let mut specs = Vec::new();
    let mut group = 0;
    for s in [2, 4, 6, 8] {
        for cv in [0.25, 0.75] {
            let slack = f64::from(s) / 10.0;
            let base = Spec {
                hosts: 6,
                jobs: 12,
                slack,
                cv_mem: cv,
                cv_cpu: cv,
                seed: 0,
                parallel: false,
            };
            for budget_fraction in ADAPT_BUDGETS {
                let mut p = params(&base);
                p.push(("budget", budget_fraction.to_string()));
                specs.push(SpecEntry {
                    id: format!("h6-j12-s{slack}-cv{cv}-b{budget_fraction}"),
                    group,
                    params: p,
                    spec: spec_of(base, Some(budget_fraction)),
                });
            }
            group += 1;
        }
    }
    expanded(specs, per_spec, seed)
}

fn names(methods: &[&str]) -> Vec<String> {
    methods.iter().map(|m| m.to_string()).collect()
}

/// Every VCSched sweep.
pub fn all() -> Vec<Sweep<GenSpec>> {
    use super::Method;
    // `adapt` is for adaptation instances; on these it is greedy + local search.
    let no_adapt = |skip: &[Method]| -> Vec<String> {
        Method::all()
            .iter()
            .filter(|m| **m != Method::Adapt && !skip.contains(m))
            .map(|m| m.name())
            .collect()
    };
    let columns = COLUMNS.to_vec();
    vec![
        Sweep {
            name: "vcsched-small",
            title: "RR-6692 §4.1 small set: 4 hosts, 6/8/10/12 jobs, 144 specifications",
            per_spec: 10,
            methods: no_adapt(&[]),
            columns: columns.clone(),
            instances: small,
        },
        Sweep {
            name: "vcsched-large",
            title: "RR-6692 §4.1 large set: 64 hosts, 100/250/500 jobs, 108 specifications",
            per_spec: 100,
            methods: no_adapt(&[Method::Milp]),
            columns: columns.clone(),
            instances: large,
        },
        Sweep {
            name: "vcsched-parallel",
            title: "RR-6692 §5.2: the large set with parallel jobs (Lublin–Feitelson task counts), 100/250/500 tasks; SG and MCB8 beside the LP bound",
            per_spec: 100,
            // Every row carries the §3.1 bound (closed form = LP value), so `lp-bound`, a
            // 64-host HiGHS LP, is left to `--methods`.
            methods: names(&["sg", "mcb8"]),
            columns: columns.clone(),
            instances: parallel,
        },
        Sweep {
            name: "vcsched-adapt",
            title: "RR-6692 §6.1: optima of 6-host, 12-job instances adapted under 7 migration budgets (0 to 100% of the staying memory); MILP, adapt, MCB8, SG",
            per_spec: 10,
            methods: names(&["milp", "adapt", "mcb8", "sg", "lp-bound"]),
            columns,
            instances: adapt,
        },
    ]
}
