//! Suspend and resume (§3.2, vertical policy; §4.2.2 start condition; Algorithm 4).
//!
//! The paper: "If the current budget is not enough to meet the SLO, … if it is advantageous to
//! suspend the application execution, e.g., in the case of best-effort or deadline-driven batch
//! applications, it suspends the application, resuming it when the price drops, e.g., VMs can
//! receive 75% of the maximum allocation at the current budget". And §4.2.2: queued platforms
//! are checked against a start condition; "if the virtual platform cannot start, e.g., the
//! price is too high, it is put back in the queue". Algorithm 4: `NeedsSuspend()` →
//! `SuspendApplication()` → a suspend message to the applications manager (the app re-enters
//! its queue); on a later start, "if application needs resume then ResumeApplication()".
//!
//! Here: a suspended app releases its VMs (no VM runs, nothing is billed), keeps its progress
//! (the checkpoint), and waits in the admission queue; the start condition of a new app and the
//! resume condition of a suspended one are the same test, [`State::affordable`]: the budget for
//! the next period buys `resume_fraction` (0.75) of the maximum allocation of every VM at the
//! current price (Eq. 1 solved for one's own bid given the others', Algorithm 3's formula with
//! `a_max` scaled by the fraction).

use super::controllers::cost;
use super::instance::Res;
use super::scenario::AppKind;
use super::sim::State;
use serde::{Deserialize, Serialize};

/// When the vertical policy suspends a deadline-driven app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspendRule {
    /// Never (the simulation before issue 39).
    Off,
    /// The SLO is not met (`v > v_high`) and the budget for the next period cannot buy
    /// `resume_fraction` of the maximum allocation at the current price — the resume test
    /// failed, so the app would only resume when the price drops (default; no suspend/resume
    /// flapping at an unchanged price).
    #[default]
    Price,
    /// The SLO is not met and Algorithm 1's budget step (lines 19–25) cut the bids it wanted
    /// ("the application budget is too limited to ensure the desired resource allocation").
    BudgetCut,
}

/// The applications manager's start condition (§4.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartRule {
    /// Free VM slots only (the simulation before issue 39; the EASY/Maui baseline).
    Slots,
    /// Free VM slots and the price: the app's budget buys `resume_fraction` of its maximum
    /// allocation at the current price (default; the paper's "the price is too high").
    #[default]
    Price,
}

impl State<'_> {
    /// The credits app `a` may bid over all its VMs in the period starting at `t`: a
    /// deadline-driven app spreads its balance (its budget before it starts) over the periods
    /// left to its deadline, as Algorithm 1's `bid_max`; other apps bid their fixed bids.
    pub(crate) fn period_budget(&self, a: usize, t: f64) -> f64 {
        let spec = &self.sc.apps[a];
        let app = &self.apps[a];
        match (spec.kind, spec.deadline_s) {
            (AppKind::Deadline, Some(d)) => {
                let balance = if app.start.is_some() {
                    self.ledger.accounts[a]
                } else {
                    spec.budget
                };
                let start = app.start.unwrap_or(t);
                let deadline = start + (spec.arrival_s + d - start) * self.set.deadline_target;
                let time_left = (deadline - t).max(self.sc.period_s);
                balance / (time_left / self.sc.period_s).ceil().max(1.0)
            }
            _ => spec.vms as f64 * spec.bid.total(),
        }
    }

    /// The start/resume test: can `a`'s VMs receive `resume_fraction` of their maximum
    /// allocation at the current price with the budget of the next period? The price of
    /// resource `r` is the others' bids over the pooled capacity; the bid that buys `x` per VM
    /// for `n` VMs is `P·x·n / (1 − x·n/C)` (Eq. 1 solved for one's own bid). When every VM,
    /// the app's included, fits within capacity at its maximum allocation, Eq. 1 with caps
    /// gives every VM its maximum at any bid, so only `bid_min` per VM is needed.
    pub(crate) fn affordable(&self, a: usize, t: f64) -> bool {
        let spec = &self.sc.apps[a];
        let n = spec.vms;
        if n == 0 {
            return true;
        }
        let (mut bids, mut caps) = (Res::default(), Res::default());
        for vm in self.vms.iter().filter(|v| v.alive && v.app != a) {
            bids = Res::new(bids.cpu + vm.bid.cpu, bids.mem + vm.bid.mem);
            let c = self.sc.apps[vm.app].vm_size;
            caps = Res::new(caps.cpu + c.cpu, caps.mem + c.mem);
        }
        let nf = n as f64;
        let fits = caps.cpu + nf * spec.vm_size.cpu <= self.pooled.cpu + 1e-9
            && caps.mem + nf * spec.vm_size.mem <= self.pooled.mem + 1e-9;
        let need = if fits {
            0.0
        } else {
            let price = Res::new(bids.cpu / self.pooled.cpu, bids.mem / self.pooled.mem);
            let f = self.set.resume_fraction;
            let x = Res::new(f * spec.vm_size.cpu, f * spec.vm_size.mem);
            cost(n, &price, &x, &self.pooled, &Res::default()).total()
        };
        need.max(nf * self.sc.bid_min.total()) <= self.period_budget(a, t) * (1.0 + 1e-12)
    }

    /// `SuspendApplication()` and the suspend message of Algorithm 4: the VMs are released
    /// (their slots free, nothing billed), progress is kept, and the app waits for the resume
    /// condition in the admission queue.
    pub(crate) fn suspend(&mut self, a: usize) {
        for v in self.apps[a].vms.clone() {
            self.kill_vm(v);
        }
        let app = &mut self.apps[a];
        app.suspended = true;
        app.suspensions += 1;
    }

    /// `ResumeApplication()`: the VMs are started again (booting for `boot_s`) with the bid
    /// the app held when it was suspended; its progress continues where it stopped.
    pub(crate) fn resume(&mut self, a: usize, t: f64) {
        self.apps[a].suspended = false;
        for _ in 0..self.sc.apps[a].vms {
            self.add_vm(a, t);
        }
    }
}
