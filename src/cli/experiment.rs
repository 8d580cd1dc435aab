//! The `experiment` commands.

use super::args::{ExperimentArgs, ExperimentCommand};
use vcalloc::experiment::{self, RunOptions, SetName};

fn sweep(set: SetName, a: &ExperimentArgs) -> vcalloc::Result<i32> {
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = RunOptions {
        set,
        out: a.out.clone(),
        per_spec: a.instances_per_spec.unwrap_or(set.default_per_spec()),
        methods: a.methods.clone(),
        time_limit: a.time_limit,
        threads,
        shard: a.shard,
        seed: a.seed,
        save_instances: a.save_instances,
        relaxation: a.relaxation,
    };
    let summary = experiment::run(&opts)?;
    let rows = experiment::read_rows(&experiment::results_path(&a.out))?;
    write_report(&a.out, &rows)?;
    println!(
        "{}: {} rows written, {} already present, {} errors; {} and report.md in {}",
        set.name(),
        summary.written,
        summary.skipped,
        summary.errors,
        experiment::results_path(&a.out).display(),
        a.out.display()
    );
    Ok(if summary.errors > 0 { 3 } else { 0 })
}

fn write_report(dir: &std::path::Path, rows: &[experiment::Row]) -> vcalloc::Result<()> {
    experiment::write_report(dir, rows)
}

pub fn run(which: ExperimentCommand) -> vcalloc::Result<i32> {
    match which {
        ExperimentCommand::VcschedSmall(a) => sweep(SetName::VcschedSmall, &a),
        ExperimentCommand::VcschedLarge(a) => sweep(SetName::VcschedLarge, &a),
        ExperimentCommand::PeriodicSynthetic(a) => sweep(SetName::PeriodicSynthetic, &a),
        ExperimentCommand::VcschedParallel(a) => sweep(SetName::VcschedParallel, &a),
        ExperimentCommand::VcschedAdapt(a) => sweep(SetName::VcschedAdapt, &a),
        ExperimentCommand::Merge { dirs, out } => {
            let n = experiment::merge(&dirs, &out)?;
            write_report(
                &out,
                &experiment::read_rows(&experiment::results_path(&out))?,
            )?;
            println!(
                "merged {n} rows into {}",
                experiment::results_path(&out).display()
            );
            Ok(0)
        }
    }
}
