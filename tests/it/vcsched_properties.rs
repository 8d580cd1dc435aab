//! Property tests (proptest, fixed seed) on medium random instances, beyond brute-force
//! reach: every heuristic verifies and never exceeds the LP bound; files round-trip.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::path::Path;
use vcalloc::solver::Deadline;
use vcalloc::vcsched::{
    relaxation, solve, solve_sharing, verify, Instance, Job, Method, Settings, SharedRelaxation,
};
use vcalloc::Status;

fn instance() -> impl Strategy<Value = Instance> {
    (
        1usize..9,
        prop::collection::vec((0.001f64..=1.0, 0.001f64..=1.0), 1..40),
    )
        .prop_map(|(hosts, jobs)| {
            let jobs = jobs
                .into_iter()
                .map(|(cpu, mem)| Job::new(cpu, mem * 0.6))
                .collect();
            Instance::new(hosts, jobs, Path::new("<proptest>")).unwrap()
        })
}

fn config() -> Config {
    Config {
        cases: 64,
        rng_seed: RngSeed::Fixed(20081016),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn heuristics_verify_and_respect_the_bound(inst in instance()) {
        let settings = Settings::default();
        let bound = relaxation::closed_form_bound(&inst);
        for m in [Method::Gr, Method::Sg, Method::Gb, Method::Sgb, Method::Mcb(1), Method::Mcb(5), Method::Mcb(8)] {
            let sol = solve(&inst, m, &settings).unwrap();
            prop_assert!(verify(&inst, &sol).is_empty(), "{}: {:?}", m, verify(&inst, &sol));
            if let Some(y) = sol.min_yield() {
                prop_assert!(y <= bound.unwrap() + 1e-12);
                prop_assert!(sol.avg_yield.unwrap() >= y - 1e-12);
            }
            if bound.is_none() {
                prop_assert_eq!(sol.status, Status::Infeasible);
            }
        }
    }

    /// The runner shares one relaxation between lp-bound, rrnd and rrnz: same answers as
    /// solving it three times, and the reusers say so.
    #[test]
    fn a_shared_relaxation_changes_no_answer(inst in instance()) {
        let settings = Settings::default();
        let shared = SharedRelaxation::default();
        for (k, m) in [Method::LpBound, Method::Rrnd, Method::Rrnz].into_iter().enumerate() {
            let alone = solve(&inst, m, &settings).unwrap();
            let with = solve_sharing(&inst, m, &settings, &Deadline::none(), &shared).unwrap();
            prop_assert!(verify(&inst, &with).is_empty());
            prop_assert_eq!(&alone.jobs, &with.jobs);
            prop_assert_eq!(alone.min_yield(), with.min_yield());
            prop_assert_eq!(alone.upper_bound(), with.upper_bound());
            prop_assert_eq!(alone.status, with.status);
            // An infeasible instance (no closed-form bound) is settled without the LP.
            let feasible = relaxation::closed_form_bound(&inst).is_some();
            prop_assert_eq!(with.stats.contains_key("lp_shared"), k > 0 && feasible);
        }
    }

    #[test]
    fn instance_json_round_trips_bit_for_bit(inst in instance()) {
        let back = Instance::from_json(&inst.to_json(), Path::new("<rt>")).unwrap();
        prop_assert_eq!(back, inst);
    }

    #[test]
    fn solution_json_round_trips(inst in instance()) {
        let sol = solve(&inst, Method::Mcb(8), &Settings::default()).unwrap();
        let back: vcalloc::vcsched::Solution = serde_json::from_str(&sol.to_json()).unwrap();
        prop_assert_eq!(back, sol);
    }
}
