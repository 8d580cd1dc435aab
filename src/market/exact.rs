//! The exact rebalancer that exploits a small migration limit `M` (`--method exact`): a
//! depth-first branch-and-bound over moves (models/market.md §3.2 has the proofs).
//!
//! Why it works: a node's errors depend only on its member set, a placement within `M` moves
//! changes at most `2M` member sets, and a node that violates the target `δ` now must change.
//! Proportional share with caps is monotone in the member set (adding a VM never raises
//! another's allocation), so a VM below its ideal by more than `δ` needs its node to lose a
//! member, and one above it needs to leave or its node to gain one. Branching only on such
//! moves at the violating node with the fewest of them, and pruning when the violating nodes
//! need more moves than are left, proves optimality by exhaustion; every state is evaluated
//! with the real water-filling, caps included.

use super::instance::{Instance, Res};
use super::placement::{global_ideal, members_of};
use super::share::{proportional_share, ErrorNorm};
use crate::solver::{progress, Deadline};
use std::collections::HashSet;

/// What the search returns.
#[derive(Debug, Clone)]
pub struct ExactOutcome {
    /// The best placement found (at worst the start).
    pub placement: Vec<usize>,
    /// Its largest error.
    pub max_error: f64,
    /// A proven lower bound on the largest error of every placement within `M` moves.
    pub bound: f64,
    /// True when the search finished: `bound` is then the incumbent less `GAP`.
    pub complete: bool,
    /// Search states evaluated.
    pub states: u64,
    /// The root bound (the move-count relaxation at the initial placement).
    pub root_bound: f64,
}

/// Placements must beat the incumbent by more than this to count (the proof's resolution).
pub const GAP: f64 = 1e-9;

/// Most move sets remembered as explored (beyond it the search only loses the shortcut).
const TABLE_LIMIT: usize = 4_000_000;

/// The short and long errors of one VM or node: the largest normalised error over resources
/// where the allocation is below the ideal (`short`) or above it (`long`).
#[derive(Debug, Clone, Copy, Default)]
struct Err2 {
    short: f64,
    long: f64,
}

impl Err2 {
    fn max(self) -> f64 {
        self.short.max(self.long)
    }
}

struct Search<'a> {
    inst: &'a Instance,
    norm: ErrorNorm,
    ideal: Vec<Res>,
    initial: Vec<usize>,
    place: Vec<usize>,
    moved: Vec<bool>,
    members: Vec<Vec<usize>>,
    vm_err: Vec<Err2>,
    alloc: Vec<Res>,
    node_err: Vec<Err2>,
    best: Vec<usize>,
    best_err: f64,
    delta: f64,
    moves: Vec<u32>,
    seen: HashSet<Vec<u32>>,
    states: u64,
    deadline: Deadline,
    stopped: bool,
    next_poll: u64,
    /// The root's bound, for the live log.
    root: f64,
    ticker: progress::Ticker,
    /// Stop after about this many states.
    max_states: u64,
}

/// One candidate move: VM `v` from its initial node to `to`.
type Move = (usize, usize);

/// A violating VM, its resource and what others' moves must supply: `Some((amount, price))`,
/// or `None` when they cannot (the VM must leave).
type Hardest = (usize, usize, Option<(f64, f64)>);

impl Search<'_> {
    /// Recomputes the allocations and errors of node `n` with the water-filling.
    fn refresh(&mut self, n: usize) {
        let node = self.inst.nodes[n];
        let members = &self.members[n];
        for &v in members {
            self.vm_err[v] = Err2::default();
        }
        for r in 0..2 {
            let bids: Vec<f64> = members
                .iter()
                .map(|&v| self.inst.vms[v].bid.get(r))
                .collect();
            let caps: Vec<f64> = members
                .iter()
                .map(|&v| self.inst.vms[v].cap.get(r))
                .collect();
            let s = proportional_share(&bids, &caps, node.get(r));
            for (k, &v) in members.iter().enumerate() {
                let (a, g) = (s.alloc[k], self.ideal[v].get(r));
                self.alloc[v].set(r, a);
                let e = self.norm.normalise((a - g).abs(), node.get(r), caps[k]);
                let slot = &mut self.vm_err[v];
                if a < g {
                    slot.short = slot.short.max(e);
                } else {
                    slot.long = slot.long.max(e);
                }
            }
        }
        let mut ne = Err2::default();
        for &v in members {
            ne.short = ne.short.max(self.vm_err[v].short);
            ne.long = ne.long.max(self.vm_err[v].long);
        }
        self.node_err[n] = ne;
    }

    fn max_error(&self) -> f64 {
        self.node_err.iter().map(|e| e.max()).fold(0.0, f64::max)
    }

    /// Members above `K` on node `n` (intermediate states may exceed `K`; a placement may
    /// not).
    fn excess(&self, n: usize) -> usize {
        self.members[n]
            .len()
            .saturating_sub(self.inst.max_vms_per_node)
    }

    /// Moves needed at least to clear every violation of `δ` and every excess over `K`: a
    /// short node must be the source of a move and a node over `K` of one per extra member;
    /// every such node and every violating node must be an end of one.
    fn moves_needed(&self) -> usize {
        let (mut sources, mut ends) = (0, 0);
        for (n, e) in self.node_err.iter().enumerate() {
            let over = self.excess(n);
            sources += over.max(usize::from(e.short > self.delta));
            ends += usize::from(over > 0 || e.max() > self.delta);
        }
        sources.max(ends.div_ceil(2))
    }

    /// True when every node keeps `K`.
    fn within_k(&self) -> bool {
        (0..self.members.len()).all(|n| self.excess(n) == 0)
    }

    fn apply(&mut self, v: usize, to: usize) {
        let from = self.place[v];
        self.members[from].retain(|&x| x != v);
        self.members[to].push(v);
        self.place[v] = to;
        self.refresh(from);
        self.refresh(to);
    }

    fn room(&self, n: usize) -> bool {
        self.members[n].len() < self.inst.max_vms_per_node
    }

    /// Moves of the unmoved VMs `vms` out of `n` to every other node (full ones too: a
    /// later move may make room, as in a swap; R0 counts the excess).
    fn out_moves(&self, n: usize, vms: &[usize], out: &mut Vec<Move>) {
        for &v in vms.iter().filter(|&&v| !self.moved[v]) {
            for d in (0..self.inst.nodes.len()).filter(|&d| d != n) {
                out.push((v, d));
            }
        }
    }

    /// The moves one of which every completion must contain to clear node `n`'s violation
    /// (models/market.md §3.2, rules R1–R4).
    fn branches(&self, n: usize, left: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let short = self.node_err[n].short > self.delta;
        if self.node_err[n].max() <= self.delta {
            // Over K only: some member must leave.
            self.out_moves(n, &self.members[n], &mut out);
            return out;
        }
        if !short && !self.room(n) {
            // R3: a full node gains only after a loss, and a long VM's leaving is a loss.
            self.out_moves(n, &self.members[n], &mut out);
            return out;
        }
        let Some((v, r, fix)) = self.hardest(n, short, left) else {
            return self.generic(n, short);
        };
        // R4: the VM leaves, or other members leave (short) / VMs arrive (long) whose demand
        // at the VM's δ-price can cover what is missing within `left` moves.
        if !self.moved[v] {
            self.out_moves(n, &[v], &mut out);
        }
        let Some((amount, price)) = fix else {
            return out;
        };
        let rest = self.top_k(n, r, price, short, left - 1, v);
        let useful: Vec<usize> = self
            .candidates(n, short, v)
            .filter(|&u| self.demand(u, r, price) + rest >= amount)
            .collect();
        if short {
            self.out_moves(n, &useful, &mut out);
        } else {
            out.extend(useful.into_iter().map(|u| (u, n)));
        }
        out
    }

    /// R1–R2 without prices (a zero bid violates): short, any unmoved member leaves; long,
    /// a VM arrives or one unmoved long VM leaves (all long VMs must leave without a gain).
    fn generic(&self, n: usize, short: bool) -> Vec<Move> {
        let mut out = Vec::new();
        let members = &self.members[n];
        if short {
            self.out_moves(n, members, &mut out);
            return out;
        }
        let long: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&v| self.vm_err[v].long > self.delta)
            .collect();
        if long.iter().all(|&v| !self.moved[v]) {
            self.out_moves(n, &long[..1.min(long.len())], &mut out);
        }
        out.extend(self.candidates(n, false, usize::MAX).map(|u| (u, n)));
        out
    }

    /// Demand `min(cap, b/price)` of VM `u` for resource `r` (0 without a positive bid).
    fn demand(&self, u: usize, r: usize, price: f64) -> f64 {
        let vm = &self.inst.vms[u];
        let (b, cap) = (vm.bid.get(r), vm.cap.get(r));
        if b > 0.0 && cap > 0.0 {
            cap.min(b / price)
        } else {
            0.0
        }
    }

    /// The VMs whose move can change node `n` on the needed side, `v` excluded: its unmoved
    /// members (short) or the unmoved VMs elsewhere (long).
    fn candidates(&self, n: usize, short: bool, v: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.place.len())
            .filter(move |&u| u != v && !self.moved[u] && (self.place[u] == n) == short)
    }

    /// The sum of the `k` largest demands at `price` among the candidates.
    fn top_k(&self, n: usize, r: usize, price: f64, short: bool, k: usize, v: usize) -> f64 {
        let mut d: Vec<f64> = self
            .candidates(n, short, v)
            .map(|u| self.demand(u, r, price))
            .collect();
        d.sort_by(|a, b| b.total_cmp(a));
        d.iter().take(k).sum()
    }

    /// The violating VM of node `n` (short side when `short`) hardest to fix by other VMs'
    /// moves, with its resource and `Some((amount, price))`: the demand at `price` (where
    /// its error is exactly δ) that losses (short) must remove or gains (long) must add —
    /// `None` when `left` such moves cannot, so the VM must leave. A moved VM, which must
    /// stay, comes first. `None` overall when no violating VM has a positive bid and cap.
    fn hardest(&self, n: usize, short: bool, left: usize) -> Option<Hardest> {
        let node = self.inst.nodes[n];
        let c_all = node;
        let mut best: Option<((bool, f64), Hardest)> = None;
        for &v in &self.members[n] {
            let vm = &self.inst.vms[v];
            for r in 0..2 {
                let (b, cap, g) = (vm.bid.get(r), vm.cap.get(r), self.ideal[v].get(r));
                let w = self.norm.normalise(1.0, node.get(r), cap);
                let a = self.alloc[v].get(r);
                let gap = if short { g - a } else { a - g };
                if b <= 0.0 || cap <= 0.0 || w <= 0.0 || gap * w <= self.delta {
                    continue;
                }
                // The allocation, and price, at which the VM's error is exactly δ.
                let t = if short {
                    g - self.delta / w
                } else {
                    g + self.delta / w
                };
                if t <= 0.0 || t >= cap {
                    continue;
                }
                let price = b / t;
                let c = c_all.get(r);
                let demand: f64 = self.members[n]
                    .iter()
                    .map(|&u| self.demand(u, r, price))
                    .sum();
                // Slack against round-off: prune only what is clearly out of reach.
                let amount = if short { demand - c } else { c - demand } - 1e-9 * (1.0 + c);
                let most = self.top_k(n, r, price, short, left, v);
                let fix = (most >= amount).then_some((amount, price));
                let key = (self.moved[v], amount - most);
                if best.as_ref().is_none_or(|bst| key > bst.0) {
                    best = Some((key, (v, r, fix)));
                }
            }
        }
        best.map(|(_, h)| h)
    }

    fn encode(&self, v: usize, d: usize) -> u32 {
        (v * self.inst.nodes.len() + d) as u32
    }

    /// Depth-first search from the current state with `left` moves to spend.
    fn dfs(&mut self, left: usize) {
        if left == 0 || self.stopped {
            return;
        }
        // The violating node with the fewest branches.
        let mut pick: Option<Vec<Move>> = None;
        for n in 0..self.inst.nodes.len() {
            if self.node_err[n].max() > self.delta || self.excess(n) > 0 {
                let b = self.branches(n, left);
                if pick.as_ref().is_none_or(|p| b.len() < p.len()) {
                    pick = Some(b);
                }
            }
        }
        let Some(moves) = pick else { return };
        // Evaluate every child; explore the promising ones first.
        let mut children: Vec<(f64, Move)> = Vec::with_capacity(moves.len());
        for (v, d) in moves {
            let from = self.place[v];
            self.apply(v, d);
            self.moved[v] = true;
            self.states += 1;
            let e = self.max_error();
            if e <= self.delta && self.within_k() {
                self.best_err = e;
                self.best = self.place.clone();
                self.delta = e - GAP;
            }
            if self.moves_needed() < left {
                children.push((e, (v, d)));
            }
            self.moved[v] = false;
            self.apply(v, from);
        }
        children.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, (v, d)) in children {
            if self.states >= self.next_poll {
                self.next_poll = self.states + 1024;
                self.stopped = self.deadline.expired() || self.states >= self.max_states;
                if self.ticker.due() {
                    progress::line(format_args!(
                        "exact: branch-and-bound {} states, incumbent {} (largest error), root bound {}",
                        self.states,
                        progress::figure(self.best_err),
                        progress::figure(self.root)
                    ));
                }
            }
            if self.stopped {
                return;
            }
            let from = self.place[v];
            self.apply(v, d);
            self.moved[v] = true;
            self.moves.push(self.encode(v, d));
            let mut key = self.moves.clone();
            key.sort_unstable();
            let fresh = self.moves_needed() < left && !self.seen.contains(&key);
            if fresh {
                if self.seen.len() < TABLE_LIMIT {
                    self.seen.insert(key);
                }
                self.dfs(left - 1);
            }
            self.moves.pop();
            self.moved[v] = false;
            self.apply(v, from);
        }
    }
}

/// The smallest `δ` at which the move-count relaxation admits `limit` moves: a valid lower
/// bound on the largest error of every placement within `limit` moves (models/market.md §3.2).
fn root_bound(node_err: &[Err2], limit: usize) -> f64 {
    let mut cand: Vec<f64> = node_err.iter().flat_map(|e| [e.short, e.max()]).collect();
    cand.push(0.0);
    cand.sort_by(f64::total_cmp);
    let needed = |d: f64| {
        let short = node_err.iter().filter(|e| e.short > d).count();
        let all = node_err.iter().filter(|e| e.max() > d).count();
        short.max(all.div_ceil(2))
    };
    cand.into_iter()
        .find(|&d| needed(d) <= limit)
        .unwrap_or(0.0)
}

/// Minimises the largest error over placements within `limit` moves and `K` per node,
/// starting from the incumbent `start` (which must be admissible). On a deadline the best
/// placement found and the root bound are returned with `complete = false`.
pub fn exact_search(
    inst: &Instance,
    limit: usize,
    norm: ErrorNorm,
    start: &[usize],
    deadline: &Deadline,
) -> ExactOutcome {
    exact_search_within(inst, limit, norm, start, deadline, u64::MAX)
}

/// The smallest `δ` at which the move-count relaxation at the initial placement admits
/// `limit` moves ([`ExactOutcome::root_bound`]): a closed form of the instance, at least the
/// untouched bound (models/market.md §3.2).
pub fn root_count_bound(inst: &Instance, limit: usize, norm: ErrorNorm) -> f64 {
    let s = Search::at_start(inst, norm, &Deadline::none(), u64::MAX);
    root_bound(&s.node_err, limit)
}

/// [`exact_search`] that also stops after about `max_states` states (checked with the
/// deadline, every 1,024 states): the verify's budget, independent of the machine's speed.
pub fn exact_search_within(
    inst: &Instance,
    limit: usize,
    norm: ErrorNorm,
    start: &[usize],
    deadline: &Deadline,
    max_states: u64,
) -> ExactOutcome {
    let mut s = Search::at_start(inst, norm, deadline, max_states);
    let root = root_bound(&s.node_err, limit);
    s.root = root;
    s.best_err = s.max_error();
    let start_err = super::placement::Evaluation::new(inst, start.to_vec(), norm).max_error();
    if start_err < s.best_err {
        s.best = start.to_vec();
        s.best_err = start_err;
    }
    s.delta = s.best_err - GAP;
    if s.best_err > root + GAP {
        s.dfs(limit);
    }
    debug_assert!(
        s.best
            .iter()
            .zip(&s.initial)
            .filter(|(a, b)| a != b)
            .count()
            <= limit
    );
    let complete = !s.stopped;
    let bound = if complete {
        (s.best_err - GAP).max(root).min(s.best_err)
    } else {
        root.min(s.best_err)
    };
    ExactOutcome {
        placement: s.best,
        max_error: s.best_err,
        bound: bound.max(0.0),
        complete,
        states: s.states,
        root_bound: root,
    }
}

impl<'a> Search<'a> {
    /// The search at the initial placement, every node evaluated.
    fn at_start(
        inst: &'a Instance,
        norm: ErrorNorm,
        deadline: &Deadline,
        max_states: u64,
    ) -> Search<'a> {
        let initial: Vec<usize> = inst.vms.iter().map(|v| v.node).collect();
        let nn = inst.nodes.len();
        let members = members_of(&initial, nn);
        let m = inst.vms.len();
        let mut s = Search {
            inst,
            norm,
            ideal: global_ideal(inst).0,
            initial: initial.clone(),
            place: initial.clone(),
            moved: vec![false; m],
            members,
            vm_err: vec![Err2::default(); m],
            alloc: vec![Res::default(); m],
            node_err: vec![Err2::default(); nn],
            best: initial,
            best_err: f64::INFINITY,
            delta: f64::INFINITY,
            moves: Vec::new(),
            seen: HashSet::new(),
            states: 1,
            deadline: *deadline,
            stopped: false,
            next_poll: 0,
            root: 0.0,
            ticker: progress::Ticker::new(),
            max_states,
        };
        for n in 0..nn {
            s.refresh(n);
        }
        s
    }
}
