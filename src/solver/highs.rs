//! The HiGHS adapter: every LP and MILP of the crate goes through [`solve`].
//!
//! It owns the things that are easy to get wrong once per model: the time limit comes from
//! one [`Deadline`], solver chatter is off, tolerances are explicit, and HiGHS's status is
//! mapped to [`LinearStatus`] without trusting "optimal" blindly: a MIP is reported optimal
//! only when HiGHS's own `mip_gap` is within the requested gap, and the dual bound is
//! cross-checked against the incumbent.

use super::deadline::Deadline;
pub use super::highs_settings::HighsSettings;
use super::linear::{LinearModel, Sense};
use crate::error::{Error, Result};
use highs::{ColProblem, HighsModelStatus, HighsSolutionStatus};
use std::time::Instant;

/// What HiGHS concluded, after our checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearStatus {
    /// Optimal within the requested tolerances (for a MIP, `mip_gap` checked).
    Optimal,
    /// A feasible point is known but optimality is not proven (limit reached or gap open).
    Feasible,
    /// Proven infeasible.
    Infeasible,
    /// Proven unbounded.
    Unbounded,
    /// A limit was reached with no feasible point.
    NoSolution,
}

/// The answer of one HiGHS solve.
#[derive(Debug, Clone)]
pub struct LinearOutcome {
    /// Mapped status.
    pub status: LinearStatus,
    /// Objective of the returned point, when there is one.
    pub objective: Option<f64>,
    /// Best proven bound on the optimum (upper for maximisation, lower for minimisation).
    pub dual_bound: Option<f64>,
    /// Column values, when a feasible point is known.
    pub columns: Option<Vec<f64>>,
    /// Row duals (LPs only, at optimality).
    pub row_duals: Option<Vec<f64>>,
    /// HiGHS's raw model status, for logs.
    pub raw_status: String,
    /// Simplex iterations spent.
    pub iterations: i64,
    /// Wall-clock seconds spent in HiGHS.
    pub seconds: f64,
}

impl LinearOutcome {
    /// True when the deadline passed while the model was being handed to HiGHS: nothing
    /// was solved, and the caller answers as if the model had not been built.
    pub fn not_loaded(&self) -> bool {
        self.raw_status == NOT_LOADED
    }
}

/// [`LinearOutcome::raw_status`] of a model the deadline stopped on its way into HiGHS.
const NOT_LOADED: &str = "NotLoaded";

fn set<V: highs::HighsOptionValue>(model: &mut highs::Model, name: &str, value: V) -> Result<()> {
    model
        .try_set_option(name, value)
        .map_err(|e| Error::Highs(format!("option {name}: {e}")))
}

/// HiGHS's `kHighsStatusOk`.
const STATUS_OK: highs_sys::HighsInt = 0;

/// What HiGHS last reported, for the live log.
#[derive(Debug, Default, Clone, Copy)]
struct Figures {
    mip_reported: bool,
    primal: f64,
    dual: f64,
    gap: f64,
    nodes: i64,
    lp_iterations: i64,
    simplex_iterations: i32,
    ipm_iterations: i32,
}

impl Figures {
    fn line(&self, mip: bool) -> String {
        use super::progress::{figure, gap};
        match (mip, self.mip_reported) {
            (true, true) => format!(
                "HiGHS MIP  incumbent {}  bound {}  gap {}  nodes {}  LP iterations {}",
                figure(self.primal),
                figure(self.dual),
                gap(self.gap),
                self.nodes,
                self.lp_iterations
            ),
            (true, false) => "HiGHS MIP  presolve and root LP".into(),
            (false, _) => format!(
                "HiGHS LP  iterations {} (simplex), {} (interior point)",
                self.simplex_iterations, self.ipm_iterations
            ),
        }
    }
}

/// What the HiGHS callback is given: the deadline, and the figures the live log shows.
struct Watch {
    end: Option<Instant>,
    figures: std::sync::Mutex<Figures>,
    /// Set when the caller stopped waiting ([`run_abandonable`]): HiGHS is asked to stop at
    /// its next callback whatever the deadline and the interrupt flag say then.
    abandoned: std::sync::atomic::AtomicBool,
}

/// HiGHS callback: asks HiGHS to stop once the deadline behind `user` has passed, or once the
/// process is interrupted (Ctrl-C, SIGTERM); keeps what HiGHS reports (incumbent, dual bound,
/// gap, nodes, iterations) for the live log.
unsafe extern "C" fn interrupt_at(
    kind: std::ffi::c_int,
    _message: *const std::ffi::c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    data_in: *mut highs_sys::HighsCallbackDataIn,
    user: *mut std::ffi::c_void,
) {
    // SAFETY: `user` is the boxed `Watch` registered by `solve`, alive for the whole run;
    // `data_in` and `out` are HiGHS's own blocks for this call (null for callbacks without
    // one), read or written only during it.
    unsafe {
        let watch = &*(user as *const Watch);
        if !data_in.is_null()
            && (super::interrupted()
                || watch.abandoned.load(std::sync::atomic::Ordering::Relaxed)
                || watch.end.is_some_and(|e| Instant::now() >= e))
        {
            (*data_in).user_interrupt = 1;
        }
        let (Some(o), Ok(mut f)) = (out.as_ref(), watch.figures.try_lock()) else {
            return;
        };
        if kind == highs_sys::kHighsCallbackMipInterrupt as std::ffi::c_int {
            f.mip_reported = true;
            f.primal = o.mip_primal_bound;
            f.dual = o.mip_dual_bound;
            f.gap = o.mip_gap;
            f.nodes = o.mip_node_count;
            f.lp_iterations = o.mip_total_lp_iterations;
        } else {
            f.simplex_iterations = o.simplex_iteration_count;
            f.ipm_iterations = o.ipm_iteration_count;
        }
    }
}

/// How long the caller waits for HiGHS once the deadline has passed or the process was
/// interrupted. HiGHS calls its interrupt callback from its simplex, interior-point and
/// branch-and-bound loops, not from its MIP presolve: a 256-host × 2,000-job VCSched MILP
/// stayed 10.8 s in presolve after a SIGTERM (docs/results.md).
pub const ABANDON_AFTER: std::time::Duration = std::time::Duration::from_millis(300);

/// A HiGHS instance (or the work that owns one, or its result) moved between threads.
struct Moved<T>(T);
// SAFETY: a Highs instance has no thread affinity; it is used by one thread at a time — the
// builder until the move, then only the worker of `run_abandonable`, which runs it and drops
// it, or hands the solved model back once and never touches it again.
unsafe impl<T> Send for Moved<T> {}

/// Runs `work` (HiGHS's `try_solve`) on a thread of its own and waits for it; once
/// `deadline` has passed (or the process is interrupted), waits [`ABANDON_AFTER`] more, then
/// stops waiting (`None`) and sets `abandoned`: the caller answers with what it has, and the
/// worker, told through the flag (HiGHS's callback reads it), ends at its next callback and
/// frees what it holds.
fn run_abandonable<T: 'static>(
    work: impl FnOnce() -> T + 'static,
    abandoned: &std::sync::atomic::AtomicBool,
    deadline: &Deadline,
) -> Result<Option<T>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let work = Moved(work);
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let work = work;
            // The receiver may be gone (abandoned): the result is then dropped here.
            let _ = tx.send(Moved((work.0)()));
        })
        .map_err(|e| Error::Highs(format!("could not start HiGHS's thread: {e}")))?;
    let mut stop_seen: Option<Instant> = None;
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(10)) {
            Ok(r) => return Ok(Some(r.0)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::Highs(
                    "HiGHS's thread ended without an answer".into(),
                ))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if stop_seen.is_none() && deadline.expired() {
            stop_seen = Some(Instant::now());
        }
        if stop_seen.is_some_and(|t| t.elapsed() >= ABANDON_AFTER) {
            abandoned.store(true, std::sync::atomic::Ordering::Relaxed);
            return Ok(None);
        }
    }
}

/// Solves `model` with HiGHS, stopping at `deadline`; `start` is an optional feasible point
/// given to HiGHS as its first incumbent.
pub fn solve(
    model: &LinearModel,
    settings: &HighsSettings,
    deadline: &Deadline,
    start: Option<&[f64]>,
) -> Result<LinearOutcome> {
    let began = Instant::now();
    // The deadline passing while the model is handed over: no solve, as at a time limit.
    let not_loaded = || LinearOutcome {
        status: LinearStatus::NoSolution,
        objective: None,
        dual_bound: None,
        columns: None,
        row_duals: None,
        raw_status: NOT_LOADED.into(),
        iterations: 0,
        seconds: began.elapsed().as_secs_f64(),
    };
    let mut clock = super::BuildClock::new(deadline);
    let mut problem = ColProblem::default();
    let rows: Vec<highs::Row> = model
        .rows
        .iter()
        .map(|r| problem.add_row(r.bounds.lower..=r.bounds.upper))
        .collect();
    for c in &model.cols {
        if clock.tick() {
            log::debug!("HiGHS: the deadline passed while loading the model");
            return Ok(not_loaded());
        }
        let factors: Vec<(highs::Row, f64)> =
            c.entries.iter().map(|&(r, a)| (rows[r.0], a)).collect();
        problem.add_column_with_integrality(
            c.cost,
            c.bounds.lower..=c.bounds.upper,
            factors,
            c.integer,
        );
    }
    let sense = match model.sense {
        Sense::Maximize => highs::Sense::Maximise,
        Sense::Minimize => highs::Sense::Minimise,
    };
    let mut m = problem
        .try_optimise(sense)
        .map_err(|e| Error::Highs(format!("model rejected: {e:?}")))?;
    m.make_quiet();
    set(&mut m, "threads", settings.threads.max(1) as i32)?;
    set(&mut m, "mip_rel_gap", settings.mip_rel_gap)?;
    set(&mut m, "mip_abs_gap", settings.mip_abs_gap)?;
    set(
        &mut m,
        "mip_feasibility_tolerance",
        settings.mip_feasibility_tolerance,
    )?;
    set(
        &mut m,
        "primal_feasibility_tolerance",
        settings.feasibility_tolerance,
    )?;
    set(&mut m, "random_seed", settings.random_seed)?;
    set(&mut m, "simplex_strategy", settings.simplex_strategy)?;
    if !model.is_mip() {
        set(&mut m, "solver", settings.lp_algorithm.as_str())?;
    }
    if let Some(left) = deadline.remaining_secs() {
        set(&mut m, "time_limit", left.max(1e-3))?;
    }
    if let (Some(n), true) = (settings.mip_max_nodes, model.is_mip()) {
        set(&mut m, "mip_max_nodes", n)?;
    }
    if !settings.mip_sub_mips && model.is_mip() {
        set(&mut m, "mip_heuristic_run_rens", false)?;
        set(&mut m, "mip_heuristic_run_rins", false)?;
    }
    let mip = model.is_mip();
    if let (Some(x), true) = (start, mip) {
        if x.len() == model.cols.len() && model.max_violation(x) <= settings.feasibility_tolerance {
            m.try_set_solution(Some(x), None, None, None)
                .map_err(|e| Error::Highs(format!("set_solution: {e:?}")))?;
        }
    }
    // HiGHS checks its own time limit only between steps of its own (measured: a MIP over a
    // few thousand columns ran 1–2.5 s past it); the interrupt callbacks are called from
    // inside its simplex, interior-point and branch-and-bound loops. They are set even without
    // a limit, for Ctrl-C.
    let watch = std::sync::Arc::new(Watch {
        end: deadline.end_instant(),
        figures: Default::default(),
        abandoned: Default::default(),
    });
    let data = (&*watch as *const Watch)
        .cast_mut()
        .cast::<std::ffi::c_void>();
    // SAFETY: `m` wraps a live Highs instance; `watch` is shared (its address is stable) and
    // a clone lives as long as `m` does ([`run_abandonable`] moves both to the thread that
    // runs `try_solve`, the only call that runs callbacks).
    unsafe {
        let ptr = m.as_mut_ptr();
        if highs_sys::Highs_setCallback(ptr, Some(interrupt_at), data) != STATUS_OK {
            return Err(Error::Highs("could not set the interrupt callback".into()));
        }
        for kind in [
            highs_sys::kHighsCallbackSimplexInterrupt,
            highs_sys::kHighsCallbackIpmInterrupt,
            highs_sys::kHighsCallbackMipInterrupt,
        ] {
            if highs_sys::Highs_startCallback(ptr, kind) != STATUS_OK {
                return Err(Error::Highs(
                    "could not start the interrupt callback".into(),
                ));
            }
        }
    }
    let status = || {
        let f = *watch.figures.lock().unwrap_or_else(|e| e.into_inner());
        f.line(mip)
    };
    let ran = super::progress::while_running(
        || {
            let held = std::sync::Arc::clone(&watch);
            // The worker holds `m` and a clone of `watch` (which HiGHS's callback reads)
            // until HiGHS returns, abandoned or not.
            run_abandonable(
                move || {
                    let _held = held;
                    m.try_solve().map(Moved)
                },
                &watch.abandoned,
                deadline,
            )
        },
        status,
    )?;
    let Some(ran) = ran else {
        log::debug!(
            "HiGHS: abandoned {:.1} s after the stop, {:.3}s",
            ABANDON_AFTER.as_secs_f64(),
            began.elapsed().as_secs_f64()
        );
        return Ok(LinearOutcome {
            status: LinearStatus::NoSolution,
            objective: None,
            dual_bound: None,
            columns: None,
            row_duals: None,
            raw_status: "Abandoned".into(),
            iterations: 0,
            seconds: began.elapsed().as_secs_f64(),
        });
    };
    let solved = ran
        .map_err(|e| Error::Highs(format!("run failed: {e:?}")))?
        .0;
    let raw = solved.status();
    let has_point = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let columns = has_point.then(|| solved.get_solution().columns().to_vec());
    let objective = columns.as_ref().map(|x| model.objective_of(x));
    let maximize = model.sense == Sense::Maximize;

    let (status, dual_bound) = match raw {
        HighsModelStatus::Optimal if mip => {
            let gap = solved.mip_gap();
            let bound = solved
                .double_info_value(c"mip_dual_bound")
                .map_err(|e| Error::Highs(format!("mip_dual_bound: {e:?}")))?;
            let obj = objective.ok_or_else(|| {
                Error::Highs("HiGHS said optimal but returned no feasible point".into())
            })?;
            let abs = (bound - obj).abs();
            let proven = gap <= settings.mip_rel_gap * (1.0 + 1e-9) || abs <= settings.mip_abs_gap;
            // The bound must not cut off the incumbent (beyond the feasibility tolerance).
            let slack = 1e-6 * (1.0 + obj.abs());
            let consistent = if maximize {
                bound >= obj - slack
            } else {
                bound <= obj + slack
            };
            if !consistent {
                return Err(Error::Consistency(format!(
                    "HiGHS dual bound {bound} is on the wrong side of its incumbent {obj}"
                )));
            }
            let st = if proven {
                LinearStatus::Optimal
            } else {
                LinearStatus::Feasible
            };
            (st, Some(bound))
        }
        HighsModelStatus::Optimal => {
            let obj = objective
                .ok_or_else(|| Error::Highs("HiGHS said optimal but has no primal point".into()))?;
            (LinearStatus::Optimal, Some(obj))
        }
        HighsModelStatus::Infeasible => (LinearStatus::Infeasible, None),
        HighsModelStatus::UnboundedOrInfeasible if model.all_bounded() => {
            (LinearStatus::Infeasible, None)
        }
        HighsModelStatus::Unbounded => (LinearStatus::Unbounded, None),
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedInterrupt
        | HighsModelStatus::ReachedMemoryLimit
        | HighsModelStatus::ObjectiveBound
        | HighsModelStatus::ObjectiveTarget => {
            let bound = if mip {
                solved
                    .double_info_value(c"mip_dual_bound")
                    .ok()
                    .filter(|b| b.is_finite())
            } else {
                None
            };
            let st = if has_point {
                LinearStatus::Feasible
            } else {
                LinearStatus::NoSolution
            };
            (st, bound)
        }
        other => return Err(Error::Highs(format!("unexpected model status {other:?}"))),
    };
    let row_duals = (!mip && status == LinearStatus::Optimal)
        .then(|| solved.get_solution().dual_rows().to_vec());
    log::debug!(
        "HiGHS: {raw:?} -> {status:?}, objective {objective:?}, bound {dual_bound:?}, {:.3}s",
        began.elapsed().as_secs_f64()
    );
    Ok(LinearOutcome {
        status,
        objective,
        dual_bound,
        columns,
        row_duals,
        raw_status: format!("{raw:?}"),
        iterations: solved.simplex_iteration_count(),
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// HiGHS on its own: reads a model file (LP or MPS, by extension) and solves it with default
/// options, with no part of our model building in between: the optimum, `None` when HiGHS
/// proves none (infeasible, unbounded) or stops short. The export tests' independent reader.
pub fn solve_file(path: &std::path::Path) -> Result<Option<f64>> {
    use highs_sys::*;
    let text = path
        .to_str()
        .ok_or_else(|| Error::Highs(format!("{}: not a UTF-8 path", path.display())))?;
    let name = std::ffi::CString::new(text)
        .map_err(|_| Error::Highs(format!("{text}: a NUL byte in the path")))?;
    // SAFETY: a fresh HiGHS instance, used and destroyed here; the strings outlive the calls.
    unsafe {
        let h = Highs_create();
        Highs_setBoolOptionValue(h, c"output_flag".as_ptr(), 0);
        let read = Highs_readModel(h, name.as_ptr());
        let value = (read == STATUS_OK).then(|| {
            Highs_run(h);
            (Highs_getModelStatus(h) == MODEL_STATUS_OPTIMAL).then(|| Highs_getObjectiveValue(h))
        });
        Highs_destroy(h);
        value.ok_or_else(|| Error::Highs(format!("{text}: HiGHS could not read the model")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_run_that_ends_in_time_is_waited_for() {
        let flag = AtomicBool::new(false);
        let out = run_abandonable(|| 7, &flag, &Deadline::none()).unwrap();
        assert_eq!(out, Some(7));
        assert!(!flag.load(Ordering::Relaxed));
    }

    #[test]
    fn a_run_that_ignores_its_deadline_is_abandoned_and_told_to_stop() {
        // A worker that, like HiGHS's presolve, checks nothing until it is told.
        let flag = Arc::new(AtomicBool::new(false));
        let (seen, worker_flag) = (Arc::new(AtomicBool::new(false)), Arc::clone(&flag));
        let worker_seen = Arc::clone(&seen);
        let began = Instant::now();
        let out = run_abandonable(
            move || {
                while !worker_flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                worker_seen.store(true, Ordering::Relaxed);
            },
            &flag,
            &Deadline::after(Some(0.05)),
        )
        .unwrap();
        let waited = began.elapsed();
        assert!(out.is_none(), "the caller waited for the worker");
        assert!(
            waited >= Duration::from_millis(50) + ABANDON_AFTER,
            "{waited:?}"
        );
        // The worker is told and ends (it would loop forever otherwise).
        let told = Instant::now();
        while !seen.load(Ordering::Relaxed) {
            assert!(
                told.elapsed() < Duration::from_secs(30),
                "the worker was not told"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
