//! Helpers shared by the integration tests: seeded random tiny instances.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use vcalloc::vcsched::{generate, Instance, Job, Spec};

/// A tiny random instance (1–`max_hosts` hosts, 1–`max_jobs` jobs) from `seed`: half of the
/// time drawn by the §4.1 generator with random parameters, half uniform in (0, 1].
pub fn tiny_instance(seed: u64, max_hosts: usize, max_jobs: usize) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hosts = rng.random_range(1..=max_hosts);
    let jobs = rng.random_range(1..=max_jobs);
    if rng.random_bool(0.5) {
        let spec = Spec {
            hosts,
            jobs,
            slack: rng.random_range(0.1..0.9),
            cv_mem: [0.25, 0.75][rng.random_range(0..2)],
            cv_cpu: [0.25, 0.75][rng.random_range(0..2)],
            seed: rng.random(),
            parallel: false,
        };
        if let Ok(inst) = generate(&spec) {
            return inst;
        }
    }
    let jobs = (0..jobs)
        .map(|_| {
            Job::new(
                1.0 - rng.random::<f64>(),
                (1.0 - rng.random::<f64>()) * rng.random_range(0.2..1.0),
            )
        })
        .collect();
    Instance::new(hosts, jobs, Path::new("<test>")).expect("valid by construction")
}

/// A tiny random instance with parallel jobs: 1–`max_hosts` hosts and jobs of 1–3 tasks, at
/// most `max_tasks` tasks in all.
pub fn tiny_parallel_instance(seed: u64, max_hosts: usize, max_tasks: usize) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_7A5C);
    let hosts = rng.random_range(1..=max_hosts);
    let total = rng.random_range(1..=max_tasks);
    let mut jobs = Vec::new();
    let mut placed = 0;
    while placed < total {
        let tasks = rng.random_range(1..=3u32).min((total - placed) as u32);
        placed += tasks as usize;
        jobs.push(Job {
            tasks,
            ..Job::new(
                1.0 - rng.random::<f64>(),
                (1.0 - rng.random::<f64>()) * rng.random_range(0.1..0.7),
            )
        });
    }
    Instance::new(hosts, jobs, Path::new("<test>")).expect("valid by construction")
}

/// A tiny adaptation: a tiny (possibly parallel) instance whose tasks run on random hosts
/// (each new with probability 0.3), with a budget drawn between 0 and the total memory.
pub fn tiny_adaptation(seed: u64, max_hosts: usize, max_tasks: usize) -> Instance {
    let mut inst = tiny_parallel_instance(seed, max_hosts, max_tasks);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xADA7);
    let current = (0..inst.num_tasks())
        .map(|_| (!rng.random_bool(0.3)).then(|| rng.random_range(0..inst.hosts)))
        .collect();
    inst.current = Some(current);
    inst.budget = Some(rng.random_range(0.0..=inst.total_mem()));
    inst.validate(Path::new("<test>"))
        .expect("valid by construction");
    inst
}

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

/// `results.csv` as text without its `seconds` cells: every other byte must match.
pub fn csv_without_seconds(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    assert!(text.ends_with('\n'), "a torn last line");
    assert!(!text.contains('"'), "quoted cells: split by commas below");
    let col = text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == "seconds")
        .unwrap();
    text.lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(col);
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
/// optimum `truth` (`None`: infeasible): it passes `verify`; no heuristic beats the optimum;
/// no bound falls below it; `optimal` and `infeasible` are claimed only when true; `milp`
/// finds the optimum. Returns how many methods found an allocation.
pub fn check_methods(
    inst: &Instance,
    truth: Option<f64>,
    methods: &[vcalloc::vcsched::Method],
    settings: &vcalloc::vcsched::Settings,
    seed: u64,
) -> usize {
    use vcalloc::vcsched::{solve, verify, Method};
    use vcalloc::Status;
    let mut found = 0;
    for &m in methods {
        let sol = solve(inst, m, settings).unwrap();
        let v = verify(inst, &sol);
        assert!(v.is_empty(), "seed {seed}, {m}: {v:?}");
        if let (Some(ub), Some(y)) = (sol.upper_bound(), truth) {
            assert!(
                ub >= y - 1e-9,
                "seed {seed}: {m} bound {ub} below optimum {y}"
            );
        }
        match (sol.min_yield(), truth) {
            (Some(got), Some(y)) => {
                found += 1;
                assert!(
                    got <= y + 1e-9,
                    "seed {seed}: {m} found {got} > optimum {y}"
                );
                if sol.status == Status::Optimal || m == Method::Milp {
                    assert!(got >= y - 1e-6, "seed {seed}: {m} at {got}, optimum {y}");
                }
            }
            (Some(got), None) => panic!("seed {seed}: {m} found {got} on an infeasible instance"),
            (None, Some(_)) => assert!(
                m != Method::Milp && sol.status == Status::Unknown,
                "seed {seed}: {m} ended {} on a feasible instance",
                sol.status
            ),
            (None, None) => assert!(
                m == Method::LpBound || matches!(sol.status, Status::Unknown | Status::Infeasible),
                "seed {seed}: {m}"
            ),
        }
        if m == Method::Milp && truth.is_none() {
            assert_eq!(sol.status, Status::Infeasible, "seed {seed}");
        }
    }
    found
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
