//! Independent re-check of a periodic solution: each configuration's peak by eq. 1 *and* by
//! sampling the summed demand on a fine time grid, every task placed exactly once, the machine
//! count, and the bounds the file claims.

use super::instance::Instance;
use super::solution::Solution;
use crate::{Status, Violation};

/// Absolute tolerance on peaks.
pub const TOLERANCE: f64 = 1e-9;
/// Time points per period for the sampled check.
pub const SAMPLES: usize = 4096;

/// Peak of `Σ n_j W_j(t)` over `SAMPLES` points of one period (a lower estimate of the peak).
pub fn sampled_peak(inst: &Instance, tasks: &[(usize, u32)]) -> f64 {
    (0..SAMPLES)
        .map(|s| {
            let angle = std::f64::consts::TAU * s as f64 / SAMPLES as f64;
            tasks
                .iter()
                .map(|&(j, n)| {
                    let job = &inst.jobs[j];
                    f64::from(n) * (job.mean + job.amplitude * (angle + job.phase).sin())
                })
                .sum::<f64>()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Every violation found (empty when valid).
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut fail =
        |constraint: &'static str, detail: String| v.push(Violation { constraint, detail });
    if sol.problem != "periodic" {
        fail(
            "problem",
            format!("`{}` is not a periodic solution", sol.problem),
        );
    }
    let has = matches!(sol.status, Status::Optimal | Status::Feasible);
    if !has {
        if sol.machines().is_some() || !sol.configurations.is_empty() {
            fail(
                "status",
                format!("status `{}` must come without a packing", sol.status),
            );
        }
        return v;
    }
    let mut placed = vec![0u64; inst.jobs.len()];
    let mut machines = 0u64;
    for (c, conf) in sol.configurations.iter().enumerate() {
        if conf.count == 0 {
            fail(
                "configuration",
                format!("configuration {c} is used 0 times"),
            );
        }
        machines += conf.count;
        let mut jobs_seen = std::collections::BTreeSet::new();
        let mut valid = true;
        for &(j, n) in &conf.tasks {
            if j >= inst.jobs.len() || n == 0 || !jobs_seen.insert(j) {
                fail(
                    "configuration",
                    format!("configuration {c}: entry [{j}, {n}] (unknown job, zero or repeated)"),
                );
                valid = false;
                continue;
            }
            placed[j] += conf.count * u64::from(n);
        }
        if !valid {
            continue;
        }
        let eq1 = super::peak::load_of(inst, &conf.tasks).peak();
        if eq1 > inst.capacity + TOLERANCE {
            fail(
                "capacity",
                format!(
                    "configuration {c}: peak {eq1} > capacity {} (eq. 1)",
                    inst.capacity
                ),
            );
        }
        let sampled = sampled_peak(inst, &conf.tasks);
        if sampled > inst.capacity + TOLERANCE {
            fail(
                "capacity-sampled",
                format!(
                    "configuration {c}: sampled peak {sampled} > capacity {}",
                    inst.capacity
                ),
            );
        }
        if sampled > eq1 + 1e-7 * eq1.max(1.0) {
            fail(
                "peak-formula",
                format!("configuration {c}: sampled peak {sampled} above eq. 1's {eq1}"),
            );
        }
    }
    for (j, (&p, job)) in placed.iter().zip(&inst.jobs).enumerate() {
        if p != u64::from(job.tasks) {
            fail(
                "tasks-placed",
                format!("job {j}: {p} tasks placed, {} expected", job.tasks),
            );
        }
    }
    if sol.machines() != Some(machines) {
        fail(
            "machines",
            format!(
                "reported {:?}, configurations hold {machines}",
                sol.machines()
            ),
        );
    }
    let peak_bound = super::peak::total_demand_bound(inst);
    if machines < peak_bound {
        fail(
            "lower-bound",
            format!("{machines} machines is below ⌈W/C⌉ = {peak_bound}: impossible"),
        );
    }
    if sol.lower_bound() > machines {
        fail(
            "lower-bound",
            format!(
                "claimed bound {} above the {machines} machines used",
                sol.lower_bound()
            ),
        );
    }
    if sol.status == Status::Optimal && sol.lower_bound() != machines {
        fail(
            "optimality",
            format!(
                "claims optimal with {machines} machines and bound {}",
                sol.lower_bound()
            ),
        );
    }
    v
}
