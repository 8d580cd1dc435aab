//! Issue 39's readings through the command line: the §5.4 stand-in's statistics recomputed
//! here from its file, the first phase run to convergence, and the EC tie-break.

use crate::common;

use common::{expect_input_error, vcalloc_ok};

/// Runs `args` with `--output DIR/name` and reads the JSON written there.
fn run_json(dir: &std::path::Path, name: &str, args: &[&str]) -> serde_json::Value {
    let f = dir.join(name);
    let mut all = args.to_vec();
    all.extend(["--output", f.to_str().unwrap()]);
    vcalloc_ok(&all);
    serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap()
}

#[test]
fn google_stand_in_has_the_papers_statistics() {
    let d = tempfile::tempdir().unwrap();
    for seed in ["1", "2"] {
        let v = run_json(
            d.path(),
            &format!("g{seed}.json"),
            &[
                "generate",
                "periodic",
                "--stand-in",
                "google",
                "--seed",
                seed,
            ],
        );
        let c = v["capacity"].as_f64().unwrap();
        let jobs = v["jobs"].as_array().unwrap();
        let (mut tasks, mut largest, mut top, mut peaks) = (0.0, 0.0_f64, 0.0_f64, 0.0);
        let (mut mean, mut x, mut y) = (0.0, 0.0, 0.0);
        for j in jobs {
            let n = j["tasks"].as_f64().unwrap();
            let (m, a, p) = (
                j["mean"].as_f64().unwrap(),
                j["amplitude"].as_f64().unwrap(),
                j["phase"].as_f64().unwrap(),
            );
            assert!(a <= m && m + a <= c, "a task fits a node and ρ ≤ C_j");
            tasks += n;
            largest = largest.max(n);
            top = top.max(n * (m + a) / c);
            peaks += n * (m + a) / c;
            mean += n * m;
            x += n * a * p.cos();
            y += n * a * p.sin();
        }
        let overall = (mean + x.hypot(y)) / c;
        assert_eq!(jobs.len(), 89);
        assert_eq!((tasks, largest), (22_600.0, 1_608.0));
        for (ours, paper) in [(top, 184.0), (peaks, 2_198.0), (overall, 2_090.0)] {
            assert_eq!(ours.ceil(), paper, "{ours}");
            assert_eq!(ours.round(), paper, "{ours}");
        }
    }
    expect_input_error(
        &[
            "generate",
            "periodic",
            "--stand-in",
            "google",
            "--jobs",
            "5",
            "--seed",
            "1",
        ],
        &["--jobs", "fixed by --stand-in"],
    );
    expect_input_error(
        &["generate", "periodic", "--stand-in", "yahoo", "--seed", "1"],
        &["--stand-in", "yahoo"],
    );
}

#[test]
fn first_phase_to_convergence_proves_no_improving_column() {
    let d = tempfile::tempdir().unwrap();
    for phase in ["convergence", "paper"] {
        let v = run_json(
            d.path(),
            &format!("{phase}.json"),
            &[
                "solve",
                "periodic",
                "data/examples/periodic.json",
                "--method",
                "cg",
                "--first-phase",
                phase,
            ],
        );
        assert_eq!(v["certificate"]["stats"]["root_converged"], 1.0, "{phase}");
    }
    expect_input_error(
        &[
            "solve",
            "periodic",
            "data/examples/periodic.json",
            "--method",
            "cg",
            "--first-phase",
            "forever",
        ],
        &["--first-phase", "forever"],
    );
}

#[test]
fn ec_with_vm_major_ties_is_ec_lb() {
    let d = tempfile::tempdir().unwrap();
    let trace = "data/pcec/lcg-head-300.swf.gz";
    let mut xf = Vec::new();
    for (m, extra) in [
        ("ec-lb", vec![]),
        ("ec", vec!["--ec-tie-break", "vm-major"]),
        ("ec", vec![]),
    ] {
        let mut args = vec![
            "solve",
            "pcec",
            trace,
            "--method",
            m,
            "--pms",
            "4",
            "--arrival-factor",
            "40",
        ];
        args.extend(extra);
        let v = run_json(d.path(), &format!("{m}-{}.json", args.len()), &args);
        xf.push(v["certificate"]["objective"].as_f64().unwrap());
    }
    assert_eq!(xf[0], xf[1]);
    assert_ne!(xf[1], xf[2], "pm-major packs, vm-major spreads");
    expect_input_error(
        &[
            "solve",
            "pcec",
            trace,
            "--method",
            "ec",
            "--ec-tie-break",
            "lifo",
        ],
        &["--ec-tie-break", "lifo"],
    );
}
