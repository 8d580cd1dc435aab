//! The periodic-packing methods and their one entry point [`solve`].

use super::aligned_fill::aligned_fill;
use super::heuristics::{best_fit_decreasing_within, min_max_module_within, min_max_search_within};
use super::instance::Instance;
use super::packing::{group, machine_count, Machine};
use super::peak::total_demand_bound;
use super::root::aggregated_root;
pub use super::settings::Settings;
use super::solution::{finished, Solution};
use crate::error::Result;
use crate::problem::Validate;
use crate::solver::Deadline;
use std::time::Instant;

/// A periodic-packing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Branch-and-price: the job-level root, then the job-level tree (bounds on the number of
    /// columns holding at least k tasks of a job).
    Bp,
    /// Column generation (Dantzig–Wolfe) with the integer finish.
    Cg,
    /// Best-Fit Decreasing.
    Bfd,
    /// Min-Max with dichotomic search on the machine count.
    Mm,
    /// Min-Max on peak demands (ignores phases).
    Mmm,
    /// The peak-of-total-demand bound `⌈W/C⌉` alone.
    LowerBound,
}

impl Method {
    /// Every method.
    pub fn all() -> [Method; 6] {
        [
            Method::Bp,
            Method::Cg,
            Method::Bfd,
            Method::Mm,
            Method::Mmm,
            Method::LowerBound,
        ]
    }
    /// One line: what the method does.
    pub fn description(&self) -> &'static str {
        match self {
            Method::Bp => {
                "branch-and-price: column generation, then branching over jobs (Vanderbeck: columns with at least k tasks of a job)"
            }
            Method::Cg => {
                "column generation (HiGHS master, SOCP knapsack pricing) with the integer finish"
            }
            Method::Bfd => "Best-Fit Decreasing on peak demands of the sinusoids",
            Method::Mm => "Min-Max with a dichotomic search on the machine count",
            Method::Mmm => "Min-Max on peak demands (ignores phases)",
            Method::LowerBound => "the peak-of-total-demand bound ⌈W/C⌉ alone",
        }
    }

    /// Name on the command line and in files.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Bp => "bp",
            Method::Cg => "cg",
            Method::Bfd => "bfd",
            Method::Mm => "mm",
            Method::Mmm => "mmm",
            Method::LowerBound => "lower-bound",
        }
    }
}

crate::method_table!(Method, all);

fn from_machines(
    method: Method,
    machines: &[Machine],
    lower_bound: u64,
    began: Instant,
) -> Solution {
    let configurations = group(machines);
    let m = machine_count(&configurations);
    finished(
        method.name(),
        Some(configurations),
        m,
        lower_bound,
        None,
        0,
        began,
    )
}

/// Solves `inst` with `method`, without a time limit.
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    solve_within(inst, method, settings, &Deadline::none())
}

/// Solves `inst` with `method` within `deadline` (column generation then keeps a share for
/// its integer finish and returns its incumbent, bound and gap).
pub fn solve_within(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    settings.checked()?;
    let began = Instant::now();
    let lb = total_demand_bound(inst);
    Ok(match method {
        Method::LowerBound => finished(method.name(), None, 0, lb, None, 0, began),
        Method::Bfd => from_machines(
            method,
            &best_fit_decreasing_within(inst, deadline),
            lb,
            began,
        ),
        Method::Mm => from_machines(method, &min_max_search_within(inst, deadline), lb, began),
        Method::Mmm => from_machines(method, &min_max_module_within(inst, deadline), lb, began),
        Method::Cg => column_generation(inst, settings, lb, began, deadline)?,
        Method::Bp => {
            // The root under its share of the time, then the tree (and the repacking) with
            // what is left.
            let bs = &settings.bp;
            // The aligned fill into the peak bound first: when it succeeds, the bound is
            // closed and nothing else needs to run.
            let mut filled = None;
            if bs.aligned_fill.enabled {
                let until = deadline.keeping(|left| (1.0 - bs.aligned_fill.share) * left);
                let _phase = crate::solver::progress::phase(|| {
                    format!("aligned fill into the peak bound, {lb} machines")
                });
                let f = aligned_fill(inst, lb, &bs.aligned_fill, &until);
                if let Some(m) = f.machines.as_ref().filter(|m| m.len() as u64 <= lb) {
                    let mut sol = from_machines(method, m, lb, began);
                    sol.stats.insert("aligned_fill_seconds".into(), f.seconds);
                    sol.stats
                        .insert("aligned_fill_attempts".into(), f.attempts as f64);
                    sol.stats.insert("nodes".into(), 0.0);
                    sol.stats.insert("tree_started".into(), 0.0);
                    sol.stats.insert("lower_bound_peak".into(), lb as f64);
                    return Ok(sol);
                }
                filled = Some(f);
            }
            let root_deadline = deadline.keeping(|left| (1.0 - bs.root_share) * left);
            let mut root =
                aggregated_root(inst, settings, lb, bs.root_finish, began, &root_deadline)?;
            if let Some(f) = &filled {
                root.stats.insert("aligned_fill_seconds".into(), f.seconds);
                root.stats
                    .insert("aligned_fill_attempts".into(), f.attempts as f64);
            }
            let paced = filled.as_ref().is_some_and(|f| f.paced);
            super::tree::solve(inst, settings, root, paced, began, deadline)?
        }
    })
}

fn column_generation(
    inst: &Instance,
    settings: &Settings,
    lb_w: u64,
    began: Instant,
    deadline: &Deadline,
) -> Result<Solution> {
    Ok(aggregated_root(inst, settings, lb_w, true, began, deadline)?.into_solution("cg", began))
}
