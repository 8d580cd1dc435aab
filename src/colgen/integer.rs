//! The integer finish (§4, last line of Algorithm 1): the master over the generated columns
//! with integer `Y`, solved by HiGHS within the remaining time, started from a known integer
//! solution. Its optimum is optimal *for these columns only*: the caller reports it against
//! the bounds of the full problem, never as proven optimal on its own.

use super::Column;
use crate::error::Result;
use crate::solver::{
    self, Bounds, BuildClock, Deadline, HighsSettings, LinearModel, LinearStatus, Sense,
};

/// Result of the integer finish.
#[derive(Debug, Clone)]
pub struct IntegerOutcome {
    /// Machines per column, when an integer solution is known.
    pub counts: Option<Vec<u64>>,
    /// HiGHS's status for the restricted integer master.
    pub status: LinearStatus,
    /// HiGHS's dual bound for the restricted integer master.
    pub restricted_bound: Option<f64>,
    /// Seconds spent.
    pub seconds: f64,
    /// The deadline passed before or while the model was built or handed to HiGHS (issue
    /// 36): no solve, `NoSolution`, nothing known beyond the caller's own answer.
    pub not_built: bool,
}

/// Solves `min Σ Y_i, Σ_i a_ji Y_i ≥ N_j, Y_i ∈ ℕ` over `columns`; `start` is a feasible
/// integer point (e.g. a heuristic's solution expressed on these columns).
pub fn solve_integer_master(
    columns: &[Column],
    demands: &[f64],
    start: Option<&[f64]>,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<IntegerOutcome> {
    let exact = vec![false; demands.len()];
    integer_master(columns, demands, &exact, None, start, highs, deadline)
}

/// [`solve_integer_master`] with the rows of `exact` covered exactly and, when `most` is
/// given, at most that many columns in all.
pub(super) fn integer_master(
    columns: &[Column],
    demands: &[f64],
    exact: &[bool],
    most: Option<u64>,
    start: Option<&[f64]>,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<IntegerOutcome> {
    let began = std::time::Instant::now();
    let not_built = || {
        log::debug!("integer master: the deadline passed while building it: not solved");
        Ok(IntegerOutcome {
            counts: None,
            status: LinearStatus::NoSolution,
            restricted_bound: None,
            seconds: began.elapsed().as_secs_f64(),
            not_built: true,
        })
    };
    if deadline.expired() {
        return not_built();
    }
    let mut clock = BuildClock::new(deadline);
    let mut m = LinearModel::new(Sense::Minimize);
    let rows: Vec<_> = demands
        .iter()
        .zip(exact)
        .enumerate()
        .map(|(j, (&n, &e))| {
            let b = if e {
                Bounds::equal(n)
            } else {
                Bounds::at_least(n)
            };
            m.add_row(format!("cover_{j}"), b)
        })
        .collect();
    let count = most.map(|k| m.add_row("count", Bounds::at_most(k as f64)));
    for (i, col) in columns.iter().enumerate() {
        if clock.tick() {
            return not_built();
        }
        // No column is ever needed more often than it takes to cover its largest demand alone.
        let ub = col
            .iter()
            .filter(|&&(_, a)| a > 0.0)
            .map(|&(r, a)| (demands[r] / a).ceil())
            .fold(0.0, f64::max);
        let mut entries: Vec<_> = col.iter().map(|&(r, a)| (rows[r], a)).collect();
        entries.extend(count.map(|c| (c, 1.0)));
        m.add_col(format!("y_{i}"), 1.0, Bounds::new(0.0, ub), true, entries);
    }
    let out = solver::solve(&m, highs, deadline, start)?;
    if out.not_loaded() {
        return not_built();
    }
    let counts = out
        .columns
        .map(|x| x.iter().map(|v| v.round().max(0.0) as u64).collect());
    Ok(IntegerOutcome {
        counts,
        status: out.status,
        restricted_bound: out.dual_bound,
        seconds: began.elapsed().as_secs_f64(),
        not_built: false,
    })
}

/// One column per bin: each column repeated by its count.
pub fn repeat_by_counts(columns: &[Column], counts: &[u64]) -> Vec<Column> {
    columns
        .iter()
        .zip(counts)
        .flat_map(|(c, &k)| std::iter::repeat_n(c.clone(), k as usize))
        .collect()
}

/// The integer master over `columns` for at most `seconds` of `deadline`, from `start` when
/// given: the bins it found (one column per bin), a heuristic answer — optimal for these
/// columns only.
pub fn integer_bins(
    columns: &[Column],
    demands: &[f64],
    start: Option<&[f64]>,
    seconds: f64,
    deadline: &Deadline,
) -> Result<Option<Vec<Column>>> {
    let out = solve_integer_master(
        columns,
        demands,
        start,
        &HighsSettings::default(),
        &deadline.capped(seconds),
    )?;
    log::debug!(
        "restricted integer master over {} columns: {:?}, {:.3}s",
        columns.len(),
        out.status,
        out.seconds
    );
    Ok(out.counts.map(|counts| repeat_by_counts(columns, &counts)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_master_past_its_deadline_is_not_built() {
        // Rows covered by pairs {r, r+1}: the optimum needs ⌈rows/2⌉ columns.
        let rows = 3000;
        let demands = vec![1.0; rows];
        let columns: Vec<Column> = (0..rows)
            .map(|r| vec![(r, 1.0), ((r + 1) % rows, 1.0)])
            .collect();
        let h = HighsSettings::default();
        let out = solve_integer_master(&columns, &demands, None, &h, &Deadline::none()).unwrap();
        assert!(!out.not_built);
        assert_eq!(out.counts.unwrap().iter().sum::<u64>(), rows as u64 / 2);
        // Passed before the build, or seen by the clock: no solve, nothing claimed.
        let late = Deadline::after(Some(0.0));
        let out = solve_integer_master(&columns, &demands, None, &h, &late).unwrap();
        assert!(out.not_built && out.counts.is_none() && out.restricted_bound.is_none());
        assert_eq!(out.status, LinearStatus::NoSolution);
    }
}
