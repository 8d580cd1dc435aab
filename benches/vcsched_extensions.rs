//! RR-6692 §5 and §6: parallel jobs and adaptation.
//!
//! `parallel/*`: SG and MCB8 on a generated 64-host instance of 500 tasks (Lublin–Feitelson
//! task counts; slack 0.5, cv 0.75/0.75, seed 1), the whole method as the CLI runs it —
//! placement of the tasks, then the per-job average-yield LP solved by HiGHS — and the LP
//! alone. `adapt/*`: the `adapt` heuristic and the exact `milp` on a 6-host, 12-job
//! adaptation (slack 0.4, cv 0.5/0.5, seed 1) at budgets 0.1 and 1 × the staying memory.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use vcalloc::vcsched::perturb::{adaptation, Perturbation};
use vcalloc::vcsched::{
    avg_lp, generate, mcb, placement_min_yield, relaxation, solve, Method, Settings, Spec,
};

fn parallel(c: &mut Criterion) {
    let spec = Spec {
        hosts: 64,
        jobs: 500,
        slack: 0.5,
        cv_mem: 0.75,
        cv_cpu: 0.75,
        seed: 1,
        parallel: true,
    };
    let inst = generate(&spec).expect("bench input");
    let settings = Settings::default();
    let mut g = c.benchmark_group("parallel");
    for m in [Method::Sg, Method::Mcb(8)] {
        g.bench_function(format!("{m}_64x500tasks"), |b| {
            b.iter(|| solve(black_box(&inst), m, &settings).unwrap())
        });
    }
    let ub = relaxation::closed_form_bound(&inst).expect("feasible relaxation");
    let p = mcb::mcb(&inst.flattened(), 8, ub, 1e-4)
        .placement
        .expect("packs");
    let y = placement_min_yield(&inst, &p);
    g.bench_function("avg_lp_64x500tasks", |b| {
        b.iter(|| {
            avg_lp::optimal_grants(black_box(&inst), &p, y, &vcalloc::solver::Deadline::none())
                .unwrap()
        })
    });
    g.finish();
}

fn adapt(c: &mut Criterion) {
    let spec = Spec {
        hosts: 6,
        jobs: 12,
        slack: 0.4,
        cv_mem: 0.5,
        cv_cpu: 0.5,
        seed: 1,
        parallel: false,
    };
    let settings = Settings::default();
    let mut g = c.benchmark_group("adapt");
    g.sample_size(10);
    for budget_fraction in [0.1, 1.0] {
        let p = Perturbation {
            budget_fraction,
            ..Default::default()
        };
        let inst = adaptation(&spec, &p, None).expect("bench input");
        for m in [Method::Adapt, Method::Milp] {
            g.bench_function(format!("{m}_6x12_b{budget_fraction}"), |b| {
                b.iter(|| solve(black_box(&inst), m, &settings).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, parallel, adapt);
criterion_main!(benches);
