//! Ctrl-C on a long `solve`: the search stops as at its time limit, the solution JSON (its
//! incumbent and bound) is written as usual, the incumbent and bound are named on stderr, and
//! the exit code is 130.
#![cfg(unix)]

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn sigint_prints_the_incumbent_and_bound_and_exits_130() {
    let d = tempfile::tempdir().unwrap();
    // 500 items without the root dive, the local search and the aggregated root (whose
    // stabilised column generation solves this one in 0.6 s): branch-and-price over unit
    // items runs well past 15 s on it.
    let inst = d.path().join("bp500.json");
    let out = common::vcalloc(&[
        "generate",
        "binpacking",
        "--items",
        "500",
        "--seed",
        "4",
        "--output",
        inst.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let settings = d.path().join("no-local.toml");
    std::fs::write(&settings, "aggregate = false\n[local]\nenabled = false\n").unwrap();
    let began = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args([
            "solve",
            "binpacking",
            inst.to_str().unwrap(),
            "--method",
            "bp",
            "--no-dive",
            "--settings",
            settings.to_str().unwrap(),
            "--time-limit",
            "60",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: sends a signal to our own child, which has not been waited for (its pid is live).
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let out = child.wait_with_output().unwrap();
    let took = began.elapsed().as_secs_f64();
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
