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
