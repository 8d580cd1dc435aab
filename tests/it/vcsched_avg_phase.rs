//! The greedy average-yield phase (§3.5) against the same program solved by HiGHS.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::vcsched::{allocate, memory_feasible, placement_min_yield};

#[test]
fn greedy_average_yield_equals_the_lp_optimum() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let inst = common::tiny_instance(seed, 4, 10);
        // Any placement will do (memory is irrelevant to the CPU split).
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let placement: Vec<usize> = (0..inst.num_jobs())
            .map(|_| rng.random_range(0..inst.hosts))
            .collect();
        let alloc = allocate(&inst, &placement, true).unwrap();
        let y = placement_min_yield(&inst, &placement);
        let lp = common::optimal_avg_yield(&inst, &placement, y);
        assert!(
            (alloc.avg_yield - lp).abs() <= 1e-7,
            "seed {seed}: greedy {} vs LP {lp}",
            alloc.avg_yield
        );
        // The phase never lowers the minimum yield.
        assert!(alloc.min_yield >= y - 1e-12, "seed {seed}");
        let _ = memory_feasible(&inst, &placement, 0.0);
        checked += 1;
    }
    assert_eq!(checked, 300);
}

#[test]
fn without_the_phase_every_job_gets_exactly_the_minimum_yield() {
    for seed in 0..100u64 {
        let inst = common::tiny_instance(seed, 4, 10);
        let placement: Vec<usize> = (0..inst.num_jobs()).map(|i| i % inst.hosts).collect();
        let y = placement_min_yield(&inst, &placement);
        let flat = allocate(&inst, &placement, false).unwrap();
        for (a, j) in flat.cpu.iter().zip(&inst.jobs) {
            assert!((a / j.cpu - y).abs() <= 1e-12);
        }
        let full = allocate(&inst, &placement, true).unwrap();
        assert!(full.avg_yield >= flat.avg_yield - 1e-12, "seed {seed}");
    }
}
