//! VCSched as a [`Problem`]: its methods, flags, sweeps and report for the registry.

use super::{generate, perturb, report, Instance, Method, Settings, SharedRelaxation, Solution};
use crate::error::Result;
use crate::experiment::{expand, Plot, Row, SpecEntry};
use crate::problem::{
    Common, Flag, Invalid, Problem, Sense, Sweep, SweepInstance, Target, Validate,
};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The VCSched family (RR-6692).
pub struct VcSched;

/// How a VCSched file is read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Load {
    /// Hosts of a CSV instance (a JSON instance names its own).
    pub hosts: Option<usize>,
    /// The file's format (by default its extension's, else its content's).
    pub format: Option<super::Format>,
}

impl Validate for Load {}

/// A generator specification: §4.1 (or §5.2 with `parallel`), optionally turned into a §6
/// adaptation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenSpec {
    /// Hosts H.
    pub hosts: usize,
    /// Jobs J (with `parallel`: tasks).
    pub jobs: usize,
    /// Memory slack in [0, 1).
    pub slack: f64,
    /// Coefficient of variation of memory needs.
    pub cv_mem: f64,
    /// Coefficient of variation of CPU needs.
    pub cv_cpu: f64,
    /// Seed of the random stream.
    pub seed: u64,
    /// Parallel jobs with Lublin–Feitelson task counts.
    #[serde(default)]
    pub parallel: bool,
    /// An adaptation with this budget fraction of the staying tasks' memory.
    #[serde(default)]
    pub adaptation: Option<f64>,
    /// Seconds each MILP of the adaptation's base optimum may take.
    #[serde(default = "default_adaptation_seconds")]
    pub adaptation_milp_seconds: f64,
}

fn default_adaptation_seconds() -> f64 {
    60.0
}

impl Validate for GenSpec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if !(self.adaptation_milp_seconds.is_finite() && self.adaptation_milp_seconds > 0.0) {
            return Err(Invalid::new(
                "adaptation_milp_seconds",
                self.adaptation_milp_seconds,
                "must be a positive number of seconds",
            ));
        }
        Ok(())
    }
}

impl GenSpec {
    fn base(&self) -> generate::Spec {
        generate::Spec {
            hosts: self.hosts,
            jobs: self.jobs,
            slack: self.slack,
            cv_mem: self.cv_mem,
            cv_cpu: self.cv_cpu,
            seed: self.seed,
            parallel: self.parallel,
        }
    }

    fn of(base: generate::Spec, adaptation: Option<f64>) -> Self {
        GenSpec {
            hosts: base.hosts,
            jobs: base.jobs,
            slack: base.slack,
            cv_mem: base.cv_mem,
            cv_cpu: base.cv_cpu,
            seed: base.seed,
            parallel: base.parallel,
            adaptation,
            adaptation_milp_seconds: default_adaptation_seconds(),
        }
    }
}

const S: Target = Target::Settings;

impl Problem for VcSched {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "VCSched: maximise the minimum yield of jobs on identical hosts (RR-6692)";
    const SENSE: Sense = Sense::Maximize;
    type Instance = Instance;
    type Solution = Solution;
    type Method = Method;
    type Settings = Settings;
    type Load = Load;
    type Spec = GenSpec;
    type Memo = SharedRelaxation;

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes(
                "hosts",
                Target::Load,
                "hosts",
                "N",
                "Number of hosts, for a CSV instance",
            ),
            Flag::takes(
                "format",
                Target::Load,
                "format",
                "json|csv",
                "Input format (default: the extension's, else the content's: `{` → JSON)",
            ),
            Flag::takes(
                "budget",
                S,
                "budget",
                "UNITS",
                "Adaptation: migration budget in memory units (overrides the instance's)",
            ),
            Flag::sets(
                "no-avg-phase",
                S,
                "avg_phase",
                "false",
                "Skip the average-yield phase (§3.5)",
            ),
            Flag::takes(
                "max-attempts",
                S,
                "max_attempts",
                "N",
                "GB/SGB: cap on job placement attempts",
            ),
            Flag::takes(
                "mcb-tolerance",
                S,
                "mcb_tolerance",
                "W",
                "MCB: yield bracket width at which the binary search stops",
            ),
            Flag::takes(
                "mcb-score",
                S,
                "mcb_score",
                "placement|search",
                "MCB: score by the placement's optimal minimum yield (default) or by the binary search's yield (the paper's)",
            ),
            Flag::sets(
                "no-symmetry-breaking",
                S,
                "symmetry_breaking",
                "false",
                "MILP: leave out the symmetry-breaking bounds",
            ),
            Flag::sets(
                "no-warm-start",
                S,
                "warm_start",
                "false",
                "MILP: do not seed HiGHS with the MCB8 placement",
            ),
            Flag::takes(
                "relaxation",
                S,
                "relaxation",
                "face|full",
                "lp-bound, RRND, RRNZ: the LP giving the relaxation's point",
            ),
            Flag::takes("hosts", Target::Spec, "hosts", "H", "Hosts"),
            Flag::takes(
                "jobs",
                Target::Spec,
                "jobs",
                "J",
                "Jobs (with --parallel: tasks)",
            ),
            Flag::takes(
                "slack",
                Target::Spec,
                "slack",
                "S",
                "Memory slack in [0, 1): mean memory need is H (1 − slack) / J",
            ),
            Flag::takes(
                "cv-mem",
                Target::Spec,
                "cv_mem",
                "CV",
                "Coefficient of variation of memory needs",
            ),
            Flag::takes(
                "cv-cpu",
                Target::Spec,
                "cv_cpu",
                "CV",
                "Coefficient of variation of CPU needs (mean 0.5)",
            ),
            Flag::sets(
                "parallel",
                Target::Spec,
                "parallel",
                "true",
                "Parallel jobs with Lublin–Feitelson task counts (§5.2)",
            ),
            Flag::takes(
                "adaptation",
                Target::Spec,
                "adaptation",
                "FRACTION",
                "A §6 adaptation with budget FRACTION × the staying tasks' memory",
            ),
        ]
    }

    fn configure(settings: &mut Settings, common: &Common) {
        if let Some(s) = common.seed {
            settings.seed = s;
        }
        if let Some(t) = common.threads {
            settings.highs.threads = t;
        }
    }

    fn load(path: &Path, load: &Load) -> Result<Instance> {
        Instance::load_as(path, load.hosts, load.format)
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        memo: &SharedRelaxation,
    ) -> Result<Solution> {
        super::solve_sharing(inst, method, settings, deadline, memo)
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
        match spec.adaptation {
            None => generate::generate(&spec.base()),
            Some(budget_fraction) => {
                let p = perturb::Perturbation {
                    budget_fraction,
                    ..Default::default()
                };
                perturb::adaptation(&spec.base(), &p, Some(spec.adaptation_milp_seconds))
            }
        }
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/vcsched-demo.json",
            include_str!("../../data/vcsched-demo.json"),
            "milp",
            "mcb8",
        ))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!(
            "{} jobs, {} tasks, {} hosts",
            inst.num_jobs(),
            inst.num_tasks(),
            inst.hosts
        )
    }

    fn row_values(sol: &Solution) -> Vec<(&'static str, f64)> {
        let mut v = Vec::new();
        if let Some(a) = sol.avg_yield {
            v.push(("avg_yield", a));
        }
        if let Some(&y) = sol.stats.get("search_yield") {
            v.push(("search_yield", y));
        }
        if let Some(m) = sol.migration {
            v.push(("migration", m));
        }
        if let Some(i) = ["attempts", "trials", "highs_iterations", "moves"]
            .iter()
            .find_map(|k| sol.stats.get(*k).copied())
        {
            v.push(("iterations", i));
        }
        v
    }

    fn table(sols: &[&Solution]) -> String {
        super::table::render(sols)
    }

    fn export_lp(
        inst: &Instance,
        settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        Some(Ok(super::milp::model_file(
            inst,
            name,
            settings.symmetry_breaking,
            format,
        )))
    }

    fn sweeps() -> Vec<Sweep<GenSpec>> {
        super::sweeps::all()
    }

    fn studies() -> Vec<crate::problem::Study> {
        vec![crate::problem::Study {
            name: "vcsched-infeasible",
            title: "RR-6692 §4: the small set's infeasible count under each reading of §4.1's generator (--instances: sets of 1,440, default 5), and MCB8's large-set outliers examined",
            limits: None,
            run: super::study::run,
        }]
    }

    fn report(_set: &str, rows: &[&Row]) -> (String, Vec<Plot>) {
        let mut out = String::new();
        let mut plots = Vec::new();
        report::vcsched_report(&mut out, rows, &mut plots);
        (out, plots)
    }
}

/// A sweep's specifications expanded with their seeds.
pub(super) fn expanded(
    specs: Vec<SpecEntry<GenSpec>>,
    per_spec: usize,
    base_seed: u64,
) -> Vec<SweepInstance<GenSpec>> {
    expand(specs, per_spec, base_seed, |s, seed| GenSpec { seed, ..*s })
}

/// A sweep specification from a §4.1 specification.
pub(super) fn spec_of(base: generate::Spec, adaptation: Option<f64>) -> GenSpec {
    GenSpec::of(base, adaptation)
}
