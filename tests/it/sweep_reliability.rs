//! Sweeps through the command line as a user runs them: killed with SIGKILL at random moments
//! and resumed, they end with exactly the rows of an uninterrupted run; the same options give
//! the same files whatever the thread count, run after run.
//!
//! Every file is compared bit for bit except the timings: the `seconds` column of
//! `results.csv` (and `verify_seconds`), and in `report.md` the per-method `mean s | max s`
//! cells, the verify-time line and the run-time section (`time-vs-jobs.svg`).
#![cfg(unix)]

use crate::common;

use common::csv_without_seconds;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// `vcalloc experiment vcsched-small` into `out` with `extra` options: heuristics and the
/// HiGHS LP bound, no time limit (a limit would make rows depend on the machine's speed).
fn sweep(out: &Path, per_spec: usize, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vcalloc"));
    c.args([
        "experiment",
        "vcsched-small",
        "--out",
        out.to_str().unwrap(),
        "--instances-per-spec",
        &per_spec.to_string(),
        "--methods",
        "gr,sg,mcb8,lp-bound",
        "--seed",
        "7",
    ])
    .args(extra)
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    c
}

fn run_ok(mut c: Command) {
    let s = c.status().unwrap();
    assert!(s.success(), "{c:?}: {s:?}");
}

/// The rows' (instance, method) keys: no duplicate, the expected count.
fn check_keys(csv: &str, rows: usize) {
    let header: Vec<&str> = csv.lines().next().unwrap_or("").split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
    };
    let (instance, method) = (column("instance"), column("method"));
    let mut keys: Vec<(String, String)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[instance].to_string(), c[method].to_string())
        })
        .collect();
    assert_eq!(keys.len(), rows);
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), rows, "duplicate rows");
}

#[test]
fn a_sweep_killed_20_times_at_random_moments_resumes_to_the_uninterrupted_rows() {
    // 144 × 20 instances × 4 methods = 11,520 rows, about 2 s in one run.
    let (per_spec, rows) = (20, 144 * 20 * 4);
    let whole = tempfile::tempdir().unwrap();
    run_ok(sweep(whole.path(), per_spec, &["--threads", "2"]));
    let want = csv_without_seconds(whole.path());
    check_keys(&want, rows);

    let cut = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let (mut kills, mut tries) = (0, 0);
    while kills < 20 {
        tries += 1;
        assert!(tries < 200, "only {kills} kills landed in {tries} runs");
        let mut child = sweep(cut.path(), per_spec, &["--threads", "2"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(rng.random_range(0..120)));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
        let done = std::fs::read_to_string(cut.path().join("results.csv")).unwrap_or_default();
        assert!(
            done.lines().count() <= rows + 1,
            "more rows than the sweep has after {kills} kills"
        );
    }
    run_ok(sweep(cut.path(), per_spec, &["--threads", "2"]));
    assert_eq!(csv_without_seconds(cut.path()), want);
}

#[test]
fn a_torn_last_line_is_dropped_and_its_row_computed_again() {
    let whole = tempfile::tempdir().unwrap();
    run_ok(sweep(whole.path(), 1, &["--threads", "1"]));
    let want = csv_without_seconds(whole.path());
    let bytes = std::fs::read(whole.path().join("results.csv")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Cuts anywhere: in the header, inside a row, just before or just after a line break.
    let lf = bytes.iter().rposition(|&b| b == b'\n').unwrap();
    let mut cuts: Vec<usize> = (0..6).map(|_| rng.random_range(0..bytes.len())).collect();
    cuts.extend([10, lf, lf - 1, bytes.len() / 2]);
    for cut in cuts {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("results.csv"), &bytes[..cut]).unwrap();
        run_ok(sweep(d.path(), 1, &["--threads", "1"]));
        assert_eq!(csv_without_seconds(d.path()), want, "cut at byte {cut}");
    }
}

/// `report.md` without its timings: the per-method table's last two cells (`mean s`,
/// `max s`) and everything from the run-time section on.
fn report_without_times(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let text = &text[..text.find("## Mean run time").expect("the run-time section")];
    let mut per_method = false;
    text.lines()
        .filter(|l| !l.starts_with("Verify time"))
        .map(|l| {
            if l.starts_with("## ") {
                per_method = l == "## Per method";
            }
            let cells: Vec<&str> = l.split('|').collect();
            if per_method && cells.len() > 3 {
                cells[..cells.len() - 3].join("|") + "\n"
            } else {
                l.to_string() + "\n"
            }
        })
        .collect()
}

#[test]
fn the_same_sweep_gives_the_same_files_on_1_or_2_threads_and_run_after_run() {
    let runs: Vec<(tempfile::TempDir, &str)> = ["1", "2", "2"]
        .into_iter()
        .map(|t| (tempfile::tempdir().unwrap(), t))
        .collect();
    for (d, threads) in &runs {
        let mut c = sweep(d.path(), 2, &["--threads", threads, "--save-instances"]);
        c.env("RAYON_NUM_THREADS", threads);
        run_ok(c);
    }
    let first = runs[0].0.path();
    let files = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .chain(std::fs::read_dir(dir.join("instances")).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| p.strip_prefix(dir).unwrap().to_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    let names = files(first);
    assert_eq!(names.iter().filter(|n| n.ends_with(".json")).count(), 288);
    for (d, threads) in &runs[1..] {
        let d = d.path();
        assert_eq!(files(d), names, "{threads} threads");
        assert_eq!(csv_without_seconds(d), csv_without_seconds(first));
        assert_eq!(report_without_times(d), report_without_times(first));
        for n in &names {
            if !["results.csv", "report.md", "time-vs-jobs.svg"].contains(&n.as_str()) {
                assert!(
                    std::fs::read(d.join(n)).unwrap() == std::fs::read(first.join(n)).unwrap(),
                    "{n} differs on {threads} threads"
                );
            }
        }
    }
}
