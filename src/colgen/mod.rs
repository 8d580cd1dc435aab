//! Generic Dantzig–Wolfe column generation for covering masters with unit column costs:
//! the master over HiGHS ([`CoveringMaster`]), the [`Pricing`] trait, the loop ([`run`]), a
//! diving heuristic ([`dive`]) and the integer finish ([`solve_integer_master`]). Nothing here knows what a column means.

mod dive;
mod engine;
mod integer;
mod master;
mod pricing;

pub use dive::{dive, DiveOutcome, DiveSettings};
pub use engine::{run, CgOutcome, CgSettings, Iteration, Termination};
pub use integer::{solve_integer_master, IntegerOutcome};
pub use master::{Column, CoveringMaster, MasterSolution};
pub use pricing::{Priced, Pricing};
