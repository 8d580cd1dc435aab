//! The load-balancing tabu search of §3.1 and an exhaustive oracle for tiny instances.

use super::instance::{Instance, Res};
use super::placement::{global_ideal, Evaluation};
use super::share::ErrorNorm;

/// Parameters of one tabu run (taken from [`super::Settings`] and the instance).
#[derive(Debug, Clone, Copy)]
pub struct TabuParams {
    /// `ε`: stop once the largest error is at most this.
    pub epsilon: f64,
    /// `M`: at most this many VMs may end (or be, at any step) off their initial node.
    pub migrations: usize,
    /// `τ`: a (VM, source node) pair stays tabu for this many iterations.
    pub tenure: usize,
    /// `I`: at most this many iterations.
    pub iterations: usize,
    /// How CPU and memory errors combine into `E_v`.
    pub norm: ErrorNorm,
}

/// What a search returns: the best placement found and how many iterations it used.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// Node of each VM in the best placement.
    pub placement: Vec<usize>,
    /// Its largest error.
    pub max_error: f64,
    /// Iterations performed (tabu) or placements evaluated (brute force).
    pub iterations: u64,
}

fn migrated(placement: &[usize], initial: &[usize]) -> usize {
    placement
        .iter()
        .zip(initial)
        .filter(|(a, b)| a != b)
        .count()
}

/// The best admissible move of VM `v`: to a non-tabu node with room that keeps the number
/// of migrated VMs within `M`, minimising the VM's own error (ties: lowest node index).
fn best_move(
    ev: &Evaluation,
    inst: &Instance,
    v: usize,
    initial: &[usize],
    moved: usize,
    tabu: &[(usize, usize, usize)],
    p: &TabuParams,
) -> Option<(usize, f64)> {
    let from = ev.placement[v];
    let mut best: Option<(usize, f64)> = None;
    for to in 0..inst.nodes.len() {
        if to == from || ev.members[to].len() >= inst.max_vms_per_node {
            continue;
        }
        if tabu.iter().any(|&(tv, tn, _)| tv == v && tn == to) {
            continue;
        }
        let new_moved = moved + usize::from(from == initial[v]) - usize::from(to == initial[v]);
        if new_moved > p.migrations {
            continue;
        }
        let e = ev.error_if_moved(v, to);
        if best.is_none_or(|(_, b)| e < b) {
            best = Some((to, e));
        }
    }
    best
}

/// Tabu search (§3.1): repeatedly move the VM with the largest error that has an admissible
/// move to the node minimising its error, make (VM, source) tabu for `τ` iterations, keep the
/// best placement by largest error; stop at `I` iterations, when no move is admissible, or
/// when the largest error is at most `ε`. Never returns a placement worse than the initial one.
pub fn tabu_search(inst: &Instance, p: &TabuParams) -> SearchResult {
    let initial: Vec<usize> = inst.vms.iter().map(|v| v.node).collect();
    let mut ev = Evaluation::new(inst, initial.clone(), p.norm);
    let mut best = initial.clone();
    let mut best_err = ev.max_error();
    let mut tabu: Vec<(usize, usize, usize)> = Vec::new();
    let mut iter = 0usize;
    while iter < p.iterations && ev.max_error() > p.epsilon {
        iter += 1;
        tabu.retain(|&(_, _, until)| until >= iter);
        let moved = migrated(&ev.placement, &initial);
        let mut order: Vec<usize> = (0..inst.vms.len()).collect();
        order.sort_by(|&a, &b| ev.error[b].total_cmp(&ev.error[a]).then(a.cmp(&b)));
        let choice = order
            .iter()
            .find_map(|&v| best_move(&ev, inst, v, &initial, moved, &tabu, p).map(|m| (v, m.0)));
        let Some((v, to)) = choice else { break };
        let from = ev.placement[v];
        ev.apply(v, to);
        tabu.push((v, from, iter + p.tenure));
        log::debug!(
            "tabu iter {iter}: vm {v} {from}->{to}, max E {}",
            ev.max_error()
        );
        if ev.max_error() < best_err {
            best_err = ev.max_error();
            best = ev.placement.clone();
        }
    }
    SearchResult {
        placement: best,
        max_error: best_err,
        iterations: iter as u64,
    }
}

/// Exhaustive search over all placements with at most `K` VMs per node and at most `M`
/// migrated VMs: the test oracle for the tabu search. Returns `None` when `n^m` exceeds
/// `limit`.
pub fn brute_force(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    limit: u64,
) -> Option<SearchResult> {
    let n = inst.nodes.len() as u64;
    let m = inst.vms.len() as u32;
    if n.checked_pow(m).is_none_or(|c| c > limit) {
        return None;
    }
    let initial: Vec<usize> = inst.vms.iter().map(|v| v.node).collect();
    let (ideal, _) = global_ideal(inst);
    let mut st = Brute {
        inst,
        norm,
        ideal,
        initial: initial.clone(),
        migrations,
        cur: initial.clone(),
        count: vec![0; inst.nodes.len()],
        best: initial,
        best_err: f64::INFINITY,
        evaluated: 0,
    };
    st.dfs(0, 0);
    Some(SearchResult {
        placement: st.best,
        max_error: st.best_err,
        iterations: st.evaluated,
    })
}

struct Brute<'a> {
    inst: &'a Instance,
    norm: ErrorNorm,
    ideal: Vec<Res>,
    initial: Vec<usize>,
    migrations: usize,
    cur: Vec<usize>,
    count: Vec<usize>,
    best: Vec<usize>,
    best_err: f64,
    evaluated: u64,
}

impl Brute<'_> {
    fn dfs(&mut self, v: usize, moved: usize) {
        if v == self.cur.len() {
            let ev =
                Evaluation::with_ideal(self.inst, self.cur.clone(), self.norm, self.ideal.clone());
            self.evaluated += 1;
            let e = ev.max_error();
            if e < self.best_err {
                self.best_err = e;
                self.best = self.cur.clone();
            }
            return;
        }
        for n in 0..self.inst.nodes.len() {
            let mv = moved + usize::from(n != self.initial[v]);
            if mv > self.migrations || self.count[n] >= self.inst.max_vms_per_node {
                continue;
            }
            self.cur[v] = n;
            self.count[n] += 1;
            self.dfs(v + 1, mv);
            self.count[n] -= 1;
        }
        self.cur[v] = self.initial[v];
    }
}
