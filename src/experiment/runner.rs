//! Runs a sweep: instances in parallel (rayon, one HiGHS thread per solve), one CSV row per
//! (instance, method) appended as soon as it completes, rows already in the CSV skipped (a
//! killed run resumes where it stopped), an optional deterministic shard `k/n`.

use super::row::Row;
use super::sets::{instances, Generated, InstanceRef, SetName};
use crate::error::{Error, InputError, Location, Result};
use crate::{periodic, vcsched};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options of a sweep.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Which sweep.
    pub set: SetName,
    /// Output folder (`results.csv`, `report.md`, `instances/`).
    pub out: PathBuf,
    /// Instances per specification.
    pub per_spec: usize,
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
    /// VCSched: the LP giving the relaxation's point (`lp-bound`, RRND, RRNZ).
    pub relaxation: vcsched::relaxation::Route,
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

/// Path of the results file in a folder.
pub fn results_path(dir: &Path) -> PathBuf {
    dir.join("results.csv")
}

/// Reads the rows of a results file, dropping a torn last line (an interrupted write).
pub fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| {
            InputError::new(
                path,
                Location::File,
                "",
                format!("cannot read the results: {e}"),
            )
        })?;
    let mut rows = Vec::new();
    for rec in rdr.deserialize::<Row>() {
        match rec {
            Ok(r) => rows.push(r),
            Err(e) => log::warn!("{}: skipping an unreadable row ({e})", path.display()),
        }
    }
    Ok(rows)
}

/// Writes rows (with a header) to `path`, replacing it.
pub fn write_rows(path: &Path, rows: &[Row]) -> Result<()> {
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let mut w = csv::Writer::from_path(path).map_err(|e| io(e.into()))?;
    for r in rows {
        w.serialize(r).map_err(|e| io(e.into()))?;
    }
    w.flush().map_err(io)
}

/// An error unless `verify` found nothing: a sweep never records an unchecked answer.
fn checked(violations: usize, method: &str, inst: &InstanceRef) -> Result<()> {
    if violations == 0 {
        Ok(())
    } else {
        Err(Error::Consistency(format!(
            "{method} on {} failed verification",
            inst.id
        )))
    }
}

fn fill_vcsched(
    row: &mut Row,
    inst: &InstanceRef,
    i: &vcsched::Instance,
    method: &str,
    opts: &RunOptions,
    lp: &vcsched::SharedRelaxation,
) -> Result<()> {
    let m: vcsched::Method = method
        .parse()
        .map_err(|e: String| arg("--methods", method, &e))?;
    let mut settings = vcsched::Settings {
        time_limit: opts.time_limit,
        seed: inst.seed,
        relaxation: opts.relaxation,
        ..Default::default()
    };
    settings.highs.threads = 1;
    let s = vcsched::solve_sharing(i, m, &settings, lp)?;
    checked(vcsched::verify(i, &s).len(), method, inst)?;
    row.status = s.status.as_str().into();
    row.objective = s.min_yield;
    row.objective2 = s.avg_yield;
    row.bound = s.upper_bound;
    row.gap = s.gap;
    row.seconds = s.seconds;
    row.iterations = ["attempts", "trials", "highs_iterations", "moves"]
        .iter()
        .find_map(|k| s.stats.get(*k).copied());
    row.migration = s.migration;
    Ok(())
}

fn fill_periodic(
    row: &mut Row,
    inst: &InstanceRef,
    i: &periodic::Instance,
    method: &str,
    opts: &RunOptions,
) -> Result<()> {
    let m: periodic::Method = method
        .parse()
        .map_err(|e: String| arg("--methods", method, &e))?;
    let mut settings = periodic::Settings {
        time_limit: opts.time_limit,
        ..Default::default()
    };
    settings.highs.threads = 1;
    let s = periodic::solve(i, m, &settings)?;
    checked(periodic::verify(i, &s).len(), method, inst)?;
    row.status = s.status.as_str().into();
    row.objective = s.machines.map(|m| m as f64);
    row.bound = Some(s.lower_bound as f64);
    row.gap = s.gap;
    row.seconds = s.seconds;
    row.iterations = Some(f64::from(s.iterations));
    Ok(())
}

fn solve_one(
    set: SetName,
    inst: &InstanceRef,
    generated: &Generated,
    method: &str,
    opts: &RunOptions,
    lp: &vcsched::SharedRelaxation,
) -> Row {
    let mut row = Row::for_instance(set.name(), inst, method);
    let answer = match generated {
        Generated::Vcsched(i) => fill_vcsched(&mut row, inst, i, method, opts, lp),
        Generated::Periodic(i) => fill_periodic(&mut row, inst, i, method, opts),
    };
    if let Err(e) = answer {
        row.status = "error".into();
        row.error = Some(e.to_string());
    }
    row
}

/// Runs the sweep described by `opts`.
pub fn run(opts: &RunOptions) -> Result<RunSummary> {
    let methods = if opts.methods.is_empty() {
        opts.set.default_methods()
    } else {
        opts.methods.clone()
    };
    // Reject unknown methods before any work.
    for m in &methods {
        let ok = match opts.set {
            SetName::PeriodicSynthetic => m.parse::<periodic::Method>().is_ok(),
            _ => m.parse::<vcsched::Method>().is_ok(),
        };
        if !ok {
            return Err(arg(
                "--methods",
                m,
                &format!("not a method of {}", opts.set.name()),
            ));
        }
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
    if opts.per_spec == 0 || opts.threads == 0 {
        return Err(arg(
            "--instances-per-spec/--threads",
            0,
            "must be at least 1",
        ));
    }
    std::fs::create_dir_all(&opts.out).map_err(|e| Error::Io {
        path: opts.out.clone(),
        source: e,
    })?;
    let csv_path = results_path(&opts.out);
    let existing = if csv_path.exists() {
        read_rows(&csv_path)?
    } else {
        Vec::new()
    };
    // Rewrite what is readable: this drops a line torn by an interrupted run.
    write_rows(&csv_path, &existing)?;
    let done: HashSet<(String, String)> = existing.iter().map(Row::key).collect();

    let all = instances(opts.set, opts.per_spec, opts.seed);
    let work: Vec<(InstanceRef, Vec<String>)> = all
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
    let skipped = existing.len();
    if opts.save_instances {
        let dir = opts.out.join("instances");
        std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
            path: dir.clone(),
            source: e,
        })?;
    }

    let (tx, rx) = std::sync::mpsc::channel::<Row>();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .map_err(|e| Error::Io {
            path: csv_path.clone(),
            source: e,
        })?;
    let writer = std::thread::spawn(move || -> std::result::Result<(usize, usize), csv::Error> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(existing.is_empty())
            .from_writer(file);
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
        for row in rx {
            errors += usize::from(row.status == "error");
            w.serialize(&row)?;
            w.flush()?;
            written += 1;
            match &bar {
                Some(b) => b.inc(1),
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
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::Consistency(format!("thread pool: {e}")))?;
    pool.install(|| {
        work.par_iter()
            .for_each_with(tx, |tx, (inst, todo)| match inst.generate() {
                Ok(generated) => {
                    if opts.save_instances {
                        let json = match &generated {
                            Generated::Vcsched(i) => i.to_json(),
                            Generated::Periodic(i) => i.to_json(),
                        };
                        let path = opts.out.join("instances").join(format!("{}.json", inst.id));
                        if let Err(e) = std::fs::write(&path, json) {
                            log::warn!("{}: {e}", path.display());
                        }
                    }
                    // lp-bound, rrnd and rrnz of one instance solve its relaxation once.
                    let lp = vcsched::SharedRelaxation::default();
                    for m in todo {
                        let _ = tx.send(solve_one(opts.set, inst, &generated, m, opts, &lp));
                    }
                }
                Err(e) => {
                    for m in todo {
                        let mut row = Row::for_instance(opts.set.name(), inst, m);
                        row.status = "error".into();
                        row.error = Some(format!("generation: {e}"));
                        let _ = tx.send(row);
                    }
                }
            });
    });
    let (written, errors) = writer
        .join()
        .map_err(|_| Error::Consistency("the CSV writer thread panicked".into()))?
        .map_err(|e| Error::Io {
            path: csv_path.clone(),
            source: e.into(),
        })?;
    Ok(RunSummary {
        written,
        skipped,
        errors,
    })
}

/// Joins the results of several folders (shards) into `out/results.csv`: one row per
/// (instance, method), sorted, so a merged sharded sweep equals the unsharded one.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<usize> {
    let mut rows: Vec<Row> = Vec::new();
    let mut seen = HashSet::new();
    for d in dirs {
        for r in read_rows(&results_path(d))? {
            if seen.insert(r.key()) {
                rows.push(r);
            }
        }
    }
    rows.sort_by(|a, b| {
        (a.set.as_str(), a.instance.as_str(), a.method.as_str()).cmp(&(
            b.set.as_str(),
            b.instance.as_str(),
            b.method.as_str(),
        ))
    });
    std::fs::create_dir_all(out).map_err(|e| Error::Io {
        path: out.to_path_buf(),
        source: e,
    })?;
    write_rows(&results_path(out), &rows)?;
    Ok(rows.len())
}
