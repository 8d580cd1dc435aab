//! The node's cancelling LP: where the SOCP relaxation is solved inside the disc.
//!
//! The node SOCP `max π·U` over the box, `‖v(U)‖ ≤ C − c(U)` (`c` the mean load, `v` the
//! phasor) has the dual `min g(λ, μ)` over the cone `‖μ‖ ≤ λ`, where `g` is the Lagrangian of
//! the three rows `c(U) ≤ C`, `v(U) = 0`. Without the cone, `min g` is the dual of the **LP**
//! `max π·U` over the box with `c(U) ≤ C` and `v(U) = 0` — three rows. When that LP's duals
//! `(λ, μ)` lie in the cone they solve the SOCP's dual, and the direction `e* = μ / λ` is the
//! minimiser of the directional bound over the disc (`knapsack_relax.rs`): the relaxation
//! cancels the phases. Instead of a pattern search, a bounded dual simplex on three rows finds
//! it in a few pivots, warm from the parent's basis (a child differs by bounds only, so that
//! basis is dual feasible). When the duals leave the cone, or the LP is infeasible (no point of
//! the box cancels the phasor), the minimiser lies on the rim and the pattern search takes over.
//!
//! The bound itself is always the directional bound evaluated at `e*`, valid for any direction:
//! the LP only says where to look, so its round-off cannot make a bound invalid.

use super::relax::{into_disc, NodeView};

/// A basis of the three rows: item indices, or `n + r` for the slack of row `r` (`n` items).
pub type Basis = [usize; 3];

/// The basis of the three slacks (`n` items): dual feasible for any box.
pub fn slack_basis(n: usize) -> Basis {
    [n, n + 1, n + 2]
}

/// What the cancelling LP found.
#[derive(Debug, Clone, PartialEq)]
pub enum Cancel {
    /// Optimal: the row duals `(λ, μ_x, μ_y)`, the LP value and the optimal basis.
    Optimal {
        /// Duals of the capacity row and the two phasor rows.
        duals: [f64; 3],
        /// `max π·U` of the LP.
        value: f64,
        /// The optimal basis (the children's warm start).
        basis: Basis,
    },
    /// No point of the box cancels the phasor within the capacity (the basis proving it is
    /// dual feasible: a warm start for the children).
    Infeasible(Basis),
    /// Too many pivots: no answer yet, but the last basis is dual feasible (a warm start).
    Unfinished(Basis),
    /// A singular basis: no answer.
    Failed,
}

impl Cancel {
    /// The direction `μ / λ` (kept in the disc against round-off) when the duals lie in the
    /// cone `‖μ‖ ≤ λ` (the SOCP minimiser is inside the disc), else `None`.
    pub fn direction(&self) -> Option<[f64; 2]> {
        let Cancel::Optimal { duals, .. } = self else {
            return None;
        };
        let [l, mx, my] = *duals;
        let m2 = mx * mx + my * my;
        if m2 <= 1e-24 {
            Some([0.0, 0.0])
        } else if l > 0.0 && m2 <= l * l * (1.0 + 1e-9) {
            Some(into_disc([mx / l, my / l]))
        } else {
            None
        }
    }

    /// The basis to warm-start the children from.
    pub fn basis(&self) -> Option<Basis> {
        match self {
            Cancel::Optimal { basis, .. }
            | Cancel::Infeasible(basis)
            | Cancel::Unfinished(basis) => Some(*basis),
            Cancel::Failed => None,
        }
    }
}

/// Most pivots of one solve from a warm basis (a child needs a handful); from the slack basis,
/// this plus two per free item.
const MAX_PIVOTS: usize = 60;
/// Primal feasibility tolerance on a basic variable.
const PRIMAL_TOL: f64 = 1e-9;
/// Smallest pivot element accepted in the ratio test.
const PIVOT_TOL: f64 = 1e-9;

/// A column of the LP: its row coefficients, cost, range `[0, u]` of `z = U − l`, the variable
/// (item index, or `n + r` for a slack) and where it stands.
#[derive(Clone, Copy)]
struct Column {
    a: [f64; 3],
    cost: f64,
    range: f64,
    var: usize,
    at: At,
}

/// Where a variable stands.
#[derive(Clone, Copy, PartialEq)]
enum At {
    Lower,
    Upper,
    Basic,
}

/// Solves the cancelling LP of the node `view` by the bounded dual simplex from `warm` (a dual
/// feasible basis: the parent's, or [`slack_basis`]).
pub fn cancel(view: &NodeView, warm: Basis) -> Cancel {
    let k = view.knapsack();
    let (lower, upper) = (view.lower(), view.upper());
    let n = k.items.len();
    if warm.iter().any(|&j| j >= n + 3)
        || warm[0] == warm[1]
        || warm[0] == warm[2]
        || warm[1] == warm[2]
    {
        return Cancel::Failed;
    }
    // The free items, then the warm basis's items that this node fixes (range 0), then the
    // slacks: the capacity's unbounded above, the phasor rows' fixed at 0.
    let free = view.free();
    let mut cols: Vec<Column> = Vec::with_capacity(free.len() + 6);
    let item = |j: usize| {
        let it = &k.items[j];
        Column {
            a: [it.mean, it.x, it.y],
            cost: it.profit,
            range: f64::from(upper[j] - lower[j]),
            var: j,
            at: At::Lower,
        }
    };
    // The positions of the basic columns, in the order of `warm`, recorded as they are pushed;
    // nonbasic variables start at their lower bound (the first pivot sets the items' bounds).
    let mut basis = [usize::MAX; 3];
    let mut push = |mut c: Column| {
        if let Some(r) = warm.iter().position(|&v| v == c.var) {
            basis[r] = cols.len();
            c.at = At::Basic;
        }
        cols.push(c);
    };
    for &j in free {
        push(item(j));
    }
    for &j in &warm {
        if j < n && lower[j] == upper[j] {
            push(item(j));
        }
    }
    for r in 0..3 {
        let mut a = [0.0; 3];
        a[r] = 1.0;
        push(Column {
            a,
            cost: 0.0,
            range: if r == 0 { f64::INFINITY } else { 0.0 },
            var: n + r,
            at: At::Lower,
        });
    }
    let load = view.load();
    let rhs0 = [k.capacity - load[0], -load[1], -load[2]];
    let cap = if warm == slack_basis(n) {
        MAX_PIVOTS + 2 * free.len()
    } else {
        MAX_PIVOTS
    };
    let (mut rhs, mut value) = (rhs0, view.value());
    for pivot in 0..=cap {
        let Some(inv) = inverse(basis.map(|b| cols[b].a)) else {
            return Cancel::Failed;
        };
        // `y = c_B B⁻¹`.
        let cb = basis.map(|b| cols[b].cost);
        let y: [f64; 3] = std::array::from_fn(|c| (0..3).map(|r| cb[r] * inv[r][c]).sum());
        let reduced = |c: &Column| c.cost - (y[0] * c.a[0] + y[1] * c.a[1] + y[2] * c.a[2]);
        if pivot == 0 {
            // Nonbasic items go to the bound their reduced cost asks for (dual feasible); the
            // right-hand side and the value follow the pivots from here on.
            for c in cols.iter_mut() {
                if c.at != At::Basic && c.var < n {
                    c.at = if reduced(c) > 0.0 {
                        At::Upper
                    } else {
                        At::Lower
                    };
                }
                if c.at == At::Upper {
                    shift(&mut rhs, &mut value, c, -1.0);
                }
            }
        }
        let xb: [f64; 3] = std::array::from_fn(|r| (0..3).map(|c| inv[r][c] * rhs[c]).sum());
        // Leaving: the most infeasible basic variable.
        let mut leave = None;
        let mut worst = 0.0;
        for r in 0..3 {
            let u = cols[basis[r]].range;
            let (viol, sigma) = if xb[r] < -PRIMAL_TOL {
                (-xb[r], -1.0)
            } else if xb[r] > u + PRIMAL_TOL * (1.0 + u) {
                (xb[r] - u, 1.0)
            } else {
                continue;
            };
            if viol > worst {
                worst = viol;
                leave = Some((r, sigma));
            }
        }
        let Some((r, sigma)) = leave else {
            value += (0..3).map(|r| cb[r] * xb[r]).sum::<f64>();
            return Cancel::Optimal {
                duals: y,
                value,
                basis: basis.map(|b| cols[b].var),
            };
        };
        // Entering: the smallest dual step `|d_j| / |α_rj|` among the nonbasic variables whose
        // reduced cost moves toward zero (ties: the largest pivot); fixed slacks never enter.
        let row = inv[r];
        let mut enter: Option<(usize, f64, f64)> = None;
        for (p, c) in cols.iter().enumerate() {
            if c.at == At::Basic || c.range == 0.0 {
                continue;
            }
            let alpha = row[0] * c.a[0] + row[1] * c.a[1] + row[2] * c.a[2];
            let s = sigma * alpha;
            let moves = if c.at == At::Upper {
                s < -PIVOT_TOL
            } else {
                s > PIVOT_TOL
            };
            if moves {
                let ratio = reduced(c).abs() / alpha.abs();
                let better = match enter {
                    None => true,
                    Some((_, best, a)) => ratio < best || (ratio == best && alpha.abs() > a),
                };
                if better {
                    enter = Some((p, ratio, alpha.abs()));
                }
            }
        }
        let Some((q, _, _)) = enter else {
            return Cancel::Infeasible(basis.map(|b| cols[b].var));
        };
        // The leaving variable rests at the bound it violated.
        let out = &mut cols[basis[r]];
        out.at = if sigma > 0.0 { At::Upper } else { At::Lower };
        if out.at == At::Upper {
            shift(&mut rhs, &mut value, out, -1.0);
        }
        if cols[q].at == At::Upper {
            shift(&mut rhs, &mut value, &cols[q], 1.0);
        }
        cols[q].at = At::Basic;
        basis[r] = q;
    }
    Cancel::Unfinished(basis.map(|b| cols[b].var))
}

/// Moves `sign` times the column's range between the right-hand side and the value: `-1` when
/// the column goes to its upper bound, `+1` when it leaves it.
fn shift(rhs: &mut [f64; 3], value: &mut f64, c: &Column, sign: f64) {
    for (b, a) in rhs.iter_mut().zip(c.a) {
        *b += sign * a * c.range;
    }
    *value -= sign * c.cost * c.range;
}

/// `B⁻¹` for the basis `B` whose columns are `cols` (it maps a right-hand side to the basic
/// values; its rows give the pivot rows), `None` when `B` is numerically singular.
fn inverse(cols: [[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let b = |i: usize, j: usize| cols[j][i];
    let cof = |i: usize, j: usize| {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        b(i1, j1) * b(i2, j2) - b(i1, j2) * b(i2, j1)
    };
    let det = b(0, 0) * cof(0, 0) + b(0, 1) * cof(0, 1) + b(0, 2) * cof(0, 2);
    let scale = cols
        .iter()
        .map(|c| c.iter().map(|v| v.abs()).fold(0.0, f64::max))
        .product::<f64>();
    // A NaN determinant counts as singular.
    if det.is_nan() || det.abs() <= 1e-12 * scale.max(1e-300) {
        return None;
    }
    // inv[i][j] = cof(j, i) / det.
    Some(std::array::from_fn(|i| {
        std::array::from_fn(|j| cof(j, i) / det)
    }))
}

#[cfg(test)]
mod tests {
    use super::super::relax::{directional, Bound, Relaxed};
    use super::super::search::rim_search;
    use super::super::socp::Socp;
    use super::super::tests::random_item;
    use super::super::{Item, Knapsack};
    use super::*;
    use crate::solver::{solve, Bounds, Deadline, HighsSettings, LinearModel, LinearStatus, Sense};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_node(rng: &mut ChaCha8Rng) -> (Knapsack, Vec<u32>, Vec<u32>) {
        let n = rng.random_range(6..12);
        // Small amplitudes cancel easily, large ones rarely: both kinds of node occur.
        let wide = rng.random_bool(0.5);
        let items: Vec<Item> = (0..n)
            .map(|j| {
                let profit = rng.random_range(0.1..1.0);
                let mut it = random_item(rng, j, 0.5..6.0, profit, 4);
                if !wide {
                    (it.x, it.y) = (it.x * 0.05, it.y * 0.05);
                }
                it
            })
            .collect();
        let (mut lower, mut upper) = (vec![0; n], vec![0; n]);
        for j in 0..n {
            upper[j] = rng.random_range(0..=4);
            lower[j] = u32::from(upper[j] > 0 && rng.random_bool(0.15));
        }
        let k = Knapsack::new(rng.random_range(8.0..20.0), items);
        (k, lower, upper)
    }

    /// The same LP by HiGHS: `max π·U` over the box, `c(U) ≤ C`, `v(U) = 0`.
    fn by_highs(k: &Knapsack, lower: &[u32], upper: &[u32]) -> Option<f64> {
        let mut m = LinearModel::new(Sense::Maximize);
        let rows = [
            m.add_row("capacity", Bounds::at_most(k.capacity)),
            m.add_row("x", Bounds::equal(0.0)),
            m.add_row("y", Bounds::equal(0.0)),
        ];
        for (j, it) in k.items.iter().enumerate() {
            let b = Bounds::new(f64::from(lower[j]), f64::from(upper[j]));
            let entries = vec![(rows[0], it.mean), (rows[1], it.x), (rows[2], it.y)];
            m.add_col(format!("u{j}"), it.profit, b, false, entries);
        }
        let out = solve(&m, &HighsSettings::default(), &Deadline::none(), None).unwrap();
        match out.status {
            LinearStatus::Optimal => out.objective,
            LinearStatus::Infeasible => None,
            s => panic!("HiGHS: {s:?}"),
        }
    }

    /// From the slack basis and warm from a parent's basis, the dual simplex agrees with HiGHS
    /// on the value and on infeasibility; when the duals lie in the cone, the directional bound
    /// at `μ / λ` equals the LP value and Clarabel's SOCP value (the relaxation cancels the
    /// phases), otherwise the SOCP value is at least the LP value.
    #[test]
    fn the_cancelling_lp_agrees_with_highs_and_clarabel() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut inside, mut outside, mut infeasible) = (0, 0, 0);
        for _ in 0..300 {
            let (k, lower, upper) = random_node(&mut rng);
            let n = k.items.len();
            let view = NodeView::new(&k, &lower, &upper);
            let cold = cancel(&view, slack_basis(n));
            let expected = by_highs(&k, &lower, &upper);
            // Warm: the optimal (or last) basis of the whole box, as a parent's.
            let ub: Vec<u32> = k.items.iter().map(|it| it.ub).collect();
            let zero = vec![0; n];
            let parent = cancel(&NodeView::new(&k, &zero, &ub), slack_basis(n));
            let warm = parent.basis().map(|b| cancel(&view, b));
            for got in [Some(cold.clone()), warm].into_iter().flatten() {
                match (&got, expected) {
                    (Cancel::Optimal { value, .. }, Some(v)) => {
                        assert!(
                            (value - v).abs() < 1e-6 * v.abs().max(1.0),
                            "{value} vs {v}"
                        )
                    }
                    (Cancel::Infeasible(_), None) => {}
                    (g, e) => panic!("dual simplex {g:?}, HiGHS {e:?}"),
                }
            }
            let socp = Socp::new(&k, &Deadline::none())
                .unwrap()
                .solve(&k, &lower, &upper, Bound::Fractional)
                .unwrap();
            let Cancel::Optimal { value, .. } = cold else {
                infeasible += 1;
                continue;
            };
            let Relaxed::Bounded { bound: socp, .. } = socp else {
                panic!("Clarabel found no bound on a node whose LP is feasible: {socp:?}");
            };
            let tol = 1e-5 * value.abs().max(1.0);
            assert!(socp >= value - tol, "SOCP {socp} below the LP {value}");
            match cold.direction() {
                Some(e) => {
                    inside += 1;
                    let (at, _) = directional(&k, &lower, &upper, e, Bound::Fractional).unwrap();
                    assert!((at - value).abs() < tol, "bound {at} at e*, LP {value}");
                    assert!(
                        (socp - value).abs() < 1e-4 * value.abs().max(1.0),
                        "{socp} {value}"
                    );
                }
                None => outside += 1,
            }
        }
        // Every case is exercised.
        assert!(
            inside > 20 && outside > 20 && infeasible > 20,
            "{inside} {outside} {infeasible}"
        );
    }

    /// Where the LP says the relaxation does not cancel the phases, the rim search started a
    /// little off the SOCP's direction finds the SOCP value (within its angular resolution),
    /// and its bound is never below the SOCP value: a one-dimensional search suffices there.
    #[test]
    fn the_rim_search_finds_the_socp_value_where_the_lp_says_rim() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut checked = 0;
        for _ in 0..300 {
            let (k, lower, upper) = random_node(&mut rng);
            let view = NodeView::new(&k, &lower, &upper);
            let lp = cancel(&view, slack_basis(k.items.len()));
            if lp.direction().is_some() {
                continue;
            }
            let socp = Socp::new(&k, &Deadline::none())
                .unwrap()
                .solve(&k, &lower, &upper, Bound::Fractional)
                .unwrap();
            let Relaxed::Bounded {
                bound: socp,
                dir: Some(e),
                ..
            } = socp
            else {
                continue;
            };
            let t = e[1].atan2(e[0]) + rng.random_range(-0.3..0.3);
            let found = rim_search(
                &view,
                [t.cos(), t.sin()],
                None,
                f64::NEG_INFINITY,
                Bound::Fractional,
            );
            let Relaxed::Bounded { bound, .. } = found else {
                panic!("no bound from the rim search: {found:?}");
            };
            let tol = 1e-6 * socp.abs().max(1.0);
            assert!(
                bound >= socp - tol,
                "rim bound {bound} below the SOCP {socp}"
            );
            assert!(
                bound <= socp + 2e-3 * socp.abs().max(1.0),
                "rim {bound}, SOCP {socp}"
            );
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }
}
