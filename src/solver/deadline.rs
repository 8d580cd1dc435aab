//! One deadline per solve, passed down as remaining time to every solver call.

use std::time::{Duration, Instant};

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

    /// A limit `seconds` from now; `None` means no limit.
    pub fn after(seconds: Option<f64>) -> Self {
        Deadline {
            end: seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0))),
        }
    }

    /// Seconds left, `None` when unlimited; never negative.
    pub fn remaining_secs(&self) -> Option<f64> {
        self.end
            .map(|e| e.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// The instant it falls on, `None` when unlimited.
    pub fn end_instant(&self) -> Option<Instant> {
        self.end
    }

    /// True once the deadline has passed.
    pub fn expired(&self) -> bool {
        self.end.is_some_and(|e| Instant::now() >= e)
    }
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline::none()
    }
}
