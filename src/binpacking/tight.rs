//! A packing into exactly `k` bins when the waste it may leave, `k·C − Σw`, is small: bin
//! completion (Korf 2002) under that waste budget, the most constrained item first.
//!
//! Every bin of a `k`-bin packing wastes its room `C − load`, and the rooms add up to at most
//! `W = k·C − Σw`. The search opens one bin at a time around a *pivot* item and fills it with
//! a *completion*: a set of the items left whose weight lies in `[room − W_left, room]`. With
//! `W = 0` (the perfect packings of BPPLIB's AI instances) every completion fills its bin
//! exactly, so an item has few of them, and the pivot is the item with the fewest: among the
//! items above `C/2` (each in a bin of its own), the one with the fewest completions of one
//! or two items, those with none (they need three items or more, and have many ways to get
//! them) last; once none is left, the largest item. A completion's last item is looked up by
//! weight, not searched for. A state that failed (the items left, by a 128-bit hash) is not
//! searched again, through another order of the same bins or on a restart.
//!
//! Limited discrepancy passes come first (Harvey & Ginsberg 1995): pass `d` follows the order
//! of the completions with `d` departures to spend on its path, the `i`-th completion of a
//! bin costing `i`. A first descent that dies early (after 15 of 198 bins on AI
//! 600_20000_DI_23) dies of an early choice, which depth-first backtracking, busy with the
//! subtrees below it, never gets back to; a pass tries the near alternatives at every depth.
//! The depth-first runs (with restarts) follow with the nodes left.
//!
//! The search is complete when no node had more completions than `branching` and it ran to
//! the end: then no `k`-bin packing exists. The caller uses only what it finds (a packing is
//! checked complete and feasible); a complete search without one is reported, not claimed.

use super::subset_sums::{any_in, mask, shift_or};
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Completions listed for one bin at most, whatever `branching` says (a bin beyond is cut,
/// so the search is incomplete). Every branch of the enumeration ends in a completion, so
/// this bounds its time (tens of milliseconds) as well as the list's memory (about 100 bytes
/// a completion), and the deadline, read at every node, holds.
const MAX_COMPLETIONS: usize = 1 << 16;

/// Settings of the search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TightSettings {
    /// Run it at all (one dimension, when the packing is one bin above the bound).
    pub enabled: bool,
    /// Nodes (bins opened) at most.
    pub node_limit: u64,
    /// Nodes at most when every bin must be full (`Σw = k·C`), after the root (before it,
    /// where the search also runs then, `node_limit`).
    pub perfect_node_limit: u64,
    /// Completions tried per pivot at most (beyond, the search is incomplete; at most
    /// 65,536 whatever this says).
    pub branching: usize,
    /// Share of the time left it may take.
    pub share: f64,
    /// Only when the waste budget `k·C − Σw` is at most this share of a bin.
    pub max_waste: f64,
    /// Restarts: the first run's nodes (doubling each restart; 0: one run, no restart).
    /// Each restart perturbs the order of the completions (ties and scores), seeded.
    pub restart_nodes: u64,
    /// Seed of the restarts' perturbations.
    pub seed: u64,
    /// Limited discrepancy passes before the depth-first runs: pass `d` (`0..discrepancies`)
    /// follows the ordered completions with `d` departures to spend on its path, the `i`-th
    /// completion of a bin costing `i` (0: no pass).
    pub discrepancies: usize,
    /// When every bin must be full and the search stops short of a packing: the share of
    /// the time left (after the search) for the repair rounds around its deepest partial
    /// packing (`repair.rs`; 0: none)…
    pub repair_share: f64,
    /// …the full bins each round releases…
    pub repair_release: usize,
    /// …and the nodes of each round's search.
    pub repair_nodes: u64,
}

impl Default for TightSettings {
    fn default() -> Self {
        TightSettings {
            enabled: true,
            node_limit: 20_000,
            perfect_node_limit: 100_000,
            branching: 64,
            share: 0.1,
            max_waste: 0.05,
            restart_nodes: 200,
            seed: 1,
            discrepancies: 5,
            repair_share: 0.05,
            repair_release: 30,
            repair_nodes: 500,
        }
    }
}

/// What the search ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Tight {
    /// A packing into the bins asked (indices into the weights), checked.
    Found(Vec<Vec<usize>>),
    /// The search ran to the end without one, with no pivot's completions cut.
    Exhausted,
    /// A limit stopped it, or the budget was too large to try.
    Unknown,
}

/// Item types: distinct weights, decreasing, with the items of each.
struct Types {
    w: Vec<u64>,
    items: Vec<Vec<usize>>,
}

/// The search's state.
struct Search<'a> {
    t: &'a Types,
    cap: u64,
    left: Vec<usize>,
    nodes: u64,
    limit: u64,
    branching: usize,
    cut: bool,
    deadline: &'a Deadline,
    /// Per open bin: (pivot type, completion as (type, copies)).
    chosen: Vec<(usize, Vec<(usize, usize)>)>,
    /// Words of each row of [`Search::reach`], and the type of its first row.
    stride: usize,
    base: usize,
    /// Per type `k` (and one past the last), the sums the items left of types `k..` reach.
    reach: Vec<u64>,
    /// The most bins open at once…
    deepest: usize,
    /// …and the first bins that reached it (the deepest partial packing).
    best: Vec<(usize, Vec<(usize, usize)>)>,
    /// Per type: how many small completions of the large items left use it (weighted by
    /// their copies), from the last pivot choice.
    demand: Vec<f64>,
    /// The perturbation of the completions' scores (0 on the first run).
    noise: f64,
    rng: ChaCha8Rng,
    /// Times a limit or the branching cap cut the search (a subtree's failure is a fact
    /// only when this did not move while it ran).
    cuts: u64,
    /// Per type, two random keys: a state's hash is `Σ left[k]·key[k]` (128 bits).
    keys: Vec<(u64, u64)>,
    /// States (hash, bins left, waste left) proven to have no packing: met again through
    /// another order of the same bins, or on a restart, they fail at once.
    failed: HashSet<(u64, u64, u64, u64)>,
    /// Nodes cut off by [`Search::failed`].
    pruned: u64,
    /// Departures from the first completion still allowed on this path (`None`: no limit).
    budget: Option<usize>,
}

impl Search<'_> {
    /// The sums (up to the last build's limit) of the items left of types `k..`; `k` at
    /// least the first type within that limit.
    fn row(&self, k: usize) -> &[u64] {
        let at = (k - self.base) * self.stride;
        &self.reach[at..at + self.stride]
    }

    /// Rebuilds [`Search::reach`] from the items left, for sums up to `limit`: rows only for
    /// the types of weight at most `limit`.
    fn build_reach(&mut self, limit: u64) {
        let n = self.t.w.len();
        let base = self.t.w.partition_point(|&x| x > limit);
        let words = limit as usize / 64 + 1;
        (self.base, self.stride) = (base, words);
        self.reach.resize((n + 1 - base) * words, 0);
        let last = (n - base) * words;
        self.reach[last..last + words].fill(0);
        self.reach[last] = 1;
        for k in (base..n).rev() {
            let at = (k - base) * words;
            let (head, tail) = self.reach.split_at_mut(at + words);
            let row = &mut head[at..];
            row.copy_from_slice(&tail[..words]);
            let w = self.t.w[k] as usize;
            for _ in 0..self.left[k].min(limit as usize / w.max(1)) {
                shift_or(row, w);
            }
            mask(row, limit as usize);
        }
    }

    /// Completions of one or two items for room `room` (pivot `p` taken), counted up to
    /// `cap`; each adds `weight` to the demand of the types it uses.
    fn small_count(&mut self, p: usize, room: u64, waste: u64, cap: usize, weight: f64) -> usize {
        self.left[p] -= 1;
        let lo = room.saturating_sub(waste);
        let mut n = 0;
        let w = &self.t.w;
        let first = w.partition_point(|&x| x > room);
        for a in first..w.len() {
            if n >= cap {
                break;
            }
            if self.left[a] == 0 {
                continue;
            }
            if w[a] >= lo {
                n += 1;
                self.demand[a] += weight;
                continue;
            }
            // Pairs `a ≤ b` by index: b's weight in [lo − w_a, room − w_a].
            let (r, rlo) = (room - w[a], lo - w[a]);
            let start = w.partition_point(|&x| x > r).max(a);
            for (k, &wk) in w.iter().enumerate().skip(start) {
                if wk < rlo || n >= cap {
                    break;
                }
                if self.left[k] > usize::from(k == a) {
                    n += 1;
                    self.demand[a] += weight;
                    self.demand[k] += weight;
                }
            }
        }
        self.left[p] += 1;
        n.min(cap)
    }

    /// Every completion (beyond `branching`, the first `branching + 1`) of room `room` with
    /// a total in `[room − waste, room]` from the types at `from` on, largest items first;
    /// `acc` the copies taken so far. The reach tables prune every branch that cannot end
    /// in a completion.
    fn completions(
        &self,
        room: u64,
        waste: u64,
        from: usize,
        cap: usize,
        acc: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let lo = room.saturating_sub(waste);
        if lo == 0 {
            out.push(acc.clone());
        }
        let w = &self.t.w;
        let start = w.partition_point(|&x| x > room).max(from);
        for (a, &wa) in w.iter().enumerate().skip(start) {
            if out.len() > cap || !any_in(self.row(a), lo.max(1), room) {
                return;
            }
            if self.left[a] == 0 {
                continue;
            }
            let most = (self.left[a] as u64).min(room / wa) as usize;
            for c in (1..=most).rev() {
                let rest = room - wa * c as u64;
                // What is left must be reachable by the types after `a`.
                if !any_in(self.row(a + 1), rest.saturating_sub(waste), rest) {
                    continue;
                }
                acc.push((a, c));
                self.completions(rest, waste, a + 1, cap, acc, out);
                acc.pop();
                if out.len() > cap {
                    return;
                }
            }
        }
    }

    /// The pivot type: among the types above `C/2` with items left, the fewest completions
    /// of one or two items; else the largest type left. `None` when no item is left;
    /// `Some(None)` when some item above `C/2` has no completion at all.
    fn pivot(&mut self, waste: u64) -> Option<Option<usize>> {
        let half = self.cap / 2;
        self.demand.clear();
        self.demand.resize(self.t.w.len(), 0.0);
        let mut best: Option<(usize, usize)> = None;
        let mut built = false;
        for k in 0..self.t.w.len() {
            if self.t.w[k] <= half {
                break;
            }
            if self.left[k] == 0 {
                continue;
            }
            let room = self.cap - self.t.w[k];
            // Counted up to the best so far (it cannot win beyond), at least to 1.
            let cap = best.map_or(64, |b| b.1.clamp(1, 64));
            let n = self.small_count(k, room, waste, cap, self.left[k] as f64);
            // No small completion: any at all? Its items all weigh less than it, so the
            // reach of everything left with sums up to `C/2` decides.
            if n == 0 {
                if !built {
                    self.build_reach(half);
                    built = true;
                }
                if !any_in(self.row(self.base), room.saturating_sub(waste), room) {
                    return Some(None);
                }
            }
            // Without a small completion it needs three items or more, and has many ways to
            // get them: the least constrained, last (the largest of them first).
            let n = if n == 0 { usize::MAX } else { n };
            if best.is_none_or(|b| n < b.1) {
                best = Some((k, n));
            }
        }
        match best {
            Some(b) => Some(Some(b.0)),
            None => (0..self.t.w.len()).find(|&k| self.left[k] > 0).map(Some),
        }
    }

    /// One pass or run from the top, with `budget` departures (`None`: no limit) until the
    /// node count reaches `limit`: `true` when it found a packing.
    fn run(&mut self, budget: Option<usize>, limit: u64, bins: u64, waste: u64) -> bool {
        self.budget = budget;
        self.limit = limit;
        self.cut = false;
        self.chosen.clear();
        self.dfs(bins, waste)
    }

    /// Opens bins until every item is packed: `true` when it found a packing.
    fn dfs(&mut self, bins: u64, waste: u64) -> bool {
        let (h1, h2) = self
            .left
            .iter()
            .zip(&self.keys)
            .fold((0u64, 0u64), |h, (&c, k)| {
                let c = c as u64;
                (
                    h.0.wrapping_add(c.wrapping_mul(k.0)),
                    h.1.wrapping_add(c.wrapping_mul(k.1)),
                )
            });
        let state = (h1, h2, bins, waste);
        if self.failed.contains(&state) {
            self.pruned += 1;
            return false;
        }
        let cuts = self.cuts;
        let found = self.branch(bins, waste);
        if !found && self.cuts == cuts {
            self.failed.insert(state);
        }
        found
    }

    /// [`Search::dfs`] below its check of the failed states.
    fn branch(&mut self, bins: u64, waste: u64) -> bool {
        let p = match self.pivot(waste) {
            None => return true,
            Some(None) => return false,
            Some(Some(p)) => p,
        };
        if bins == 0 {
            return false;
        }
        if self.nodes >= self.limit || self.deadline.expired() {
            self.cut = true;
            self.cuts += 1;
            return false;
        }
        self.nodes += 1;
        if self.chosen.len() > self.deepest {
            self.deepest = self.chosen.len();
            self.best.clone_from(&self.chosen);
        }
        let room = self.cap - self.t.w[p];
        self.left[p] -= 1;
        self.build_reach(room);
        let mut out = Vec::new();
        self.completions(room, waste, 0, self.branching, &mut Vec::new(), &mut out);
        if out.len() > self.branching {
            self.cut = true;
            self.cuts += 1;
            out.truncate(self.branching);
        }
        // Least constraining first: the completion whose items the other large items' small
        // completions want least, per copy left.
        let score = |comp: &Vec<(usize, usize)>| -> f64 {
            comp.iter()
                .map(|&(k, c)| c as f64 * self.demand[k] / self.left[k] as f64)
                .sum()
        };
        let noise = self.noise;
        let rng = &mut self.rng;
        let mut jitter = |x: f64| {
            x * (1.0 + noise * rng.random_range(0.0..1.0)) + noise * rng.random_range(0.0..1.0)
        };
        let items = |comp: &Vec<(usize, usize)>| comp.iter().map(|&(_, c)| c).sum::<usize>();
        // Stable: equal keys keep the enumeration's order.
        let mut keyed: Vec<_> = out
            .into_iter()
            .map(|c| (items(&c), jitter(score(&c)), c))
            .collect();
        keyed.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
        let budget = self.budget;
        for (i, (_, _, comp)) in keyed.into_iter().enumerate() {
            // Limited discrepancy: the `i`-th completion in the order costs `i` departures;
            // once the budget cannot pay, the rest of this node is cut.
            if let Some(b) = budget {
                if b < i {
                    self.cut = true;
                    self.cuts += 1;
                    break;
                }
                self.budget = Some(b - i);
            }
            let used: u64 = comp.iter().map(|&(k, c)| self.t.w[k] * c as u64).sum();
            let spent = room - used;
            for &(k, c) in &comp {
                self.left[k] -= c;
            }
            self.chosen.push((p, comp));
            let found = self.dfs(bins - 1, waste - spent);
            self.budget = budget;
            if found {
                return true;
            }
            let (_, comp) = self.chosen.pop().expect("the bin just pushed");
            for &(k, c) in &comp {
                self.left[k] += c;
            }
            if self.nodes >= self.limit || self.deadline.expired() {
                self.cut = true;
                self.cuts += 1;
                break;
            }
        }
        self.left[p] += 1;
        false
    }
}

/// Looks for a packing of `weights` into `bins` bins of capacity `cap`.
pub fn pack(
    weights: &[u64],
    cap: u64,
    bins: u64,
    settings: &TightSettings,
    deadline: &Deadline,
) -> Tight {
    pack_partial(weights, cap, bins, settings, deadline).0
}

/// [`pack`], with the deepest partial packing the search reached when it found none: bins
/// within the waste budget (full ones when there is none), each item in one at most.
pub fn pack_partial(
    weights: &[u64],
    cap: u64,
    bins: u64,
    settings: &TightSettings,
    deadline: &Deadline,
) -> (Tight, Vec<Vec<usize>>) {
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    if total > bins as u128 * cap as u128 || weights.iter().any(|&w| w > cap) {
        return (Tight::Exhausted, Vec::new());
    }
    let waste = (bins as u128 * cap as u128 - total) as u64;
    // (Weightless items would have no bound on their copies in a bin; none in BPPLIB.)
    if !settings.enabled || waste as f64 > settings.max_waste * cap as f64 || weights.contains(&0) {
        return (Tight::Unknown, Vec::new());
    }
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&x, &y| weights[y].cmp(&weights[x]).then(x.cmp(&y)));
    let mut t = Types {
        w: Vec::new(),
        items: Vec::new(),
    };
    for i in order {
        if t.w.last() == Some(&weights[i]) {
            t.items.last_mut().expect("a type").push(i);
        } else {
            t.w.push(weights[i]);
            t.items.push(vec![i]);
        }
    }
    let left = t.items.iter().map(Vec::len).collect();
    let mut s = Search {
        t: &t,
        cap,
        left,
        nodes: 0,
        limit: settings.node_limit,
        branching: settings.branching.min(MAX_COMPLETIONS),
        cut: false,
        deadline,
        chosen: Vec::new(),
        stride: 0,
        base: 0,
        reach: Vec::new(),
        deepest: 0,
        best: Vec::new(),
        demand: Vec::new(),
        noise: 0.0,
        rng: ChaCha8Rng::seed_from_u64(settings.seed),
        cuts: 0,
        keys: Vec::new(),
        failed: HashSet::new(),
        pruned: 0,
        budget: None,
    };
    let mut keyrng = ChaCha8Rng::seed_from_u64(0x7167_6874);
    s.keys = (0..t.w.len())
        .map(|_| (keyrng.random(), keyrng.random()))
        .collect();
    let mut found = false;
    let mut runs = 0;
    // Limited discrepancy passes first, then the depth-first runs with what is left.
    for d in 0..settings.discrepancies {
        runs += 1;
        if s.run(Some(d), settings.node_limit, bins, waste) {
            found = true;
            break;
        }
        if !s.cut || s.nodes >= settings.node_limit || deadline.expired() {
            break;
        }
    }
    // A pass that ran to its end without a cut searched everything.
    let exhausted = runs > 0 && !s.cut;
    let mut run = settings.restart_nodes;
    while !found && !exhausted && s.nodes < settings.node_limit && !deadline.expired() {
        let limit = if run == 0 {
            settings.node_limit
        } else {
            (s.nodes + run).min(settings.node_limit)
        };
        runs += 1;
        if s.run(None, limit, bins, waste) {
            found = true;
            break;
        }
        if !s.cut || run == 0 || s.nodes >= settings.node_limit || deadline.expired() {
            break;
        }
        run *= 2;
        s.noise = 1.0;
    }
    log::debug!(
        "tight packing: {runs} runs, {} states failed, {} nodes pruned by them",
        s.failed.len(),
        s.pruned
    );
    if found {
        let packing = item_bins(&t, &s.chosen);
        log::debug!(
            "tight packing: {} bins found in {} nodes (waste budget {waste})",
            packing.len(),
            s.nodes
        );
        return match checked(weights, cap, bins, packing) {
            Some(p) => (Tight::Found(p), Vec::new()),
            None => (Tight::Unknown, Vec::new()),
        };
    }
    log::debug!(
        "tight packing: none in {} nodes, {} bins at most (waste budget {waste}, {})",
        s.nodes,
        s.deepest,
        if s.cut { "cut short" } else { "complete" }
    );
    let partial = item_bins(&t, &s.best);
    if s.cut {
        (Tight::Unknown, partial)
    } else {
        (Tight::Exhausted, partial)
    }
}

/// The bins of `chosen` (pivot type, completion by types) as item indices.
fn item_bins(t: &Types, chosen: &[(usize, Vec<(usize, usize)>)]) -> Vec<Vec<usize>> {
    let mut next = vec![0usize; t.w.len()];
    let mut take = |k: usize| {
        let i = t.items[k][next[k]];
        next[k] += 1;
        i
    };
    chosen
        .iter()
        .map(|(p, comp)| {
            let mut bin = vec![take(*p)];
            for &(k, c) in comp {
                bin.extend((0..c).map(|_| take(k)));
            }
            bin
        })
        .collect()
}

/// The packing when it holds every item once, in at most `bins` bins within `cap`.
fn checked(
    weights: &[u64],
    cap: u64,
    bins: u64,
    packing: Vec<Vec<usize>>,
) -> Option<Vec<Vec<usize>>> {
    let mut seen = vec![false; weights.len()];
    for bin in &packing {
        if bin.iter().map(|&i| weights[i]).sum::<u64>() > cap {
            return None;
        }
        for &i in bin {
            if std::mem::replace(&mut seen[i], true) {
                return None;
            }
        }
    }
    (packing.len() as u64 <= bins && seen.iter().all(|&s| s)).then_some(packing)
}

#[cfg(test)]
#[path = "tight_tests.rs"]
pub(crate) mod tests;
