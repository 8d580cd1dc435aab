//! Subset-row cuts at the root of a unit-demand covering master (Jepsen, Petersen, Spoorendonk
//! & Pisinger 2008), the rank-1 Chvátal–Gomory cuts of multiplier ½ over a row set `S`:
//! `Σ_c ⌊|c ∩ S| / 2⌋ λ_c ≤ ⌊|S| / 2⌋`. Three rows (rhs 1) and five (rhs 2; the pentagons
//! of the Petersen-graph base of the ANI instances, models/packing.md §2). The cut is valid
//! for every integer *partition* (each column holds at most `|S|` rows of `S` in all, one
//! each); a covering solution can always be made one without more columns, since a column
//! stays feasible when it drops a row (closed under subsets: bins). Each round solves the
//! master by column generation to optimality under the cuts found so far. The pricing
//! honours the cut duals `σ_s ≤ 0` exactly ([`CutPricing`]). The round then separates the
//! most violated sets ([`super::separation`]): triples by enumeration over pairs covered
//! together, five-row sets by enumeration when the fractional columns hold few rows, else by a
//! greedy search. It goes on until `⌈bound⌉` meets the target (the
//! incumbent: proven optimal), no cut is violated, or the round, time or pricing limit is
//! reached.
//!
//! The bound is Farley's, with the cut rows in the dual: `(Σπ + Σ σ_s ⌊|S_s|/2⌋) / max(1, v)`
//! for a proven `v ≥ max_c (π·a_c + Σ σ_s ⌊|c ∩ S_s|/2⌋)`. Those scaled duals are feasible for
//! the dual of the master with every column, so the bound holds for the covering LP with
//! cuts. That LP is a relaxation of the integer problem, so the bound holds for the integer
//! optimum too. It stays valid at any stop.
//!
//! Only at the root: the tree that follows ([`super::branch_and_price`]) starts without the
//! cuts, and its bound is kept only when it is higher.

use super::separation::Separation;
use super::{Column, Priced, Pricing};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::{ColumnLp, Deadline};
use log::debug;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The rows of a subset-row cut, increasing (three or five).
pub type Subset = Vec<usize>;

/// The cut's right-hand side: `⌊|S| / 2⌋`.
pub fn cut_rhs(rows: &[usize]) -> f64 {
    (rows.len() / 2) as f64
}

/// A column's coefficient in the cut over `rows` when it holds `held` of them: `⌊held / 2⌋`.
pub fn cut_coefficient(held: usize) -> f64 {
    (held / 2) as f64
}

/// A pricing oracle that honours subset-row cut duals.
pub trait CutPricing: Pricing {
    /// From now on a column holding `h` rows of `cuts[s].0` is worth `⌊h/2⌋·cuts[s].1`
    /// (`≤ 0`) more: the values, columns and proofs of [`Pricing::price`] include it.
    fn set_cuts(&mut self, cuts: &[(Subset, f64)]);

    /// The exact step alone: the best columns under the cuts and, when it completes, the
    /// proven best value. The loop calls it when the quick step's columns all lie within its
    /// reduced-cost tolerance (they prove nothing and improve nothing).
    fn price_exact(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced>;
}

/// Settings of the cut rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CutSettings {
    /// Run the rounds at all.
    pub enabled: bool,
    /// Share of the time left that the rounds may use.
    pub share: f64,
    /// Separation rounds at most.
    pub max_rounds: usize,
    /// Cuts added per round at most (the most violated).
    pub per_round: usize,
    /// A cut enters when its left-hand side exceeds `1 + min_violation`.
    pub min_violation: f64,
    /// Columns added per pricing call at most.
    pub columns_per_iteration: usize,
    /// A column enters when its reduced cost is below `−reduced_cost_tol`.
    pub reduced_cost_tol: f64,
    /// Rows at most (separation enumerates the triples around every row).
    pub max_rows: usize,
    /// Separate five-row cuts too (multiplier ½, right-hand side 2). Off: on ANI 201 they
    /// proved nothing three-row cuts did not, and cost one proof (models/packing.md §2).
    pub five_rows: bool,
    /// Every five rows is tried when the fractional columns hold at most this many rows;
    /// beyond, a greedy search from each of them.
    pub five_row_exhaustive: usize,
}

impl Default for CutSettings {
    fn default() -> Self {
        CutSettings {
            enabled: true,
            share: 0.2,
            max_rounds: 6,
            per_round: 30,
            min_violation: 0.02,
            columns_per_iteration: 20,
            reduced_cost_tol: 1e-7,
            max_rows: 1_500,
            five_rows: false,
            five_row_exhaustive: 24,
        }
    }
}

/// How the rounds ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CutEnd {
    /// `⌈bound⌉` reached the target.
    Closed,
    /// No violated cut at the last LP optimum.
    NoCut,
    /// The round cap.
    RoundLimit,
    /// The time share or the deadline.
    TimeLimit,
    /// The pricing could neither find a column nor prove that none exists.
    PricingLimit,
}

/// What proves a cut round's bound (issue 37): the duals of the item rows and of the cuts
/// (with their rows), and the proven best pricing value under them; the bound is
/// `(Σπ + Σ σ_s ⌊|S_s|/2⌋) / max(1, best)`, rounded outward ([`super::safe::farley_from`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CutProof {
    /// Item duals `π ≥ 0`, one per row.
    pub pi: Vec<f64>,
    /// The cuts priced, each with its dual `σ < 0` (those at 0 add nothing and are left out).
    pub cuts: Vec<(Subset, f64)>,
    /// `v ≥ max_c (π·a_c + σ·s_c)`, proven by the exact cut pricing.
    pub best: f64,
    /// The bound they prove.
    pub bound: f64,
}

/// What the rounds found.
#[derive(Debug, Clone)]
pub struct CutOutcome {
    /// Proven lower bound on the integer optimum: the caller's `known_bound` or a Lagrangian
    /// bound on the covering LP with the cuts, whichever is higher.
    pub bound: f64,
    /// The last master value solved to optimality (the LP with the cuts of that round), if
    /// any round converged.
    pub lp: Option<f64>,
    /// How it ended.
    pub end: CutEnd,
    /// Rounds run (LPs solved under a set of cuts).
    pub rounds: usize,
    /// Cuts added.
    pub cuts: usize,
    /// Columns in the pool at the end.
    pub columns: usize,
    /// Wall seconds.
    pub seconds: f64,
    /// The proof of the best bound a round found (`None` when none beat `known_bound`).
    pub proof: Option<CutProof>,
}

/// A column's coefficient in the cut over `s`: `⌊|col ∩ s| / 2⌋`.
fn coefficient(col: &Column, s: &[usize]) -> f64 {
    cut_coefficient(col.iter().filter(|(r, _)| s.contains(r)).count())
}

/// The master with `rows` unit covering rows and one `≤ ⌊|S|/2⌋` row per cut, over `pool`.
fn build(rows: usize, cuts: &[Subset], pool: &[Column]) -> Result<ColumnLp> {
    let mut bounds = vec![(1.0, f64::INFINITY); rows];
    bounds.extend(cuts.iter().map(|s| (f64::NEG_INFINITY, cut_rhs(s))));
    let mut lp = ColumnLp::new(&bounds);
    for c in pool {
        lp.add_column(1.0, 0.0, f64::INFINITY, &with_cuts(c, cuts, rows))?;
    }
    Ok(lp)
}

/// `col` with its coefficients in the cut rows (after the `rows` covering rows).
fn with_cuts(col: &Column, cuts: &[Subset], rows: usize) -> Column {
    let mut full = col.clone();
    for (s, t) in cuts.iter().enumerate() {
        let a = coefficient(col, t);
        if a > 0.0 {
            full.push((rows + s, a));
        }
    }
    full
}

/// Cut rounds over `rows` unit covering rows from the columns `pool` (which must cover every
/// row), until `⌈bound⌉ ≥ target` or another end (see [`CutEnd`]). `known_bound` is a lower
/// bound on the integer optimum known beforehand (e.g. the root's).
pub fn subset_row_root<P: CutPricing>(
    rows: usize,
    pricing: &mut P,
    mut pool: Vec<Column>,
    settings: &CutSettings,
    target: u64,
    known_bound: f64,
    deadline: &Deadline,
) -> Result<CutOutcome> {
    let began = Instant::now();
    let _phase = crate::solver::progress::phase(|| {
        format!("subset-row cut rounds towards a bound of {target}")
    });
    let mut cuts: Vec<Subset> = Vec::new();
    let mut bound = known_bound;
    let mut lp_value = None;
    let mut proof: Option<CutProof> = None;
    let mut rounds = 0;
    let tol = settings.reduced_cost_tol;
    let closes = |b: f64| ceil_with_tolerance(b) >= target;
    let end = 'rounds: loop {
        if closes(bound) {
            break CutEnd::Closed;
        }
        if rounds >= settings.max_rounds {
            break CutEnd::RoundLimit;
        }
        rounds += 1;
        let mut lp = build(rows, &cuts, &pool)?;
        let solution = loop {
            let Some(sol) = lp.solve(deadline)? else {
                break 'rounds CutEnd::TimeLimit;
            };
            let pi: Vec<f64> = sol.duals[..rows].iter().map(|d| d.max(0.0)).collect();
            let sigma: Vec<f64> = sol.duals[rows..].iter().map(|d| d.min(0.0)).collect();
            let priced_cuts: Vec<(Subset, f64)> = cuts.iter().cloned().zip(sigma.clone()).collect();
            pricing.set_cuts(&priced_cuts);
            let value = |c: &Column| -> f64 {
                c.iter().map(|&(r, a)| a * pi[r]).sum::<f64>()
                    + cuts
                        .iter()
                        .zip(&sigma)
                        .map(|(t, s)| s * coefficient(c, t))
                        .sum::<f64>()
            };
            let mut priced = pricing.price(&pi, deadline)?;
            let improves = |p: &Priced| p.columns.iter().any(|(c, _)| 1.0 - value(c) < -tol);
            if priced.proven_max.is_none() && !improves(&priced) && !deadline.expired() {
                priced = pricing.price_exact(&pi, deadline)?;
            }
            // Weak duality with the cut rows (right-hand sides ⌊|S|/2⌋), rounded outward; at
            // convergence this is the LP's value up to round-off, never HiGHS's objective.
            let dual_value = super::safe::sum_down(
                pi.iter()
                    .copied()
                    .chain(cuts.iter().zip(&sigma).map(|(t, s)| s * cut_rhs(t))),
            );
            if let Some(v) = priced.max_bound() {
                let b = super::safe::farley_from(dual_value, v);
                if b > bound {
                    bound = b;
                    proof = Some(CutProof {
                        pi: pi.clone(),
                        cuts: priced_cuts.iter().filter(|c| c.1 < 0.0).cloned().collect(),
                        best: v,
                        bound: b,
                    });
                }
            }
            let mut improving: Vec<(f64, Column)> = priced
                .columns
                .iter()
                .map(|(c, _)| (1.0 - value(c), c.clone()))
                .filter(|(rc, _)| *rc < -tol)
                .collect();
            improving.sort_by(|a, b| a.0.total_cmp(&b.0));
            improving.truncate(settings.columns_per_iteration.max(1));
            if improving.is_empty() {
                match priced.proven_max {
                    Some(v) if v <= 1.0 + tol + 1e-8 => break sol,
                    _ if deadline.expired() => break 'rounds CutEnd::TimeLimit,
                    _ => break 'rounds CutEnd::PricingLimit,
                }
            }
            if closes(bound) {
                break 'rounds CutEnd::Closed;
            }
            for (_, c) in improving {
                lp.add_column(1.0, 0.0, f64::INFINITY, &with_cuts(&c, &cuts, rows))?;
                pool.push(c);
            }
        };
        lp_value = Some(solution.value);
        debug!(
            "cut round {rounds}: LP {:.6} with {} cuts, bound {:.6}, {} columns, {:.3}s",
            solution.value,
            cuts.len(),
            bound,
            pool.len(),
            began.elapsed().as_secs_f64()
        );
        if closes(bound) {
            break CutEnd::Closed;
        }
        let point = Separation {
            rows,
            pool: &pool,
            primal: &solution.primal,
            min_violation: settings.min_violation,
            max: settings.per_round,
            known: &cuts,
        };
        let mut new = point.triples();
        if settings.five_rows {
            new.extend(point.fives(settings.five_row_exhaustive));
        }
        // The most violated first, over both sizes.
        new.sort_by(|a, b| {
            let excess = |c: &(Subset, f64)| c.1 - cut_rhs(&c.0);
            excess(b).total_cmp(&excess(a)).then(a.0.cmp(&b.0))
        });
        new.truncate(settings.per_round);
        if new.is_empty() {
            break CutEnd::NoCut;
        }
        debug!(
            "cut round {rounds}: {} new cuts, {} of five rows",
            new.len(),
            new.iter().filter(|c| c.0.len() == 5).count()
        );
        cuts.extend(new.into_iter().map(|(t, _)| t));
    };
    debug!(
        "cut rounds: {end:?} after {rounds} rounds, {} cuts, bound {bound:.6}, {:.3}s",
        cuts.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(CutOutcome {
        bound,
        lp: lp_value,
        end,
        rounds,
        cuts: cuts.len(),
        columns: pool.len(),
        seconds: began.elapsed().as_secs_f64(),
        proof,
    })
}
