//! Evaluating a placement: enforced allocations per node, the global ideal over the pooled
//! capacity, and the allocation error `E_v` of §3.1. The tabu search moves one VM at a time,
//! so [`Evaluation`] recomputes only the two nodes a move touches.

use super::instance::{Instance, Res};
use super::share::{proportional_share, ErrorNorm};

/// The global ideal `g_v^r`: Eq. 1 with caps over the pooled capacity `Σ_n C_n^r`, and the
/// pooled price per resource. Independent of the placement.
pub fn global_ideal(inst: &Instance) -> (Vec<Res>, Res) {
    let mut g = vec![Res::default(); inst.vms.len()];
    let mut price = Res::default();
    for r in 0..2 {
        let bids: Vec<f64> = inst.vms.iter().map(|v| v.bid.get(r)).collect();
        let caps: Vec<f64> = inst.vms.iter().map(|v| v.cap.get(r)).collect();
        let pooled: f64 = inst.nodes.iter().map(|n| n.get(r)).sum();
        let s = proportional_share(&bids, &caps, pooled);
        for (v, a) in s.alloc.iter().enumerate() {
            g[v].set(r, *a);
        }
        price.set(r, s.price);
    }
    (g, price)
}

/// Enforced allocations of the VMs `members` on a node of capacity `cap`, written into
/// `alloc`; returns the node's price per resource.
pub fn node_allocation(inst: &Instance, cap: &Res, members: &[usize], alloc: &mut [Res]) -> Res {
    let mut price = Res::default();
    for r in 0..2 {
        let bids: Vec<f64> = members.iter().map(|&v| inst.vms[v].bid.get(r)).collect();
        let caps: Vec<f64> = members.iter().map(|&v| inst.vms[v].cap.get(r)).collect();
        let s = proportional_share(&bids, &caps, cap.get(r));
        for (k, &v) in members.iter().enumerate() {
            alloc[v].set(r, s.alloc[k]);
        }
        price.set(r, s.price);
    }
    price
}

/// The VMs on each of `nodes` nodes under `placement`.
pub fn members_of(placement: &[usize], nodes: usize) -> Vec<Vec<usize>> {
    let mut members = vec![Vec::new(); nodes];
    for (v, &n) in placement.iter().enumerate() {
        members[n].push(v);
    }
    members
}

/// `E_v = max_r norm(|a_v^r − g_v^r|)` for one VM on a node of capacity `node`.
pub fn vm_error(a: &Res, g: &Res, cap: &Res, node: &Res, norm: ErrorNorm) -> f64 {
    (0..2)
        .map(|r| norm.normalise((a.get(r) - g.get(r)).abs(), node.get(r), cap.get(r)))
        .fold(0.0, f64::max)
}

/// A placement with its allocations and errors, kept current under single-VM moves.
#[derive(Debug, Clone)]
pub struct Evaluation<'a> {
    inst: &'a Instance,
    norm: ErrorNorm,
    /// Node of each VM.
    pub placement: Vec<usize>,
    /// VMs on each node.
    pub members: Vec<Vec<usize>>,
    /// Enforced allocation of each VM.
    pub alloc: Vec<Res>,
    /// Global ideal of each VM.
    pub ideal: Vec<Res>,
    /// Error `E_v` of each VM.
    pub error: Vec<f64>,
}

impl<'a> Evaluation<'a> {
    /// Evaluates `placement` (one node index per VM).
    pub fn new(inst: &'a Instance, placement: Vec<usize>, norm: ErrorNorm) -> Self {
        let (ideal, _) = global_ideal(inst);
        Self::with_ideal(inst, placement, norm, ideal)
    }

    /// Same as [`Evaluation::new`] with a precomputed ideal (the brute force reuses it).
    pub fn with_ideal(
        inst: &'a Instance,
        placement: Vec<usize>,
        norm: ErrorNorm,
        ideal: Vec<Res>,
    ) -> Self {
        let members = members_of(&placement, inst.nodes.len());
        let m = inst.vms.len();
        let mut e = Evaluation {
            inst,
            norm,
            placement,
            members,
            alloc: vec![Res::default(); m],
            ideal,
            error: vec![0.0; m],
        };
        for n in 0..inst.nodes.len() {
            e.refresh(n);
        }
        e
    }

    fn refresh(&mut self, n: usize) {
        let node = self.inst.nodes[n];
        node_allocation(self.inst, &node, &self.members[n], &mut self.alloc);
        for &v in &self.members[n] {
            let cap = self.inst.vms[v].cap;
            self.error[v] = vm_error(&self.alloc[v], &self.ideal[v], &cap, &node, self.norm);
        }
    }

    /// The largest error over all VMs (0 without VMs).
    pub fn max_error(&self) -> f64 {
        self.error.iter().copied().fold(0.0, f64::max)
    }

    /// Moves VM `v` to node `to` and recomputes the two nodes concerned.
    pub fn apply(&mut self, v: usize, to: usize) {
        let from = self.placement[v];
        if from == to {
            return;
        }
        self.members[from].retain(|&x| x != v);
        self.members[to].push(v);
        self.placement[v] = to;
        self.refresh(from);
        self.refresh(to);
    }

    /// Error VM `v` would have on node `to` (without applying the move).
    pub fn error_if_moved(&self, v: usize, to: usize) -> f64 {
        let node = self.inst.nodes[to];
        let mut a = Res::default();
        for r in 0..2 {
            let mut bids: Vec<f64> = self.members[to]
                .iter()
                .map(|&x| self.inst.vms[x].bid.get(r))
                .collect();
            let mut caps: Vec<f64> = self.members[to]
                .iter()
                .map(|&x| self.inst.vms[x].cap.get(r))
                .collect();
            bids.push(self.inst.vms[v].bid.get(r));
            caps.push(self.inst.vms[v].cap.get(r));
            let s = proportional_share(&bids, &caps, node.get(r));
            a.set(r, *s.alloc.last().expect("v was pushed"));
        }
        vm_error(&a, &self.ideal[v], &self.inst.vms[v].cap, &node, self.norm)
    }
}
