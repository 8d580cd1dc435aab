//! The pricing oracle: the only part of column generation that knows the problem.

use super::master::Column;
use crate::error::Result;
use crate::solver::Deadline;

/// What a pricing call returns.
#[derive(Debug, Clone, Default)]
pub struct Priced {
    /// Columns, each with its value `π·a` (reduced cost `1 − π·a`). May include columns
    /// that do not improve; the engine keeps those with reduced cost below `−tol`.
    pub columns: Vec<(Column, f64)>,
    /// When `Some(v)`: a proof that no column has `π·a > v` (the exact pricing optimum, or an
    /// upper bound on it). `None` for a heuristic answer.
    pub proven_max: Option<f64>,
    /// An upper bound on `max_a π·a` that proves nothing about convergence (e.g. a
    /// relaxation's value): it still gives the loop a Lagrangian bound.
    pub upper_bound: Option<f64>,
    /// Branch-and-bound nodes (or other work units) spent.
    pub nodes: u64,
}

impl Priced {
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
}
