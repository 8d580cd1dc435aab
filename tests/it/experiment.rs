//! The experiment runner: a tiny sweep end to end, resuming an interrupted CSV, and sharded
//! runs merged equal to one unsharded run.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use vcalloc::experiment::{self, read_rows, results_path, Row, RunOptions};

fn opts(set: &str, out: &Path, methods: &[&str]) -> RunOptions {
    RunOptions {
        set: set.to_string(),
        out: out.to_path_buf(),
        per_spec: Some(1),
        methods: methods.iter().map(|m| m.to_string()).collect(),
        time_limit: Some(5.0),
        threads: 2,
        shard: None,
        seed: 7,
        save_instances: false,
        settings: None,
    }
}

/// Rows without the timing columns, sorted: what must not depend on how the sweep ran.
fn canonical(dir: &Path) -> Vec<Row> {
    let mut rows = read_rows(&results_path(dir)).unwrap();
    for r in &mut rows {
        r.seconds = 0.0;
        r.fields.remove("verify_seconds");
    }
    rows.sort_by_key(Row::key);
    rows
}

#[test]
fn tiny_sweeps_end_to_end() {
    let d = tempfile::tempdir().unwrap();
    let s = experiment::run(&opts(
        "vcsched-small",
        d.path(),
        &["gr", "mcb8", "lp-bound"],
    ))
    .unwrap();
    assert_eq!((s.written, s.skipped, s.errors), (144 * 3, 0, 0));
    let rows = read_rows(&results_path(d.path())).unwrap();
    let keys: HashSet<_> = rows.iter().map(Row::key).collect();
    assert_eq!(keys.len(), rows.len(), "one row per (instance, method)");
    // Heuristics never above the bound, as everywhere else.
    for r in &rows {
        if let (Some(y), Some(b)) = (r.objective, r.bound) {
            assert!(y <= b + 1e-9, "{r:?}");
        }
    }
    let (report, plots) = experiment::render(&rows);
    assert!(plots.iter().any(|p| p.name() == "min-yield-vs-slack"));
    assert!(report.contains("Mean minimum yield versus slack") && report.contains("| mcb8 |"));

    let p = tempfile::tempdir().unwrap();
    let mut o = opts("periodic-synthetic", p.path(), &["bfd", "lower-bound"]);
    o.save_instances = true;
    let s = experiment::run(&o).unwrap();
    assert_eq!((s.written, s.errors), (12, 0));
    assert_eq!(
        std::fs::read_dir(p.path().join("instances"))
            .unwrap()
            .count(),
        6
    );
    let (report, plots) = experiment::render(&read_rows(&results_path(p.path())).unwrap());
    assert!(plots.iter().any(|p| p.name() == "machines-over-bound"));
    assert!(report.contains("Machines / lower bound"));
}

#[test]
fn an_interrupted_run_resumes_to_the_same_result() {
    let full = tempfile::tempdir().unwrap();
    experiment::run(&opts("vcsched-small", full.path(), &["gr", "sg"])).unwrap();

    let cut = tempfile::tempdir().unwrap();
    experiment::run(&opts("vcsched-small", cut.path(), &["gr", "sg"])).unwrap();
    // Simulate a kill: keep the first 100 rows and a torn half line.
    let text = std::fs::read_to_string(results_path(cut.path())).unwrap();
    let mut kept: Vec<&str> = text.lines().take(101).collect();
    let torn = &text.lines().nth(101).unwrap()[..20];
    kept.push(torn);
    std::fs::write(results_path(cut.path()), kept.join("\n")).unwrap();

    let s = experiment::run(&opts("vcsched-small", cut.path(), &["gr", "sg"])).unwrap();
    assert_eq!(s.skipped, 100);
    assert_eq!(s.written, 288 - 100);
    assert_eq!(canonical(cut.path()), canonical(full.path()));
}

#[test]
fn sharded_runs_merge_to_the_unsharded_result() {
    let whole = tempfile::tempdir().unwrap();
    experiment::run(&opts("vcsched-small", whole.path(), &["mcb8", "rrnz"])).unwrap();
    let shards: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (k, dir) in shards.iter().enumerate() {
        let mut o = opts("vcsched-small", dir.path(), &["mcb8", "rrnz"]);
        o.shard = Some((k + 1, 3));
        experiment::run(&o).unwrap();
    }
    let merged = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = shards.iter().map(|d| d.path().to_path_buf()).collect();
    let n = experiment::merge(&dirs, merged.path()).unwrap();
    assert_eq!(n, 288);
    assert_eq!(canonical(merged.path()), canonical(whole.path()));
}

#[test]
fn the_cli_runs_a_shard_and_rejects_bad_arguments() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().to_str().unwrap();
    let o = common::vcalloc(&[
        "experiment",
        "vcsched-small",
        "--out",
        out,
        "--instances-per-spec",
        "1",
        "--methods",
        "gr",
        "--shard",
        "2/4",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read_rows(&results_path(d.path())).unwrap().len(), 36);
    assert!(d.path().join("report.md").exists());
    common::expect_input_error(
        &[
            "experiment",
            "vcsched-small",
            "--out",
            out,
            "--methods",
            "bogus",
        ],
        &["--methods", "bogus"],
    );
    common::expect_input_error(
        &[
            "experiment",
            "vcsched-small",
            "--out",
            out,
            "--shard",
            "5/4",
        ],
        &["--shard", "5/4"],
    );
}

#[test]
fn parallel_and_adaptation_sweeps_end_to_end() {
    let d = tempfile::tempdir().unwrap();
    let mut o = opts("vcsched-parallel", d.path(), &["sg", "mcb8"]);
    o.shard = Some((1, 9));
    let s = experiment::run(&o).unwrap();
    assert_eq!((s.written, s.errors), (12 * 2, 0));
    let rows = read_rows(&results_path(d.path())).unwrap();
    for r in &rows {
        assert!(r.instance.contains("-t"), "counts tasks: {}", r.instance);
        if let (Some(y), Some(b)) = (r.objective, r.bound) {
            assert!(y <= b + 1e-9, "{r:?}");
        }
    }
    let (_, plots) = experiment::render(&rows);
    assert!(plots.iter().any(|p| p.name() == "time-vs-jobs"));

    let a = tempfile::tempdir().unwrap();
    let mut o = opts("vcsched-adapt", a.path(), &["milp", "adapt"]);
    o.shard = Some((1, 8));
    let s = experiment::run(&o).unwrap();
    assert_eq!((s.written, s.errors), (7 * 2, 0));
    let rows = read_rows(&results_path(a.path())).unwrap();
    for r in rows.iter().filter(|r| r.method == "adapt") {
        let milp = rows
            .iter()
            .find(|m| m.method == "milp" && m.instance == r.instance)
            .unwrap();
        if let Some(y) = r.objective {
            assert!(y <= milp.objective.unwrap() + 1e-9, "{r:?}");
        }
        assert!(r.num("budget").is_some());
    }
    let (report, plots) = experiment::render(&rows);
    assert!(report.contains("Adaptation: minimum yield versus migration budget"));
    assert!(plots.iter().any(|p| p.name() == "min-yield-vs-budget"));
}
