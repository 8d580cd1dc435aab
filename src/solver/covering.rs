//! The covering LP `min Σ_i Y_i s.t. Σ_i a_ji Y_i ≥ N_j, Y ≥ 0`, kept alive in HiGHS
//! between solves: columns are added to the solved model and it is re-solved warm from the
//! previous basis; demands and coefficients are edited in place through HiGHS's C API (the
//! crate's one `unsafe` besides the interrupt callback of `highs.rs`). Column generation uses
//! it as its master ([`crate::colgen::CoveringMaster`]).

use crate::error::{Error, Result};
use crate::solver::Deadline;
use ::highs::{ColProblem, HighsModelStatus, Model, Sense, SolvedModel};

/// A column: its non-zero coefficients `(row, a_ji)`.
pub type Column = Vec<(usize, f64)>;

/// HiGHS's `simplex_strategy` values.
const DUAL_SIMPLEX: i32 = 1;
const PRIMAL_SIMPLEX: i32 = 4;

/// A covering LP kept alive between solves.
pub struct CoveringLp {
    rows: Vec<::highs::Row>,
    demands: Vec<f64>,
    columns: Vec<Column>,
    state: State,
    /// A demand or coefficient changed since the last solve (the last basis is then no
    /// longer primal feasible).
    edited: bool,
}

enum State {
    Building(Box<ColProblem>),
    Ready(Model),
    Solved(SolvedModel),
    Poisoned,
}

/// An optimal solution of the covering LP.
#[derive(Debug, Clone)]
pub struct CoveringSolution {
    /// `Σ Y_i`.
    pub value: f64,
    /// `Y_i` per column.
    pub primal: Vec<f64>,
    /// `π_j ≥ 0` per row (clamped at 0 against round-off).
    pub duals: Vec<f64>,
    /// Simplex iterations of this solve.
    pub iterations: i64,
}

impl CoveringLp {
    /// An LP with one row per demand `N_j` and no column yet.
    pub fn new(demands: &[f64]) -> Self {
        let mut p = ColProblem::default();
        let rows = demands.iter().map(|&n| p.add_row(n..)).collect();
        CoveringLp {
            rows,
            demands: demands.to_vec(),
            columns: Vec::new(),
            state: State::Building(Box::new(p)),
            edited: false,
        }
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// True when there is no column.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// The columns, in the order they were added.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The demands `N_j`.
    pub fn demands(&self) -> &[f64] {
        &self.demands
    }

    /// Adds a column of cost 1.
    pub fn add_column(&mut self, col: Column) -> Result<()> {
        let factors: Vec<(::highs::Row, f64)> =
            col.iter().map(|&(r, a)| (self.rows[r], a)).collect();
        match std::mem::replace(&mut self.state, State::Poisoned) {
            State::Building(mut p) => {
                p.add_column(1.0, 0.0.., factors);
                self.state = State::Building(p);
            }
            State::Ready(mut m) => {
                m.try_add_column(1.0, 0.0.., factors)
                    .map_err(|e| Error::Highs(format!("add column: {e:?}")))?;
                self.state = State::Ready(m);
            }
            State::Solved(s) => {
                let mut m: Model = s.into();
                m.try_add_column(1.0, 0.0.., factors)
                    .map_err(|e| Error::Highs(format!("add column: {e:?}")))?;
                self.state = State::Ready(m);
            }
            State::Poisoned => return Err(Error::Highs("master left in a failed state".into())),
        }
        self.columns.push(col);
        Ok(())
    }

    /// Changes the demand of `row` (its right-hand side `N_row`) in the LP, e.g. to the
    /// residual demand while diving. [`CoveringLp::demands`] keeps the original demands.
    /// Only after a first solve; the next solve starts warm from the last basis.
    pub fn set_demand(&mut self, row: usize, demand: f64) -> Result<()> {
        if row >= self.rows.len() || !demand.is_finite() {
            return Err(Error::Highs(format!("bad demand {demand} for row {row}")));
        }
        // SAFETY: a live HiGHS instance (see `raw`), `row` one of its rows.
        self.raw("change a demand", |h| unsafe {
            highs_sys::Highs_changeRowBounds(h, row as _, demand, f64::INFINITY)
        })
    }

    /// Changes the coefficient `a_row,col` in the LP, e.g. to trim a column to a residual
    /// demand while diving. [`CoveringLp::columns`] keeps the original columns.
    pub fn set_coefficient(&mut self, row: usize, col: usize, value: f64) -> Result<()> {
        if row >= self.rows.len() || col >= self.columns.len() || !value.is_finite() {
            return Err(Error::Highs(format!(
                "bad coefficient {value} at ({row}, {col})"
            )));
        }
        // SAFETY: a live HiGHS instance (see `raw`), `row` and `col` within it.
        self.raw("change a coefficient", |h| unsafe {
            highs_sys::Highs_changeCoeff(h, row as _, col as _, value)
        })
    }

    /// One call of HiGHS's C API on the live model (the `highs` crate has no safe wrapper for
    /// these edits). Every row and column of `self` is in the model, in order.
    fn raw(
        &mut self,
        what: &str,
        call: impl FnOnce(*mut std::ffi::c_void) -> highs_sys::HighsInt,
    ) -> Result<()> {
        let mut model: Model = match std::mem::replace(&mut self.state, State::Poisoned) {
            State::Ready(m) => m,
            State::Solved(s) => s.into(),
            State::Building(p) => {
                self.state = State::Building(p);
                return Err(Error::Highs(format!("{what} before the first solve")));
            }
            State::Poisoned => return Err(Error::Highs("master left in a failed state".into())),
        };
        let status = call(model.as_mut_ptr());
        self.state = State::Ready(model);
        self.edited = true;
        if status != 0 {
            return Err(Error::Highs(format!("{what}: HiGHS status {status}")));
        }
        Ok(())
    }

    /// Solves the LP (warm after the first time); `Ok(None)` when the deadline stopped HiGHS.
    pub fn solve(&mut self, deadline: &Deadline) -> Result<Option<CoveringSolution>> {
        let mut model = match std::mem::replace(&mut self.state, State::Poisoned) {
            State::Building(p) => {
                let mut m = (*p)
                    .try_optimise(Sense::Minimise)
                    .map_err(|e| Error::Highs(format!("master rejected: {e:?}")))?;
                m.make_quiet();
                m.try_set_option("threads", 1)
                    .map_err(|e| Error::Highs(e.to_string()))?;
                m
            }
            State::Ready(m) => m,
            State::Solved(s) => s.into(),
            State::Poisoned => return Err(Error::Highs("master left in a failed state".into())),
        };
        // New columns leave the last basis primal feasible: the primal simplex goes on from it
        // (measured: master time 0.46 -> 0.26 s over 250 iterations on a large-task
        // instance); edited rows leave it dual feasible instead (diving).
        let strategy = if self.edited {
            DUAL_SIMPLEX
        } else {
            PRIMAL_SIMPLEX
        };
        model
            .try_set_option("simplex_strategy", strategy)
            .map_err(|e| Error::Highs(e.to_string()))?;
        self.edited = false;
        if let Some(left) = deadline.remaining_secs() {
            model
                .try_set_option("time_limit", left.max(1e-3))
                .map_err(|e| Error::Highs(e.to_string()))?;
        }
        let solved = model
            .try_solve()
            .map_err(|e| Error::Highs(format!("master solve: {e:?}")))?;
        let status = solved.status();
        if status == HighsModelStatus::ReachedTimeLimit {
            self.state = State::Solved(solved);
            return Ok(None);
        }
        if status != HighsModelStatus::Optimal {
            return Err(Error::Highs(format!("master LP ended {status:?}")));
        }
        let sol = solved.get_solution();
        let out = CoveringSolution {
            value: solved.objective_value(),
            primal: sol.columns().to_vec(),
            duals: sol.dual_rows().iter().map(|&d| d.max(0.0)).collect(),
            iterations: solved.simplex_iteration_count(),
        };
        self.state = State::Solved(solved);
        Ok(Some(out))
    }
}
