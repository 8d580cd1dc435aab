//! Diving with column generation: a primal heuristic for the integer master.
//!
//! From the converged master LP, fix `⌊Y_i⌋` machines of every column (residual rounding);
//! when no column has a whole machine, fix one machine of the column whose fractional part is
//! largest. The LP of what is left is re-solved warm and priced again with the cheap pricing
//! (new columns enter the residual problem), until its solution is integral or nothing is left.
//! Each step fixes at least one machine and lowers a residual demand, so the dive ends. The
//! result is an integer covering over the master's columns, with no claim of optimality:
//! callers compare it with the bounds.

use super::pricing::Pricing;
use super::CoveringMaster;
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the dive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiveSettings {
    /// Dive before the integer master (off: the integer master alone, from the heuristics).
    pub enabled: bool,
    /// Pricing rounds after each fixing, until one finds no column (0: no new columns while
    /// diving). 100 by default: the residual LP re-converges before the next rounding
    /// (models/periodic.md "Integer finish", models/packing.md §5).
    pub pricing_rounds: usize,
    /// Columns added per pricing round at most.
    pub max_columns: usize,
    /// A column enters when its reduced cost is below `−reduced_cost_tol`.
    pub reduced_cost_tol: f64,
    /// Columns whose whole machines one step fixes at most, those of largest LP value first
    /// (0: every column with a whole machine, residual rounding). models/packing.md §5.
    pub max_fixed_columns: usize,
}

impl Default for DiveSettings {
    fn default() -> Self {
        DiveSettings {
            enabled: true,
            pricing_rounds: 100,
            max_columns: 10,
            reduced_cost_tol: 1e-7,
            max_fixed_columns: 0,
        }
    }
}

/// What a dive found.
#[derive(Debug, Clone, PartialEq)]
pub struct DiveOutcome {
    /// Machines per master column (the master's columns after the dive, in order).
    pub counts: Vec<u64>,
    /// The counts cover every demand. `false` when the deadline stopped the dive: the counts
    /// are the machines fixed so far, and the caller packs what they leave uncovered.
    pub complete: bool,
    /// Fixing steps.
    pub steps: u32,
    /// Columns the dive's pricing added to the master.
    pub columns_added: usize,
    /// Seconds spent.
    pub seconds: f64,
    /// Columns fixed, in the order the dive fixed them (a column fixed twice appears twice).
    pub chosen: Vec<usize>,
    /// The guide's cutoff ended the dive: the residual could not beat it.
    pub pruned: bool,
}

/// What steers a dive beyond its settings: the limited-discrepancy search's tabu columns and
/// an incumbent to beat.
#[derive(Debug, Clone, Default)]
pub struct DiveGuide {
    /// Master columns the dive may not fix (by index).
    pub tabu: std::collections::HashSet<usize>,
    /// Stop once `fixed + ⌈residual LP⌉ ≥ cutoff`, tested when a pricing round found no
    /// column (with an exact pricing the residual LP is then optimal).
    pub cutoff: Option<u64>,
}

/// Fractional part, with integers within `1e-6` counted as integral.
fn fraction(v: f64) -> f64 {
    let f = v - (v + 1e-6).floor();
    if f < 1e-6 {
        0.0
    } else {
        f
    }
}

/// Dives from the current state of `master` (whose columns must cover every demand). The
/// dive works on the residual problem: fixed machines are kept outside the LP, each row's
/// demand becomes what they leave uncovered, and every coefficient is trimmed to that residual
/// (a column offering 40 tasks where 3 are left covers them at `Y = 3/40` otherwise, and the
/// LP then underestimates the residual's cost). The master is left in that residual state
/// (its [`CoveringMaster::columns`] keep their original coefficients), with the dive's new
/// columns. When the deadline stops it first, the outcome holds the machines fixed so far
/// (`complete: false`).
pub fn dive<P: Pricing>(
    master: &mut CoveringMaster,
    pricing: &mut P,
    settings: &DiveSettings,
    deadline: &Deadline,
) -> Result<DiveOutcome> {
    dive_with(master, pricing, settings, deadline, &DiveGuide::default())
}

/// [`dive`] steered by `guide`: tabu columns are never fixed, and the dive gives up
/// (`pruned`) when what it fixed plus the residual LP cannot beat the cutoff.
pub fn dive_with<P: Pricing>(
    master: &mut CoveringMaster,
    pricing: &mut P,
    settings: &DiveSettings,
    deadline: &Deadline,
    guide: &DiveGuide,
) -> Result<DiveOutcome> {
    let began = Instant::now();
    let _phase = crate::solver::progress::phase(|| "diving: fixing columns of the LP".into());
    let mut residual = master.demands().to_vec();
    pricing.dive(&residual);
    // Machines fixed per column, and the coefficients the LP currently holds.
    let mut fixed: Vec<u64> = vec![0; master.len()];
    let mut held: Vec<super::Column> = master.columns().to_vec();
    let (mut steps, mut added) = (0, 0);
    let mut chosen: Vec<usize> = Vec::new();
    let outcome =
        |counts: Vec<u64>, complete, steps, columns_added, chosen: &[usize]| DiveOutcome {
            counts,
            complete,
            steps,
            columns_added,
            seconds: began.elapsed().as_secs_f64(),
            chosen: chosen.to_vec(),
            pruned: false,
        };
    loop {
        let Some(mut sol) = master.solve(deadline)? else {
            return Ok(outcome(fixed, false, steps, added, &chosen));
        };
        // The residual LP is optimal (for an exact pricing) once a round finds nothing.
        let mut settled = false;
        for _ in 0..settings.pricing_rounds {
            if deadline.expired() {
                return Ok(outcome(fixed, false, steps, added, &chosen));
            }
            let scored = pricing.price(&sol.duals, deadline)?.improving(
                &sol.duals,
                settings.reduced_cost_tol,
                settings.max_columns,
            );
            if scored.is_empty() {
                settled = true;
                break;
            }
            for (_, c) in scored {
                master.add_column(c)?;
                let col = master.len() - 1;
                held.push(master.columns()[col].clone());
                fixed.push(0);
                trim(master, col, &mut held[col], &residual)?;
                added += 1;
            }
            match master.solve(deadline)? {
                Some(s) => sol = s,
                None => return Ok(outcome(fixed, false, steps, added, &chosen)),
            }
        }
        let y = &sol.primal;
        if let (Some(cut), true) = (guide.cutoff, settled) {
            let so_far: u64 = fixed.iter().sum();
            if so_far + crate::outcome::ceil_with_tolerance(sol.value) >= cut {
                let mut out = outcome(fixed, false, steps, added, &chosen);
                out.pruned = true;
                return Ok(out);
            }
        }
        if y.iter().all(|&v| fraction(v) == 0.0) {
            for (f, v) in fixed.iter_mut().zip(y) {
                *f += v.round().max(0.0) as u64;
            }
            return Ok(outcome(fixed, true, steps, added, &chosen));
        }
        if deadline.expired() {
            return Ok(outcome(fixed, false, steps, added, &chosen));
        }
        steps += 1;
        // Fix every whole machine of the LP solution; none: round up the largest fraction.
        let mut take: Vec<(usize, u64)> = y
            .iter()
            .enumerate()
            .filter(|(i, _)| !guide.tabu.contains(i))
            .map(|(i, &v)| (i, (v + 1e-6).floor().max(0.0) as u64))
            .filter(|&(_, n)| n > 0)
            .collect();
        if settings.max_fixed_columns > 0 && take.len() > settings.max_fixed_columns {
            take.sort_by(|a, b| y[b.0].total_cmp(&y[a.0]).then(a.0.cmp(&b.0)));
            take.truncate(settings.max_fixed_columns);
        }
        if take.is_empty() {
            let Some((i, _)) = y
                .iter()
                .enumerate()
                .filter(|(i, &v)| !guide.tabu.contains(i) && fraction(v) > 0.0)
                .map(|(i, &v)| (i, fraction(v)))
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            else {
                // Every candidate is tabu: this dive has nothing left to try.
                return Ok(outcome(fixed, false, steps, added, &chosen));
            };
            take.push((i, 1));
        }
        chosen.extend(take.iter().map(|&(i, _)| i));
        let mut changed = Vec::new();
        for (i, n) in take {
            fixed[i] += n;
            for &(r, a) in &master.columns()[i] {
                residual[r] = (residual[r] - n as f64 * a).max(0.0);
                changed.push(r);
            }
        }
        if residual.iter().all(|&r| r <= 0.0) {
            return Ok(outcome(fixed, true, steps, added, &chosen));
        }
        // Only the rows the fixed machines touch change.
        changed.sort_unstable();
        changed.dedup();
        for r in changed {
            master.set_demand(r, residual[r])?;
        }
        for (col, h) in held.iter_mut().enumerate() {
            trim(master, col, h, &residual)?;
        }
        pricing.dive(&residual);
    }
}

/// Lowers the LP's coefficients of column `col` (held in `held`) to the residual demands.
/// A row whose residual is 0 is left alone: with non-negative coefficients its covering row
/// is redundant whatever they are, and a coefficient edit costs HiGHS its factorisation (with
/// unit demands every trim would be one of these: 1.3 s per dive step on 249 items).
fn trim(
    master: &mut CoveringMaster,
    col: usize,
    held: &mut super::Column,
    residual: &[f64],
) -> Result<()> {
    for (r, a) in held.iter_mut() {
        if *a > residual[*r] && residual[*r] > 0.0 {
            *a = residual[*r];
            master.set_coefficient(*r, col, *a)?;
        }
    }
    Ok(())
}
