//! Evolving applications through the command line: generate, every method, verify (and a
//! doctored solution caught), bad input named, the paper's study at a small scale.

mod common;

use common::{expect_input_error, vcalloc, write};

fn ok(args: &[&str]) -> String {
    let out = vcalloc(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_method_verifies_and_no_heuristic_beats_the_bound() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("ev.json");
    let inst_s = inst.to_str().unwrap();
    ok(&[
        "generate", "evolving", "--apps", "6..9", "--steps", "1..4", "--seed", "11", "--output",
        inst_s,
    ]);
    let mut makespans = Vec::new();
    for m in ["rigid", "nox", "2x", "2x+c", "infx", "infx+c"] {
        let sol = d.path().join(format!("{m}.json"));
        ok(&[
            "solve",
            "evolving",
            inst_s,
            "--method",
            m,
            "--output",
            sol.to_str().unwrap(),
        ]);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        let c = &v["certificate"];
        let (obj, bound) = (
            c["objective"].as_f64().unwrap(),
            c["bound"].as_f64().unwrap(),
        );
        assert!(bound <= obj, "{m}: bound {bound} above makespan {obj}");
        assert_eq!(c["sense"], "minimize");
        makespans.push(obj);
        assert!(ok(&["verify", inst_s, sol.to_str().unwrap()]).starts_with("ok:"));
    }
    // noX never wastes: the allocated area equals the used area.
    let nox: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("nox.json")).unwrap()).unwrap();
    let m = &nox["metrics"];
    assert_eq!(m["allocated_area"], m["used_area"], "{m}");
    assert_eq!(m["waste_pct"], 0.0, "{m}");

    // A solution that claims an unlimited expand limit under `nox` is caught.
    let mut doctored = nox.clone();
    doctored["expand_limit"] = serde_json::json!("infinite");
    let p = write(&d, "doctored.json", &doctored.to_string());
    let out = vcalloc(&["verify", inst_s, p.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn exact_is_optimal_and_below_every_heuristic_on_a_small_instance() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("small.json");
    let inst_s = inst.to_str().unwrap();
    ok(&[
        "generate",
        "evolving",
        "--apps",
        "3..4",
        "--steps",
        "1..3",
        "--duration",
        "1..4",
        "--step-nodes",
        "1..8",
        "--nodes",
        "16",
        "--seed",
        "5",
        "--output",
        inst_s,
    ]);
    let makespan = |m: &str, extra: &[&str]| {
        let sol = d.path().join(format!("{m}.json"));
        let mut args = vec![
            "solve",
            "evolving",
            inst_s,
            "--method",
            m,
            "--output",
            sol.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        ok(&args);
        assert!(ok(&["verify", inst_s, sol.to_str().unwrap()]).starts_with("ok:"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        (
            v["certificate"]["objective"].as_f64().unwrap(),
            v["certificate"]["status"].clone(),
        )
    };
    let (opt, status) = makespan("exact", &[]);
    assert_eq!(status, "optimal");
    for m in ["rigid", "nox"] {
        assert!(makespan(m, &[]).0 >= opt, "{m} beat the noX optimum");
    }
    let (inf, status) = makespan("exact", &["--exact-expand", "\"infinite\""]);
    assert_eq!(status, "optimal");
    assert!(
        inf <= opt,
        "a looser expand limit cannot lengthen the optimum"
    );
    for m in ["infx", "infx+c", "2x"] {
        assert!(makespan(m, &[]).0 >= inf, "{m} beat the infX optimum");
    }
}

#[test]
fn bad_instances_and_arguments_are_named() {
    let d = tempfile::tempdir().unwrap();
    for (text, fragments) in [
        (
            r#"{"nodes": 10, "apps": [{"name": "a", "steps": [[0, 3]]}]}"#,
            vec!["apps[0].steps[0][0]"],
        ),
        (
            r#"{"nodes": 10, "apps": [{"name": "a", "steps": [[60, 11]]}]}"#,
            vec!["apps[0].steps[0]", "11"],
        ),
        (
            r#"{"nodes": 10, "apps": [{"name": "a", "steps": [[60.5, 1]]}]}"#,
            vec!["apps[0].steps[0]"],
        ),
        (r#"{"nodes": 10, "apps": []}"#, vec!["apps"]),
    ] {
        let p = write(&d, "bad.json", text);
        let mut want = vec!["bad.json"];
        want.extend(fragments);
        expect_input_error(
            &["solve", "evolving", p.to_str().unwrap(), "--method", "nox"],
            &want,
        );
    }
    expect_input_error(
        &["generate", "evolving", "--apps", "9..3", "--seed", "1"],
        &["--apps", "9"],
    );
    let p = write(
        &d,
        "ok.json",
        r#"{"nodes": 10, "apps": [{"name": "a", "steps": [[60, 3]]}]}"#,
    );
    expect_input_error(
        &[
            "solve",
            "evolving",
            p.to_str().unwrap(),
            "--method",
            "2x",
            "--limited-expand",
            "0",
        ],
        &["--limited-expand", "at least 1"],
    );
}

#[test]
fn the_paper_study_runs_small() {
    let d = tempfile::tempdir().unwrap();
    ok(&[
        "experiment",
        "evolving-paper",
        "--out",
        d.path().to_str().unwrap(),
        "--instances",
        "20",
    ]);
    let report = std::fs::read_to_string(d.path().join("report.md")).unwrap();
    assert!(report.contains("N = 100") && report.contains("N = 112"));
    assert!(report.contains("Verify violations: 0"), "{report}");
}

#[test]
fn the_exact_study_never_finds_a_heuristic_below_the_optimum() {
    let d = tempfile::tempdir().unwrap();
    ok(&[
        "experiment",
        "evolving-exact",
        "--out",
        d.path().to_str().unwrap(),
        "--instances",
        "3",
    ]);
    let report = std::fs::read_to_string(d.path().join("report.md")).unwrap();
    // Every ratio to the proven optimum is at least 1.
    for line in report
        .lines()
        .filter(|l| l.starts_with("| noX") || l.starts_with("| infX"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        for k in [4, 5, 7, 8] {
            let r: f64 = cells[k].parse().unwrap();
            assert!(r >= 1.0 - 1e-9, "{line}");
        }
    }
}
