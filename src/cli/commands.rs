//! One function per command. Exit codes: 0 success, 1 a verification failed, 2 bad input,
//! 3 a solver or consistency failure.

use super::args::{Cmd, Solve, ToolRun};
use super::output::Output;
use std::path::Path;
use vcalloc::problem::{self, Applied, Common, Entry, Flag, FlagValue, SolveRequest, Target};
use vcalloc::solver::ModelFormat;
use vcalloc::{Error, InputError, Location};

/// Runs a parsed command line; returns the process exit code.
pub fn run(cmd: Cmd) -> i32 {
    let result = match cmd {
        Cmd::Solve(s) => solve(&s),
        Cmd::Verify {
            instance,
            solution,
            rest,
            strict,
            deep,
            deep_seconds,
        } => verify(&instance, &solution, &rest, strict, deep, deep_seconds),
        Cmd::Generate {
            problem,
            flags,
            output,
        } => Output::check(output.as_deref()).and_then(|out| {
            // The instance's own format where the file name asks for it (`.cbp`), JSON on
            // standard output.
            let path = output.as_deref().filter(|_| !out.is_stdout());
            let text = problem.generate(&applied(&flags), path)?;
            out.write(format!("{text}\n").as_bytes())?;
            Ok(0)
        }),
        Cmd::ExportLp {
            problem,
            instance,
            out,
            settings,
            flags,
            format,
        } => export_lp(
            problem,
            &instance,
            &out,
            settings.as_deref(),
            &flags,
            format.as_deref(),
        ),
        Cmd::Methods { problem } => {
            print!("{}", methods(problem));
            Ok(0)
        }
        Cmd::Settings {
            problem,
            file,
            output,
        } => Output::check(output.as_deref()).and_then(|out| {
            out.write(problem.settings_toml(file.as_deref())?.as_bytes())?;
            Ok(0)
        }),
        Cmd::Demo => vcalloc::problem::registry::demo().map(|text| {
            print!("{text}");
            0
        }),
        Cmd::Sweep(s) => super::experiment::sweep(&s),
        Cmd::Merge { dirs, out } => super::experiment::merge(&dirs, &out),
        Cmd::Study {
            name,
            args,
            threads,
        } => super::experiment::study(&name, &args, threads),
        Cmd::Tool(t) => tool(&t),
        Cmd::SelfCheck(a) => super::selfcheck::run(&a),
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

fn applied(flags: &[(Flag, String)]) -> Vec<Applied<'_>> {
    flags.iter().map(|(f, v)| (f, v.as_str())).collect()
}

pub fn argument(name: &str, value: impl ToString, why: &str) -> Error {
    InputError::new(
        "<arguments>",
        Location::Argument(name.into()),
        value.to_string(),
        why,
    )
    .into()
}

/// The checks of the options every solving command shares.
pub fn check_limits(time_limit: Option<f64>, threads: Option<usize>) -> vcalloc::Result<()> {
    problem::registry::check_limits(time_limit, threads, ["--time-limit", "--threads"])
}

fn solve(a: &Solve) -> vcalloc::Result<i32> {
    check_limits(a.time_limit, a.threads.map(|t| t as usize))?;
    let output = Output::check(a.output.as_deref())?;
    super::signals::stop_solves_on_ctrl_c();
    let flags = applied(&a.flags);
    let answer = a.problem.solve(&SolveRequest {
        file: &a.file,
        method: &a.method,
        settings: a.settings.as_deref(),
        flags: &flags,
        common: Common {
            seed: a.seed,
            threads: a.threads,
        },
        time_limit: a.time_limit,
    })?;
    output.write(format!("{}\n", answer.json).as_bytes())?;
    // The table is for a person: on stdout beside a written file, on stderr when stdout
    // holds the JSON (`--output -`), absent when the JSON is the whole answer.
    if !output.is_stdout() {
        print!("{}", answer.table);
    } else if a.output.is_some() {
        eprint!("{}", answer.table);
    }
    if vcalloc::solver::interrupted() {
        let c = &answer.certificate;
        let num = |x: Option<f64>| x.map_or("none".to_string(), |v| v.to_string());
        eprintln!(
            "interrupted: stopped as at a time limit after {:.2} s; status {}, incumbent {}, bound {}, gap {}",
            c.seconds,
            c.status,
            num(c.objective),
            num(c.bound),
            num(c.gap)
        );
        return Ok(130);
    }
    Ok(0)
}

/// `--name value`, `--name=value` and switches, read against the problem's load flags.
fn load_flags(problem: &dyn Entry, rest: &[String]) -> vcalloc::Result<Vec<(Flag, String)>> {
    let table: Vec<Flag> = problem
        .flags()
        .into_iter()
        .filter(|f| f.target == Target::Load)
        .collect();
    let mut out = Vec::new();
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        let (name, inline) = match w.strip_prefix("--").map(|n| n.split_once('=')) {
            Some(Some((n, v))) => (n, Some(v.to_string())),
            Some(None) => (&w[2..], None),
            None => {
                return Err(argument(
                    "verify",
                    w,
                    "expected an option such as --hosts N",
                ))
            }
        };
        let flag = table.iter().find(|f| f.long == name).ok_or_else(|| {
            let names: Vec<String> = table.iter().map(|f| format!("--{}", f.long)).collect();
            argument(
                &format!("--{name}"),
                "",
                &format!(
                    "not an input option of {}; it has: {}",
                    problem.name(),
                    names.join(" ")
                ),
            )
        })?;
        let text = match (flag.value, inline) {
            (FlagValue::Sets(_), _) => String::new(),
            (FlagValue::Takes(_), Some(v)) => v,
            (FlagValue::Takes(_), None) => words
                .next()
                .cloned()
                .ok_or_else(|| argument(&format!("--{name}"), "", "needs a value"))?,
        };
        out.push((*flag, text));
    }
    Ok(out)
}

fn verify(
    instance: &Path,
    solution: &Path,
    rest: &[String],
    strict: bool,
    deep: bool,
    deep_seconds: Option<f64>,
) -> vcalloc::Result<i32> {
    if vcalloc::input::is_stdio(instance) && vcalloc::input::is_stdio(solution) {
        return Err(argument(
            "verify",
            "- -",
            "standard input can hold the instance or the solution, not both",
        ));
    }
    let problem = problem::registry::of_solution(solution)?;
    let mut rest = rest.to_vec();
    let mut seconds = deep_seconds;
    // `--strict`, `--deep` and `--deep-seconds S` where the trailing list took them.
    let mut i = 0;
    while i < rest.len() {
        match rest[i].as_str() {
            "--strict" | "--deep" => {
                rest.remove(i);
            }
            "--deep-seconds" => {
                rest.remove(i);
                let v = if i < rest.len() {
                    rest.remove(i)
                } else {
                    String::new()
                };
                seconds = Some(v.parse().map_err(|_| {
                    argument("--deep-seconds", &v, "must be a positive number of seconds")
                })?);
            }
            _ => i += 1,
        }
    }
    let seconds = seconds.unwrap_or(60.0);
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(argument(
            "--deep-seconds",
            seconds.to_string(),
            "must be a positive number of seconds",
        ));
    }
    let depth = if deep {
        problem::Depth::deep(seconds)
    } else {
        problem::Depth::shallow()
    };
    let flags = load_flags(problem, &rest)?;
    let v = problem.verify(instance, solution, &applied(&flags), depth)?;
    let objection = strict.then(|| v.strict_objection()).flatten();
    if v.violations.is_empty() {
        println!(
            "ok: {} satisfies every constraint; {}",
            v.summary,
            v.bound.describe()
        );
    } else {
        for x in &v.violations {
            println!("violated {x}");
        }
    }
    if let Some(why) = &objection {
        println!("strict: {why}");
    }
    Ok(i32::from(!v.violations.is_empty() || objection.is_some()))
}

fn export_lp(
    problem: &dyn Entry,
    instance: &Path,
    out: &Path,
    settings: Option<&Path>,
    flags: &[(Flag, String)],
    format: Option<&str>,
) -> vcalloc::Result<i32> {
    let output = Output::check(Some(out))?;
    let by_extension = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mps"))
        .then_some("mps");
    let format: ModelFormat = format
        .or(by_extension)
        .unwrap_or("lp")
        .parse()
        .map_err(|why: String| argument("--format", "", &why))?;
    let text = problem
        .export_lp(instance, settings, &applied(flags), format)?
        .ok_or_else(|| argument("export-lp", problem.name(), "this problem has no LP export"))?;
    output.write(text.as_bytes())?;
    Ok(0)
}

fn tool(t: &ToolRun) -> vcalloc::Result<i32> {
    let tool = t
        .problem
        .tools()
        .into_iter()
        .find(|x| x.command == t.command)
        .expect("parsed from the registry");
    let output = t
        .output
        .as_deref()
        .map(|p| Output::check(Some(p)))
        .transpose()?;
    let staged = output.as_ref().map(Output::staged).transpose()?;
    let flags = applied(&t.flags);
    let text = (tool.run)(&problem::ToolArgs {
        file: &t.file,
        flags: &flags,
        settings: t.settings.as_deref(),
        output: staged.as_ref().map(|s| s.path()),
    })?;
    if let Some(s) = staged {
        s.commit()?;
    }
    // With `--output -` stdout holds the file; the summary goes to stderr.
    if output.as_ref().is_some_and(Output::is_stdout) {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(0)
}

/// The options of every `solve` (and of the sweeps and studies that solve), before the
/// problems' own.
const COMMON_OPTIONS: &str = "\
options of every `solve`:
    --method M                 the method (required)
    --time-limit S             wall-clock seconds for the whole method; on it the incumbent, bound and gap
    --seed K                   seed of the randomised methods
    --threads T                threads the external solver may use (periodic: its exact pricing too)
    --settings FILE            every setting, JSON or TOML (`vcalloc settings PROBLEM` prints the defaults)
    --output FILE              the solution JSON, written atomically (`-`: stdout, the table on stderr)
    FILE `-`                   the instance from standard input (format by --format or the content)
sweeps and studies also take --time-limit S (per solve), --threads T (workers), --seed K (default 1),
--output DIR (alias --out)
";

/// Every problem (or one) with its methods and options.
fn methods(only: Option<&'static dyn Entry>) -> String {
    let mut out = String::from(COMMON_OPTIONS);
    for e in problem::registry()
        .iter()
        .filter(|e| only.is_none_or(|o| o.name() == e.name()))
    {
        out.push_str(&format!(
            "{} — {} ({})\n  methods:\n",
            e.name(),
            e.title(),
            e.sense().as_str()
        ));
        for (m, d) in e.methods() {
            out.push_str(&format!("    {m:<14} {d}\n"));
        }
        out.push_str("  options:\n");
        for f in e.flags() {
            let (cmd, arg) = match (f.target, f.value) {
                (Target::Spec, _) => ("generate", f.value),
                (_, v) => ("solve", v),
            };
            let name = match arg {
                FlagValue::Takes(n) => format!("--{} {n}", f.long),
                FlagValue::Sets(_) => format!("--{}", f.long),
            };
            out.push_str(&format!("    {cmd:<9} {name:<32} {}\n", f.help));
        }
        let tools: Vec<&str> = e.tools().iter().map(|t| t.command).collect();
        if !tools.is_empty() {
            out.push_str(&format!("  commands: {}\n", tools.join(", ")));
        }
        let sweeps: Vec<&str> = e.sweeps().iter().map(|s| s.name).collect();
        if !sweeps.is_empty() {
            out.push_str(&format!("  sweeps: {}\n", sweeps.join(", ")));
        }
        for s in e.studies() {
            let limit = s
                .limits
                .map_or("a simulation: no --time-limit".into(), |l| {
                    format!("--time-limit limits {l}")
                });
            out.push_str(&format!("  study {}: {limit}\n", s.name));
        }
    }
    if only.is_none() {
        out.push_str("engine — studies over every family with column generation\n");
        for s in problem::engine_studies() {
            out.push_str(&format!(
                "  study {}: --time-limit limits {}\n",
                s.name,
                s.limits.unwrap_or("each solve")
            ));
        }
    }
    out
}
