//! Bin packing with a second-order-cone capacity (issue 22): a bin holds `S` when
//! `Σ_{i∈S} a_i + D√(Σ_{i∈S} b_i) ≤ c` (Xu et al. 2022, the CloudSmall `.cbp` set), solved to
//! proven optimality by branch-and-price on [`crate::colgen`] with an exact conic-knapsack
//! pricing under Ryan–Foster decisions; first- and best-fit decreasing as baselines, the root
//! column generation alone as a bound; seeded generators, among them the authors' cloud
//! instances (`generate`). Model and choices: `models/packing.md` §8.

mod chord_tables;
mod chords;
pub mod compact;
mod exchanges;
pub mod generate;
mod grid;
mod improve;
mod instance;
mod lagrange;
mod normal;
mod pricing;
mod problem;
pub mod proof;
mod search;
pub mod selfcheck;
mod solve;
mod study;
#[cfg(test)]
mod tests;

pub use improve::{ImproveSettings, ImproveStats};
pub use instance::{Format, Instance};
pub use pricing::{PricingSettings, SocKnapsack};
pub use problem::SocPacking;
pub use solve::{solve, verify, Method, Settings, Solution};

/// The registry name of the family.
pub const NAME: &str = "socbp";
