//! One node of the branch-and-bound (`bnb.rs`): screened, relaxed, rounded to an incumbent,
//! fixed by reduced costs, tested by the integer row, and split. A pure function of the node,
//! the target and the search options, so the search may expand several nodes at once
//! (`Search::batch`) and still visit them in the same order on every run.

use super::bnb::{NodeSolver, Search};
use super::lp::{cancel, slack_basis, Basis, Cancel};
use super::relax::{fix_by_reduced_costs, NodeView, Relaxed};
use super::rows::{may_beat, BUDGET};
use super::search::{directional_search, disc_search, rim_search};
use super::socp::Socp;
use super::Knapsack;
use crate::error::Result;
use crate::solver::Deadline;

/// A box `lower ≤ U ≤ upper` with its parent's bound, direction and cancelling-LP basis.
pub(super) struct Node {
    pub lower: Vec<u32>,
    pub upper: Vec<u32>,
    pub bound: f64,
    pub dir: Option<[f64; 2]>,
    /// The parent's cancelling-LP basis.
    pub basis: Option<Basis>,
}

/// What expanding a node gave. Consumed at once, one per node: boxing the large variant
/// would cost an allocation per node for nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Expanded {
    /// Pruned before its relaxation (not counted as a node).
    Pruned,
    /// The node limit or the deadline came first: the node, of this bound, stays open.
    Halted(f64),
    /// Its relaxation was solved.
    Solved(Outcome),
}

/// A solved node.
pub(super) struct Outcome {
    /// The relaxation's bound and direction (none when it proved the box empty).
    pub relaxed: Option<(f64, Option<[f64; 2]>)>,
    /// Compatible count vectors found at the node, in the order found.
    pub found: Vec<Vec<u32>>,
    /// Whether the integer row was tested, and whether it pruned the node.
    pub row_test: Option<bool>,
    /// The children `(down, up)`.
    pub children: Option<(Node, Node)>,
}

/// `⌊v⌋` of a non-negative amount, 0 below zero: a saturating cast, where `floor` is a libm
/// call on baseline x86-64 (2% of a large-task profile).
#[inline]
pub(super) fn whole(v: f64) -> u32 {
    v as u32
}

/// The pruning margin at a target.
#[inline]
pub(super) fn eps(v: f64) -> f64 {
    1e-9 * v.abs().max(1.0)
}

/// What a node's expansion reads besides the node.
pub(super) struct Ctx<'a> {
    pub k: &'a Knapsack,
    pub search: &'a Search,
    pub deadline: &'a Deadline,
}

/// Expands `node` against `target` (the best value found, or the search's threshold when
/// higher). `rows` says whether the integer row may be tested. `gate` is asked once the node
/// has survived its screens: `None` halts (node limit, deadline), `Some(root)` goes on, `root`
/// when this is the search's first relaxation. `socp` is Clarabel's node program, built on
/// first use (without one, a node that would need it gets the disc search instead).
pub(super) fn expand(
    cx: &Ctx,
    mut node: Node,
    target: f64,
    rows: bool,
    gate: &mut dyn FnMut() -> Option<bool>,
    socp: Option<&mut Option<Socp>>,
) -> Result<Expanded> {
    let (k, search) = (cx.k, cx.search);
    let n = k.items.len();
    if node.bound <= target + eps(target) {
        return Ok(Expanded::Pruned);
    }
    if search.tighten && !k.tighten(&node.lower, &mut node.upper) {
        return Ok(Expanded::Pruned);
    }
    if !k.exclude_conflicts(&node.lower, &mut node.upper) {
        return Ok(Expanded::Pruned);
    }
    let view = NodeView::new(k, &node.lower, &node.upper);
    let mut at_parent = None;
    if let Some(e) = node.dir {
        match view.screen(e, search.bound) {
            None => return Ok(Expanded::Pruned),
            Some((b, _)) if b <= target + eps(target) => return Ok(Expanded::Pruned),
            Some((_, p)) => at_parent = Some(p),
        }
    }
    let Some(root) = gate() else {
        return Ok(Expanded::Halted(node.bound));
    };
    // The cancelling LP, warm from the parent's basis; `inside` is its direction when the
    // relaxation cancels the phases. Without amplitudes (classic bin packing) there is no
    // phasor to cancel and the disc search evaluates the origin once.
    let lp = (search.cancel_lp && search.solver == NodeSolver::Directional && !view.flat())
        .then(|| cancel(&view, node.basis.unwrap_or_else(|| slack_basis(n))));
    let inside = lp.as_ref().and_then(Cancel::direction);
    let rim = lp.is_some() && node.dir.is_some_and(|e| e[0] * e[0] + e[1] * e[1] > 0.999);
    let clarabel = search.solver == NodeSolver::Clarabel || root;
    let relaxed = match (socp, clarabel) {
        (_, true) if search.solver == NodeSolver::Directional && search.root_hint.is_some() => {
            directional_search(
                k,
                &node.lower,
                &node.upper,
                search.root_hint,
                f64::NEG_INFINITY,
                search.bound,
            )
        }
        (Some(slot), true) => {
            let program = match slot {
                Some(s) => s,
                None => slot.insert(Socp::new(k, cx.deadline)?),
            };
            let r = program.solve(k, &node.lower, &node.upper, search.bound)?;
            match (search.solver, r) {
                // At the root, polish Clarabel's direction with the angle search.
                (NodeSolver::Directional, Relaxed::Bounded { bound, dir, x }) => {
                    match directional_search(
                        k,
                        &node.lower,
                        &node.upper,
                        dir,
                        f64::NEG_INFINITY,
                        search.bound,
                    ) {
                        Relaxed::Bounded {
                            bound: b2,
                            x: x2,
                            dir: d2,
                        } if b2 < bound => Relaxed::Bounded {
                            bound: b2,
                            x: x2,
                            dir: d2,
                        },
                        Relaxed::Infeasible => Relaxed::Infeasible,
                        _ => Relaxed::Bounded { bound, x, dir },
                    }
                }
                (_, r) => r,
            }
        }
        _ if inside.is_some() => {
            view.relaxed_at(inside.expect("checked"), search.bound, f64::INFINITY)
        }
        _ if rim => rim_search(
            &view,
            node.dir.expect("checked"),
            at_parent,
            target + eps(target),
            search.bound,
        ),
        _ => disc_search(
            &view,
            node.dir,
            at_parent,
            target + eps(target),
            search.bound,
        ),
    };
    let (bound, x, dir) = match relaxed {
        Relaxed::Infeasible => {
            return Ok(Expanded::Solved(Outcome {
                relaxed: None,
                found: Vec::new(),
                row_test: None,
                children: None,
            }))
        }
        Relaxed::Bounded { bound, x, dir } => (bound.min(node.bound), Some(x), dir),
        Relaxed::Unreliable => (node.bound, None, node.dir),
    };
    let mut out = Outcome {
        relaxed: Some((bound, dir)),
        found: Vec::new(),
        row_test: None,
        children: None,
    };
    if bound <= target + eps(target) {
        return Ok(Expanded::Solved(out));
    }
    // The target rises with what this node finds, as the caller's will.
    let mut target = target;
    let consider = |u: Vec<u32>, target: &mut f64, found: &mut Vec<Vec<u32>>| {
        if k.compatible(&u) {
            *target = target.max(k.value(&u));
            found.push(u);
        }
    };
    let mut branch_on: Option<(usize, u32)> = None;
    if let Some(x) = &x {
        // Incumbent: round down, repair tolerance overflows, complete greedily.
        let mut u: Vec<u32> = (0..n)
            .map(|i| whole(x[i] + 1e-9).clamp(node.lower[i], node.upper[i]))
            .collect();
        while !k.fits(&u) {
            let Some(i) = (0..n)
                .filter(|&i| u[i] > node.lower[i])
                .max_by(|&a, &b| k.items[a].mean.total_cmp(&k.items[b].mean))
            else {
                break;
            };
            u[i] -= 1;
        }
        if k.fits(&u) {
            k.complete_among(&mut u, &node.upper, view.free().iter().copied());
            consider(u, &mut target, &mut out.found);
        }
        if let (Some(e), true) = (dir, search.fixing) {
            let Some(fixing) = fix_by_reduced_costs(&view, e, target + eps(target)) else {
                return Ok(Expanded::Solved(out));
            };
            for (i, l, u) in fixing.bounds {
                node.lower[i] = l;
                node.upper[i] = u;
            }
            // The integer row along `e` (see `knapsack_rows`), unless Dantzig's rounded point
            // already beats the target along it (the test would keep the node), the bound is
            // far above the target, or the tests have stopped paying in this search.
            if rows
                && fixing.rounded <= target + eps(target)
                && bound - target < super::rows::GATE * target.abs()
            {
                let fixed = NodeView::new(k, &node.lower, &node.upper);
                let pruned = !may_beat(&fixed, e, target + eps(target), BUDGET);
                out.row_test = Some(pruned);
                if pruned {
                    return Ok(Expanded::Solved(out));
                }
            }
        }
        let mut most = 1e-6;
        for (i, &v) in x.iter().enumerate() {
            // Distance to the nearest integer (negative for a solver's round-off below 0).
            let frac = v - f64::from(whole(v));
            let f = frac.min(1.0 - frac);
            if f > most && node.lower[i] < node.upper[i] {
                most = f;
                branch_on = Some((i, whole(v)));
            }
        }
        if branch_on.is_none() {
            // Integral relaxation point: optimal for the node if it truly fits.
            let r: Vec<u32> = (0..n)
                .map(|i| (x[i].round().max(0.0) as u32).clamp(node.lower[i], node.upper[i]))
                .collect();
            if k.fits(&r) {
                match k.conflict_in(&r) {
                    None => {
                        consider(r, &mut target, &mut out.found);
                        return Ok(Expanded::Solved(out));
                    }
                    // It takes both items of a conflict: one of them is left out (an
                    // item already taken has its conflicts excluded, so one is free).
                    Some((a, b)) => {
                        let free = if node.lower[a] == 0 { a } else { b };
                        branch_on =
                            (node.lower[free] == 0 && node.upper[free] > 0).then_some((free, 0));
                    }
                }
            } else {
                // It overflows by a linearisation or tolerance error: split its largest
                // entry.
                branch_on = (0..n)
                    .filter(|&i| node.lower[i] < node.upper[i] && r[i] > node.lower[i])
                    .max_by(|&a, &b| x[a].total_cmp(&x[b]))
                    .map(|i| (i, r[i] - 1));
            }
        }
    }
    if branch_on.is_none() {
        branch_on = (0..n)
            .find(|&i| node.lower[i] < node.upper[i])
            .map(|i| (i, node.lower[i] + (node.upper[i] - node.lower[i] - 1) / 2));
    }
    let Some((i, split)) = branch_on else {
        return Ok(Expanded::Solved(out));
    };
    let split = split.clamp(node.lower[i], node.upper[i] - 1);
    let mut down_upper = node.upper.clone();
    down_upper[i] = split;
    let mut up_lower = node.lower.clone();
    up_lower[i] = split + 1;
    let basis = lp.as_ref().and_then(Cancel::basis).or(node.basis);
    out.children = Some((
        Node {
            lower: node.lower,
            upper: down_upper,
            bound,
            dir,
            basis,
        },
        Node {
            lower: up_lower,
            upper: node.upper,
            bound,
            dir,
            basis,
        },
    ));
    Ok(Expanded::Solved(out))
}
