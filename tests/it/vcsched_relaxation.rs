//! The two routes to the rational relaxation's point: the optimal face (default) and the
//! whole relaxation. The face's point must be a feasible, optimal point of the *whole*
//! relaxation (checked here against the MILP model built independently of the face LP),
//! with the value HiGHS finds for the whole LP; budgeted adaptations take the whole LP.

use crate::common;

use common::{tiny_adaptation, tiny_instance, tiny_parallel_instance};
use vcalloc::solver::{Deadline, HighsSettings};
use vcalloc::vcsched::milp::{self, Formulation};
use vcalloc::vcsched::relaxation::{self, Route};
use vcalloc::vcsched::{generate, solve, verify, Instance, Method, Settings, Spec};

/// Solves `inst` by both routes and checks the face point in the whole relaxation.
fn check_routes(inst: &Instance, label: &str) {
    let highs = HighsSettings::default();
    let deadline = Deadline::none();
    let full = relaxation::solve(inst, Route::Full, &highs, &deadline).unwrap();
    let face = relaxation::solve(inst, Route::Face, &highs, &deadline).unwrap();
    assert!(full.finished && face.finished, "{label}");
    let budgeted = inst.is_adaptation() && inst.budget.is_some();
    assert_eq!(face.route, if budgeted { Route::Full } else { Route::Face });
    match (full.value, face.value) {
        (None, None) => return,
        (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-7, "{label}: full {a}, face {b}"),
        other => panic!("{label}: full and face disagree on feasibility: {other:?}"),
    }
    let x = face.columns.as_ref().expect("an optimal point");
    let (model, layout) = milp::build(
        inst,
        Formulation {
            symmetry_breaking: false,
        },
    );
    let violation = model.max_violation(x);
    assert!(
        violation <= 1e-6,
        "{label}: face point violates by {violation}"
    );
    let value = model.objective_of(x);
    assert!(
        (value - full.value.unwrap()).abs() <= 1e-7,
        "{label}: face point worth {value}, LP optimum {:?}",
        full.value
    );
    assert_eq!(x[layout.y()], value);
}

#[test]
fn the_face_point_is_optimal_for_the_whole_relaxation() {
    for seed in 0..150 {
        check_routes(
            &tiny_instance(seed, 6, 14),
            &format!("sequential seed {seed}"),
        );
        check_routes(
            &tiny_parallel_instance(seed, 6, 14),
            &format!("parallel seed {seed}"),
        );
        let mut adapting = tiny_adaptation(seed, 5, 10);
        check_routes(&adapting, &format!("budgeted adaptation seed {seed}"));
        adapting.budget = None;
        check_routes(&adapting, &format!("unbudgeted adaptation seed {seed}"));
    }
}

/// On §4.1 instances of the large set's shape the face is tight in every CPU row when
/// `Y* < 1`, the case the tiny instances rarely reach.
#[test]
fn the_face_point_holds_on_generated_instances() {
    for (k, slack) in [0.1, 0.5, 0.9].into_iter().enumerate() {
        let spec = Spec {
            hosts: 16,
            jobs: 60,
            slack,
            cv_mem: 0.75,
            cv_cpu: 0.75,
            seed: k as u64,
            parallel: false,
        };
        check_routes(&generate(&spec).unwrap(), &format!("16x60 slack {slack}"));
    }
}

/// Rounding works from either point: placements verify and never beat the bound.
#[test]
fn rounding_from_either_route_verifies() {
    for seed in 0..60 {
        let inst = tiny_instance(seed, 5, 12);
        for route in [Route::Face, Route::Full] {
            let settings = Settings {
                relaxation: route,
                seed,
                ..Settings::default()
            };
            let bound = relaxation::closed_form_bound(&inst);
            for m in [Method::Rrnd, Method::Rrnz, Method::LpBound] {
                let sol = solve(&inst, m, &settings).unwrap();
                assert!(verify(&inst, &sol).is_empty(), "{m} {route:?} seed {seed}");
                if let (Some(y), Some(b)) = (sol.min_yield(), bound) {
                    assert!(y <= b + 1e-9, "{m} {route:?} seed {seed}: {y} > {b}");
                }
                if m == Method::LpBound {
                    match (sol.upper_bound(), bound) {
                        (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-9, "seed {seed}"),
                        (a, b) => assert_eq!(a, b, "seed {seed}"),
                    }
                    let face = sol.stats.get("lp_face").copied();
                    assert_eq!(face, Some(f64::from(u8::from(route == Route::Face))));
                }
            }
        }
    }
}
