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
pub mod mcb;
mod method;
pub mod milp;
pub mod packing;
pub mod perturb;
mod problem;
pub mod relabel;
pub mod relaxation;
mod report;
pub mod rounding;
pub mod selfcheck;
mod solution;
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

/// The demo instance, kept in `data/`.
const DEMO: &str = include_str!("../../data/vcsched-demo.json");

/// Solves the demo instance with the MILP, MCB8 and GR, verifies each, and returns the text
/// `vcalloc demo` prints.
pub fn demo() -> crate::Result<String> {
    let inst = Instance::from_json(DEMO, std::path::Path::new("data/vcsched-demo.json"))?;
    let mut out = format!(
        "VCSched demo: {} hosts, {} jobs (data/vcsched-demo.json); Σα = {:.3}, Σm = {:.3}\n\n",
        inst.hosts,
        inst.num_jobs(),
        inst.total_cpu(),
        inst.total_mem()
    );
    let settings = Settings::default();
    let mut rows = Vec::new();
    for m in [Method::Milp, Method::Mcb(8), Method::Gr] {
        let sol = solve(&inst, m, &settings)?;
        if let Some(v) = verify(&inst, &sol).first() {
            return Err(crate::Error::Consistency(format!(
                "{m} failed verification: {v}"
            )));
        }
        rows.push(sol);
    }
    out.push_str(&table::render(&rows.iter().collect::<Vec<_>>()));
    out.push_str("\nEvery row re-checked by `vcalloc verify`; the bound of the heuristics is the LP bound (§3.1).\n");
    Ok(out)
}
pub use solution::{JobGrant, Solution};
pub use verify::{verify, OPTIMALITY_GAP, TOLERANCE};
