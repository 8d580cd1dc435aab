//! The live log of a long solve: one line every few seconds from inside the solver's loops
//! (HiGHS's simplex and branch-and-cut, through its callbacks), with the elapsed time, the
//! incumbent, the bound, the gap and the work done — what HiGHS's and SCIP's own logs show.
//!
//! The library logs, never prints: lines go to the `vcalloc::progress` target at `info`. The
//! command line shows that target on stderr for `solve`, each line after the seconds since the
//! process started (hidden by `-q`); a library caller sees nothing unless its logger enables
//! the target.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The log target of the progress lines.
pub const TARGET: &str = "vcalloc::progress";

/// Milliseconds between two lines of one loop (5 s unless [`set_interval`] changed it).
static INTERVAL_MS: AtomicU64 = AtomicU64::new(5000);

/// Sets the seconds between two progress lines of one loop (the CLI's `-v` makes it 1 s).
pub fn set_interval(seconds: f64) {
    let ms = (seconds.max(0.01) * 1000.0).min(u64::MAX as f64) as u64;
    INTERVAL_MS.store(ms, Ordering::Relaxed);
}

/// True when progress lines are shown at all (so a loop can skip gathering their figures).
pub fn enabled() -> bool {
    log::log_enabled!(target: TARGET, log::Level::Info)
}

/// Runs `work`, and while it runs logs `status()` every interval from a second thread: a
/// line every few seconds even while the solver is inside a step that calls nothing back
/// (HiGHS's root LP). Without progress shown, just runs `work`.
pub fn while_running<R>(work: impl FnOnce() -> R, status: impl Fn() -> String + Sync) -> R {
    if !enabled() {
        return work();
    }
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (lock, wake) = &done;
            let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let (guard, waited) = wake
                    .wait_timeout(finished, interval())
                    .unwrap_or_else(|e| e.into_inner());
                finished = guard;
                if *finished {
                    return;
                }
                if waited.timed_out() {
                    log::info!(target: TARGET, "{}", status());
                }
            }
        });
        let result = work();
        let (lock, wake) = &done;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        result
    })
}

fn interval() -> Duration {
    Duration::from_millis(INTERVAL_MS.load(Ordering::Relaxed))
}

/// A figure of a line: 4 significant decimals, `-` when unknown (HiGHS's ±∞).
pub fn figure(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e15 {
        format!("{v:.4}")
    } else {
        "-".into()
    }
}

/// A relative gap as a percentage, `-` when unknown.
pub fn gap(g: f64) -> String {
    if g.is_finite() && g.abs() < 1e6 {
        format!("{:.2}%", 100.0 * g)
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_short_and_unknowns_are_dashes() {
        assert_eq!(figure(0.60634), "0.6063");
        assert_eq!(figure(f64::INFINITY), "-");
        assert_eq!(figure(-1e300), "-");
        assert_eq!(gap(0.0117), "1.17%");
        assert_eq!(gap(f64::INFINITY), "-");
    }
}
