//! The `vcalloc` command end to end: generate → solve (every method) → verify, CSV input,
//! reproducibility, the golden LP file, and HiGHS reading the exported LP.

use crate::common;

use common::vcalloc;
use std::path::Path;
use vcalloc::vcsched::{milp, solve, Instance, Method, Settings, Solution};

fn ok(args: &[&str]) -> String {
    let out = vcalloc(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const GEN: [&str; 12] = [
    "generate", "vcsched", "--hosts", "4", "--jobs", "10", "--slack", "0.5", "--cv-mem", "0.25",
    "--cv-cpu", "0.75",
];

#[test]
fn generate_is_reproducible_and_seed_dependent() {
    let a = ok(&[&GEN[..], &["--seed", "3"]].concat());
    let b = ok(&[&GEN[..], &["--seed", "3"]].concat());
    let c = ok(&[&GEN[..], &["--seed", "4"]].concat());
    assert_eq!(a, b);
    assert_ne!(a, c);
    let inst = Instance::from_json(&a, Path::new("gen")).unwrap();
    assert_eq!((inst.hosts, inst.num_jobs()), (4, 10));
}

#[test]
fn every_method_solves_and_verifies_through_the_cli() {
    let d = tempfile::tempdir().unwrap();
    let inst = d.path().join("inst.json");
    let inst_s = inst.to_str().unwrap();
    ok(&[&GEN[..], &["--seed", "11", "--output", inst_s]].concat());
    for m in Method::all() {
        let sol = d.path().join(format!("{m}.json"));
        let sol_s = sol.to_str().unwrap();
        let table = ok(&[
            "solve",
            "vcsched",
            inst_s,
            "--method",
            &m.name(),
            "--output",
            sol_s,
        ]);
        assert!(table.contains(&m.name()), "{table}");
        let verdict = ok(&["verify", inst_s, sol_s]);
        assert!(verdict.starts_with("ok:"), "{verdict}");
        let parsed = Solution::load(&sol).unwrap();
        assert_eq!(parsed.method, m.name());
    }
}

#[test]
fn solution_json_goes_to_stdout_without_output() {
    let text = ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "sg",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in [
        "problem",
        "method",
        "status",
        "sense",
        "objective",
        "bound",
        "gap",
        "seconds",
    ] {
        assert!(
            v["certificate"].get(key).is_some(),
            "missing certificate.{key}"
        );
    }
    assert_eq!(v["certificate"]["problem"], "vcsched");
    assert_eq!(v["certificate"]["sense"], "maximize");
    for key in ["avg_yield", "jobs"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["jobs"].as_array().unwrap().len(), 12);
}

#[test]
fn csv_instances_solve_like_their_json_twin() {
    let d = tempfile::tempdir().unwrap();
    let inst = Instance::load(Path::new("data/vcsched-demo.json"), None).unwrap();
    let mut csv = String::from("cpu,mem\n");
    for j in &inst.jobs {
        csv.push_str(&format!("{},{}\n", j.cpu, j.mem));
    }
    let p = d.path().join("demo.csv");
    std::fs::write(&p, csv).unwrap();
    let hosts = inst.hosts.to_string();
    let from_csv = ok(&[
        "solve",
        "vcsched",
        p.to_str().unwrap(),
        "--hosts",
        &hosts,
        "--method",
        "mcb8",
    ]);
    let from_json = ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb8",
    ]);
    let (a, b): (Solution, Solution) = (
        serde_json::from_str(&from_csv).unwrap(),
        serde_json::from_str(&from_json).unwrap(),
    );
    assert_eq!(a.jobs, b.jobs);
    assert_eq!(a.min_yield(), b.min_yield());
}

#[test]
fn randomised_methods_are_reproducible_from_their_seed() {
    let run = |seed: &str| {
        let s: Solution = serde_json::from_str(&ok(&[
            "solve",
            "vcsched",
            "data/vcsched-demo.json",
            "--method",
            "rrnz",
            "--seed",
            seed,
        ]))
        .unwrap();
        s.placement()
    };
    assert_eq!(run("5"), run("5"));
    let distinct: std::collections::HashSet<_> = (0..8).map(|s| run(&s.to_string())).collect();
    assert!(distinct.len() > 1, "the seed changes nothing");
}

#[test]
fn no_avg_phase_grants_exactly_the_minimum_yield() {
    let s: Solution = serde_json::from_str(&ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb8",
        "--no-avg-phase",
    ]))
    .unwrap();
    let (min, avg) = (s.min_yield().unwrap(), s.avg_yield.unwrap());
    assert!((min - avg).abs() <= 1e-12, "{min} vs {avg}");
}

#[test]
fn verify_names_the_violated_constraint_and_exits_1() {
    let d = tempfile::tempdir().unwrap();
    let mut s: Solution = serde_json::from_str(&ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "gr",
    ]))
    .unwrap();
    s.jobs[0].cpu = 2.0; // more than any α_i ≤ 1
    let p = d.path().join("broken.json");
    std::fs::write(&p, s.to_json()).unwrap();
    let out = vcalloc(&["verify", "data/vcsched-demo.json", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("violated job-cpu"));
}

/// `vcalloc demo`: every family's exact method and heuristic in one table (VCSched's `milp`
/// and `mcb8` among them), each row with its bound and gap.
#[test]
fn demo_prints_every_family() {
    let text = ok(&["demo"]);
    for m in [
        "vcsched",
        "periodic",
        "evolving",
        "pcec",
        "rebalance",
        "binpacking",
        "socbp",
        "milp",
        "mcb8",
        "bound",
        "gap",
        "seconds",
        "14 answers",
    ] {
        assert!(text.contains(m), "{m} missing: {text}");
    }
}

#[test]
fn golden_lp_file_is_unchanged() {
    let inst = Instance::load(Path::new("data/vcsched-demo.json"), None).unwrap();
    let now = milp::lp_file(&inst, "data/vcsched-demo.json", true);
    let golden = std::fs::read_to_string("models/vcsched-demo.lp").unwrap();
    assert!(
        now == golden,
        "the MILP changed; if on purpose, run `vcalloc export-lp vcsched data/vcsched-demo.json --out models/vcsched-demo.lp` and update models/vcsched.md"
    );
}

/// HiGHS reads the exported file on its own and finds the optimum our MILP reports.
#[test]
fn highs_reads_the_exported_lp_and_agrees() {
    let d = tempfile::tempdir().unwrap();
    for seed in 0..6 {
        let inst_path = d.path().join(format!("i{seed}.json"));
        let lp_path = d.path().join(format!("i{seed}.lp"));
        generate_3x7(&inst_path, seed, "0.6", "0.25", "0.75", &[]);
        for sym in [true, false] {
            let mut args = vec![
                "export-lp",
                "vcsched",
                inst_path.to_str().unwrap(),
                "--out",
                lp_path.to_str().unwrap(),
            ];
            if !sym {
                args.push("--no-symmetry-breaking");
            }
            ok(&args);
            let inst = Instance::load(&inst_path, None).unwrap();
            let ours = solve(&inst, Method::Milp, &Settings::default()).unwrap();
            let theirs = solve_lp_file_with_highs(&lp_path);
            match (ours.min_yield(), theirs) {
                (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-6, "seed {seed}: {a} vs {b}"),
                (None, None) => {}
                other => panic!("seed {seed}: {other:?}"),
            }
        }
    }
}

/// `generate vcsched` with 3 hosts and 7 jobs into `path`.
fn generate_3x7(path: &Path, seed: u64, slack: &str, cv_mem: &str, cv_cpu: &str, extra: &[&str]) {
    let seed = seed.to_string();
    let mut args = vec![
        "generate", "vcsched", "--hosts", "3", "--jobs", "7", "--slack", slack, "--cv-mem", cv_mem,
        "--cv-cpu", cv_cpu, "--seed", &seed, "--output",
    ];
    args.push(path.to_str().unwrap());
    args.extend_from_slice(extra);
    ok(&args);
}

fn solve_lp_file_with_highs(path: &Path) -> Option<f64> {
    use highs_sys::*;
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a fresh HiGHS instance, used and destroyed here; strings outlive the calls.
    unsafe {
        let h = Highs_create();
        Highs_setBoolOptionValue(h, c"output_flag".as_ptr(), 0);
        assert_eq!(
            Highs_readModel(h, name.as_ptr()),
            0,
            "HiGHS could not read {path:?}"
        );
        Highs_run(h);
        let status = Highs_getModelStatus(h);
        let value = (status == MODEL_STATUS_OPTIMAL).then(|| Highs_getObjectiveValue(h));
        Highs_destroy(h);
        value
    }
}

/// Parallel jobs and adaptation through the binary: generate, solve, verify; and HiGHS, reading
/// the exported LP of equations 12–21 and 31 on its own, agrees with `milp` (which solves an
/// adaptation through its budget-free relaxation first).
#[test]
fn parallel_and_adaptation_instances_end_to_end() {
    let d = tempfile::tempdir().unwrap();
    for (seed, extra) in [
        (1, "--parallel"),
        (2, "--parallel"),
        (3, "--adaptation=0.1"),
        (4, "--adaptation=0.3"),
    ] {
        let inst_path = d.path().join(format!("i{seed}.json"));
        let inst_s = inst_path.to_str().unwrap();
        generate_3x7(&inst_path, seed, "0.5", "0.5", "0.5", &[extra]);
        let inst = Instance::load(&inst_path, None).unwrap();
        assert_eq!(inst.is_adaptation(), extra.starts_with("--adaptation"));
        for m in ["milp", "adapt", "mcb8", "sg"] {
            let sol = d.path().join(format!("{seed}-{m}.json"));
            let sol_s = sol.to_str().unwrap();
            ok(&["solve", "vcsched", inst_s, "--method", m, "--output", sol_s]);
            let verdict = ok(&["verify", inst_s, sol_s]);
            assert!(verdict.starts_with("ok:"), "{verdict}");
        }
        let lp_path = d.path().join(format!("i{seed}.lp"));
        ok(&[
            "export-lp",
            "vcsched",
            inst_s,
            "--out",
            lp_path.to_str().unwrap(),
        ]);
        let ours = solve(&inst, Method::Milp, &Settings::default()).unwrap();
        match (ours.min_yield(), solve_lp_file_with_highs(&lp_path)) {
            // HiGHS's default MIP feasibility tolerance (1e-6) lets `Y` overshoot row c11.
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-5, "seed {seed}: {a} vs {b}"),
            (None, None) => {}
            other => panic!("seed {seed}: {other:?}"),
        }
        if inst.is_adaptation() {
            let zero = d.path().join(format!("{seed}-zero.json"));
            ok(&[
                "solve",
                "vcsched",
                inst_s,
                "--method",
                "adapt",
                "--budget",
                "0",
                "--output",
                zero.to_str().unwrap(),
            ]);
            let sol = Solution::load(&zero).unwrap();
            assert_eq!(
                (
                    sol.budget,
                    sol.migration.filter(|_| sol.min_yield().is_some())
                ),
                (Some(0.0), sol.min_yield().map(|_| 0.0))
            );
        }
    }
}
