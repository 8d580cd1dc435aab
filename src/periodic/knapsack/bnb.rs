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

use super::expand::{eps, expand, Ctx, Expanded, Node};
use super::relax::Bound;
use super::rows::{ROW_TRIAL, ROW_YIELD};
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
    /// What counts as improving for `stop_after` and `patience`: every solution kept (worth
    /// more than `keep_above`), or (`false`) only those worth more than `threshold` — then the
    /// ones in between are kept but the search goes on to the proof that nothing beats
    /// `threshold`, when that proof is what its caller needs most.
    pub stop_on_kept: bool,
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
    /// Past the root, expand this many nodes at a time in parallel on the current rayon pool
    /// (0 or 1: one at a time). The visits depend on this number, not on the threads.
    pub batch: usize,
}

impl Search {
    /// Whether a solution worth `v` counts for `stop_after` and `patience`.
    fn counts(&self, v: f64) -> bool {
        v > if self.stop_on_kept {
            self.keep_above
        } else {
            self.threshold
        }
    }
}

impl Default for Search {
    /// A complete search (no stop, no node cap) above 0, with every option on.
    fn default() -> Self {
        Search {
            threshold: 0.0,
            keep_above: 0.0,
            stop_after: None,
            patience: None,
            stop_on_kept: true,
            node_limit: u64::MAX,
            solver: NodeSolver::Directional,
            bound: Bound::Integer,
            root_hint: None,
            fixing: true,
            tighten: true,
            integer_rows: true,
            cancel_lp: true,
            best_first: true,
            batch: 0,
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

    fn is_empty(&self) -> bool {
        self.dive.is_empty() && self.queue.is_empty()
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
    let best_value = k.value(&incumbent);
    let best = incumbent;
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
    let open = Open::new(
        Node {
            lower,
            upper: ub,
            bound: f64::INFINITY,
            dir: None,
            basis: None,
        },
        search.best_first,
    );
    let cx = Ctx {
        k,
        search,
        deadline,
    };
    let mut run = Run {
        open,
        best,
        best_value,
        improving,
        nodes: 0,
        complete: true,
        root: None,
        left_open: f64::NEG_INFINITY,
        row_tests: 0,
        row_prunes: 0,
        beating: usize::from(search.counts(best_value)),
        first_found: None,
    };
    if search.batch > 1 && search.solver == NodeSolver::Directional {
        run.batched(&cx, &mut socp)?;
    } else {
        run.one_by_one(&cx, &mut socp, false)?;
    }
    let Run {
        open,
        best,
        best_value,
        improving,
        nodes,
        complete,
        root,
        left_open,
        ..
    } = run;
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

/// The state of one search.
struct Run {
    open: Open,
    best: Vec<u32>,
    best_value: f64,
    improving: Vec<(Vec<u32>, f64)>,
    /// Relaxations solved.
    nodes: u64,
    complete: bool,
    root: Option<(f64, Option<[f64; 2]>)>,
    /// The bound of a node left unexpanded when the search stopped early (it is open too).
    left_open: f64,
    /// Integer-row tests so far, and how many pruned.
    row_tests: u64,
    row_prunes: u64,
    /// Solutions found that count as improving (see [`Search::stop_on_kept`]).
    beating: usize,
    /// Relaxations solved when the first of them was known.
    first_found: Option<u64>,
}

impl Run {
    /// Whether a partial search has what it came for (enough columns, or no new one for its
    /// patience).
    fn satisfied(&mut self, search: &Search) -> bool {
        if self.first_found.is_none() && self.beating > 0 {
            self.first_found = Some(self.nodes);
        }
        let bored = match (search.patience, self.first_found) {
            (Some(p), Some(f)) => self.nodes >= f.saturating_add(p),
            _ => false,
        };
        bored || search.stop_after.is_some_and(|s| self.beating >= s)
    }

    /// The target nodes must beat, and whether the integer row is still worth testing.
    fn target(&self, search: &Search) -> (f64, bool) {
        let rows = search.integer_rows
            && (self.row_tests < ROW_TRIAL || self.row_prunes * ROW_YIELD >= self.row_tests);
        (self.best_value.max(search.threshold), rows)
    }

    /// Takes in an expanded node: a solved one's relaxation (the root's, when it is the first),
    /// what it found and its children. `false` when it halted (it stays open, the search is
    /// incomplete).
    fn take(&mut self, k: &Knapsack, search: &Search, expanded: Expanded) -> bool {
        let o = match expanded {
            Expanded::Pruned => return true,
            Expanded::Halted(bound) => {
                self.complete = false;
                self.left_open = self.left_open.max(bound);
                return false;
            }
            Expanded::Solved(o) => o,
        };
        self.nodes += 1;
        if self.nodes == 1 {
            self.root = o.relaxed;
        }
        for u in o.found {
            let v = k.value(&u);
            if v > self.best_value {
                self.best_value = v;
                self.best = u;
                if v > search.keep_above {
                    self.improving.push((self.best.clone(), v));
                }
                self.beating += usize::from(search.counts(v));
            }
        }
        if let Some(pruned) = o.row_test {
            self.row_tests += 1;
            self.row_prunes += u64::from(pruned);
        }
        if let Some((down, up)) = o.children {
            self.open.branch(down, up);
        }
        true
    }

    /// One node at a time, each against the target as it stands, until the search ends or,
    /// with `root_only`, its first relaxation is solved.
    fn one_by_one(&mut self, cx: &Ctx, socp: &mut Option<Socp>, root_only: bool) -> Result<()> {
        while !(root_only && self.nodes > 0) {
            let Some(node) = self.open.pop() else {
                break;
            };
            if self.satisfied(cx.search) {
                self.complete = false;
                self.left_open = node.bound;
                break;
            }
            let (target, rows) = self.target(cx.search);
            let n = self.nodes;
            let mut gate =
                || (n < cx.search.node_limit && !cx.deadline.expired()).then_some(n == 0);
            let expanded = expand(cx, node, target, rows, &mut gate, Some(socp))?;
            if !self.take(cx.k, cx.search, expanded) {
                break;
            }
        }
        Ok(())
    }

    /// The root alone, then `search.batch` nodes at a time expanded in parallel (on the
    /// current rayon pool), each against the target as it stood before the batch, taken in
    /// in pop order: the same visits on every run whatever the number of threads. The next
    /// batch pops the dives the last one went on with (each node's up child), then the
    /// best-bound nodes.
    fn batched(&mut self, cx: &Ctx, socp: &mut Option<Socp>) -> Result<()> {
        use rayon::prelude::*;
        // The root one by one (Clarabel solves it).
        self.one_by_one(cx, socp, true)?;
        if !self.complete {
            return Ok(());
        }
        let mut batch = Vec::with_capacity(cx.search.batch);
        loop {
            if self.satisfied(cx.search)
                || self.nodes >= cx.search.node_limit
                || cx.deadline.expired()
            {
                // The open nodes (`Open::max_bound`) bound what is left.
                self.complete &= self.open.is_empty();
                return Ok(());
            }
            while batch.len() < cx.search.batch {
                match self.open.pop() {
                    Some(node) => batch.push(node),
                    None => break,
                }
            }
            if batch.is_empty() {
                return Ok(());
            }
            let (target, rows) = self.target(cx.search);
            let expanded: Vec<Result<Expanded>> = batch
                .par_drain(..)
                .map(|node| {
                    let mut gate = || (!cx.deadline.expired()).then_some(false);
                    expand(cx, node, target, rows, &mut gate, None)
                })
                .collect();
            for e in expanded {
                self.take(cx.k, cx.search, e?);
            }
        }
    }
}
