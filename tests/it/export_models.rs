//! `export-lp` for every family with a compact model: HiGHS, reading the LP and MPS files on
//! its own (`solver::solve_file`: no part of our model building in between), finds the value
//! `solve` reports on small instances.

use crate::common;

use common::{vcalloc, vcalloc_ok};
use serde_json::Value;
use std::path::Path;
use vcalloc::solver::solve_file;

/// `solve PROBLEM FILE --method M` through the binary: the certificate's objective and bound.
fn solved(problem: &str, file: &str, method: &str) -> (f64, f64) {
    let out = vcalloc(&[
        "solve", problem, file, "--method", method, "-q", "--output", "-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sol: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &sol["certificate"];
    (
        c["objective"].as_f64().unwrap(),
        c["bound"].as_f64().unwrap(),
    )
}

/// The optimum HiGHS finds in the exported file, for each format; both formats agree.
fn exported(problem: &str, file: &str, dir: &Path, extra: &[&str]) -> f64 {
    let mut values = Vec::new();
    for format in ["lp", "mps"] {
        let path = dir.join(format!("{problem}.{format}"));
        let mut args = vec![
            "export-lp",
            problem,
            file,
            "--format",
            format,
            "--output",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        vcalloc_ok(&args);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(if format == "lp" { "\\ " } else { "* " }));
        let value = solve_file(&path).unwrap();
        values.push(value.unwrap_or_else(|| panic!("{problem} {format}: no optimum")));
    }
    assert!(
        (values[0] - values[1]).abs() <= 1e-6 * values[0].abs().max(1.0),
        "{problem}: LP {} vs MPS {}",
        values[0],
        values[1]
    );
    values[0]
}

/// `generate PROBLEM ARGS --seed SEED` into `dir`: the file's path.
fn generated(dir: &Path, problem: &str, seed: u64, args: &[&str]) -> String {
    let f = dir.join(format!("{problem}-{seed}.json"));
    let f = f.to_str().unwrap().to_string();
    let seed = seed.to_string();
    let mut all = vec!["generate", problem, "--seed", &seed, "--output", &f];
    all.extend_from_slice(args);
    vcalloc_ok(&all);
    f
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn evolving_time_indexed_milp_has_the_exact_makespan() {
    let d = tempfile::tempdir().unwrap();
    let mut files = vec!["data/examples/evolving.json".to_string()];
    let args = [
        "--apps",
        "3..4",
        "--steps",
        "1..3",
        "--duration",
        "1..4",
        "--step-nodes",
        "1..5",
        "--nodes",
        "8",
    ];
    files.extend((1..4).map(|seed| generated(d.path(), "evolving", seed, &args)));
    for f in &files {
        // Durations of 1–4 s: the grid is 1 s unless they share a factor, so compare in slots.
        let text = std::fs::read_to_string(f).unwrap();
        let inst: Value = serde_json::from_str(&text).unwrap();
        let grid = inst["apps"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|a| a["steps"].as_array().unwrap().iter())
            .map(|s| s[0].as_i64().unwrap())
            .fold(0, gcd);
        let (makespan, _) = solved("evolving", f, "exact");
        let lp = exported("evolving", f, d.path(), &[]);
        assert!(
            close(makespan, lp * grid as f64, 1e-9),
            "{f}: {makespan} vs {lp} slots of {grid}"
        );
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn binpacking_assignment_milp_has_the_branch_and_price_optimum() {
    let d = tempfile::tempdir().unwrap();
    let mut files = vec!["data/examples/vbp.json".to_string()];
    for (seed, dims) in [(1, "1"), (2, "1"), (3, "2")] {
        let args = ["--items", "14", "--dims", dims];
        files.push(generated(d.path(), "binpacking", seed, &args));
    }
    for f in &files {
        let (bins, _) = solved("binpacking", f, "bp");
        let lp = exported("binpacking", f, d.path(), &[]);
        assert_eq!(bins, lp.round(), "{f}: {bins} vs {lp}");
    }
}

#[test]
fn rebalance_milp_has_the_exact_optimum() {
    let d = tempfile::tempdir().unwrap();
    // Three generated instances of 2–3 nodes: HiGHS's default branch-and-cut on the exported
    // MILP of the 4-node example took 4 s per format (of this test's 5).
    let args = ["--nodes-min", "2", "--nodes-max", "3", "--migrations", "2"];
    let files: Vec<String> = (1..4)
        .map(|seed| generated(d.path(), "rebalance", seed, &args))
        .collect();
    for f in &files {
        let (error, bound) = solved("rebalance", f, "exact");
        assert!(
            close(error, bound, 1e-6),
            "{f}: exact not proven: {error} vs {bound}"
        );
        let lp = exported("rebalance", f, d.path(), &[]);
        // HiGHS's default feasibility tolerance (1e-6 on the error windows) moves δ a little.
        assert!(close(error, lp, 1e-4), "{f}: {error} vs {lp}");
    }
}

#[test]
fn pcec_fluid_lp_is_the_reported_bound() {
    let d = tempfile::tempdir().unwrap();
    let mut files = vec!["data/examples/pcec.json".to_string()];
    files.extend((2..5).map(|seed| generated(d.path(), "pcec", seed, &["--jobs", "12"])));
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let jobs = serde_json::from_str::<Value>(&text).unwrap()["jobs"]
            .as_array()
            .unwrap()
            .len();
        let out = vcalloc_ok(&["simulate", "pcec", f, "--policy", "pc", "--fluid-bound"]);
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find_map(|l| l.split_once("fluid LP lower bound on the mean XF of any schedule: "))
            .unwrap_or_else(|| panic!("{text}"))
            .1;
        let bound: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
        let trivial: f64 = line
            .split_once("(trivial ")
            .unwrap()
            .1
            .split(';')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let lp = exported("pcec", f, d.path(), &[]) / jobs as f64;
        // One window: the bound is the LP's value (printed to 4 decimals), or the trivial bound
        // when that is higher.
        let expected = lp.max(trivial);
        assert!(
            (expected - bound).abs() <= 1e-4,
            "{f}: LP {lp}, trivial {trivial}, bound {bound}"
        );
    }
}

#[test]
fn vcsched_mps_agrees_with_its_lp() {
    let d = tempfile::tempdir().unwrap();
    let (min_yield, _) = solved("vcsched", "data/vcsched-demo.json", "milp");
    let lp = exported("vcsched", "data/vcsched-demo.json", d.path(), &[]);
    assert!(close(min_yield, lp, 1e-6), "{min_yield} vs {lp}");
}

/// The output's extension chooses MPS when `--format` is absent; a wrong `--format` is an
/// argument error (exit 2), and a family with no compact model says so.
#[test]
fn format_by_extension_and_errors() {
    let d = tempfile::tempdir().unwrap();
    let mps = d.path().join("m.mps");
    vcalloc_ok(&[
        "export-lp",
        "binpacking",
        "data/examples/vbp.json",
        "--output",
        mps.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&mps).unwrap().contains("\nROWS\n"));
    let bad = vcalloc(&[
        "export-lp",
        "binpacking",
        "data/examples/vbp.json",
        "--format",
        "xml",
        "--output",
        "-",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The conic families write LP with quadratic rows that the reader takes back, and refuse MPS.
#[test]
fn conic_exports_read_back_and_refuse_mps() {
    for (problem, file, cones) in [
        ("periodic", "data/examples/periodic.json", "amplitude_0: ["),
        ("socbp", "data/examples/socbp.json", "root_0: ["),
    ] {
        let out = vcalloc_ok(&["export-lp", problem, file, "--output", "-"]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(cones), "{text}");
        let model = vcalloc::solver::read_lp(&text).unwrap();
        assert!(!model.quadratic.is_empty() && model.linear.is_mip());
        let mps = vcalloc(&[
            "export-lp",
            problem,
            file,
            "--format",
            "mps",
            "--output",
            "-",
        ]);
        assert_eq!(mps.status.code(), Some(2), "{problem}");
    }
}

/// The model-size guard: a compact model above `highs.max_model_mb` (read from `--settings`)
/// or above the HiGHS default of bin packing (a 20,000-item instance: about 8,000 bins, 3 × 10⁸
/// nonzeros) is not built, exit 2 with its size and the limit, and no file is written.
#[test]
fn a_compact_model_above_the_size_limit_is_not_exported() {
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("small.toml");
    std::fs::write(&settings, "[highs]\nmax_model_mb = 0.01\n").unwrap();
    let big = generated(d.path(), "binpacking", 1, &["--items", "20000"]);
    for (problem, file, extra) in [
        (
            "periodic",
            "data/examples/periodic.json",
            vec!["--settings", settings.to_str().unwrap()],
        ),
        ("binpacking", big.as_str(), vec![]),
    ] {
        let lp = d.path().join(format!("{problem}.lp"));
        let mut args = vec!["export-lp", problem, file, "--output", lp.to_str().unwrap()];
        args.extend(extra);
        let out = vcalloc(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{problem}: {err}");
        assert!(err.contains("rows,") && err.contains("nonzeros"), "{err}");
        assert!(err.contains("exceeds max_model_mb"), "{err}");
        assert!(!lp.exists(), "{problem}");
    }
    vcalloc_ok(&[
        "export-lp",
        "periodic",
        "data/examples/periodic.json",
        "--output",
        "-",
    ]);
}
