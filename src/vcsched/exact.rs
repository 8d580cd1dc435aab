//! The exact method: the optimal minimum yield is `Y* = min(1, 1/L*)`, with `L*` the least
//! achievable largest CPU load `Σ α` of a host under memory `Σ m ≤ 1` (proof and parallel
//! jobs in `models/vcsched.md`, section "The exact method"). So the method minimises the
//! largest load over the tasks as items:
//!
//! - **bounds on `L*`** ([`load_bound`]): `Σα/H`, the largest `α`, and for every `k ≥ 1` the
//!   `k + 1` smallest of the `kH + 1` largest `α` (some host gets `k + 1` of them);
//! - **incumbent**: the best of MCB8, MCB5, SG, LPT under memory and first-fit decreasing on
//!   memory, each improved by the move/swap descent of [`super::improve`];
//! - **probes** by bin completion ([`Search::probe`]): "every load at most `t`?", first at
//!   the bound (a yes is optimal), then bisecting between the proven floor and the incumbent;
//! - **proof**: a depth-first branch-and-bound ([`Search`]) over items in decreasing `α`
//!   that looks only for a largest load below the incumbent's; exhausted, it proves `L*`
//!   (or, with no incumbent, that no placement fits in memory);
//! - **infeasibility** of large instances: the Martello–Toth bound `L2` on the hosts the
//!   memory needs alone ([`memory_hosts_bound`]).

use super::allocation::Placement;
use super::improve;
use super::instance::Instance;
use super::{greedy, mcb};
use crate::solver::{progress, Deadline};

/// Memory slack of a host, the same as [`super::memory_feasible`]'s in `finish`: a
/// refutation at `1 + MEMORY_SLACK` is a refutation at 1.
pub const MEMORY_SLACK: f64 = 1e-9;

/// Relative margin of the search: it proves that no placement has a largest load below
/// `(1 − PROOF_MARGIN)` times the incumbent's (float sums of a few hundred terms err far
/// less), and the bound it reports is that value.
pub const PROOF_MARGIN: f64 = 1e-9;

/// The probes stop when the incumbent is within this relative distance of the proven floor
/// (the optimising search closes the rest).
const PROBE_RESOLUTION: f64 = 1e-4;

/// Allowance for rounding in the room sums of a probe, relative to `H t` (see [`Completion`]).
const ROUNDING: f64 = 1e-12;

/// Probes stopped by their node share in a row before the probing ends.
const MAX_UNKNOWN_PROBES: u32 = 3;

/// What the exact method found, on the items of the flattened instance.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The best placement found (a host per task).
    pub placement: Option<Placement>,
    /// A proven upper bound on the minimum yield.
    pub bound: f64,
    /// The memory packing is proven impossible.
    pub infeasible: bool,
    /// Nodes of the search.
    pub nodes: u64,
    /// The search ran to the end (its answer is a proof).
    pub exhausted: bool,
    /// Steps of the descent over all seeds.
    pub descent_steps: u64,
    /// Decision probes run.
    pub probes: u32,
}

/// A lower bound on `L*` from the CPU needs alone (see the module text).
pub fn load_bound(inst: &Instance) -> f64 {
    let mut a: Vec<f64> = inst.tasks().map(|j| j.cpu).collect();
    a.sort_by(|x, y| y.total_cmp(x));
    let h = inst.hosts;
    let mut lb = inst.total_cpu() / h as f64;
    lb = lb.max(a[0]);
    // Among the kH + 1 largest items some host holds k + 1: at least the k + 1 smallest.
    let mut k = 1;
    while k * h < a.len() {
        let top = k * h + 1;
        lb = lb.max(a[top - k - 1..top].iter().sum());
        k += 1;
    }
    lb
}

/// The Martello–Toth bound `L2` on the number of hosts the memory needs alone take, with host
/// memory `1 + MEMORY_SLACK`: above `H`, no placement fits.
pub fn memory_hosts_bound(inst: &Instance) -> usize {
    let cap = 1.0 + MEMORY_SLACK;
    let mut w: Vec<f64> = inst.tasks().map(|j| j.mem / cap).collect();
    w.sort_by(|x, y| y.total_cmp(x));
    let mut thresholds: Vec<f64> = w.iter().copied().filter(|&x| x <= 0.5).collect();
    thresholds.push(0.0);
    thresholds.dedup();
    let mut best = 0usize;
    for &k in &thresholds {
        let (mut n1, mut n2, mut s2, mut s3) = (0usize, 0usize, 0.0, 0.0);
        for &x in &w {
            if x > 1.0 - k {
                n1 += 1;
            } else if x > 0.5 {
                n2 += 1;
                s2 += x;
            } else if x >= k {
                s3 += x;
            }
        }
        let spill = s3 - (n2 as f64 - s2);
        // Rounding can only raise a float sum by far less than 1e-9 here; shave it off so the
        // ceiling never overstates.
        let extra = if spill > 1e-9 {
            (spill - 1e-9).ceil() as usize
        } else {
            0
        };
        best = best.max(n1 + n2 + extra);
    }
    best
}

/// Solves the flattened instance `flat` (one sequential job per task; no adaptation).
/// `closed` is the §3.1 bound `min(1, H/Σα)`; `max_nodes` caps the search.
pub fn solve(flat: &Instance, closed: f64, max_nodes: u64, deadline: &Deadline) -> Outcome {
    let lb = load_bound(flat);
    let bound_of = |l: f64| (1.0 / l).min(1.0).min(closed);
    let mut out = Outcome {
        placement: None,
        bound: bound_of(lb),
        infeasible: false,
        nodes: 0,
        exhausted: false,
        descent_steps: 0,
        probes: 0,
    };
    if memory_hosts_bound(flat) > flat.hosts {
        out.infeasible = true;
        out.exhausted = true;
        return out;
    }
    // Loads up to `floor` cost nothing (yield 1), so nothing below it is sought.
    let floor = lb.max(1.0);
    let seeds = [
        mcb::mcb(flat, 8, closed, 1e-4).placement,
        mcb::mcb(flat, 5, closed, 1e-4).placement,
        greedy::greedy(flat, &greedy::memory_order(flat)),
        improve::lpt(flat),
        improve::memory_ffd(flat),
    ];
    let mut best: Option<(f64, Placement)> = None;
    for mut p in seeds.into_iter().flatten() {
        out.descent_steps += improve::improve(flat, &mut p, floor, deadline);
        let l = improve::max_load(flat, &p);
        if best.as_ref().is_none_or(|b| l < b.0) {
            best = Some((l, p));
        }
        if l <= floor * (1.0 + PROOF_MARGIN) {
            break;
        }
    }
    if let Some((l, _)) = &best {
        if *l <= floor * (1.0 + PROOF_MARGIN) {
            out.placement = best.map(|b| b.1);
            out.exhausted = true;
            return out;
        }
    }
    let mut lo = floor;
    let mut hi = best.as_ref().map_or(f64::INFINITY, |b| b.0);
    let mut left = max_nodes;
    // Probes "is there a placement with every load at most t?": first at the floor (a yes
    // is optimal), then bisecting between the proven floor and the incumbent while the
    // probes answer; a probe's exhaustion raises the floor, a yes lowers the incumbent.
    let mut t = floor;
    let mut unknowns = 0;
    let mut ticker = progress::Ticker::new();
    while hi > lo * (1.0 + PROBE_RESOLUTION) && unknowns < MAX_UNKNOWN_PROBES && left > 0 {
        let cap = t * (1.0 + PROOF_MARGIN);
        let mut probe = Search::new(flat, None, cap, left / 2, *deadline);
        let found = probe.probe(cap);
        left -= probe.nodes.min(left);
        out.nodes += probe.nodes;
        out.probes += 1;
        if ticker.due() {
            progress::line(format_args!(
                "exact: probe {} at largest load {}: {}, incumbent {}, floor {}",
                out.probes,
                progress::figure(t),
                match (&found, probe.stopped) {
                    (Some(_), _) => "fits",
                    (None, false) => "refuted",
                    (None, true) => "unknown",
                },
                progress::figure(hi),
                progress::figure(lo)
            ));
        }
        match (found, probe.stopped) {
            (Some(p), _) => {
                let l = improve::max_load(flat, &p);
                hi = l;
                best = Some((l, p));
                unknowns = 0;
            }
            (None, false) => {
                lo = t;
                unknowns = 0;
            }
            (None, true) => {
                unknowns += 1;
                if deadline.expired() {
                    break;
                }
            }
        }
        if hi <= floor * (1.0 + PROOF_MARGIN) {
            break;
        }
        // After an unknown, look higher (an easier question).
        let below = if unknowns > 0 { t } else { lo };
        if !hi.is_finite() {
            break;
        }
        t = 0.5 * (below + hi);
    }
    let reached = |b: &Option<(f64, Placement)>| {
        b.as_ref()
            .is_some_and(|b| b.0 <= floor * (1.0 + PROOF_MARGIN))
    };
    if !reached(&best) && left > 0 {
        let mut search = Search::new(flat, best, floor, left, *deadline);
        search.run();
        out.nodes += search.nodes;
        out.exhausted = !search.stopped;
        best = search.incumbent;
    } else {
        out.exhausted = reached(&best);
    }
    out.placement = best.as_ref().map(|(_, p)| p.clone());
    out.bound = bound_of(lo.max(lb));
    match (&best, out.exhausted) {
        (None, true) => out.infeasible = true,
        (Some((l, _)), true) => {
            // Twice the margin: the cuts compare float sums, whose errors are far below it.
            out.bound = bound_of(lb.max(lo).max(l * (1.0 - 2.0 * PROOF_MARGIN)));
        }
        _ => {}
    }
    out
}

/// The node cap is passed, or (checked every 4096 nodes) the deadline.
fn out_of_effort(nodes: u64, max_nodes: u64, deadline: &Deadline) -> bool {
    nodes > max_nodes || (nodes.is_multiple_of(4096) && deadline.expired())
}

/// Depth-first branch-and-bound on the largest load (see the module text).
///
/// Items go in decreasing `α` (ties: decreasing `m`). Hosts are labelled by first use, so an
/// item tries the used hosts and one empty host; of used hosts with the same load and memory
/// only the first is tried (the future items of two such hosts can be swapped); and an item
/// identical to the one before goes to a host no lower than that one's (identical items can
/// be sorted). A branch is cut when a host would reach the incumbent's load less the margin,
/// when the CPU room left under that load on hosts that can still take the smallest item is
/// less than the `α` left, and likewise for memory.
pub struct Search {
    a: Vec<f64>,
    m: Vec<f64>,
    same: Vec<bool>,
    orig: Vec<usize>,
    rest_a: Vec<f64>,
    rest_m: Vec<f64>,
    min_a: Vec<f64>,
    min_m: Vec<f64>,
    hosts: usize,
    load: Vec<f64>,
    mem: Vec<f64>,
    host_of: Vec<usize>,
    /// Largest load of the incumbent and its placement (in task order).
    pub incumbent: Option<(f64, Placement)>,
    floor: f64,
    /// Nodes visited.
    pub nodes: u64,
    max_nodes: u64,
    deadline: Deadline,
    /// The node cap or the deadline stopped the search.
    pub stopped: bool,
    done: bool,
    ticker: progress::Ticker,
}

impl Search {
    /// A search over the tasks of `flat` for a largest load below the incumbent's (less the
    /// margin), stopping at a largest load of `floor` or less.
    pub fn new(
        flat: &Instance,
        incumbent: Option<(f64, Placement)>,
        floor: f64,
        max_nodes: u64,
        deadline: Deadline,
    ) -> Self {
        let n = flat.num_jobs();
        let mut orig: Vec<usize> = (0..n).collect();
        let key = |i: usize| (flat.jobs[i].cpu, flat.jobs[i].mem);
        orig.sort_by(|&x, &y| {
            let (ax, mx) = key(x);
            let (ay, my) = key(y);
            ay.total_cmp(&ax).then(my.total_cmp(&mx)).then(x.cmp(&y))
        });
        let a: Vec<f64> = orig.iter().map(|&i| flat.jobs[i].cpu).collect();
        let m: Vec<f64> = orig.iter().map(|&i| flat.jobs[i].mem).collect();
        let same = (0..n)
            .map(|k| k > 0 && a[k] == a[k - 1] && m[k] == m[k - 1])
            .collect();
        let suffix = |v: &[f64], f: fn(f64, f64) -> f64, start: f64| {
            let mut s = vec![start; n + 1];
            for k in (0..n).rev() {
                s[k] = f(s[k + 1], v[k]);
            }
            s
        };
        Search {
            rest_a: suffix(&a, |x, y| x + y, 0.0),
            rest_m: suffix(&m, |x, y| x + y, 0.0),
            min_a: suffix(&a, f64::min, f64::INFINITY),
            min_m: suffix(&m, f64::min, f64::INFINITY),
            a,
            m,
            same,
            orig,
            hosts: flat.hosts,
            load: vec![0.0; flat.hosts],
            mem: vec![0.0; flat.hosts],
            host_of: vec![0; n],
            incumbent,
            floor,
            nodes: 0,
            max_nodes,
            deadline,
            stopped: false,
            done: false,
            ticker: progress::Ticker::for_nodes(),
        }
    }

    /// Runs the search to the end, to the floor, or to the cap.
    pub fn run(&mut self) {
        self.go(0, 0);
    }

    fn limit(&self) -> f64 {
        self.incumbent
            .as_ref()
            .map_or(f64::INFINITY, |(l, _)| l * (1.0 - PROOF_MARGIN))
    }

    fn go(&mut self, k: usize, used: usize) {
        if self.done || self.stopped {
            return;
        }
        self.nodes += 1;
        if out_of_effort(self.nodes, self.max_nodes, &self.deadline) {
            self.stopped = true;
            return;
        }
        if self.ticker.due() {
            let inc = self.incumbent.as_ref().map_or(f64::INFINITY, |b| b.0);
            progress::line(format_args!(
                "exact: branch-and-bound {} nodes, largest load {} (yield {}), floor {}",
                self.nodes,
                progress::figure(inc),
                progress::figure((1.0 / inc).min(1.0)),
                progress::figure(self.floor)
            ));
        }
        let n = self.a.len();
        if k == n {
            let l = self.load.iter().copied().fold(0.0, f64::max);
            let mut p = vec![0; n];
            for (pos, &i) in self.orig.iter().enumerate() {
                p[i] = self.host_of[pos];
            }
            self.incumbent = Some((l, p));
            if l <= self.floor * (1.0 + PROOF_MARGIN) {
                self.done = true;
            }
            return;
        }
        let lim = self.limit();
        let cap = 1.0 + MEMORY_SLACK;
        // Room left on the hosts that can still take the smallest remaining item.
        let (mut room_a, mut room_m) = (0.0, 0.0);
        for h in 0..self.hosts {
            if lim.is_finite() && lim - self.load[h] > self.min_a[k] {
                room_a += lim - self.load[h];
            }
            if cap - self.mem[h] >= self.min_m[k] {
                room_m += cap - self.mem[h];
            }
        }
        if (lim.is_finite() && room_a <= self.rest_a[k]) || room_m < self.rest_m[k] {
            return;
        }
        let (ak, mk) = (self.a[k], self.m[k]);
        let low = if self.same[k] { self.host_of[k - 1] } else { 0 };
        let mut cand: Vec<usize> = (low..(used + 1).min(self.hosts))
            .filter(|&h| self.load[h] + ak < lim && self.mem[h] + mk <= cap)
            .collect();
        cand.sort_by(|&x, &y| self.load[x].total_cmp(&self.load[y]).then(x.cmp(&y)));
        let mut tried: Vec<(f64, f64)> = Vec::with_capacity(cand.len());
        for h in cand {
            let state = (self.load[h], self.mem[h]);
            if tried.contains(&state) {
                continue;
            }
            tried.push(state);
            // The incumbent may have improved in an earlier branch.
            if self.load[h] + ak >= self.limit() {
                continue;
            }
            self.load[h] += ak;
            self.mem[h] += mk;
            self.host_of[k] = h;
            self.go(k + 1, used.max(h + 1));
            self.load[h] = state.0;
            self.mem[h] = state.1;
            if self.done || self.stopped {
                return;
            }
        }
    }
}

/// A probe by bin completion: is there a placement with every load at most `t` (and memory at
/// most `1 + MEMORY_SLACK`)? Hosts are filled one at a time, each starting with the largest
/// item left (hosts are identical, so some host holds it); a host's item set is a subset of
/// the items left, enumerated in decreasing `α` with identical items taken in order. A host is
/// closed only while the CPU room it leaves unused, added over the closed hosts, stays within
/// `H t − Σα` (the room a whole placement leaves), and likewise for memory: near
/// `t = Σα/H` every host must be nearly full, which is what makes planted packings easy.
struct Completion<'a> {
    a: &'a [f64],
    m: &'a [f64],
    same: &'a [bool],
    t: f64,
    cap: f64,
    hosts: usize,
    slack_a: f64,
    slack_m: f64,
    free: Vec<bool>,
    host_of: Vec<usize>,
    nodes: u64,
    max_nodes: u64,
    deadline: Deadline,
    stopped: bool,
    found: bool,
}

impl Completion<'_> {
    fn fill(&mut self, h: usize, waste_a: f64, waste_m: f64) {
        let Some(first) = self.free.iter().position(|&f| f) else {
            self.found = true;
            return;
        };
        if h == self.hosts {
            return;
        }
        self.free[first] = false;
        self.host_of[first] = h;
        self.extend(h, first + 1, self.a[first], self.m[first], waste_a, waste_m);
        self.free[first] = true;
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(&mut self, h: usize, from: usize, load: f64, mem: f64, waste_a: f64, waste_m: f64) {
        self.nodes += 1;
        if out_of_effort(self.nodes, self.max_nodes, &self.deadline) {
            self.stopped = true;
        }
        if self.stopped || self.found {
            return;
        }
        // What the items left from `from` on could still add to this host.
        let reach: f64 = (from..self.a.len())
            .filter(|&k| self.free[k])
            .map(|k| self.a[k])
            .sum();
        if load + reach < self.t - (self.slack_a - waste_a) {
            return;
        }
        let mut last: Option<usize> = None;
        for k in from..self.a.len() {
            if !self.free[k] || self.load_blocked(k, load, mem) {
                continue;
            }
            // An identical item skipped just before: taking this one instead is the same set.
            if self.same[k] && last == Some(k - 1) {
                last = Some(k);
                continue;
            }
            self.free[k] = false;
            self.host_of[k] = h;
            self.extend(
                h,
                k + 1,
                load + self.a[k],
                mem + self.m[k],
                waste_a,
                waste_m,
            );
            self.free[k] = true;
            if self.stopped || self.found {
                return;
            }
            last = Some(k);
        }
        let (wa, wm) = (waste_a + (self.t - load), waste_m + (self.cap - mem));
        if wa <= self.slack_a && wm <= self.slack_m {
            self.fill(h + 1, wa, wm);
        }
    }

    fn load_blocked(&self, k: usize, load: f64, mem: f64) -> bool {
        load + self.a[k] > self.t || mem + self.m[k] > self.cap
    }
}

impl Search {
    /// A bin-completion probe at level `t` on this search's items (see [`Completion`]):
    /// `Some(placement)` (task order), or `None` with `self.stopped` telling a cap from a
    /// proof that no placement has every load at most `t`.
    pub fn probe(&mut self, t: f64) -> Option<Placement> {
        let total_a = self.rest_a[0];
        let total_m = self.rest_m[0];
        let cap = 1.0 + MEMORY_SLACK;
        let n = self.a.len();
        let mut c = Completion {
            a: &self.a,
            m: &self.m,
            same: &self.same,
            t,
            cap,
            hosts: self.hosts,
            // A whole placement leaves exactly this room; the float sums of the closed
            // hosts' room may exceed it by rounding, so a little is added (it only weakens
            // the cuts).
            slack_a: self.hosts as f64 * t - total_a + ROUNDING * self.hosts as f64 * t,
            slack_m: self.hosts as f64 * cap - total_m + ROUNDING * self.hosts as f64,
            free: vec![true; n],
            host_of: vec![0; n],
            nodes: 0,
            max_nodes: self.max_nodes,
            deadline: self.deadline,
            stopped: false,
            found: false,
        };
        if c.slack_a >= 0.0 && c.slack_m >= 0.0 {
            c.fill(0, 0.0, 0.0);
        }
        self.nodes = c.nodes;
        self.stopped = c.stopped;
        let host_of = c.host_of;
        c.found.then(|| {
            let mut p = vec![0; n];
            for (pos, &i) in self.orig.iter().enumerate() {
                p[i] = host_of[pos];
            }
            p
        })
    }
}
