//! PC/EC through the command line: a trace fixture under every policy, verified; the bound
//! below every policy; a doctored record caught; bad traces named by file, line and field.

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

#[test]
fn capacity_prints_ec_and_pc_and_names_bad_fields() {
    let d = tempfile::tempdir().unwrap();
    // The paper's example (§II.B): EC_A = 0.4667, EC_B = 0.5333; with A using 0.2 ≤ EC_A,
    // PC_B = min(1 − 0.2, 1) = 0.8 (Table I).
    let pms = write(
        &d,
        "pms.json",
        r#"{"pms":[{"vms":[{"name":"A","min":0.25,"max":0.67,"share":4,"demand":0.2},{"name":"B","min":0.1,"max":1,"share":8}]}]}"#,
    );
    let json = d.path().join("cap.json");
    let out = ok(&[
        "capacity",
        "pcec",
        pms.to_str().unwrap(),
        "--output",
        json.to_str().unwrap(),
    ]);
    let row = |name: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row {name} in {out}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(row("A")[7..], ["0.4667", "0.6700"]);
    assert_eq!(row("B")[7..], ["0.5333", "0.8000"]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let ec_b = v[0]["vms"][1]["ec"].as_f64().unwrap();
    assert!((ec_b - (0.1 + 8.0 * 0.65 / 12.0)).abs() < 1e-12, "{ec_b}");

    let vm = |min: &str, max: &str, share: &str| {
        format!(r#"{{"min":{min},"max":{max},"share":{share}}}"#)
    };
    let cases = [
        (
            format!(
                r#"{{"pms":[{{"vms":[{},{}]}}]}}"#,
                vm("0.6", "1", "1"),
                vm("0.5", "1", "1")
            ),
            vec!["pms[0].vms", "1.1", "sum of min"],
        ),
        (
            format!(r#"{{"pms":[{{"vms":[{}]}}]}}"#, vm("0.6", "0.5", "1")),
            vec!["pms[0].vms[0].min", "0.6", "exceeds max"],
        ),
        (
            format!(
                r#"{{"pms":[{{"vms":[{},{}]}}]}}"#,
                vm("0", "1", "1"),
                vm("0", "1", "0")
            ),
            vec!["pms[0].vms[1].share", "share must be"],
        ),
        (
            format!(r#"{{"pms":[{{"vms":[{}]}}]}}"#, vm("0", "1", "-2")),
            vec!["pms[0].vms[0].share", "-2"],
        ),
    ];
    for (k, (text, fragments)) in cases.iter().enumerate() {
        let name = format!("bad{k}.json");
        let p = write(&d, &name, text);
        let mut all = vec![name.as_str()];
        all.extend(fragments.iter().copied());
        expect_input_error(&["capacity", "pcec", p.to_str().unwrap()], &all);
    }
}

#[test]
fn simulate_writes_the_jobs_csv_and_a_summary_matching_solve() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("jobs.csv");
    let sol = d.path().join("pc.json");
    let shape = ["--pms", "4", "--vms-per-pm", "4", "--arrival-factor", "40"];
    let mut args = vec!["simulate", "pcec", TRACE, "--policy", "pc", "--fluid-bound"];
    args.extend(shape);
    args.extend(["--output", csv.to_str().unwrap()]);
    let out = ok(&args);
    let mut solve = vec!["solve", "pcec", TRACE, "--method", "pc"];
    solve.extend(shape);
    solve.extend(["--output", sol.to_str().unwrap()]);
    ok(&solve);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    let objective = v["certificate"]["objective"].as_f64().unwrap();

    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,submit,start,end,pm,vm,xf"));
    let xf: Vec<f64> = lines
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(xf.len(), v["jobs"].as_array().unwrap().len());
    let mean = xf.iter().sum::<f64>() / xf.len() as f64;
    assert!((mean - objective).abs() <= 1e-9 * objective);
    let after = |key: &str| -> f64 {
        let rest = &out[out.find(key).unwrap_or_else(|| panic!("{key} in {out}")) + key.len()..];
        rest.trim_start()
            .split([',', ' ', ';'])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!((after("mean XF") - objective).abs() <= 1e-4 * objective + 1e-4);
    let util = after("utilisation");
    assert!(util > 0.0 && util <= 1.0);
    let bound = after("any schedule:");
    assert!(
        bound > 1.0 && bound <= mean,
        "bound {bound}, mean XF {mean}"
    );

    expect_input_error(&["simulate", "pcec", TRACE], &["--policy", "required"]);
    expect_input_error(
        &["simulate", "pcec", TRACE, "--policy", "fifo"],
        &["--policy", "fifo"],
    );
    expect_input_error(
        &[
            "simulate",
            "pcec",
            TRACE,
            "--policy",
            "pc",
            "--vms-per-pm",
            "0",
        ],
        &["--vms-per-pm"],
    );
}
