//! VCSched (Casanova, Schanzenbach, Stillwell, Vivien, RR-6692, 2008): place jobs with a CPU
//! need and a memory need on identical hosts so as to maximise the minimum yield, then the
//! average yield.

pub mod adapt;
mod allocation;
pub mod avg_lp;
pub mod brute;
pub mod generate;
pub mod greedy;
mod instance;
pub mod mcb;
mod method;
pub mod milp;
pub mod perturb;
pub mod relabel;
pub mod relaxation;
pub mod rounding;
mod solution;
mod verify;

pub use allocation::{
    allocate, host_loads, memory_feasible, placement_min_yield, Allocation, Placement,
};
pub use generate::{generate, Spec};
pub use instance::{Instance, Job, MAX_HOSTS, MAX_TASKS};
pub use method::{solve, solve_sharing, Method, Settings, SharedRelaxation, BUDGET_TOLERANCE};
pub use solution::{JobGrant, Solution};
pub use verify::{verify, OPTIMALITY_GAP, TOLERANCE};
