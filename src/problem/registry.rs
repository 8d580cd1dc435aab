//! The registry: every problem family, behind an object-safe [`Entry`] that speaks only
//! names, paths, flags, JSON and certificates. The CLI and the experiment runner iterate
//! [`registry`]; this file is the only place outside a problem's folder that names one.

use super::config::{apply_flags, apply_flags_over, spec_from_flags, Applied};
use super::demo::DemoRun;
use super::proof::{BoundCheck, Depth};
use super::{Certificate, Common, Flag, Problem, Sense, Target};
use crate::error::{Error, InputError, Location, Result};
use crate::experiment::{Plot, Row};
use crate::solver::{Deadline, ModelFormat};
use crate::Violation;
use std::marker::PhantomData;
use std::path::Path;

/// Every problem family, in the order help texts list them. **Add a family here.**
static REGISTRY: &[&dyn Entry] = &[
    &Registered::<crate::vcsched::VcSched>(PhantomData),
    &Registered::<crate::periodic::Periodic>(PhantomData),
    &Registered::<crate::evolving::Evolving>(PhantomData),
    &Registered::<crate::pcec::Pcec>(PhantomData),
    &Registered::<crate::market::Rebalance>(PhantomData),
    &Registered::<crate::binpacking::BinPacking>(PhantomData),
    &Registered::<crate::socbp::SocPacking>(PhantomData),
];

/// Every registered problem.
pub fn registry() -> &'static [&'static dyn Entry] {
    REGISTRY
}

/// The problem called `name`, or a message listing the names.
pub fn find(name: &str) -> std::result::Result<&'static dyn Entry, String> {
    REGISTRY
        .iter()
        .copied()
        .find(|e| e.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = REGISTRY.iter().map(|e| e.name()).collect();
            format!(
                "unknown problem `{name}`; expected one of {}",
                names.join(", ")
            )
        })
}

/// The problem a solution file names in its `certificate.problem` (what `verify` re-checks
/// it as): the command line's `verify` and the Python module's.
pub fn of_solution(solution: &Path) -> Result<&'static dyn Entry> {
    let text = crate::input::read_text(solution)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        InputError::new(
            solution,
            Location::File,
            "",
            format!("malformed solution: {e}"),
        )
    })?;
    let field = || Location::Field("certificate.problem".into());
    let name = v
        .get("certificate")
        .and_then(|c| c.get("problem"))
        .and_then(|p| p.as_str())
        .ok_or_else(|| {
            InputError::new(
                solution,
                field(),
                "",
                "not a vcalloc solution: it names no problem",
            )
        })?;
    find(name).map_err(|why| InputError::new(solution, field(), name, why).into())
}

/// The checks of the limits every solving entry shares: a positive finite time limit, at least
/// one thread. `names` are the two arguments as the caller spells them (`--time-limit` and
/// `--threads` on the command line, `time_limit` and `threads` in Python).
pub fn check_limits(
    time_limit: Option<f64>,
    threads: Option<usize>,
    names: [&str; 2],
) -> Result<()> {
    let bad = |name: &str, value: String, why: &str| -> Error {
        InputError::new("<arguments>", Location::Argument(name.into()), value, why).into()
    };
    if let Some(t) = time_limit.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(bad(
            names[0],
            t.to_string(),
            "must be a positive number of seconds",
        ));
    }
    if threads == Some(0) {
        return Err(bad(names[1], "0".into(), "must be at least 1"));
    }
    Ok(())
}

/// The text of `vcalloc demo`: every family's demo in one table.
pub fn demo() -> Result<String> {
    super::demo::run()
}

/// The studies of the engine itself, over every family that runs column generation
/// (`colgen-root`): listed after the families' own.
pub fn engine_studies() -> Vec<super::Study> {
    vec![crate::experiment::root_study()]
}

/// The study called `name`.
pub fn find_study(name: &str) -> Option<super::Study> {
    REGISTRY
        .iter()
        .flat_map(|e| e.studies())
        .chain(engine_studies())
        .find(|s| s.name == name)
}

/// The problem whose sweep is called `sweep`.
pub fn find_sweep(sweep: &str) -> Option<(&'static dyn Entry, SweepInfo)> {
    REGISTRY.iter().find_map(|e| {
        e.sweeps()
            .into_iter()
            .find(|s| s.name == sweep)
            .map(|s| (*e, s))
    })
}

/// A sweep as the runner sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepInfo {
    /// Name, e.g. `vcsched-small`.
    pub name: &'static str,
    /// One line.
    pub title: &'static str,
    /// Instances per specification in the paper.
    pub per_spec: usize,
    /// Default methods.
    pub methods: Vec<String>,
    /// The problem's CSV columns.
    pub columns: Vec<&'static str>,
}

/// One instance of a sweep, its generator specification as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceRef {
    /// Position in the whole set (shards split on it).
    pub ordinal: usize,
    /// Stable identifier.
    pub id: String,
    /// Index within the specification.
    pub index: usize,
    /// The generator's seed.
    pub seed: u64,
    /// Parameters recorded in the CSV.
    pub params: Vec<(String, String)>,
    /// The generator specification.
    pub spec: serde_json::Value,
}

/// What one method gave on one instance of a sweep: its certificate and the problem's
/// figures beyond it; verified before it is returned.
/// The label is what became of the bound ([`BoundCheck::label`]).
pub type MethodRun = Result<(Certificate, Vec<(&'static str, f64)>, &'static str)>;

/// A solve from the command line: the instance file, the method, and every source of
/// settings.
#[derive(Debug, Clone)]
pub struct SolveRequest<'a> {
    /// Instance file.
    pub file: &'a Path,
    /// Method name.
    pub method: &'a str,
    /// `--settings FILE`.
    pub settings: Option<&'a Path>,
    /// The problem's flags as given (settings and load options).
    pub flags: &'a [Applied<'a>],
    /// Seed and threads.
    pub common: Common,
    /// Wall-clock limit of the whole solve.
    pub time_limit: Option<f64>,
}

/// A solve's answer: the solution file's text, its certificate and a table row.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Pretty JSON of the solution.
    pub json: String,
    /// The certificate.
    pub certificate: Certificate,
    /// The problem's plain-text table of this answer.
    pub table: String,
}

/// What `verify` found in one answer.
#[derive(Debug, Clone)]
pub struct Verified {
    /// Every violated constraint or figure (a refuted bound among them).
    pub violations: Vec<Violation>,
    /// One line: status, problem, method, instance.
    pub summary: String,
    /// The certificate's status.
    pub status: crate::Status,
    /// What became of the certificate's bound.
    pub bound: BoundCheck,
    /// Seconds the check took (reading the files included).
    pub seconds: f64,
}

impl Verified {
    /// `verify --strict`'s objection, if any: an `optimal` or a bound that rests only on a
    /// claim nothing re-derived.
    pub fn strict_objection(&self) -> Option<String> {
        match &self.bound {
            BoundCheck::Claimed { why } => Some(format!(
                "{} rests on a bound not re-derived ({why})",
                if self.status == crate::Status::Optimal {
                    "`optimal`"
                } else {
                    "the bound"
                }
            )),
            BoundCheck::NoBound if self.status == crate::Status::Optimal => {
                Some("`optimal` without a bound".into())
            }
            _ => None,
        }
    }
}

/// A refuted bound as a violation.
fn refuted(check: &BoundCheck) -> Option<Violation> {
    match check {
        BoundCheck::Refuted { why } => Some(Violation::new("bound-proof", why.clone())),
        _ => None,
    }
}

/// A problem as the engine sees it. Implemented for every [`Problem`] by [`Registered`].
pub trait Entry: Sync {
    /// Registry name.
    fn name(&self) -> &'static str;
    /// One line.
    fn title(&self) -> &'static str;
    /// Minimised or maximised.
    fn sense(&self) -> Sense;
    /// Method names and one-line descriptions.
    fn methods(&self) -> Vec<(String, &'static str)>;
    /// The problem's flags.
    fn flags(&self) -> Vec<Flag>;
    /// Checks a method name.
    fn check_method(&self, name: &str) -> std::result::Result<(), String>;
    /// Loads, solves, and (as every answer is) verifies.
    fn solve(&self, req: &SolveRequest<'_>) -> Result<Answer>;
    /// Whether `file` is an instance of this family: its extension is one the family reads
    /// and the file loads with the default load options.
    fn claims(&self, file: &Path) -> bool;
    /// Re-checks a solution file's JSON against an instance file: the violations, a
    /// one-line summary and what became of the bound (re-derived to `depth`).
    fn verify(
        &self,
        instance: &Path,
        solution: &Path,
        flags: &[Applied<'_>],
        depth: Depth,
    ) -> Result<Verified>;
    /// A generated instance's text, from the `generate` flags, in the format of `output`
    /// (JSON for standard output; see [`Problem::instance_text`]).
    fn generate(&self, flags: &[Applied<'_>], output: Option<&Path>) -> Result<String>;
    /// The instance's model as an LP or MPS file, when the problem has one (`settings`: a
    /// settings file, as `solve`'s; the model-size guard reads its `highs.max_model_mb`).
    fn export_lp(
        &self,
        file: &Path,
        settings: Option<&Path>,
        flags: &[Applied<'_>],
        format: ModelFormat,
    ) -> Result<Option<String>>;
    /// The sweeps.
    fn sweeps(&self) -> Vec<SweepInfo>;
    /// Every instance of a sweep.
    fn sweep_instances(&self, sweep: &str, per_spec: usize, base_seed: u64) -> Vec<InstanceRef>;
    /// Generates one sweep instance and runs `methods` on it (each verified): the instance's
    /// JSON and one result per method.
    fn run_instance(
        &self,
        inst: &InstanceRef,
        methods: &[String],
        settings: Option<&Path>,
        common: &Common,
        time_limit: Option<f64>,
    ) -> Result<(String, Vec<MethodRun>)>;
    /// Reads and checks a settings file (before a sweep starts).
    fn check_settings(&self, file: &Path) -> Result<()>;
    /// Every setting as a TOML document that `--settings` reads back: the defaults, or
    /// `file` merged over them.
    fn settings_toml(&self, file: Option<&Path>) -> Result<String>;
    /// The report of one sweep's rows.
    fn report(&self, set: &str, rows: &[&Row]) -> (String, Vec<Plot>);
    /// The problem's studies.
    fn studies(&self) -> Vec<super::Study>;
    /// The problem's extra commands.
    fn tools(&self) -> Vec<super::Tool>;
    /// One self-check case ([`Problem::selfcheck`]).
    fn selfcheck(&self, seed: u64) -> Option<super::selfcheck::CaseReport>;
    /// The family's demo ([`Problem::demo`]): its exact method and heuristic on the embedded
    /// instance, each within `seconds` and verified.
    fn demo(&self, seconds: f64) -> Option<Result<Vec<DemoRun>>>;
}

/// An embedded instance read as its file would be: `load` reads files (formats are told by
/// name and content), so the text goes through a private temporary file of the same name.
fn load_embedded<P: Problem>(file: &str, text: &str) -> Result<P::Instance> {
    let name = Path::new(file)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let tmp = std::env::temp_dir().join(format!("vcalloc-{}-{name}", std::process::id()));
    std::fs::write(&tmp, text).map_err(Error::io(&tmp))?;
    let inst = P::load(&tmp, &P::Load::default());
    let _ = std::fs::remove_file(&tmp);
    inst
}

/// The [`Entry`] of a [`Problem`].
pub struct Registered<P>(pub PhantomData<fn() -> P>);

fn method_of<P: Problem>(name: &str) -> Result<P::Method> {
    name.parse::<P::Method>().map_err(|why| {
        InputError::new(
            "<arguments>",
            Location::Argument("--method".into()),
            name,
            why,
        )
        .into()
    })
}

fn of_target<'a>(flags: &'a [Applied<'a>], t: Target) -> Vec<Applied<'a>> {
    flags
        .iter()
        .copied()
        .filter(|(f, _)| f.target == t)
        .collect()
}

/// An error unless `verify` found nothing: nothing unchecked leaves the engine.
fn checked(violations: &[Violation], cert: &Certificate) -> Result<()> {
    match violations.first() {
        None => Ok(()),
        Some(v) => Err(Error::Consistency(format!(
            "{} failed verification: {v}",
            cert.method
        ))),
    }
}

impl<P: Problem> Registered<P> {
    fn settings(
        file: Option<&Path>,
        flags: &[Applied<'_>],
        common: &Common,
    ) -> Result<P::Settings> {
        let mut s: P::Settings = apply_flags(file, &of_target(flags, Target::Settings))?;
        P::configure(&mut s, common);
        Ok(s)
    }

    fn solve_checked(
        inst: &P::Instance,
        method: P::Method,
        settings: &P::Settings,
        deadline: &Deadline,
        memo: &P::Memo,
    ) -> Result<P::Solution> {
        let sol = P::solve(inst, method, settings, deadline, memo)?;
        let mut violations = sol.as_ref().consistency(P::NAME, P::SENSE);
        violations.extend(P::verify(inst, &sol));
        checked(&violations, sol.as_ref())?;
        Ok(sol)
    }

    /// [`Problem::check_bound`] and its time.
    pub fn bound_check(inst: &P::Instance, sol: &P::Solution, depth: Depth) -> (BoundCheck, f64) {
        let began = std::time::Instant::now();
        let check = P::check_bound(inst, sol, depth);
        (check, began.elapsed().as_secs_f64())
    }
}

impl<P: Problem> Entry for Registered<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn title(&self) -> &'static str {
        P::TITLE
    }
    fn sense(&self) -> Sense {
        P::SENSE
    }
    fn methods(&self) -> Vec<(String, &'static str)> {
        P::methods()
            .into_iter()
            .map(|(m, d)| (m.to_string(), d))
            .collect()
    }
    fn flags(&self) -> Vec<Flag> {
        P::flags()
    }
    fn check_method(&self, name: &str) -> std::result::Result<(), String> {
        name.parse::<P::Method>().map(|_| ())
    }

    fn claims(&self, file: &Path) -> bool {
        let ext = file
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let listed =
            P::EXTENSIONS.is_empty() || ext.is_some_and(|e| P::EXTENSIONS.contains(&e.as_str()));
        listed && P::load(file, &P::Load::default()).is_ok()
    }

    fn solve(&self, req: &SolveRequest<'_>) -> Result<Answer> {
        let method = method_of::<P>(req.method)?;
        let load: P::Load = apply_flags(None, &of_target(req.flags, Target::Load))?;
        let settings = Self::settings(req.settings, req.flags, &req.common)?;
        let inst = P::load(req.file, &load)?;
        let deadline = Deadline::after(req.time_limit);
        // A heartbeat in the live log whenever the method itself is quiet for an interval.
        let sol = crate::solver::progress::while_running(
            || Self::solve_checked(&inst, method, &settings, &deadline, &P::Memo::default()),
            || crate::solver::progress::status(&format!("{} {}", P::NAME, req.method)),
        )?;
        // The load options travel with the answer: `verify` reads the instance as it was read.
        let mut json = serde_json::to_value(&sol).expect("a solution serialises");
        let options = serde_json::to_value(&load).expect("load options serialise");
        if !options.is_null() {
            json["certificate"]["load"] = options;
        }
        Ok(Answer {
            json: serde_json::to_string_pretty(&json).expect("a solution serialises"),
            certificate: sol.as_ref().clone(),
            table: P::table(&[&sol]),
        })
    }

    fn verify(
        &self,
        instance: &Path,
        solution: &Path,
        flags: &[Applied<'_>],
        depth: Depth,
    ) -> Result<Verified> {
        let began = std::time::Instant::now();
        let text = crate::input::read_text(solution)?;
        let sol: P::Solution = crate::input::parse_json(&text, solution, "solution")?;
        // The options the solve recorded, then the command line's over them.
        let recorded: P::Load = match &sol.as_ref().load {
            Some(v) => serde_path_to_error::deserialize(v).map_err(|e| {
                InputError::new(
                    solution,
                    Location::Field(format!("certificate.load.{}", e.path())),
                    "",
                    format!("malformed load options: {}", e.into_inner()),
                )
            })?,
            None => P::Load::default(),
        };
        let load = apply_flags_over(recorded, &of_target(flags, Target::Load))?;
        let inst = P::load(instance, &load)?;
        let c = sol.as_ref();
        let summary = format!(
            "{} {} solution by {} ({})",
            c.status,
            P::NAME,
            c.method,
            P::describe(&inst)
        );
        let mut violations = c.consistency(P::NAME, P::SENSE);
        violations.extend(P::verify(&inst, &sol));
        let bound = P::check_bound(&inst, &sol, depth);
        violations.extend(refuted(&bound));
        Ok(Verified {
            violations,
            summary,
            status: c.status,
            bound,
            seconds: began.elapsed().as_secs_f64(),
        })
    }

    fn generate(&self, flags: &[Applied<'_>], output: Option<&Path>) -> Result<String> {
        let table = P::flags();
        let spec: P::Spec = spec_from_flags(&table, &of_target(flags, Target::Spec))?;
        let inst = P::generate(&spec)?;
        Ok(P::instance_text(&spec, &inst, output))
    }

    fn export_lp(
        &self,
        file: &Path,
        settings: Option<&Path>,
        flags: &[Applied<'_>],
        format: ModelFormat,
    ) -> Result<Option<String>> {
        let load: P::Load = apply_flags(None, &of_target(flags, Target::Load))?;
        let settings = Self::settings(settings, flags, &Common::default())?;
        let inst = P::load(file, &load)?;
        P::export_lp(&inst, &settings, &file.display().to_string(), format).transpose()
    }

    fn sweeps(&self) -> Vec<SweepInfo> {
        P::sweeps()
            .into_iter()
            .map(|s| SweepInfo {
                name: s.name,
                title: s.title,
                per_spec: s.per_spec,
                methods: s.methods,
                columns: s.columns,
            })
            .collect()
    }

    fn sweep_instances(&self, sweep: &str, per_spec: usize, base_seed: u64) -> Vec<InstanceRef> {
        let Some(s) = P::sweeps().into_iter().find(|s| s.name == sweep) else {
            return Vec::new();
        };
        (s.instances)(per_spec, base_seed)
            .into_iter()
            .enumerate()
            .map(|(ordinal, i)| InstanceRef {
                ordinal,
                id: i.id,
                index: i.index,
                seed: i.seed,
                params: i
                    .params
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                spec: serde_json::to_value(&i.spec).expect("a specification serialises"),
            })
            .collect()
    }

    fn check_settings(&self, file: &Path) -> Result<()> {
        Self::settings(Some(file), &[], &Common::default()).map(|_| ())
    }

    fn settings_toml(&self, file: Option<&Path>) -> Result<String> {
        let s = Self::settings(file, &[], &Common::default())?;
        toml::to_string_pretty(&s)
            .map_err(|e| Error::Consistency(format!("the settings of {} as TOML: {e}", P::NAME)))
    }

    fn run_instance(
        &self,
        r: &InstanceRef,
        methods: &[String],
        settings: Option<&Path>,
        common: &Common,
        time_limit: Option<f64>,
    ) -> Result<(String, Vec<MethodRun>)> {
        let spec: P::Spec = serde_json::from_value(r.spec.clone())
            .map_err(|e| Error::Consistency(format!("sweep specification {}: {e}", r.id)))?;
        let inst = P::generate(&spec)?;
        let json = serde_json::to_string_pretty(&inst).expect("an instance serialises");
        let settings = Self::settings(settings, &[], common)?;
        let memo = P::Memo::default();
        let runs = methods
            .iter()
            .map(|m| {
                let method = method_of::<P>(m)?;
                let deadline = Deadline::after(time_limit);
                let sol = Self::solve_checked(&inst, method, &settings, &deadline, &memo)?;
                // The row records whether the bound was re-derived, and at what cost.
                let (check, secs) = Self::bound_check(&inst, &sol, Depth::shallow());
                if let Some(v) = refuted(&check) {
                    return Err(Error::Consistency(format!("{m} failed verification: {v}")));
                }
                let mut values = P::row_values(&sol);
                values.push(("verify_seconds", secs));
                Ok((sol.as_ref().clone(), values, check.label()))
            })
            .collect();
        Ok((json, runs))
    }

    fn report(&self, set: &str, rows: &[&Row]) -> (String, Vec<Plot>) {
        P::report(set, rows)
    }
    fn studies(&self) -> Vec<super::Study> {
        P::studies()
    }
    fn tools(&self) -> Vec<super::Tool> {
        P::tools()
    }
    fn demo(&self, seconds: f64) -> Option<Result<Vec<DemoRun>>> {
        let d = P::demo()?;
        let run = || -> Result<Vec<DemoRun>> {
            let inst = load_embedded::<P>(d.file, d.text)?;
            let settings = Self::settings(None, &[], &Common::default())?;
            let memo = P::Memo::default();
            [d.exact, d.heuristic]
                .iter()
                .map(|m| {
                    let deadline = Deadline::after(Some(seconds));
                    let sol = Self::solve_checked(
                        &inst,
                        method_of::<P>(m)?,
                        &settings,
                        &deadline,
                        &memo,
                    )?;
                    Ok(DemoRun {
                        problem: P::NAME,
                        file: d.file,
                        certificate: sol.as_ref().clone(),
                        note: d.note,
                    })
                })
                .collect()
        };
        Some(run())
    }
    fn selfcheck(&self, seed: u64) -> Option<super::selfcheck::CaseReport> {
        P::selfcheck(seed)
    }
}
