//! The command-line front end: parses arguments, calls the library through the problem
//! registry, prints results. It names no problem: the registry gives them.

pub mod args;
mod commands;
mod experiment;
mod output;
mod selfcheck;
pub mod signals;

pub use commands::run;
