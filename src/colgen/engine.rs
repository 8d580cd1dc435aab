//! The column-generation loop (Algorithm 1 of Belaid & Eyraud-Dubois 2015) with Lagrangian
//! (Farley) bounds, optional Wentges dual smoothing, and the usual stopping rules.
//!
//! With unit column costs, any duals `π ≥ 0` scaled by `1 / max(1, max_a π·a)` are feasible for
//! the dual master, so `π·N / max(1, v)` bounds the LP optimum from below whenever the pricing
//! proves `v ≥ max_a π·a`. The loop stops when no column has reduced cost below `−tol`
//! (proven), when `⌈bound⌉` meets `⌈master⌉` (the integer bound cannot move) with the master
//! within `closure_gap` of the bound, when after that meeting the master stops moving
//! (tailing off), at the iteration cap, or at the deadline. At the meeting the pricing is told
//! ([`Pricing::settle`]) so it can cap its effort.

use super::pricing::Pricing;
use super::CoveringMaster;
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CgSettings {
    /// Iteration cap.
    pub max_iterations: u32,
    /// A column enters when its reduced cost `1 − π·a` is below `−reduced_cost_tol`.
    pub reduced_cost_tol: f64,
    /// Wentges smoothing weight `α ∈ [0, 1)`: price at `α π_center + (1 − α) π`; 0 disables.
    pub smoothing: f64,
    /// Columns added per iteration at most (the best ones).
    pub max_columns_per_iteration: usize,
    /// Stop once `⌈bound⌉ = ⌈master value⌉` …
    pub stop_when_bound_closes: bool,
    /// … and the master is within this fraction of the bound. The integer bound is settled
    /// as soon as the ceilings meet, but the integer finish still gains from better columns:
    /// stopping at the first meeting left Falkenauer U at 14/80 optimal, a 1e-3 margin at
    /// 67/80 (docs/results.md).
    pub closure_gap: f64,
    /// Tailing off: once the integer bound is settled, stop when the master value fell by
    /// less than `tail_gap × master` over the last `tail_iterations` iterations (0: never).
    pub tail_iterations: usize,
    /// See `tail_iterations`.
    pub tail_gap: f64,
    /// Seconds the first master LP gets even past the deadline: without a master there is
    /// nothing to report.
    pub first_master_seconds: f64,
}

impl Default for CgSettings {
    fn default() -> Self {
        CgSettings {
            max_iterations: 10_000,
            reduced_cost_tol: 1e-7,
            smoothing: 0.0,
            max_columns_per_iteration: 20,
            stop_when_bound_closes: true,
            closure_gap: 1e-4,
            tail_iterations: 20,
            tail_gap: 1e-4,
            first_master_seconds: 1.0,
        }
    }
}

/// Why the loop stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// No column with negative reduced cost exists (proven by the pricing).
    Converged,
    /// `⌈Lagrangian bound⌉ = ⌈master value⌉`.
    BoundClosed,
    /// The integer bound is settled and the master value has stopped moving.
    TailingOff,
    /// The iteration cap.
    IterationLimit,
    /// The deadline.
    TimeLimit,
    /// The pricing found no improving column but could not prove there is none (its own
    /// work limit); the master value is then not proven optimal.
    PricingLimit,
}

/// One iteration, for logs and reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// Master LP value.
    pub master_value: f64,
    /// Best lower bound so far on the LP optimum.
    pub bound: f64,
    /// Most negative reduced cost found (w.r.t. the master's duals).
    pub best_reduced_cost: f64,
    /// Columns added.
    pub columns_added: usize,
    /// Seconds in the pricing.
    pub pricing_seconds: f64,
    /// Pricing nodes.
    pub nodes: u64,
}

/// The result of the loop.
#[derive(Debug, Clone)]
pub struct CgOutcome {
    /// The duals `π ≥ 0` behind the last improvement of the Lagrangian bound (`π·N / v` with
    /// `v ≥ max_a π·a` proven by the pricing), so a caller can keep a checkable certificate;
    /// `None` when the bound never improved on `known_bound`.
    pub bound_duals: Option<Vec<f64>>,
    /// Why it stopped.
    pub termination: Termination,
    /// Last master LP value (an upper bound on the LP optimum over all columns).
    pub master_value: f64,
    /// Best proven lower bound on the LP optimum (equal to `master_value` when converged).
    pub bound: f64,
    /// Master primal values `Y_i` at the last solve.
    pub primal: Vec<f64>,
    /// Master duals `π ≥ 0` at the last solve.
    pub duals: Vec<f64>,
    /// Per-iteration record.
    pub iterations: Vec<Iteration>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Seconds until `⌈bound⌉ = ⌈master⌉` first held (the integer bound `⌈z_LP⌉` proven),
    /// if it did.
    pub settled_seconds: Option<f64>,
}

/// `⌈bound⌉ = ⌈master⌉`: no column can lower the integer bound any more.
fn settled(bound: f64, master: f64) -> bool {
    bound > 0.0 && ceil_with_tolerance(bound) >= ceil_with_tolerance(master)
}

/// The integer bound is settled and the master is close enough to it.
fn closed(settings: &CgSettings, bound: f64, master: f64) -> bool {
    settings.stop_when_bound_closes
        && settled(bound, master)
        && master - bound <= settings.closure_gap * master
}

/// The largest pricing value whose proof closes the bound at the master value `master`
/// (see [`Pricing::aim`]): the Lagrangian bound `π·N / v` must exceed `⌈master⌉ − 1` and lie
/// within `closure_gap` of the master. 1 when the loop does not stop on closure.
fn enough(settings: &CgSettings, pi: &[f64], demands: &[f64], master: f64) -> f64 {
    if !settings.stop_when_bound_closes {
        return 1.0;
    }
    let next_below = ceil_with_tolerance(master) as f64 - 1.0;
    // Above `next_below` by more than `ceil_with_tolerance`'s own tolerance (1e-9, relative).
    let needed = (next_below * (1.0 + 1e-8) + 1e-6).max(master * (1.0 - settings.closure_gap));
    let value = dot(pi, demands);
    if needed > 0.0 && value > needed {
        // A margin above the branch-and-bound's own (1e-9, relative) and round-off.
        (value / needed) * (1.0 - 1e-8)
    } else {
        1.0
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Runs column generation from the columns already in `master` (which must make it feasible).
/// `known_bound` is a lower bound on the LP optimum known beforehand (0 if none), e.g. a
/// problem-specific bound; it lets the loop stop as soon as `⌈bound⌉ = ⌈master⌉`.
pub fn run<P: Pricing>(
    master: &mut CoveringMaster,
    pricing: &mut P,
    settings: &CgSettings,
    known_bound: f64,
    deadline: &Deadline,
) -> Result<CgOutcome> {
    let began = Instant::now();
    let demands = master.demands().to_vec();
    let mut bound = known_bound.max(0.0);
    let mut center: Option<Vec<f64>> = None;
    let mut bound_duals: Option<Vec<f64>> = None;
    let mut was_settled = false;
    let mut settled_seconds = None;
    let mut iterations = Vec::new();
    // The first solve gets at least a little time: without a master there is nothing to report.
    let first = master.solve(&deadline.at_least(settings.first_master_seconds))?;
    let mut last =
        first.ok_or_else(|| crate::Error::Highs("the first master LP did not finish".into()))?;
    let termination = loop {
        if deadline.expired() {
            break Termination::TimeLimit;
        }
        if iterations.len() as u32 >= settings.max_iterations {
            break Termination::IterationLimit;
        }
        if closed(settings, bound, last.value) {
            break Termination::BoundClosed;
        }
        if !was_settled && settled(bound, last.value) {
            was_settled = true;
            settled_seconds = Some(began.elapsed().as_secs_f64());
            pricing.settle();
        }
        let k = settings.tail_iterations;
        if was_settled && k > 0 && iterations.len() >= k {
            let before: &Iteration = &iterations[iterations.len() - k];
            if before.master_value - last.value < settings.tail_gap * last.value {
                break Termination::TailingOff;
            }
        }
        let pi_out = last.duals.clone();
        let alpha = settings.smoothing;
        let smoothed = match (&center, alpha > 0.0) {
            (Some(c), true) => Some(
                c.iter()
                    .zip(&pi_out)
                    .map(|(c, p)| alpha * c + (1.0 - alpha) * p)
                    .collect::<Vec<f64>>(),
            ),
            _ => None,
        };
        let t = Instant::now();
        let mut nodes = 0;
        let mut priced_at = smoothed.clone().unwrap_or_else(|| pi_out.clone());
        pricing.aim(enough(settings, &priced_at, &demands, last.value));
        let mut priced = pricing.price(&priced_at, deadline)?;
        nodes += priced.nodes;
        let improving = |cols: &[(Vec<(usize, f64)>, f64)], pi: &[f64]| {
            cols.iter()
                .map(|(c, _)| 1.0 - c.iter().map(|&(r, a)| a * pi[r]).sum::<f64>())
                .fold(f64::INFINITY, f64::min)
        };
        // Lagrangian bound at the point we priced, then the mispricing fallback.
        let mut update_bound = |pi: &[f64], max: Option<f64>, center: &mut Option<Vec<f64>>| {
            if let Some(v) = max {
                let lb = dot(pi, &demands) / v.max(1.0);
                if lb > bound {
                    bound = lb;
                    *center = Some(pi.to_vec());
                    bound_duals = Some(pi.to_vec());
                }
            }
        };
        update_bound(&priced_at, priced.max_bound(), &mut center);
        if smoothed.is_some() && improving(&priced.columns, &pi_out) >= -settings.reduced_cost_tol {
            priced_at = pi_out.clone();
            pricing.aim(enough(settings, &priced_at, &demands, last.value));
            priced = pricing.price(&priced_at, deadline)?;
            nodes += priced.nodes;
            update_bound(&priced_at, priced.max_bound(), &mut center);
        }
        let pricing_seconds = t.elapsed().as_secs_f64();
        // Keep the best improving columns w.r.t. the master's own duals.
        let proven_max = priced.proven_max;
        let scored = priced.improving(
            &pi_out,
            settings.reduced_cost_tol,
            settings.max_columns_per_iteration,
        );
        let best_rc = scored.first().map_or(0.0, |s| s.0);
        let added = scored.len();
        for (_, c) in scored {
            master.add_column(c)?;
        }
        let converged = added == 0
            && proven_max.is_some_and(|v| v <= 1.0 + settings.reduced_cost_tol + 1e-8)
            && priced_at == pi_out;
        if converged {
            bound = bound.max(last.value);
        }
        iterations.push(Iteration {
            master_value: last.value,
            bound,
            best_reduced_cost: best_rc,
            columns_added: added,
            pricing_seconds,
            nodes,
        });
        log::info!(
            "cg it {:>4}: master {:.6}, bound {:.6}, best rc {:.3e}, +{} cols, pricing {:.3}s, {} nodes",
            iterations.len(),
            last.value,
            bound,
            best_rc,
            added,
            pricing_seconds,
            nodes
        );
        if converged {
            break Termination::Converged;
        }
        if added == 0 {
            // A proof at the level of `aim` closes the bound without converging.
            if closed(settings, bound, last.value) {
                break Termination::BoundClosed;
            }
            // No column and no proof: the pricing ran out of time or of its work budget.
            break if deadline.expired() {
                Termination::TimeLimit
            } else {
                Termination::PricingLimit
            };
        }
        let was_closed = closed(settings, bound, last.value);
        match master.solve(deadline)? {
            Some(s) => last = s,
            None => break Termination::TimeLimit,
        }
        if was_closed {
            break Termination::BoundClosed;
        }
    };
    Ok(CgOutcome {
        bound_duals,
        termination,
        master_value: last.value,
        bound: if termination == Termination::Converged {
            last.value
        } else {
            bound.min(last.value)
        },
        primal: last.primal,
        duals: last.duals,
        iterations,
        seconds: began.elapsed().as_secs_f64(),
        settled_seconds: settled_seconds
            .or_else(|| settled(bound, last.value).then(|| began.elapsed().as_secs_f64())),
    })
}
