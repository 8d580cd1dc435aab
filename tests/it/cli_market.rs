//! `vcalloc simulate market` through the command line: the per-period CSV, the summary with
//! conserved credits and no negative account under both admission policies, and bad scenario
//! fields named by file, field and value with exit 2.

use crate::common;

use common::{expect_input_error, vcalloc, write};

const SCENARIO: &str = r#"{"period_s": 40, "duration_s": 14400,
 "nodes": [{"cpu": 4, "mem": 8192}, {"cpu": 4, "mem": 8192}],
 "apps": [
  {"name": "tight", "kind": "deadline", "arrival_s": 0, "vms": 4, "work": 1800, "iterations": 90, "deadline_s": 2700, "budget": 4000},
  {"name": "loose", "kind": "deadline", "arrival_s": 200, "vms": 2, "work": 1200, "iterations": 60, "deadline_s": 7200, "budget": 1500, "renew": 100},
  {"name": "be", "kind": "best_effort", "arrival_s": 100, "vms": 6, "work": 2400, "budget": 3000, "bid": {"cpu": 2, "mem": 0.5}},
  {"name": "farm", "kind": "framework", "arrival_s": 0, "vms": 4, "budget": 2000, "thresholds": [0, 1],
   "jobs": [{"arrival_s": 0, "procs": 2, "runtime_s": 600}, {"arrival_s": 300, "procs": 1, "runtime_s": 900}]}
 ]}"#;

/// The number after `key` in `text`.
fn number_after(text: &str, key: &str) -> f64 {
    let rest = &text[text
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in {text}"))
        + key.len()..];
    let tok: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || "+-.e".contains(*c))
        .collect();
    tok.parse()
        .unwrap_or_else(|_| panic!("`{tok}` after `{key}`"))
}

#[test]
fn simulate_market_writes_the_csv_and_conserves_credits() {
    let d = tempfile::tempdir().unwrap();
    let sc = write(&d, "sc.json", SCENARIO);
    for admission in ["first_fit", "easy"] {
        let csv = d.path().join(format!("{admission}.csv"));
        let out = vcalloc(&[
            "simulate",
            "market",
            sc.to_str().unwrap(),
            "--admission",
            admission,
            "--output",
            csv.to_str().unwrap(),
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(number_after(&text, "max |imbalance|") <= 1e-6, "{text}");
        assert!(number_after(&text, "smallest balance") >= 0.0, "{text}");
        let supply = number_after(&text, "supply");
        let parts: f64 = ["bank", "provider", "accounts"]
            .iter()
            .map(|k| number_after(&text, &format!("{k} ")))
            .sum();
        assert!((parts - supply).abs() <= 0.02, "{text}");
        assert!(text.contains("deadlines met: "), "{text}");
        for app in ["tight", "loose", "be", "farm"] {
            assert!(text.lines().any(|l| l.starts_with(app)), "{app}: {text}");
        }
        let rows = std::fs::read_to_string(&csv).unwrap();
        let mut lines = rows.lines();
        assert!(lines
            .next()
            .unwrap()
            .starts_with("time_s,app,vms,bid_cpu,bid_mem,alloc_cpu,alloc_mem,price_cpu,progress"));
        let mut count = 0;
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            // Progress within [0, 1], allocations within the VM size, no negative balance.
            assert!((0.0..=1.0 + 1e-9).contains(&num(8)), "{l}");
            assert!(num(5) <= 1.0 + 1e-9 && num(5) >= 0.0, "{l}");
            assert!(num(10) >= -1e-9, "{l}");
            count += 1;
        }
        assert!(count > 10, "{count} rows");
    }
    // The family's own name works too.
    let out = vcalloc(&[
        "simulate",
        "rebalance",
        sc.to_str().unwrap(),
        "--no-rebalance",
    ]);
    assert!(out.status.success());
}

#[test]
fn bad_scenarios_are_named_and_exit_2() {
    let d = tempfile::tempdir().unwrap();
    for (name, text, fragments) in [
        (
            "neg.json",
            r#"{"apps": [{"budget": -5}]}"#,
            vec!["neg.json", "apps[0].budget", "-5"],
        ),
        (
            "nan.json",
            r#"{"period_s": "x"}"#,
            vec!["nan.json", "period_s"],
        ),
        (
            "vms.json",
            r#"{"apps": [{"vms": 0}]}"#,
            vec!["vms.json", "apps[0].vms", "0"],
        ),
        (
            "size.json",
            r#"{"nodes": [{"cpu": 2, "mem": 100}], "apps": [{"vm_size": {"cpu": 4, "mem": 50}}]}"#,
            vec!["size.json", "apps[0].vm_size.cpu", "4"],
        ),
        (
            "unknown.json",
            r#"{"aps": []}"#,
            vec!["unknown.json", "aps"],
        ),
        ("syntax.json", r#"{"apps": ["#, vec!["syntax.json"]),
    ] {
        let p = write(&d, name, text);
        expect_input_error(&["simulate", "market", p.to_str().unwrap()], &fragments);
    }
    let p = write(&d, "ok.json", SCENARIO);
    expect_input_error(
        &[
            "simulate",
            "market",
            p.to_str().unwrap(),
            "--admission",
            "lottery",
        ],
        &["admission", "lottery"],
    );
    expect_input_error(
        &["simulate", "market", "/nonexistent/sc.json"],
        &["/nonexistent/sc.json"],
    );
}

/// `simulate market --time-limit S`: a run longer than S stops at the first period after it,
/// within S × 1.1 + 1 s, says where, and writes its partial CSV; a bad value is exit 2.
#[test]
fn simulate_market_honours_its_time_limit() {
    let d = tempfile::tempdir().unwrap();
    let mut sc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("data/examples/scenario.json").unwrap())
            .unwrap();
    // A best-effort app with endless work and budget: a million periods.
    sc["duration_s"] = 4e7.into();
    sc["apps"][2]["work"] = 1e12.into();
    sc["apps"][2]["budget"] = 1e12.into();
    let file = d.path().join("long.json");
    std::fs::write(&file, sc.to_string()).unwrap();
    let rows = d.path().join("rows.csv");
    let began = std::time::Instant::now();
    let out = common::vcalloc_ok(&[
        "simulate",
        "market",
        file.to_str().unwrap(),
        "--time-limit",
        "0.5",
        "--output",
        rows.to_str().unwrap(),
    ]);
    assert!(began.elapsed().as_secs_f64() <= 0.5 * 1.1 + 1.0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stopped by the time limit at simulated time"),
        "{text}"
    );
    assert!(std::fs::read_to_string(&rows).unwrap().lines().count() > 1);
    let bad = common::vcalloc(&[
        "simulate",
        "market",
        file.to_str().unwrap(),
        "--time-limit",
        "0",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}
