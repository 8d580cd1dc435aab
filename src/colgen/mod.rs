//! Generic Dantzig–Wolfe column generation for covering masters with unit column costs:
//! the master ([`CoveringMaster`], the covering LP kept alive in HiGHS by
//! [`crate::solver::CoveringLp`]), the [`Pricing`] trait, the loop ([`run`]), a
//! diving heuristic ([`dive`]) and the integer finish ([`solve_integer_master`]). Nothing here knows what a column means.

mod bp;
mod cuts;
mod decisions;
mod dive;
mod engine;
mod enumeration;
mod integer;
mod node;
mod packing;
mod pricing;
mod recover;
mod retire;
pub mod safe;
pub(crate) mod separation;
mod smoothing;
mod stopping;
mod table;
pub mod trace;
pub mod vector;

pub use crate::solver::{Column, CoveringSolution as MasterSolution};
pub use bp::{
    branch_and_price, root_dives, together_groups, BpEnd, BpOutcome, BpSettings, BranchPricing,
};
pub use cuts::{
    cut_coefficient, cut_rhs, subset_row_root, CutEnd, CutOutcome, CutPricing, CutProof,
    CutSettings, Subset,
};
pub use decisions::Decisions;
pub use dive::{dive, dive_with, DiveGuide, DiveOutcome, DiveSettings};
pub use engine::{run, CgOutcome, CgSettings, Convergence, Iteration, Termination};
pub use enumeration::{close_by_enumeration, Closure, EnumerationSettings};
pub use integer::{integer_bins, repeat_by_counts, solve_integer_master, IntegerOutcome};
pub use packing::{
    bins_as_columns, check_partition, partition, quick_then_exact, unit_columns, Searched,
};
pub use separation::Separation;
pub use stopping::{above_next_below, settling_aim};

/// The restricted master problem: the solver adapter's covering LP.
pub type CoveringMaster = crate::solver::CoveringLp;
pub use pricing::{covered_items, price_uncovered, Priced, Pricing};
pub use recover::{recovered_columns, Recovered};
pub use table::{relax, SuffixTable, Taken};
