//! **The entry point**: the [`Problem`] trait every problem family implements, the
//! [`Certificate`] every answer carries, and the [`registry`] that the command line and the
//! experiment runner iterate.
//!
//! A problem family is one folder (`src/<family>/`) with its instance, methods, verify and
//! generator, plus one `impl Problem` and one line in [`registry::REGISTRY`]. The CLI
//! (`solve`, `verify`, `generate`, `export-lp`, `experiment`), settings files, sweeps with
//! resumable CSVs and their reports then work for it with no other change: they see only the
//! problem's name, its method and flag tables, JSON values and certificates. A family's own
//! commands (`capacity`, `simulate`) come the same way, as [`Tool`]s.
//!
//! ```text
//! file ──load──> Instance ──solve(method, Settings, &Deadline)──> Solution { certificate, … }
//!                                                                    └──verify──> violations
//! ```
//!
//! `docs/architecture.md` walks through adding a problem, with the ten-line toy problem of
//! `tests/it/problem_toy.rs`.

mod certificate;
mod config;
pub mod demo;
pub mod proof;
pub mod registry;
pub mod selfcheck;

#[doc(hidden)]
pub use crate::input::by_name as method_by_name;
pub use certificate::{Certificate, Sense};
pub use config::{
    apply_flags, apply_flags_over, parse_value, settings_from_file, settings_from_text,
    settings_of_text, spec_from_flags, Applied,
};
pub use proof::{BoundCheck, Depth, Proof};
pub use registry::{
    engine_studies, find, find_study, find_sweep, registry, Answer, Entry, InstanceRef, MethodRun,
    SolveRequest, SweepInfo,
};

use crate::error::Result;
use crate::experiment::{Plot, Row};
use crate::solver::Deadline;
use crate::Violation;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// The knobs every problem shares, set by the CLI's common flags and by the experiment
/// runner; a problem maps them onto its own [`Problem::Settings`] in
/// [`Problem::configure`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Common {
    /// Seed of the randomised methods.
    pub seed: Option<u64>,
    /// Threads an external solver may use (the runner sets 1: parallelism is across solves).
    pub threads: Option<u32>,
}

/// Which document a command-line flag writes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The method settings ([`Problem::Settings`]).
    Settings,
    /// How the instance file is read ([`Problem::Load`]); `verify` takes these too.
    Load,
    /// The generator specification ([`Problem::Spec`]).
    Spec,
    /// An option of one [`Tool`], read by the tool itself.
    Tool,
}

/// What a flag does with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagValue {
    /// Takes one value, named in the help (`--budget UNITS`); read as JSON when it parses
    /// (numbers, `true`), as a string otherwise (`face`).
    Takes(&'static str),
    /// A switch that writes this JSON literal (`--no-avg-phase` writes `false`).
    Sets(&'static str),
}

/// One problem-specific command-line flag: a name for a key of a settings, load or
/// generator document. The CLI builds its options from these tables, so a problem's flags
/// need no code in `cli/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// The long name without dashes, e.g. `no-avg-phase`.
    pub long: &'static str,
    /// The document it writes into.
    pub target: Target,
    /// Dotted key in that document, e.g. `cg.smoothing`.
    pub key: &'static str,
    /// Value or switch.
    pub value: FlagValue,
    /// One line of help.
    pub help: &'static str,
}

impl Flag {
    /// A flag taking a value.
    pub const fn takes(
        long: &'static str,
        target: Target,
        key: &'static str,
        name: &'static str,
        help: &'static str,
    ) -> Flag {
        Flag {
            long,
            target,
            key,
            value: FlagValue::Takes(name),
            help,
        }
    }

    /// A switch writing `literal`.
    pub const fn sets(
        long: &'static str,
        target: Target,
        key: &'static str,
        literal: &'static str,
        help: &'static str,
    ) -> Flag {
        Flag {
            long,
            target,
            key,
            value: FlagValue::Sets(literal),
            help,
        }
    }
}

/// A rejected setting: its dotted key, the value and why. The caller knows whether the key
/// came from a file or a flag, and turns this into an [`crate::InputError`] naming that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// Dotted key, e.g. `cg.smoothing`.
    pub key: String,
    /// The value as written.
    pub value: String,
    /// Why it is rejected.
    pub reason: String,
}

impl Invalid {
    /// A rejection from a message that starts with the key (`"limited_expand = 0: …"`), as
    /// the families' own `validate` functions write them.
    pub fn from_message(why: String) -> Self {
        let key = why
            .split([' ', ':', '='])
            .next()
            .unwrap_or("settings")
            .to_string();
        Invalid {
            key,
            value: String::new(),
            reason: why,
        }
    }

    /// Builds a rejection.
    pub fn new(key: &str, value: impl ToString, reason: impl Into<String>) -> Self {
        Invalid {
            key: key.into(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}

/// Settings (and load options, and generator specifications) check themselves once, after
/// every source (defaults, file, flags) has been merged.
pub trait Validate {
    /// The first value no method can honour (by default none: every value parses into
    /// something usable).
    fn validate(&self) -> std::result::Result<(), Invalid> {
        Ok(())
    }

    /// [`Validate::validate`] as an input error naming the setting, for a library caller
    /// that built the settings in code.
    fn checked(&self) -> crate::Result<()> {
        self.validate().map_err(|bad| {
            crate::InputError::new(
                "<settings>",
                crate::Location::Field(bad.key),
                bad.value,
                bad.reason,
            )
            .into()
        })
    }
}

impl Validate for () {}

/// A problem's methods as a table: every method in listing order, each with one line. The
/// CLI parses and lists methods from it; [`method_table!`](crate::method_table) writes it,
/// with `FromStr` and `Display`, from a family's own `name()`, `description()` and list.
pub trait MethodTable: Copy + std::str::FromStr<Err = String> + std::fmt::Display {
    /// Every method, in the order tables list them.
    fn table() -> Vec<Self>;
    /// One line: what the method does.
    fn line(self) -> &'static str;
}

/// Implements [`MethodTable`], `FromStr` (case-insensitive, listing the names on a miss) and
/// `Display` for a method enum with `name()`, `description()` and a list function.
#[macro_export]
macro_rules! method_table {
    ($method:ty, $list:ident) => {
        impl $crate::problem::MethodTable for $method {
            fn table() -> Vec<Self> {
                <$method>::$list().into_iter().collect()
            }
            fn line(self) -> &'static str {
                self.description()
            }
        }
        impl std::str::FromStr for $method {
            type Err = String;
            fn from_str(s: &str) -> std::result::Result<Self, String> {
                $crate::problem::method_by_name(s, <$method>::$list(), |m| m.name())
            }
        }
        impl std::fmt::Display for $method {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let name = self.name();
                f.write_str(AsRef::<str>::as_ref(&name))
            }
        }
    };
}

/// Gives a solution type whose `certificate` field holds its [`Certificate`] the reading of
/// the certificate's fields (`sol.status`, `sol.gap`…) and [`AsRef<Certificate>`].
#[macro_export]
macro_rules! certified {
    ($solution:ty) => {
        impl std::ops::Deref for $solution {
            type Target = $crate::problem::Certificate;
            fn deref(&self) -> &$crate::problem::Certificate {
                &self.certificate
            }
        }
        impl std::ops::DerefMut for $solution {
            fn deref_mut(&mut self) -> &mut $crate::problem::Certificate {
                &mut self.certificate
            }
        }
        impl AsRef<$crate::problem::Certificate> for $solution {
            fn as_ref(&self) -> &$crate::problem::Certificate {
                &self.certificate
            }
        }
    };
}

/// One sweep of a problem: a deterministic set of generated instances and the methods run
/// on each.
pub struct Sweep<S> {
    /// Name on the command line and in files, e.g. `vcsched-small`.
    pub name: &'static str,
    /// One line: what the sweep reproduces.
    pub title: &'static str,
    /// Instances per specification in the paper.
    pub per_spec: usize,
    /// The methods run when none are named.
    pub methods: Vec<String>,
    /// The problem's columns of the results CSV (instance parameters and
    /// [`Problem::row_values`]), in order.
    pub columns: Vec<&'static str>,
    /// Every instance, `per_spec` per specification, from a base seed.
    pub instances: fn(per_spec: usize, base_seed: u64) -> Vec<SweepInstance<S>>,
}

/// One instance of a [`Sweep`]: how to generate it and what to record about it.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepInstance<S> {
    /// Stable identifier, e.g. `h4-j6-s0.1-m0.25-c0.25-i3`.
    pub id: String,
    /// Index within the specification.
    pub index: usize,
    /// The seed of the generator.
    pub seed: u64,
    /// Parameters recorded in the CSV (a subset of the sweep's columns).
    pub params: Vec<(&'static str, String)>,
    /// The generator specification.
    pub spec: S,
}

/// A study: a paper's experiment that is more than a sweep of independent solves (tables of
/// ratios between methods, simulations); it writes its own files into `out` and returns the
/// Markdown of its report.
pub struct Study {
    /// Name on the command line (`experiment NAME`).
    pub name: &'static str,
    /// One line.
    pub title: &'static str,
    /// What `--time-limit` limits in this study ("each branch-and-price"), `None` when it
    /// runs no solve a limit applies to (a simulation): the option is then refused.
    pub limits: Option<&'static str>,
    /// Runs the study.
    pub run: fn(&StudyArgs) -> Result<String>,
}

/// What every study takes.
#[derive(Debug, Clone)]
pub struct StudyArgs {
    /// Output folder (created); `report.md` is written there from the returned text.
    pub out: std::path::PathBuf,
    /// Base seed.
    pub seed: u64,
    /// Instances or tests (`None`: the paper's count).
    pub count: Option<usize>,
    /// The problem's settings file.
    pub settings: Option<std::path::PathBuf>,
    /// A folder of published data the study reads (traces, benchmark sets), where it needs one.
    pub input: Option<std::path::PathBuf>,
    /// `--time-limit`: seconds for each solve the study makes ([`Study::limits`] says which).
    pub time_limit: Option<f64>,
}

impl StudyArgs {
    /// The deadline of one solve: `--time-limit` when given, else `default` (the study's own
    /// setting; `None`: no limit).
    pub fn deadline(&self, default: Option<f64>) -> Deadline {
        Deadline::after(self.time_limit.or(default))
    }
}

/// A command a family offers beyond solve, verify and generate — `vcalloc capacity pcec
/// PMS.json`, `vcalloc simulate pcec TRACE` —, as `vcalloc COMMAND PROBLEM FILE [options]`.
/// Families that offer the same command share it (each its own subcommand), so the CLI builds
/// it from this table and names no family.
pub struct Tool {
    /// The command, e.g. `simulate`.
    pub command: &'static str,
    /// One line on the command whatever the family (the first family's wins).
    pub about: &'static str,
    /// One line on this family's version.
    pub title: &'static str,
    /// Help of the input file.
    pub input: &'static str,
    /// Other names of the family for this command (`simulate market` for `rebalance`).
    pub aliases: &'static [&'static str],
    /// Its options: [`Target::Settings`] and [`Target::Load`] keys as for `solve`,
    /// [`Target::Tool`] for its own.
    pub flags: Vec<Flag>,
    /// Help of `--output FILE`, when the tool writes one.
    pub output: Option<&'static str>,
    /// Runs it; the text is for standard output.
    pub run: fn(&ToolArgs<'_>) -> Result<String>,
}

/// What a [`Tool`] is given.
#[derive(Debug, Clone, Copy)]
pub struct ToolArgs<'a> {
    /// The input file.
    pub file: &'a Path,
    /// The options given, in table order (switches with an empty value).
    pub flags: &'a [Applied<'a>],
    /// `--settings FILE`.
    pub settings: Option<&'a Path>,
    /// `--output FILE`.
    pub output: Option<&'a Path>,
}

impl ToolArgs<'_> {
    /// The flags of one target.
    pub fn of(&self, target: Target) -> Vec<Applied<'_>> {
        self.flags
            .iter()
            .copied()
            .filter(|(f, _)| f.target == target)
            .collect()
    }

    /// The tool's `--time-limit` (key `time_limit`), checked: `None` when not given.
    pub fn time_limit(&self) -> Result<Option<f64>> {
        let Some(t) = self.option("time_limit") else {
            return Ok(None);
        };
        let s = t.parse::<f64>().ok().filter(|s| s.is_finite() && *s > 0.0);
        s.map(Some).ok_or_else(|| {
            crate::InputError::new(
                "<arguments>",
                crate::Location::Argument("--time-limit".into()),
                t,
                "must be a positive number of seconds",
            )
            .into()
        })
    }

    /// The value of the tool option whose key is `key`, if given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(f, _)| f.target == Target::Tool && f.key == key)
            .map(|&(_, v)| v)
    }
}

/// A problem family. Implement this, add one line to [`registry::REGISTRY`], and the CLI,
/// verify, settings files, sweeps and reports work for the family.
pub trait Problem: Sized + 'static {
    /// Registry name, used on the command line and in every file (`vcsched`).
    const NAME: &'static str;
    /// One line: the problem and the paper it comes from.
    const TITLE: &'static str;
    /// Whether the objective is minimised or maximised.
    const SENSE: Sense;

    /// A parsed, validated instance.
    type Instance: Serialize;
    /// A method's answer: the [`Certificate`] and the problem's own payload.
    type Solution: Serialize + DeserializeOwned + AsRef<Certificate>;
    /// A method, parsed from its name (see [`method_table!`](crate::method_table)).
    type Method: MethodTable;
    /// Every knob of every method, with defaults; `--settings FILE` fills it.
    type Settings: Default + Clone + Serialize + DeserializeOwned + Validate;
    /// How an instance file is read (e.g. the host count of a CSV file).
    type Load: Default + Serialize + DeserializeOwned + Validate;
    /// A generator specification; it carries its own `seed`.
    type Spec: Serialize + DeserializeOwned + Validate;
    /// What the methods run on one instance may share (the VCSched relaxation); `()` if
    /// nothing.
    type Memo: Default;

    /// Every method with a one-line description, in the order tables list them.
    fn methods() -> Vec<(Self::Method, &'static str)> {
        Self::Method::table()
            .into_iter()
            .map(|m| (m, m.line()))
            .collect()
    }
    /// The problem's flags of `solve` (settings and load options) and of `generate`.
    fn flags() -> Vec<Flag>;
    /// Maps the shared knobs onto the settings.
    fn configure(settings: &mut Self::Settings, common: &Common);
    /// The extensions (lower case, no dot) of the instance files this family reads, for the
    /// studies that take a folder of files of several families (`colgen-root`); empty: any.
    const EXTENSIONS: &'static [&'static str] = &[];
    /// Reads and validates an instance file.
    fn load(path: &Path, load: &Self::Load) -> Result<Self::Instance>;
    /// Solves with one method, within `deadline`, sharing `memo` with the other methods of
    /// the same instance.
    fn solve(
        inst: &Self::Instance,
        method: Self::Method,
        settings: &Self::Settings,
        deadline: &Deadline,
        memo: &Self::Memo,
    ) -> Result<Self::Solution>;
    /// An independent re-check of a solution: every constraint and every reported figure.
    fn verify(inst: &Self::Instance, sol: &Self::Solution) -> Vec<Violation>;
    /// Re-derives the certificate's bound from the instance and its [`Proof`] (issue 37):
    /// checked, claimed (not re-checkable, or a search not re-run without `depth.deep`) or
    /// refuted. By default every bound is claimed.
    fn check_bound(_inst: &Self::Instance, sol: &Self::Solution, _depth: Depth) -> BoundCheck {
        BoundCheck::claimed_by(sol.as_ref())
    }
    /// A random instance, deterministic in the specification's seed.
    fn generate(spec: &Self::Spec) -> Result<Self::Instance>;
    /// The text of a generated instance to be written to `output` (standard output when
    /// `None`): JSON, unless the family writes the file's format itself (as `load` reads it).
    fn instance_text(_spec: &Self::Spec, inst: &Self::Instance, _output: Option<&Path>) -> String {
        serde_json::to_string_pretty(inst).expect("an instance serialises")
    }

    /// A one-paragraph summary of an instance (for `verify`'s answer).
    fn describe(inst: &Self::Instance) -> String;
    /// The problem's figures beyond the certificate, recorded in the results CSV.
    fn row_values(_sol: &Self::Solution) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
    /// A plain-text table of answers (the CLI prints it beside a written solution).
    fn table(sols: &[&Self::Solution]) -> String {
        default_table(sols.iter().map(|s| s.as_ref()))
    }
    /// The problem's compact model as a CPLEX LP or MPS file, where it has one.
    fn export_lp(
        _inst: &Self::Instance,
        _settings: &Self::Settings,
        _name: &str,
        _format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        None
    }
    /// The problem's sweeps.
    fn sweeps() -> Vec<Sweep<Self::Spec>> {
        Vec::new()
    }
    /// The report of one sweep's rows: Markdown (the papers' numbers beside ours) and plots.
    fn report(_set: &str, _rows: &[&Row]) -> (String, Vec<Plot>) {
        (String::new(), Vec::new())
    }
    /// The problem's studies.
    fn studies() -> Vec<Study> {
        Vec::new()
    }
    /// The problem's extra commands.
    fn tools() -> Vec<Tool> {
        Vec::new()
    }
    /// One randomised cross-check of the family's exact methods, bounds and heuristics
    /// against each other and against brute force on a tiny instance drawn from `seed`
    /// (`vcalloc selfcheck`); `None` when the family has none.
    fn selfcheck(_seed: u64) -> Option<selfcheck::CaseReport> {
        None
    }
    /// The family's part of `vcalloc demo`: a small instance of `data/examples/`, an exact
    /// method and a heuristic; `None` when the family has none.
    fn demo() -> Option<demo::Demo> {
        None
    }
}

/// The certificate table: method, status, objective, bound, gap, seconds.
pub fn default_table<'a>(certs: impl Iterator<Item = &'a Certificate>) -> String {
    let mut out = format!("{TABLE_HEADER}\n");
    for c in certs {
        out.push_str(&certificate_cells(c));
        out.push('\n');
    }
    out
}

/// The header of [`default_table`].
pub const TABLE_HEADER: &str = "method       status       objective       bound      gap   seconds";

/// One row of [`default_table`]: a certificate's method, status, objective, bound, gap and
/// seconds.
pub fn certificate_cells(c: &Certificate) -> String {
    let cell = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.4}"));
    format!(
        "{:<12} {:<10} {:>11} {:>11} {:>8} {:>9.4}",
        c.method,
        c.status.as_str(),
        cell(c.objective),
        cell(c.bound),
        c.gap
            .map_or("-".to_string(), |g| format!("{:.2}%", 100.0 * g)),
        c.seconds
    )
}
