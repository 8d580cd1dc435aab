//! VM capacity metrics for scheduling (Liu, Bobroff, Fong, Seelam, Delgado: "New Metrics for
//! Scheduling Jobs on a Cluster of Virtual Machines"): the min/max/share sharing model,
//! equilibrium capacity (EC) and potential capacity (PC), and the trace-driven simulation of
//! an FCFS greedy scheduler that ranks free VMs by one or the other (§III), with the
//! reproduction of Figs. 5–7 and an exhaustive non-delay FCFS oracle for tiny instances.
//!
//! See `models/pcec.md` for the model, the paper's numbering and every interpretation.

mod bound_study;
pub mod capacity;
pub mod enumerate;
pub mod experiment;
pub mod fluid;
mod generate;
mod instance;
mod method;
pub mod plot;
mod problem;
mod readings;
pub mod selfcheck;
pub mod sharing;
mod sim;
mod solution;
mod solve;
pub mod swf;
mod tools;
mod verify;

#[cfg(test)]
mod tests;

pub use capacity::{capacity, PmCapacity, PmDescription, PmState, VmCapacity, VmState};
pub use fluid::{fluid_bound, FluidBound};
pub use generate::{generate, GenSpec};
pub use instance::{Instance, Job};
pub use method::{LowerBound, Method, Settings, TieBreak};
pub use problem::{Format, Load, Pcec};
pub use sharing::{
    equilibrium_capacity, iterative_fill, potential_capacities, potential_capacity, water_fill,
    Allocation, VmSpec,
};
pub use solution::{xf_lower_bound, BinStat, JobRecord, Solution, Summary};

/// The registry name of the family.
pub const NAME: &str = "pcec";
pub use solve::solve;
pub use swf::{read_swf, SwfOptions, SwfTrace};
pub use verify::verify;
