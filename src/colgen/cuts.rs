//! Subset-row cuts at the root of a unit-demand covering master (Jepsen, Petersen, Spoorendonk
//! & Pisinger 2008): for three rows `S`, `Σ_c ⌊|c ∩ S| / 2⌋ λ_c ≤ 1`. A column holding two or
//! three rows of `S` has coefficient 1 in the cut, any other 0. The cut is valid for every
//! integer *partition*; a covering solution can always be made one without more columns,
//! since a column stays feasible when it drops a row (closed under subsets: bins). Each round
//! solves the master by column generation to optimality under the cuts found so far. The
//! pricing honours the cut duals `σ_s ≤ 0` exactly ([`CutPricing`]). The round then
//! separates the most violated triples, by enumeration over pairs covered together, and goes
//! on until `⌈bound⌉` meets the target (the incumbent: proven optimal), no cut is violated,
//! or the round, time or pricing limit is reached.
//!
//! The bound is Farley's, with the cut rows in the dual: `(Σπ + Σσ) / max(1, v)` for a proven
//! `v ≥ max_c (π·a_c + σ·s_c)`. Those scaled duals are feasible for the dual of the master
//! with every column, so the bound holds for the covering LP with cuts. That LP is a
//! relaxation of the integer problem, so the bound holds for the integer optimum too. It
//! stays valid at any stop.
//!
//! Only at the root: the tree that follows ([`super::branch_and_price`]) starts without the
//! cuts, and its bound is kept only when it is higher.

use super::{Column, Priced, Pricing};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::{ColumnLp, Deadline};
use log::debug;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Three rows of a subset-row cut, in increasing order.
pub type Triple = [usize; 3];

/// A pricing oracle that honours subset-row cut duals.
pub trait CutPricing: Pricing {
    /// From now on a column holding at least two rows of `cuts[s].0` is worth `cuts[s].1`
    /// (`≤ 0`) more: the values, columns and proofs of [`Pricing::price`] include it.
    fn set_cuts(&mut self, cuts: &[(Triple, f64)]);

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
}

impl Default for CutSettings {
    fn default() -> Self {
        CutSettings {
            enabled: true,
            share: 0.15,
            max_rounds: 6,
            per_round: 30,
            min_violation: 0.02,
            columns_per_iteration: 20,
            reduced_cost_tol: 1e-7,
            max_rows: 1_500,
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
/// (with their triples), and the proven best pricing value under them; the bound is
/// `(Σπ + Σσ) / max(1, best)`, rounded outward ([`super::safe::farley_from`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CutProof {
    /// Item duals `π ≥ 0`, one per row.
    pub pi: Vec<f64>,
    /// The cuts priced, each with its dual `σ < 0` (those at 0 add nothing and are left out).
    pub cuts: Vec<(Triple, f64)>,
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

/// A column's coefficient in the cut over `s`: 1 when it holds at least two of its rows.
fn coefficient(col: &Column, s: &Triple) -> f64 {
    let held = col.iter().filter(|(r, _)| s.contains(r)).count();
    if held >= 2 {
        1.0
    } else {
        0.0
    }
}

/// The master with `rows` unit covering rows and one `≤ 1` row per cut, over `pool`.
fn build(rows: usize, cuts: &[Triple], pool: &[Column]) -> Result<ColumnLp> {
    let mut bounds = vec![(1.0, f64::INFINITY); rows];
    bounds.extend(cuts.iter().map(|_| (f64::NEG_INFINITY, 1.0)));
    let mut lp = ColumnLp::new(&bounds);
    for c in pool {
        lp.add_column(1.0, 0.0, f64::INFINITY, &with_cuts(c, cuts, rows))?;
    }
    Ok(lp)
}

/// `col` with its coefficients in the cut rows (after the `rows` covering rows).
fn with_cuts(col: &Column, cuts: &[Triple], rows: usize) -> Column {
    let mut full = col.clone();
    for (s, t) in cuts.iter().enumerate() {
        if coefficient(col, t) > 0.0 {
            full.push((rows + s, 1.0));
        }
    }
    full
}

/// The most violated triples at the master solution `primal` over `pool`, at most `max`,
/// each with its left-hand side (above `1 + min_violation`), skipping those in `known`.
pub fn separate(
    rows: usize,
    pool: &[Column],
    primal: &[f64],
    min_violation: f64,
    max: usize,
    known: &[Triple],
) -> Vec<(Triple, f64)> {
    // Pair weights, per row its partners (ascending) and the support columns holding it.
    let pair = super::node::together_values(pool, primal);
    let w = |i: usize, j: usize| pair.get(&(i.min(j), i.max(j))).copied().unwrap_or(0.0);
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for &(i, j) in pair.keys() {
        adjacent[i].push(j);
        adjacent[j].push(i);
    }
    let mut holding: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for (c, col) in pool.iter().enumerate().take(primal.len()) {
        if primal[c] > 1e-9 {
            for &(r, _) in col {
                holding[r].push(c);
            }
        }
    }
    let known: std::collections::HashSet<Triple> = known.iter().copied().collect();
    let mut found: Vec<(Triple, f64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, adj) in adjacent.iter_mut().enumerate() {
        adj.sort_unstable();
        let adj: &[usize] = adj;
        for (a, &j) in adj.iter().enumerate() {
            for &k in &adj[a + 1..] {
                let (wij, wik, wjk) = (w(i, j), w(i, k), w(j, k));
                if wij + wik + wjk <= 1.0 + min_violation {
                    continue;
                }
                let mut t = [i, j, k];
                t.sort_unstable();
                if known.contains(&t) || !seen.insert(t) {
                    continue;
                }
                // Columns holding all three count once, not three times.
                let all: f64 = holding[i]
                    .iter()
                    .filter(|&&c| pool[c].iter().any(|&(r, _)| r == j))
                    .filter(|&&c| pool[c].iter().any(|&(r, _)| r == k))
                    .map(|&c| primal[c])
                    .sum();
                let lhs = wij + wik + wjk - 2.0 * all;
                if lhs > 1.0 + min_violation {
                    found.push((t, lhs));
                }
            }
        }
    }
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    found.truncate(max);
    found
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
    let mut cuts: Vec<Triple> = Vec::new();
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
            let priced_cuts: Vec<(Triple, f64)> = cuts.iter().copied().zip(sigma.clone()).collect();
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
            // Weak duality with the cut rows (right-hand sides 1), rounded outward; at
            // convergence this is the LP's value up to round-off, never HiGHS's objective.
            let dual_value = super::safe::sum_down(pi.iter().chain(&sigma).copied());
            if let Some(v) = priced.max_bound() {
                let b = super::safe::farley_from(dual_value, v);
                if b > bound {
                    bound = b;
                    proof = Some(CutProof {
                        pi: pi.clone(),
                        cuts: priced_cuts.iter().copied().filter(|c| c.1 < 0.0).collect(),
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
        let new = separate(
            rows,
            &pool,
            &solution.primal,
            settings.min_violation,
            settings.per_round,
            &cuts,
        );
        if new.is_empty() {
            break CutEnd::NoCut;
        }
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
