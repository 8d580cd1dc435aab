//! Evolving applications through the command line: generate, every method, verify (and a
//! doctored solution caught), bad input named, the paper's study at a small scale.

use crate::common;

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

/// `verify` rejects `doctored` (exit 1).
fn rejected(d: &tempfile::TempDir, inst: &str, name: &str, doctored: &serde_json::Value) {
    let p = write(d, name, &doctored.to_string());
    let out = vcalloc(&["verify", inst, p.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
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
    rejected(&d, inst_s, "doctored.json", &doctored);
}

#[test]
fn exact_is_optimal_and_below_every_heuristic_on_a_small_instance() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("small.json");
    let inst_s = inst.to_str().unwrap();
    common::small_evolving_instance(inst_s);
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

#[test]
fn the_lp_bound_is_certified_and_a_raised_bound_is_caught() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("ev.json");
    let inst_s = inst.to_str().unwrap();
    // Wide steps on few nodes: the configuration LP beats the closed form here.
    let text = r#"{"nodes": 10, "apps": [
        {"name": "a", "steps": [[100, 6], [50, 2]]},
        {"name": "b", "steps": [[80, 6]]},
        {"name": "c", "steps": [[60, 6], [40, 1]]}]}"#;
    std::fs::write(&inst, text).unwrap();
    let sol = d.path().join("nox.json");
    let sol_s = sol.to_str().unwrap();
    ok(&[
        "solve", "evolving", inst_s, "--method", "nox", "--bound", "cg", "--output", sol_s,
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    let bound = v["certificate"]["bound"].as_f64().unwrap();
    // Closed form: max(longest app 150, area ⌈(600+100+480+360+40)/10⌉ = 158); the three
    // 6-node steps never overlap, so every schedule needs at least 240 s.
    assert!(bound >= 240.0, "bound {bound}: {v}");
    assert!(bound <= v["certificate"]["objective"].as_f64().unwrap());
    assert!(v["bound_proof"]["weights"].is_array(), "{v}");
    assert!(ok(&["verify", inst_s, sol_s]).starts_with("ok:"));
    // A bound above what the proof shows is caught.
    let mut doctored = v.clone();
    doctored["certificate"]["bound"] = serde_json::json!(bound + 1.0);
    rejected(&d, inst_s, "raised.json", &doctored);
    // So is a proof whose weights do not fit the instance.
    let mut doctored = v.clone();
    doctored["bound_proof"]["weights"] = serde_json::json!([[1.0]]);
    rejected(&d, inst_s, "badproof.json", &doctored);
}

#[test]
fn the_bound_study_finds_no_makespan_below_the_bound() {
    let d = tempfile::tempdir().unwrap();
    ok(&[
        "experiment",
        "evolving-bound",
        "--out",
        d.path().to_str().unwrap(),
        "--instances",
        "4",
    ]);
    let report = std::fs::read_to_string(d.path().join("report.md")).unwrap();
    assert!(report.contains(": 0 violations"), "{report}");
    // Every minimum gap to the bound is ≥ 0.
    for line in report
        .lines()
        .filter(|l| l.starts_with("| noX") || l.starts_with("| rigid"))
    {
        let min: f64 = line
            .split('|')
            .nth(2)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(min >= 0.0, "{line}");
    }
}
