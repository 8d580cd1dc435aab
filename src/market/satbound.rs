//! An upper bound on user satisfaction (issue 21, beyond the paper; `models/market.md` §6):
//! a time-indexed MILP over the scenario's lock-step apps that no allocation policy can beat.
//!
//! Time is cut at every app's earliest start `s_i` and absolute deadline `d_i`; between two
//! consecutive cuts the set of apps that may usefully compute is fixed. Per interval `j` of
//! length `ℓ_j` and app `i` eligible in it, `u_ij` is the useful CPU work (core-seconds) the
//! app does there:
//!
//! - per-slot core capacity: `Σ_i u_ij ≤ C·ℓ_j` with `C` the pooled cores (no policy hands
//!   out more than the nodes hold, whatever the node split);
//! - per-slot VM slots: `Σ_i u_ij / cap_i ≤ S·ℓ_j` (an app doing `u` with VMs of `cap_i`
//!   cores holds its VMs at least `u / cap_i` VM-seconds; `S = nodes · K`);
//! - per-app speed: `u_ij ≤ n_i·cap_i·ℓ_j` (a lock-step app's `n_i` VMs progress at the
//!   smallest allocation, at most the VM's size);
//! - deadline met: `Σ_j u_ij ≥ W_i·y_i`, `y_i` binary, `W_i = n_i · work_i`;
//!
//! maximising `Σ_i v_i (2 y_i − 1)` (value `+v_i` when met, `−v_i` otherwise). Splitting time
//! into the control periods instead would add rows whose sum these already imply, so the bound
//! is the per-period model's. Dropped on purpose (each drop only loosens the bound): the node
//! split of cores, memory, work outside `[s_i, d_i]`, and the lock-step coupling beyond the
//! speed cap. HiGHS's dual bound is the answer, so a time limit leaves it valid.

use super::scenario::{AppKind, Scenario};
use crate::error::Result;
use crate::solver::{self, Bounds, Deadline, HighsSettings, LinearModel, LinearStatus, Sense};

/// The bound and the LP behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SatBound {
    /// Upper bound on `Σ ±v_i` (HiGHS's dual bound of the MILP).
    pub value: f64,
    /// The same bound from the LP relaxation (weaker), certified by weak duality from the
    /// LP's duals with outward rounding: valid whatever HiGHS's tolerances.
    pub value_lp: f64,
    /// Upper bound on the number of deadlines met (a second MILP, unit values).
    pub met: f64,
    /// True when both MILPs closed their gaps.
    pub optimal: bool,
    /// Time intervals of the model.
    pub intervals: usize,
}

/// Earliest instant app `i` can compute: the first period start at or after its arrival
/// (the simulator admits apps at period starts, under every admission policy).
fn earliest_start(sc: &Scenario, arrival: f64) -> f64 {
    (arrival / sc.period_s - 1e-9).ceil().max(0.0) * sc.period_s
}

/// Builds the MILP with values `values[i]` (apps without a deadline, frameworks and zero
/// values enter with `y_i = 0`).
fn model(sc: &Scenario, values: &[f64]) -> (LinearModel, f64, usize) {
    let cores: f64 = sc.nodes.iter().map(|n| n.cpu).sum();
    let slots = (sc.nodes.len() * sc.max_vms_per_node) as f64;
    let windows: Vec<Option<(f64, f64)>> = sc
        .apps
        .iter()
        .map(|a| {
            let d = a.arrival_s + a.deadline_s?;
            let s = earliest_start(sc, a.arrival_s);
            (a.kind != AppKind::Framework && s < d && a.vm_size.cpu > 0.0).then_some((s, d))
        })
        .collect();
    let mut cuts: Vec<f64> = windows
        .iter()
        .flatten()
        .flat_map(|&(s, d)| [s, d])
        .collect();
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let mut lp = LinearModel::new(Sense::Maximize);
    let intervals = cuts.len().saturating_sub(1);
    let rows: Vec<_> = (0..intervals)
        .map(|j| {
            let len = cuts[j + 1] - cuts[j];
            (
                lp.add_row(format!("cores_{j}"), Bounds::at_most(cores * len)),
                lp.add_row(format!("slots_{j}"), Bounds::at_most(slots * len)),
            )
        })
        .collect();
    let mut constant = 0.0;
    for (i, app) in sc.apps.iter().enumerate() {
        let v = values.get(i).copied().unwrap_or(0.0);
        constant -= v;
        let Some((s, d)) = windows[i] else { continue };
        let work = app.vms as f64 * app.work;
        let met = lp.add_row(format!("met_{i}"), Bounds::at_least(0.0));
        for j in 0..intervals {
            let (a, b) = (cuts[j], cuts[j + 1]);
            if a < s || b > d {
                continue;
            }
            let cap = app.vm_size.cpu;
            lp.add_col(
                format!("u_{i}_{j}"),
                0.0,
                Bounds::new(0.0, app.vms as f64 * cap * (b - a)),
                false,
                vec![(rows[j].0, 1.0), (rows[j].1, 1.0 / cap), (met, 1.0)],
            );
        }
        // Met within the simulator's 1e-9 s tolerance on the finish time.
        lp.add_col(
            format!("y_{i}"),
            2.0 * v,
            Bounds::new(0.0, 1.0),
            true,
            vec![(met, -work * (1.0 - 1e-9))],
        );
    }
    (lp, constant, intervals)
}

/// `(upper bound on the objective, proven optimal)` of one solve.
fn upper(lp: &LinearModel, highs: &HighsSettings, deadline: &Deadline) -> Result<(f64, bool)> {
    if lp.cols.is_empty() {
        return Ok((0.0, true));
    }
    let out = solver::solve(lp, highs, deadline, None)?;
    let trivial: f64 = lp
        .cols
        .iter()
        .map(|c| c.cost.max(0.0) * c.bounds.upper)
        .sum();
    let bound = out.dual_bound.unwrap_or(trivial).min(trivial);
    Ok((bound, out.status == LinearStatus::Optimal))
}

/// The LP relaxation's upper bound, certified: weak duality at HiGHS's row duals, rounded
/// outward ([`solver::weak_duality`]; any duals give a valid bound), never above the trivial
/// `Σ max(c, 0)·u`; the trivial bound when HiGHS gives no duals.
fn upper_lp(lp: &LinearModel, highs: &HighsSettings, deadline: &Deadline) -> Result<f64> {
    let trivial: f64 = lp
        .cols
        .iter()
        .map(|c| c.cost.max(0.0) * c.bounds.upper)
        .sum();
    if lp.cols.is_empty() {
        return Ok(0.0);
    }
    let out = solver::solve(lp, highs, deadline, None)?;
    let certified = out
        .row_duals
        .and_then(|y| solver::weak_duality::certify(lp, &y))
        .map(|(_, b)| b);
    Ok(certified.unwrap_or(trivial).min(trivial))
}

/// The upper bounds on satisfaction `Σ ±values[i]` and on deadlines met for `sc`.
pub fn satisfaction_bound(
    sc: &Scenario,
    values: &[f64],
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<SatBound> {
    let (lp, constant, intervals) = model(sc, values);
    let (value, ok_value) = upper(&lp, highs, deadline)?;
    let value_lp = upper_lp(&lp.relaxed(), highs, deadline)?;
    // HiGHS's MILP bound, never above the certified LP's (both bound the optimum).
    let value = value.min(value_lp);
    let ones = vec![0.5; sc.apps.len()];
    let (count, _, _) = model(sc, &ones);
    let (met, ok_met) = upper(&count, highs, deadline)?;
    Ok(SatBound {
        value: value + constant,
        value_lp: value_lp + constant,
        met,
        optimal: ok_value && ok_met,
        intervals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::market::{AppSpec, Res};

    fn app(arrival: f64, vms: usize, run: f64, deadline: f64) -> AppSpec {
        AppSpec {
            arrival_s: arrival,
            vms,
            vm_size: Res::new(1.0, 900.0),
            work: run,
            deadline_s: Some(deadline),
            ..AppSpec::default()
        }
    }

    /// Two 4-VM apps on 4 cores with 100 s of work each, both due by 150 s: only one can
    /// finish, so the bound is one met deadline, value `v1 − v2` with the larger first.
    #[test]
    fn two_apps_that_cannot_both_finish() {
        let sc = Scenario {
            nodes: vec![Res::new(4.0, 8192.0)],
            apps: vec![app(0.0, 4, 100.0, 150.0), app(0.0, 4, 100.0, 150.0)],
            ..Scenario::default()
        };
        let b = satisfaction_bound(
            &sc,
            &[3.0, 1.0],
            &HighsSettings::default(),
            &Deadline::none(),
        )
        .unwrap();
        assert!((b.value - 2.0).abs() < 1e-6, "{b:?}");
        assert!((b.met - 1.0).abs() < 1e-6, "{b:?}");
        assert!(b.value_lp >= b.value - 1e-9);
        assert!(b.optimal);
        // With 8 cores both fit.
        let wide = Scenario {
            nodes: vec![Res::new(8.0, 8192.0)],
            ..sc
        };
        let b = satisfaction_bound(
            &wide,
            &[3.0, 1.0],
            &HighsSettings::default(),
            &Deadline::none(),
        )
        .unwrap();
        assert!((b.value - 4.0).abs() < 1e-6 && (b.met - 2.0).abs() < 1e-6);
    }

    /// An app arriving mid-period starts at the next period: 50 s of work due 60 s after an
    /// arrival at 10 s cannot finish (it starts at 40 s, 30 s before its deadline).
    #[test]
    fn late_arrival_waits_for_the_period() {
        let sc = Scenario {
            apps: vec![app(10.0, 1, 50.0, 60.0)],
            ..Scenario::default()
        };
        let b =
            satisfaction_bound(&sc, &[1.0], &HighsSettings::default(), &Deadline::none()).unwrap();
        assert!((b.value + 1.0).abs() < 1e-9 && b.met.abs() < 1e-9, "{b:?}");
    }
}
