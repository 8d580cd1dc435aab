//! `vcalloc._vcalloc`: the native half of the `vcalloc` Python package, a thin skin over the
//! problem registry. It speaks what the registry speaks — problem names, method names, the
//! command line's option names, JSON text and paths — and names no problem family. The
//! pure-Python half (`python/vcalloc/__init__.py`) turns dicts into JSON text and back, and
//! holds the docstrings.
//!
//! An instance, a solution or a settings document comes either as a path (any format the
//! command line reads) or as JSON text, which goes through a private temporary file: the
//! families read files (their formats are told by name and content), exactly as
//! `vcalloc solve` does; errors then name the document (`<instance>`) instead of that file.

mod run;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use vcalloc::experiment::{self as runs, RunOptions};
use vcalloc::problem::{self, Applied, Common, Entry, Flag, FlagValue, SolveRequest, Target};
use vcalloc::{Error, Location};

create_exception!(
    vcalloc,
    InputError,
    PyValueError,
    "Bad input: an instance, solution, settings document or argument the engine rejects. The \
     message is the command line's: the file (or `<instance>`, `<settings>`, `<arguments>`), \
     the field, line or argument, the value, and why."
);
create_exception!(
    vcalloc,
    SolverError,
    PyRuntimeError,
    "A solver failure (HiGHS, Clarabel) or an answer that failed its own verification: a bug \
     or a numerical breakdown, never a property of the input."
);

/// The generator's seed, as the command line's `generate --seed`.
const SEED: Flag = Flag::takes("seed", Target::Spec, "seed", "N", "");

/// An engine error as the Python exception of its kind, the message the command line prints
/// after `error: `, with temporary files named as the documents they hold.
fn to_py(e: Error, docs: &[&Doc]) -> PyErr {
    let mut msg = e.to_string();
    for d in docs {
        if d.temporary() {
            msg = msg.replace(&d.path.display().to_string(), d.label);
        }
    }
    match e {
        Error::Input(_) | Error::Io { .. } => InputError::new_err(msg),
        Error::Highs(_) | Error::Clarabel(_) | Error::Consistency(_) => SolverError::new_err(msg),
    }
}

fn argument(name: &str, value: impl ToString, why: impl Into<String>) -> PyErr {
    to_py(
        vcalloc::InputError::new(
            "<arguments>",
            Location::Argument(name.into()),
            value.to_string(),
            why,
        )
        .into(),
        &[],
    )
}

fn entry(name: &str) -> PyResult<&'static dyn Entry> {
    problem::find(name).map_err(|why| argument("problem", name, why))
}

/// A document given as a path, or as JSON text in a temporary folder of its own (removed
/// when dropped).
struct Doc {
    path: PathBuf,
    folder: Option<PathBuf>,
    label: &'static str,
}

static DOCS: AtomicUsize = AtomicUsize::new(0);

impl Doc {
    /// `value` is a path, or when `inline` the text of a `name` file.
    fn new(value: String, inline: bool, name: &str, label: &'static str) -> Result<Doc, Error> {
        if !inline {
            return Ok(Doc {
                path: PathBuf::from(value),
                folder: None,
                label,
            });
        }
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| Error::Io { path, source }
        };
        // A folder this call creates (never one found there): a name taken is skipped.
        let folder = loop {
            let n = DOCS.fetch_add(1, Ordering::Relaxed);
            let folder =
                std::env::temp_dir().join(format!("vcalloc-py-{}-{n}", std::process::id()));
            match std::fs::create_dir(&folder) {
                Ok(()) => break folder,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io(&folder)(e)),
            }
        };
        let path = folder.join(name);
        let doc = Doc {
            path,
            folder: Some(folder),
            label,
        };
        std::fs::write(&doc.path, value).map_err(io(&doc.path))?;
        Ok(doc)
    }

    fn temporary(&self) -> bool {
        self.folder.is_some()
    }
}

impl Drop for Doc {
    fn drop(&mut self) {
        if let Some(f) = &self.folder {
            let _ = std::fs::remove_dir_all(f);
        }
    }
}

/// Keyword options (`cv_mem=0.75`) as the problem's flags of `targets` (`--cv-mem 0.75`).
/// A switch takes `"true"` (given) or `"false"` (left out); a value its text.
fn flags_of(
    e: &dyn Entry,
    options: &[(String, String)],
    targets: &[Target],
    extra: &[Flag],
) -> PyResult<Vec<(Flag, String)>> {
    let table: Vec<Flag> = extra
        .iter()
        .copied()
        .chain(e.flags())
        .filter(|f| targets.contains(&f.target))
        .collect();
    let mut out = Vec::new();
    for (name, value) in options {
        let long = name.replace('_', "-");
        let Some(flag) = table.iter().find(|f| f.long == long) else {
            let mut names: Vec<String> = table
                .iter()
                .filter(|f| f.long != "seed")
                .map(|f| f.long.replace('-', "_"))
                .collect();
            names.dedup();
            return Err(argument(
                name,
                value,
                format!(
                    "not an option of {} here; it takes: {}",
                    e.name(),
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        };
        match (flag.value, value.as_str()) {
            (FlagValue::Sets(_), "true") => out.push((*flag, String::new())),
            (FlagValue::Sets(_), "false") => {}
            (FlagValue::Sets(_), _) => {
                return Err(argument(name, value, "a switch: True or False"));
            }
            (FlagValue::Takes(_), _) => out.push((*flag, value.clone())),
        }
    }
    Ok(out)
}

fn applied(flags: &[(Flag, String)]) -> Vec<Applied<'_>> {
    flags.iter().map(|(f, v)| (f, v.as_str())).collect()
}

fn check_limits(time_limit: Option<f64>, threads: Option<usize>) -> PyResult<()> {
    problem::registry::check_limits(time_limit, threads, ["time_limit", "threads"])
        .map_err(|e| to_py(e, &[]))
}

/// The registered problems, in the order the command line lists them.
#[pyfunction]
fn problems() -> Vec<&'static str> {
    problem::registry().iter().map(|e| e.name()).collect()
}

/// A problem's methods with one line each.
#[pyfunction]
fn methods(problem: &str) -> PyResult<Vec<(String, &'static str)>> {
    Ok(entry(problem)?.methods())
}

/// A problem's keyword options: (name, command, takes a value, help), `command` being
/// `solve` (settings and input options; `verify` takes the input ones) or `generate`.
#[pyfunction]
fn options(problem: &str) -> PyResult<Vec<(String, &'static str, &'static str, &'static str)>> {
    Ok(entry(problem)?
        .flags()
        .into_iter()
        .map(|f| {
            let command = match f.target {
                Target::Spec => "generate",
                Target::Load => "solve/verify",
                _ => "solve",
            };
            let kind = match f.value {
                FlagValue::Takes(v) => v,
                FlagValue::Sets(_) => "switch",
            };
            (f.long.replace('-', "_"), command, kind, f.help)
        })
        .collect())
}

/// Every sweep and study: (name, problem, kind, title).
#[pyfunction]
fn experiments() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let mut out = Vec::new();
    for e in problem::registry() {
        for s in e.sweeps() {
            out.push((s.name, e.name(), "sweep", s.title));
        }
        for s in e.studies() {
            out.push((s.name, e.name(), "study", s.title));
        }
    }
    for s in problem::engine_studies() {
        out.push((s.name, "engine", "study", s.title));
    }
    out
}

/// Every setting's default, as JSON text.
#[pyfunction]
fn settings(py: Python<'_>, problem: &str) -> PyResult<String> {
    let e = entry(problem)?;
    run::released(py, || -> Result<String, Error> {
        let toml = e.settings_toml(None)?;
        let doc = problem::settings_from_text(&toml, Path::new("settings.toml"))?;
        Ok(doc.to_string())
    })?
    .map_err(|err| to_py(err, &[]))
}

/// A generated instance as JSON text.
#[pyfunction]
#[pyo3(signature = (problem, seed, options))]
fn generate(
    py: Python<'_>,
    problem: &str,
    seed: u64,
    options: Vec<(String, String)>,
) -> PyResult<String> {
    let e = entry(problem)?;
    let mut flags = vec![(SEED, seed.to_string())];
    flags.extend(flags_of(e, &options, &[Target::Spec], &[])?);
    run::released(py, || e.generate(&applied(&flags), None))?.map_err(|err| to_py(err, &[]))
}

/// Solves: the solution JSON text and whether this call's Ctrl-C stopped it.
#[pyfunction]
#[pyo3(signature = (problem, instance, inline, method, time_limit, seed, threads, settings, options))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    problem: &str,
    instance: String,
    inline: bool,
    method: String,
    time_limit: Option<f64>,
    seed: Option<u64>,
    threads: Option<u32>,
    settings: Option<String>,
    options: Vec<(String, String)>,
) -> PyResult<(String, bool)> {
    let e = entry(problem)?;
    check_limits(time_limit, threads.map(|t| t as usize))?;
    e.check_method(&method)
        .map_err(|why| argument("method", &method, why))?;
    let flags = flags_of(e, &options, &[Target::Settings, Target::Load], &[])?;
    let (answer, stopped) = run::solve(py, move || {
        let inst = Doc::new(instance, inline, "instance.json", "<instance>")
            .map_err(|err| to_py(err, &[]))?;
        let settings = settings
            .map(|s| Doc::new(s, true, "settings.json", "<settings>"))
            .transpose()
            .map_err(|err| to_py(err, &[]))?;
        let docs: Vec<&Doc> = std::iter::once(&inst).chain(settings.as_ref()).collect();
        e.solve(&SolveRequest {
            file: &inst.path,
            method: &method,
            settings: settings.as_ref().map(|s| s.path.as_path()),
            flags: &applied(&flags),
            common: Common { seed, threads },
            time_limit,
        })
        .map(|a| a.json)
        .map_err(|err| to_py(err, &docs))
    })?;
    Ok((answer?, stopped))
}

/// Re-checks a solution against an instance: the violations, empty when it holds.
#[pyfunction]
#[pyo3(signature = (instance, inline_instance, solution, inline_solution, options, strict=false, deep=false))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    instance: String,
    inline_instance: bool,
    solution: String,
    inline_solution: bool,
    options: Vec<(String, String)>,
    strict: bool,
    deep: bool,
) -> PyResult<Vec<String>> {
    run::released(py, move || {
        let inst = Doc::new(instance, inline_instance, "instance.json", "<instance>")
            .map_err(|err| to_py(err, &[]))?;
        let sol = Doc::new(solution, inline_solution, "solution.json", "<solution>")
            .map_err(|err| to_py(err, &[]))?;
        let docs = [&inst, &sol];
        let e = problem::registry::of_solution(&sol.path).map_err(|err| to_py(err, &docs))?;
        let flags = flags_of(e, &options, &[Target::Load], &[])?;
        let depth = if deep {
            problem::Depth::deep(60.0)
        } else {
            problem::Depth::shallow()
        };
        let v = e
            .verify(&inst.path, &sol.path, &applied(&flags), depth)
            .map_err(|err| to_py(err, &docs))?;
        let objection = strict.then(|| v.strict_objection()).flatten();
        Ok(v.violations
            .iter()
            .map(|v| v.to_string())
            .chain(objection.map(|why| format!("strict: {why}")))
            .collect())
    })?
}

/// A results CSV's rows as JSON text: a list of objects, numbers as numbers, empty cells null.
fn rows_json(out: &Path) -> Result<String, Error> {
    let path = runs::results_path(out);
    if !path.exists() {
        return Ok("[]".into());
    }
    let (header, rows) = runs::read_table(&path)?;
    let cell = |c: String| -> serde_json::Value {
        if c.is_empty() {
            serde_json::Value::Null
        } else if let Ok(i) = c.parse::<i64>() {
            i.into()
        } else if let Ok(u) = c.parse::<u64>() {
            u.into()
        } else if let Some(x) = c.parse::<f64>().ok().filter(|x| x.is_finite()) {
            x.into()
        } else {
            c.into()
        }
    };
    let list: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let obj = header
                .iter()
                .cloned()
                .zip(r.cells(&header).into_iter().map(cell))
                .collect::<serde_json::Map<_, _>>();
            serde_json::Value::Object(obj)
        })
        .collect();
    Ok(serde_json::Value::Array(list).to_string())
}

/// The rows of a sweep's `results.csv` in `out`, as JSON text.
#[pyfunction]
fn rows(py: Python<'_>, out: PathBuf) -> PyResult<String> {
    run::released(py, || rows_json(&out))?.map_err(|err| to_py(err, &[]))
}

/// Runs a sweep or a study into `out`; the rows of its results CSV as JSON text.
#[pyfunction]
#[pyo3(signature = (name, out, instances_per_spec, methods, time_limit, threads, seed, shard, settings, save_instances, input))]
#[allow(clippy::too_many_arguments)]
fn experiment(
    py: Python<'_>,
    name: &str,
    out: PathBuf,
    instances_per_spec: Option<usize>,
    methods: Vec<String>,
    time_limit: Option<f64>,
    threads: Option<usize>,
    seed: u64,
    shard: Option<(usize, usize)>,
    settings: Option<String>,
    save_instances: bool,
    input: Option<PathBuf>,
) -> PyResult<String> {
    check_limits(time_limit, threads)?;
    let sweep = problem::find_sweep(name).is_some();
    let study = problem::find_study(name);
    if !sweep && study.is_none() {
        let names: Vec<&str> = experiments().iter().map(|x| x.0).collect();
        return Err(argument(
            "name",
            name,
            format!(
                "no such sweep or study; expected one of {}",
                names.join(", ")
            ),
        ));
    }
    let name = name.to_string();
    run::released(py, move || {
        let settings = settings
            .map(|s| Doc::new(s, true, "settings.json", "<settings>"))
            .transpose()
            .map_err(|err| to_py(err, &[]))?;
        let docs: Vec<&Doc> = settings.iter().collect();
        let settings = settings.as_ref().map(|s| s.path.clone());
        let done = match study {
            None => runs::run(&RunOptions {
                set: name,
                out: out.clone(),
                per_spec: instances_per_spec,
                methods,
                time_limit,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                shard,
                seed,
                save_instances,
                settings,
            })
            .and_then(|_| runs::write_report(&out, &runs::read_rows(&runs::results_path(&out))?)),
            Some(s) => run_study(
                &s,
                out.clone(),
                seed,
                instances_per_spec,
                settings,
                input,
                time_limit,
            ),
        };
        done.and_then(|_| rows_json(&out))
            .map_err(|err| to_py(err, &docs))
    })?
}

/// A study as `vcalloc experiment STUDY` runs it: its report into `out/report.md`.
fn run_study(
    s: &problem::Study,
    out: PathBuf,
    seed: u64,
    count: Option<usize>,
    settings: Option<PathBuf>,
    input: Option<PathBuf>,
    time_limit: Option<f64>,
) -> Result<(), Error> {
    let io = |path: PathBuf| move |source| Error::Io { path, source };
    std::fs::create_dir_all(&out).map_err(io(out.clone()))?;
    let text = (s.run)(&problem::StudyArgs {
        out: out.clone(),
        seed,
        count,
        settings,
        input,
        time_limit,
    })?;
    let report = out.join("report.md");
    std::fs::write(&report, text).map_err(io(report.clone()))
}

/// The native module.
#[pymodule]
fn _vcalloc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add_function(wrap_pyfunction!(problems, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(options, m)?)?;
    m.add_function(wrap_pyfunction!(experiments, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(rows, m)?)?;
    m.add_function(wrap_pyfunction!(experiment, m)?)?;
    Ok(())
}
