//! Reduced-cost enumeration: the columns that can still be part of a cover with at most
//! `target` columns, and the integer master over exactly those.
//!
//! Take duals `π ≥ 0` and `v ≥ max_a π·a` (a pricing proof), and write `rc(a) = 1 − π·a`, so
//! every column has `rc ≥ 1 − v`. A cover `x` of the demands `N` with `T' ≤ T` columns has
//! `Σ_c x_c rc(c) = T' − Σ_c x_c π·a_c ≤ T' − π·N`, and its other `T' − 1` columns have
//! `rc ≥ 1 − v` each, so each of its columns has
//!
//! ```text
//! rc(c) ≤ δ = T − π·N + (T − 1)(v − 1).
//! ```
//!
//! The pricing lists every column with `π·a ≥ 1 − δ` (up to domination: for covering, a
//! column may be replaced by one that covers at least as much, e.g. a maximal bin), and the
//! integer master over that list alone ([`super::solve_integer_master`]) decides whether a
//! cover with at most `T` columns exists: when it does, the list holds one, and the master's
//! optimum is the problem's optimum; when the master proves none (or its dual bound passes
//! `T`), `T + 1` is a lower bound on the problem's optimum. With `π` the optimal root duals
//! and `T = ⌈z_LP⌉`, `δ` is the root's integrality gap `⌈z_LP⌉ − z_LP` (plus the pricing's
//! tolerance): small exactly when the instance is hard for branching (an IRUP instance whose
//! optimal packing only uses columns of reduced cost zero, or a non-IRUP one whose LP lies
//! just below an integer). The idea is the route enumeration of Baldacci, Christofides and
//! Mingozzi (2008) and of Pessoa et al.'s VRPSolver.

use super::engine::{run, CgSettings};
use super::integer::integer_master;
use super::pricing::Pricing;
use super::safe;
use super::{Column, CoveringMaster};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::{Deadline, HighsSettings, LinearStatus};
use serde::{Deserialize, Serialize};

/// Settings of the enumeration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnumerationSettings {
    /// Enumerate when a gap is left after the root (where the pricing can).
    pub enabled: bool,
    /// Columns at most; beyond, no enumeration (the search goes on without it). HiGHS
    /// overran its time limit by 5 s on a list of 43,658 (Falkenauer t120_03).
    pub max_columns: usize,
    /// The integer master gets at most this share of the time left.
    pub share: f64,
    /// When a stabilised root's list is too long: the share of the time left in which a
    /// caller may re-run a plain loop and enumerate at its duals (0: never).
    pub plain_retry_share: f64,
}

impl Default for EnumerationSettings {
    fn default() -> Self {
        EnumerationSettings {
            enabled: true,
            max_columns: 20_000,
            share: 0.5,
            plain_retry_share: 0.25,
        }
    }
}

/// What an enumeration settled.
#[derive(Debug, Clone)]
pub struct Closure {
    /// A proven lower bound on the optimum, at most `target + 1`.
    pub bound: u64,
    /// A cover with at most `target` columns (one column per machine), when one was found.
    pub bins: Option<Vec<Column>>,
    /// Columns enumerated.
    pub columns: usize,
}

/// Converges the column generation on `master` (no early stop on the integer bound: the
/// enumeration wants optimal duals), then enumerates at its duals the columns of a cover with
/// at most `target` columns and solves the integer master over them. `None` when the pricing
/// gives no proof or cannot enumerate (the limit, the deadline, or no support): nothing is
/// claimed then.
pub fn close_by_enumeration<P: Pricing>(
    master: &mut CoveringMaster,
    pricing: &mut P,
    cg: &CgSettings,
    target: u64,
    settings: &EnumerationSettings,
    deadline: &Deadline,
) -> Result<Option<Closure>> {
    if !settings.enabled || !pricing.can_enumerate() || target == 0 || deadline.expired() {
        return Ok(None);
    }
    let _phase = crate::solver::progress::phase(|| {
        format!("reduced-cost enumeration: is there a packing of {target}?")
    });
    let full = CgSettings {
        stop_when_bound_closes: false,
        tail_iterations: 0,
        ..cg.clone()
    };
    let converged = run(master, pricing, &full, 0.0, deadline)?;
    let demands = master.demands().to_vec();
    let demands = demands.as_slice();
    let duals = converged.duals;
    let pi: Vec<f64> = duals.iter().map(|&d| d.max(0.0)).collect();
    // The proof `v`: with the aim at 1 the oracle may stop at any proof `≤ 1`.
    pricing.aim(1.0);
    let priced = pricing.price(&pi, deadline)?;
    let Some(v) = priced.max_bound() else {
        return Ok(None);
    };
    let t = target as f64;
    // Rounded outward (`safe`): `π·N` down, `v` up, so that the threshold and the slack
    // below are at least their exact values; round-off only lengthens the list.
    let covered = safe::covered_down(&pi, demands);
    let v = safe::widened(v);
    let threshold = safe::sum_up([t, -covered, ((t - 1.0) * (v - 1.0)).next_up(), 1e-9 * t]);
    if threshold < 0.0 {
        return Ok(Some(Closure {
            bound: target + 1,
            bins: None,
            columns: 0,
        }));
    }
    let Some(columns) =
        pricing.enumerate(&pi, 1.0 - threshold, target, settings.max_columns, deadline)?
    else {
        log::debug!(
            "enumeration: none within the limits at δ {threshold:.3e} ({} of {} duals zero)",
            pi.iter().filter(|&&p| p <= 1e-9).count(),
            pi.len()
        );
        return Ok(None);
    };
    if columns.is_empty() {
        return Ok(Some(Closure {
            bound: target + 1,
            bins: None,
            columns: 0,
        }));
    }
    // A cover over-covers row `r` by `o_r` with `Σ π_r o_r ≤ T·v − π·N` (the columns are
    // worth at most `v` each, and `T` of them at most): rows whose dual exceeds that slack
    // are covered exactly.
    let slack = safe::sum_up([(t * v).next_up(), -covered, 1e-9 * t]);
    let exact: Vec<bool> = pi.iter().map(|&p| p > slack).collect();
    let budget = deadline
        .remaining_secs()
        .map_or(f64::INFINITY, |left| left * settings.share);
    let highs = HighsSettings {
        mip_sub_mips: false,
        ..HighsSettings::default()
    };
    let out = integer_master(
        &columns,
        demands,
        &exact,
        Some(target),
        None,
        &highs,
        &deadline.capped(budget),
    )?;
    let bound = match out.status {
        LinearStatus::Infeasible => target + 1,
        _ => out.restricted_bound.map_or(0, ceil_with_tolerance),
    };
    let counts = out.counts;
    let bins = counts
        .filter(|counts| counts.iter().sum::<u64>() <= target && covers(&columns, counts, demands))
        .map(|counts| super::repeat_by_counts(&columns, &counts));
    log::info!(
        "enumeration: δ {threshold:.3e}, {} columns, integer master {:?} in {:.2} s, {}",
        columns.len(),
        out.status,
        out.seconds,
        match &bins {
            Some(b) => format!("{} machines", b.len()),
            None => "no cover within the target".into(),
        }
    );
    Ok(Some(Closure {
        bound: bound.min(target + 1),
        bins,
        columns: columns.len(),
    }))
}

/// The counts of `columns` cover every demand.
fn covers(columns: &[Column], counts: &[u64], demands: &[f64]) -> bool {
    let mut got = vec![0.0; demands.len()];
    for (c, &k) in columns.iter().zip(counts) {
        for &(r, a) in c {
            got[r] += a * k as f64;
        }
    }
    got.iter().zip(demands).all(|(g, n)| *g >= n - 1e-9)
}
