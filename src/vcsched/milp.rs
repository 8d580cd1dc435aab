//! The MILP of RR-6692 §2.5 (equations 3–11) and its rational relaxation (§3.1).
//!
//! Variables: `e_i_j ∈ {0,1}` (job `i` on host `j`), `a_i_j ∈ [0,1]` (CPU fraction `α_ij`),
//! `Y ∈ [0,1]`; maximise `Y`. Rows are named after the paper's equations (`c6_i_j`, `c7_i`,
//! …, `c11_i`). See `models/vcsched.md` for the derivation and what we add (symmetry
//! breaking between identical hosts).

use super::instance::Instance;
use crate::error::{Error, Result};
use crate::solver::{self, Bounds, Deadline, HighsSettings, LinearModel, LinearStatus, Sense};

/// How the MILP is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formulation {
    /// Fix `e_i_j = 0` for `j > i`: hosts are identical, so any placement can be relabelled
    /// so that job `i` sits on one of the first `i + 1` hosts. Valid for the integer program
    /// only; the relaxation used as the §3.1 bound is built without it.
    pub symmetry_breaking: bool,
}

/// Column layout of the model built by [`build`].
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    hosts: usize,
    jobs: usize,
}

impl Layout {
    /// Column of `e_i_j`.
    pub fn e(&self, i: usize, j: usize) -> usize {
        i * self.hosts + j
    }
    /// Column of `a_i_j`.
    pub fn a(&self, i: usize, j: usize) -> usize {
        self.jobs * self.hosts + i * self.hosts + j
    }
    /// Column of `Y`.
    pub fn y(&self) -> usize {
        2 * self.jobs * self.hosts
    }
}

/// Builds equations 3–11 for `inst`.
pub fn build(inst: &Instance, f: Formulation) -> (LinearModel, Layout) {
    let (h, n) = (inst.hosts, inst.num_jobs());
    let mut m = LinearModel::new(Sense::Maximize);
    // Rows first: the model is built column-wise.
    let c6: Vec<Vec<_>> = (0..n)
        .map(|i| {
            (0..h)
                .map(|j| m.add_row(format!("c6_{i}_{j}"), Bounds::at_most(0.0)))
                .collect()
        })
        .collect();
    let c7: Vec<_> = (0..n)
        .map(|i| m.add_row(format!("c7_{i}"), Bounds::equal(1.0)))
        .collect();
    let c8: Vec<_> = (0..h)
        .map(|j| m.add_row(format!("c8_{j}"), Bounds::at_most(1.0)))
        .collect();
    let c9: Vec<_> = (0..h)
        .map(|j| m.add_row(format!("c9_{j}"), Bounds::at_most(1.0)))
        .collect();
    let c10: Vec<_> = (0..n)
        .map(|i| m.add_row(format!("c10_{i}"), Bounds::at_most(inst.jobs[i].cpu)))
        .collect();
    let c11: Vec<_> = (0..n)
        .map(|i| m.add_row(format!("c11_{i}"), Bounds::at_least(0.0)))
        .collect();
    for (i, job) in inst.jobs.iter().enumerate() {
        for j in 0..h {
            let upper = if f.symmetry_breaking && j > i {
                0.0
            } else {
                1.0
            };
            let entries = vec![(c6[i][j], -1.0), (c7[i], 1.0), (c9[j], job.mem)];
            m.add_col(
                format!("e_{i}_{j}"),
                0.0,
                Bounds::new(0.0, upper),
                true,
                entries,
            );
        }
    }
    for (i, job) in inst.jobs.iter().enumerate() {
        for j in 0..h {
            let entries = vec![
                (c6[i][j], 1.0),
                (c8[j], 1.0),
                (c10[i], 1.0),
                (c11[i], 1.0 / job.cpu),
            ];
            m.add_col(
                format!("a_{i}_{j}"),
                0.0,
                Bounds::new(0.0, 1.0),
                false,
                entries,
            );
        }
    }
    let y_entries = c11.iter().map(|&r| (r, -1.0)).collect();
    m.add_col("Y", 1.0, Bounds::new(0.0, 1.0), false, y_entries);
    (m, Layout { hosts: h, jobs: n })
}

/// A feasible column vector for a placement: `a_ij = α_i Y` with `Y` its minimum yield.
pub fn start_vector(inst: &Instance, layout: &Layout, placement: &[usize], y: f64) -> Vec<f64> {
    let mut x = vec![0.0; layout.y() + 1];
    for (i, &j) in placement.iter().enumerate() {
        x[layout.e(i, j)] = 1.0;
        x[layout.a(i, j)] = inst.jobs[i].cpu * y;
    }
    x[layout.y()] = y;
    x
}

/// Reads a placement off an integer solution (the host with the largest `e_i_j`).
pub fn placement_of(layout: &Layout, x: &[f64]) -> Vec<usize> {
    (0..layout.jobs)
        .map(|i| {
            (0..layout.hosts)
                .max_by(|&p, &q| {
                    x[layout.e(i, p)]
                        .total_cmp(&x[layout.e(i, q)])
                        .then(q.cmp(&p))
                })
                .unwrap_or(0)
        })
        .collect()
}

/// The §3.1 closed form of the relaxation: `min(H / Σα_i, 1)` when `Σ m_i ≤ H`, else
/// `None` (the relaxation, hence the problem, is infeasible).
pub fn closed_form_bound(inst: &Instance) -> Option<f64> {
    (inst.total_mem() <= inst.hosts as f64).then(|| (inst.hosts as f64 / inst.total_cpu()).min(1.0))
}

/// The relaxation solved by HiGHS: its value (or `None` if infeasible) and its point.
/// Both values must agree; when HiGHS runs out of time, the closed form is returned alone.
#[derive(Debug, Clone)]
pub struct Relaxation {
    /// Optimal `Y` of the LP, `None` when the LP is infeasible.
    pub value: Option<f64>,
    /// The LP's optimal point (for rounding heuristics).
    pub columns: Option<Vec<f64>>,
    /// Column layout of the point.
    pub layout: Layout,
    /// False when HiGHS stopped at the deadline: `value` is then the closed form alone and
    /// there is no point.
    pub finished: bool,
}

/// Solves the rational relaxation with HiGHS and checks it against the closed form.
pub fn solve_relaxation(
    inst: &Instance,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<Relaxation> {
    let (model, layout) = build(
        inst,
        Formulation {
            symmetry_breaking: false,
        },
    );
    let out = solver::solve(&model.relaxed(), highs, deadline, None)?;
    let value = match out.status {
        LinearStatus::Optimal => out.objective,
        LinearStatus::Infeasible => None,
        // A limit was reached: the closed form still stands, but there is no LP point.
        LinearStatus::NoSolution | LinearStatus::Feasible => {
            return Ok(Relaxation {
                value: closed_form_bound(inst),
                columns: None,
                layout,
                finished: false,
            })
        }
        other => {
            return Err(Error::Highs(format!(
                "the LP relaxation ended {other:?} ({})",
                out.raw_status
            )))
        }
    };
    let closed = closed_form_bound(inst);
    let agree = match (closed, value) {
        (None, None) => true,
        (Some(c), Some(v)) => (c - v).abs() <= 1e-6,
        _ => false,
    };
    if !agree {
        return Err(Error::Consistency(format!(
            "LP relaxation: closed form {closed:?} but HiGHS {value:?}"
        )));
    }
    Ok(Relaxation {
        value,
        columns: out.columns,
        layout,
        finished: true,
    })
}

/// The MILP of `inst` as a CPLEX LP file; `source` names the instance in the header comment.
pub fn lp_file(inst: &Instance, source: &str, symmetry_breaking: bool) -> String {
    let (model, _) = build(inst, Formulation { symmetry_breaking });
    let comment = vec![
        "VCSched MILP, RR-6692 section 2.5, equations 3-11 (see models/vcsched.md)".to_string(),
        format!(
            "instance: {source}: {} hosts, {} jobs",
            inst.hosts,
            inst.num_jobs()
        ),
        format!("symmetry breaking (e_i_j = 0 for j > i): {symmetry_breaking}"),
    ];
    solver::write_lp(&model, &comment)
}
