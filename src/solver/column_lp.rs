//! A linear program kept alive in HiGHS between solves, for restricted masters of column
//! generation: rows with fixed bounds, columns added one by one (each with its cost and
//! bounds) to the solved model, which is re-solved warm from the previous basis; row bounds
//! and coefficients are edited in place through HiGHS's C API (the crate's one `unsafe`
//! besides the interrupt callback of `highs.rs`). [`crate::solver::CoveringLp`] is the
//! covering special case; other masters (e.g. one convexity row per item and capacity rows)
//! use this type directly.

use crate::error::{Error, Result};
use crate::solver::Deadline;
use ::highs::{ColProblem, HighsModelStatus, Model, Sense, SolvedModel};

/// A column: its non-zero coefficients `(row, a_ji)`.
pub type Column = Vec<(usize, f64)>;

/// A column's coefficients as a key that equal columns share: rows in order, values by their
/// bits.
pub fn column_key(col: &[(usize, f64)]) -> Vec<(usize, u64)> {
    let mut k: Vec<(usize, u64)> = col.iter().map(|&(r, a)| (r, a.to_bits())).collect();
    k.sort_unstable();
    k
}

/// HiGHS's `simplex_strategy` values.
const DUAL_SIMPLEX: i32 = 1;
const PRIMAL_SIMPLEX: i32 = 4;

/// The algorithm HiGHS solves a [`ColumnLp`] with (a setting of column generation's master,
/// `cg.master_lp`, measured for Fig. 2 of Belaid 2015 in docs/results.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MasterLp {
    /// Primal simplex from the last basis after new columns (it stays primal feasible), dual
    /// simplex after edited rows or coefficients (it stays dual feasible).
    #[default]
    Warm,
    /// Dual simplex at every solve.
    Dual,
    /// Primal simplex at every solve.
    Primal,
    /// HiGHS's interior point method at every solve, with its crossover to a vertex (no warm
    /// start).
    Ipm,
    /// The interior point method without the crossover: duals from the interior of the
    /// optimal face rather than a vertex (no warm start).
    IpmNoCrossover,
}

/// A minimisation LP kept alive between solves.
pub struct ColumnLp {
    rows: Vec<::highs::Row>,
    cols: usize,
    state: State,
    /// A row bound or coefficient changed since the last solve (the last basis is then no
    /// longer primal feasible).
    edited: bool,
    /// Wall seconds spent in HiGHS's `run` so far: HiGHS's `time_limit` is measured on its
    /// cumulative run clock, not per call, so each call's limit is this plus what is left.
    highs_seconds: f64,
    /// The algorithm of every solve.
    algorithm: MasterLp,
}

enum State {
    Building(Box<ColProblem>),
    Ready(Model),
    Solved(SolvedModel),
    Poisoned,
}

/// An optimal solution of a [`ColumnLp`].
#[derive(Debug, Clone)]
pub struct LpSolution {
    /// The objective value.
    pub value: f64,
    /// The value of each column, in the order they were added.
    pub primal: Vec<f64>,
    /// HiGHS's row duals, signed (for a minimisation, `≤` rows have duals `≤ 0` and `≥` rows
    /// duals `≥ 0`, up to round-off).
    pub duals: Vec<f64>,
    /// Simplex iterations of this solve.
    pub iterations: i64,
}

impl ColumnLp {
    /// A minimisation LP with one row per `(lower, upper)` bound pair and no column yet.
    pub fn new(row_bounds: &[(f64, f64)]) -> Self {
        let mut p = ColProblem::default();
        let rows = row_bounds
            .iter()
            .map(|&(lo, hi)| p.add_row(lo..=hi))
            .collect();
        ColumnLp {
            rows,
            cols: 0,
            state: State::Building(Box::new(p)),
            edited: false,
            highs_seconds: 0.0,
            algorithm: MasterLp::Warm,
        }
    }

    /// The algorithm of the next solves.
    pub fn set_algorithm(&mut self, algorithm: MasterLp) {
        self.algorithm = algorithm;
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.cols
    }

    /// True when there is no column.
    pub fn is_empty(&self) -> bool {
        self.cols == 0
    }

    /// Adds a column of cost `cost` with bounds `lower ≤ x ≤ upper` (`upper` may be `+∞`).
    pub fn add_column(
        &mut self,
        cost: f64,
        lower: f64,
        upper: f64,
        col: &[(usize, f64)],
    ) -> Result<()> {
        if let Some(&(r, a)) = col
            .iter()
            .find(|&&(r, a)| r >= self.rows.len() || !a.is_finite())
        {
            return Err(Error::Highs(format!("bad coefficient {a} in row {r}")));
        }
        let factors: Vec<(::highs::Row, f64)> =
            col.iter().map(|&(r, a)| (self.rows[r], a)).collect();
        let add = |m: &mut Model, f| {
            m.try_add_column(cost, lower..=upper, f)
                .map_err(|e| Error::Highs(format!("add column: {e:?}")))
        };
        match std::mem::replace(&mut self.state, State::Poisoned) {
            State::Building(mut p) => {
                p.add_column(cost, lower..=upper, factors);
                self.state = State::Building(p);
            }
            State::Ready(mut m) => {
                add(&mut m, factors)?;
                self.state = State::Ready(m);
            }
            State::Solved(s) => {
                let mut m: Model = s.into();
                add(&mut m, factors)?;
                self.state = State::Ready(m);
            }
            State::Poisoned => return Err(Error::Highs("master left in a failed state".into())),
        }
        self.cols += 1;
        Ok(())
    }

    /// Changes the bounds of `row`. Only after a first solve; the next solve starts warm
    /// from the last basis (dual simplex).
    pub fn set_row_bounds(&mut self, row: usize, lower: f64, upper: f64) -> Result<()> {
        if row >= self.rows.len() || lower.is_nan() || upper.is_nan() {
            return Err(Error::Highs(format!(
                "bad bounds [{lower}, {upper}] for row {row}"
            )));
        }
        // SAFETY: a live HiGHS instance (see `raw`), `row` one of its rows.
        self.raw("change row bounds", |h| unsafe {
            highs_sys::Highs_changeRowBounds(h, row as _, lower, upper)
        })
    }

    /// Changes the bounds of column `col`. Only after a first solve; the next solve starts
    /// warm from the last basis (dual simplex).
    pub fn set_column_bounds(&mut self, col: usize, lower: f64, upper: f64) -> Result<()> {
        if col >= self.cols || lower.is_nan() || upper.is_nan() || lower > upper {
            return Err(Error::Highs(format!(
                "bad bounds [{lower}, {upper}] for column {col}"
            )));
        }
        // SAFETY: a live HiGHS instance (see `raw`), `col` one of its columns.
        self.raw("change column bounds", |h| unsafe {
            highs_sys::Highs_changeColBounds(h, col as _, lower, upper)
        })
    }

    /// Deletes the columns `cols` (distinct, increasing); the others keep their order, so the
    /// column at index `k` moves down by the number of deleted ones before it. Only after a
    /// first solve, and only columns nonbasic in the last basis: HiGHS keeps the basis, and
    /// the next solve starts warm from it.
    pub fn delete_columns(&mut self, cols: &[usize]) -> Result<()> {
        if cols.is_empty() {
            return Ok(());
        }
        if cols.windows(2).any(|w| w[0] >= w[1]) || cols.last().is_some_and(|&c| c >= self.cols) {
            return Err(Error::Highs(format!(
                "bad columns to delete ({} of {})",
                cols.len(),
                self.cols
            )));
        }
        let set: Vec<highs_sys::HighsInt> = cols.iter().map(|&c| c as _).collect();
        let n = set.len() as highs_sys::HighsInt;
        let edited = self.edited;
        // SAFETY: a live HiGHS instance (see `raw`); `set` holds `n` increasing indices of
        // its columns and outlives the call.
        self.raw("delete columns", |h| unsafe {
            highs_sys::Highs_deleteColsBySet(h, n, set.as_ptr())
        })?;
        // Deleting nonbasic columns leaves the basis primal feasible: no dual simplex needed.
        self.edited = edited;
        self.cols -= cols.len();
        Ok(())
    }

    /// Changes the coefficient `a_row,col`. Only after a first solve.
    pub fn set_coefficient(&mut self, row: usize, col: usize, value: f64) -> Result<()> {
        if row >= self.rows.len() || col >= self.cols || !value.is_finite() {
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
    /// Any end but optimal or the time limit is an error (a restricted master is built to be
    /// feasible and bounded).
    pub fn solve(&mut self, deadline: &Deadline) -> Result<Option<LpSolution>> {
        // A model not yet in HiGHS is not handed over once the deadline has passed (issue
        // 36): as at HiGHS's time limit, and it stays buildable for a later solve.
        if matches!(self.state, State::Building(_)) && deadline.expired() {
            log::debug!("master LP: the deadline passed before it was loaded into HiGHS");
            return Ok(None);
        }
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
        let strategy = match self.algorithm {
            MasterLp::Warm if self.edited => DUAL_SIMPLEX,
            MasterLp::Warm | MasterLp::Primal | MasterLp::Ipm | MasterLp::IpmNoCrossover => {
                PRIMAL_SIMPLEX
            }
            MasterLp::Dual => DUAL_SIMPLEX,
        };
        model
            .try_set_option("simplex_strategy", strategy)
            .map_err(|e| Error::Highs(e.to_string()))?;
        let (solver, crossover) = match self.algorithm {
            MasterLp::Ipm => ("ipm", "on"),
            MasterLp::IpmNoCrossover => ("ipm", "off"),
            _ => ("choose", "on"),
        };
        model
            .try_set_option("solver", solver)
            .map_err(|e| Error::Highs(e.to_string()))?;
        model
            .try_set_option("run_crossover", crossover)
            .map_err(|e| Error::Highs(e.to_string()))?;
        self.edited = false;
        if let Some(left) = deadline.remaining_secs() {
            model
                .try_set_option("time_limit", self.highs_seconds + left.max(1e-3))
                .map_err(|e| Error::Highs(e.to_string()))?;
        }
        let began = std::time::Instant::now();
        let mut solved = model
            .try_solve()
            .map_err(|e| Error::Highs(format!("master solve: {e:?}")))?;
        // HiGHS may end a warm-started simplex in `Unknown` (numerical trouble, seen on SOC
        // masters of a few thousand columns): once, its solver state is cleared and the LP
        // solved again from scratch by the dual simplex.
        let odd = |s: HighsModelStatus| {
            s != HighsModelStatus::Optimal && s != HighsModelStatus::ReachedTimeLimit
        };
        if odd(solved.status()) {
            log::warn!(
                "master LP ended {:?} from a warm start; solving it again from scratch",
                solved.status()
            );
            let mut model: Model = solved.into();
            // SAFETY: a live HiGHS instance owned by `model`.
            let cleared = unsafe { highs_sys::Highs_clearSolver(model.as_mut_ptr()) };
            if cleared != 0 {
                return Err(Error::Highs(format!(
                    "clear solver: HiGHS status {cleared}"
                )));
            }
            for (option, value) in [("solver", "simplex"), ("run_crossover", "on")] {
                model
                    .try_set_option(option, value)
                    .map_err(|e| Error::Highs(e.to_string()))?;
            }
            model
                .try_set_option("simplex_strategy", DUAL_SIMPLEX)
                .map_err(|e| Error::Highs(e.to_string()))?;
            solved = model
                .try_solve()
                .map_err(|e| Error::Highs(format!("master solve: {e:?}")))?;
        }
        self.highs_seconds += began.elapsed().as_secs_f64();
        log::trace!(
            "master LP: {} simplex iterations in {:.4} s",
            solved.simplex_iteration_count(),
            began.elapsed().as_secs_f64()
        );
        let status = solved.status();
        if status == HighsModelStatus::ReachedTimeLimit {
            log::debug!(
                "master LP: HiGHS time limit, {:?} s left",
                deadline.remaining_secs()
            );
            self.state = State::Solved(solved);
            return Ok(None);
        }
        if status != HighsModelStatus::Optimal {
            return Err(Error::Highs(format!("master LP ended {status:?}")));
        }
        let sol = solved.get_solution();
        let out = LpSolution {
            value: solved.objective_value(),
            primal: sol.columns().to_vec(),
            duals: sol.dual_rows().to_vec(),
            iterations: solved.simplex_iteration_count(),
        };
        self.state = State::Solved(solved);
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_not_handed_to_highs_after_the_deadline_and_stays_buildable() {
        // min Σ cost·x over columns covering row 0 at least 1 and row 1 at least 2.
        let mut lp = ColumnLp::new(&[(1.0, f64::INFINITY), (2.0, f64::INFINITY)]);
        lp.add_column(1.0, 0.0, f64::INFINITY, &[(0, 1.0)]).unwrap();
        lp.add_column(1.0, 0.0, f64::INFINITY, &[(1, 1.0)]).unwrap();
        assert!(lp.solve(&Deadline::after(Some(0.0))).unwrap().is_none());
        assert!(matches!(lp.state, State::Building(_)) && lp.highs_seconds == 0.0);
        // Still in the making: a column covering both at 1.5, then solved in full (2.5).
        lp.add_column(1.5, 0.0, f64::INFINITY, &[(0, 1.0), (1, 1.0)])
            .unwrap();
        let s = lp.solve(&Deadline::none()).unwrap().expect("solved");
        assert!((s.value - 2.5).abs() < 1e-9, "{}", s.value);
        assert_eq!(s.primal.len(), 3);
    }
}
