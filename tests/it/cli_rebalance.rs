//! The rebalance problem (Merkat §3.1) through the command line: every method verified, the
//! brute force optimal and no worse than tabu, tabu no worse than keeping the placement, bad
//! input named.

use crate::common;

use common::{expect_input_error, vcalloc, write};

fn solve(d: &tempfile::TempDir, inst: &str, m: &str) -> serde_json::Value {
    let sol = d.path().join(format!("{m}.json"));
    let out = vcalloc(&[
        "solve",
        "rebalance",
        inst,
        "--method",
        m,
        "--output",
        sol.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = vcalloc(&["verify", inst, sol.to_str().unwrap()]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap()
}

#[test]
fn brute_bounds_tabu_and_tabu_improves_on_keep() {
    let d = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let inst = d.path().join(format!("i{seed}.json"));
        let s = inst.to_str().unwrap();
        let out = vcalloc(&[
            "generate",
            "rebalance",
            "--seed",
            seed,
            "--nodes-min",
            "2",
            "--nodes-max",
            "3",
            "--output",
            s,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let vms =
            serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&inst).unwrap())
                .unwrap()["vms"]
                .as_array()
                .unwrap()
                .len();
        let obj = |v: &serde_json::Value| v["certificate"]["objective"].as_f64().unwrap();
        let keep = obj(&solve(&d, s, "keep"));
        let tabu = obj(&solve(&d, s, "tabu"));
        assert!(
            tabu <= keep + 1e-12,
            "seed {seed}: tabu {tabu} worse than keep {keep}"
        );
        if vms <= 9 {
            let brute = solve(&d, s, "brute");
            assert_eq!(brute["certificate"]["status"], "optimal");
            assert!(obj(&brute) <= tabu + 1e-12, "seed {seed}");
        }
    }
}

#[test]
fn bad_instances_are_named() {
    let d = tempfile::tempdir().unwrap();
    let vm = |node: i64, bid: &str| {
        format!(
            r#"{{"node": {node}, "bid": {{"cpu": {bid}, "mem": 1}}, "cap": {{"cpu": 1, "mem": 900}}}}"#
        )
    };
    let inst = |vms: &str| {
        format!(
            r#"{{"nodes": [{{"cpu": 8, "mem": 8192}}], "vms": [{vms}], "max_vms_per_node": 8, "migrations": 3}}"#
        )
    };
    let p = write(&d, "neg.json", &inst(&vm(0, "-2")));
    expect_input_error(
        &[
            "solve",
            "rebalance",
            p.to_str().unwrap(),
            "--method",
            "tabu",
        ],
        &["neg.json", "vms[0].bid.cpu"],
    );
    let p = write(&d, "node.json", &inst(&vm(3, "2")));
    expect_input_error(
        &[
            "solve",
            "rebalance",
            p.to_str().unwrap(),
            "--method",
            "tabu",
        ],
        &["node.json", "vms[0].node"],
    );
}

/// `experiment market-paper --settings`: the file's simulation settings and figure parameters
/// are the ones run (a small run: two seeds, no sensitivity grid), and a bad key is an input
/// error naming it.
#[test]
fn the_market_study_runs_and_sets_the_paper_beside_ours() {
    let d = tempfile::tempdir().unwrap();
    let set = d.path().join("paper.json");
    std::fs::write(
        &set,
        r#"{"sim": {"suspend": "budget_cut", "start": "slots"},
            "fig6": {"deadlines_min": [150], "iterations": 100},
            "fig7": {"nodes": 4, "condor_jobs": 300, "torque_jobs": 5, "duration_s": 7200},
            "satisfaction": {"seeds": 2, "apps": 10, "tightness_levels": [2.0]},
            "sensitivity": {"seeds": 1, "loads": [2.0], "tightness_levels": [], "node_cores": [4]}}"#,
    )
    .unwrap();
    let args = [
        "experiment",
        "market-paper",
        "--out",
        d.path().to_str().unwrap(),
        "--settings",
        set.to_str().unwrap(),
    ];
    let out = vcalloc(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_to_string(d.path().join("report.md")).unwrap();
    for part in [
        "Fig. 6",
        "Fig. 7",
        "satisfaction",
        "2.79",
        "\"suspend\":\"budget_cut\"",
        "suspend rule `BudgetCut`, start rule `Slots`",
        "Table 1: 2 VMs, 4-core node | 150 |",
        "2 seeds",
        "Sensitivity",
    ] {
        assert!(report.contains(part), "{part} missing:\n{report}");
    }
    std::fs::write(&set, r#"{"sim": {"resume_fraction": 2}}"#).unwrap();
    common::expect_input_error(&args, &["resume_fraction"]);
}

/// The memory bound of a model build: a MILP estimated above `max_model_mb`, or too large to
/// build in half the time left, is not built; `milp` answers with its tabu start, labelled
/// `model_not_built`, scored against the untouched bound, and the answer verifies.
#[test]
fn a_model_too_large_is_not_built_and_says_so() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("rb.json");
    let inst = inst.to_str().unwrap();
    common::vcalloc_ok(&[
        "generate",
        "rebalance",
        "--seed",
        "3",
        "--nodes-min",
        "3",
        "--nodes-max",
        "3",
        "--output",
        inst,
    ]);
    let small = write(&d, "small.toml", "[highs]\nmax_model_mb = 0.001\n");
    let slow = write(&d, "slow.toml", "[highs]\nbuild_nonzeros_per_second = 10\n");
    for (settings, limit, refused) in [
        (&small, None, true),
        (&slow, Some("5"), true),
        (&slow, None, false),
    ] {
        let sol = d.path().join("sol.json");
        let mut args = vec![
            "solve",
            "rebalance",
            inst,
            "--method",
            "milp",
            "--settings",
            settings.to_str().unwrap(),
            "--output",
            sol.to_str().unwrap(),
        ];
        if let Some(s) = limit {
            args.extend(["--time-limit", s]);
        }
        let out = common::vcalloc_ok(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        let c = &v["certificate"];
        assert_eq!(
            c["stats"]["model_not_built"],
            f64::from(u8::from(refused)),
            "{c}"
        );
        assert_eq!(err.contains("not built"), refused, "{err}");
        assert!(c["bound"].is_number() && c["objective"].is_number(), "{c}");
        common::vcalloc_ok(&["verify", inst, sol.to_str().unwrap()]);
    }
    let bad = write(&d, "bad.toml", "[highs]\nmax_model_mb = -1\n");
    let out = vcalloc(&[
        "solve",
        "rebalance",
        inst,
        "--method",
        "milp",
        "--settings",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_model_mb"));
}
