//! The proofs of a periodic packing's lower bound and their re-derivation (issue 37,
//! models/proofs.md): `total-demand` (`⌈W/C⌉`) in closed form, the Farley bound of
//! column generation's duals over the jobs (`pricing`: the best machine under the duals is
//! re-proved by a complete run of the family's exact SOCP knapsack), the job-level tree
//! (`search`, re-run by `--deep`).

use super::instance::Instance;
use super::knapsack::{branch_and_bound, Search};
use super::method::{solve_within, Method, Settings};
use super::pricing::{PeriodicPricing, PricingSettings};
use super::solution::Solution;
use crate::colgen::safe;
use crate::problem::proof::{check_covering, check_duals, Unproved};
use crate::problem::{BoundCheck, Depth, Proof};
use crate::solver::Deadline;

/// Knapsack nodes the re-proof of a pricing value may take.
const PRICING_NODES: u64 = 2_000_000;
/// Seconds the re-proof of a pricing value may take.
const PRICING_SECONDS: f64 = 60.0;

/// A pricing proof of the bound `lp` by the duals `pi` (one per job).
pub(super) fn pricing(inst: &Instance, pi: &[f64], lp: f64) -> Proof {
    Proof::pricing(pi, safe::covered_up(pi, &demands(inst)), lp)
}

/// The jobs' task counts: the covering rows' demands.
fn demands(inst: &Instance) -> Vec<f64> {
    inst.jobs.iter().map(|j| f64::from(j.tasks)).collect()
}

/// The closed form `⌈W/C⌉`.
pub fn closed_form(inst: &Instance) -> u64 {
    super::peak::total_demand_bound(inst)
}

/// Re-derives the bound of `sol`.
pub fn check(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    check_covering(
        &sol.certificate,
        closed_form(inst) as f64,
        depth,
        |duals, _| farley(inst, duals),
        |d| solve_within(inst, Method::Bp, &Settings::default(), d).map(|s| s.certificate.bound),
    )
}

/// `π·N / max(1, v)` (before the ceiling) with `v` the proven best machine under the duals `pi` (one per job,
/// `N` the jobs' task counts), rounded outward; an error naming what is wrong.
pub fn farley(inst: &Instance, pi: &[f64]) -> Result<f64, Unproved> {
    check_duals(pi, inst.jobs.len(), "jobs")?;
    // Every job with a positive dual is an item (no profit floor).
    let settings = PricingSettings {
        min_profit: 0.0,
        ..PricingSettings::default()
    };
    let oracle = PeriodicPricing::new(inst, settings);
    let k = oracle.knapsack(pi);
    let search = Search {
        node_limit: PRICING_NODES,
        ..Search::default()
    };
    let start = vec![0; k.items.len()];
    let deadline = Deadline::after(Some(PRICING_SECONDS));
    let v = branch_and_bound(&k, start, &search, &deadline)
        .map_err(|e| Unproved::Budget(format!("the best machine under the proof's duals: {e}")))?
        .proven_max
        .ok_or_else(|| {
            Unproved::Budget(
                "the best machine under the proof's duals was not proved within the budget".into(),
            )
        })?;
    Ok(safe::farley(pi, &demands(inst), v))
}
