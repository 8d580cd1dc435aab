//! Periodic packing as a [`Problem`]: its methods, flags, sweep and report for the registry.

use super::{generate, report, Amplitude, Format, Instance, Method, Settings, Solution, TaskSize};
use crate::error::Result;
use crate::experiment::{expand, Plot, Row, SpecEntry};
use crate::problem::{Common, Flag, Problem, Sense, Sweep, SweepInstance, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The periodic-packing family (Belaid & Eyraud-Dubois 2015).
pub struct Periodic;

/// How a periodic file is read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Load {
    /// Input format (guessed from the content when absent).
    pub format: Option<Format>,
}

impl Validate for Load {}

/// A §5.3 generator specification.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenSpec {
    /// Task size class.
    pub tasks: TaskSize,
    /// Amplitude class.
    pub amplitude: Amplitude,
    /// Number of jobs.
    #[serde(default = "default_jobs")]
    pub jobs: usize,
    /// Seed of the random stream.
    pub seed: u64,
}

fn default_jobs() -> usize {
    100
}

impl Validate for GenSpec {}

const S: Target = Target::Settings;

impl Problem for Periodic {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "Periodic packing: tasks with sinusoidal demand on the fewest machines (Belaid 2015)";
    const SENSE: Sense = Sense::Minimize;
    type Instance = Instance;
    type Solution = Solution;
    type Method = Method;
    type Settings = Settings;
    type Load = Load;
    type Spec = GenSpec;
    type Memo = ();

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes("format", Target::Load, "format", "json|bpplib", "Input format (guessed from the content when absent)"),
            Flag::takes("integer-time-limit", S, "integer_time_limit", "SECONDS", "Cap on the integer finish of cg (default 10)"),
            Flag::takes("smoothing", S, "cg.smoothing", "ALPHA", "Wentges dual smoothing weight in [0, 1) (default 0: off)"),
            Flag::sets("exact-pricing", S, "pricing.exact_every_iteration", "true", "Run the exact pricing at every iteration (a Lagrangian bound each time)"),
            Flag::takes("node-relaxation", S, "pricing.node_solver", "directional|clarabel", "Node relaxation of the pricing branch-and-bound"),
            Flag::takes("node-bound", S, "pricing.node_bound", "integer|fractional", "Bound of the knapsack along a direction in the pricing"),
            Flag::takes("tasks", Target::Spec, "tasks", "large|medium|small", "Task size: large (means in (0,10], 50 tasks/job), medium ((0,5], 100), small ((0,1], 500)"),
            Flag::takes("amplitude", Target::Spec, "amplitude", "large|small", "Amplitude: large (in [0, C_j]) or small ([0, C_j/2])"),
            Flag::takes("jobs", Target::Spec, "jobs", "N", "Number of jobs (default 100)"),
        ]
    }

    fn configure(settings: &mut Settings, common: &Common) {
        if let Some(t) = common.threads {
            settings.highs.threads = t;
        }
    }

    fn load(path: &Path, load: &Load) -> Result<Instance> {
        Instance::load(path, load.format)
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        _memo: &(),
    ) -> Result<Solution> {
        super::solve_within(inst, method, settings, deadline)
    }

    fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
        super::verify(inst, sol)
    }

    fn check_bound(
        inst: &Instance,
        sol: &Solution,
        depth: crate::problem::Depth,
    ) -> crate::problem::BoundCheck {
        super::proof::check(inst, sol, depth)
    }

    fn generate(spec: &GenSpec) -> Result<Instance> {
        generate(spec.tasks, spec.amplitude, spec.jobs, spec.seed)
    }

    fn export_lp(
        inst: &Instance,
        _settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        Some(super::compact::lp_file(inst, name, format))
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/examples/periodic.json",
            include_str!("../../data/examples/periodic.json"),
            "bp",
            "bfd",
        ))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!("{} jobs, {} tasks", inst.jobs.len(), inst.num_tasks())
    }

    fn row_values(sol: &Solution) -> Vec<(&'static str, f64)> {
        vec![("iterations", f64::from(sol.iterations))]
    }

    fn table(sols: &[&Solution]) -> String {
        let mut out = format!(
            "{:<12} {:<10} {:>9} {:>12} {:>10} {:>7} {:>6} {:>9}\n",
            "method", "status", "machines", "lower bound", "lp bound", "gap", "iter", "seconds"
        );
        for sol in sols {
            out.push_str(&format!(
                "{:<12} {:<10} {:>9} {:>12} {:>10} {:>7} {:>6} {:>9.3}\n",
                sol.method,
                sol.status.as_str(),
                sol.machines().map_or("-".into(), |m| m.to_string()),
                sol.lower_bound(),
                sol.lp_bound.map_or("-".into(), |b| format!("{b:.3}")),
                sol.gap.map_or("-".into(), |g| format!("{:.2}%", 100.0 * g)),
                sol.iterations,
                sol.seconds
            ));
        }
        out
    }

    fn sweeps() -> Vec<Sweep<GenSpec>> {
        vec![Sweep {
            name: "periodic-synthetic",
            title: "Belaid 2015 §5.3: six scenarios of 100 jobs",
            per_spec: 20,
            methods: ["cg", "bfd", "mm", "mmm", "lower-bound"]
                .map(String::from)
                .to_vec(),
            columns: vec!["jobs", "tasks", "amplitude"],
            instances: synthetic,
        }]
    }

    fn report(_set: &str, rows: &[&Row]) -> (String, Vec<Plot>) {
        let mut out = String::new();
        let mut plots = Vec::new();
        report::periodic_report(&mut out, rows, &mut plots);
        (out, plots)
    }
}

/// Task size × amplitude, 100 jobs each.
fn synthetic(per_spec: usize, base_seed: u64) -> Vec<SweepInstance<GenSpec>> {
    let mut specs = Vec::new();
    for (tn, tasks) in [
        ("large", TaskSize::Large),
        ("medium", TaskSize::Medium),
        ("small", TaskSize::Small),
    ] {
        for (an, amplitude) in [("large", Amplitude::Large), ("small", Amplitude::Small)] {
            specs.push(SpecEntry {
                id: format!("t{tn}-a{an}"),
                group: specs.len(),
                params: vec![
                    ("jobs", "100".to_string()),
                    ("tasks", tn.to_string()),
                    ("amplitude", an.to_string()),
                ],
                spec: GenSpec {
                    tasks,
                    amplitude,
                    jobs: 100,
                    seed: 0,
                },
            });
        }
    }
    expand(specs, per_spec, base_seed, |s, seed| GenSpec { seed, ..*s })
}
