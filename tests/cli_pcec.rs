//! PC/EC through the command line: a trace fixture under every policy, verified; the bound
//! below every policy; a doctored record caught; bad traces named by file, line and field.

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

const TRACE: &str = "data/pcec/lcg-head-300.swf.gz";

#[test]
fn policies_on_a_trace_verify_and_pc_is_no_worse_here() {
    let d = tempfile::tempdir().unwrap();
    let mut xf = Vec::new();
    for m in ["ec", "pc", "ec-lb"] {
        let sol = d.path().join(format!("{m}.json"));
        let s = sol.to_str().unwrap();
        ok(&[
            "solve",
            "pcec",
            TRACE,
            "--method",
            m,
            "--pms",
            "4",
            "--vms-per-pm",
            "4",
            "--arrival-factor",
            "40",
            "--output",
            s,
        ]);
        assert!(ok(&["verify", TRACE, s, "--pms", "4", "--vms-per-pm", "4"]).starts_with("ok:"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        let c = &v["certificate"];
        let (obj, bound) = (
            c["objective"].as_f64().unwrap(),
            c["bound"].as_f64().unwrap(),
        );
        assert!(bound <= obj + 1e-12, "{m}: bound {bound} above {obj}");
        xf.push(obj);
        if m == "pc" {
            // Move one job's end: work conservation and the XF no longer hold.
            let mut bad = v.clone();
            let end = bad["jobs"][0]["end"].as_f64().unwrap();
            bad["jobs"][0]["end"] = serde_json::json!(end + 5.0);
            let p = write(&d, "bad.json", &bad.to_string());
            let out = vcalloc(&[
                "verify",
                TRACE,
                p.to_str().unwrap(),
                "--pms",
                "4",
                "--vms-per-pm",
                "4",
            ]);
            assert_eq!(out.status.code(), Some(1));
        }
    }
    assert!(xf[1] <= xf[0], "PC {} worse than EC {}", xf[1], xf[0]);
}

#[test]
fn bad_traces_are_named() {
    let d = tempfile::tempdir().unwrap();
    let line = |submit: &str, run: &str| {
        format!("1 {submit} 0 {run} 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n")
    };
    let unsorted = format!("{}{}", line("100", "50"), line("10", "50"));
    let p = write(&d, "u.swf", &unsorted);
    expect_input_error(
        &["solve", "pcec", p.to_str().unwrap(), "--method", "pc"],
        &["u.swf", "line 2"],
    );
    let p = write(&d, "f.swf", "1 0 0 50 1\n");
    expect_input_error(
        &["solve", "pcec", p.to_str().unwrap(), "--method", "pc"],
        &["f.swf", "line 1"],
    );
    let p = write(&d, "n.swf", &line("abc", "50"));
    expect_input_error(
        &["solve", "pcec", p.to_str().unwrap(), "--method", "pc"],
        &["n.swf", "line 1", "abc"],
    );
    expect_input_error(
        &[
            "solve",
            "pcec",
            "data/pcec/lcg-head-300-truncated.swf.gz",
            "--method",
            "pc",
        ],
        &["lcg-head-300-truncated.swf.gz"],
    );
    expect_input_error(
        &["solve", "pcec", TRACE, "--method", "pc", "--pms", "0"],
        &["--pms"],
    );
}
