//! `experiment colgen-root`: one folder of instances of three families, each root traced and
//! checked — bounds never above the master value, the trace's end equal to the certificate's
//! root record, a picture per family, files no family reads listed, bad input refused.

use crate::common::{expect_input_error, vcalloc_ok};
use std::collections::BTreeMap;
use std::path::Path;

fn tsv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn num(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} = `{}` in {row:?}", row[key]))
}

#[test]
fn the_roots_of_three_families_are_traced_and_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("set");
    std::fs::create_dir_all(input.join("more")).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for (from, to) in [
        // A 2-D file whose start packing does not meet its bound (MBS′ packs CL_1_25_1 at
        // its bound before any root), so its root runs.
        ("vbp/CL_6_25_1.vbp", "CL_6_25_1.vbp"),
        ("cbp/d_72_100_0.6_a.cbp", "more/d_72_100_0.6_a.cbp"),
        ("bpplib/Falkenauer_u120_00.txt", "Falkenauer_u120_00.txt"),
        ("bpplib/README.md", "README.md"),
    ] {
        std::fs::copy(data.join(from), input.join(to)).unwrap();
    }
    std::fs::write(input.join("notes.dat"), "not an instance\n").unwrap();
    let periodic = input.join("periodic.json");
    vcalloc_ok(&[
        "generate",
        "periodic",
        "--tasks",
        "medium",
        "--amplitude",
        "small",
        "--jobs",
        "12",
        "--seed",
        "2",
        "--output",
        periodic.to_str().unwrap(),
    ]);
    let out = dir.path().join("out");
    vcalloc_ok(&[
        "experiment",
        "colgen-root",
        "--input",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time-limit",
        "30",
        "--threads",
        "1",
    ]);
    let roots = tsv(&out.join("roots.tsv"));
    let family: BTreeMap<&str, &str> = roots
        .iter()
        .map(|r| (r["instance"].as_str(), r["family"].as_str()))
        .collect();
    assert_eq!(
        family,
        BTreeMap::from([
            ("CL_6_25_1.vbp", "binpacking"),
            ("Falkenauer_u120_00.txt", "binpacking"),
            ("more/d_72_100_0.6_a.cbp", "socbp"),
            ("periodic.json", "periodic"),
        ])
    );
    let traces = tsv(&out.join("traces.tsv"));
    for r in &roots {
        assert_eq!(r["error"], "", "{r:?}");
        assert!(
            ["optimal", "feasible"].contains(&r["status"].as_str()),
            "{r:?}"
        );
        let (bound, packing) = (num(r, "bound"), num(r, "objective"));
        assert!(bound <= packing, "{r:?}");
        let (root_bound, root_master) = (num(r, "root_bound"), num(r, "root_master"));
        assert!(root_bound <= root_master * (1.0 + 1e-9), "{r:?}");
        assert!(root_bound.ceil() <= packing, "{r:?}");
        let points: Vec<&BTreeMap<String, String>> = traces
            .iter()
            .filter(|t| t["instance"] == r["instance"])
            .collect();
        assert!(!points.is_empty(), "no trace for {r:?}");
        let mut last_seconds = 0.0;
        for p in &points {
            let (s, m, b) = (num(p, "seconds"), num(p, "master"), num(p, "bound"));
            assert!(s >= last_seconds, "{p:?}");
            last_seconds = s;
            // A safe bound never exceeds the master value (an upper bound on the LP optimum).
            assert!(b <= m * (1.0 + 1e-9) + 1e-9, "{p:?}");
        }
        let end = points.last().unwrap();
        assert!(
            (num(end, "master") - root_master).abs() <= 1e-4 * root_master.max(1.0),
            "the trace ends at {end:?}, the certificate's root at {r:?}"
        );
        // `settled` in the certificate and in the trace agree.
        if r["root_settled"] == "1" {
            assert_ne!(r["settled_seconds"], "–", "{r:?}");
        }
    }
    for f in ["binpacking", "socbp", "periodic"] {
        let svg = std::fs::read_to_string(out.join(format!("root-{f}.svg"))).unwrap();
        assert!(svg.contains("<svg") && svg.contains("master value"), "{f}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("notes.dat"), "{report}");
    assert!(!report.contains("README"), "{report}");
}

#[test]
fn colgen_root_refuses_a_missing_input() {
    expect_input_error(
        &[
            "experiment",
            "colgen-root",
            "--input",
            "/no/such/folder",
            "--out",
            "/tmp/vcalloc-colgen-root-never",
        ],
        &["--input", "/no/such/folder", "cannot read it"],
    );
    expect_input_error(
        &[
            "experiment",
            "colgen-root",
            "--out",
            "/tmp/vcalloc-colgen-root-never",
        ],
        &["--input", "needs --input"],
    );
}
