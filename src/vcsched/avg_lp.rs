//! The average-yield phase as a linear program (RR-6692 §3.5 and §5.1): with the placement
//! fixed and every job yield held at least `Y`, job `i` (with `n_ij` tasks on host `j`) gets
//! the same grant `a_i` on each of its tasks and
//!
//! ```text
//! maximise   (1/J) Σ_i a_i / α_i              (the average *job* yield)
//! subject to Σ_i n_ij a_i ≤ 1                 for every host j
//!            α_i Y ≤ a_i ≤ α_i                for every job i
//! ```
//!
//! [`optimal_grants`] solves it with HiGHS through the crate's adapter (the phase for
//! parallel jobs, whose tasks tie hosts together); the tests build the same program
//! independently with `good_lp` (`tests/it/common`), to check both the adapter model and the
//! sequential greedy of [`super::allocation`].

use super::instance::Instance;
use crate::error::{Error, Result};
use crate::solver::{self, Bounds, Deadline, HighsSettings, LinearModel, LinearStatus, Sense};

/// `n_ij`: tasks of each job on each host.
fn task_counts(inst: &Instance, placement: &[usize]) -> Vec<Vec<(usize, f64)>> {
    let mut counts: Vec<Vec<(usize, f64)>> = vec![Vec::new(); inst.num_jobs()];
    for (i, &h) in inst.task_jobs().iter().zip(placement) {
        match counts[*i].iter_mut().find(|(host, _)| *host == h) {
            Some(entry) => entry.1 += 1.0,
            None => counts[*i].push((h, 1.0)),
        }
    }
    counts
}

/// The LP's optimal point as HiGHS returns it, with the host rows' duals (prices `≥ 0`):
/// `Σ_j y_j + Σ_i max_{a ∈ [α_i Y, α_i]} (c_i − Σ_j n_ij y_j) a` is then an upper bound on the
/// optimum that anyone can recompute (weak duality), equal to it at optimality.
#[derive(Debug, Clone)]
pub struct GrantLp {
    /// One grant per job, within the solver's tolerances.
    pub grants: Vec<f64>,
    /// One price per host.
    pub host_prices: Vec<f64>,
}

/// Solves the program with HiGHS; `Ok(None)` when the deadline stopped it.
pub fn solve_grant_lp(
    inst: &Instance,
    placement: &[usize],
    min_yield: f64,
    deadline: &Deadline,
) -> Result<Option<GrantLp>> {
    grant_lp(inst, &task_counts(inst, placement), min_yield, deadline)
}

fn grant_lp(
    inst: &Instance,
    counts: &[Vec<(usize, f64)>],
    min_yield: f64,
    deadline: &Deadline,
) -> Result<Option<GrantLp>> {
    let mut m = LinearModel::new(Sense::Maximize);
    let rows: Vec<_> = (0..inst.hosts)
        .map(|h| m.add_row(format!("host_{h}"), Bounds::at_most(1.0)))
        .collect();
    let lower: Vec<f64> = inst.jobs.iter().map(|j| j.cpu * min_yield).collect();
    for (i, job) in inst.jobs.iter().enumerate() {
        let entries = counts[i].iter().map(|&(h, n)| (rows[h], n)).collect();
        let obj = 1.0 / (job.cpu * inst.num_jobs() as f64);
        let bounds = Bounds::new(lower[i], job.cpu);
        m.add_col(format!("a_{i}"), obj, bounds, false, entries);
    }
    let out = solver::solve(&m, &HighsSettings::default(), deadline, None)?;
    match (out.status, out.columns, out.row_duals) {
        (LinearStatus::Optimal, Some(grants), Some(duals)) => Ok(Some(GrantLp {
            grants,
            host_prices: duals.iter().map(|d| d.abs()).collect(),
        })),
        (..) if deadline.expired() => Ok(None),
        (status, ..) => Err(Error::Highs(format!(
            "average-yield LP ended {status:?} ({})",
            out.raw_status
        ))),
    }
}

/// Optimal per-task grants `a_i` (one per job) for `placement` with every job yield at least
/// `min_yield`; the HiGHS point is projected onto the bounds and the host rows exactly, so
/// the grants pass `verify` with its 1e-9 tolerance. Stopped by the deadline, every job keeps
/// its floor `α_i Y` (feasible: the placement's minimum yield).
pub fn optimal_grants(
    inst: &Instance,
    placement: &[usize],
    min_yield: f64,
    deadline: &Deadline,
) -> Result<Vec<f64>> {
    let counts = task_counts(inst, placement);
    let lower: Vec<f64> = inst.jobs.iter().map(|j| j.cpu * min_yield).collect();
    let Some(lp) = grant_lp(inst, &counts, min_yield, deadline)? else {
        return Ok(lower);
    };
    let mut a = lp.grants;
    for ((x, lo), job) in a.iter_mut().zip(&lower).zip(&inst.jobs) {
        *x = x.clamp(*lo, job.cpu);
    }
    // Within the solver's tolerance a host may be over by ~1e-9: lower the grants of its
    // jobs toward their floors. Lowering never raises another host, so one pass suffices.
    let mut load = vec![0.0; inst.hosts];
    for (i, c) in counts.iter().enumerate() {
        for &(h, n) in c {
            load[h] += n * a[i];
        }
    }
    for h in 0..inst.hosts {
        let excess = load[h] - 1.0;
        if excess <= 0.0 {
            continue;
        }
        let on: Vec<(usize, f64)> = (0..inst.num_jobs())
            .filter_map(|i| counts[i].iter().find(|e| e.0 == h).map(|e| (i, e.1)))
            .collect();
        let room: f64 = on.iter().map(|&(i, n)| n * (a[i] - lower[i])).sum();
        let share = if room > 0.0 {
            (excess / room).min(1.0)
        } else {
            0.0
        };
        for &(i, _) in &on {
            let cut = share * (a[i] - lower[i]);
            for &(g, n) in &counts[i] {
                load[g] -= n * cut;
            }
            a[i] -= cut;
        }
    }
    Ok(a)
}
