//! Independent re-check of a solution file against its instance: every constraint of
//! RR-6692 §2.3 and every number the file reports, with an absolute tolerance.

use super::instance::Instance;
use super::solution::Solution;
use crate::{Status, Violation};

/// Absolute tolerance of every check.
pub const TOLERANCE: f64 = 1e-9;

/// Gap below which a file may claim `optimal` (the default [`super::Settings::gap_tolerance`]).
pub const OPTIMALITY_GAP: f64 = 1e-6;

/// Every violation found (empty when the solution is valid).
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut fail =
        |constraint: &'static str, detail: String| v.push(Violation { constraint, detail });
    if sol.problem != "vcsched" {
        fail(
            "problem",
            format!("`{}` is not a VCSched solution", sol.problem),
        );
    }
    let numbers = [
        ("min_yield", sol.min_yield()),
        ("avg_yield", sol.avg_yield),
        ("upper_bound", sol.upper_bound()),
        ("gap", sol.gap),
        ("seconds", Some(sol.seconds)),
    ];
    for (name, x) in numbers {
        if x.is_some_and(|x| !x.is_finite() || x < 0.0) {
            fail(
                "numbers",
                format!("{name} = {x:?} is not a finite non-negative number"),
            );
        }
    }
    let has_allocation = matches!(sol.status, Status::Optimal | Status::Feasible);
    if !has_allocation {
        let allocated =
            !sol.jobs.is_empty() || sol.min_yield().is_some() || sol.avg_yield.is_some();
        if allocated || sol.migration.is_some() {
            fail(
                "status",
                format!("status `{}` must come without an allocation", sol.status),
            );
        }
        return v;
    }
    if sol.jobs.len() != inst.num_jobs() {
        fail(
            "one-entry-per-job",
            format!(
                "{} job entries for {} jobs",
                sol.jobs.len(),
                inst.num_jobs()
            ),
        );
        return v;
    }
    let mut cpu = vec![0.0; inst.hosts];
    let mut mem = vec![0.0; inst.hosts];
    let mut yields = Vec::with_capacity(inst.num_jobs());
    for (i, (g, job)) in sol.jobs.iter().zip(&inst.jobs).enumerate() {
        if g.hosts.len() != job.tasks as usize {
            fail(
                "one-host-per-task",
                format!(
                    "job {i} has {} tasks but {} hosts",
                    job.tasks,
                    g.hosts.len()
                ),
            );
            continue;
        }
        if let Some(&h) = g.hosts.iter().find(|&&h| h >= inst.hosts) {
            fail(
                "one-host-per-task",
                format!("job {i} on host {h} of {}", inst.hosts),
            );
            continue;
        }
        if !g.cpu.is_finite() || g.cpu < -TOLERANCE {
            fail("job-cpu", format!("job {i} granted {} CPU", g.cpu));
        }
        if g.cpu > job.cpu + TOLERANCE {
            fail(
                "job-cpu",
                format!("job {i} granted {} CPU but needs only {}", g.cpu, job.cpu),
            );
        }
        // Every task of the job gets the same grant `g.cpu` (eq. 20): the format holds one.
        for &h in &g.hosts {
            cpu[h] += g.cpu;
            mem[h] += job.mem;
        }
        yields.push(g.cpu / job.cpu);
    }
    if yields.len() == inst.num_jobs() {
        check_migration(inst, sol, &mut fail);
    }
    for h in 0..inst.hosts {
        if cpu[h] > 1.0 + TOLERANCE {
            fail("host-cpu", format!("host {h} grants {} CPU (> 1)", cpu[h]));
        }
        if mem[h] > 1.0 + TOLERANCE {
            fail(
                "host-memory",
                format!("host {h} holds {} memory (> 1)", mem[h]),
            );
        }
    }
    if yields.len() == inst.num_jobs() {
        let min = yields.iter().copied().fold(f64::INFINITY, f64::min);
        let avg = yields.iter().sum::<f64>() / yields.len() as f64;
        let close = |r: Option<f64>, x: f64| r.is_some_and(|r| (r - x).abs() <= TOLERANCE);
        if !close(sol.min_yield(), min) {
            fail(
                "min-yield",
                format!("reported {:?}, recomputed {min}", sol.min_yield()),
            );
        }
        if !close(sol.avg_yield, avg) {
            fail(
                "avg-yield",
                format!("reported {:?}, recomputed {avg}", sol.avg_yield),
            );
        }
        if let Some(ub) = sol.upper_bound() {
            if ub < min - TOLERANCE {
                fail(
                    "upper-bound",
                    format!("bound {ub} below the achieved minimum yield {min}"),
                );
            }
            if sol.status == Status::Optimal && ub - min > OPTIMALITY_GAP {
                fail(
                    "optimality",
                    format!("claims optimal with bound {ub} and yield {min}"),
                );
            }
        } else if sol.status == Status::Optimal {
            fail("optimality", "claims optimal without an upper bound".into());
        }
    }
    v
}

/// Adaptation: the reported migration equals the memory moved off current hosts, and stays
/// within the budget the solution names (or, failing that, the instance's).
fn check_migration(inst: &Instance, sol: &Solution, fail: &mut impl FnMut(&'static str, String)) {
    if !inst.is_adaptation() {
        if sol.migration.is_some() || sol.budget.is_some() {
            fail(
                "migration",
                "the instance gives no current hosts, so nothing can migrate".into(),
            );
        }
        return;
    }
    let moved = inst.migration_cost(&sol.placement());
    match sol.migration {
        Some(r) if (r - moved).abs() <= TOLERANCE => {}
        r => fail(
            "migration",
            format!("reported {r:?}, recomputed {moved} memory moved"),
        ),
    }
    if let Some(b) = sol.budget.or(inst.budget) {
        if moved > b + super::BUDGET_TOLERANCE {
            fail(
                "migration-budget",
                format!("{moved} memory moved, budget {b}"),
            );
        }
    }
}
