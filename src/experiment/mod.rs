//! Sweeps over generated instance sets: parallel runs, progress, a resumable CSV, shards for
//! batch systems, and reports. Knows no problem: the [`crate::problem::registry`] gives each
//! sweep's instances, runs the methods (each answer verified) and writes the report.

mod benchmark;
mod plot;
mod report;
mod root_study;
mod row;
mod runner;
mod sets;

pub use benchmark::{read_optima, set_folders, sweep as benchmark_sweep, BenchRun, Known};
pub use plot::Series;
pub use report::{
    by, cell, k, max, mean, median, methods_of, quantile, render, to_series, write as write_report,
    Matrix, Plot,
};
pub use root_study::root_study;
pub use row::{read_rows, read_table, results_path, sort_rows, write_rows, Row};
pub use runner::{merge, run, RunOptions, RunSummary};
pub use sets::{derive_seed, expand, SpecEntry};
