//! Clarabel over the exponential cone for one shape of program, the Eisenberg–Gale family:
//! maximise `Σ_i w_i ln(x_i − o_i)` over linear rows `A x ≤ b` and a box `lo ≤ x ≤ hi`.
//!
//! Each weighted variable gets an epigraph `t_i ≤ ln(x_i − o_i)`, i.e.
//! `(t_i, 1, x_i − o_i) ∈ K_exp = cl{(a, b, c) : b > 0, b·e^{a/b} ≤ c}`, and Clarabel minimises
//! `−Σ w_i t_i`. Variables with `w_i = 0` carry no logarithm (they may be fixed by their box);
//! a weighted variable whose box or rows force `x_i = o_i` makes the optimum `−∞`: give it
//! weight 0 instead. Nothing here knows about markets or PMs.

use crate::error::{Error, Result};
use crate::solver::Deadline;
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

/// `max Σ w_i ln(x_i − o_i)` s.t. `rows`, `lower ≤ x ≤ upper` (infinite ends allowed).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LogProgram {
    /// `w_i ≥ 0`, one per variable.
    pub weights: Vec<f64>,
    /// `o_i`, one per variable (ignored where `w_i = 0`).
    pub offsets: Vec<f64>,
    /// Rows `Σ_j a_j x_j ≤ b` as (sparse coefficients, right-hand side).
    pub rows: Vec<(Vec<(usize, f64)>, f64)>,
    /// Lower bounds `lo_i`.
    pub lower: Vec<f64>,
    /// Upper bounds `hi_i`.
    pub upper: Vec<f64>,
}

/// What Clarabel concluded.
#[derive(Debug, Clone, PartialEq)]
pub enum LogOutcome {
    /// Solved to the requested tolerance (`almost`: to Clarabel's reduced tolerances).
    Solved {
        /// The optimal `x`.
        x: Vec<f64>,
        /// True when Clarabel said `AlmostSolved`.
        almost: bool,
        /// True when the KKT polish succeeded (see [`maximise_log_sum`]); false: `x` is
        /// Clarabel's, accurate only to about the square root of its tolerance.
        polished: bool,
    },
    /// Clarabel's certificate of primal infeasibility.
    Infeasible,
    /// Anything else (insufficient progress, a limit): no proof either way.
    Unreliable(String),
}

/// Solves `prog` with Clarabel, gap and feasibility tolerances `tolerance` (Clarabel's
/// default is 1e-8), stopping at `deadline`, then polishes: the rows whose multiplier
/// exceeds their slack are taken as active and the KKT system is solved by Newton's method
/// (dense, up to 400 variables and active rows); the polished point is returned only if it
/// is feasible with non-negative multipliers, i.e. provably optimal up to round-off.
pub fn maximise_log_sum(
    prog: &LogProgram,
    tolerance: f64,
    deadline: &Deadline,
) -> Result<LogOutcome> {
    let n = prog.weights.len();
    let shape_ok = [prog.offsets.len(), prog.lower.len(), prog.upper.len()]
        .iter()
        .all(|&l| l == n);
    if !shape_ok || prog.weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
        return Err(Error::Clarabel(
            "log program: weights, offsets and bounds need one finite entry per variable".into(),
        ));
    }
    let logs: Vec<usize> = (0..n).filter(|&i| prog.weights[i] > 0.0).collect();
    let nv = n + logs.len();
    // Rows as (column, row, value) triplets; s = b − A z must lie in the cones.
    let mut trip: Vec<(usize, usize, f64)> = Vec::new();
    let mut rhs = Vec::new();
    for (coef, b) in &prog.rows {
        for &(j, a) in coef {
            trip.push((j, rhs.len(), a));
        }
        rhs.push(*b);
    }
    for i in 0..n {
        if prog.upper[i].is_finite() {
            trip.push((i, rhs.len(), 1.0));
            rhs.push(prog.upper[i]);
        }
        if prog.lower[i].is_finite() {
            trip.push((i, rhs.len(), -1.0));
            rhs.push(-prog.lower[i]);
        }
    }
    let linear = rhs.len();
    for (k, &i) in logs.iter().enumerate() {
        // s = b − A z = (t_k, 1, x_i − o_i): coefficients −1 on t_k and on x_i.
        trip.push((n + k, rhs.len(), -1.0));
        rhs.push(0.0);
        rhs.push(1.0);
        trip.push((i, rhs.len(), -1.0));
        rhs.push(-prog.offsets[i]);
    }
    trip.sort_by_key(|&(c, r, _)| (c, r));
    let mut colptr = vec![0usize; nv + 1];
    for &(c, _, _) in &trip {
        colptr[c + 1] += 1;
    }
    for c in 0..nv {
        colptr[c + 1] += colptr[c];
    }
    let rowval = trip.iter().map(|t| t.1).collect();
    let nzval = trip.iter().map(|t| t.2).collect();
    let amat = CscMatrix::new(rhs.len(), nv, colptr, rowval, nzval);
    let p = CscMatrix::zeros((nv, nv));
    let mut q = vec![0.0; nv];
    for (k, &i) in logs.iter().enumerate() {
        q[n + k] = -prog.weights[i];
    }
    let mut cones = vec![SupportedConeT::NonnegativeConeT(linear)];
    cones.extend(logs.iter().map(|_| SupportedConeT::ExponentialConeT()));
    let time_limit = deadline.solver_seconds();
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .time_limit(time_limit)
        .tol_gap_abs(tolerance)
        .tol_gap_rel(tolerance)
        .tol_feas(tolerance)
        .max_iter(400)
        .build()
        .map_err(|e| Error::Clarabel(format!("settings: {e:?}")))?;
    let mut solver = DefaultSolver::new(&p, &q, &amat, &rhs, &cones, settings)
        .map_err(|e| Error::Clarabel(format!("setup: {e:?}")))?;
    solver.solve();
    let s = &solver.solution;
    log::debug!(
        "Clarabel log program: {:?} after {} iterations, objective {} (dual {})",
        s.status,
        s.iterations,
        s.obj_val,
        s.obj_val_dual
    );
    Ok(match s.status {
        SolverStatus::Solved | SolverStatus::AlmostSolved => {
            // Constraint rows as (coefficients, rhs) in Clarabel's order, for the polish.
            let mut all = prog.rows.clone();
            for i in 0..n {
                if prog.upper[i].is_finite() {
                    all.push((vec![(i, 1.0)], prog.upper[i]));
                }
                if prog.lower[i].is_finite() {
                    all.push((vec![(i, -1.0)], -prog.lower[i]));
                }
            }
            // Interior-point identification of the active set: multiplier above slack.
            let active: Vec<usize> = (0..linear).filter(|&r| s.z[r] > s.s[r]).collect();
            let ipm = s.x[..n].to_vec();
            let (x, polished) = match polish(prog, &all, &active, &ipm) {
                Some(x) => (x, true),
                None => (ipm, false),
            };
            LogOutcome::Solved {
                x,
                almost: s.status == SolverStatus::AlmostSolved,
                polished,
            }
        }
        SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
            LogOutcome::Infeasible
        }
        other => LogOutcome::Unreliable(format!("{other:?}")),
    })
}

/// Largest system the polish solves densely (an oracle's size, not a production one).
const POLISH_MAX: usize = 400;

/// Newton's method on the KKT system of `max Σ w ln(x − o)` with the `active` rows as
/// equalities, from the interior-point point `x0`. Why: an interior point's objective gap
/// of 1e-11 leaves `x` only within about √1e-11 of the optimum (the objective is flat to
/// first order there), while the KKT system pins it to round-off. The result is accepted
/// only if it is feasible for every row and its multipliers are non-negative — then it
/// satisfies the KKT conditions of the convex program, so it is the optimum.
fn polish(
    prog: &LogProgram,
    rows: &[(Vec<(usize, f64)>, f64)],
    active: &[usize],
    x0: &[f64],
) -> Option<Vec<f64>> {
    let n = x0.len();
    // A variable fixed by its box is set, not solved for: its two bound rows would be
    // dependent in the KKT matrix.
    let fixed = |i: usize| prog.lower[i] == prog.upper[i];
    let bound_of_fixed = |r: usize| r >= prog.rows.len() && fixed(rows[r].0[0].0);
    let active: Vec<usize> = active
        .iter()
        .copied()
        .filter(|&r| !bound_of_fixed(r))
        .collect();
    let mut x = x0.to_vec();
    for i in (0..n).filter(|&i| fixed(i)) {
        x[i] = prog.lower[i];
    }
    let k = active.len();
    let size = n + k;
    if size > POLISH_MAX {
        return None;
    }
    let mut lambda = vec![0.0; k];
    for _ in 0..60 {
        // [D A^T; A 0] [dx; λ] = [∇f; b − A x], D = diag(w / (x − o)²).
        let mut mat = vec![vec![0.0; size + 1]; size];
        for i in 0..n {
            let w = prog.weights[i];
            if fixed(i) {
                mat[i][i] = 1.0;
            } else if w > 0.0 {
                let d = x[i] - prog.offsets[i];
                if d <= 0.0 {
                    return None;
                }
                mat[i][i] = w / (d * d);
                mat[i][size] = w / d;
            }
        }
        let mut residual: f64 = 0.0;
        for (j, &r) in active.iter().enumerate() {
            let (coef, b) = &rows[r];
            let mut act = 0.0;
            for &(i, a) in coef {
                if !fixed(i) {
                    mat[i][n + j] += a;
                }
                mat[n + j][i] += a;
                act += a * x[i];
            }
            mat[n + j][size] = b - act;
            residual = residual.max((b - act).abs());
        }
        let sol = gauss(mat)?;
        let dx = &sol[..n];
        lambda.copy_from_slice(&sol[n..]);
        // Damp the step to stay inside the logarithms' domains.
        let mut step: f64 = 1.0;
        for i in (0..n).filter(|&i| prog.weights[i] > 0.0 && dx[i] < 0.0) {
            step = step.min(0.9 * (x[i] - prog.offsets[i]) / -dx[i]);
        }
        let mut change: f64 = 0.0;
        for i in 0..n {
            x[i] += step * dx[i];
            change = change.max((step * dx[i]).abs() / (1.0 + x[i].abs()));
        }
        if change <= 1e-15 && residual <= 1e-13 {
            break;
        }
    }
    let feasible = rows.iter().all(|(coef, b)| {
        let act: f64 = coef.iter().map(|&(i, a)| a * x[i]).sum();
        let mag: f64 = coef.iter().map(|&(i, a)| (a * x[i]).abs()).sum::<f64>() + b.abs();
        act - b <= 1e-12 * (1.0 + mag)
    });
    let dual_ok = lambda.iter().all(|&l| l >= -1e-9);
    let domain = (0..n).all(|i| prog.weights[i] == 0.0 || x[i] > prog.offsets[i]);
    (feasible && dual_ok && domain).then_some(x)
}

/// Solves a dense augmented system `[M | r]` by Gaussian elimination with partial pivoting;
/// `None` when it is singular.
fn gauss(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = a.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            if f != 0.0 {
                let (top, bottom) = a.split_at_mut(r);
                for (t, p) in bottom[0][c..].iter_mut().zip(&top[c][c..]) {
                    *t -= f * p;
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let tail: f64 = (r + 1..n).map(|j| a[r][j] * x[j]).sum();
        x[r] = (a[r][n] - tail) / a[r][r];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_weights_split_evenly_and_offsets_shift() {
        // max ln x0 + ln(x1 − 1), x0 + x1 ≤ 5 → x0 = 2, x1 = 3.
        let prog = LogProgram {
            weights: vec![1.0, 1.0],
            offsets: vec![0.0, 1.0],
            rows: vec![(vec![(0, 1.0), (1, 1.0)], 5.0)],
            lower: vec![0.0, 1.0],
            upper: vec![f64::INFINITY; 2],
        };
        let LogOutcome::Solved { x, .. } =
            maximise_log_sum(&prog, 1e-10, &Deadline::none()).unwrap()
        else {
            panic!("not solved")
        };
        assert!(
            (x[0] - 2.0).abs() < 1e-12 && (x[1] - 3.0).abs() < 1e-12,
            "{x:?}"
        );
    }

    #[test]
    fn an_empty_box_is_infeasible() {
        let prog = LogProgram {
            weights: vec![1.0],
            offsets: vec![0.0],
            rows: vec![(vec![(0, 1.0)], 1.0)],
            lower: vec![2.0],
            upper: vec![3.0],
        };
        let out = maximise_log_sum(&prog, 1e-8, &Deadline::none()).unwrap();
        assert_eq!(out, LogOutcome::Infeasible);
    }
}
