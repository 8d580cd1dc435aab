//! Periodic packing as a [`Problem`]: its methods, flags, sweep and report for the registry.

use super::{generate, report, Amplitude, Format, Instance, Method, Settings, Solution, TaskSize};
use crate::error::Result;
use crate::experiment::{expand, Plot, Row, SpecEntry};
use crate::problem::{
    Common, Flag, Invalid, Problem, Sense, Study, Sweep, SweepInstance, Target, Validate,
};
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

/// A generator specification: a §5.3 scenario, or the §5.4 stand-in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenSpec {
    /// Task size class (§5.3; required unless `stand_in`).
    #[serde(default)]
    pub tasks: Option<TaskSize>,
    /// Amplitude class (§5.3; required unless `stand_in`).
    #[serde(default)]
    pub amplitude: Option<Amplitude>,
    /// Number of jobs (§5.3; default 100).
    #[serde(default)]
    pub jobs: Option<usize>,
    /// A paper instance generated to its published statistics instead of a §5.3 scenario.
    #[serde(default)]
    pub stand_in: Option<StandIn>,
    /// Seed of the random stream.
    pub seed: u64,
}

/// Paper instances the generator stands in for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StandIn {
    /// §5.4: the Google-trace instance (89 jobs, 22,600 tasks; `periodic::google`).
    Google,
}

impl std::str::FromStr for StandIn {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "google" => Ok(StandIn::Google),
            _ => Err(format!("unknown stand-in `{s}`; expected google")),
        }
    }
}

impl Validate for GenSpec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        match self.stand_in {
            Some(_) => {
                for (k, given) in [
                    ("tasks", self.tasks.is_some()),
                    ("amplitude", self.amplitude.is_some()),
                    ("jobs", self.jobs.is_some()),
                ] {
                    if given {
                        return Err(Invalid::new(k, "given", "is fixed by --stand-in; omit it"));
                    }
                }
            }
            None => match (self.tasks.is_some(), self.amplitude.is_some()) {
                (false, false) => {
                    return Err(Invalid::new(
                        "tasks",
                        "missing",
                        "--tasks large|medium|small, --amplitude large|small: 2 options are \
                         required and missing (or --stand-in google)",
                    ))
                }
                (false, true) | (true, false) => {
                    let k = if self.tasks.is_none() {
                        "tasks"
                    } else {
                        "amplitude"
                    };
                    return Err(Invalid::new(
                        k,
                        "missing",
                        "is required (or --stand-in google)",
                    ));
                }
                (true, true) => {}
            },
        }
        Ok(())
    }
}

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
            Flag::takes("stand-in", Target::Spec, "stand_in", "google", "The §5.4 Google instance generated to the paper's statistics (instead of --tasks/--amplitude/--jobs)"),
            Flag::takes("first-phase", S, "first_phase", "bound-closure|convergence|paper", "How far cg's first phase runs: to bound closure (default), to convergence, or the paper's (convergence, one column per iteration)"),
        ]
    }

    fn configure(settings: &mut Settings, common: &Common) {
        if let Some(t) = common.threads {
            settings.highs.threads = t;
            settings.pricing.threads = t as usize;
        }
        settings.apply_first_phase();
    }

    const EXTENSIONS: &'static [&'static str] = &["json"];
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
        match (spec.stand_in, spec.tasks, spec.amplitude) {
            (Some(StandIn::Google), _, _) => super::google::generate_google(spec.seed),
            (None, Some(tasks), Some(amplitude)) => {
                generate(tasks, amplitude, spec.jobs.unwrap_or(100), spec.seed)
            }
            _ => Err(crate::error::InputError::new(
                "<arguments>",
                crate::error::Location::Argument("tasks, amplitude".into()),
                "",
                "--tasks and --amplitude are required (or --stand-in google)",
            )
            .into()),
        }
    }

    fn studies() -> Vec<Study> {
        vec![Study {
            name: "periodic-google",
            title: "Belaid 2015 §5.4 Table 1 on a stand-in generated to the paper's statistics (cg, bfd, mm, mmm, bp)",
            limits: Some("each method's solve (default 120 s)"),
            run: super::google_study::run,
        }]
    }

    fn export_lp(
        inst: &Instance,
        settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        Some(super::compact::lp_file(inst, name, format, &settings.highs))
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
        let mut v = vec![("iterations", f64::from(sol.iterations))];
        // The first phase (Fig. 2): the root's own record, where column generation ran.
        for (k, key) in [
            ("root_iterations", "root_iterations"),
            ("root_seconds", "root_seconds"),
            ("root_converged", "root_converged"),
        ] {
            if let Some(&x) = sol.certificate.stats.get(key) {
                v.push((k, x));
            }
        }
        v
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
            columns: vec![
                "jobs",
                "tasks",
                "amplitude",
                "root_iterations",
                "root_seconds",
                "root_converged",
            ],
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
                    tasks: Some(tasks),
                    amplitude: Some(amplitude),
                    jobs: Some(100),
                    stand_in: None,
                    seed: 0,
                },
            });
        }
    }
    expand(specs, per_spec, base_seed, |s, seed| GenSpec { seed, ..*s })
}
