//! VCSched (Casanova, Schanzenbach, Stillwell, Vivien, RR-6692, 2008): place jobs with a CPU
//! need and a memory need on identical hosts so as to maximise the minimum yield, then the
//! average yield.

pub mod adapt;
mod allocation;
pub mod avg_lp;
pub mod brute;
pub mod exact;
pub mod generate;
pub mod greedy;
pub mod improve;
mod instance;
pub mod lns;
pub mod lp_dual;
pub mod mcb;
mod method;
pub mod milp;
pub mod packing;
pub mod perturb;
mod problem;
pub mod proof;
pub mod relabel;
pub mod relaxation;
mod report;
mod report_paper;
pub mod rounding;
mod routes;
pub mod selfcheck;
mod solution;
mod study;
mod sweeps;
mod table;
mod verify;

pub use allocation::{
    allocate, host_loads, memory_feasible, placement_min_yield, Allocation, Placement,
};
pub use generate::{generate, Spec};
pub use instance::{Format, Instance, Job, BUDGET_TOLERANCE, MAX_HOSTS, MAX_TASKS};
pub use method::{solve, solve_sharing, solve_within, Method, Settings, SharedRelaxation};
pub use problem::{GenSpec, Load, VcSched};
pub use sweeps::ADAPT_BUDGETS;

/// The registry name of the family.
pub const NAME: &str = "vcsched";

pub use solution::{JobGrant, Solution};
pub use verify::{verify, OPTIMALITY_GAP, TOLERANCE};
