//! The node SOCP of the periodic knapsack, solved by Clarabel (through
//! [`crate::solver::BoxSocp`]): `max π·U` over the box
//! `l ≤ U ≤ u` and the cone `(C − Σ C_j U_j, Σ x_j U_j, Σ y_j U_j) ∈ SOC₃`. One solver object
//! serves a whole tree; branching changes only `b` (`update_b`, presolve off). Its bound comes
//! from the cone multipliers (the Lagrangian below), never from the solver's primal value, and
//! is tightened by the directional bound along them (`knapsack_relax.rs`).

use super::relax::{directional, into_disc, Bound, Relaxed};
use super::Knapsack;
use crate::error::Result;
use crate::solver::{BoxSocp, Deadline, SocpOutcome};

/// The Lagrangian bound of cone multipliers `z` (pushed into the cone first):
/// `z₀ C + Σ_j max_{l_j ≤ U_j ≤ u_j} U_j (π_j − z₀ C_j + z₁ x_j + z₂ y_j)`.
pub fn lagrangian(k: &Knapsack, lower: &[u32], upper: &[u32], z: [f64; 3]) -> f64 {
    let z0 = z[0].max(z[1].hypot(z[2])).max(0.0);
    let mut bound = z0 * k.capacity;
    for ((it, &l), &u) in k.items.iter().zip(lower).zip(upper) {
        let g = it.profit - z0 * it.mean + z[1] * it.x + z[2] * it.y;
        bound += if g > 0.0 {
            g * f64::from(u)
        } else {
            g * f64::from(l)
        };
    }
    bound
}

/// The node SOCP, built once per knapsack and re-solved with new bounds.
pub struct Socp {
    program: BoxSocp,
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl Socp {
    /// Builds the SOCP of `k` (bounds `0 ≤ U ≤ ub`).
    pub fn new(k: &Knapsack, deadline: &Deadline) -> Result<Self> {
        let profit: Vec<f64> = k.items.iter().map(|i| i.profit).collect();
        let upper: Vec<f64> = k.items.iter().map(|i| f64::from(i.ub)).collect();
        let mean: Vec<f64> = k.items.iter().map(|i| i.mean).collect();
        let x: Vec<f64> = k.items.iter().map(|i| i.x).collect();
        let y: Vec<f64> = k.items.iter().map(|i| i.y).collect();
        let program = BoxSocp::new(&profit, &upper, k.capacity, [&mean, &x, &y], deadline)?;
        Ok(Socp {
            program,
            lower: vec![0.0; profit.len()],
            upper,
        })
    }

    /// Solves the node `lower ≤ U ≤ upper`; the bound is the Lagrangian of Clarabel's cone
    /// multipliers, tightened by the directional bound along them.
    pub fn solve(
        &mut self,
        k: &Knapsack,
        lower: &[u32],
        upper: &[u32],
        along: Bound,
    ) -> Result<Relaxed> {
        for (i, (&l, &u)) in lower.iter().zip(upper).enumerate() {
            self.lower[i] = f64::from(l);
            self.upper[i] = f64::from(u);
        }
        Ok(match self.program.solve(&self.lower, &self.upper)? {
            SocpOutcome::Solved { x, z } => {
                let mut bound = lagrangian(k, lower, upper, z);
                let mut dir = None;
                if z[0] > 1e-12 {
                    let e = into_disc([-z[1] / z[0], -z[2] / z[0]]);
                    dir = Some(e);
                    match directional(k, lower, upper, e, along) {
                        None => return Ok(Relaxed::Infeasible),
                        Some((d, _)) => bound = bound.min(d),
                    }
                }
                Relaxed::Bounded { bound, x, dir }
            }
            SocpOutcome::Infeasible => Relaxed::Infeasible,
            SocpOutcome::Unreliable => Relaxed::Unreliable,
        })
    }
}
