//! `experiment periodic-google` end to end (issue 39): one stand-in at a one-second limit per
//! solve; the report's table read back — every method of Table 1 and ours has a row, every
//! answer passed `verify` (0 violations), no method uses fewer machines than `⌈W/C⌉` or the
//! best proven bound, and the stand-in's statistics are the paper's.

use crate::common;

use common::vcalloc_ok;

/// The cells of the table rows of `report` that follow its method-table header.
fn method_rows(report: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in report.lines() {
        if line.starts_with("| method | paper nodes") {
            inside = true;
            continue;
        }
        if !inside || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        rows.push(
            line.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect(),
        );
    }
    rows
}

#[test]
fn one_stand_in_every_method_verifies_and_no_heuristic_beats_the_bound() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("google");
    vcalloc_ok(&[
        "experiment",
        "periodic-google",
        "--out",
        out.to_str().unwrap(),
        "--instances",
        "1",
        "--time-limit",
        "1",
        "--threads",
        "1",
        "--seed",
        "1",
        "-q",
    ]);
    assert!(out.join("google-seed1.json").is_file());
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("Every statistic matches: **yes**."),
        "{report}"
    );
    let header = report
        .lines()
        .find(|l| l.starts_with("| method | paper nodes"))
        .expect("a method table");
    // `nodes / ⌈W/C⌉ = 2090 |` and `nodes / best proven bound B |` name the bounds.
    let number_after = |key: &str| -> f64 {
        let rest = &header[header.find(key).unwrap() + key.len()..];
        rest.split('|').next().unwrap().trim().parse().unwrap()
    };
    let w = number_after("⌈W/C⌉ =");
    let best = number_after("best proven bound");
    assert_eq!(w, 2090.0, "the paper's overall peak");
    assert!(best >= w);
    let rows = method_rows(&report);
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "cg",
            "bfd",
            "mm",
            "mmm",
            "bp",
            "lower-bound",
            "cg (Algorithm 1)"
        ]
    );
    for r in &rows {
        assert_eq!(r.len(), 12, "{r:?}");
        assert_eq!(r[11], "0", "{}: the answer failed verify: {r:?}", r[0]);
        if r[0] == "lower-bound" {
            assert_eq!(r[3], "–", "the bound alone places nothing");
            continue;
        }
        let nodes: f64 = r[3].parse().unwrap_or_else(|_| panic!("{r:?}"));
        assert!(
            nodes >= best,
            "{}: {nodes} machines below the bound {best}",
            r[0]
        );
        let ratio: f64 = r[4].parse().unwrap();
        assert!((ratio - nodes / w).abs() < 1e-4, "{r:?}");
        assert!(
            ["feasible", "optimal"].contains(&r[6].as_str()),
            "{}: status {}",
            r[0],
            r[6]
        );
        // Table 1's methods carry the paper's node counts beside ours.
        let paper = match r[0].as_str() {
            "cg" | "cg (Algorithm 1)" => "2103",
            "bfd" => "2182",
            "mm" => "2114",
            "mmm" => "2226",
            _ => "–",
        };
        assert_eq!(r[1], paper, "{r:?}");
    }
}
