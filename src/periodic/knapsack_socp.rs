//! The node SOCP of the periodic knapsack, solved by Clarabel: `max π·U` over the box
//! `l ≤ U ≤ u` and the cone `(C − Σ C_j U_j, Σ x_j U_j, Σ y_j U_j) ∈ SOC₃`. One solver object
//! serves a whole tree; branching changes only `b` (`update_b`, presolve off). Its bound comes
//! from the cone multipliers (the Lagrangian below), never from the solver's primal value, and
//! is tightened by the directional bound along them (`knapsack_relax.rs`).

use super::knapsack::Knapsack;
use super::knapsack_relax::{directional, into_disc, Bound, Relaxed};
use crate::error::{Error, Result};
use crate::solver::Deadline;
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

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
    solver: DefaultSolver<f64>,
    b: Vec<f64>,
    n: usize,
}

impl Socp {
    /// Builds the SOCP of `k` (bounds `0 ≤ U ≤ ub`).
    pub fn new(k: &Knapsack, deadline: &Deadline) -> Result<Self> {
        let n = k.items.len();
        let m = 2 * n + 3;
        let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
        for (i, it) in k.items.iter().enumerate() {
            for (r, v) in [
                (i, 1.0),
                (n + i, -1.0),
                (2 * n, it.mean),
                (2 * n + 1, -it.x),
                (2 * n + 2, -it.y),
            ] {
                rowval.push(r);
                nzval.push(v);
            }
            colptr.push(rowval.len());
        }
        let a = CscMatrix::new(m, n, colptr, rowval, nzval);
        let p = CscMatrix::zeros((n, n));
        let q: Vec<f64> = k.items.iter().map(|i| -i.profit).collect();
        let mut b = vec![0.0; m];
        for (i, it) in k.items.iter().enumerate() {
            b[i] = f64::from(it.ub);
        }
        b[2 * n] = k.capacity;
        let cones = [
            SupportedConeT::NonnegativeConeT(2 * n),
            SupportedConeT::SecondOrderConeT(3),
        ];
        let time_limit = deadline
            .remaining_secs()
            .unwrap_or(f64::INFINITY)
            .clamp(1e-3, 1e6);
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            .presolve_enable(false)
            .time_limit(time_limit)
            .build()
            .map_err(|e| Error::Clarabel(format!("settings: {e:?}")))?;
        let solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings)
            .map_err(|e| Error::Clarabel(format!("setup: {e:?}")))?;
        Ok(Socp { solver, b, n })
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
        for i in 0..self.n {
            self.b[i] = f64::from(upper[i]);
            self.b[self.n + i] = -f64::from(lower[i]);
        }
        self.solver
            .update_b(&self.b)
            .map_err(|e| Error::Clarabel(format!("update_b: {e:?}")))?;
        self.solver.solve();
        let s = &self.solver.solution;
        Ok(match s.status {
            SolverStatus::Solved | SolverStatus::AlmostSolved => {
                let m = s.z.len();
                let z = [s.z[m - 3], s.z[m - 2], s.z[m - 1]];
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
                Relaxed::Bounded {
                    bound,
                    x: s.x.clone(),
                    dir,
                }
            }
            // Only a certificate counts as a proof of infeasibility.
            SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
                Relaxed::Infeasible
            }
            _ => Relaxed::Unreliable,
        })
    }
}
