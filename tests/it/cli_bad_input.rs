//! Bad input gets a clear error naming the file, the field or line, the value and the reason,
//! with exit code 2 — never a panic. One test per case, through the real binary.

use crate::common;

use common::{expect_input_error, vcalloc, write};
use std::path::{Path, PathBuf};

/// Runs `solve vcsched FILE --method mcb8 [extra]` and checks exit code 2 and that stderr
/// mentions every fragment.
fn rejects(file: &Path, extra: &[&str], fragments: &[&str]) {
    let f = file.to_str().unwrap();
    let mut args = vec!["solve", "vcsched", f, "--method", "mcb8"];
    args.extend_from_slice(extra);
    expect_input_error(&args, fragments);
}

fn json(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    write(dir, "inst.json", text)
}

#[test]
fn malformed_json() {
    let d = tempfile::tempdir().unwrap();
    let p = json(&d, r#"{"hosts": 4, "jobs": [{"cpu": 0.5, "mem": 0.5}"#);
    rejects(&p, &[], &["inst.json", "malformed JSON", "EOF"]);
}

#[test]
fn malformed_csv() {
    let d = tempfile::tempdir().unwrap();
    let p = write(&d, "inst.csv", "cpu,mem\n0.5,0.2\n0.3\n");
    rejects(
        &p,
        &["--hosts", "2"],
        &["inst.csv", "line 3", "`0.3`", "2 or 3"],
    );
    let p = write(&d, "bad.csv", "cpu,mem\n0.5,abc\n");
    rejects(
        &p,
        &["--hosts", "2"],
        &["bad.csv", "line 2, column `mem`", "`abc`", "not a number"],
    );
    let p = write(&d, "head.csv", "cpu,memory\n0.5,0.2\n");
    rejects(&p, &["--hosts", "2"], &["head.csv", "line 1", "header"]);
}

#[test]
fn nan_values() {
    let d = tempfile::tempdir().unwrap();
    let p = write(&d, "inst.csv", "0.5,0.2\nNaN,0.3\n");
    rejects(
        &p,
        &["--hosts", "2"],
        &["inst.csv", "line 2, column `cpu`", "NaN"],
    );
    // JSON has no NaN literal: it is a syntax error at the field.
    let p = json(&d, r#"{"hosts": 2, "jobs": [{"cpu": NaN, "mem": 0.5}]}"#);
    rejects(&p, &[], &["inst.json", "jobs[0].cpu", "malformed JSON"]);
}

#[test]
fn infinite_values() {
    let d = tempfile::tempdir().unwrap();
    let p = write(&d, "inst.csv", "0.5,inf\n");
    rejects(
        &p,
        &["--hosts", "2"],
        &["inst.csv", "line 1, column `mem`", "`inf`", "finite"],
    );
    let p = json(&d, r#"{"hosts": 2, "jobs": [{"cpu": 1e999, "mem": 0.5}]}"#);
    rejects(&p, &[], &["inst.json", "jobs[0].cpu", "out of range"]);
}

#[test]
fn values_not_above_zero() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.5}, {"cpu": 0, "mem": 0.5}]}"#,
    );
    rejects(
        &p,
        &[],
        &["inst.json", "jobs[1].cpu", "`0`", "greater than 0"],
    );
    let p = json(&d, r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": -0.25}]}"#);
    rejects(&p, &[], &["jobs[0].mem", "`-0.25`", "greater than 0"]);
}

#[test]
fn values_above_one() {
    let d = tempfile::tempdir().unwrap();
    let p = json(&d, r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 1.5}]}"#);
    rejects(&p, &[], &["inst.json", "jobs[0].mem", "`1.5`", "at most 1"]);
    let p = write(&d, "inst.csv", "cpu,mem\n1.0001,0.5\n");
    rejects(
        &p,
        &["--hosts", "1"],
        &["line 2, column `cpu`", "at most 1"],
    );
}

#[test]
fn zero_hosts() {
    let d = tempfile::tempdir().unwrap();
    let p = json(&d, r#"{"hosts": 0, "jobs": [{"cpu": 0.5, "mem": 0.5}]}"#);
    rejects(
        &p,
        &[],
        &["inst.json", "field `hosts`", "`0`", "between 1 and"],
    );
    let p = write(&d, "inst.csv", "0.5,0.5\n");
    rejects(&p, &["--hosts", "0"], &["inst.csv", "--hosts", "`0`"]);
    let p = json(&d, r#"{"hosts": -3, "jobs": [{"cpu": 0.5, "mem": 0.5}]}"#);
    rejects(&p, &[], &["field `hosts`", "-3"]);
    let p = json(&d, r#"{"hosts": 2.5, "jobs": [{"cpu": 0.5, "mem": 0.5}]}"#);
    rejects(&p, &[], &["field `hosts`", "2.5"]);
}

#[test]
fn no_jobs() {
    let d = tempfile::tempdir().unwrap();
    let p = json(&d, r#"{"hosts": 2, "jobs": []}"#);
    rejects(&p, &[], &["inst.json", "field `jobs`", "at least one job"]);
    let p = write(&d, "inst.csv", "cpu,mem\n# nothing here\n");
    rejects(&p, &["--hosts", "2"], &["inst.csv", "no job"]);
    let p = json(&d, "");
    rejects(&p, &[], &["inst.json", "empty"]);
}

#[test]
fn unknown_fields() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.5}], "racks": 3}"#,
    );
    rejects(&p, &[], &["inst.json", "unknown field `racks`"]);
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.5, "disk": 0.1}]}"#,
    );
    rejects(&p, &[], &["jobs[0]", "unknown field `disk`"]);
    let p = json(&d, r#"{"jobs": [{"cpu": 0.5, "mem": 0.5}]}"#);
    rejects(&p, &[], &["missing field `hosts`"]);
}

#[test]
fn unknown_method() {
    let out = vcalloc(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb9",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("mcb9") && err.contains("unknown method") && err.contains("rrnz"),
        "{err}"
    );
}

#[test]
fn unreadable_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("missing.json");
    rejects(&p, &[], &["missing.json", "cannot read"]);
    // A directory is not a file either.
    rejects(d.path(), &[], &["cannot read"]);
}

#[test]
fn csv_without_hosts() {
    let d = tempfile::tempdir().unwrap();
    let p = write(&d, "inst.csv", "0.5,0.5\n");
    rejects(&p, &[], &["inst.csv", "--hosts"]);
}

#[test]
fn bad_settings() {
    rejects(
        Path::new("data/vcsched-demo.json"),
        &["--time-limit=-1"],
        &["--time-limit", "positive"],
    );
    rejects(
        Path::new("data/vcsched-demo.json"),
        &["--threads", "0"],
        &["--threads"],
    );
}

/// The grid bound's settings out of range (a chord gap of 1e-9 would mean about 45,000
/// pieces per pricing call): exit 2, the key and the value named.
#[test]
fn socbp_grid_settings_out_of_range() {
    let d = tempfile::tempdir().unwrap();
    for (text, fragments) in [
        (
            "[pricing]\ngrid_chord_gap = 1e-9\n",
            ["pricing.grid_chord_gap", "0.000000001"],
        ),
        (
            "[pricing]\ngrid_cells = 9000000\n",
            ["pricing.grid_cells", "9000000"],
        ),
    ] {
        let s = write(&d, "s.toml", text);
        let mut want = vec!["s.toml"];
        want.extend(fragments);
        expect_input_error(
            &[
                "solve",
                "socbp",
                "data/cbp/d_72_100_0.6_a.cbp",
                "--method",
                "bp",
                "--settings",
                s.to_str().unwrap(),
            ],
            &want,
        );
    }
}

#[test]
fn bad_generator_arguments() {
    let base = [
        "generate", "vcsched", "--hosts", "4", "--jobs", "8", "--cv-mem", "0.25", "--cv-cpu",
        "0.25", "--seed", "1",
    ];
    let mut args = base.to_vec();
    args.extend(["--slack", "1.5"]);
    let out = vcalloc(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--slack") && err.contains("1.5") && err.contains("[0, 1)"),
        "{err}"
    );
    let mut args = base.to_vec();
    args.extend(["--slack", "NaN"]);
    assert_eq!(vcalloc(&args).status.code(), Some(2));
    // Every missing option at once, not one per run (enums too).
    expect_input_error(
        &["generate", "vcsched", "--seed", "3"],
        &[
            "--hosts N, --jobs J, --slack S, --cv-mem CV, --cv-cpu CV",
            "5 options are required",
        ],
    );
    expect_input_error(
        &["generate", "periodic", "--seed", "3"],
        &[
            "--tasks large|medium|small, --amplitude large|small",
            "2 options",
        ],
    );
    expect_input_error(
        &[
            "generate", "vcsched", "--seed", "3", "--hosts", "4", "--jobs", "8", "--slack", "0.3",
            "--cv-mem", "0.5",
        ],
        &["--cv-cpu", "missing field `cv_cpu`"],
    );
}

#[test]
fn malformed_solution_file() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        &d,
        "sol.json",
        r#"{"certificate": {"problem": "vcsched", "method": "gr", "status": "great"}}"#,
    );
    let out = vcalloc(&["verify", "data/vcsched-demo.json", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sol.json") && err.contains("status") && err.contains("great"),
        "{err}"
    );
}

#[test]
fn tasks_not_a_positive_integer() {
    let d = tempfile::tempdir().unwrap();
    let job = |tasks: &str| {
        format!(r#"{{"hosts": 2, "jobs": [{{"cpu": 0.5, "mem": 0.2, "tasks": {tasks}}}]}}"#)
    };
    let p = json(&d, &job("0"));
    rejects(
        &p,
        &[],
        &["inst.json", "jobs[0].tasks", "`0`", "between 1 and"],
    );
    let p = json(&d, &job("2.5"));
    rejects(&p, &[], &["inst.json", "jobs[0].tasks", "2.5"]);
    let p = json(&d, &job("-3"));
    rejects(&p, &[], &["inst.json", "jobs[0].tasks", "-3"]);
    let p = json(&d, &job("\"four\""));
    rejects(&p, &[], &["inst.json", "jobs[0].tasks", "four"]);
}

#[test]
fn current_of_the_wrong_length() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2, "tasks": 2}], "current": [0]}"#,
    );
    rejects(
        &p,
        &[],
        &["inst.json", "field `current`", "1 entries", "2 tasks"],
    );
}

#[test]
fn current_naming_a_host_that_does_not_exist() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2, "tasks": 2}], "current": [1, 2]}"#,
    );
    rejects(&p, &[], &["inst.json", "current[1]", "`2`", "no such host"]);
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2}], "current": [-1]}"#,
    );
    rejects(&p, &[], &["inst.json", "current[0]", "-1"]);
}

#[test]
fn negative_or_misplaced_budget() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2}], "current": [null], "budget": -0.5}"#,
    );
    rejects(
        &p,
        &[],
        &["inst.json", "field `budget`", "`-0.5`", "negative"],
    );
    // A budget without current hosts means nothing: rejected rather than ignored.
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2}], "budget": 1}"#,
    );
    rejects(&p, &[], &["inst.json", "field `budget`", "needs `current`"]);
    // The command-line override: negative, NaN, or on an instance with no current hosts.
    let p = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2}], "current": [0]}"#,
    );
    rejects(&p, &["--budget=-1"], &["--budget", "`-1`", "negative"]);
    rejects(&p, &["--budget", "NaN"], &["--budget", "NaN"]);
    let p = json(&d, r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2}]}"#);
    rejects(&p, &["--budget", "1"], &["--budget", "`1`", "current"]);
}

#[test]
fn solution_with_both_or_no_task_hosts() {
    let d = tempfile::tempdir().unwrap();
    let inst = json(
        &d,
        r#"{"hosts": 2, "jobs": [{"cpu": 0.5, "mem": 0.2, "tasks": 2}]}"#,
    );
    let sol = |grant: &str| {
        format!(
            r#"{{"certificate": {{"problem": "vcsched", "method": "gr", "status": "feasible",
                "sense": "maximize", "objective": 1, "bound": 1, "gap": 0, "seconds": 0}},
                "avg_yield": 1, "jobs": [{grant}]}}"#
        )
    };
    for (grant, reason) in [
        (r#"{"host": 1, "hosts": [0, 1], "cpu": 0.5}"#, "not both"),
        (r#"{"hosts": [], "cpu": 0.5}"#, "one host per task"),
        (r#"{"cpu": 0.5}"#, "missing `host`"),
    ] {
        let p = write(&d, "sol.json", &sol(grant));
        expect_input_error(
            &["verify", inst.to_str().unwrap(), p.to_str().unwrap()],
            &["sol.json", "jobs[0]", reason],
        );
    }
}

#[test]
fn huge_time_limits_are_no_limit_and_never_panic() {
    let d = tempfile::tempdir().unwrap();
    // On the command line: beyond the clock (1e19 s, 1e308 s) is no limit.
    for t in ["1e19", "1e308"] {
        common::vcalloc_ok(&[
            "solve",
            "vcsched",
            "data/vcsched-demo.json",
            "--method",
            "milp",
            "--time-limit",
            t,
        ]);
    }
    // A value that overflows to infinity while parsed is not a number of seconds.
    expect_input_error(
        &[
            "solve",
            "vcsched",
            "data/vcsched-demo.json",
            "--method",
            "mcb8",
            "--time-limit",
            "1e400",
        ],
        &["--time-limit", "inf", "positive number of seconds"],
    );
    // Phase limits in settings files, under a finite --time-limit that must still hold.
    let periodic = write(
        &d,
        "p.toml",
        "integer_time_limit = 1e308\n[bp.tree]\ninteger_seconds = 1e19\n",
    );
    let packing = write(
        &d,
        "b.toml",
        "study_seconds = 1e308\n[bp]\ninteger_seconds = 1e308\n[local]\nunlimited_seconds = 1e19\n",
    );
    let rebalance = write(
        &d,
        "r.json",
        r#"{"exact_seconds": 1e300, "milp_seconds": 1e19}"#,
    );
    let rb = d.path().join("rb.json");
    common::small_rebalance_instance(rb.to_str().unwrap());
    let cases: [(&str, &str, &str, &Path); 5] = [
        (
            "periodic",
            "data/bpplib/Falkenauer_t60_00.txt",
            "cg",
            &periodic,
        ),
        (
            "periodic",
            "data/bpplib/Falkenauer_t60_00.txt",
            "bp",
            &periodic,
        ),
        (
            "binpacking",
            "data/bpplib/Falkenauer_t60_00.txt",
            "bp",
            &packing,
        ),
        ("rebalance", rb.to_str().unwrap(), "exact", &rebalance),
        ("rebalance", rb.to_str().unwrap(), "milp", &rebalance),
    ];
    for (problem, file, method, settings) in cases {
        let began = std::time::Instant::now();
        common::vcalloc_ok(&[
            "solve",
            problem,
            file,
            "--method",
            method,
            "--settings",
            settings.to_str().unwrap(),
            "--time-limit",
            "20",
        ]);
        assert!(began.elapsed().as_secs_f64() < 23.0, "{problem} {method}");
    }
}

#[test]
fn data_after_the_json_document_is_rejected() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        "{\"hosts\": 2, \"jobs\": [{\"cpu\": 0.5, \"mem\": 0.5}]}\n{\"hosts\": 3}\n",
    );
    rejects(
        &p,
        &[],
        &[
            "inst.json",
            "data after the end of the JSON document",
            "line 2",
        ],
    );
    let s = write(&d, "s.json", "{\"seed\": 3} trailing");
    rejects(
        Path::new("data/vcsched-demo.json"),
        &["--settings", s.to_str().unwrap()],
        &["s.json", "data after the end"],
    );
    // White space after the document is fine.
    let p = json(
        &d,
        "{\"hosts\": 2, \"jobs\": [{\"cpu\": 0.5, \"mem\": 0.5}]}\n\n  \n",
    );
    common::vcalloc_ok(&["solve", "vcsched", p.to_str().unwrap(), "--method", "mcb8"]);
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let d = tempfile::tempdir().unwrap();
    let p = json(
        &d,
        "\u{feff}{\"hosts\": 2, \"jobs\": [{\"cpu\": 0.5, \"mem\": 0.5}]}",
    );
    common::vcalloc_ok(&["solve", "vcsched", p.to_str().unwrap(), "--method", "mcb8"]);
    let p = write(&d, "inst.csv", "\u{feff}cpu,mem\n0.5,0.2\n0.3,0.4\n");
    common::vcalloc_ok(&[
        "solve",
        "vcsched",
        p.to_str().unwrap(),
        "--hosts",
        "2",
        "--method",
        "mcb8",
    ]);
    let s = write(&d, "s.toml", "\u{feff}seed = 3\n");
    common::vcalloc_ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "rrnd",
        "--settings",
        s.to_str().unwrap(),
    ]);
    // Bytes that are not UTF-8 are named as such, with their offset.
    let bad = d.path().join("latin1.json");
    std::fs::write(
        &bad,
        b"{\"hosts\": 2, \"jobs\": [{\"cpu\": 0.5, \"mem\": 0.5, \"name\": \"caf\xe9\"}]}",
    )
    .unwrap();
    rejects(&bad, &[], &["latin1.json", "not UTF-8", "byte 59"]);
}

#[test]
fn errors_blame_the_value_at_fault() {
    let d = tempfile::tempdir().unwrap();
    // A SOC item too large by its `b` term alone names `b`, not `a`.
    let soc = write(
        &d,
        "soc.json",
        r#"{"capacity": 10, "d": 1, "a": [1, 2], "b": [0.3, 200]}"#,
    );
    expect_input_error(
        &["solve", "socbp", soc.to_str().unwrap(), "--method", "ffd"],
        &["soc.json", "field `b[1]`", "`200`", "capacity 10"],
    );
    // Too many periods names both fields; a 309-digit duration is shown as 1e308.
    let sc = write(
        &d,
        "sc.json",
        r#"{"period_s": 40, "duration_s": 1e308, "nodes": [{"cpu": 8, "mem": 16384}], "apps": []}"#,
    );
    expect_input_error(
        &["simulate", "market", sc.to_str().unwrap()],
        &[
            "sc.json",
            "duration_s / period_s",
            "`1e308 / 40`",
            "1e8 periods",
        ],
    );
    // Too many VMs names the option that makes it so.
    expect_input_error(
        &[
            "solve",
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            "--method",
            "pc",
            "--vms-per-pm",
            "1000000000",
        ],
        &["--vms-per-pm", "`1000000000`", "limit of 10000000 VMs"],
    );
    // Integers stay exact; a 320-digit fraction in a reason is shown as 1e-320.
    let ev = write(
        &d,
        "ev.json",
        r#"{"nodes": 16, "apps": [{"name": "a0", "steps": [[9223372036854775807, 5]]}]}"#,
    );
    expect_input_error(
        &["solve", "evolving", ev.to_str().unwrap(), "--method", "nox"],
        &["apps[0].steps[0][0]", "`9223372036854775807`"],
    );
    let rb = write(
        &d,
        "rb.json",
        r#"{"nodes": [{"cpu": 1e-320, "mem": 8192}], "vms": [{"node": 0, "bid": {"cpu": 1, "mem": 1}, "cap": {"cpu": 1, "mem": 900}}], "max_vms_per_node": 8, "migrations": 3}"#,
    );
    expect_input_error(
        &[
            "solve",
            "rebalance",
            rb.to_str().unwrap(),
            "--method",
            "tabu",
        ],
        &["vms[0].cap.cpu", "capacity 1e-320 of node 0"],
    );
}

#[test]
fn periodic_capacities_whose_sums_overflow_are_input_errors() {
    // Each task fits alone, but two on one machine sum to infinity: exit 3 before.
    let d = tempfile::tempdir().unwrap();
    let p = write(
        &d,
        "p.json",
        r#"{"capacity": 1e308, "jobs": [{"mean": 6e307, "amplitude": 1e307, "phase": 0, "tasks": 5}]}"#,
    );
    expect_input_error(
        &["solve", "periodic", p.to_str().unwrap(), "--method", "bfd"],
        &["p.json", "field `capacity`", "`1e308`", "at most 2^52"],
    );
}
