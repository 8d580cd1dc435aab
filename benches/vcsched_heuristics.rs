//! Heuristic speed on the 64-host, 500-job instance `data/vcsched-64x500.json`
//! (RR-6692 §4.1 generator: slack 0.5, cv 0.75/0.75, seed 1).
//!
//! `place/*` times the placement alone (what the paper times); `solve/*` the whole method as
//! the CLI runs it: placement, LP bound, optimal minimum yield and average-yield phase.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::Path;
use vcalloc::vcsched::{greedy, mcb, relaxation, solve, Instance, Method, Settings};

fn instance() -> Instance {
    Instance::load(Path::new("data/vcsched-64x500.json"), None).expect("bench input")
}

fn placement(c: &mut Criterion) {
    let inst = instance();
    let ub = relaxation::closed_form_bound(&inst).expect("feasible relaxation");
    let mut g = c.benchmark_group("place");
    g.bench_function("mcb8_64x500", |b| {
        b.iter(|| mcb::mcb(black_box(&inst), 8, ub, 1e-4))
    });
    g.bench_function("gr_500", |b| {
        b.iter(|| greedy::greedy(black_box(&inst), &greedy::file_order(&inst)))
    });
    g.bench_function("sg_500", |b| {
        b.iter(|| greedy::greedy(black_box(&inst), &greedy::memory_order(&inst)))
    });
    g.finish();
}

fn whole_method(c: &mut Criterion) {
    let inst = instance();
    let settings = Settings::default();
    let mut g = c.benchmark_group("solve");
    for m in [
        Method::Mcb(8),
        Method::Gr,
        Method::Sg,
        Method::Gb,
        Method::Sgb,
    ] {
        g.bench_function(format!("{m}_64x500"), |b| {
            b.iter(|| solve(black_box(&inst), m, &settings).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, placement, whole_method);
criterion_main!(benches);
