//! One deadline per solve, passed down as remaining time to every solver call, and the
//! process-wide interrupt (Ctrl-C) that every deadline obeys.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes every deadline of the process expire now: each search polling its deadline (and
/// HiGHS, through its interrupt callback) stops as at a time limit and returns what it has.
/// One atomic store, so a signal handler may call it.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Undoes [`interrupt`]: deadlines count time again. For a host process that outlives an
/// interrupted solve (the Python module: Ctrl-C stops the solves in flight, and once they have
/// returned the next solve starts afresh). The command line never calls it.
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// True once [`interrupt`] has been called (and not cleared).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// A point in time after which a method must stop and return what it has.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    end: Option<Instant>,
}

impl Deadline {
    /// No limit.
    pub fn none() -> Self {
        Deadline { end: None }
    }

    /// A limit `seconds` from now; `None` means no limit. A limit the clock cannot represent
    /// (beyond about 10¹⁸ s, or not a number) is no limit: a settings file asking for
    /// `1e308` seconds means "never stop", not a panic.
    pub fn after(seconds: Option<f64>) -> Self {
        Deadline {
            end: seconds.and_then(|s| {
                let d = Duration::try_from_secs_f64(s.max(0.0)).ok()?;
                Instant::now().checked_add(d)
            }),
        }
    }

    /// Seconds left, `None` when unlimited; never negative; 0 once interrupted.
    pub fn remaining_secs(&self) -> Option<f64> {
        if interrupted() {
            return Some(0.0);
        }
        self.end
            .map(|e| e.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// Seconds left as a finite solver option (Clarabel's `time_limit`): unlimited is 10⁶ s,
    /// and never less than 1 ms.
    pub fn solver_seconds(&self) -> f64 {
        self.remaining_secs()
            .unwrap_or(f64::INFINITY)
            .clamp(1e-3, 1e6)
    }

    /// The instant it falls on, `None` when unlimited.
    pub fn end_instant(&self) -> Option<Instant> {
        self.end
    }

    /// True once the deadline has passed or the process was interrupted.
    pub fn expired(&self) -> bool {
        interrupted() || self.end.is_some_and(|e| Instant::now() >= e)
    }
}

impl Deadline {
    /// A deadline that keeps `reserve(left)` seconds of what is left for later work: the
    /// budget of an earlier phase. Unlimited stays unlimited.
    pub fn keeping(&self, reserve: impl FnOnce(f64) -> f64) -> Deadline {
        match self.remaining_secs() {
            None => *self,
            Some(left) => Deadline::after(Some((left - reserve(left)).max(0.0))),
        }
    }

    /// The earlier of this deadline and `seconds` from now: the cap of a phase (an infinite
    /// cap leaves it as it is).
    pub fn capped(&self, seconds: f64) -> Deadline {
        if !seconds.is_finite() {
            return *self;
        }
        let cap = Deadline::after(Some(seconds));
        match (self.end, cap.end) {
            (Some(a), Some(b)) => Deadline {
                end: Some(a.min(b)),
            },
            (_, None) => *self,
            (None, Some(_)) => cap,
        }
    }

    /// This deadline, moved to at least `seconds` from now: a step that must run to report
    /// anything at all (a first master LP). Unlimited stays unlimited.
    pub fn at_least(&self, seconds: f64) -> Deadline {
        match self.remaining_secs() {
            None => *self,
            Some(left) => Deadline::after(Some(left.max(seconds))),
        }
    }
}

/// The deadline as a model builder sees it: [`BuildClock::tick`] once per row or column
/// added, and the clock is read only every [`BuildClock::EVERY`] ticks, so the check costs
/// nothing next to building a row, and a model of fewer than that many rows and columns is
/// always built. Once it has seen the deadline pass (or an interrupt) it stays expired: the
/// builder drops the half-built model and the method answers with its warm start or
/// heuristic.
#[derive(Debug, Clone, Copy)]
pub struct BuildClock {
    deadline: Deadline,
    ticks: u64,
    expired: bool,
}

impl BuildClock {
    /// Ticks between two readings of the clock.
    pub const EVERY: u64 = 1024;

    /// A clock over `deadline` (`Deadline::none()`: never expires, as for an export).
    pub fn new(deadline: &Deadline) -> Self {
        BuildClock {
            deadline: *deadline,
            ticks: 0,
            expired: false,
        }
    }

    /// Counts one row or column; true once the deadline has passed (read every
    /// [`BuildClock::EVERY`] ticks).
    pub fn tick(&mut self) -> bool {
        self.ticks += 1;
        if !self.expired && self.ticks.is_multiple_of(Self::EVERY) {
            self.expired = self.deadline.expired();
        }
        self.expired
    }

    /// True once a tick has seen the deadline pass.
    pub fn expired(&self) -> bool {
        self.expired
    }
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline::none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_split_what_is_left() {
        let d = Deadline::after(Some(10.0));
        let first = d.keeping(|left| 0.25 * left).remaining_secs().unwrap();
        assert!(first <= 7.5 && first > 7.0, "{first}");
        let capped = d.capped(2.0).remaining_secs().unwrap();
        assert!(capped <= 2.0 && capped > 1.5, "{capped}");
        assert!(d.capped(20.0).remaining_secs().unwrap() <= 10.0);
        let expired = Deadline::after(Some(0.0));
        assert!(expired.at_least(1.0).remaining_secs().unwrap() > 0.5);
        assert!(expired.keeping(|l| l).expired());
        // Unlimited stays unlimited, except under a cap.
        assert!(Deadline::none().keeping(|_| 5.0).remaining_secs().is_none());
        assert!(Deadline::none().at_least(1.0).remaining_secs().is_none());
        assert!(Deadline::none().capped(3.0).remaining_secs().unwrap() <= 3.0);
    }

    #[test]
    fn a_build_clock_reads_the_clock_every_1024_ticks_and_stays_expired() {
        let mut open = BuildClock::new(&Deadline::none());
        assert!((0..10 * BuildClock::EVERY).all(|_| !open.tick()));
        // Passed at the start: seen at the first reading (small models are always built).
        let mut late = BuildClock::new(&Deadline::after(Some(0.0)));
        assert_eq!((1..=2048).find(|_| late.tick()), Some(BuildClock::EVERY));
        // Passes during the build: seen at the next reading, not before.
        let mut c = BuildClock::new(&Deadline::after(Some(0.02)));
        std::thread::sleep(std::time::Duration::from_millis(30));
        let seen = (1..=BuildClock::EVERY).find(|_| c.tick());
        assert_eq!(seen, Some(BuildClock::EVERY));
        assert!(c.expired() && c.tick());
    }

    #[test]
    fn limits_beyond_the_clock_are_no_limit() {
        for s in [1e19, 1e300, f64::MAX, f64::INFINITY] {
            assert!(Deadline::after(Some(s)).remaining_secs().is_none(), "{s}");
            // A cap the clock cannot hold keeps the deadline it caps.
            let d = Deadline::after(Some(10.0)).capped(s);
            assert!(d.remaining_secs().unwrap() <= 10.0, "{s}");
            let kept = Deadline::after(Some(5.0)).at_least(s);
            assert!(kept.remaining_secs().is_none(), "{s}");
        }
    }
}
