//! The loop's convergence trace, for studies: [`capture`] runs a solve and returns, beside
//! its result, every column-generation loop the solve ran on this thread — per iteration the
//! seconds since the capture began, the master value and the safe bound — so that a study can
//! draw master value and bound against time without the methods passing anything up.
//!
//! Captures nest (a stack per thread): when rayon runs another solve's task on a thread
//! blocked inside a capture, that solve's own capture takes its loops and gives the outer
//! one back. Outside a capture [`Recorder`] costs one thread-local read per loop.

use std::cell::RefCell;
use std::time::Instant;

/// One iteration of a loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Seconds since the capture began (the solve's start, not the loop's).
    pub seconds: f64,
    /// The restricted master's LP value: an upper bound on the LP optimum.
    pub master: f64,
    /// The best safe lower bound on the LP optimum so far.
    pub bound: f64,
}

/// One loop's iterations, in order.
pub type Loop = Vec<Point>;

struct Capture {
    began: Instant,
    loops: Vec<Loop>,
}

thread_local! {
    static STACK: RefCell<Vec<Capture>> = const { RefCell::new(Vec::new()) };
}

/// Runs `work` and returns its result and the loops it ran on this thread, in the order they
/// began.
pub fn capture<R>(work: impl FnOnce() -> R) -> (R, Vec<Loop>) {
    STACK.with(|s| {
        s.borrow_mut().push(Capture {
            began: Instant::now(),
            loops: Vec::new(),
        })
    });
    // A panic inside `work` unwinds past the pop; the study reports it as an error and the
    // thread's stack then holds one stale capture, which only a later capture below it sees.
    let out = work();
    let loops = STACK.with(|s| s.borrow_mut().pop().map(|c| c.loops).unwrap_or_default());
    (out, loops)
}

/// A loop's handle on the innermost capture (if any), taken when the loop starts.
pub(crate) struct Recorder {
    /// The loop's index in the innermost capture and the capture's depth, or `None` when no
    /// capture is running.
    slot: Option<(usize, usize)>,
}

impl Recorder {
    /// Registers a new loop with the innermost capture.
    pub(crate) fn start() -> Self {
        let slot = STACK.with(|s| {
            let mut s = s.borrow_mut();
            let depth = s.len();
            s.last_mut().map(|c| {
                c.loops.push(Vec::new());
                (c.loops.len() - 1, depth)
            })
        });
        Recorder { slot }
    }

    /// Records one iteration.
    pub(crate) fn push(&self, master: f64, bound: f64) {
        let Some((index, depth)) = self.slot else {
            return;
        };
        STACK.with(|s| {
            let mut s = s.borrow_mut();
            // Only the capture the loop registered with (a nested one may sit above it
            // while rayon runs another task here; it is gone again by the loop's next step).
            if let Some(c) = s.get_mut(depth - 1) {
                let seconds = c.began.elapsed().as_secs_f64();
                if let Some(l) = c.loops.get_mut(index) {
                    l.push(Point {
                        seconds,
                        master,
                        bound,
                    });
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_go_to_their_own_capture_and_none_outside() {
        let outside = Recorder::start();
        outside.push(1.0, 0.0);
        let ((), outer) = capture(|| {
            let a = Recorder::start();
            a.push(3.0, 1.0);
            let ((), inner) = capture(|| {
                let b = Recorder::start();
                b.push(7.0, 6.0);
                // The outer loop steps while the inner capture runs (rayon's nesting).
                a.push(2.5, 2.0);
            });
            assert_eq!(inner.len(), 1);
            assert_eq!((inner[0][0].master, inner[0][0].bound), (7.0, 6.0));
            a.push(2.0, 2.0);
        });
        assert_eq!(outer.len(), 1);
        let masters: Vec<f64> = outer[0].iter().map(|p| p.master).collect();
        assert_eq!(masters, vec![3.0, 2.5, 2.0]);
        assert!(outer[0].windows(2).all(|w| w[0].seconds <= w[1].seconds));
    }
}
