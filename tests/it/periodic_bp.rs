//! `solve periodic --method bp` (branch-and-price over unit tasks): with the tree alone it
//! finds and proves the brute-force optimum, and on a node limit it reports an honest
//! incumbent, bound and gap that `verify` accepts.

use vcalloc::periodic::selfcheck::{brute_force, check_tree, random_instance};
use vcalloc::periodic::{solve, verify, BranchSettings, Method, Settings};
use vcalloc::problem::selfcheck::CaseReport;
use vcalloc::Status;

/// Over 1,000 tiny instances the tree alone (no dive, no integer master, the root's start a
/// heuristic) equals brute force and says `optimal`; it must have had work to do in many.
#[test]
fn the_tree_alone_finds_and_proves_the_optimum() {
    let mut started = 0;
    for seed in 0..1_000u64 {
        let inst = if seed % 2 == 0 {
            random_instance(7_000 + seed, 2..=4, 1..=3)
        } else {
            random_instance(7_000 + seed, 3..=6, 1..=2)
        };
        let opt = brute_force(&inst);
        let mut r = CaseReport::new("test", &inst);
        started += usize::from(check_tree(&mut r, &inst, opt));
        assert!(
            r.disagreements.is_empty(),
            "seed {seed}: {:?}",
            r.disagreements
        );
    }
    assert!(
        started >= 20,
        "the tree started on only {started} instances"
    );
}

/// A node limit of one: the answer is the incumbent with a bound no higher, `optimal` only
/// when they meet, and `verify` accepts it; on some instance the limit must bite.
#[test]
fn a_node_limit_reports_incumbent_bound_and_gap() {
    let mut bitten = 0;
    for seed in 0..120u64 {
        let inst = random_instance(9_000 + seed, 3..=6, 1..=3);
        let mut settings = Settings {
            bp: BranchSettings::branching_only(),
            ..Settings::default()
        };
        settings.bp.tree.node_limit = 1;
        let sol = solve(&inst, Method::Bp, &settings).unwrap();
        let v = verify(&inst, &sol);
        assert!(v.is_empty(), "seed {seed}: {v:?}");
        let machines = sol.machines().unwrap();
        let opt = brute_force(&inst);
        assert!(machines >= opt && sol.lower_bound() <= opt, "seed {seed}");
        assert_eq!(
            sol.status == Status::Optimal,
            machines == sol.lower_bound(),
            "seed {seed}"
        );
        if machines > sol.lower_bound() {
            bitten += 1;
            assert!(sol.gap.unwrap() > 0.0, "seed {seed}: no gap reported");
        }
    }
    assert!(bitten > 0, "the node limit never left a gap");
}

/// Small tasks (§5.3's Small/Small and Small/Large at 40 jobs): `bp`'s aligned fill meets
/// the peak bound before any column generation, the answer verifies, and its bound is the
/// closed form `verify` re-derives; with the fill off the same instance goes through the root.
#[test]
fn the_aligned_fill_meets_the_peak_bound_on_small_tasks() {
    use vcalloc::periodic::peak::total_demand_bound;
    use vcalloc::periodic::{generate, Amplitude, TaskSize};
    let mut filled = 0;
    for (amplitude, seed) in [
        (Amplitude::Small, 1),
        (Amplitude::Large, 2),
        (Amplitude::Small, 3),
    ] {
        let inst = generate(TaskSize::Small, amplitude, 40, seed).unwrap();
        let sol = solve(&inst, Method::Bp, &Settings::default()).unwrap();
        assert!(verify(&inst, &sol).is_empty(), "seed {seed}");
        let lb = total_demand_bound(&inst);
        assert!(sol.machines().unwrap() >= lb && sol.lower_bound() >= lb);
        if sol.lp_bound.is_none() {
            // Returned by the fill: optimal at the peak bound, nothing else ran.
            assert_eq!(sol.status, Status::Optimal, "seed {seed}");
            assert_eq!(sol.machines(), Some(lb), "seed {seed}");
            assert!(sol.stats["aligned_fill_attempts"] >= 1.0);
            filled += 1;
        }
        let mut off = Settings::default();
        off.bp.aligned_fill.enabled = false;
        let root = solve(&inst, Method::Bp, &off).unwrap();
        assert!(root.lp_bound.is_some(), "seed {seed}: the root ran");
        assert!(root.machines().unwrap() >= sol.lower_bound(), "seed {seed}");
    }
    assert!(filled >= 2, "the fill met the bound on only {filled} of 3");
}

/// On two threads (the exact pricing in parallel batches) `bp` gives the answer it gives on
/// one run after another, bit for bit, and every answer verifies with a bound no higher than
/// the one-thread run's packing, whose bound is no higher than the two-thread packing.
#[test]
fn two_threads_answer_the_same_every_time_and_verify() {
    use vcalloc::periodic::{generate, Amplitude, TaskSize};
    for (tasks, amplitude, seed) in [
        (TaskSize::Large, Amplitude::Large, 1),
        (TaskSize::Medium, Amplitude::Small, 2),
    ] {
        let inst = generate(tasks, amplitude, 30, seed).unwrap();
        let mut two = Settings::default();
        two.pricing.threads = 2;
        let a = solve(&inst, Method::Bp, &two).unwrap();
        let b = solve(&inst, Method::Bp, &two).unwrap();
        let one = solve(&inst, Method::Bp, &Settings::default()).unwrap();
        for sol in [&a, &b, &one] {
            assert!(verify(&inst, sol).is_empty(), "seed {seed}");
        }
        assert_eq!(a.machines(), b.machines(), "seed {seed}");
        assert_eq!(a.lower_bound(), b.lower_bound(), "seed {seed}");
        assert_eq!(a.lp_bound, b.lp_bound, "seed {seed}");
        assert!(a.lower_bound() <= one.machines().unwrap(), "seed {seed}");
        assert!(one.lower_bound() <= a.machines().unwrap(), "seed {seed}");
    }
}
