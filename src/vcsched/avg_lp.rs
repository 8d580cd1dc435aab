//! The average-yield phase as a linear program (RR-6692 §3.5), solved by HiGHS through
//! `good_lp`: with the placement fixed and the minimum yield held at `Y`,
//!
//! ```text
//! maximise   (1/J) Σ_i a_i / α_i
//! subject to Σ_{i on j} a_i ≤ 1        for every host j
//!            α_i Y ≤ a_i ≤ α_i         for every job i
//! ```
//!
//! [`super::allocation::allocate`] solves the same program greedily; this model is the
//! independent check of that greedy (see the tests).

use super::instance::Instance;
use crate::error::{Error, Result};
use good_lp::{constraint, highs, variable, Expression, ProblemVariables, Solution, SolverModel};

/// Optimal average yield for `placement` with every yield at least `min_yield`.
pub fn optimal_avg_yield(inst: &Instance, placement: &[usize], min_yield: f64) -> Result<f64> {
    let mut vars = ProblemVariables::new();
    let a: Vec<_> = inst
        .jobs
        .iter()
        .map(|j| vars.add(variable().min(j.cpu * min_yield).max(j.cpu)))
        .collect();
    let mut objective = Expression::from(0.0);
    for (x, j) in a.iter().zip(&inst.jobs) {
        objective += *x * (1.0 / (j.cpu * inst.num_jobs() as f64));
    }
    let mut model = vars.maximise(objective.clone()).using(highs);
    model.set_verbose(false);
    for h in 0..inst.hosts {
        let mut load = Expression::from(0.0);
        for (i, &p) in placement.iter().enumerate() {
            if p == h {
                load += a[i];
            }
        }
        model = model.with(constraint!(load <= 1.0));
    }
    let sol = model
        .solve()
        .map_err(|e| Error::Highs(format!("average-yield LP: {e}")))?;
    Ok(sol.eval(&objective))
}
