//! Branch-and-price over the covering master with unit demands (one row per item, each to be
//! covered once): every node is column generation ([`super::run`]) under Ryan–Foster branching
//! decisions — items `i, j` *together* (a column holds both or neither) or *apart* (never
//! both) — which the pricing honours exactly ([`BranchPricing::restrict`]), so it stays a
//! knapsack. Node bounds are the loop's Lagrangian bound rounded up; nodes are explored best
//! bound first (ties: deeper first), the column pool is shared across nodes, and the search
//! ends `optimal` only when the incumbent meets the rounded-up global bound (the least bound
//! of the open nodes). Problems with demands above one expand to unit items first (the caller's
//! job; models/packing.md says why).
//!
//! Why Ryan–Foster is complete: in a fractional solution of the partitioning master some pair
//! of items is covered together by a fractional amount (Ryan & Foster 1981). The covering
//! master may over-cover; a node whose fractional solution has no fractional pair (or whose
//! loop stopped early on an integral solution) is neither closed nor split, its bound is kept,
//! and the search cannot end `optimal` below it (see [`ranked_pairs`]).

use super::enumeration::{close_by_enumeration, EnumerationSettings};
use super::integer::{integer_bins, repeat_by_counts};
pub use super::node::together_groups;
use super::node::{integral, key, node_lp, ranked_pairs, NodeStart, Trial};
use super::{dive_with, run, CgSettings, Column, CoveringMaster, DiveGuide, DiveSettings, Pricing};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::Deadline;
use log::{debug, info};
use serde::{Deserialize, Serialize};
use std::collections::{BinaryHeap, HashSet};
use std::time::Instant;

/// A pricing oracle that honours branching decisions.
pub trait BranchPricing: Pricing {
    /// From now on every column must hold both items of each `together` pair or neither, and
    /// never both items of an `apart` pair. Called before each node's column generation.
    fn restrict(&mut self, together: &[(usize, usize)], apart: &[(usize, usize)]);

    /// A packing of fewer bins than `incumbent` (one column per bin) by the family's own
    /// local search, where it has one; none can have fewer than `bound` bins (the root's
    /// integer bound). Called once, after the root's column generation, while a gap is left
    /// and before the root's dives. The default: none.
    fn improve_packing(
        &mut self,
        _incumbent: &[Column],
        _bound: u64,
        _deadline: &Deadline,
    ) -> Option<Vec<Column>> {
        None
    }
}

/// Settings of the search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BpSettings {
    /// Column generation at each node.
    pub cg: CgSettings,
    /// Diving at the root for an incumbent (off: the caller's start only, so the tree must
    /// find the optimum itself — what the brute-force tests use).
    pub root_dive: bool,
    /// The dive's settings.
    pub dive: DiveSettings,
    /// The dive's settings on a master whose rows have demands above one (an aggregated
    /// root: few pricing rounds per fixing).
    pub aggregated_dive: DiveSettings,
    /// Dives after the first at the root (limited discrepancy), while a gap is open.
    pub dive_retries: usize,
    /// The master a root retry starts from (every column so far) keeps at most this many
    /// live columns a row, those of least reduced cost, as column management does
    /// ([`CgSettings::live_columns_per_row`]; 0, the default: every column live). At 2 a
    /// retry takes 1.3–3.8 s instead of 6–10 s on AI 402 (models/packing.md §5).
    pub retry_live_columns_per_row: f64,
    /// After the `1 + dive_retries` root dives, more go on (each barring the first column of
    /// the one before) while all of them have taken less than this share of the time that
    /// was left when they began (0: no more; nor without a time limit).
    pub retry_share: f64,
    /// Nodes at most (then: the incumbent, the global bound, the gap).
    pub node_limit: u64,
    /// The extra pricing points of the loops below the root ([`CgSettings::extra_points`]
    /// is the root's). 0 by default: on CloudSmall's d 0.95 `2021-09-01-17:36:00`, a tree of
    /// small masters, 2 at every node took 20 nodes in 60 s where none took 92 in 25 s
    /// (models/packing.md §2, "Extra pricing points").
    pub node_extra_points: usize,
    /// Seconds between progress lines at `info!`.
    pub progress_seconds: f64,
    /// Seconds for the restricted integer master (HiGHS over the column pool) after the root
    /// dive and every `integer_every` nodes while a gap is open (0: never).
    pub integer_seconds: f64,
    /// Nodes between two restricted integer masters.
    pub integer_every: u64,
    /// A node's master starts from at most `pool_per_row × rows` pool columns, those of
    /// least reduced cost at its parent's last duals (0: the whole pool).
    pub pool_per_row: f64,
    /// The nodes below the root share one master LP, every pool column in it and those a
    /// node's decisions forbid held at 0, so that each node starts from the last one's basis
    /// (`pool_per_row` is then ignored); off, every node builds a fresh master of the pool's
    /// admitted columns, at most `pool_per_row` a row. A master takes exchange columns
    /// (`cg.dual_optimal_inequalities`, `cg.pair_inequalities`) once: with one master only its
    /// first node's loop can use them (the pricings here offer none under decisions anyway).
    /// Off in the engine's defaults, on for bin and vector packing (models/packing.md §4,
    /// "Warm nodes").
    pub warm_nodes: bool,
    /// The pair branched on is the one whose together-value is closest to this (in (0, 1)).
    pub pair_target: f64,
    /// Strong branching: pairs tried at a node (both children solved by column generation),
    /// the best kept (≤ 1: off, the default here; bin packing turns it on) …
    pub strong_candidates: usize,
    /// … at nodes shallower than this depth.
    pub strong_depth: u32,
    /// Reduced-cost enumeration at the root when a gap is left (where the pricing can).
    pub enumeration: EnumerationSettings,
    /// Decision mode, set by a caller (never read from a file): only packings of at most
    /// `target` bins matter. Every node whose bound exceeds `target` is pruned, each node's
    /// column generation stops once its bound does ([`CgSettings::cutoff`]), and the search
    /// ends at the first packing of at most `target` bins ([`BpEnd::Target`]). Ended
    /// otherwise with a bound above `target`, it proves that no such packing exists.
    #[serde(skip)]
    pub target: Option<u64>,
}

impl Default for BpSettings {
    fn default() -> Self {
        BpSettings {
            cg: CgSettings::default(),
            root_dive: true,
            // Both dives re-converge after every fixing (the engine's default): on Falkenauer T
            // (249 items) 3 rounds end one bin above after 4.5 s, 100 rounds at the optimum
            // after 3 s; on the aggregated root AI 9 / 15 of the 60-s sample (8 with 3 rounds),
            // the 2-D set 372 / 400 at 10 s (370), every other 1-D set unchanged
            // (models/packing.md §5).
            dive: DiveSettings::default(),
            aggregated_dive: DiveSettings::default(),
            dive_retries: 8,
            retry_live_columns_per_row: 0.0,
            retry_share: 0.0,
            node_limit: 100_000,
            node_extra_points: 0,
            progress_seconds: 1.0,
            integer_seconds: 2.0,
            integer_every: 200,
            pool_per_row: 3.0,
            warm_nodes: false,
            pair_target: 0.5,
            strong_candidates: 1,
            strong_depth: 20,
            enumeration: EnumerationSettings::default(),
            target: None,
        }
    }
}

impl BpSettings {
    /// The search on its own: no root dive, no restricted integer master, no enumeration, so that the tree
    /// itself must find and prove the optimum (the oracle tests and the soak use it).
    pub fn branching_only() -> Self {
        BpSettings {
            root_dive: false,
            integer_seconds: 0.0,
            enumeration: EnumerationSettings {
                enabled: false,
                ..EnumerationSettings::default()
            },
            ..BpSettings::default()
        }
    }
}

/// How the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BpEnd {
    /// Incumbent = ⌈global bound⌉: proven optimal.
    Optimal,
    /// The deadline.
    TimeLimit,
    /// The node limit.
    NodeLimit,
    /// A node's column generation could not be settled (pricing limit): the bound holds but
    /// the tree is incomplete.
    Incomplete,
    /// Decision mode ([`BpSettings::target`]): a packing of at most `target` bins was found.
    Target,
}

/// What the search found.
#[derive(Debug, Clone)]
pub struct BpOutcome {
    /// The incumbent: one column per bin (each item covered at least once).
    pub incumbent: Vec<Column>,
    /// Proven lower bound on the optimum (rounded up).
    pub bound: u64,
    /// The root LP's value (or its best Lagrangian bound when it did not converge).
    pub root_lp: f64,
    /// How it ended.
    pub end: BpEnd,
    /// Nodes solved.
    pub nodes: u64,
    /// Nodes still open at the end.
    pub open: usize,
    /// Columns generated in all.
    pub columns: usize,
    /// Columns the root's reduced-cost enumeration listed, when it ran to the end.
    pub enumerated: Option<usize>,
    /// How the root's column generation converged (when a root was solved).
    pub root: Option<super::Convergence>,
    /// The duals behind the root's Lagrangian bound `root_lp` (a pricing proof of it).
    pub root_duals: Option<Vec<f64>>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// An open node: its decisions, its parent's bound and its parent's last duals (which pick
/// the pool columns its master starts from).
#[derive(Debug, Clone)]
struct Node {
    bound: u64,
    depth: u32,
    together: Vec<(usize, usize)>,
    apart: Vec<(usize, usize)>,
    duals: Option<std::rc::Rc<Vec<f64>>>,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Node {}

impl Ord for Node {
    /// The heap pops the least bound first, then the deepest.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .bound
            .cmp(&self.bound)
            .then(self.depth.cmp(&other.depth))
    }
}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Branch-and-price for `rows` unit-demand items. `start` is a feasible packing (one column
/// per bin); its size is the first incumbent.
pub fn branch_and_price<P: BranchPricing>(
    rows: usize,
    pricing: &mut P,
    start: Vec<Column>,
    settings: &BpSettings,
    deadline: &Deadline,
) -> Result<BpOutcome> {
    let began = Instant::now();
    let _phase = crate::solver::progress::phase(|| format!("branch-and-price over {rows} items"));
    let demands = vec![1.0; rows];
    let mut pool: Vec<Column> = Vec::new();
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    let mut remember = |pool: &mut Vec<Column>, cols: &[Column]| {
        for c in cols {
            if seen.insert(key(c)) {
                pool.push(c.clone());
            }
        }
    };
    remember(&mut pool, &start);
    let mut incumbent = start;
    let mut heap = BinaryHeap::new();
    heap.push(Node {
        bound: 0,
        depth: 0,
        together: Vec::new(),
        apart: Vec::new(),
        duals: None,
    });
    let (mut nodes, mut root_lp) = (0u64, 0.0);
    let mut enumerated = None;
    let mut root = None;
    let mut root_duals = None;
    // The least bound of a node that could be neither closed nor split.
    let mut stuck: Option<u64> = None;
    let mut last_log = Instant::now();
    // The size a packing must beat: the incumbent's, or in decision mode at most `target + 1`.
    let beat = |incumbent: &[Column]| {
        let n = incumbent.len() as u64;
        settings.target.map_or(n, |t| n.min(t.saturating_add(1)))
    };
    let mut node_cg = settings.cg.clone();
    // The tree's master ([`BpSettings::warm_nodes`]) and the last fresh one.
    let (mut tree, mut fresh) = (None, None);
    let end = loop {
        let best = beat(&incumbent);
        if settings.target.is_some_and(|t| incumbent.len() as u64 <= t) {
            break BpEnd::Target;
        }
        heap.retain(|n| n.bound < best);
        if heap.is_empty() {
            break BpEnd::Optimal;
        }
        if deadline.expired() {
            break BpEnd::TimeLimit;
        }
        if nodes >= settings.node_limit {
            break BpEnd::NodeLimit;
        }
        let node = heap.pop().expect("not empty");
        nodes += 1;
        pricing.restrict(&node.together, &node.apart);
        let start = NodeStart {
            demands: &demands,
            pool: &pool,
            together: &node.together,
            apart: &node.apart,
            duals: node.duals.as_deref().map(|d| d.as_slice()),
            pool_per_row: settings.pool_per_row,
        };
        let master = node_lp(
            &mut tree,
            &mut fresh,
            settings.warm_nodes && nodes > 1,
            &start,
        )?;
        let preset = master.len();
        // A node whose `⌈bound⌉` reaches the packing to beat is closed: its loop stops there
        // (at the root too: the incumbent then is optimal, and `⌈bound⌉ = ⌈LP⌉` is proven),
        // unless the loops are asked to run to the LP optimum (`stop_when_bound_closes` off).
        if settings.target.is_some() || settings.cg.stop_when_bound_closes {
            node_cg.cutoff = Some(best as f64);
        }
        let cg = run(master, pricing, &node_cg, node.bound as f64, deadline)?;
        // Only the root's first master may run past the deadline (without it there is
        // nothing to report); a later node's or a strong-branching child's started just
        // before the deadline overran it by 0.4 s on ANI 201 (a fresh 5,000-column LP).
        node_cg.first_master_seconds = 0.0;
        node_cg.extra_points = settings.node_extra_points;
        let mut node_bound = ceil_with_tolerance(cg.bound).max(node.bound);
        // The node's LP optimum is pinned down to its ceiling.
        let settled = node_bound >= ceil_with_tolerance(cg.master_value);
        if nodes == 1 {
            root_lp = cg.bound;
            root = Some(cg.convergence());
            root_duals.clone_from(&cg.bound_duals);
        }
        let cols = master.columns().to_vec();
        // The preset columns are in the pool already (or are the group columns).
        remember(&mut pool, &cols[preset..]);
        let whole = integral(&cg.primal);
        if nodes == 1 && !whole && node_bound < best {
            // The root's duals decide which columns a better cover could use.
            let closure = close_by_enumeration(
                master,
                pricing,
                &settings.cg,
                best - 1,
                &settings.enumeration,
                deadline,
            )?;
            remember(&mut pool, &master.columns()[cols.len()..]);
            if let Some(c) = closure {
                enumerated = Some(c.columns);
                node_bound = node_bound.max(c.bound);
                if let Some(bins) = c.bins {
                    incumbent = bins;
                }
            }
        }
        if nodes == 1 && !whole && node_bound < beat(&incumbent) && !deadline.expired() {
            if let Some(bins) = pricing.improve_packing(&incumbent, node_bound, deadline) {
                if bins.len() < incumbent.len() {
                    incumbent = bins;
                }
            }
        }
        if whole {
            let counts: Vec<u64> = cg.primal.iter().map(|v| v.round() as u64).collect();
            let bins = repeat_by_counts(&cols, &counts);
            if bins.len() < incumbent.len() {
                incumbent = bins;
            }
        } else if nodes == 1 && settings.root_dive && !deadline.expired() {
            let found = root_dives(
                master,
                pricing,
                settings,
                node_bound,
                beat(&incumbent),
                deadline,
            )?;
            remember(&mut pool, master.columns());
            if let Some(bins) = found {
                incumbent = bins;
            }
        }
        let lower = heap
            .iter()
            .map(|n| n.bound)
            .chain(stuck)
            .fold(node_bound, u64::min);
        if settings.integer_seconds > 0.0
            && lower < beat(&incumbent)
            && (nodes == 1 || nodes % settings.integer_every.max(1) == 0)
            && !deadline.expired()
        {
            if let Some(bins) =
                restricted_integer(&pool, rows, &incumbent, settings.integer_seconds, deadline)?
            {
                if bins.len() < incumbent.len() {
                    incumbent = bins;
                }
            }
        }
        debug!(
            "node {nodes} depth {}: bound {node_bound} (master {:.4}, {:?}), incumbent {}",
            node.depth,
            cg.master_value,
            cg.termination,
            incumbent.len()
        );
        if node_bound >= beat(&incumbent) || (whole && settled) {
            continue;
        }
        let strong = settings.strong_candidates > 1 && node.depth < settings.strong_depth;
        let candidates = if whole {
            Vec::new()
        } else {
            let max = if strong {
                settings.strong_candidates
            } else {
                1
            };
            ranked_pairs(&cols, &cg.primal, settings.pair_target, max)
        };
        let Some(&(mut i, mut j)) = candidates.first() else {
            // An integral but unsettled LP (the loop stopped early), or a fractional one
            // without a fractional pair: neither closed nor split.
            stuck = Some(stuck.map_or(node_bound, |b| b.min(node_bound)));
            continue;
        };
        let mut child_bounds = [node_bound; 2];
        let best = beat(&incumbent);
        if strong && candidates.len() > 1 {
            // Strong branching: both children of each candidate by column generation; the
            // pair closing most children wins, then the higher least child bound, then the
            // higher sum of child LP values. The children's bounds are kept.
            let mut chosen: Option<Trial> = None;
            for &(a, b) in &candidates {
                let mut bounds = [node_bound; 2];
                let mut value = 0.0;
                for (side, together) in [true, false].into_iter().enumerate() {
                    if deadline.expired() {
                        break;
                    }
                    let (mut t, mut p) = (node.together.clone(), node.apart.clone());
                    if together {
                        t.push((a, b));
                    } else {
                        p.push((a, b));
                    }
                    pricing.restrict(&t, &p);
                    let start = NodeStart {
                        demands: &demands,
                        pool: &pool,
                        together: &t,
                        apart: &p,
                        duals: Some(&cg.duals),
                        pool_per_row: settings.pool_per_row,
                    };
                    let m = node_lp(&mut tree, &mut fresh, settings.warm_nodes, &start)?;
                    let pre = m.len();
                    let out = run(m, pricing, &node_cg, node_bound as f64, deadline)?;
                    remember(&mut pool, &m.columns()[pre..]);
                    bounds[side] = ceil_with_tolerance(out.bound).max(node_bound);
                    value += out.master_value.min(best as f64);
                    debug!(
                        "strong branching: ({a}, {b}) {}: bound {:.6}, master {:.6}, {:?}",
                        if together { "together" } else { "apart" },
                        out.bound,
                        out.master_value,
                        out.termination
                    );
                }
                let closed = bounds.iter().filter(|&&x| x >= best).count();
                let trial = Trial {
                    pair: (a, b),
                    bounds,
                    closed,
                    value,
                };
                if chosen.as_ref().is_none_or(|c| trial.beats(c)) {
                    chosen = Some(trial);
                }
                if closed == 2 || deadline.expired() {
                    break;
                }
            }
            if let Some(t) = chosen {
                ((i, j), child_bounds) = (t.pair, t.bounds);
            }
        }
        let duals = std::rc::Rc::new(cg.duals.clone());
        for (side, together) in [true, false].into_iter().enumerate() {
            if child_bounds[side] >= best {
                continue;
            }
            let mut child = Node {
                bound: child_bounds[side],
                depth: node.depth + 1,
                together: node.together.clone(),
                apart: node.apart.clone(),
                duals: Some(duals.clone()),
            };
            if together {
                child.together.push((i, j));
            } else {
                child.apart.push((i, j));
            }
            heap.push(child);
        }
        if last_log.elapsed().as_secs_f64() >= settings.progress_seconds {
            last_log = Instant::now();
            info!(
                "branch-and-price: {nodes} nodes, {} open, bound {}, incumbent {}",
                heap.len(),
                heap.iter()
                    .map(|n| n.bound)
                    .chain(stuck)
                    .min()
                    .unwrap_or(node_bound),
                incumbent.len()
            );
            crate::solver::progress::mark();
        }
    };
    let best = beat(&incumbent);
    let bound = heap
        .iter()
        .map(|n| n.bound)
        .chain(stuck)
        .min()
        .unwrap_or(best)
        .min(best);
    // A search that met its bound is optimal whatever stopped it; one that ran out of nodes
    // below a stuck node's bound is incomplete.
    let end = if end == BpEnd::Target {
        end
    } else if bound >= best {
        BpEnd::Optimal
    } else if end == BpEnd::Optimal {
        BpEnd::Incomplete
    } else {
        end
    };
    Ok(BpOutcome {
        bound,
        root_lp,
        end,
        nodes,
        open: heap.len(),
        columns: pool.len(),
        enumerated,
        root,
        root_duals,
        incumbent,
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// Limited-discrepancy diving from a converged `master`: each new dive may not fix the first
/// column the previous one fixed, and gives up once it cannot beat the best so far; at most
/// `1 + settings.dive_retries` dives, none once `target` bins are reached. Returns the best
/// packing found below `best` (one column per bin, repeated by its count). `master` ends
/// holding every column the dives generated (a fresh master over them: re-solving the dived
/// one from its last basis after resetting every row took HiGHS 12 s on 249 items).
pub fn root_dives<P: Pricing>(
    master: &mut CoveringMaster,
    pricing: &mut P,
    settings: &BpSettings,
    target: u64,
    best: u64,
    deadline: &Deadline,
) -> Result<Option<Vec<Column>>> {
    let demands = master.demands().to_vec();
    let mut tabu = HashSet::new();
    let mut found: Option<Vec<Column>> = None;
    let mut best = best;
    let began = Instant::now();
    // The time the dives beyond `dive_retries` may take, all of them together.
    let more = deadline
        .remaining_secs()
        .map_or(0.0, |left| left * settings.retry_share);
    for dive in 0.. {
        if best <= target || deadline.expired() {
            break;
        }
        if dive > settings.dive_retries && began.elapsed().as_secs_f64() >= more {
            break;
        }
        let guide = DiveGuide {
            tabu: tabu.clone(),
            cutoff: Some(best),
        };
        let d = dive_with(master, pricing, &settings.dive, deadline, &guide)?;
        debug!(
            "root dive: {} bins fixed, complete {}, pruned {}, {} steps, {} columns, {:.3}s",
            d.counts.iter().sum::<u64>(),
            d.complete,
            d.pruned,
            d.steps,
            d.columns_added,
            d.seconds
        );
        let cols = master.columns().to_vec();
        if d.complete && d.counts.iter().sum::<u64>() < best {
            let bins = repeat_by_counts(&cols, &d.counts);
            best = bins.len() as u64;
            found = Some(bins);
        }
        *master = CoveringMaster::new(&demands);
        for c in cols {
            master.add_column(c)?;
        }
        let Some(&first) = d.chosen.first() else {
            break;
        };
        tabu.insert(first);
        let per_row = settings.retry_live_columns_per_row;
        if per_row > 0.0 {
            // Column management before the next dive: its LP holds the columns of least
            // reduced cost, not all of them.
            if let Some(sol) = master.solve(deadline)? {
                super::retire::retire_columns(master, &sol.duals, per_row)?;
            }
        }
    }
    pricing.end_dive();
    Ok(found)
}

/// The restricted integer master over `pool` (each item covered, fewest bins) for at most
/// `seconds`, started from `incumbent` (whose bins are all in the pool). A heuristic: its
/// optimum is optimal for these columns only.
fn restricted_integer(
    pool: &[Column],
    rows: usize,
    incumbent: &[Column],
    seconds: f64,
    deadline: &Deadline,
) -> Result<Option<Vec<Column>>> {
    let position: std::collections::HashMap<Vec<usize>, usize> =
        pool.iter().enumerate().map(|(i, c)| (key(c), i)).collect();
    let mut start = vec![0.0; pool.len()];
    for c in incumbent {
        match position.get(&key(c)) {
            Some(&i) => start[i] += 1.0,
            None => return Ok(None),
        }
    }
    integer_bins(pool, &vec![1.0; rows], Some(&start), seconds, deadline)
}
