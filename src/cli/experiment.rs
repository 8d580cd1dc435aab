//! The `experiment` commands.

use super::args::Sweep;
use std::path::{Path, PathBuf};
use vcalloc::experiment::{self, read_rows, results_path, RunOptions};

pub fn sweep(a: &Sweep) -> vcalloc::Result<i32> {
    super::commands::check_limits(a.time_limit, a.threads)?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = RunOptions {
        set: a.set.clone(),
        out: a.out.clone(),
        per_spec: a.per_spec,
        methods: a.methods.clone(),
        time_limit: a.time_limit,
        threads,
        shard: a.shard,
        seed: a.seed,
        save_instances: a.save_instances,
        settings: a.settings.clone(),
    };
    let summary = heartbeat(|| experiment::run(&opts), &a.set)?;
    experiment::write_report(&a.out, &read_rows(&results_path(&a.out))?)?;
    println!(
        "{}: {} rows written, {} already present, {} errors; {} and report.md in {}",
        a.set,
        summary.written,
        summary.skipped,
        summary.errors,
        results_path(&a.out).display(),
        a.out.display()
    );
    Ok(if summary.errors > 0 { 3 } else { 0 })
}

/// Runs a sweep or a study with a line in the log whenever it is quiet for an interval.
fn heartbeat<R>(work: impl FnOnce() -> R, name: &str) -> R {
    vcalloc::solver::progress::heartbeat("vcalloc::experiment", work, || format!("{name}: running"))
}

pub fn merge(dirs: &[PathBuf], out: &Path) -> vcalloc::Result<i32> {
    let n = experiment::merge(dirs, out)?;
    experiment::write_report(out, &read_rows(&results_path(out))?)?;
    println!("merged {n} rows into {}", results_path(out).display());
    Ok(0)
}

pub fn study(
    name: &str,
    args: &vcalloc::problem::StudyArgs,
    threads: Option<usize>,
) -> vcalloc::Result<i32> {
    let study =
        vcalloc::problem::find_study(name).expect("the command line lists registered studies");
    super::commands::check_limits(args.time_limit, threads)?;
    if let (Some(t), None) = (args.time_limit, study.limits) {
        return Err(super::commands::argument(
            "--time-limit",
            t,
            &format!("`{name}` takes no time limit: none of its solves is limited (simulations, the fluid bound)"),
        ));
    }
    if let Some(n) = threads {
        // The studies run their instances on rayon's global pool.
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| super::commands::argument("--threads", n, &e.to_string()))?;
    }
    std::fs::create_dir_all(&args.out).map_err(|source| vcalloc::Error::Io {
        path: args.out.clone(),
        source,
    })?;
    let text = heartbeat(|| (study.run)(args), name)?;
    let path = args.out.join("report.md");
    std::fs::write(&path, &text).map_err(|source| vcalloc::Error::Io {
        path: path.clone(),
        source,
    })?;
    println!("{name}: report.md and plots in {}", args.out.display());
    Ok(0)
}
