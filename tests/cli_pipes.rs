//! Every command that prints, with its standard output a pipe whose reader has already gone
//! (what `vcalloc … | head -1` does once `head` has its line): it must end quietly, as Unix
//! tools do — exit 0 or killed by SIGPIPE (the shell's 141), no panic, no backtrace.
#![cfg(unix)]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// Runs `args` with stdout a pipe closed at the reading end before the process starts (so
/// every write to it fails, whatever the timing), and checks the quiet-exit contract.
fn quiet_on_closed_pipe(args: &[&str]) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
        "{args:?}: {:?}\n{err}",
        out.status
    );
    for bad in ["panicked", "Broken pipe", "backtrace", "error"] {
        assert!(!err.contains(bad), "{args:?}: `{bad}` in stderr:\n{err}");
    }
}

#[test]
fn solve_of_every_problem_and_method_family_ends_quietly_on_a_closed_pipe() {
    let d = tempfile::tempdir().unwrap();
    let path = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (ev, rb) = (path("ev.json"), path("rb.json"));
    common::small_evolving_instance(&ev);
    common::vcalloc_ok(&[
        "generate",
        "rebalance",
        "--seed",
        "1",
        "--nodes-min",
        "2",
        "--nodes-max",
        "3",
        "--output",
        &rb,
    ]);
    // The issue's own example: a CSV instance, 2 hosts, sgb.
    let csv = path("jobs.csv");
    std::fs::write(&csv, "cpu,mem\n0.5,0.3\n0.4,0.6\n0.9,0.2\n").unwrap();
    quiet_on_closed_pipe(&["solve", "vcsched", &csv, "--hosts", "2", "--method", "sgb"]);
    let pcec = [
        "--pms",
        "2",
        "--vms-per-pm",
        "2",
        "--jobs",
        "40",
        "--arrival-factor",
        "40",
    ];
    let cases: Vec<(&str, &str, Vec<&str>, &[&str])> = vec![
        (
            "vcsched",
            "data/vcsched-demo.json",
            vec![],
            &["exact", "milp", "lp-bound", "gr", "sgb", "mcb8", "rrnd"],
        ),
        (
            "periodic",
            "data/bpplib/Falkenauer_t60_00.txt",
            vec![],
            &["bfd", "mm", "mmm", "cg", "lower-bound"],
        ),
        (
            "evolving",
            &ev,
            vec![],
            &["rigid", "nox", "infx+c", "exact"],
        ),
        (
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            pcec.to_vec(),
            &["ec", "pc", "ec-lb"],
        ),
        ("rebalance", &rb, vec![], &["keep", "tabu", "milp", "exact"]),
        (
            "socbp",
            "data/cbp/d_72_100_0.6_a.cbp",
            vec![],
            &["ffd", "bfd", "cg", "bp"],
        ),
        (
            "binpacking",
            "data/bpplib/Falkenauer_t60_00.txt",
            vec![],
            &["ffd", "bfd", "cg", "bp"],
        ),
    ];
    for (problem, file, extra, methods) in &cases {
        for m in *methods {
            let mut args = vec!["solve", problem, file, "--method", m];
            args.extend(extra.iter().copied());
            quiet_on_closed_pipe(&args);
        }
    }
    // `--output` writes the JSON to a file and prints the table.
    let sol = path("sol.json");
    quiet_on_closed_pipe(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb8",
        "--output",
        &sol,
    ]);
    quiet_on_closed_pipe(&["verify", "data/vcsched-demo.json", &sol]);
}

#[test]
fn every_other_printing_command_ends_quietly_on_a_closed_pipe() {
    let d = tempfile::tempdir().unwrap();
    let path = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let pms = path("pms.json");
    std::fs::write(
        &pms,
        r#"{"pms":[{"vms":[{"name":"A","min":0.25,"max":0.67,"share":4,"demand":0.2},{"name":"B","min":0.1,"max":1,"share":8}]}]}"#,
    )
    .unwrap();
    let sc = path("sc.json");
    std::fs::write(
        &sc,
        r#"{"period_s": 40, "duration_s": 3600, "nodes": [{"cpu": 8, "mem": 16384}], "apps": [{"name": "a", "kind": "deadline", "arrival_s": 0, "vms": 2, "work": 1800, "deadline_s": 2400, "budget": 5000}]}"#,
    )
    .unwrap();
    let (sweep, merged, lp) = (path("sweep"), path("merged"), path("demo.lp"));
    let commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["help", "solve"],
        vec!["methods"],
        vec!["methods", "binpacking"],
        vec!["demo"],
        vec![
            "generate", "vcsched", "--seed", "3", "--hosts", "8", "--jobs", "200", "--slack",
            "0.3", "--cv-mem", "0.25", "--cv-cpu", "0.25",
        ],
        vec!["generate", "binpacking", "--seed", "3", "--items", "300"],
        vec![
            "export-lp",
            "vcsched",
            "data/vcsched-demo.json",
            "--out",
            &lp,
        ],
        vec!["experiment", "--help"],
        vec!["experiment", "vcsched-small", "--help"],
        vec![
            "experiment",
            "vcsched-small",
            "--out",
            &sweep,
            "--instances-per-spec",
            "1",
            "--methods",
            "gr",
            "--threads",
            "1",
        ],
        vec!["experiment", "merge", "--out", &merged, &sweep],
        vec!["capacity", "pcec", &pms],
        vec![
            "simulate",
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            "--policy",
            "pc",
            "--pms",
            "4",
            "--vms-per-pm",
            "4",
        ],
        vec!["simulate", "rebalance", &sc],
    ];
    for args in &commands {
        quiet_on_closed_pipe(args);
    }
    // The sweep's rows are on disk whatever became of its summary line.
    assert!(
        std::fs::read_to_string(d.path().join("sweep/results.csv"))
            .unwrap()
            .lines()
            .count()
            > 100
    );
}
