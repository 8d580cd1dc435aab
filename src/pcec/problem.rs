//! PC/EC as a [`Problem`]: the simulation's policies, flags and the paper's study for the
//! registry.

use super::experiment::{run, ExperimentSpec};
use super::{generate, GenSpec, Instance, Method, Settings, Solution, SwfOptions, VmSpec};
use crate::error::Result;
use crate::problem::{Common, Flag, Invalid, Problem, Sense, Study, StudyArgs, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The VM capacity metrics family (Liu et al.).
pub struct Pcec;

/// How an instance is read: JSON as it is; an SWF trace (`.swf`, `.swf.gz`) onto a cluster of
/// this shape, serial jobs only, submit times shifted to 0.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Load {
    /// PMs of a trace's cluster (paper: 30).
    pub pms: usize,
    /// VMs per PM (paper: 4).
    pub vms_per_pm: usize,
    /// Keep the first this many serial jobs of a trace (paper: 10,000).
    pub jobs: Option<usize>,
    /// The file's format (by default its extension's, else its content's).
    pub format: Option<Format>,
}

/// The formats of a PC/EC input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The instance JSON.
    Json,
    /// A Standard Workload Format trace, plain or gzip-compressed.
    Swf,
}

impl Default for Load {
    fn default() -> Self {
        Load {
            pms: 30,
            vms_per_pm: 4,
            jobs: None,
            format: None,
        }
    }
}

impl Validate for Load {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.jobs == Some(0) {
            return Err(Invalid::new("jobs", 0, "must be at least 1"));
        }
        check_cluster(self.pms, self.vms_per_pm)
    }
}

/// At least one PM and one VM per PM, and at most [`super::instance::MAX_VMS`] VMs, each
/// failure naming its own field.
fn check_cluster(pms: usize, vms_per_pm: usize) -> std::result::Result<(), Invalid> {
    if pms == 0 {
        return Err(Invalid::new("pms", 0, "must be at least 1"));
    }
    if vms_per_pm == 0 {
        return Err(Invalid::new("vms_per_pm", 0, "must be at least 1"));
    }
    let max = super::instance::MAX_VMS;
    if pms.checked_mul(vms_per_pm).is_none_or(|n| n > max) {
        let why = format!("{pms} PMs × {vms_per_pm} VMs per PM exceeds the limit of {max} VMs");
        let key = if vms_per_pm >= pms {
            "vms_per_pm"
        } else {
            "pms"
        };
        let value = if key == "pms" { pms } else { vms_per_pm };
        return Err(Invalid::new(key, value, why));
    }
    Ok(())
}

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        Settings::validate(self).map_err(Invalid::from_message)
    }
}

impl Validate for GenSpec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        check_cluster(self.pms, self.vms_per_pm)?;
        if self.jobs == 0 {
            return Err(Invalid::new("jobs", 0, "must be at least 1"));
        }
        if !(self.mean_interarrival.is_finite() && self.mean_interarrival > 0.0) {
            return Err(Invalid::new(
                "mean_interarrival",
                self.mean_interarrival,
                "must be > 0",
            ));
        }
        if !(self.work_min.is_finite()
            && self.work_min > 0.0
            && self.work_max >= self.work_min
            && self.work_max.is_finite())
        {
            return Err(Invalid::new(
                "work_min",
                self.work_min,
                "need 0 < work_min ≤ work_max, finite",
            ));
        }
        Ok(())
    }
}

const S: Target = Target::Settings;
const L: Target = Target::Load;
const G: Target = Target::Spec;

impl Problem for Pcec {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "PC/EC: FCFS dispatch of jobs to VMs sharing PMs, by potential or equilibrium capacity (Liu et al.)";
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
            Flag::takes(
                "pms",
                L,
                "pms",
                "N",
                "PMs of a trace's cluster (default 30)",
            ),
            Flag::takes("vms-per-pm", L, "vms_per_pm", "N", "VMs per PM (default 4)"),
            Flag::takes(
                "jobs",
                L,
                "jobs",
                "N",
                "Keep the first N serial jobs of a trace",
            ),
            Flag::takes(
                "format",
                L,
                "format",
                "json|swf",
                "Input format (default: the extension's, else the content's: `{` → JSON)",
            ),
            Flag::takes(
                "arrival-factor",
                S,
                "arrival_factor",
                "F",
                "Multiply every submit time by F (> 1 lowers the load)",
            ),
            Flag::takes(
                "xf-threshold",
                S,
                "xf_threshold",
                "SECONDS",
                "Bounded-slowdown floor of Eq. 3 (default 10)",
            ),
            Flag::takes(
                "bins",
                S,
                "bins",
                "N",
                "Arrival-time bins of the per-bin figures (default 50)",
            ),
            Flag::takes(
                "ec-tie-break",
                S,
                "ec_tie_break",
                "pm-major|vm-major|round-robin|random",
                "How ec orders free VMs of equal EC (default pm-major; random uses --tie-seed)",
            ),
            Flag::takes(
                "lower-bound",
                S,
                "lower_bound",
                "auto|fluid|closed-form",
                "The certificate's bound: the fluid LP (a dual proof), the closed form, or auto (the LP up to 1,000 jobs)",
            ),
            Flag::takes(
                "tie-seed",
                S,
                "tie_seed",
                "K",
                "Seed of the random EC tie-break (default 1)",
            ),
            Flag::takes("pms", G, "pms", "N", "PMs (default 2)"),
            Flag::takes("vms-per-pm", G, "vms_per_pm", "N", "VMs per PM (default 2)"),
            Flag::takes("jobs", G, "jobs", "N", "Jobs (default 8)"),
            Flag::takes(
                "mean-interarrival",
                G,
                "mean_interarrival",
                "SECONDS",
                "Mean inter-arrival time",
            ),
        ]
    }

    fn configure(_settings: &mut Settings, _common: &Common) {}

    fn load(path: &Path, load: &Load) -> Result<Instance> {
        // `--format`, else the extension when it names a format, else the content (`{` opens
        // JSON): a trace through a pipe is SWF, gzip-compressed or not.
        let by_name = crate::input::format_by_extension(
            path,
            &[
                ("json", Format::Json),
                ("swf", Format::Swf),
                ("gz", Format::Swf),
            ],
        );
        let format = match load.format.or(by_name) {
            Some(f) => f,
            None => {
                let bytes = crate::input::read_bytes(path)?;
                let first = bytes.iter().find(|c| !c.is_ascii_whitespace());
                match first {
                    Some(b'{') => Format::Json,
                    _ => Format::Swf,
                }
            }
        };
        let json = format == Format::Json;
        if json {
            return Instance::from_json(&crate::input::read_text(path)?, path);
        }
        let opts = SwfOptions {
            serial_only: true,
            max_jobs: load.jobs,
        };
        Instance::from_swf(path, &opts, load.pms, load.vms_per_pm, VmSpec::default())
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        _memo: &(),
    ) -> Result<Solution> {
        let began = std::time::Instant::now();
        let mut sol = super::solve(inst, method, settings)?;
        if settings
            .lower_bound
            .fluid(inst.jobs.len(), settings.fluid_auto_jobs)
        {
            super::solve::fluid_certificate(inst, settings, deadline, &mut sol)?;
        }
        sol.certificate.seconds = began.elapsed().as_secs_f64();
        Ok(sol)
    }

    fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
        super::verify(inst, sol)
    }

    fn check_bound(
        inst: &Instance,
        sol: &Solution,
        depth: crate::problem::Depth,
    ) -> crate::problem::BoundCheck {
        let _ = depth;
        let c = &sol.certificate;
        let closed = super::xf_lower_bound(inst, sol.settings.xf_threshold);
        crate::problem::proof::with_closed_form(c, Sense::Minimize, Some(closed), || {
            match &c.proof {
                Some(crate::problem::Proof::Dual { lp, duals }) if lp == super::fluid::LP_NAME => {
                    match super::fluid::check(inst, &sol.settings, duals) {
                        Ok(b) => crate::problem::proof::judge(c, Sense::Minimize, "dual", b),
                        Err(why) => crate::problem::BoundCheck::Refuted { why },
                    }
                }
                _ => crate::problem::BoundCheck::claimed_by(c),
            }
        })
    }

    fn export_lp(
        inst: &Instance,
        settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        Some(Ok(super::fluid::lp_file(inst, settings, name, format)))
    }

    fn generate(spec: &GenSpec) -> Result<Instance> {
        Ok(generate(spec, spec.seed))
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        let demo = crate::problem::demo::Demo::of(
            "data/examples/pcec.json",
            include_str!("../../data/examples/pcec.json"),
            "enumerate",
            "pc",
        );
        Some(crate::problem::demo::Demo {
            note: "enumerate is the best of every FCFS dispatch (exact over those), the bound the fluid LP's",
            ..demo
        })
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!(
            "{} jobs on {} PMs × {} VMs",
            inst.jobs.len(),
            inst.pms,
            inst.vms_per_pm
        )
    }

    fn tools() -> Vec<crate::problem::Tool> {
        super::tools::tools()
    }

    fn studies() -> Vec<Study> {
        vec![
            Study {
                name: "pcec-paper",
                title: "Liu et al. Figs. 5–7 on the SWF traces of --input (default ../shared/traces), and PC against the best non-delay FCFS dispatch on tiny instances",
                limits: None,
                run: paper_study,
            },
            Study {
                name: "pcec-bound",
                title: "EC, PC and EC-LB against the fluid LP lower bound on the mean XF of any schedule, on the traces of --input, and the bound against the best dispatch on tiny instances",
                limits: None,
                run: bound_study,
            },
        ]
    }
}

/// The paper's set-up with the traces taken from `--input` and `--instances` jobs per trace.
fn study_spec(args: &StudyArgs) -> ExperimentSpec {
    let mut spec = ExperimentSpec::default();
    if let Some(dir) = &args.input {
        for t in &mut spec.traces {
            let file = t
                .path
                .file_name()
                .map(|f| f.to_os_string())
                .unwrap_or_default();
            t.path = dir.join(file);
        }
    }
    if let Some(n) = args.count {
        spec.jobs = n;
    }
    spec
}

/// Figs. 5–7 and the enumeration study.
fn paper_study(args: &StudyArgs) -> Result<String> {
    let mut spec = study_spec(args);
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    spec.settings.ec_tie_break = settings.ec_tie_break;
    spec.settings.tie_seed = settings.tie_seed;
    let report = run(&spec)?;
    super::plot::write_plots(&report, &args.out)?;
    let readings = super::readings::all(&spec)?;
    let tiny = GenSpec {
        seed: args.seed,
        ..GenSpec::default()
    };
    let enumeration = super::enumerate::study(&tiny, 200, &settings)?;
    Ok(format!(
        "{}\n\n{}\n\n{}",
        report.to_markdown(),
        super::readings::to_markdown(&readings),
        enumeration.to_markdown()
    ))
}

/// The fluid LP bound against the policies (`--settings` sets the LP's window and grid).
fn bound_study(args: &StudyArgs) -> Result<String> {
    let mut spec = study_spec(args);
    // The bound study's figures (docs/results.md) are at the offered-load calibration.
    spec.calibration = super::experiment::Calibration::OfferedLoad;
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    spec.settings.fluid_window = settings.fluid_window;
    spec.settings.fluid_slots = settings.fluid_slots;
    spec.settings.fluid_tail_slots = settings.fluid_tail_slots;
    let tiny = GenSpec {
        seed: args.seed,
        ..GenSpec::default()
    };
    super::bound_study::run(&spec, &tiny, 200)
}
