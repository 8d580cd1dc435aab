//! Helpers shared by the integration tests: seeded random tiny instances.
#![allow(dead_code)]

use std::path::Path;
use vcalloc::vcsched::Instance;

#[allow(unused_imports)]
pub use vcalloc::vcsched::selfcheck::{tiny_adaptation, tiny_instance, tiny_parallel_instance};

/// Runs the `vcalloc` binary.
pub fn vcalloc(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .output()
        .unwrap()
}

/// Generates the small evolving instance of the MILP tests (3–4 apps, 16 nodes, seed 5) to
/// `path`.
pub fn small_evolving_instance(path: &str) {
    let out = vcalloc(&[
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
        path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Generates a small rebalance instance (2–3 nodes, seed 1) to `path`.
pub fn small_rebalance_instance(path: &str) {
    vcalloc_ok(&[
        "generate",
        "rebalance",
        "--seed",
        "1",
        "--nodes-min",
        "2",
        "--nodes-max",
        "3",
        "--output",
        path,
    ]);
}

/// `results.csv` as text without its timing cells (`seconds`, `verify_seconds`): every
/// other byte must match.
pub fn csv_without_seconds(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    assert!(text.ends_with('\n'), "a torn last line");
    assert!(!text.contains('"'), "quoted cells: split by commas below");
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    assert!(header.contains(&"seconds"));
    let keep: Vec<bool> = header
        .iter()
        .map(|h| *h != "seconds" && *h != "verify_seconds")
        .collect();
    text.lines()
        .map(|l| {
            let cells: Vec<&str> = l
                .split(',')
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| c)
                .collect();
            cells.join(",") + "\n"
        })
        .collect()
}

/// Runs the `vcalloc` binary, expecting success (else fails naming the arguments, stdout
/// and stderr).
pub fn vcalloc_ok(args: &[&str]) -> std::process::Output {
    let out = vcalloc(args);
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Generates the periodic instance of 4,000 jobs of small tasks (2 million tasks, seed 1) as
/// `dir/name`: a best fit over it takes seconds, its first master LP too. Returns the path.
pub fn two_million_periodic_tasks(dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name).to_str().unwrap().to_string();
    vcalloc_ok(&[
        "generate",
        "periodic",
        "--tasks",
        "small",
        "--amplitude",
        "large",
        "--jobs",
        "4000",
        "--seed",
        "1",
        "--output",
        &path,
    ]);
    path
}

/// Writes `text` to `name` in `dir`.
pub fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `args` and checks the bad-input contract: exit code 2, no panic, and every fragment
/// (file, field or line, value, reason) in the message.
pub fn expect_input_error(args: &[&str], fragments: &[&str]) {
    let out = vcalloc(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for f in fragments {
        assert!(err.contains(f), "`{f}` missing from: {err}");
    }
}

/// Solves `inst` with every method of `methods` and checks each answer against the true
/// optimum `truth` (`None`: infeasible), as the soak does
/// ([`vcalloc::vcsched::selfcheck::check_methods`]): fails naming the seed and every
/// disagreement. Returns how many methods found an allocation.
pub fn check_methods(
    inst: &Instance,
    truth: Option<f64>,
    methods: &[vcalloc::vcsched::Method],
    settings: &vcalloc::vcsched::Settings,
    seed: u64,
) -> usize {
    let mut r = vcalloc::problem::selfcheck::CaseReport::new("test", inst);
    let answers =
        vcalloc::vcsched::selfcheck::check_methods(&mut r, inst, truth, methods, settings);
    assert!(
        r.disagreements.is_empty(),
        "seed {seed}: {:?}",
        r.disagreements
    );
    answers.iter().filter(|s| s.min_yield().is_some()).count()
}

/// Optimal average job yield for `placement` with every yield at least `min_yield`, by an
/// independent `good_lp` model of the average-yield LP (RR-6692 §3.5): the oracle of the
/// adapter's model and of the sequential greedy.
pub fn optimal_avg_yield(inst: &Instance, placement: &[usize], min_yield: f64) -> f64 {
    use good_lp::{
        constraint, highs, variable, Expression, ProblemVariables, Solution, SolverModel,
    };
    let mut vars = ProblemVariables::new();
    let a: Vec<_> = inst
        .jobs
        .iter()
        .map(|j| vars.add(variable().min(j.cpu * min_yield).max(j.cpu)))
        .collect();
    let mut objective = Expression::from(0.0);
    for (x, j) in a.iter().zip(&inst.jobs) {
        objective += *x * (1.0 / (j.cpu * inst.num_jobs() as f64));
    }
    let mut model = vars.maximise(objective.clone()).using(highs);
    model.set_verbose(false);
    let task_jobs = inst.task_jobs();
    for h in 0..inst.hosts {
        let mut load = Expression::from(0.0);
        for (t, &p) in placement.iter().enumerate() {
            if p == h {
                load += a[task_jobs[t]];
            }
        }
        model = model.with(constraint!(load <= 1.0));
    }
    let sol = model
        .solve()
        .expect("the average-yield LP of a feasible placement");
    sol.eval(&objective)
}
