//! The MILP on the paper's small set (RR-6692 §4.1): 4 hosts; 6, 8, 10, 12 jobs; slack
//! 0.1 … 0.9; cv 0.25 / 0.75 for memory and for CPU — one instance per specification (144),
//! seed = specification index. Each instance is solved once; the bench prints the mean,
//! median and max time and how many were proven optimal or infeasible.
//!
//! `cargo bench --bench vcsched_milp_small` (add `-- --time-limit S` to cap each solve).
//! Under `cargo test --benches` it solves the first few only.

use std::time::Instant;
use vcalloc::solver::Deadline;
use vcalloc::vcsched::{generate, solve_within, Method, Settings, Spec};
use vcalloc::Status;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = !args.iter().any(|a| a == "--bench");
    let time_limit = args
        .iter()
        .position(|a| a == "--time-limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let settings = Settings::default();
    let mut specs = Vec::new();
    for jobs in [6, 8, 10, 12] {
        for s in 1..=9 {
            for cv_mem in [0.25, 0.75] {
                for cv_cpu in [0.25, 0.75] {
                    let seed = specs.len() as u64;
                    specs.push(Spec {
                        hosts: 4,
                        jobs,
                        slack: s as f64 / 10.0,
                        cv_mem,
                        cv_cpu,
                        seed,
                        parallel: false,
                    });
                }
            }
        }
    }
    if quick {
        specs.truncate(4);
    }
    let mut times = Vec::new();
    let (mut optimal, mut infeasible, mut other) = (0, 0, 0);
    let mut by_jobs: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for spec in &specs {
        let inst = generate(spec).expect("valid specification");
        let t = Instant::now();
        let sol = solve_within(&inst, Method::Milp, &settings, &Deadline::after(time_limit))
            .expect("MILP solve");
        let secs = t.elapsed().as_secs_f64();
        match sol.status {
            Status::Optimal => optimal += 1,
            Status::Infeasible => infeasible += 1,
            _ => other += 1,
        }
        times.push(secs);
        by_jobs.entry(spec.jobs).or_default().push(secs);
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        (mean, v[v.len() / 2], v[v.len() - 1])
    };
    let (mean, median, max) = stats(&mut times);
    println!(
        "milp small set: {} instances, {optimal} optimal, {infeasible} infeasible, {other} not proven",
        specs.len()
    );
    println!("  all:      mean {mean:.4} s, median {median:.4} s, max {max:.4} s");
    for (jobs, mut v) in by_jobs {
        let (mean, median, max) = stats(&mut v);
        println!("  {jobs:>2} jobs: mean {mean:.4} s, median {median:.4} s, max {max:.4} s");
    }
}
