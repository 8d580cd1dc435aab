//! The pricing oracle: the only part of column generation that knows the problem.

use super::Column;
use crate::error::Result;
use crate::solver::Deadline;

/// What a pricing call returns.
#[derive(Debug, Clone, Default)]
pub struct Priced {
    /// Columns, each with its value `π·a` (reduced cost `1 − π·a`). May include columns
    /// that do not improve; the engine keeps those with reduced cost below `−tol`.
    pub columns: Vec<(Column, f64)>,
    /// When `Some(v)`: a proof that no column has `π·a > v` (the exact pricing optimum, or an
    /// upper bound on it, at most the `enough` of [`Pricing::aim`] when it holds nothing
    /// better). `None` for a heuristic answer. The loop has converged when `v ≤ 1 + tol`.
    pub proven_max: Option<f64>,
    /// An upper bound on `max_a π·a` that proves nothing about convergence (e.g. a
    /// relaxation's value): it still gives the loop a Lagrangian bound.
    pub upper_bound: Option<f64>,
    /// Branch-and-bound nodes (or other work units) spent.
    pub nodes: u64,
}

impl Priced {
    /// The columns whose reduced cost `1 − π·a` at `duals` is below `−tol`, most negative
    /// first, at most `max` (at least one), each with its reduced cost. Copies an oracle
    /// returns stay (dropping them was measured and not kept: models/packing.md §2, "Column
    /// management").
    pub fn improving(self, duals: &[f64], tol: f64, max: usize) -> Vec<(f64, Column)> {
        let mut scored: Vec<(f64, Column)> = self
            .columns
            .into_iter()
            .map(|(c, _)| (1.0 - c.iter().map(|&(r, a)| a * duals[r]).sum::<f64>(), c))
            .filter(|(rc, _)| *rc < -tol)
            .collect();
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        scored.truncate(max.max(1));
        scored
    }

    /// How many columns have a reduced cost at `duals` below `−tol`.
    pub fn count_improving(&self, duals: &[f64], tol: f64) -> usize {
        self.columns
            .iter()
            .filter(|(c, _)| 1.0 - c.iter().map(|&(r, a)| a * duals[r]).sum::<f64>() < -tol)
            .count()
    }

    /// The tightest upper bound known on `max_a π·a`.
    pub fn max_bound(&self) -> Option<f64> {
        match (self.proven_max, self.upper_bound) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A pricing oracle for a covering master with unit column costs.
pub trait Pricing {
    /// Finds columns maximising `π·a` for the duals `π`, stopping at `deadline`.
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced>;

    /// Called once the integer bound is settled (`⌈bound⌉ = ⌈master⌉`): from then on columns
    /// only help the integer finish, so an oracle may cap its effort (an answer with neither
    /// a column nor a proof ends the loop). By default nothing changes.
    fn settle(&mut self) {}

    /// Called right after [`Pricing::settle`] with the settled integer bound `bound` and the
    /// loop's deadline, in a loop that stops at a cutoff (the packing to beat): a family with
    /// a local search of its own may look for a packing of fewer bins now, when the bound it
    /// aims at is known, instead of after the loop. The size of a better packing it now holds
    /// (for [`super::BranchPricing::improve_packing`] to return) lowers the loop's cutoff. By
    /// default none.
    fn settled_packing(&mut self, _bound: u64, _deadline: &Deadline) -> Option<u64> {
        None
    }

    /// Called before each pricing with the value `enough`: a proof that no column is worth
    /// more than it (`proven_max ≤ enough`) already closes the loop's bound, so an exact
    /// search may prune at `enough` instead of at `1 + tol` (it must still return the
    /// improving columns it finds). By default nothing changes.
    fn aim(&mut self, enough: f64) {
        let _ = enough;
    }

    /// Called when a dive is over and exact pricing is wanted again (branch-and-price goes on
    /// to its nodes). By default nothing changes.
    fn end_dive(&mut self) {}

    /// Called during a dive (see [`crate::colgen::dive`]) with the demands left once the fixed
    /// columns are counted: from then on the caller wants cheap columns and no proofs (an
    /// oracle may skip its exact search), and a column needs at most `residual[r]` of row `r`
    /// (more only over-covers). By default nothing changes.
    fn dive(&mut self, residual: &[f64]) {
        let _ = residual;
    }

    /// Pairs `(light, heavy)` of rows such that in any column one unit of `heavy` may be
    /// replaced by one unit of `light` and the result, less what it then covers beyond the
    /// demands, is a column again (e.g. a lighter item type for a heavier one when columns
    /// are bins). Then some optimal dual solution has `π_light ≤ π_heavy`, and the engine may
    /// impose it ([`crate::colgen::CgSettings::dual_optimal_inequalities`]). By default none.
    fn dominance(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// Triples `(j, k, heavy)` of distinct rows such that in any column one unit of `heavy`
    /// may be replaced by one of `j` and one of `k` (as in [`Pricing::dominance`]), whose
    /// inequality `π_j + π_k ≤ π_heavy` the duals `pi` violate
    /// ([`crate::colgen::CgSettings::pair_inequalities`]). By default none.
    fn violated_pairs(&self, pi: &[f64]) -> Vec<(usize, usize, usize)> {
        let _ = pi;
        Vec::new()
    }

    /// The oracle can [`Pricing::enumerate`] now (the caller skips the work that would
    /// precede it otherwise). By default it cannot.
    fn can_enumerate(&self) -> bool {
        false
    }

    /// Reduced-cost enumeration ([`crate::colgen::close_by_enumeration`]): columns such that
    /// every column `a` with `π·a ≥ min_value` lies below one of them (`a ≤ a'` row by row)
    /// that is itself worth at least `min_value` — e.g. every maximal bin worth that much. At
    /// most `limit` columns. Coefficients must be integers, as the demands. The oracle may
    /// leave out the columns that no *partition* of the demands into at most `bins` columns
    /// can hold a sub-column of (e.g. bins wasting more room than `bins` bins have to spare
    /// in all). `None` when the oracle cannot enumerate (the default), or a limit or the
    /// deadline stopped it: then nothing is claimed.
    fn enumerate(
        &mut self,
        duals: &[f64],
        min_value: f64,
        bins: u64,
        limit: usize,
        deadline: &Deadline,
    ) -> Result<Option<Vec<Column>>> {
        let _ = (duals, min_value, bins, limit, deadline);
        Ok(None)
    }
}

/// The rows a dive has covered, for an oracle whose rows are unit items: `residual[r] ≤ 0`
/// (`None` when `residual` is not one entry per item, e.g. from an aggregated master).
pub fn covered_items(residual: &[f64], items: usize) -> Option<Vec<bool>> {
    (residual.len() == items).then(|| residual.iter().map(|&r| r <= 1e-9).collect())
}

/// Prices with the covered items at value 0 and leaves them out of the columns: while diving
/// a bin is worth what it covers of the residual demands only. Dropping an item from a bin
/// keeps it a bin (capacities are monotone), so the columns stay feasible.
pub fn price_uncovered(
    covered: &[bool],
    duals: &[f64],
    price: impl FnOnce(&[f64]) -> Result<Priced>,
) -> Result<Priced> {
    let values: Vec<f64> = duals
        .iter()
        .zip(covered)
        .map(|(&d, &c)| if c { 0.0 } else { d })
        .collect();
    let mut priced = price(&values)?;
    for (c, _) in &mut priced.columns {
        c.retain(|&(i, _)| !covered[i]);
    }
    priced.columns.retain(|(c, _)| !c.is_empty());
    Ok(priced)
}
