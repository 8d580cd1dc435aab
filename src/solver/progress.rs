//! The live log of a long solve: one line every few seconds from inside the solver's loops
//! (HiGHS's simplex and branch-and-cut, through its callbacks), with the elapsed time, the
//! incumbent, the bound, the gap and the work done — what HiGHS's and SCIP's own logs show.
//!
//! The library logs, never prints: lines go to the `vcalloc::progress` target at `info`. The
//! command line shows that target on stderr for `solve`, each line after the seconds since the
//! process started (hidden by `-q`); a library caller sees nothing unless its logger enables
//! the target.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

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

/// The clock of [`LAST_LINE_MS`]: the first use of this module.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Milliseconds after [`epoch`] of the last progress line, from any loop.
static LAST_LINE_MS: AtomicU64 = AtomicU64::new(0);

/// Heartbeats running now, nested.
static DEPTH: AtomicUsize = AtomicUsize::new(0);

fn now_ms() -> u64 {
    epoch().elapsed().as_millis().min(u128::from(u64::MAX)) as u64
}

/// Logs one progress line (and remembers when, so [`while_running`]'s heartbeat stays quiet
/// while a loop reports by itself).
pub fn line(args: std::fmt::Arguments<'_>) {
    log::info!(target: TARGET, "{args}");
    mark();
}

/// Notes that a loop logged a line of its own under another target (column generation's
/// iterations), so the heartbeat of [`while_running`] does not repeat it.
pub fn mark() {
    LAST_LINE_MS.store(now_ms().max(1), Ordering::Relaxed);
}

/// True when no progress line came for most of an interval.
fn quiet_for_an_interval() -> bool {
    let last = LAST_LINE_MS.load(Ordering::Relaxed);
    let interval = INTERVAL_MS.load(Ordering::Relaxed);
    last == 0 || now_ms().saturating_sub(last) >= interval * 9 / 10
}

/// The clock of a loop's own lines: [`Ticker::due`] is true once an interval has passed since
/// its last true (never while progress is hidden).
#[derive(Debug, Clone)]
pub struct Ticker {
    next: Option<Instant>,
    calls: u32,
    /// The clock is read when `calls & mask == 0`.
    mask: u32,
}

impl Default for Ticker {
    fn default() -> Self {
        Self::new()
    }
}

impl Ticker {
    /// A ticker whose first line comes one interval from now; it reads the clock at every
    /// call (for loops of a few hundred steps a second at most).
    pub fn new() -> Self {
        Ticker {
            next: enabled().then(|| Instant::now() + interval()),
            calls: 0,
            mask: 0,
        }
    }

    /// As [`Ticker::new`], reading the clock once in 256 calls: cheap enough for every node
    /// of a search.
    pub fn for_nodes() -> Self {
        Ticker {
            mask: 255,
            ..Self::new()
        }
    }

    /// True when a line is due.
    pub fn due(&mut self) -> bool {
        let Some(next) = self.next else {
            return false;
        };
        self.calls = self.calls.wrapping_add(1);
        if self.calls & self.mask != 0 {
            return false;
        }
        let now = Instant::now();
        if now < next {
            return false;
        }
        self.next = Some(now + interval());
        true
    }
}

/// Runs `work`, and while it runs logs `status()` from a second thread whenever no progress
/// line came for an interval: a line every few seconds even while the solver is inside a step
/// that calls nothing back (HiGHS's root LP, a heuristic's pass). Without progress shown, just
/// runs `work`.
pub fn while_running<R>(work: impl FnOnce() -> R, status: impl Fn() -> String + Sync) -> R {
    heartbeat(TARGET, work, status)
}

/// [`while_running`] with its lines under `target` (a study's, whose solves keep theirs hidden).
pub fn heartbeat<R>(
    target: &str,
    work: impl FnOnce() -> R,
    status: impl Fn() -> String + Sync,
) -> R {
    if !log::log_enabled!(target: target, log::Level::Info) {
        return work();
    }
    // Nested heartbeats (the registry's around HiGHS's): only the innermost speaks.
    struct Level(usize);
    impl Drop for Level {
        fn drop(&mut self) {
            DEPTH.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let level = Level(DEPTH.fetch_add(1, Ordering::Relaxed) + 1);
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (lock, wake) = &done;
            let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
            // `work` may have ended before this thread first took the lock.
            while !*finished {
                let (guard, waited) = wake
                    .wait_timeout(finished, interval())
                    .unwrap_or_else(|e| e.into_inner());
                finished = guard;
                if *finished {
                    return;
                }
                let innermost = DEPTH.load(Ordering::Relaxed) <= level.0;
                if waited.timed_out() && innermost && quiet_for_an_interval() {
                    log::info!(target: target, "{}", status());
                    mark();
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

/// What the solve is doing now, for the heartbeat of [`while_running`]: the label of the
/// innermost [`Phase`] alive and when it began.
static PHASE: Mutex<Option<(String, Instant)>> = Mutex::new(None);

/// A named stretch of a solve (the aligned fill, the local search, the tree…): while it lives
/// the heartbeat says what runs and for how long, instead of a bare "running". Dropping it
/// gives the line back to the phase it replaced. A no-op while progress is hidden.
#[must_use = "the phase ends when this guard is dropped"]
pub struct Phase {
    restore: Option<Option<(String, Instant)>>,
}

/// Starts a [`Phase`] labelled `label` (called only while progress is shown).
pub fn phase(label: impl FnOnce() -> String) -> Phase {
    if !enabled() {
        return Phase { restore: None };
    }
    let mut now = PHASE.lock().unwrap_or_else(|e| e.into_inner());
    let previous = now.replace((label(), Instant::now()));
    Phase {
        restore: Some(previous),
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        if let Some(previous) = self.restore.take() {
            *PHASE.lock().unwrap_or_else(|e| e.into_inner()) = previous;
        }
    }
}

/// The heartbeat's status: `what`, then the current phase and its seconds when one is set
/// (`periodic bp: aligned fill into 3,796 machines (12 s)`), else `what: running`.
pub fn status(what: &str) -> String {
    match &*PHASE.lock().unwrap_or_else(|e| e.into_inner()) {
        Some((label, since)) => format!("{what}: {label} ({:.0} s)", since.elapsed().as_secs_f64()),
        None => format!("{what}: running"),
    }
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

    #[test]
    fn a_phase_names_the_heartbeat_until_it_ends_and_nests() {
        // Progress is hidden in tests: a phase is then a no-op.
        {
            let _p = phase(|| "never shown".into());
            assert_eq!(status("x m"), "x m: running");
        }
        // Shown: as `phase` does once the logger shows progress (its state is global).
        let shown = |label: &str| Phase {
            restore: Some(
                PHASE
                    .lock()
                    .unwrap()
                    .replace((label.into(), Instant::now())),
            ),
        };
        let outer = shown("outer");
        assert!(
            status("x m").starts_with("x m: outer ("),
            "{}",
            status("x m")
        );
        {
            let _inner = shown("inner");
            assert!(status("x m").starts_with("x m: inner ("));
        }
        assert!(status("x m").starts_with("x m: outer ("));
        drop(outer);
        assert_eq!(status("x m"), "x m: running");
    }
}
