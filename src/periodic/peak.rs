//! Peak demand of a set of tasks (eq. 1): the sum of sinusoids of one period is a sinusoid,
//! so `max_t Σ W(t) = Σ C + ‖(Σ ρ cos φ, Σ ρ sin φ)‖`.

use super::instance::Instance;
use crate::outcome::ceil_with_tolerance;

/// Running sums that determine the peak of a set of tasks.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Load {
    /// `Σ C`.
    pub mean: f64,
    /// `Σ ρ cos φ`.
    pub x: f64,
    /// `Σ ρ sin φ`.
    pub y: f64,
}

/// `‖(x, y)‖` without `hypot`'s overflow guards, which cost a third of the pricing's time and
/// a fifth of a small-task run in profiles: loads are sums of at most a few thousand task
/// amplitudes, far from overflow, and the result is within an ulp or two of `hypot`'s — far
/// below [`FIT_TOLERANCE`].
#[inline]
pub fn norm(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

impl Load {
    /// The peak over time.
    pub fn peak(&self) -> f64 {
        self.mean + norm(self.x, self.y)
    }

    /// The load of one task of job `j` (its sines computed once, for inner loops).
    pub fn of_task(inst: &Instance, j: usize) -> Load {
        let job = &inst.jobs[j];
        Load {
            mean: job.mean,
            x: job.x(),
            y: job.y(),
        }
    }

    /// This load plus `other`.
    pub fn plus(&self, other: &Load) -> Load {
        Load {
            mean: self.mean + other.mean,
            x: self.x + other.x,
            y: self.y + other.y,
        }
    }

    /// This load plus `n` tasks of job `j`.
    pub fn with(&self, inst: &Instance, j: usize, n: f64) -> Load {
        let t = Load::of_task(inst, j);
        Load {
            mean: self.mean + n * t.mean,
            x: self.x + n * t.x,
            y: self.y + n * t.y,
        }
    }

    /// Adds `n` tasks of job `j` in place.
    pub fn add(&mut self, inst: &Instance, j: usize, n: f64) {
        *self = self.with(inst, j, n);
    }
}

/// Absolute tolerance on a machine's peak: a configuration fits when its peak is at most
/// `capacity + FIT_TOLERANCE`.
pub const FIT_TOLERANCE: f64 = 1e-9;

/// Load of a configuration given as `(job, count)` pairs.
pub fn load_of(inst: &Instance, tasks: &[(usize, u32)]) -> Load {
    let mut l = Load::default();
    for &(j, n) in tasks {
        l.add(inst, j, f64::from(n));
    }
    l
}

/// The largest peak that fits in a machine.
pub fn fit_limit(inst: &Instance) -> f64 {
    inst.capacity + FIT_TOLERANCE
}

/// True when the configuration's peak fits in a machine.
pub fn fits(inst: &Instance, load: &Load) -> bool {
    load.peak() <= fit_limit(inst)
}

/// The load of all tasks together.
pub fn total_load(inst: &Instance) -> Load {
    let mut all = Load::default();
    for (j, job) in inst.jobs.iter().enumerate() {
        all.add(inst, j, f64::from(job.tasks));
    }
    all
}

/// `W`: the peak over time of the demand of all tasks together (§5.1).
pub fn total_demand(inst: &Instance) -> f64 {
    total_load(inst).peak()
}

/// The peak-of-total-demand bound of §5.1: `⌈W / C⌉`.
pub fn total_demand_bound(inst: &Instance) -> u64 {
    ceil_with_tolerance(total_demand(inst) / inst.capacity)
}
