//! The periodic commands through the real binary: solve → verify for every method, and bad
//! input (one test per case: exit code 2, the file, the field or line, the value, the reason).

use crate::common;

use common::{expect_input_error, vcalloc, write};
use std::path::Path;

fn rejects(file: &Path, extra: &[&str], fragments: &[&str]) {
    let mut args = vec![
        "solve",
        "periodic",
        file.to_str().unwrap(),
        "--method",
        "bfd",
    ];
    args.extend_from_slice(extra);
    expect_input_error(&args, fragments);
}

fn job(mean: &str, amplitude: &str, tasks: &str) -> String {
    format!(
        r#"{{"capacity": 20, "jobs": [{{"mean": 4, "amplitude": 1, "phase": 0, "tasks": 3}}, {{"mean": {mean}, "amplitude": {amplitude}, "phase": 1.5, "tasks": {tasks}}}]}}"#
    )
}

#[test]
fn every_method_solves_and_verifies() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("p.json");
    let inst_s = inst.to_str().unwrap();
    let out = vcalloc(&[
        "generate",
        "periodic",
        "--tasks",
        "large",
        "--amplitude",
        "small",
        "--jobs",
        "8",
        "--seed",
        "4",
        "--output",
        inst_s,
    ]);
    assert!(out.status.success());
    for m in ["bp", "cg", "bfd", "mm", "mmm", "lower-bound"] {
        let sol = d.path().join(format!("{m}.json"));
        let out = vcalloc(&[
            "solve",
            "periodic",
            inst_s,
            "--method",
            m,
            "--time-limit",
            "30",
            "--output",
            sol.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{m}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = vcalloc(&["verify", inst_s, sol.to_str().unwrap()]);
        assert!(
            v.status.success(),
            "{m}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
    }
    // BPPLIB input, format guessed and given.
    for fmt in [None, Some("bpplib")] {
        let mut args = vec![
            "solve",
            "periodic",
            "data/bpplib/Falkenauer_u120_00.txt",
            "--method",
            "bfd",
        ];
        if let Some(f) = fmt {
            args.extend(["--format", f]);
        }
        assert!(vcalloc(&args).status.success());
    }
}

#[test]
fn verify_rejects_a_broken_periodic_solution() {
    let d = tempfile::tempdir().unwrap();
    let out = vcalloc(&[
        "solve",
        "periodic",
        "data/bpplib/Falkenauer_u120_00.txt",
        "--method",
        "bfd",
    ]);
    let mut sol: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Drop one configuration: tasks are no longer all placed and the count is wrong.
    sol["configurations"].as_array_mut().unwrap().pop();
    let p = write(&d, "broken.json", &sol.to_string());
    let v = vcalloc(&[
        "verify",
        "data/bpplib/Falkenauer_u120_00.txt",
        p.to_str().unwrap(),
    ]);
    assert_eq!(v.status.code(), Some(1));
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(
        text.contains("violated tasks-placed") && text.contains("violated machines"),
        "{text}"
    );
}

#[test]
fn malformed_json() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", r#"{"capacity": 20, "jobs": ["#),
        &[],
        &["p.json", "malformed JSON"],
    );
}

#[test]
fn non_finite_numbers() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", &job("NaN", "0", "1")),
        &[],
        &["p.json", "jobs[1].mean", "malformed JSON"],
    );
    rejects(
        &write(&d, "p.txt", "2\n150\nnan\n20\n"),
        &[],
        &["p.txt", "line 3", "weight", "`nan`"],
    );
    rejects(
        &write(&d, "q.txt", "2\n150\ninf\n20\n"),
        &[],
        &["q.txt", "line 3", "`inf`"],
    );
}

#[test]
fn mean_not_positive() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", &job("0", "0", "1")),
        &[],
        &["p.json", "jobs[1].mean", "`0`", "> 0"],
    );
    rejects(
        &write(&d, "q.json", &job("-2", "0", "1")),
        &[],
        &["jobs[1].mean", "`-2`"],
    );
}

#[test]
fn amplitude_out_of_range() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", &job("3", "4", "1")),
        &[],
        &["jobs[1].amplitude", "`4`", "between 0 and the job's mean"],
    );
    rejects(
        &write(&d, "q.json", &job("3", "-0.5", "1")),
        &[],
        &["jobs[1].amplitude", "`-0.5`"],
    );
}

#[test]
fn tasks_not_a_positive_integer() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", &job("3", "1", "0")),
        &[],
        &["jobs[1].tasks", "`0`", "integer >= 1"],
    );
    rejects(
        &write(&d, "q.json", &job("3", "1", "2.5")),
        &[],
        &["jobs[1].tasks", "2.5"],
    );
    rejects(
        &write(&d, "r.json", &job("3", "1", "-1")),
        &[],
        &["jobs[1].tasks", "-1"],
    );
}

#[test]
fn task_larger_than_a_machine() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.json", &job("15", "6", "1")),
        &[],
        &[
            "p.json",
            "field `jobs[1]`",
            "mean 15 + amplitude 6",
            "no machine can hold one task of job 1",
        ],
    );
    rejects(
        &write(&d, "p.txt", "2\n150\n151\n20\n"),
        &[],
        &["p.txt", "line 3", "`151`", "the capacity 150"],
    );
}

#[test]
fn bad_capacity_and_empty_jobs() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(
            &d,
            "p.json",
            r#"{"capacity": 0, "jobs": [{"mean": 1, "amplitude": 0, "phase": 0, "tasks": 1}]}"#,
        ),
        &[],
        &["field `capacity`", "`0`"],
    );
    rejects(
        &write(&d, "q.json", r#"{"capacity": 20, "jobs": []}"#),
        &[],
        &["field `jobs`", "at least one job"],
    );
}

#[test]
fn unknown_fields() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(
            &d,
            "p.json",
            r#"{"capacity": 20, "racks": 2, "jobs": [{"mean": 1, "amplitude": 0, "phase": 0, "tasks": 1}]}"#,
        ),
        &[],
        &["unknown field `racks`"],
    );
    rejects(
        &write(
            &d,
            "q.json",
            r#"{"capacity": 20, "jobs": [{"mean": 1, "amplitude": 0, "phase": 0, "tasks": 1, "period": 24}]}"#,
        ),
        &[],
        &["jobs[0]", "unknown field `period`"],
    );
}

#[test]
fn malformed_bpplib() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &write(&d, "p.txt", "3\n150\n20\n30\n"),
        &[],
        &["p.txt", "ends before the weight"],
    );
    rejects(
        &write(&d, "q.txt", "2\n150\n20\nabc\n"),
        &[],
        &["q.txt", "line 4", "`abc`", "not a whole number"],
    );
    rejects(
        &write(&d, "r.txt", "1\n150\n20\n30\n"),
        &[],
        &["r.txt", "line 4", "more lines than the 1 items"],
    );
    rejects(
        &write(&d, "s.txt", "2.5\n150\n20\n30\n"),
        &[],
        &["s.txt", "line 1", "whole number"],
    );
    rejects(
        &write(&d, "t.txt", "2\r\n150\r\n20\r\nx\r\n"),
        &[],
        &["t.txt", "line 4", "`x`"],
    );
}

#[test]
fn unknown_method_and_format() {
    let out = vcalloc(&[
        "solve",
        "periodic",
        "data/bpplib/Falkenauer_u120_00.txt",
        "--method",
        "ffd",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown method `ffd`"));
    let out = vcalloc(&[
        "solve",
        "periodic",
        "data/bpplib/Falkenauer_u120_00.txt",
        "--method",
        "bfd",
        "--format",
        "csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--format") && err.contains("csv"), "{err}");
}

#[test]
fn unreadable_file() {
    let d = tempfile::tempdir().unwrap();
    rejects(
        &d.path().join("none.json"),
        &[],
        &["none.json", "cannot read"],
    );
}

#[test]
fn bad_arguments() {
    let f = Path::new("data/bpplib/Falkenauer_u120_00.txt");
    rejects(f, &["--smoothing", "1.5"], &["--smoothing", "[0, 1)"]);
    rejects(f, &["--time-limit=-3"], &["--time-limit", "positive"]);
    let out = vcalloc(&[
        "generate",
        "periodic",
        "--tasks",
        "huge",
        "--amplitude",
        "small",
        "--seed",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// The guide's settings example, written out by the library itself, is accepted and solves;
/// bad settings files are rejected with file, field, value and reason.
#[test]
fn settings_files() {
    let d = tempfile::tempdir().unwrap();
    let f = Path::new("data/bpplib/Falkenauer_u120_00.txt");
    let all = serde_json::to_string(&vcalloc::periodic::Settings::default()).unwrap();
    let good = write(&d, "all.json", &all);
    let out_file = d.path().join("cg.json");
    let out = vcalloc(&[
        "solve",
        "periodic",
        f.to_str().unwrap(),
        "--method",
        "cg",
        "--settings",
        good.to_str().unwrap(),
        "--output",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = vcalloc(&["verify", f.to_str().unwrap(), out_file.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0));
    let cases: [(&str, &[&str]); 6] = [
        (
            r#"{"cg": {"smoothing": 1.5}}"#,
            &["field `cg.smoothing`", "1.5", "[0, 1)"],
        ),
        (
            r#"{"cg": {"smothing": 0.5}}"#,
            &["cg.smothing", "unknown field"],
        ),
        (
            r#"{"integer_time_limit": -1}"#,
            &["integer_time_limit", "-1", "positive"],
        ),
        (
            r#"{"pricing": {"node_bound": "tight"}}"#,
            &["pricing.node_bound", "unknown variant"],
        ),
        (
            r#"{"cg": {"max_columns_per_iteration": 0}}"#,
            &["max_columns_per_iteration", "at least 1"],
        ),
        ("", &["empty"]),
    ];
    for (k, (text, fragments)) in cases.iter().enumerate() {
        let p = write(&d, &format!("bad{k}.json"), text);
        let mut want = vec![format!("bad{k}.json")];
        want.extend(fragments.iter().map(|s| s.to_string()));
        let want: Vec<&str> = want.iter().map(String::as_str).collect();
        rejects(f, &["--settings", p.to_str().unwrap()], &want);
    }
    // An option overrides the file and is named when it is the bad value.
    rejects(
        f,
        &[
            "--settings",
            good.to_str().unwrap(),
            "--integer-time-limit",
            "0",
        ],
        &["--integer-time-limit", "positive"],
    );
}
