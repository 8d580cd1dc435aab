//! The command-line front end: parses arguments, calls the library, prints results.

pub mod args;
mod commands;
mod periodic;
mod table;

pub use commands::run;
