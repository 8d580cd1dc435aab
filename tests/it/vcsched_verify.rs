//! `verify` accepts what the methods produce and rejects hand-broken solutions, one test per
//! constraint it checks.

use std::path::Path;
use vcalloc::vcsched::{solve, verify, Instance, Method, Settings, Solution};
use vcalloc::Status;

fn demo() -> Instance {
    Instance::load(Path::new("data/vcsched-demo.json"), None).unwrap()
}

fn good() -> (Instance, Solution) {
    let inst = demo();
    let sol = solve(&inst, Method::Mcb(8), &Settings::default()).unwrap();
    assert!(verify(&inst, &sol).is_empty());
    (inst, sol)
}

fn rejected_for(inst: &Instance, sol: &Solution, constraint: &str) {
    let v = verify(inst, sol);
    assert!(
        v.iter().any(|x| x.constraint == constraint),
        "expected a `{constraint}` violation, got {v:?}"
    );
}

#[test]
fn every_method_output_verifies() {
    let inst = demo();
    for m in Method::all() {
        for avg_phase in [true, false] {
            let settings = Settings {
                avg_phase,
                ..Settings::default()
            };
            let sol = solve(&inst, m, &settings).unwrap();
            assert!(
                verify(&inst, &sol).is_empty(),
                "{m}: {:?}",
                verify(&inst, &sol)
            );
        }
    }
}

#[test]
fn a_missing_job_is_rejected() {
    let (inst, mut sol) = good();
    sol.jobs.pop();
    rejected_for(&inst, &sol, "one-entry-per-job");
}

#[test]
fn a_host_out_of_range_is_rejected() {
    let (inst, mut sol) = good();
    sol.jobs[0].hosts = vec![inst.hosts];
    rejected_for(&inst, &sol, "one-host-per-task");
}

#[test]
fn an_overloaded_host_cpu_is_rejected() {
    let (inst, mut sol) = good();
    // Move every job onto host 0 with its grant: CPU (and memory) overflow.
    for g in &mut sol.jobs {
        g.hosts = vec![0];
    }
    rejected_for(&inst, &sol, "host-cpu");
}

#[test]
fn an_overloaded_host_memory_is_rejected() {
    let inst = Instance::new(
        2,
        vec![
            vcalloc::vcsched::Job::new(0.1, 0.6),
            vcalloc::vcsched::Job::new(0.1, 0.6),
        ],
        Path::new("t"),
    )
    .unwrap();
    let mut sol = solve(&inst, Method::Gr, &Settings::default()).unwrap();
    assert!(verify(&inst, &sol).is_empty());
    sol.jobs[1].hosts = sol.jobs[0].hosts.clone();
    rejected_for(&inst, &sol, "host-memory");
}

#[test]
fn a_grant_above_the_need_is_rejected() {
    let (inst, mut sol) = good();
    sol.jobs[0].cpu = inst.jobs[0].cpu * 1.01;
    rejected_for(&inst, &sol, "job-cpu");
    sol.jobs[0].cpu = -0.1;
    rejected_for(&inst, &sol, "job-cpu");
}

#[test]
fn a_misreported_minimum_yield_is_rejected() {
    let (inst, mut sol) = good();
    sol.objective = Some(sol.min_yield().unwrap() + 1e-6);
    rejected_for(&inst, &sol, "min-yield");
}

#[test]
fn a_misreported_average_yield_is_rejected() {
    let (inst, mut sol) = good();
    sol.avg_yield = Some(sol.avg_yield.unwrap() - 1e-6);
    rejected_for(&inst, &sol, "avg-yield");
}

#[test]
fn a_bound_below_the_solution_is_rejected() {
    let (inst, mut sol) = good();
    sol.bound = Some(sol.min_yield().unwrap() - 1e-3);
    rejected_for(&inst, &sol, "upper-bound");
}

#[test]
fn an_unproven_optimality_claim_is_rejected() {
    let (inst, mut sol) = good();
    assert!(
        sol.upper_bound().unwrap() - sol.min_yield().unwrap() > 1e-6,
        "demo has a gap"
    );
    sol.status = Status::Optimal;
    rejected_for(&inst, &sol, "optimality");
}

#[test]
fn a_failed_status_with_an_allocation_is_rejected() {
    let (inst, mut sol) = good();
    sol.status = Status::Unknown;
    rejected_for(&inst, &sol, "status");
}

#[test]
fn non_finite_numbers_are_rejected() {
    let (inst, mut sol) = good();
    sol.gap = Some(f64::NAN);
    rejected_for(&inst, &sol, "numbers");
}
