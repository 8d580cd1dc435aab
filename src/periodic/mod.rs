//! Packing tasks with periodic (sinusoidal) CPU demand on the fewest machines (Belaid &
//! Eyraud-Dubois, 2015): column generation with an integer SOCP knapsack pricing, the §5.2
//! heuristics and the §5.1 lower bound.

mod branch;
pub mod compact;
mod generate;
pub mod heuristics;
mod instance;
pub mod knapsack;
mod method;
mod packing;
pub mod peak;
mod pricing;
mod problem;
mod repack;
mod report;
pub mod selfcheck;
mod solution;
mod tasks;
mod verify;

pub use branch::BranchSettings;
pub use generate::{generate, Amplitude, TaskSize};
pub use instance::{Format, Instance, Job};
pub use method::{remove_over_coverage, solve, solve_within, Method, Settings};
pub use problem::{GenSpec, Load, Periodic};
pub use repack::RepackSettings;

/// The registry name of the family.
pub const NAME: &str = "periodic";
pub use packing::{group, machine_count, Configuration, Machine};
pub use pricing::{PeriodicPricing, PricingSettings};
pub use solution::Solution;
pub use tasks::{task_jobs, TaskPricing};
pub use verify::{sampled_peak, verify, SAMPLES, TOLERANCE};
