//! The rational relaxation of the VCSched MILP (RR-6692 §3.1): its closed-form value, and an
//! optimal point of it, solved by HiGHS, for the `lp-bound` method and the rounding
//! heuristics RRND and RRNZ.
//!
//! Without a migration budget the relaxation's value is the closed form
//! `Y* = min(H / Σα_t, 1)` (when `Σ m_t ≤ H`): summing the CPU rows bounds `Y Σα_t` by `H`,
//! and `e_tj = 1/H` attains it. So only the *point* needs a solver, and any point of the
//! optimal face `{Y = Y*}` will do. The face is found by a feasibility LP over `e` alone,
//! with `a_tj = Y* α_t e_tj` (`T·H` columns and `T + 2H` rows instead of `2·T·H + 1` and
//! `T·H + 2T + 2H`); the point it gives is mapped back and checked against the whole
//! relaxation. On the 64-host, 500-job instance this is the difference between seconds and a
//! fraction of one (docs/results.md). A budget can push the LP below the closed form, so a
//! budgeted adaptation always takes the whole relaxation, whose bound is then the weak-duality
//! bound of HiGHS's row duals and its `dual` proof ([`super::lp_dual`]), not HiGHS's value.

use super::instance::Instance;
use super::milp::{self, Formulation, Layout};
use crate::error::{Error, Result};
use crate::solver::{
    self, Bounds, BuildClock, Deadline, HighsSettings, LinearModel, LinearStatus, Sense,
};
use serde::{Deserialize, Serialize};

/// Which LP gives the relaxation's optimal point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// The whole relaxation (equations 3–11, 12–21 or 31 without integrality): a vertex of it.
    Full,
    /// The feasibility LP of the optimal face (see the module text): a vertex of the face.
    /// Budgeted adaptations fall back to [`Route::Full`].
    #[default]
    Face,
}

impl Route {
    /// The name used on the command line and in stats.
    pub fn name(self) -> &'static str {
        match self {
            Route::Full => "full",
            Route::Face => "face",
        }
    }
}

impl std::str::FromStr for Route {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "full" => Ok(Route::Full),
            "face" => Ok(Route::Face),
            _ => Err(format!(
                "unknown relaxation route {s:?} (expected full or face)"
            )),
        }
    }
}

/// The §3.1 closed form of the relaxation: `min(H / Σα_i, 1)` when `Σ m_i ≤ H`, else
/// `None` (the relaxation, hence the problem, is infeasible).
pub fn closed_form_bound(inst: &Instance) -> Option<f64> {
    (inst.total_mem() <= inst.hosts as f64).then(|| (inst.hosts as f64 / inst.total_cpu()).min(1.0))
}

/// The relaxation solved by HiGHS: its value (or `None` if infeasible) and an optimal point.
/// When HiGHS runs out of time, the closed form is returned alone.
#[derive(Debug, Clone)]
pub struct Relaxation {
    /// Optimal `Y` of the LP, `None` when the LP is infeasible.
    pub value: Option<f64>,
    /// An optimal point of the whole relaxation (for rounding heuristics), in the MILP's
    /// column layout.
    pub columns: Option<Vec<f64>>,
    /// Column layout of the point.
    pub layout: Layout,
    /// False when HiGHS stopped at the deadline: `value` is then the closed form alone and
    /// there is no point.
    pub finished: bool,
    /// The LP that was solved.
    pub route: Route,
    /// The whole relaxation's `dual` proof ([`super::lp_dual`]): the multipliers of its rows
    /// after `c6` and the upper bound they give (rounded outward; HiGHS's value is never the
    /// bound). `None` for the face route and when HiGHS gave no duals.
    pub dual: Option<(Vec<f64>, f64)>,
}

/// Largest row or bound violation accepted for a face point mapped into the whole relaxation.
const FACE_TOLERANCE: f64 = 1e-6;

/// Solves the rational relaxation of `inst` by `route` and checks it against the closed form.
pub fn solve(
    inst: &Instance,
    route: Route,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<Relaxation> {
    let budgeted = inst.is_adaptation() && inst.budget.is_some();
    if route == Route::Face && !budgeted {
        solve_face(inst, highs, deadline)
    } else {
        solve_full(inst, highs, deadline)
    }
}

fn unfinished(inst: &Instance, layout: Layout, route: Route) -> Relaxation {
    Relaxation {
        value: closed_form_bound(inst),
        columns: None,
        layout,
        finished: false,
        route,
        dual: None,
    }
}

/// The whole relaxation, which must agree with the closed form (or lie below it under a
/// budget).
fn solve_full(inst: &Instance, highs: &HighsSettings, deadline: &Deadline) -> Result<Relaxation> {
    let mut clock = BuildClock::new(deadline);
    let (model, layout) = milp::build_until(
        inst,
        Formulation {
            symmetry_breaking: false,
        },
        &mut clock,
    );
    if clock.expired() {
        // The deadline passed while building: the closed form alone.
        return Ok(unfinished(inst, layout, Route::Full));
    }
    let relaxed = model.relaxed();
    let out = solver::solve(&relaxed, highs, deadline, None)?;
    let value = match out.status {
        LinearStatus::Optimal => out.objective,
        LinearStatus::Infeasible => None,
        // A limit was reached: the closed form still stands, but there is no LP point.
        LinearStatus::NoSolution | LinearStatus::Feasible => {
            return Ok(unfinished(inst, layout, Route::Full))
        }
        other => {
            return Err(Error::Highs(format!(
                "the LP relaxation ended {other:?} ({})",
                out.raw_status
            )))
        }
    };
    let closed = closed_form_bound(inst);
    // The closed form ignores the migration budget: with one, it only bounds the LP.
    let budgeted = inst.is_adaptation() && inst.budget.is_some();
    let agree = match (closed, value) {
        (None, None) => true,
        (Some(c), Some(v)) => (c - v).abs() <= 1e-6 || (budgeted && v <= c + 1e-6),
        (Some(_), None) => budgeted,
        (None, Some(_)) => false,
    };
    if !agree {
        return Err(Error::Consistency(format!(
            "LP relaxation: closed form {closed:?} but HiGHS {value:?}"
        )));
    }
    let skip = inst.num_tasks() * inst.hosts;
    let dual = match (value, &out.row_duals) {
        (Some(_), Some(d)) => super::lp_dual::certify(&relaxed, skip, d),
        _ => None,
    };
    Ok(Relaxation {
        value,
        columns: out.columns,
        layout,
        finished: true,
        route: Route::Full,
        dual,
    })
}

/// A vertex of the optimal face `Y = Y*`, mapped into the whole relaxation and checked there.
fn solve_face(inst: &Instance, highs: &HighsSettings, deadline: &Deadline) -> Result<Relaxation> {
    let mut clock = BuildClock::new(deadline);
    let (full, layout) = milp::build_until(
        inst,
        Formulation {
            symmetry_breaking: false,
        },
        &mut clock,
    );
    if clock.expired() {
        return Ok(unfinished(inst, layout, Route::Face));
    }
    // Σ m_t > H: summing the memory rows proves the relaxation infeasible.
    let Some(y) = closed_form_bound(inst) else {
        return Ok(Relaxation {
            value: None,
            columns: None,
            layout,
            finished: true,
            route: Route::Face,
            dual: None,
        });
    };
    let h = inst.hosts;
    let mut face = LinearModel::new(Sense::Minimize);
    let assign: Vec<_> = (0..inst.num_tasks())
        .map(|t| face.add_row(format!("c7_{t}"), Bounds::equal(1.0)))
        .collect();
    let cpu: Vec<_> = (0..h)
        .map(|j| face.add_row(format!("c8_{j}"), Bounds::at_most(1.0)))
        .collect();
    let mem: Vec<_> = (0..h)
        .map(|j| face.add_row(format!("c9_{j}"), Bounds::at_most(1.0)))
        .collect();
    for (t, task) in inst.tasks().enumerate() {
        for j in 0..h {
            if clock.tick() {
                return Ok(unfinished(inst, layout, Route::Face));
            }
            let entries = vec![(assign[t], 1.0), (cpu[j], y * task.cpu), (mem[j], task.mem)];
            face.add_col(
                format!("e_{t}_{j}"),
                0.0,
                Bounds::new(0.0, 1.0),
                false,
                entries,
            );
        }
    }
    let out = solver::solve(&face, highs, deadline, None)?;
    let e = match (out.status, out.columns) {
        (LinearStatus::Optimal, Some(e)) => e,
        (LinearStatus::NoSolution | LinearStatus::Feasible, _) => {
            return Ok(unfinished(inst, layout, Route::Face))
        }
        (other, _) => {
            return Err(Error::Consistency(format!(
                "the optimal face of the LP relaxation (Y = {y}) ended {other:?} ({}), \
                 though e = 1/H lies on it",
                out.raw_status
            )))
        }
    };
    let mut x = vec![0.0; layout.y() + 1];
    for (t, task) in inst.tasks().enumerate() {
        for j in 0..h {
            let v = e[t * h + j].clamp(0.0, 1.0);
            x[layout.e(t, j)] = v;
            x[layout.a(t, j)] = y * task.cpu * v;
        }
    }
    x[layout.y()] = y;
    let violation = full.max_violation(&x);
    if violation > FACE_TOLERANCE {
        return Err(Error::Consistency(format!(
            "the optimal face's point violates the LP relaxation by {violation:e}"
        )));
    }
    Ok(Relaxation {
        value: Some(y),
        columns: Some(x),
        layout,
        finished: true,
        route: Route::Face,
        dual: None,
    })
}
