//! Clarabel over one shape of conic program: maximise `c·U` over a box `l ≤ U ≤ u` and one
//! three-dimensional second-order cone `(h − a·U, b·U, d·U) ∈ SOC₃`. One solver object
//! serves many boxes: a new box changes only the right-hand side (`update_b`, presolve
//! off), so the factorisation is reused.

use crate::error::{Error, Result};
use crate::solver::Deadline;
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

/// The program, built once and re-solved over new boxes.
pub struct BoxSocp {
    solver: DefaultSolver<f64>,
    b: Vec<f64>,
    n: usize,
}

/// What one solve found.
#[derive(Debug, Clone, PartialEq)]
pub enum SocpOutcome {
    /// Solved (or almost): the primal point and the cone's multipliers `z` (the dual of the
    /// three cone rows, in the order `h − a·U`, `b·U`, `d·U`).
    Solved {
        /// The primal point `U`.
        x: Vec<f64>,
        /// The cone multipliers.
        z: [f64; 3],
    },
    /// A certificate of primal infeasibility (the only proof that counts).
    Infeasible,
    /// Anything else (insufficient progress, a limit): no proof either way.
    Unreliable,
}

impl BoxSocp {
    /// `max c·U` over `0 ≤ U ≤ upper` and `(h − a·U, b·U, d·U) ∈ SOC₃`; every slice has one
    /// entry per variable.
    pub fn new(
        c: &[f64],
        upper: &[f64],
        h: f64,
        [a, b, d]: [&[f64]; 3],
        deadline: &Deadline,
    ) -> Result<Self> {
        let n = c.len();
        let m = 2 * n + 3;
        let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
        for i in 0..n {
            // Rows: U_i ≤ u_i, −U_i ≤ −l_i, then the cone's three rows (s = rhs − A·U).
            for (r, v) in [
                (i, 1.0),
                (n + i, -1.0),
                (2 * n, a[i]),
                (2 * n + 1, -b[i]),
                (2 * n + 2, -d[i]),
            ] {
                rowval.push(r);
                nzval.push(v);
            }
            colptr.push(rowval.len());
        }
        let amat = CscMatrix::new(m, n, colptr, rowval, nzval);
        let p = CscMatrix::zeros((n, n));
        let q: Vec<f64> = c.iter().map(|v| -v).collect();
        let mut rhs = vec![0.0; m];
        rhs[..n].copy_from_slice(upper);
        rhs[2 * n] = h;
        let cones = [
            SupportedConeT::NonnegativeConeT(2 * n),
            SupportedConeT::SecondOrderConeT(3),
        ];
        let time_limit = deadline.solver_seconds();
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            .presolve_enable(false)
            .time_limit(time_limit)
            .build()
            .map_err(|e| Error::Clarabel(format!("settings: {e:?}")))?;
        let solver = DefaultSolver::new(&p, &q, &amat, &rhs, &cones, settings)
            .map_err(|e| Error::Clarabel(format!("setup: {e:?}")))?;
        Ok(BoxSocp { solver, b: rhs, n })
    }

    /// Solves over the box `lower ≤ U ≤ upper`.
    pub fn solve(&mut self, lower: &[f64], upper: &[f64]) -> Result<SocpOutcome> {
        for i in 0..self.n {
            self.b[i] = upper[i];
            self.b[self.n + i] = -lower[i];
        }
        self.solver
            .update_b(&self.b)
            .map_err(|e| Error::Clarabel(format!("update_b: {e:?}")))?;
        self.solver.solve();
        let s = &self.solver.solution;
        Ok(match s.status {
            SolverStatus::Solved | SolverStatus::AlmostSolved => {
                let m = s.z.len();
                SocpOutcome::Solved {
                    x: s.x.clone(),
                    z: [s.z[m - 3], s.z[m - 2], s.z[m - 1]],
                }
            }
            SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
                SocpOutcome::Infeasible
            }
            _ => SocpOutcome::Unreliable,
        })
    }
}
