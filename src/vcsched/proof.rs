//! The proofs of a VCSched yield bound and their re-derivation (issue 37, models/proofs.md): `cpu-sum` (`min(1, H/Σα)`, §3.1) and `load-bound` (`min(1, 1/L)` with `L`
//! exact's closed-form floor of the largest load) in closed form; exact's probes, search and
//! packing proof (`search`, re-run by `--deep`, and on small instances checked against the
//! MILP); the relaxation's weak-duality bound (`dual`, `vcsched-lp`, re-derived by
//! [`super::lp_dual`]); HiGHS's MIP value (`solver`, claimed).
//!
//! Both closed forms hold for every instance: flattening a parallel job, dropping current
//! hosts and a budget only relax the problem, and `Y ≤ 1/L*` on the flattened one.

use super::instance::Instance;
use super::method::{solve_within, Method, Settings};
use super::relaxation::closed_form_bound;
use super::solution::Solution;
use crate::problem::proof::{self, supports, with_closed_form};
use crate::problem::{BoundCheck, Depth, Proof, Sense};
use crate::solver::Deadline;
use crate::Status;

/// Tasks at most for `--deep` to also solve the MILP (a second exact method).
const DEEP_MILP_TASKS: usize = 16;

/// `min(1, 1/L)` with `L` [`super::exact::load_bound`] of the flattened instance.
pub fn load_bound_yield(flat: &Instance) -> f64 {
    (1.0 / super::exact::load_bound(flat)).min(1.0)
}

/// The closed forms: the least of `min(1, H/Σα)` and `min(1, 1/L)`; `None` when the memory
/// alone is infeasible (no bound then).
pub fn closed_form(inst: &Instance) -> Option<f64> {
    let flat = inst.flattened();
    let load = if flat.tasks().next().is_some() {
        load_bound_yield(&flat)
    } else {
        1.0
    };
    closed_form_bound(inst).map(|c| c.min(load))
}

/// Re-derives the bound of `sol`: the closed forms; else, whatever the proof's kind, the
/// independent refutation below ([`refute_below`]) within [`CHECK_NODES`] nodes; else, with
/// `--deep`, the search re-run.
pub fn check(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    let c = &sol.certificate;
    with_closed_form(c, Sense::Maximize, closed_form(inst), || {
        if let Some(Proof::Dual { lp, duals }) = &c.proof {
            return check_dual(inst, sol, lp, duals);
        }
        let claimed = c.bound.unwrap_or(1.0);
        if claimed > 0.0 {
            let flat = inst.flattened();
            let nodes = if depth.deep { DEEP_NODES } else { CHECK_NODES };
            if let Some(y) = refute_below(&flat, claimed, nodes) {
                return BoundCheck::Checked {
                    kind: "search",
                    value: y,
                };
            }
        }
        match &c.proof {
            Some(Proof::Search { .. }) if depth.deep => rerun(inst, sol, depth),
            _ => BoundCheck::claimed_by(c),
        }
    })
}

/// A `dual` proof: the relaxation ([`super::lp_dual`]) rebuilt from the instance with the
/// budget the answer names (its `budget`, else the instance's), weak duality at the
/// multipliers, judged against the claim.
fn check_dual(inst: &Instance, sol: &Solution, lp: &str, duals: &[f64]) -> BoundCheck {
    if lp != super::lp_dual::LP_NAME {
        return BoundCheck::Refuted {
            why: format!(
                "a dual proof of the LP {lp:?}; VCSched's is {:?}",
                super::lp_dual::LP_NAME
            ),
        };
    }
    let budgeted;
    let inst = match sol.budget {
        Some(b) if inst.is_adaptation() => {
            budgeted = Instance {
                budget: Some(b),
                ..inst.clone()
            };
            &budgeted
        }
        _ => inst,
    };
    match super::lp_dual::check(inst, duals) {
        Ok(v) => proof::judge(&sol.certificate, Sense::Maximize, "dual", v),
        Err(why) => BoundCheck::Refuted { why },
    }
}

/// Nodes of the independent refutation in a plain `verify`.
pub const CHECK_NODES: u64 = 200_000;
/// Nodes of the independent refutation under `--deep`.
const DEEP_NODES: u64 = 50_000_000;
/// Relative margin of the refutation: float sums of at most a few hundred terms err far less.
const REFUTE_MARGIN: f64 = 1e-9;
/// Memory slack of a host, as `verify`'s.
const MEMORY_SLACK: f64 = 1e-9;

/// The claimed yield bound `y` re-derived by a search of its own, independent of `exact`'s:
/// no placement of the flattened instance's tasks (memory at most 1 per host) has every
/// host's CPU load below `1 / (y (1 + margin))`, so no yield exceeds `y (1 + margin)`, the
/// value returned. `None` when a placement is found (the bound is not this search's to
/// prove: a relaxation may be looser than the problem) or the node budget runs out.
///
/// Depth-first over tasks in decreasing CPU need; a task tries each used host (one of any
/// hosts with the same load and memory) and one empty host; a branch is cut when the CPU or
/// memory left exceeds what the hosts can still take.
pub fn refute_below(flat: &Instance, y: f64, max_nodes: u64) -> Option<f64> {
    let bound = y * (1.0 + REFUTE_MARGIN);
    if bound >= 1.0 {
        // The closed form `min(1, …)` covers it: nothing to refute.
        return None;
    }
    let target = 1.0 / bound;
    let mut items: Vec<(f64, f64)> = flat.tasks().map(|j| (j.cpu, j.mem)).collect();
    items.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut r = Refuter {
        items,
        target,
        mem_cap: 1.0 + MEMORY_SLACK,
        load: vec![0.0; flat.hosts],
        mem: vec![0.0; flat.hosts],
        nodes: 0,
        max_nodes,
    };
    let cpu_left: f64 = r.items.iter().map(|i| i.0).sum();
    let mem_left: f64 = r.items.iter().map(|i| i.1).sum();
    match r.place(0, 0, cpu_left, mem_left) {
        Some(false) => Some(bound),
        _ => None,
    }
}

struct Refuter {
    items: Vec<(f64, f64)>,
    target: f64,
    mem_cap: f64,
    load: Vec<f64>,
    mem: Vec<f64>,
    nodes: u64,
    max_nodes: u64,
}

impl Refuter {
    /// Some(true): a placement with every load below the target exists; Some(false): none;
    /// None: out of nodes. `used` hosts are open; the rest are empty.
    fn place(&mut self, k: usize, used: usize, cpu_left: f64, mem_left: f64) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        if k == self.items.len() {
            return Some(true);
        }
        let h = self.load.len();
        let room_cpu: f64 = self.load.iter().map(|l| self.target - l).sum();
        let room_mem: f64 = self.mem.iter().map(|m| self.mem_cap - m).sum();
        if cpu_left >= room_cpu || mem_left > room_mem {
            return Some(false);
        }
        let (a, m) = self.items[k];
        let mut tried: Vec<(f64, f64)> = Vec::new();
        for host in 0..(used + 1).min(h) {
            let (l, x) = (self.load[host], self.mem[host]);
            if l + a >= self.target || x + m > self.mem_cap || tried.contains(&(l, x)) {
                continue;
            }
            tried.push((l, x));
            self.load[host] += a;
            self.mem[host] += m;
            let next_used = used.max(host + 1);
            let got = self.place(k + 1, next_used, cpu_left - a, mem_left - m);
            self.load[host] = l;
            self.mem[host] = x;
            match got {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }
}

/// `--deep` on a search proof: `exact` again within the budget, and on small instances the
/// MILP, whose optimum may not exceed the bound.
fn rerun(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    let claimed = sol.certificate.bound.unwrap_or(1.0);
    let settings = Settings {
        avg_phase: false,
        ..Settings::default()
    };
    let deadline = Deadline::after(Some(depth.seconds));
    if inst.tasks().count() <= DEEP_MILP_TASKS {
        match solve_within(inst, Method::Milp, &settings, &deadline) {
            Ok(m) if m.status == Status::Optimal => {
                let y = m.objective.unwrap_or(0.0);
                return if supports(Sense::Maximize, claimed, y) {
                    BoundCheck::Checked {
                        kind: "search",
                        value: claimed,
                    }
                } else {
                    BoundCheck::Refuted {
                        why: format!(
                            "the MILP finds the yield {y} above the claimed bound {claimed}"
                        ),
                    }
                };
            }
            _ => {}
        }
    }
    proof::rerun(&sol.certificate, Sense::Maximize, depth, |d| {
        solve_within(inst, Method::Exact, &settings, d).map(|s| s.certificate.bound)
    })
}
