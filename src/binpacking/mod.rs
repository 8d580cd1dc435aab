//! Bin and vector packing (issue 22): BPPLIB, `.vbp` and JSON instances solved to proven optimality by
//! branch-and-price on [`crate::colgen`] (Ryan–Foster branching, an exact knapsack pricing that
//! honours it), with first- and best-fit decreasing as baselines and the root column
//! generation alone as a bound. Model and choices: `models/packing.md`.

mod aggregate;
pub mod compact;
mod cut_pricing;
mod instance;
mod local;
mod problem;
pub mod proof;
mod repack;
pub mod repair;
#[cfg(test)]
mod root_tests;
pub mod selfcheck;
mod solve;
mod study;
mod subset_sums;
#[cfg(test)]
mod tests;
pub mod tight;

pub use crate::colgen::vector::{BinKnapsack, PricingSettings};
pub use cut_pricing::CutKnapsack;
pub use instance::{Format, Instance};
pub use problem::BinPacking;
pub use solve::{solve, verify, Method, Settings, Solution};

/// The registry name of the family.
pub const NAME: &str = "binpacking";
