//! The pricing oracle of the periodic master: builds the knapsack of eqs. 9–10 from the duals,
//! tries a greedy first, and proves with the branch-and-bound of [`super::knapsack`] only when
//! the greedy finds no improving column (or always, with `exact_every_iteration`).

use super::instance::Instance;
use super::knapsack::{Item, Knapsack};
use super::knapsack_bnb::{branch_and_bound, NodeSolver, Search};
use crate::colgen::{Column, Priced, Pricing};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Pricing settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingSettings {
    /// Run the exact branch-and-bound at every iteration (gives a Lagrangian bound each time)
    /// instead of only when the greedy finds nothing.
    pub exact_every_iteration: bool,
    /// Node cap of one branch-and-bound (then the answer is not proven).
    pub node_limit: u64,
    /// Duals at or below this are treated as zero (the job is left out of the knapsack).
    pub min_profit: f64,
    /// A column must be worth more than `1 + improvement_tol` to be returned.
    pub improvement_tol: f64,
    /// Greedy columns seeded with each of this many most profitable jobs, per call.
    pub greedy_seeds: usize,
    /// Partial pricing: stop the branch-and-bound once this many improving columns are known
    /// (0: always search to the end). A call that finds none still runs to the end, which is
    /// the proof the loop needs to stop.
    pub partial: usize,
    /// Node relaxation of the branch-and-bound.
    pub node_solver: NodeSolver,
    /// Greedy columns polished by swap local search when none improves (0: off).
    pub local_search_starts: usize,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            exact_every_iteration: false,
            node_limit: 5_000_000,
            min_profit: 1e-12,
            improvement_tol: 1e-9,
            greedy_seeds: 20,
            partial: 3,
            node_solver: NodeSolver::Directional,
            local_search_starts: 3,
        }
    }
}

/// The periodic pricing oracle.
pub struct PeriodicPricing<'a> {
    inst: &'a Instance,
    settings: PricingSettings,
    /// Exact branch-and-bound calls so far.
    pub exact_calls: u64,
}

impl<'a> PeriodicPricing<'a> {
    /// An oracle for `inst`.
    pub fn new(inst: &'a Instance, settings: PricingSettings) -> Self {
        PeriodicPricing {
            inst,
            settings,
            exact_calls: 0,
        }
    }

    /// The knapsack for duals `π` (jobs with `π_j` above `min_profit` only).
    pub fn knapsack(&self, duals: &[f64]) -> Knapsack {
        let c = self.inst.capacity;
        let items = self
            .inst
            .jobs
            .iter()
            .enumerate()
            .filter(|(j, _)| duals[*j] > self.settings.min_profit)
            .map(|(j, job)| Item {
                job: j,
                profit: duals[j],
                mean: job.mean,
                x: job.x(),
                y: job.y(),
                ub: job.tasks.min((c / job.mean + 1e-9).floor() as u32),
            })
            .collect();
        Knapsack { capacity: c, items }
    }
}

fn column(k: &Knapsack, u: &[u32]) -> Column {
    k.items
        .iter()
        .zip(u)
        .filter(|(_, &n)| n > 0)
        .map(|(it, &n)| (it.job, f64::from(n)))
        .collect()
}

impl Pricing for PeriodicPricing<'_> {
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        let k = self.knapsack(duals);
        let threshold = 1.0 + self.settings.improvement_tol;
        let t0 = std::time::Instant::now();
        let mut family = k.greedy_family(self.settings.greedy_seeds);
        if family.iter().all(|u| k.value(u) <= threshold) {
            // Polish the best few greedy columns by swaps before paying for an exact search.
            family.sort_by(|a, b| k.value(b).total_cmp(&k.value(a)));
            family.truncate(self.settings.local_search_starts);
            for u in family.iter_mut() {
                k.improve(u, 3);
            }
        }
        let mut good: Vec<(Column, f64)> = family
            .iter()
            .map(|u| (u, k.value(u)))
            .filter(|(_, v)| *v > threshold)
            .map(|(u, v)| (column(&k, u), v))
            .collect();
        let greedy = family
            .into_iter()
            .max_by(|a, b| k.value(a).total_cmp(&k.value(b)))
            .unwrap_or_default();
        if !good.is_empty() && !self.settings.exact_every_iteration {
            good.sort_by(|a, b| b.1.total_cmp(&a.1));
            return Ok(Priced {
                columns: good,
                proven_max: None,
                nodes: 0,
            });
        }
        let t1 = std::time::Instant::now();
        self.exact_calls += 1;
        let stop = (self.settings.partial > 0 && !self.settings.exact_every_iteration)
            .then_some(self.settings.partial);
        let search = Search {
            threshold,
            stop_after: stop,
            node_limit: self.settings.node_limit,
            solver: self.settings.node_solver,
        };
        let solved = branch_and_bound(&k, greedy, &search, deadline)?;
        let mut columns: Vec<(Column, f64)> = solved
            .improving
            .iter()
            .map(|(u, v)| (column(&k, u), *v))
            .collect();
        if columns.is_empty() {
            columns.push((column(&k, &solved.best), solved.value));
        }
        log::debug!(
            "pricing: heuristics {:.4}s, exact {:.4}s ({} nodes)",
            (t1 - t0).as_secs_f64(),
            t1.elapsed().as_secs_f64(),
            solved.nodes
        );
        Ok(Priced {
            columns,
            proven_max: solved.proven_max,
            nodes: solved.nodes,
        })
    }
}
