//! Exact branch-and-bound for the periodic knapsack.
//!
//! Nodes are boxes `l ≤ U ≤ u`, tightened by feasibility on arrival. Each node is first
//! screened with its parent's direction (one fractional knapsack); survivors get a full
//! relaxation — Clarabel's SOCP (`knapsack_socp.rs`), or its directional dual
//! (`knapsack_relax.rs`) at the direction of the node's cancelling LP (`knapsack_lp.rs`, warm
//! from the parent's basis) when the relaxation cancels the phases, else minimised along the
//! rim or over the disc — and, near the target, the integer row along its direction
//! (`knapsack_rows.rs`). Incumbents come from rounding the relaxation down (peaks are
//! monotone: every task's demand is non-negative) and completing greedily. Branching: the
//! most fractional variable; the search dives on up-branches and then resumes at the open node
//! of highest bound (`Search::best_first`), or depth first.
//!
//! Pruning is against `max(incumbent, threshold)`: a pricing only needs columns worth more than
//! the threshold, so a complete search proves `optimum ≤ max(best, threshold)`.

use super::lp::{cancel, slack_basis, Basis, Cancel};
use super::relax::{fix_by_reduced_costs, Bound, NodeView, Relaxed};
use super::rows::{may_beat, BUDGET, GATE, ROW_TRIAL, ROW_YIELD};
use super::search::{directional_search, disc_search, rim_search};
use super::socp::Socp;
use super::Knapsack;
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Which relaxation solves the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeSolver {
    /// Clarabel's interior point on every node.
    Clarabel,
    /// Clarabel at the root, the directional dual (disc search) below it.
    Directional,
}

impl std::str::FromStr for NodeSolver {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "clarabel" => Ok(NodeSolver::Clarabel),
            "directional" => Ok(NodeSolver::Directional),
            _ => Err(format!(
                "unknown node relaxation `{s}`; expected clarabel or directional"
            )),
        }
    }
}

/// Limits and options of one search.
#[derive(Debug, Clone, Copy)]
pub struct Search {
    /// Solutions worth more than this are collected, and nodes below it are pruned.
    pub threshold: f64,
    /// Incumbents worth more than this (at most `threshold`) are collected in `improving`: a
    /// caller can prune at the value that settles its question while keeping every column
    /// that improves.
    pub keep_above: f64,
    /// Stop once this many improving solutions are known (nothing is proven then).
    pub stop_after: Option<usize>,
    /// Stop once an improving solution has been known for this many nodes (nothing is proven
    /// then): a partial search that finds one column and then no other can otherwise run for
    /// millions of nodes.
    pub patience: Option<u64>,
    /// Cap on relaxations solved.
    pub node_limit: u64,
    /// Node relaxation.
    pub solver: NodeSolver,
    /// Bound of the knapsack along a direction (the directional relaxation and the screen).
    pub bound: Bound,
    /// With the directional node solver: start the root's disc search here instead of
    /// solving the root SOCP with Clarabel (e.g. the previous pricing's root direction).
    pub root_hint: Option<[f64; 2]>,
    /// Reduced-cost fixing at every node (see [`fix_by_reduced_costs`]).
    pub fixing: bool,
    /// Feasibility-based bound tightening at every node (see [`Knapsack::tighten`]).
    pub tighten: bool,
    /// Prune nodes whose integer knapsack along the relaxation's direction cannot beat the
    /// target (see [`super::rows`]; after reduced-cost fixing, so only with `fixing`).
    pub integer_rows: bool,
    /// With the directional node solver: solve each node's cancelling LP (see
    /// [`super::lp`]) and take its direction when the relaxation cancels the phases;
    /// when it does not and the parent's direction is on the rim, search the rim
    /// ([`rim_search`]) instead of the disc.
    pub cancel_lp: bool,
    /// Node order: dive on up-branches, then resume at the open node of highest bound (instead
    /// of depth first throughout).
    pub best_first: bool,
}

impl Default for Search {
    /// A complete search (no stop, no node cap) above 0, with every option on.
    fn default() -> Self {
        Search {
            threshold: 0.0,
            keep_above: 0.0,
            stop_after: None,
            patience: None,
            node_limit: u64::MAX,
            solver: NodeSolver::Directional,
            bound: Bound::Integer,
            root_hint: None,
            fixing: true,
            tighten: true,
            integer_rows: true,
            cancel_lp: true,
            best_first: true,
        }
    }
}

/// The answer of the branch-and-bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// Best count vector found.
    pub best: Vec<u32>,
    /// Its value.
    pub value: f64,
    /// A proven upper bound on the optimum (`None` when the search stopped early).
    pub proven_max: Option<f64>,
    /// Every incumbent found worth more than `keep_above`, best last.
    pub improving: Vec<(Vec<u32>, f64)>,
    /// Relaxations solved.
    pub nodes: u64,
    /// When the search stopped early: a bound on the optimum all the same, the largest of the
    /// best value, the threshold and the bounds of the nodes left open (every node it did not
    /// explore lies below one of them, and it pruned only below the threshold or the best);
    /// `None` when complete or when a node without a bound was left (the root).
    pub open_bound: Option<f64>,
    /// The root relaxation's bound (valid for the whole knapsack, proven or not) and direction.
    pub root: Option<(f64, Option<[f64; 2]>)>,
}

struct Node {
    lower: Vec<u32>,
    upper: Vec<u32>,
    bound: f64,
    dir: Option<[f64; 2]>,
    /// The parent's cancelling-LP basis.
    basis: Option<Basis>,
}

/// Most nodes the best-first queue holds (about 1 kB each on 100 items); beyond, new nodes
/// join the dive stack, i.e. the search goes on depth first and memory stays bounded.
const QUEUE_CAP: usize = 100_000;

/// The open nodes: the current dive (a stack, always popped first) and, best first, the nodes
/// the dives left behind. Depth-first search uses the stack alone.
struct Open {
    dive: Vec<Node>,
    queue: std::collections::BinaryHeap<Queued>,
    pushed: u64,
    best_first: bool,
}

/// A node waiting in the queue: highest bound first, the latest among equals.
struct Queued {
    bound: f64,
    seq: u64,
    node: Node,
}

impl Ord for Queued {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.bound.total_cmp(&o.bound).then(self.seq.cmp(&o.seq))
    }
}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl PartialEq for Queued {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o).is_eq()
    }
}
impl Eq for Queued {}

impl Open {
    fn new(root: Node, best_first: bool) -> Self {
        Open {
            dive: vec![root],
            queue: Default::default(),
            pushed: 0,
            best_first,
        }
    }

    fn pop(&mut self) -> Option<Node> {
        self.dive.pop().or_else(|| self.queue.pop().map(|q| q.node))
    }

    /// The largest bound of an open node (`−∞` when none is open).
    fn max_bound(&self) -> f64 {
        self.dive
            .iter()
            .map(|n| n.bound)
            .chain(self.queue.peek().map(|q| q.bound))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The two children of a node: the dive goes on with `up`; `down` waits in the queue
    /// (best first, while it has room) or under `up` on the stack.
    fn branch(&mut self, down: Node, up: Node) {
        if self.best_first && self.queue.len() < QUEUE_CAP {
            self.pushed += 1;
            self.queue.push(Queued {
                bound: down.bound,
                seq: self.pushed,
                node: down,
            });
        } else {
            self.dive.push(down);
        }
        self.dive.push(up);
    }
}

/// `⌊v⌋` of a non-negative amount, 0 below zero: a saturating cast, where `floor` is a libm
/// call on baseline x86-64 (2% of a large-task profile).
#[inline]
fn whole(v: f64) -> u32 {
    v as u32
}

/// Maximises `k` starting from `incumbent`.
pub fn branch_and_bound(
    k: &Knapsack,
    incumbent: Vec<u32>,
    search: &Search,
    deadline: &Deadline,
) -> Result<Solved> {
    let n = k.items.len();
    let lower = k.lower_bounds();
    // A start that breaks a conflict or leaves the box is no start; the box's corner is one
    // when it fits, and a box whose corner does not fit holds no column.
    let in_box = |u: &[u32]| u.len() == n && u.iter().zip(&lower).all(|(a, l)| a >= l);
    let incumbent = if k.compatible(&incumbent) && in_box(&incumbent) {
        incumbent
    } else if k.compatible(&lower) && k.fits(&lower) {
        lower.clone()
    } else {
        return Ok(Solved {
            best: lower,
            value: f64::NEG_INFINITY,
            proven_max: Some(search.threshold),
            improving: Vec::new(),
            nodes: 0,
            open_bound: None,
            root: None,
        });
    };
    let mut best_value = k.value(&incumbent);
    let mut best = incumbent;
    let mut improving = Vec::new();
    if best_value > search.keep_above {
        improving.push((best.clone(), best_value));
    }
    let ub: Vec<u32> = k.items.iter().map(|i| i.ub).collect();
    if n == 0 {
        return Ok(Solved {
            best,
            value: best_value,
            proven_max: Some(best_value.max(search.threshold)),
            improving,
            nodes: 0,
            open_bound: None,
            root: None,
        });
    }
    // Built on first use: a search whose root starts from a hint never needs it.
    let mut socp: Option<Socp> = None;
    let mut open = Open::new(
        Node {
            lower,
            upper: ub,
            bound: f64::INFINITY,
            dir: None,
            basis: None,
        },
        search.best_first,
    );
    let mut nodes = 0u64;
    let eps = |v: f64| 1e-9 * v.abs().max(1.0);
    let mut complete = true;
    let mut root = None;
    let mut first_found: Option<u64> = None;
    // The bound of the node popped when the search stops early (it is open too).
    let mut left_open = f64::NEG_INFINITY;
    // Integer-row tests so far, and how many pruned.
    let (mut row_tests, mut row_prunes) = (0u64, 0u64);
    while let Some(mut node) = open.pop() {
        if first_found.is_none() && !improving.is_empty() {
            first_found = Some(nodes);
        }
        let bored = match (search.patience, first_found) {
            (Some(p), Some(f)) => nodes >= f.saturating_add(p),
            _ => false,
        };
        if bored || search.stop_after.is_some_and(|s| improving.len() >= s) {
            complete = false;
            left_open = node.bound;
            break;
        }
        let target = best_value.max(search.threshold);
        if node.bound <= target + eps(target) {
            continue;
        }
        if search.tighten && !k.tighten(&node.lower, &mut node.upper) {
            continue;
        }
        if !k.exclude_conflicts(&node.lower, &mut node.upper) {
            continue;
        }
        let view = NodeView::new(k, &node.lower, &node.upper);
        let mut at_parent = None;
        if let Some(e) = node.dir {
            match view.screen(e, search.bound) {
                None => continue,
                Some((b, _)) if b <= target + eps(target) => continue,
                Some((_, p)) => at_parent = Some(p),
            }
        }
        if nodes >= search.node_limit || deadline.expired() {
            complete = false;
            left_open = node.bound;
            break;
        }
        nodes += 1;
        // The cancelling LP, warm from the parent's basis; `inside` is its direction when the
        // relaxation cancels the phases. Without amplitudes (classic bin packing) there is no
        // phasor to cancel and the disc search evaluates the origin once.
        let lp = (search.cancel_lp && search.solver == NodeSolver::Directional && !view.flat())
            .then(|| cancel(&view, node.basis.unwrap_or_else(|| slack_basis(n))));
        let inside = lp.as_ref().and_then(Cancel::direction);
        let rim = lp.is_some() && node.dir.is_some_and(|e| e[0] * e[0] + e[1] * e[1] > 0.999);
        let relaxed = match (search.solver, nodes == 1) {
            (NodeSolver::Directional, true) if search.root_hint.is_some() => directional_search(
                k,
                &node.lower,
                &node.upper,
                search.root_hint,
                f64::NEG_INFINITY,
                search.bound,
            ),
            (NodeSolver::Clarabel, _) | (NodeSolver::Directional, true) => {
                let socp = match &mut socp {
                    Some(s) => s,
                    None => socp.insert(Socp::new(k, deadline)?),
                };
                let r = socp.solve(k, &node.lower, &node.upper, search.bound)?;
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
            (NodeSolver::Directional, false) if inside.is_some() => {
                view.relaxed_at(inside.expect("checked"), search.bound, f64::INFINITY)
            }
            (NodeSolver::Directional, false) if rim => rim_search(
                &view,
                node.dir.expect("checked"),
                at_parent,
                target + eps(target),
                search.bound,
            ),
            (NodeSolver::Directional, false) => disc_search(
                &view,
                node.dir,
                at_parent,
                target + eps(target),
                search.bound,
            ),
        };
        let (bound, x, dir) = match relaxed {
            Relaxed::Infeasible => continue,
            Relaxed::Bounded { bound, x, dir } => (bound.min(node.bound), Some(x), dir),
            Relaxed::Unreliable => (node.bound, None, node.dir),
        };
        if nodes == 1 {
            root = Some((bound, dir));
        }
        if bound <= target + eps(target) {
            continue;
        }
        let mut consider = |u: Vec<u32>, best: &mut Vec<u32>, best_value: &mut f64| {
            if !k.compatible(&u) {
                return;
            }
            let v = k.value(&u);
            if v > *best_value {
                *best_value = v;
                *best = u;
                if v > search.keep_above {
                    improving.push((best.clone(), v));
                }
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
                consider(u, &mut best, &mut best_value);
            }
            if let (Some(e), true) = (dir, search.fixing) {
                let target = best_value.max(search.threshold);
                let Some(fixing) = fix_by_reduced_costs(&view, e, target + eps(target)) else {
                    continue;
                };
                for (i, l, u) in fixing.bounds {
                    node.lower[i] = l;
                    node.upper[i] = u;
                }
                // The integer row along `e` (see `knapsack_rows`), unless Dantzig's rounded point
                // already beats the target along it (the test would keep the node), the bound is
                // far above the target, or the tests have stopped paying in this search.
                if search.integer_rows
                    && fixing.rounded <= target + eps(target)
                    && bound - target < GATE * target.abs()
                    && (row_tests < ROW_TRIAL || row_prunes * ROW_YIELD >= row_tests)
                {
                    row_tests += 1;
                    let fixed = NodeView::new(k, &node.lower, &node.upper);
                    if !may_beat(&fixed, e, target + eps(target), BUDGET) {
                        row_prunes += 1;
                        continue;
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
                            consider(r, &mut best, &mut best_value);
                            continue;
                        }
                        // It takes both items of a conflict: one of them is left out (an
                        // item already taken has its conflicts excluded, so one is free).
                        Some((a, b)) => {
                            let free = if node.lower[a] == 0 { a } else { b };
                            branch_on = (node.lower[free] == 0 && node.upper[free] > 0)
                                .then_some((free, 0));
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
            continue;
        };
        let split = split.clamp(node.lower[i], node.upper[i] - 1);
        let mut down_upper = node.upper.clone();
        down_upper[i] = split;
        let mut up_lower = node.lower.clone();
        up_lower[i] = split + 1;
        let basis = lp.as_ref().and_then(Cancel::basis).or(node.basis);
        open.branch(
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
        );
    }
    log::debug!("knapsack: {n} items, best {best_value:.6}, {nodes} nodes, complete {complete}");
    let top = best_value.max(search.threshold);
    let proven_max = complete.then(|| top + eps(top));
    let open_bound = if complete {
        None
    } else {
        let open = open.max_bound().max(left_open);
        open.is_finite().then(|| open.max(top + eps(top)))
    };
    Ok(Solved {
        best,
        value: best_value,
        proven_max,
        improving,
        nodes,
        open_bound,
        root,
    })
}
