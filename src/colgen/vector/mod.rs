//! Vector packing's pricing, shared by every family whose columns are bins with `D` integer
//! capacity rows (bin and vector packing, VCSched's decision "do the tasks fit in `H` hosts
//! at a largest load `t`?"): the exact 0-1 knapsack under Ryan–Foster decisions
//! ([`BinKnapsack`]), first- and best-fit decreasing ([`fit_decreasing`]) and the enumeration of maximal one-dimensional bins
//! ([`maximal_columns`]) behind the reduced-cost enumeration.

mod conflicts;
mod enumerate;
mod fit;
mod knapsack;
mod surrogate;

pub use enumerate::{maximal_bins, maximal_columns, waste_budget, Stopped};
pub use fit::{fit_decreasing, min_bin_slack, relative_size};
pub use knapsack::{BinKnapsack, PricingSettings};
