//! The command-line front end: parses arguments, calls the library, prints results.

pub mod args;
mod commands;
mod experiment;
mod periodic;
mod table;

pub use commands::run;
