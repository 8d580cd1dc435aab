//! Command-line arguments. The commands that take a problem (`solve`, `generate`,
//! `export-lp`, `experiment`) are built from the registry: one subcommand per problem or
//! sweep, its options from the problem's flag table.

use clap::{Arg, ArgAction, ArgMatches, Command};
use std::path::PathBuf;
use vcalloc::problem::{registry, Entry, Flag, FlagValue, Target, Tool};

mod experiment;
pub use experiment::Sweep;
use experiment::{experiment, study_command, sweep_command};

/// A parsed command line.
pub enum Cmd {
    /// Solve one instance with one method.
    Solve(Solve),
    /// Re-check a solution file.
    Verify {
        instance: PathBuf,
        solution: PathBuf,
        /// The problem's load flags, raw (`--hosts 16`): the problem is known only once the
        /// solution is read.
        rest: Vec<String>,
        /// `--strict`: exit 1 when an `optimal` or a bound rests only on an unchecked claim.
        strict: bool,
        /// `--deep`: re-run search proofs (within `--deep-seconds`).
        deep: bool,
        /// `--deep-seconds S`: the budget of each re-run.
        deep_seconds: Option<f64>,
    },
    /// Generate an instance.
    Generate {
        problem: &'static dyn Entry,
        flags: Vec<(Flag, String)>,
        output: Option<PathBuf>,
    },
    /// Write an instance's LP.
    ExportLp {
        problem: &'static dyn Entry,
        instance: PathBuf,
        out: PathBuf,
        /// `--settings FILE`: the problem's settings (the model-size guard's `highs` limits).
        settings: Option<PathBuf>,
        flags: Vec<(Flag, String)>,
        /// `--format lp|mps` (`None`: by the output's extension).
        format: Option<String>,
    },
    /// List problems, methods and flags.
    Methods { problem: Option<&'static dyn Entry> },
    /// Print a problem's settings as TOML.
    Settings {
        problem: &'static dyn Entry,
        /// A settings file to merge over the defaults.
        file: Option<PathBuf>,
        output: Option<PathBuf>,
    },
    /// The demo.
    Demo,
    /// A sweep.
    Sweep(Sweep),
    /// Join shards.
    Merge { dirs: Vec<PathBuf>, out: PathBuf },
    /// A study.
    Study {
        name: String,
        args: vcalloc::problem::StudyArgs,
        /// `--threads`: the size of the worker pool.
        threads: Option<usize>,
    },
    /// A family's own command (`simulate`, `capacity`, …).
    Tool(ToolRun),
    /// The soak of randomised cross-checks.
    SelfCheck(SelfCheck),
}

/// `selfcheck --cases N --seed K [--problem P] [--replay SEED] [--threads T]`.
pub struct SelfCheck {
    pub cases: usize,
    pub seed: u64,
    pub problem: Option<String>,
    pub replay: Option<u64>,
    pub threads: Option<usize>,
}

/// `COMMAND PROBLEM FILE [options]` of a family's [`vcalloc::problem::Tool`].
pub struct ToolRun {
    pub problem: &'static dyn Entry,
    pub command: String,
    pub file: PathBuf,
    pub settings: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub flags: Vec<(Flag, String)>,
}

/// `solve PROBLEM FILE --method M …`.
pub struct Solve {
    pub problem: &'static dyn Entry,
    pub file: PathBuf,
    pub method: String,
    pub time_limit: Option<f64>,
    pub seed: Option<u64>,
    pub threads: Option<u32>,
    pub settings: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub flags: Vec<(Flag, String)>,
}

/// The one default seed of every command that draws instances (sweeps, studies, selfcheck).
pub(super) const DEFAULT_SEED: &str = "1";

pub(super) fn value(id: &'static str, name: &'static str, help: &'static str) -> Arg {
    Arg::new(id).long(id).value_name(name).help(help)
}

pub(super) fn path(id: &'static str, help: &'static str) -> Arg {
    value(id, "FILE", help).value_parser(clap::value_parser!(PathBuf))
}

/// `--output` (id `out`), with `--out`, the older spelling of some commands, as an alias.
pub(super) fn output(name: &'static str, help: &'static str) -> Arg {
    Arg::new("out")
        .long("output")
        .visible_alias("out")
        .value_name(name)
        .help(help)
        .value_parser(clap::value_parser!(PathBuf))
}

/// The problem's flags of `targets` as options.
fn flag_args(cmd: Command, flags: &[Flag], targets: &[Target]) -> Command {
    flags
        .iter()
        .filter(|f| targets.contains(&f.target))
        .fold(cmd, |cmd, f| {
            let arg = Arg::new(f.long).long(f.long).help(f.help);
            cmd.arg(match f.value {
                FlagValue::Takes(name) => arg.value_name(name).allow_hyphen_values(true),
                FlagValue::Sets(_) => arg.action(ArgAction::SetTrue),
            })
        })
}

/// The flags given, with their text (empty for a switch), in table order.
fn given(m: &ArgMatches, flags: &[Flag], targets: &[Target]) -> Vec<(Flag, String)> {
    flags
        .iter()
        .filter(|f| targets.contains(&f.target))
        .filter_map(|f| match f.value {
            FlagValue::Takes(_) => m.get_one::<String>(f.long).map(|v| (*f, v.clone())),
            FlagValue::Sets(_) => m.get_flag(f.long).then(|| (*f, String::new())),
        })
        .collect()
}

fn solve_command(e: &dyn Entry) -> Command {
    let methods: Vec<String> = e.methods().into_iter().map(|(m, _)| m).collect();
    let cmd = Command::new(e.name())
        .about(e.title())
        .arg(
            Arg::new("file")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Instance file"),
        )
        .arg(
            value("method", "METHOD", "The method")
                .required(true)
                .long_help(format!("The method: {}", methods.join(", "))),
        )
        .arg(
            value("time-limit", "SECONDS", "Wall-clock limit; on it the incumbent, bound and gap")
                .allow_hyphen_values(true)
                .value_parser(clap::value_parser!(f64)),
        )
        .arg(value("seed", "N", "Seed of the randomised methods").value_parser(clap::value_parser!(u64)))
        .arg(value("threads", "N", "Threads the external solver may use").value_parser(clap::value_parser!(u32)))
        .arg(path("settings", "Every setting as JSON or TOML (fields left out keep their defaults); the options override it"))
        .arg(path("output", "Write the solution JSON here (atomically; `-`: standard output, the table then on stderr)"));
    flag_args(cmd, &e.flags(), &[Target::Settings, Target::Load])
}

fn generate_command(e: &dyn Entry) -> Command {
    let cmd = Command::new(e.name())
        .about(e.title())
        .arg(value("seed", "N", "Seed of the random stream").required(true))
        .arg(path(
            "output",
            "Write the instance here instead of standard output",
        ));
    flag_args(cmd, &e.flags(), &[Target::Spec])
}

fn export_command(e: &dyn Entry) -> Command {
    let cmd = Command::new(e.name())
        .about(e.title())
        .arg(
            Arg::new("instance")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf)),
        )
        .arg(output("FILE", "Output LP file (`-`: standard output)").required(true))
        .arg(
            value(
                "format",
                "lp|mps",
                "The model file's format: CPLEX LP or free MPS (default: the output's extension, else LP); the instance's format is told by its content",
            )
            .value_parser(["lp", "mps"]),
        )
        .arg(path(
            "settings",
            "Every setting as JSON or TOML, as for solve: a model above `highs.max_model_mb` is not exported (exit 2); the options override it",
        ));
    flag_args(cmd, &export_flags(e), &[Target::Settings, Target::Load])
}

/// The flags of `export-lp`: `solve`'s but the input `--format`, which names the model
/// file's format there.
fn export_flags(e: &dyn Entry) -> Vec<Flag> {
    let mut flags = e.flags();
    flags.retain(|f| f.long != "format");
    flags
}

const ALL_TARGETS: [Target; 4] = [Target::Settings, Target::Load, Target::Spec, Target::Tool];

fn tool_command(e: &dyn Entry, t: &Tool) -> Command {
    let mut cmd = Command::new(e.name())
        .visible_aliases(t.aliases)
        .about(t.title)
        .arg(
            Arg::new("file")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help(t.input),
        );
    if t.flags.iter().any(|f| f.target == Target::Settings) {
        cmd = cmd.arg(path(
            "settings",
            "The problem's settings, JSON or TOML; the options override it",
        ));
    }
    if let Some(help) = t.output {
        cmd = cmd.arg(path("output", help));
    }
    flag_args(cmd, &t.flags, &ALL_TARGETS)
}

/// The families' own commands, each once, with one subcommand per family offering it.
fn tool_commands() -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    for e in registry() {
        for t in e.tools() {
            let sub = tool_command(*e, &t);
            match out.iter_mut().find(|c| c.get_name() == t.command) {
                Some(c) => *c = std::mem::take(c).subcommand(sub),
                None => out.push(
                    Command::new(t.command)
                        .about(t.about)
                        .subcommand_required(true)
                        .subcommand(sub),
                ),
            }
        }
    }
    out
}

/// The whole command line.
pub fn command() -> Command {
    let problems = registry();
    let mut experiment = Command::new("experiment")
        .about("Run a sweep of the papers' instance sets, merge shards, write reports")
        .subcommand_required(true);
    for e in problems {
        for s in e.sweeps() {
            experiment = experiment.subcommand(sweep_command(s.name, s.title));
        }
        for s in e.studies() {
            experiment = experiment.subcommand(study_command(s.name, s.title));
        }
    }
    for s in vcalloc::problem::engine_studies() {
        experiment = experiment.subcommand(study_command(s.name, s.title));
    }
    experiment = experiment.subcommand(
        Command::new("merge")
            .about("Join the results of shard folders into one folder (and its report)")
            .arg(
                Arg::new("dirs")
                    .num_args(1..)
                    .required(true)
                    .value_parser(clap::value_parser!(PathBuf)),
            )
            .arg(output("DIR", "Output folder").required(true)),
    );
    Command::new("vcalloc")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Optimal and certified near-optimal resource allocation for virtualized clusters.")
        .subcommand_required(true)
        .arg(
            Arg::new("quiet")
                .short('q')
                .long("quiet")
                .global(true)
                .action(ArgAction::SetTrue)
                .conflicts_with("verbose")
                .help("No progress lines on stderr (errors and warnings still)"),
        )
        .arg(
            Arg::new("verbose")
                .short('v')
                .long("verbose")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("A progress line every second, and the methods' own log (info)"),
        )
        .arg(
            Arg::new("log")
                .long("log")
                .global(true)
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("The log (what stderr shows under -q/-v/default) also to FILE, created or truncated"),
        )
        .subcommand(
            Command::new("solve")
                .about("Solve an instance with one method; prints the solution JSON")
                .subcommand_required(true)
                .subcommands(problems.iter().map(|e| solve_command(*e))),
        )
        .subcommand(
            Command::new("verify")
                .about("Re-check a solution file against its instance (exit 1 on a violation); the problem is the solution's")
                .arg(Arg::new("instance").required(true).value_parser(clap::value_parser!(PathBuf)))
                .arg(Arg::new("solution").required(true).value_parser(clap::value_parser!(PathBuf)))
                .arg(Arg::new("strict").long("strict").action(ArgAction::SetTrue).help("Exit 1 when an `optimal` or a bound rests only on a claim verify could not re-derive (a solver's, a missing proof, a search not re-run)"))
                .arg(Arg::new("deep").long("deep").action(ArgAction::SetTrue).help("Re-run search proofs (branch-and-bound, enumeration) and, for small instances, a second exact method"))
                .arg(Arg::new("deep-seconds").long("deep-seconds").value_name("S").value_parser(clap::value_parser!(f64)).help("Seconds each --deep re-run may take (default 60)"))
                .arg(Arg::new("rest").num_args(0..).trailing_var_arg(true).allow_hyphen_values(true).help("The problem's input options, e.g. --hosts 16 for a CSV instance")),
        )
        .subcommand(
            Command::new("generate")
                .about("Generate a random instance")
                .subcommand_required(true)
                .subcommands(problems.iter().map(|e| generate_command(*e))),
        )
        .subcommand(
            Command::new("export-lp")
                .about("Write an instance's model in CPLEX LP format, for any other solver")
                .subcommand_required(true)
                .subcommands(problems.iter().map(|e| export_command(*e))),
        )
        .subcommand(
            Command::new("methods")
                .about("List the problems, their methods and options")
                .arg(Arg::new("problem")),
        )
        .subcommand(
            Command::new("settings")
                .about("Print every setting of a problem's methods as TOML that --settings reads back: the defaults, or a settings file merged over them")
                .subcommand_required(true)
                .subcommands(problems.iter().map(|e| {
                    Command::new(e.name())
                        .about(e.title())
                        .arg(path("settings", "A settings file (JSON or TOML) to show merged over the defaults"))
                        .arg(path("output", "Write the TOML here (atomically) instead of standard output"))
                })),
        )
        .subcommand(Command::new("demo").about("Solve the embedded demo instance with an exact method and two heuristics"))
        .subcommand(experiment)
        .subcommand(selfcheck_command())
        .subcommands(tool_commands())
}

fn selfcheck_command() -> Command {
    let num = |id, name, help| value(id, name, help).value_parser(clap::value_parser!(u64));
    Command::new("selfcheck")
        .about("Soak: random tiny instances of every family, exact methods against brute force, bounds and heuristics against the optimum, every answer verified; exit 1 on any disagreement")
        .arg(num("cases", "N", "Cases, dealt round-robin over the families (default 1000)").default_value("1000"))
        .arg(num("seed", "K", "Base seed (default 1)").default_value(DEFAULT_SEED))
        .arg(value("problem", "PROBLEM", "Only this family"))
        .arg(num("replay", "SEED", "Run the one case of this seed (printed by a failed soak) and show it; needs --problem").requires("problem"))
        .arg(num("threads", "T", "Worker threads (default: every core)"))
}

fn problem_of(m: &ArgMatches) -> (&'static dyn Entry, &ArgMatches) {
    let (name, sub) = m.subcommand().expect("a problem is required");
    let e = registry()
        .iter()
        .copied()
        .find(|e| e.name() == name)
        .expect("subcommands come from the registry");
    (e, sub)
}

/// How much goes to stderr while a command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// `-q`: errors and warnings only.
    Quiet,
    /// The default: `solve` adds a progress line every few seconds.
    Normal,
    /// `-v`: a progress line every second and the methods' `info` log.
    Verbose,
}

/// Parses the process's arguments (clap prints help and errors itself, exit 2).
pub fn parse() -> (Cmd, Verbosity, Option<PathBuf>) {
    parse_from(std::env::args_os())
}

fn parse_from(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> (Cmd, Verbosity, Option<PathBuf>) {
    let m = command().get_matches_from(args);
    let (_, sub) = m.subcommand().expect("a command is required");
    // `-q`/`-v` are global: given after the subcommand, they are its matches'.
    let flag = |id: &str| {
        m.get_flag(id) || sub.get_flag(id) || sub.subcommand().is_some_and(|(_, s)| s.get_flag(id))
    };
    let verbosity = match (flag("quiet"), flag("verbose")) {
        (true, _) => Verbosity::Quiet,
        (_, true) => Verbosity::Verbose,
        _ => Verbosity::Normal,
    };
    let log = [Some(&m), Some(sub), sub.subcommand().map(|(_, s)| s)]
        .into_iter()
        .flatten()
        .find_map(|x| x.get_one::<PathBuf>("log").cloned());
    (command_of(&m), verbosity, log)
}

fn command_of(m: &ArgMatches) -> Cmd {
    let (name, sub) = m.subcommand().expect("a command is required");
    let one = |id: &str| sub.get_one::<PathBuf>(id).cloned();
    match name {
        "solve" => {
            let (problem, s) = problem_of(sub);
            Cmd::Solve(Solve {
                problem,
                file: s.get_one::<PathBuf>("file").cloned().expect("required"),
                method: s.get_one::<String>("method").cloned().expect("required"),
                time_limit: s.get_one::<f64>("time-limit").copied(),
                seed: s.get_one::<u64>("seed").copied(),
                threads: s.get_one::<u32>("threads").copied(),
                settings: s.get_one::<PathBuf>("settings").cloned(),
                output: s.get_one::<PathBuf>("output").cloned(),
                flags: given(s, &problem.flags(), &[Target::Settings, Target::Load]),
            })
        }
        "verify" => {
            let rest: Vec<String> = sub
                .get_many::<String>("rest")
                .map(|v| v.cloned().collect())
                .unwrap_or_default();
            // After the files the options may land among the problem's (a trailing list).
            let given = |id: &str, long: &str| sub.get_flag(id) || rest.iter().any(|a| a == long);
            Cmd::Verify {
                instance: one("instance").expect("required"),
                solution: one("solution").expect("required"),
                strict: given("strict", "--strict"),
                deep: given("deep", "--deep"),
                deep_seconds: sub.get_one::<f64>("deep-seconds").copied(),
                rest,
            }
        }
        "generate" => {
            let (problem, s) = problem_of(sub);
            let mut flags = given(s, &problem.flags(), &[Target::Spec]);
            let seed = s.get_one::<String>("seed").cloned().expect("required");
            flags.push((SEED, seed));
            Cmd::Generate {
                problem,
                flags,
                output: s.get_one::<PathBuf>("output").cloned(),
            }
        }
        "export-lp" => {
            let (problem, s) = problem_of(sub);
            Cmd::ExportLp {
                problem,
                instance: s.get_one::<PathBuf>("instance").cloned().expect("required"),
                out: s.get_one::<PathBuf>("out").cloned().expect("required"),
                settings: s.get_one::<PathBuf>("settings").cloned(),
                flags: given(s, &export_flags(problem), &[Target::Settings, Target::Load]),
                format: s.get_one::<String>("format").cloned(),
            }
        }
        "methods" => Cmd::Methods {
            problem: sub.get_one::<String>("problem").map(|p| {
                vcalloc::problem::find(p).unwrap_or_else(|e| {
                    eprintln!("error: {e}");
                    std::process::exit(2)
                })
            }),
        },
        "demo" => Cmd::Demo,
        "settings" => {
            let (problem, s) = problem_of(sub);
            Cmd::Settings {
                problem,
                file: s.get_one::<PathBuf>("settings").cloned(),
                output: s.get_one::<PathBuf>("output").cloned(),
            }
        }
        "experiment" => experiment(sub),
        "selfcheck" => {
            let n = |id: &str| sub.get_one::<u64>(id).copied();
            Cmd::SelfCheck(SelfCheck {
                cases: n("cases").expect("defaulted") as usize,
                seed: n("seed").expect("defaulted"),
                problem: sub.get_one::<String>("problem").cloned(),
                replay: n("replay"),
                threads: n("threads").map(|t| t as usize),
            })
        }
        tool if registry()
            .iter()
            .any(|e| e.tools().iter().any(|t| t.command == tool)) =>
        {
            let (problem, s) = problem_of(sub);
            let t = problem
                .tools()
                .into_iter()
                .find(|t| t.command == tool)
                .expect("tool subcommands come from the registry");
            Cmd::Tool(ToolRun {
                problem,
                command: tool.to_string(),
                file: s.get_one::<PathBuf>("file").cloned().expect("required"),
                settings: t
                    .flags
                    .iter()
                    .any(|f| f.target == Target::Settings)
                    .then(|| s.get_one::<PathBuf>("settings").cloned())
                    .flatten(),
                output: t
                    .output
                    .and_then(|_| s.get_one::<PathBuf>("output").cloned()),
                flags: given(s, &t.flags, &ALL_TARGETS),
            })
        }
        other => unreachable!("clap knows no command `{other}`"),
    }
}

/// Every generator specification has its seed under `seed`.
const SEED: Flag = Flag::takes("seed", Target::Spec, "seed", "N", "");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }
}
