//! Packing tasks with periodic (sinusoidal) CPU demand on the fewest machines (Belaid &
//! Eyraud-Dubois, 2015): column generation with an integer SOCP knapsack pricing, the §5.2
//! heuristics and the §5.1 lower bound.

mod aligned_fill;
mod branched;
pub mod compact;
mod generate;
pub mod google;
mod google_study;
pub mod heuristics;
mod instance;
pub mod knapsack;
mod local_search;
mod method;
mod node;
mod packing;
pub mod peak;
mod pricing;
mod problem;
pub mod proof;
mod repack;
mod report;
mod root;
pub mod selfcheck;
mod settings;
mod solution;
mod tree;
mod verify;

pub use aligned_fill::AlignedFillSettings;
pub use branched::{holds, BranchedPricing, Corner, Counts};
pub use generate::{generate, Amplitude, TaskSize};
pub use instance::{Format, Instance, Job};
pub use local_search::LocalSearchSettings;
pub use method::{solve, solve_within, Method, Settings};
pub use problem::{GenSpec, Load, Periodic};
pub use repack::RepackSettings;
pub use root::remove_over_coverage;

/// The registry name of the family.
pub const NAME: &str = "periodic";
pub use packing::{group, machine_count, Configuration, Machine};
pub use pricing::{PeriodicPricing, PricingSettings};
pub use settings::{BranchSettings, FirstPhase, InitialColumns, TreeSettings};
pub use solution::Solution;
pub use tree::TreeEnd;
pub use verify::{sampled_peak, verify, SAMPLES, TOLERANCE};
