//! Sweeps over generated instance sets: parallel runs, progress, a resumable CSV, shards for
//! batch systems, and reports. Knows nothing of how a method works: it calls the problems'
//! `solve` and `verify` and records their answers.

mod plot;
mod report;
mod row;
mod runner;
mod sets;

pub use report::{render, write as write_report, Plot};
pub use row::Row;
pub use runner::{merge, read_rows, results_path, run, write_rows, RunOptions, RunSummary};
pub use sets::{derive_seed, instances, Generated, InstanceRef, SetName, Spec};
