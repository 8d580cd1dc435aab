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

/// Fig. 2's variants (issue 39): the paper's starting columns (`K_0` alone), the exact pricing
/// at every iteration and each master LP algorithm all converge to the same LP bound as the
/// default; a bad value is an input error naming it.
#[test]
fn fig2_variants_converge_to_the_same_bound() {
    let d = tempfile::tempdir().unwrap();
    let inst = "data/examples/periodic.json";
    let jobs = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(inst).unwrap())
        .unwrap()["jobs"]
        .as_array()
        .unwrap()
        .len() as f64;
    // The arguments of a `cg` solve with the settings `toml` (written to NAME.toml).
    let args = |name: &str, toml: &str| -> Vec<String> {
        let f = d.path().join(format!("{name}.toml"));
        std::fs::write(&f, toml).unwrap();
        ["solve", "periodic", inst, "--method", "cg", "--settings"]
            .iter()
            .map(|a| a.to_string())
            .chain([f.to_str().unwrap().to_string()])
            .collect()
    };
    let solve = |name: &str, toml: &str| {
        let a = args(name, toml);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run_json(d.path(), &format!("{name}.json"), &a)
    };
    let base = solve("base", "first_phase = \"paper\"\n");
    let bound = base["lp_bound"].as_f64().unwrap();
    assert!(
        base["certificate"]["stats"]["columns_initial"]
            .as_f64()
            .unwrap()
            > jobs
    );
    for (name, toml) in [
        ("k0", "first_phase = \"paper\"\ninitial_columns = \"k0\"\n"),
        (
            "exact",
            "first_phase = \"paper\"\n[pricing]\nexact_every_iteration = true\n",
        ),
        (
            "dual",
            "first_phase = \"paper\"\n[cg]\nmaster_lp = \"dual\"\n",
        ),
        (
            "primal",
            "first_phase = \"paper\"\n[cg]\nmaster_lp = \"primal\"\n",
        ),
        (
            "ipm",
            "first_phase = \"paper\"\n[cg]\nmaster_lp = \"ipm\"\n",
        ),
        (
            "ipm-no-crossover",
            "first_phase = \"paper\"\n[cg]\nmaster_lp = \"ipm-no-crossover\"\n",
        ),
    ] {
        let v = solve(name, toml);
        let stats = &v["certificate"]["stats"];
        assert_eq!(stats["root_converged"], 1.0, "{name}");
        let b = v["lp_bound"].as_f64().unwrap();
        assert!(
            (b - bound).abs() < 1e-5 * bound,
            "{name}: {b} against {bound}"
        );
        if name == "k0" {
            assert_eq!(stats["columns_initial"].as_f64().unwrap(), jobs);
        }
    }
    let bad = args("bad", "[cg]\nmaster_lp = \"barrier\"\n");
    let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
    expect_input_error(&bad, &["master_lp", "barrier"]);
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
