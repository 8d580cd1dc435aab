//! Ctrl-C on a long `solve`: the search stops as at its time limit, the solution JSON (its
//! incumbent and bound) is written as usual, the incumbent and bound are named on stderr, and
//! the exit code is 130.
#![cfg(unix)]

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `solve binpacking` on Hard28 BPP359 with branch-and-price alone (no local search,
/// no enumeration, no cut rounds: the tree then runs well past 8 s) with a 60 s limit, then
/// sends `signal` 1.5 s in; returns its output and the seconds from the start to its end.
fn stop_a_long_solve(
    dir: &std::path::Path,
    extra: &[&str],
    signal: libc::c_int,
) -> (std::process::Output, f64) {
    let inst = std::path::Path::new("data/hard28/Hard28_BPP359.txt");
    let settings = dir.join("tree.toml");
    std::fs::write(
        &settings,
        "[local]\nenabled = false\n[bp.enumeration]\nenabled = false\n[cuts]\nenabled = false\n",
    )
    .unwrap();
    let began = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args([
            "solve",
            "binpacking",
            inst.to_str().unwrap(),
            "--method",
            "bp",
            "--settings",
            settings.to_str().unwrap(),
            "--time-limit",
            "60",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: sends a signal to our own child, which has not been waited for (its pid is live).
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let out = child.wait_with_output().unwrap();
    (out, began.elapsed().as_secs_f64())
}

#[test]
fn sigint_prints_the_incumbent_and_bound_and_exits_130() {
    let d = tempfile::tempdir().unwrap();
    let (out, took) = stop_a_long_solve(d.path(), &[], libc::SIGINT);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    // Well before the 60 s limit (the search polls its deadline every 4,096 nodes).
    assert!(took < 20.0, "took {took:.1} s after Ctrl-C at 1.5 s");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the solution JSON");
    let c = &v["certificate"];
    assert_eq!(c["status"], "feasible", "{c}");
    let (obj, bound) = (
        c["objective"].as_f64().unwrap(),
        c["bound"].as_f64().unwrap(),
    );
    assert!(bound <= obj, "{c}");
    assert!(c["seconds"].as_f64().unwrap() < 20.0, "{c}");
    assert!(
        err.contains("interrupted")
            && err.contains(&format!("incumbent {obj}"))
            && err.contains(&format!("bound {bound}")),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// SIGTERM (a batch scheduler's stop) does what Ctrl-C does, and the incumbent lands in the
/// `--output` file.
#[test]
fn sigterm_writes_the_incumbent_to_the_output_file_and_exits_130() {
    let d = tempfile::tempdir().unwrap();
    let sol = d.path().join("sol.json");
    let (out, took) = stop_a_long_solve(
        d.path(),
        &["--output", sol.to_str().unwrap()],
        libc::SIGTERM,
    );
    assert!(took < 20.0, "took {took:.1} s after SIGTERM at 1.5 s");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).expect("the solution JSON");
    assert_eq!(v["certificate"]["status"], "feasible", "{v}");
    // The table beside the written file; no temporary file left in the folder.
    assert!(String::from_utf8_lossy(&out.stdout).contains("bp"));
    let names: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// An `--output` whose folder does not exist is refused before the solve, not after it.
#[test]
fn an_unusable_output_path_is_refused_before_solving() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("no/such/folder/sol.json");
    let began = Instant::now();
    let out = common::vcalloc(&[
        "solve",
        "binpacking",
        "data/hard28/Hard28_BPP359.txt",
        "--method",
        "bp",
        "--time-limit",
        "30",
        "--output",
        missing.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(began.elapsed().as_secs_f64() < 10.0, "solved first: {err}");
    assert!(
        err.contains("--output")
            && err.contains("no/such/folder")
            && err.contains("cannot be used"),
        "{err}"
    );
    // A folder as the output file, and `generate` / `export-lp` too.
    let dir = d.path().to_str().unwrap();
    for args in [
        vec![
            "solve",
            "vcsched",
            "data/vcsched-demo.json",
            "--method",
            "gr",
            "--output",
            dir,
        ],
        vec![
            "generate",
            "binpacking",
            "--seed",
            "1",
            "--output",
            missing.to_str().unwrap(),
        ],
        vec![
            "simulate",
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            "--policy",
            "pc",
            "--output",
            missing.to_str().unwrap(),
        ],
        vec!["settings", "vcsched", "--output", missing.to_str().unwrap()],
        vec![
            "export-lp",
            "vcsched",
            "data/vcsched-demo.json",
            "--output",
            missing.to_str().unwrap(),
        ],
    ] {
        let out = common::vcalloc(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--output"), "{args:?}: {err}");
    }
    // An existing file is replaced whole.
    let sol = d.path().join("sol.json");
    std::fs::write(
        &sol,
        "old contents that are longer than nothing".repeat(1000),
    )
    .unwrap();
    common::vcalloc_ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "gr",
        "--output",
        sol.to_str().unwrap(),
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    assert_eq!(v["certificate"]["method"], "gr");
}

/// Runs the CLI with `args`, sends SIGTERM `after_ms` in; its output and the seconds from
/// the signal to its exit.
fn term_after(args: &[&str], after_ms: u64) -> (std::process::Output, f64) {
    let child = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(after_ms));
    let sent = Instant::now();
    // SAFETY: sends a signal to our own child, which has not been waited for (its pid is live).
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed().as_secs_f64())
}

/// SIGTERM while column generation's first master LP runs (2 million tasks of 4,000 jobs: the
/// start packing takes about 2 s, the first LP seconds more): the answer is the start packing
/// with the closed-form bound, written and verified — not a solver error.
#[test]
fn sigterm_in_the_first_master_lp_still_writes_a_verified_answer() {
    let d = tempfile::tempdir().unwrap();
    let inst = &common::two_million_periodic_tasks(d.path(), "p.json");
    let sol = d.path().join("sol.json");
    let sol = sol.to_str().unwrap();
    let args = [
        "solve", "periodic", inst, "--method", "cg", "-q", "--output", sol,
    ];
    let (out, after) = term_after(&args, 3000);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(after < 10.0, "{err}");
    let ok = common::vcalloc_ok(&["verify", inst, sol]);
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ok:"));
}

/// SIGTERM while HiGHS presolves a 256-host × 2,000-job VCSched MILP (no time limit; its
/// presolve calls no interrupt callback and ran 10.8 s past the signal): the adapter stops
/// waiting for HiGHS, and the answer is the MILP's warm start, written and verified.
#[test]
fn sigterm_in_a_mip_presolve_still_stops_at_once() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("vc.json");
    let inst = inst.to_str().unwrap();
    common::vcalloc_ok(&[
        "generate", "vcsched", "--hosts", "256", "--jobs", "2000", "--slack", "0.5", "--cv-mem",
        "0.75", "--cv-cpu", "0.75", "--seed", "1", "--output", inst,
    ]);
    let sol = d.path().join("sol.json");
    let sol = sol.to_str().unwrap();
    let args = [
        "solve", "vcsched", inst, "--method", "milp", "-q", "--output", sol,
    ];
    let (out, after) = term_after(&args, 3000);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    // Well below the 10.8 s of a presolve that runs to its end (the model's build, if the
    // signal comes during it, is not interrupted: hence not 1 s).
    assert!(after < 6.0, "{after:.1} s after the signal: {err}");
    let ok = common::vcalloc_ok(&["verify", inst, sol]);
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ok:"));
}
