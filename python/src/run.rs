//! How a call runs: off the GIL, on a worker thread, with panics caught, and for solves with
//! Ctrl-C watched from the calling thread.
//!
//! Python runs its SIGINT handler only on the main thread and only between bytecodes, so a
//! solve that held the calling thread for minutes would not see Ctrl-C until it returned. The
//! solve therefore runs on a worker thread while the calling thread, GIL released, waits for
//! it in 50 ms slices and asks Python for pending signals between them. On KeyboardInterrupt
//! it makes every deadline of the process expire (the engine's one interrupt, as the command
//! line's Ctrl-C does): each running search stops as at its time limit and returns what it
//! has. The interrupted call reports that; the others simply return their answers. When the
//! last solve in flight has returned, the interrupt is cleared so that the next solve counts
//! time again.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Solves running now, in any Python thread.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// How often the waiting thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// The worker's stack: the command line runs its solve on the main thread (8 MiB by default);
/// the worker gets more, as address space only.
const STACK: usize = 64 << 20;

/// How long a new solve waits for the solves an earlier Ctrl-C stopped to wind down before it
/// starts anyway.
const SETTLE: Duration = Duration::from_secs(5);

/// Counts a solve in flight; the last one out clears an interrupt.
struct InFlight;

impl InFlight {
    fn enter() -> InFlight {
        IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if IN_FLIGHT.fetch_sub(1, Ordering::SeqCst) == 1 && vcalloc::solver::interrupted() {
            vcalloc::solver::clear_interrupt();
        }
    }
}

/// A panic's message as a RuntimeError: nothing unwinds into Python.
fn panicked(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    PyRuntimeError::new_err(format!(
        "internal error in vcalloc (a bug; please report it): {msg}"
    ))
}

/// Runs `work` with the GIL released, a panic turned into a RuntimeError (quick calls:
/// generate, verify, settings, rows, sweeps).
pub fn released<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(panicked)
}

/// Runs a solve on a worker thread while this thread, GIL released, watches for Ctrl-C:
/// the answer, and whether this call's Ctrl-C stopped it.
pub fn solve<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<(T, bool)> {
    // An earlier Ctrl-C's solves still winding down would make this one expire at once.
    py.detach(|| {
        let began = Instant::now();
        while vcalloc::solver::interrupted() && began.elapsed() < SETTLE {
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    let guard = InFlight::enter();
    let (tx, mut rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("vcalloc-solve".into())
        .stack_size(STACK)
        .spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a solver thread: {e}")))?;
    let mut stopped = false;
    let outcome = loop {
        let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match got {
            Ok(outcome) => break outcome,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if !stopped && py.check_signals().is_err() {
                    // The KeyboardInterrupt is raised by the caller once the search has
                    // returned what it has.
                    stopped = true;
                    vcalloc::solver::interrupt();
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the solver thread ended without an answer",
                ))
            }
        }
    };
    drop(guard);
    outcome.map(|t| (t, stopped)).map_err(panicked)
}
