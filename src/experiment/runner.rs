//! Runs a sweep: instances in parallel (rayon, one solver thread per solve), one CSV row per
//! (instance, method) appended as soon as it completes, rows already in the CSV skipped (a
//! killed run resumes where it stopped), an optional deterministic shard `k/n`.
//!
//! Crash safety: a row is one line, appended whole by one write and synced (`fsync`) before
//! the next batch; the only damage a kill can do is a torn last line, which the resume drops
//! (see [`read_table`]). Whole-file rewrites (resume, the final sort, merge) go to a temporary
//! file renamed over the old one.

use super::row::{read_table, results_path, sort_rows, write_rows, Row};
use crate::error::{Error, InputError, Location, Result};
use crate::problem::{self, Common, Entry, InstanceRef};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options of a sweep.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The sweep's name (a problem's sweep in the registry).
    pub set: String,
    /// Output folder (`results.csv`, `report.md`, `instances/`).
    pub out: PathBuf,
    /// Instances per specification (`None`: the paper's).
    pub per_spec: Option<usize>,
    /// Method names (empty: the set's defaults).
    pub methods: Vec<String>,
    /// Time limit per solve, seconds.
    pub time_limit: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// Shard `(k, n)`, 1-based: instances whose ordinal is `k − 1` modulo `n`.
    pub shard: Option<(usize, usize)>,
    /// Base seed of the instance generator.
    pub seed: u64,
    /// Also write every instance to `out/instances/ID.json`.
    pub save_instances: bool,
    /// A settings file for every solve (the problem's `Settings`).
    pub settings: Option<PathBuf>,
}

/// What a sweep did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Rows written by this run.
    pub written: usize,
    /// Rows found already in the CSV.
    pub skipped: usize,
    /// Rows whose method returned an error.
    pub errors: usize,
}

fn arg(name: &str, value: impl ToString, why: &str) -> Error {
    InputError::new(
        "<arguments>",
        Location::Argument(name.into()),
        value.to_string(),
        why,
    )
    .into()
}

/// Checks the options before any work: the sweep, its methods, shard and counts.
fn check(opts: &RunOptions) -> Result<(&'static dyn Entry, problem::SweepInfo, Vec<String>)> {
    let (entry, sweep) = problem::find_sweep(&opts.set).ok_or_else(|| {
        let names: Vec<&str> = problem::registry()
            .iter()
            .flat_map(|e| e.sweeps())
            .map(|s| s.name)
            .collect();
        arg(
            "experiment",
            &opts.set,
            &format!("unknown sweep; expected one of {}", names.join(", ")),
        )
    })?;
    let methods = if opts.methods.is_empty() {
        sweep.methods.clone()
    } else {
        opts.methods.clone()
    };
    for m in &methods {
        entry.check_method(m).map_err(|e| arg("--methods", m, &e))?;
    }
    if let Some((k, n)) = opts.shard {
        if n == 0 || k == 0 || k > n {
            return Err(arg(
                "--shard",
                format!("{k}/{n}"),
                "must be k/n with 1 <= k <= n",
            ));
        }
    }
    if opts.per_spec == Some(0) || opts.threads == 0 {
        return Err(arg(
            "--instances-per-spec/--threads",
            0,
            "must be at least 1",
        ));
    }
    if let Some(t) = opts.time_limit {
        if !(t.is_finite() && t > 0.0) {
            return Err(arg(
                "--time-limit",
                t,
                "must be a positive number of seconds",
            ));
        }
    }
    if let Some(f) = &opts.settings {
        entry.check_settings(f)?;
    }
    Ok((entry, sweep, methods))
}

/// The rows of one instance: each method's certificate, or its error.
fn run_one(entry: &dyn Entry, opts: &RunOptions, inst: &InstanceRef, todo: &[String]) -> Vec<Row> {
    let common = Common {
        seed: Some(inst.seed),
        threads: Some(1),
    };
    let error_row = |m: &String, e: String| {
        let mut row = Row::for_instance(&opts.set, inst, m);
        row.status = "error".into();
        row.error = Some(e);
        row
    };
    match entry.run_instance(
        inst,
        todo,
        opts.settings.as_deref(),
        &common,
        opts.time_limit,
    ) {
        Ok((json, runs)) => {
            if opts.save_instances {
                let path = opts.out.join("instances").join(format!("{}.json", inst.id));
                if let Err(e) = std::fs::write(&path, json) {
                    log::warn!("{}: {e}", path.display());
                }
            }
            todo.iter()
                .zip(runs)
                .map(|(m, run)| match run {
                    Ok((cert, values, check)) => {
                        let mut row = Row::for_instance(&opts.set, inst, m);
                        row.record(&cert, &values);
                        row.fields.insert("bound_check".into(), check.into());
                        row
                    }
                    Err(e) => error_row(m, e.to_string()),
                })
                .collect()
        }
        Err(e) => todo
            .iter()
            .map(|m| error_row(m, format!("generation: {e}")))
            .collect(),
    }
}

/// Runs the sweep described by `opts`.
pub fn run(opts: &RunOptions) -> Result<RunSummary> {
    let (entry, sweep, methods) = check(opts)?;
    std::fs::create_dir_all(&opts.out).map_err(Error::io(&opts.out))?;
    let csv_path = results_path(&opts.out);
    let header = Row::header(&sweep.columns);
    let existing = if csv_path.exists() {
        let (old_header, rows) = read_table(&csv_path)?;
        // An empty header: no whole line (a file torn before its header was), nothing to keep.
        if !old_header.is_empty() && old_header != header {
            return Err(InputError::new(
                &csv_path,
                Location::Line(1, None),
                old_header.join(","),
                format!("not the header of {}: {}", sweep.name, header.join(",")),
            )
            .into());
        }
        rows
    } else {
        Vec::new()
    };
    // Rewrite what is readable (atomically): this drops a line torn by an interrupted run.
    write_rows(&csv_path, &header, &existing)?;
    let done: HashSet<(String, String)> = existing.iter().map(Row::key).collect();

    let per_spec = opts.per_spec.unwrap_or(sweep.per_spec);
    let work: Vec<(InstanceRef, Vec<String>)> = entry
        .sweep_instances(sweep.name, per_spec, opts.seed)
        .into_iter()
        .filter(|i| opts.shard.is_none_or(|(k, n)| i.ordinal % n == k - 1))
        .filter_map(|i| {
            let todo: Vec<String> = methods
                .iter()
                .filter(|m| !done.contains(&(i.id.clone(), (*m).clone())))
                .cloned()
                .collect();
            (!todo.is_empty()).then_some((i, todo))
        })
        .collect();
    let total: usize = work.iter().map(|(_, m)| m.len()).sum();
    if opts.save_instances {
        let dir = opts.out.join("instances");
        std::fs::create_dir_all(&dir).map_err(Error::io(&dir))?;
    }
    let (tx, rx) = std::sync::mpsc::channel::<Vec<Row>>();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .map_err(Error::io(&csv_path))?;
    let writer = {
        let header = header.clone();
        std::thread::spawn(move || write_as_they_come(file, header, total, rx))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::Consistency(format!("thread pool: {e}")))?;
    pool.install(|| {
        work.par_iter().for_each_with(tx, |tx, (inst, todo)| {
            let _ = tx.send(run_one(entry, opts, inst, todo));
        });
    });
    let (written, errors) = writer
        .join()
        .map_err(|_| Error::Consistency("the CSV writer thread panicked".into()))?
        .map_err(Error::io(&csv_path))?;
    // Complete: the rows in a fixed order, so that a sweep's file depends on nothing but its
    // options (not on threads, completion order or resumes).
    let (_, mut rows) = read_table(&csv_path)?;
    sort_rows(&mut rows);
    write_rows(&csv_path, &header, &rows)?;
    Ok(RunSummary {
        written,
        skipped: existing.len(),
        errors,
    })
}

/// Appends rows to the CSV as they arrive, each a whole line in one write; each batch (the
/// rows waiting when the last one was written) is synced to disk before the next, so a kill or
/// a crash loses at most the rows not yet synced and tears at most the last line. A progress
/// bar on a terminal, a log line every 10 s otherwise.
fn write_as_they_come(
    mut file: std::fs::File,
    header: Vec<String>,
    total: usize,
    rx: std::sync::mpsc::Receiver<Vec<Row>>,
) -> std::io::Result<(usize, usize)> {
    use std::io::Write;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} rows  {per_sec}  eta {eta}",
            )
            .expect("valid template"),
        );
        b
    });
    let (began, mut last_log) = (Instant::now(), Instant::now());
    let (mut written, mut errors) = (0, 0);
    while let Ok(first) = rx.recv() {
        let batch: Vec<Row> = std::iter::once(first)
            .chain(rx.try_iter())
            .flatten()
            .collect();
        for row in &batch {
            errors += usize::from(row.status == "error");
            file.write_all(&row.line(&header))?;
        }
        file.sync_data()?;
        written += batch.len();
        match &bar {
            Some(b) => b.inc(batch.len() as u64),
            None if last_log.elapsed().as_secs_f64() >= 10.0 => {
                last_log = Instant::now();
                let rate = written as f64 / began.elapsed().as_secs_f64();
                let eta = (total - written) as f64 / rate.max(1e-9);
                log::info!("{written}/{total} rows, {rate:.1} rows/s, eta {eta:.0} s");
            }
            None => {}
        }
    }
    if let Some(b) = bar {
        b.finish();
    }
    Ok((written, errors))
}

/// Joins the results of several folders (shards) into `out/results.csv`: one row per
/// (instance, method), sorted, so a merged sharded sweep equals the unsharded one. The
/// folders must share one header.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<usize> {
    let mut rows: Vec<Row> = Vec::new();
    let mut header: Option<Vec<String>> = None;
    let mut seen = HashSet::new();
    for d in dirs {
        let path = results_path(d);
        let (h, rs) = read_table(&path)?;
        match &header {
            Some(first) if *first != h => {
                return Err(InputError::new(
                    &path,
                    Location::Line(1, None),
                    h.join(","),
                    "a different header from the first folder's: another sweep?",
                )
                .into())
            }
            Some(_) => {}
            None => header = Some(h),
        }
        for r in rs {
            if seen.insert(r.key()) {
                rows.push(r);
            }
        }
    }
    sort_rows(&mut rows);
    std::fs::create_dir_all(out).map_err(Error::io(out))?;
    write_rows(&results_path(out), &header.unwrap_or_default(), &rows)?;
    Ok(rows.len())
}
