//! One node of the periodic job tree ([`super::tree`]): its branching rows, its order in the
//! best-bound heap, and its column generation over the shared pool with the safe Farley
//! bound (the branching rows' duals in the dual objective).

use super::branched::{holds, BranchedPricing, Corner, Counts};
use super::instance::Instance;
use super::settings::TreeSettings;
use crate::colgen::safe::{covered_down, covered_up, farley_from, sum_down};
use crate::colgen::{above_next_below, settling_aim};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::{BuildClock, ColumnLp, Deadline};
use std::collections::HashSet;

/// A branching row: its corner, `≥` (else `≤`), its right-hand side.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Row {
    pub(super) corner: Corner,
    pub(super) at_least: bool,
    pub(super) rhs: f64,
}

#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) rows: Vec<Row>,
    pub(super) bound: u64,
    pub(super) depth: u32,
    pub(super) seq: u64,
}

impl PartialEq for Node {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o).is_eq()
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Node {
    /// The heap pops the least bound first, then the deepest, then the last pushed.
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.bound
            .cmp(&self.bound)
            .then(self.depth.cmp(&o.depth))
            .then(self.seq.cmp(&o.seq))
    }
}

/// How a node's column generation ended.
pub(super) enum NodeEnd {
    /// Its bound reached the incumbent.
    Pruned,
    /// No proof (time, a capped pricing, too many cells).
    Open,
    /// Converged: the LP values of the real columns (in `columns` order) and of the
    /// artificial ones.
    Converged { primal: Vec<f64>, artificial: f64 },
}

pub(super) struct NodeResult {
    pub(super) bound: f64,
    pub(super) end: NodeEnd,
    /// The real columns of the node's master, in order.
    pub(super) columns: Vec<Counts>,
}

/// Column generation at one node: the job rows (`≥ N_j`), the node's branching rows, an
/// artificial column per job row and per `≥` row (cost: more than any packing), and every pool
/// column; priced by [`BranchedPricing`] until a proof, the incumbent's bound, or the deadline.
pub(super) fn solve_node(
    inst: &Instance,
    pricing: &mut BranchedPricing,
    pool: &[Counts],
    node: &Node,
    incumbent: u64,
    ts: &TreeSettings,
    deadline: &Deadline,
) -> Result<NodeResult> {
    let jobs = inst.jobs.len();
    let demands: Vec<f64> = inst.jobs.iter().map(|j| f64::from(j.tasks)).collect();
    let mut bounds: Vec<(f64, f64)> = demands.iter().map(|&n| (n, f64::INFINITY)).collect();
    bounds.extend(node.rows.iter().map(|r| {
        if r.at_least {
            (r.rhs, f64::INFINITY)
        } else {
            (f64::NEG_INFINITY, r.rhs)
        }
    }));
    let mut lp = ColumnLp::new(&bounds);
    let big = demands.iter().sum::<f64>() + 1.0;
    let mut artificials = 0;
    for j in 0..jobs {
        lp.add_column(big, 0.0, f64::INFINITY, &[(j, 1.0)])?;
        artificials += 1;
    }
    for (r, row) in node.rows.iter().enumerate() {
        if row.at_least {
            lp.add_column(big, 0.0, f64::INFINITY, &[(jobs + r, 1.0)])?;
            artificials += 1;
        }
    }
    let full = |c: &Counts| -> Vec<(usize, f64)> {
        let mut col: Vec<(usize, f64)> = c.iter().map(|&(j, n)| (j, f64::from(n))).collect();
        for (r, row) in node.rows.iter().enumerate() {
            if holds(&row.corner, c) {
                col.push((jobs + r, 1.0));
            }
        }
        col
    };
    let mut bound = node.bound as f64 - 1.0;
    let mut columns: Vec<Counts> = Vec::with_capacity(pool.len());
    let mut present: HashSet<Counts> = pool.iter().cloned().collect();
    // The deadline passing while the pool is loaded leaves the node open, as at HiGHS's
    // time limit (issue 36).
    let mut clock = BuildClock::new(deadline);
    for c in pool {
        if clock.tick() {
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Open,
                columns,
            });
        }
        lp.add_column(1.0, 0.0, f64::INFINITY, &full(c))?;
        columns.push(c.clone());
    }
    let threshold = 1.0 + ts.reduced_cost_tol;
    loop {
        let Some(sol) = lp.solve(deadline)? else {
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Open,
                columns,
            });
        };
        let pi: Vec<f64> = sol.duals[..jobs].iter().map(|d| d.max(0.0)).collect();
        let mu: Vec<f64> = node
            .rows
            .iter()
            .zip(&sol.duals[jobs..])
            .map(|(r, &d)| if r.at_least { d.max(0.0) } else { d.min(0.0) })
            .collect();
        pricing.set_rows(
            node.rows
                .iter()
                .zip(&mu)
                .map(|(r, &m)| (r.corner.clone(), m))
                .collect(),
        );
        // Without rows the bound is `π·N / v`: a proof that no column beats the aim lifts it
        // past the integer below `⌈master⌉` (or the incumbent), which settles (or prunes) the
        // node without converging its LP, as the root's loop does; not while artificial
        // columns are in use (a settled node converges only without them).
        let needed = above_next_below(sol.value.min(incumbent as f64));
        let clean = sol.primal[..artificials].iter().sum::<f64>() <= 1e-9;
        pricing.aim(if clean {
            settling_aim(covered_down(&pi, &demands), needed)
        } else {
            1.0
        });
        let priced = pricing.price(&pi, threshold, Some(ts.partial), deadline)?;
        let v = match (priced.proven_max, priced.upper_bound) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(v) = v {
            // Weak duality with the rows: (π·N + Σ_≥ μ l + Σ_≤ μ u) / max(1, v), rounded down,
            // for any `v` at least every column's value (a proof or a relaxation's bound).
            let (ge, le): (Vec<_>, Vec<_>) =
                node.rows.iter().zip(&mu).partition(|(r, _)| r.at_least);
            let ge_value = covered_down(
                &ge.iter().map(|(_, &m)| m).collect::<Vec<_>>(),
                &ge.iter().map(|(r, _)| r.rhs).collect::<Vec<_>>(),
            );
            let le_cost = covered_up(
                &le.iter().map(|(_, &m)| -m).collect::<Vec<_>>(),
                &le.iter().map(|(r, _)| r.rhs).collect::<Vec<_>>(),
            );
            let dual_value = sum_down([covered_down(&pi, &demands), ge_value, -le_cost]);
            bound = bound.max(farley_from(dual_value, v));
        }
        if ceil_with_tolerance(bound) >= incumbent {
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Pruned,
                columns,
            });
        }
        // The node's integer bound cannot rise above `⌈master⌉`: once its bound meets it, more
        // columns only refine the LP, and branching is valid on any LP solution.
        let settled = ceil_with_tolerance(bound).max(node.bound) >= ceil_with_tolerance(sol.value);
        if settled && sol.primal[..artificials].iter().sum::<f64>() <= 1e-9 {
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Converged {
                    primal: sol.primal[artificials..].to_vec(),
                    artificial: 0.0,
                },
                columns,
            });
        }
        if priced.columns.is_empty() {
            let end = match priced.proven_max {
                Some(v) if v <= threshold + 1e-8 => {
                    let primal = sol.primal[artificials..].to_vec();
                    let artificial = sol.primal[..artificials].iter().sum();
                    NodeEnd::Converged { primal, artificial }
                }
                _ => NodeEnd::Open,
            };
            return Ok(NodeResult {
                bound,
                end,
                columns,
            });
        }
        let mut added = 0;
        for (c, _) in &priced.columns {
            if added >= ts.columns_per_iteration.max(1) {
                break;
            }
            if present.insert(c.clone()) {
                lp.add_column(1.0, 0.0, f64::INFINITY, &full(c))?;
                columns.push(c.clone());
                added += 1;
            }
        }
        if added == 0 {
            // Every improving column is in the master already (within HiGHS's tolerances):
            // the LP is as good as optimal; branching on it is valid whatever its value, and
            // the bound is the duals' own.
            let primal = sol.primal[artificials..].to_vec();
            let artificial = sol.primal[..artificials].iter().sum();
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Converged { primal, artificial },
                columns,
            });
        }
        if deadline.expired() {
            return Ok(NodeResult {
                bound,
                end: NodeEnd::Open,
                columns,
            });
        }
    }
}
