//! The column-generation loop (Algorithm 1 of Belaid & Eyraud-Dubois 2015) with Lagrangian
//! (Farley) bounds, optional Wentges dual smoothing, and the usual stopping rules.
//!
//! With unit column costs, any duals `π ≥ 0` scaled by `1 / max(1, max_a π·a)` are feasible for
//! the dual master, so `π·N / max(1, v)` bounds the LP optimum from below whenever the pricing
//! proves `v ≥ max_a π·a`. The loop stops when no column has reduced cost below `−tol`
//! (proven), or when the master value lies within the same precision of a Farley bound the
//! loop proved (the LP value is then known as well: how interior-point masters, whose duals
//! seldom let the pricing prove `v ≤ 1 + tol`, converge); when `⌈bound⌉` meets `⌈master⌉`
//! (the integer bound cannot move) with the master within `closure_gap` of the bound; when
//! after that meeting the master stops moving (tailing off); at the iteration cap; or at the
//! deadline. At the meeting the pricing is told ([`Pricing::settle`]) so it can cap its
//! effort.

use super::pricing::{Priced, Pricing};
use super::safe;
use super::smoothing::{adjusted, extra_weight, separation_point, subgradient};
use super::stopping::{closed, enough, pinned, settled};
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
    /// Wentges smoothing weight `α ∈ [0, 1)`: price at `α π_center + (1 − α) π`, where the
    /// center is the dual point of the best Lagrangian bound so far; 0 disables (unless
    /// `smoothing_auto`, which then starts at 0.5).
    pub smoothing: f64,
    /// Self-adjusting `α` (Pessoa, Sadykov, Uchoa, Vanderbeck, INFORMS JoC 2018): after each
    /// pricing at the smoothed point, the subgradient `g = N − U·a*` of the Lagrangian
    /// function there (`a*` the best column, `U` the master value) decides: `α − 0.1` when
    /// `g·(π_out − π_center) > 0` (the ascent points to the master's duals), else
    /// `α + 0.1(1 − α)`, within `[0, 0.99]`.
    pub smoothing_auto: bool,
    /// Directional smoothing (Pessoa, Sadykov, Uchoa, Vanderbeck 2018, with either smoothing
    /// above): the smoothed point is turned towards the subgradient `g` at the stability
    /// center (`g = N − U·a*`, `a*` the best column found there). With `d = π_out − π_center`,
    /// `π_g = π_center + (‖d‖/‖g‖)·g` and `ρ = β π_g + (1 − β) π_out`, where
    /// `β = max(0, cos ∠(d, g))`, the pricing point is `π_center` moved by `(1 − α)‖d‖` towards
    /// `ρ`, clamped at 0; `β = 0` (the directions disagree) is Wentges's point.
    pub directional_smoothing: bool,
    /// Dual-optimal inequalities (Ben Amor, Desrosiers, Valério de Carvalho, Operations
    /// Research 2006): the exchange columns of the pricing's [`Pricing::dominance`] pairs
    /// are in the master until the loop would stop, then dropped, and the loop goes on over
    /// the plain master to its own end.
    pub dual_optimal_inequalities: bool,
    /// With the dual-optimal inequalities, also those of pairs, `π_j + π_k ≤ π_heavy`
    /// (Ben Amor et al. 2006; separated as in Gschwind & Irnich, INFORMS JoC 2016): after each
    /// master solve the pricing's [`Pricing::violated_pairs`] at the master's duals join the
    /// master as exchange columns `e_j + e_k − e_heavy`, dropped with the others.
    pub pair_inequalities: bool,
    /// When the exchanges leave the master, the bins its solution stands for (its columns
    /// split as the used exchanges say, at most four new ones a row) join it, so the plain
    /// master resumes near the value it had with them (`colgen::recover`): before the
    /// re-solve when time is up, else when the plain master jumped and its integer bound is
    /// not settled.
    pub recover_columns: bool,
    /// Iterations of the plain loop before the smoothing (fixed or self-adjusting) and the
    /// dual-optimal inequalities start (0: from the first): a loop that settles quickly keeps
    /// the columns the plain loop finds, which the dives use, and only a tailing one is
    /// stabilised.
    pub stabilise_after: usize,
    /// Columns added per iteration at most (the best ones).
    pub max_columns_per_iteration: usize,
    /// With a smoothed point: when its pricing gives fewer than this many columns improving
    /// at the master's own duals (but some), the loop prices there as well and adds the best
    /// of both (0: off; with none, the mispricing fallback prices there anyway).
    pub price_master_duals_below: usize,
    /// With a smoothed point: this many more pricings an iteration on the segment from the
    /// stability center to the master's duals, nearer the center and farther from it in turn
    /// (`smoothing::extra_weight`): a line search of the Lagrangian bound per master solve, whose
    /// columns join the round's (0: off).
    pub extra_points: usize,
    /// Column management (0: off): once the master's LP holds more than this many columns
    /// per row, those of highest positive reduced cost at the last duals (nonbasic, so the
    /// LP keeps its optimum and its basis) leave the LP, down to half that many
    /// ([`CoveringMaster::retire`]). They stay in the master's column list (for the dives
    /// and the integer finish); the pricing finds them again if they are wanted.
    pub live_columns_per_row: f64,
    /// Stop once `⌈bound⌉ = ⌈master value⌉` …
    pub stop_when_bound_closes: bool,
    /// … and the master is within this fraction of the bound. The integer bound is settled
    /// as soon as the ceilings meet, but the integer finish still gains from better columns:
    /// stopping at the first meeting left Falkenauer U at 14/80 optimal, a 1e-3 margin at
    /// 67/80 (an earlier session; docs/results.md's history in git).
    pub closure_gap: f64,
    /// Tailing off: once the integer bound is settled, stop when the master value fell by
    /// less than `tail_gap × master` over the last `tail_iterations` iterations (0: never).
    pub tail_iterations: usize,
    /// See `tail_iterations`.
    pub tail_gap: f64,
    /// The algorithm HiGHS solves the master with (`warm`: primal simplex from the last basis
    /// after new columns, dual after edits; `dual`, `primal`, `ipm`), see
    /// [`crate::solver::MasterLp`].
    pub master_lp: crate::solver::MasterLp,
    /// Masters of at least this many rows are solved by HiGHS's interior point without
    /// crossover (`ipm-no-crossover`: duals from the middle of the optimal face, each solve
    /// from scratch), whatever `master_lp` says; 0: never. Large masters full of exchange
    /// columns spend most of a warm simplex in pricing its columns (models/packing.md §8,
    /// "The master's LP by size"); SOC packing sets 700.
    pub interior_master_from: usize,
    /// Seconds the first master LP gets even past the deadline: without a master there is
    /// nothing to report.
    pub first_master_seconds: f64,
    /// Set by a caller that prunes at an integer bound (never read from a file): stop once
    /// `⌈bound⌉ ≥ cutoff` ([`Termination::Cutoff`]).
    #[serde(skip)]
    pub cutoff: Option<f64>,
    /// Set by a caller that only asks whether the LP optimum exceeds this value (never read
    /// from a file): stop once the master value is at most it ([`Termination::Hopeless`]).
    #[serde(skip)]
    pub give_up_at: Option<f64>,
}

impl Default for CgSettings {
    fn default() -> Self {
        CgSettings {
            max_iterations: 10_000,
            reduced_cost_tol: 1e-7,
            smoothing: 0.0,
            smoothing_auto: false,
            directional_smoothing: false,
            dual_optimal_inequalities: false,
            pair_inequalities: false,
            recover_columns: false,
            stabilise_after: 0,
            max_columns_per_iteration: 20,
            price_master_duals_below: 0,
            extra_points: 0,
            live_columns_per_row: 0.0,
            stop_when_bound_closes: true,
            closure_gap: 1e-4,
            tail_iterations: 20,
            tail_gap: 1e-4,
            first_master_seconds: 1.0,
            master_lp: crate::solver::MasterLp::Warm,
            interior_master_from: 0,
            cutoff: None,
            give_up_at: None,
        }
    }
}

/// Why the loop stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// No column with negative reduced cost exists (proven by the pricing), or the master
    /// lies within that precision of a Farley bound the loop proved (see [`pinned`]).
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
    /// `⌈bound⌉` reached the caller's [`CgSettings::cutoff`].
    Cutoff,
    /// The master value fell to the caller's [`CgSettings::give_up_at`].
    Hopeless,
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
    /// The least master LP value of the loop, also an upper bound on the LP optimum: below
    /// `master_value` when the dual-optimal inequalities' exchange columns were dropped at
    /// the end and the plain master, re-solved, could not reach their value (a root stopped
    /// by its time limit: SOC n = 1,000, d 0.99 seed 1, 342.9 with them against 356.0
    /// without).
    pub least_master: f64,
    /// Best proven lower bound on the LP optimum: a Farley bound of some dual vector,
    /// outward rounded ([`super::safe`]); within round-off of `master_value` when converged.
    pub bound: f64,
    /// Master primal values `Y_i` at the last solve.
    pub primal: Vec<f64>,
    /// Master duals `π ≥ 0` at the last solve.
    pub duals: Vec<f64>,
    /// Per-iteration record.
    pub iterations: Vec<Iteration>,
    /// Columns added to the master.
    pub columns_added: usize,
    /// Iterations whose smoothed point found no column improving at the master's duals
    /// (priced again there).
    pub mispriced: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Seconds until `⌈bound⌉ = ⌈master⌉` first held (the integer bound `⌈z_LP⌉` proven),
    /// if it did.
    pub settled_seconds: Option<f64>,
}

/// How one column generation (a root's) converged: what every certificate of a
/// column-generation method records ([`Convergence::record`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Convergence {
    /// Iterations (pricing rounds).
    pub iterations: usize,
    /// Columns added to the master.
    pub columns: usize,
    /// Wall-clock seconds of the loop.
    pub seconds: f64,
    /// The pricing proved that no column improves (the bound is the LP optimum, up to
    /// round-off).
    pub converged: bool,
    /// The root's integer bound is final: converged, or `⌈bound⌉ = ⌈master⌉` proven (the
    /// loop stopped on it, or tailed off after it).
    pub settled: bool,
    /// The safe lower bound on the LP optimum.
    pub bound: f64,
    /// The least master value (an upper bound on the LP optimum, within HiGHS's
    /// tolerances; [`CgOutcome::least_master`]).
    pub master: f64,
}

impl Convergence {
    /// Writes `root_iterations`, `root_columns`, `root_seconds`, `root_converged` and
    /// `root_settled` (0/1), `root_bound` and `root_master` into `stats`.
    pub fn record(&self, stats: &mut std::collections::BTreeMap<String, f64>) {
        let mut put = |k: &str, v: f64| {
            if v.is_finite() {
                stats.insert(format!("root_{k}"), v);
            }
        };
        put("iterations", self.iterations as f64);
        put("columns", self.columns as f64);
        put("seconds", self.seconds);
        put("converged", f64::from(u8::from(self.converged)));
        put("settled", f64::from(u8::from(self.settled)));
        put("bound", self.bound);
        put("master", self.master);
    }
}

impl CgOutcome {
    /// Its convergence record.
    pub fn convergence(&self) -> Convergence {
        Convergence {
            iterations: self.iterations.len(),
            columns: self.columns_added,
            seconds: self.seconds,
            converged: self.termination == Termination::Converged,
            // Or `⌈bound⌉ = ⌈master⌉` held at some point (bounds only rise and the least
            // master only falls, so it still holds), whatever stopped the loop after it: a
            // root settled at 75 s and stopped by a 120-s limit before it tailed off.
            settled: matches!(
                self.termination,
                Termination::Converged
                    | Termination::BoundClosed
                    | Termination::TailingOff
                    | Termination::Cutoff
            ) || self.settled_seconds.is_some(),
            // As `bound` is clamped to the last master value: no lower bound on the LP above
            // an upper bound on it (a caller's known bound may lie above the LP).
            bound: self.bound.min(self.least_master),
            master: self.least_master,
        }
    }
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
    let _phase = crate::solver::progress::phase(|| {
        format!("column generation over {} rows", master.demands().len())
    });
    let recorder = super::trace::Recorder::start();
    let demands = master.demands().to_vec();
    let mut bound = known_bound.max(0.0);
    let mut center: Option<Vec<f64>> = None;
    // The subgradient at `center` (directional smoothing).
    let mut center_subgradient: Option<Vec<f64>> = None;
    let mut bound_duals: Option<Vec<f64>> = None;
    // The packing to beat, lowered when the family finds a better one once settled.
    let mut cutoff = Cutoff {
        value: settings.cutoff,
        asked: false,
    };
    let mut was_settled = false;
    let mut settled_seconds = None;
    let mut iterations = Vec::new();
    let mut alpha = if settings.smoothing_auto && settings.smoothing <= 0.0 {
        0.5
    } else {
        settings.smoothing
    };
    let (mut mispriced, mut columns_added) = (0usize, 0usize);
    let mut best_farley = 0.0;
    let large = settings.interior_master_from > 0 && demands.len() >= settings.interior_master_from;
    master.set_algorithm(if large {
        crate::solver::MasterLp::IpmNoCrossover
    } else {
        settings.master_lp
    });
    // The first solve gets at least a little time: without a master there is nothing to report.
    if settings.dual_optimal_inequalities && settings.stabilise_after == 0 {
        master.add_exchanges(&pricing.dominance())?;
    }
    let first = master.solve(&deadline.at_least(settings.first_master_seconds))?;
    let mut last = match first {
        Some(last) => last,
        // Stopped before the first LP ended (Ctrl-C, SIGTERM): the starting columns, each
        // once, are a feasible master point; the bound is what was known.
        None if deadline.expired() => {
            if master.exchanges_active() {
                master.drop_exchanges()?;
            }
            return Ok(CgOutcome {
                bound_duals: None,
                termination: Termination::TimeLimit,
                master_value: master.len() as f64,
                least_master: master.len() as f64,
                bound,
                primal: vec![1.0; master.len()],
                duals: vec![0.0; demands.len()],
                iterations: Vec::new(),
                columns_added: 0,
                mispriced: 0,
                seconds: began.elapsed().as_secs_f64(),
                settled_seconds: None,
            });
        }
        None => {
            return Err(crate::Error::Highs(
                "the first master LP did not finish".into(),
            ))
        }
    };
    // Iterations before the current phase (with, then without the exchange columns).
    let mut phase_start = 0;
    // The last solve was with the exchange columns and could not be redone without them.
    let mut leans_on_exchanges = false;
    // The master's value with the exchanges, when they are dropped (see `least_master`).
    let mut with_exchanges = f64::INFINITY;
    let termination = loop {
        let termination = loop {
            if deadline.expired() {
                break Termination::TimeLimit;
            }
            if iterations.len() as u32 >= settings.max_iterations {
                break Termination::IterationLimit;
            }
            cutoff.ask_once_settled(pricing, bound, last.value, deadline);
            if closed(settings, bound, last.value) {
                break Termination::BoundClosed;
            }
            if pinned(settings, best_farley, last.value) {
                break Termination::Converged;
            }
            if cutoff
                .value
                .is_some_and(|c| ceil_with_tolerance(bound) as f64 >= c)
            {
                break Termination::Cutoff;
            }
            if settings.give_up_at.is_some_and(|g| last.value <= g) {
                break Termination::Hopeless;
            }
            if !was_settled && settled(bound, last.value) {
                was_settled = true;
                settled_seconds = Some(began.elapsed().as_secs_f64());
                pricing.settle();
            }
            let k = settings.tail_iterations;
            if was_settled && k > 0 && iterations.len() >= phase_start + k {
                let before: &Iteration = &iterations[iterations.len() - k];
                if before.master_value - last.value < settings.tail_gap * last.value {
                    break Termination::TailingOff;
                }
            }
            let stabilised = iterations.len() >= settings.stabilise_after;
            if settings.stabilise_after > 0
                && iterations.len() == settings.stabilise_after
                && settings.dual_optimal_inequalities
                && phase_start == 0
            {
                master.add_exchanges(&pricing.dominance())?;
                match master.solve(deadline)? {
                    Some(s) => last = s,
                    None => break Termination::TimeLimit,
                }
            }
            let pi_out = last.duals.clone();
            let smoothed = match (
                &center,
                stabilised && (alpha > 0.0 || settings.smoothing_auto),
            ) {
                (Some(c), true) => Some(separation_point(
                    c,
                    &pi_out,
                    alpha,
                    center_subgradient
                        .as_deref()
                        .filter(|_| settings.directional_smoothing),
                )),
                _ => None,
            };
            let t = Instant::now();
            let mut nodes = 0;
            let mut priced_at = smoothed.clone().unwrap_or_else(|| pi_out.clone());
            pricing.aim(enough(settings, &priced_at, &demands, last.value));
            let mut priced = pricing.price(&priced_at, deadline)?;
            nodes += priced.nodes;
            // Lagrangian bound at the point we priced (outward rounded: `safe`), then the
            // mispricing fallback.
            let upper = last.value;
            let mut update_bound =
                |pi: &[f64],
                 priced: &Priced,
                 center: &mut Option<Vec<f64>>,
                 center_g: &mut Option<Vec<f64>>| {
                    if let Some(v) = priced.max_bound() {
                        let lb = safe::farley(pi, &demands, v);
                        // The stability center: the best dual point the loop has seen, even below a
                        // bound known beforehand; with its subgradient for directional smoothing.
                        if lb > best_farley {
                            best_farley = lb;
                            *center = Some(pi.to_vec());
                            if settings.directional_smoothing {
                                *center_g = Some(subgradient(&priced.columns, pi, &demands, upper));
                            }
                        }
                        if lb > bound {
                            bound = lb;
                            bound_duals = Some(pi.to_vec());
                        }
                    }
                };
            let center_before = center.clone();
            let alpha_used = alpha;
            update_bound(&priced_at, &priced, &mut center, &mut center_subgradient);
            if let (true, Some(c)) = (
                settings.smoothing_auto && smoothed.is_some(),
                &center_before,
            ) {
                alpha = adjusted(
                    alpha,
                    &priced.columns,
                    &priced_at,
                    &pi_out,
                    c,
                    &demands,
                    last.value,
                );
            }
            // The master's own duals priced as well: when the smoothed point's columns do not
            // improve there (mispricing), or when they are fewer than the setting asks.
            let for_master = priced.count_improving(&pi_out, settings.reduced_cost_tol);
            if smoothed.is_some()
                && (for_master == 0 || for_master < settings.price_master_duals_below)
            {
                if for_master == 0 {
                    mispriced += 1;
                }
                priced_at = pi_out.clone();
                pricing.aim(enough(settings, &priced_at, &demands, last.value));
                let at_master = pricing.price(&priced_at, deadline)?;
                nodes += at_master.nodes;
                update_bound(&priced_at, &at_master, &mut center, &mut center_subgradient);
                // The first point's columns stay (only those improving at `π` are kept below).
                let mut columns = std::mem::take(&mut priced.columns);
                columns.extend(at_master.columns);
                priced = Priced {
                    columns,
                    ..at_master
                };
            }
            if let (Some(c), true) = (&center_before, smoothed.is_some()) {
                for k in 0..settings.extra_points {
                    let p = separation_point(c, &pi_out, extra_weight(alpha_used, k), None);
                    pricing.aim(enough(settings, &p, &demands, last.value));
                    let extra = pricing.price(&p, deadline)?;
                    nodes += extra.nodes;
                    update_bound(&p, &extra, &mut center, &mut center_subgradient);
                    priced.columns.extend(extra.columns);
                }
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
            columns_added += added;
            let mut exchanged = 0;
            if settings.pair_inequalities && master.exchanges_active() {
                exchanged = master.extend_exchanges(&pricing.violated_pairs(&pi_out))?;
                log::debug!("cg: {exchanged} violated pair inequalities added");
            }
            // The bound at convergence is the Farley bound at the master's duals, already taken
            // above (`π·N / v` with `v ≤ 1 + tol`): never HiGHS's objective.
            let converged = added == 0
                && proven_max.is_some_and(|v| v <= 1.0 + settings.reduced_cost_tol + 1e-8)
                && priced_at == pi_out;
            recorder.push(last.value, bound);
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
            crate::solver::progress::mark();
            if converged {
                break Termination::Converged;
            }
            if added == 0 && exchanged == 0 {
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
            cutoff.ask_once_settled(pricing, bound, last.value, deadline);
            if settings.live_columns_per_row > 0.0 {
                super::retire::retire_columns(master, &last.duals, settings.live_columns_per_row)?;
            }
            match master.solve(deadline)? {
                Some(s) => last = s,
                None => break Termination::TimeLimit,
            }
            if was_closed {
                break Termination::BoundClosed;
            }
        };
        if !master.exchanges_active() {
            break termination;
        }
        // The dual-optimal inequalities have done their part: the plain master again, whose
        // primal solution is a cover (re-solved even past the deadline, as the first master).
        with_exchanges = with_exchanges.min(last.value);
        let (again, recovered) = super::recover::drop_exchanges(
            master,
            &last,
            settings,
            deadline,
            bound,
            with_exchanges,
        )?;
        columns_added += recovered;
        let Some(again) = again else {
            // Out of time (n = 1,000 SOC items: more than the extra second). The last master
            // value, with the exchange columns, is still an upper bound on the LP optimum (the
            // inequalities are dual-optimal) and its duals are feasible for the plain LP; its
            // primal point may lean on the exchange columns (see below).
            log::debug!(
                "cg: the master without exchanges did not finish by the deadline ({} iterations)",
                iterations.len()
            );
            leans_on_exchanges = true;
            break Termination::TimeLimit;
        };
        last = again;
        log::debug!(
            "cg: exchanges dropped after {} iterations ({termination:?}), master {:.6}",
            iterations.len(),
            last.value
        );
        phase_start = iterations.len();
        if matches!(
            termination,
            Termination::TimeLimit | Termination::IterationLimit | Termination::PricingLimit
        ) {
            break termination;
        }
    };
    // The master after the last columns went in (the iterations record it before), at its
    // least value (see `least_master`).
    let least_master = last.value.min(with_exchanges);
    recorder.push(least_master, bound.min(least_master));
    // A point that leans on the exchanges is no cover: the caller gets the starting columns
    // each once instead, the cover of the first solve's timeout.
    let primal = if leans_on_exchanges {
        vec![1.0; master.len()]
    } else {
        last.primal
    };
    Ok(CgOutcome {
        bound_duals,
        termination,
        master_value: last.value,
        least_master,
        bound: bound.min(last.value),
        columns_added,
        mispriced,
        primal,
        duals: last.duals,
        iterations,
        seconds: began.elapsed().as_secs_f64(),
        settled_seconds: settled_seconds.or_else(|| {
            (!leans_on_exchanges && settled(bound, least_master))
                .then(|| began.elapsed().as_secs_f64())
        }),
    })
}

/// A loop's cutoff (the packing to beat, `None`: the loop does not stop at one) and whether
/// it has asked the family for a packing yet.
struct Cutoff {
    value: Option<f64>,
    asked: bool,
}

impl Cutoff {
    /// Once a loop, when its integer bound has settled (`⌈bound⌉ = ⌈master⌉`, checked here;
    /// called before the loop may close on it): the family's own search for a packing at
    /// `⌈bound⌉` ([`Pricing::settled_packing`]), whose size lowers the cutoff. Only in a loop
    /// that stops at a cutoff.
    fn ask_once_settled<P: Pricing + ?Sized>(
        &mut self,
        pricing: &mut P,
        bound: f64,
        master: f64,
        deadline: &Deadline,
    ) {
        let Some(c) = self.value else { return };
        if self.asked || !settled(bound, master) {
            return;
        }
        self.asked = true;
        if let Some(better) = pricing.settled_packing(ceil_with_tolerance(bound), deadline) {
            self.value = Some(c.min(better as f64));
        }
    }
}
