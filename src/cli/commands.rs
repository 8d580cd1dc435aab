//! One function per command. Exit codes: 0 success, 1 a verification failed, 2 bad input,
//! 3 a solver or consistency failure.

use super::args::{Cli, Command, GenerateProblem, SolveProblem, SolveVcsched};
use super::table;
use std::path::Path;
use vcalloc::vcsched::{self, Instance, Method, Settings, Solution};
use vcalloc::{Error, InputError, Location};

/// The demo instance, kept in `data/`.
const DEMO: &str = include_str!("../../data/vcsched-demo.json");

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Solve {
            problem: SolveProblem::Vcsched(a),
        } => solve(&a),
        Command::Solve {
            problem: SolveProblem::Periodic(a),
        } => super::periodic::solve(&a),
        Command::Verify {
            instance,
            solution,
            hosts,
            format,
        } => match super::periodic::is_periodic_solution(&solution) {
            true => super::periodic::verify(&instance, &solution, format),
            false => verify(&instance, &solution, hosts),
        },
        Command::Generate {
            problem: GenerateProblem::Vcsched(a),
        } => {
            let spec = vcsched::Spec {
                hosts: a.hosts,
                jobs: a.jobs,
                slack: a.slack,
                cv_mem: a.cv_mem,
                cv_cpu: a.cv_cpu,
                seed: a.seed,
                parallel: a.parallel,
            };
            let inst = match a.adaptation {
                None => vcsched::generate(&spec),
                Some(budget_fraction) => {
                    let p = vcsched::perturb::Perturbation {
                        budget_fraction,
                        ..Default::default()
                    };
                    vcsched::perturb::adaptation(&spec, &p, Some(60.0))
                }
            };
            inst.and_then(|inst| emit(&inst.to_json(), a.output.as_deref()))
        }
        Command::Generate {
            problem: GenerateProblem::Periodic(a),
        } => vcalloc::periodic::generate(a.tasks, a.amplitude, a.jobs, a.seed)
            .and_then(|inst| emit(&inst.to_json(), a.output.as_deref())),
        Command::ExportLp {
            instance,
            out,
            hosts,
            no_symmetry_breaking,
        } => export_lp(&instance, &out, hosts, !no_symmetry_breaking),
        Command::Demo => demo(),
        Command::Experiment { which } => super::experiment::run(which),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                Error::Input(_) => 2,
                Error::Io { .. } => 2,
                Error::Highs(_) | Error::Clarabel(_) | Error::Consistency(_) => 3,
            }
        }
    }
}

pub(super) fn emit(text: &str, output: Option<&Path>) -> vcalloc::Result<i32> {
    match output {
        Some(p) => std::fs::write(p, format!("{text}\n")).map_err(|source| Error::Io {
            path: p.to_path_buf(),
            source,
        })?,
        None => println!("{text}"),
    }
    Ok(0)
}

fn solve(a: &SolveVcsched) -> vcalloc::Result<i32> {
    let inst = Instance::load(&a.file, a.hosts)?;
    let mut settings = Settings {
        time_limit: a.time_limit,
        seed: a.seed,
        avg_phase: !a.no_avg_phase,
        max_attempts: a.max_attempts,
        mcb_tolerance: a.mcb_tolerance,
        symmetry_breaking: !a.no_symmetry_breaking,
        warm_start: !a.no_warm_start,
        budget: a.budget,
        relaxation: a.relaxation,
        ..Settings::default()
    };
    settings.highs.threads = a.threads;
    if a.threads == 0 {
        return Err(InputError::new(
            "<arguments>",
            Location::Argument("--threads".into()),
            "0",
            "must be at least 1",
        )
        .into());
    }
    let sol = vcsched::solve(&inst, a.method, &settings)?;
    emit(&sol.to_json(), a.output.as_deref())?;
    if a.output.is_some() {
        print!("{}", table::render(std::slice::from_ref(&sol)));
    }
    Ok(0)
}

fn verify(instance: &Path, solution: &Path, hosts: Option<usize>) -> vcalloc::Result<i32> {
    let inst = Instance::load(instance, hosts)?;
    let sol = Solution::load(solution)?;
    let violations = vcsched::verify(&inst, &sol);
    if violations.is_empty() {
        println!(
            "ok: {} solution by {} satisfies every constraint ({} jobs, {} tasks, {} hosts)",
            sol.status,
            sol.method,
            inst.num_jobs(),
            inst.num_tasks(),
            inst.hosts
        );
        Ok(0)
    } else {
        for v in &violations {
            println!("violated {v}");
        }
        Ok(1)
    }
}

fn export_lp(instance: &Path, out: &Path, hosts: Option<usize>, sym: bool) -> vcalloc::Result<i32> {
    let inst = Instance::load(instance, hosts)?;
    let text = vcsched::milp::lp_file(&inst, &instance.display().to_string(), sym);
    std::fs::write(out, text).map_err(|source| Error::Io {
        path: out.to_path_buf(),
        source,
    })?;
    Ok(0)
}

fn demo() -> vcalloc::Result<i32> {
    let inst = Instance::from_json(DEMO, Path::new("data/vcsched-demo.json"))?;
    println!(
        "VCSched demo: {} hosts, {} jobs (data/vcsched-demo.json); Σα = {:.3}, Σm = {:.3}\n",
        inst.hosts,
        inst.num_jobs(),
        inst.total_cpu(),
        inst.total_mem()
    );
    let settings = Settings::default();
    let mut rows = Vec::new();
    for m in [Method::Milp, Method::Mcb(8), Method::Gr] {
        let sol = vcsched::solve(&inst, m, &settings)?;
        let violations = vcsched::verify(&inst, &sol);
        if !violations.is_empty() {
            return Err(Error::Consistency(format!(
                "{m} failed verification: {}",
                violations[0]
            )));
        }
        rows.push(sol);
    }
    print!("{}", table::render(&rows));
    println!("\nEvery row re-checked by `vcalloc verify`; the bound of the heuristics is the LP bound (§3.1).");
    Ok(0)
}
