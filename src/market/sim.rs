//! Discrete-time market simulation: every period, renew budgets, admit apps, run the
//! controllers, bill bids, rebalance with the tabu search, divide each node by Eq. 1 with
//! caps and a reserve price, and advance the apps.

use super::controllers::VerticalParams;
use super::instance::{Instance, Res, Vm as InstVm};
use super::ledger::Ledger;
use super::rebalance::Settings;
use super::scenario::{AppKind, Scenario};
use super::share::share_with_reserve;
use super::tabu::{tabu_search, TabuParams};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub use super::simout::{AppOutcome, PeriodStat, Row, SimResult};
pub use super::suspend::{StartRule, SuspendRule};

/// How waiting apps are admitted to VM slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Admission {
    /// Merkat's applications manager: in arrival order, start every app whose VMs fit now.
    #[default]
    FirstFit,
    /// EASY backfilling (the Maui baseline): FCFS with a reservation for the head and
    /// backfilling that does not delay it, using run-time estimates.
    Easy,
}

/// Simulation settings (every number the paper leaves open).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimSettings {
    /// Algorithm 1's reading and maximum factor.
    pub vertical: VerticalParams,
    /// Admission policy.
    pub admission: Admission,
    /// Run the §3.1 tabu rebalancer every period (with `rebalance`'s ε, M, τ, I).
    pub rebalance_enabled: bool,
    /// Rebalancer settings.
    pub rebalance: Settings,
    /// Seconds a new VM boots before it computes (default 0).
    pub boot_s: f64,
    /// Seconds a migrated VM is stalled (default 0).
    pub migration_s: f64,
    /// Slowdown per other VM on the same node (0 = none; 0.05 = 5 % each), an optional model
    /// of the performance interference the paper blames for the 100-minute miss.
    pub interference: f64,
    /// Apply the reserve price as a floor on node prices (allocations `min(cap, b/reserve)`).
    /// Off by default: footnote 1 of §3.2 says an app on an under-used infrastructure keeps
    /// its maximum allocation while lowering its bid; the reserve price then only enters
    /// Algorithm 3's cost and the frameworks' budgets.
    pub price_floor: bool,
    /// Fraction of the relative deadline Algorithm 1's reference aims at (1 = the deadline
    /// itself, the literal reading; below 1 leaves slack for the one-period reaction lag).
    pub deadline_target: f64,
    /// Memory below the VM's size slows a lock-step app proportionally (off by default: the
    /// paper does not model memory pressure, and Algorithm 1 cuts both bids together).
    pub memory_slowdown: bool,
    /// Shut an app down when its balance cannot pay `bid_min` for its VMs (§4.2.4 case iii).
    pub shutdown_when_broke: bool,
    /// VMs added per period by Algorithm 2 when the queue is too long (the paper: 1).
    pub horizontal_step: usize,
    /// EASY's run-time estimate as a multiple of the nominal run time.
    pub estimate_factor: f64,
    /// Keep per-app rows (the CSV); off for timing runs.
    pub record_rows: bool,
    /// End as soon as every app has finished.
    pub stop_when_done: bool,
    /// When the vertical policy suspends a deadline-driven app (§3.2; models/market.md §5.1).
    pub suspend: SuspendRule,
    /// The applications manager's start condition (§4.2.2): slots only, or slots and price.
    pub start: StartRule,
    /// The fraction of the maximum allocation the next period's budget must buy at the current
    /// price to start or resume (the paper's example: 0.75).
    pub resume_fraction: f64,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            vertical: VerticalParams::default(),
            admission: Admission::FirstFit,
            rebalance_enabled: true,
            rebalance: Settings::default(),
            boot_s: 0.0,
            migration_s: 0.0,
            interference: 0.0,
            price_floor: false,
            deadline_target: 1.0,
            memory_slowdown: false,
            shutdown_when_broke: true,
            horizontal_step: 1,
            estimate_factor: 1.0,
            record_rows: true,
            stop_when_done: true,
            suspend: SuspendRule::Price,
            start: StartRule::Price,
            resume_fraction: 0.75,
        }
    }
}

impl SimSettings {
    /// Checks every value; the message names the key.
    pub fn validate(&self) -> std::result::Result<(), String> {
        self.rebalance.validate()?;
        for (k, v) in [
            ("boot_s", self.boot_s),
            ("migration_s", self.migration_s),
            ("interference", self.interference),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!("{k} = {v} must be finite and non-negative"));
            }
        }
        if !(self.estimate_factor.is_finite() && self.estimate_factor > 0.0) {
            return Err(format!(
                "estimate_factor = {} must be positive",
                self.estimate_factor
            ));
        }
        if !(self.deadline_target > 0.0 && self.deadline_target <= 1.0) {
            return Err(format!(
                "deadline_target = {} must be in (0, 1]",
                self.deadline_target
            ));
        }
        let r = self.resume_fraction;
        if !(r > 0.0 && r <= 1.0) {
            return Err(format!("resume_fraction = {r} must be in (0, 1]"));
        }
        let f = self.vertical.max_factor;
        if !(f.is_finite() && f >= 1.0) {
            return Err(format!("vertical.max_factor = {f} must be at least 1"));
        }
        Ok(())
    }
}

/// A live VM.
#[derive(Debug, Clone)]
pub(crate) struct SVm {
    pub app: usize,
    pub node: usize,
    pub bid: Res,
    pub alloc: Res,
    pub job: Option<usize>,
    pub idle_since: f64,
    pub ready_at: f64,
    pub alive: bool,
}

/// Per-app state.
#[derive(Debug, Clone, Default)]
pub(crate) struct SApp {
    pub start: Option<f64>,
    pub finish: Option<f64>,
    pub done_iters: f64,
    pub vms: Vec<usize>,
    pub bid: Res,
    pub history: f64,
    pub iter_time: f64,
    pub queue: VecDeque<usize>,
    pub next_job: usize,
    pub job_order: Vec<usize>,
    pub running: Vec<(usize, Vec<usize>, f64)>,
    pub jobs_done: usize,
    pub desired: usize,
    pub shutdown: bool,
    pub granted: f64,
    pub spent: f64,
    pub suspended: bool,
    pub suspensions: usize,
}

/// The whole simulation state.
pub(crate) struct State<'a> {
    pub sc: &'a Scenario,
    pub set: &'a SimSettings,
    pub vms: Vec<SVm>,
    pub apps: Vec<SApp>,
    pub ledger: Ledger,
    pub node_price: Vec<Res>,
    pub pooled: Res,
}

impl<'a> State<'a> {
    fn new(sc: &'a Scenario, set: &'a SimSettings) -> Self {
        let renewals = (sc.duration_s / sc.renewal_interval_s).ceil() + 1.0;
        let supply: f64 = sc.apps.iter().map(|a| a.budget + a.renew * renewals).sum();
        let apps = sc
            .apps
            .iter()
            .map(|a| {
                let mut order: Vec<usize> = (0..a.jobs.len()).collect();
                order.sort_by(|&x, &y| a.jobs[x].arrival_s.total_cmp(&a.jobs[y].arrival_s));
                SApp {
                    bid: a.bid,
                    job_order: order,
                    ..SApp::default()
                }
            })
            .collect();
        let pooled = Res::new(
            sc.nodes.iter().map(|n| n.cpu).sum(),
            sc.nodes.iter().map(|n| n.mem).sum(),
        );
        State {
            sc,
            set,
            vms: Vec::new(),
            apps,
            ledger: Ledger::new(supply, sc.apps.len()),
            node_price: vec![sc.reserve_price; sc.nodes.len()],
            pooled,
        }
    }

    /// Started, not finished, not shut down and not suspended: it holds VMs and is billed.
    pub fn active(&self, a: usize) -> bool {
        self.alive(a) && !self.apps[a].suspended
    }

    /// Started, not finished and not shut down (running or suspended).
    pub fn alive(&self, a: usize) -> bool {
        self.apps[a].start.is_some() && self.apps[a].finish.is_none() && !self.apps[a].shutdown
    }

    pub fn node_count(&self) -> Vec<usize> {
        let mut c = vec![0; self.sc.nodes.len()];
        self.vms
            .iter()
            .filter(|v| v.alive)
            .for_each(|v| c[v.node] += 1);
        c
    }

    pub fn free_slots(&self) -> usize {
        self.sc.nodes.len() * self.sc.max_vms_per_node - self.vms.iter().filter(|v| v.alive).count()
    }

    /// Starts a VM for app `a` on the node with the fewest VMs; `None` when all are full.
    pub fn add_vm(&mut self, a: usize, t: f64) -> Option<usize> {
        let count = self.node_count();
        let node = (0..count.len())
            .filter(|&n| count[n] < self.sc.max_vms_per_node)
            .min_by_key(|&n| count[n])?;
        self.vms.push(SVm {
            app: a,
            node,
            bid: self.apps[a].bid,
            alloc: Res::default(),
            job: None,
            idle_since: t,
            ready_at: t + self.set.boot_s,
            alive: true,
        });
        let id = self.vms.len() - 1;
        self.apps[a].vms.push(id);
        Some(id)
    }

    pub fn kill_vm(&mut self, id: usize) {
        self.vms[id].alive = false;
        let a = self.vms[id].app;
        self.apps[a].vms.retain(|&x| x != id);
    }

    fn start_app(&mut self, a: usize, t: f64) {
        let spec = &self.sc.apps[a];
        self.apps[a].start = Some(t);
        self.apps[a].granted += self.ledger.grant(a, spec.budget);
        if spec.kind != AppKind::Framework {
            for _ in 0..spec.vms {
                self.add_vm(a, t);
            }
        }
    }

    /// Nominal run time of a lock-step app at full allocation.
    fn nominal(&self, a: usize) -> f64 {
        let s = &self.sc.apps[a];
        if s.vm_size.cpu > 0.0 {
            s.work / s.vm_size.cpu
        } else {
            0.0
        }
    }

    fn admit(&mut self, t: f64) {
        // New arrivals and suspended apps wait in one queue, in arrival order.
        let waiting: Vec<usize> = (0..self.apps.len())
            .filter(|&a| {
                (self.apps[a].start.is_none() && self.sc.apps[a].arrival_s <= t)
                    || (self.apps[a].suspended && self.alive(a))
            })
            .collect();
        let mut free = self.free_slots();
        let mut shadow = f64::INFINITY;
        let mut extra = usize::MAX;
        for (k, &a) in waiting.iter().enumerate() {
            let spec = &self.sc.apps[a];
            let need = if spec.kind == AppKind::Framework {
                0
            } else {
                spec.vms
            };
            let est_end = t + self.nominal(a) * self.set.estimate_factor;
            let fits = need <= free
                && (self.set.start == StartRule::Slots
                    || spec.kind == AppKind::Framework
                    || self.affordable(a, t));
            let ok = match self.set.admission {
                Admission::FirstFit => fits,
                Admission::Easy if k == 0 || shadow.is_infinite() && extra == usize::MAX => fits,
                Admission::Easy => fits && (est_end <= shadow || need <= extra),
            };
            if self.apps[a].suspended
                && self.set.shutdown_when_broke
                && self.ledger.accounts[a] < spec.vms as f64 * self.sc.bid_min.total()
            {
                // §4.2.4 (iii): not enough budget to run at any price.
                self.apps[a].shutdown = true;
                continue;
            }
            if ok {
                if self.apps[a].suspended {
                    self.resume(a, t);
                } else {
                    self.start_app(a, t);
                }
                free -= need;
                if self.set.admission == Admission::Easy && est_end > shadow {
                    extra -= need;
                }
            } else if self.set.admission == Admission::Easy && shadow.is_infinite() {
                (shadow, extra) = self.reservation(t, need, free);
            }
        }
    }

    /// EASY's reservation for a head needing `need` slots: the earliest estimated time enough
    /// slots are free, and the slots spare at that time.
    fn reservation(&self, t: f64, need: usize, free: usize) -> (f64, usize) {
        let mut ends: Vec<(f64, usize)> = (0..self.apps.len())
            .filter(|&a| self.active(a) && self.sc.apps[a].kind != AppKind::Framework)
            .map(|a| {
                let end =
                    self.apps[a].start.unwrap_or(t) + self.nominal(a) * self.set.estimate_factor;
                (end.max(t + self.sc.period_s), self.apps[a].vms.len())
            })
            .collect();
        ends.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut avail = free;
        for (end, n) in ends {
            avail += n;
            if avail >= need {
                return (end, avail - need);
            }
        }
        (f64::INFINITY, 0)
    }

    fn renew(&mut self, t: f64) {
        let r = self.sc.renewal_interval_s;
        let p = self.sc.period_s;
        if t > 0.0 && (t / r).floor() > ((t - p) / r).floor() {
            for a in 0..self.apps.len() {
                if self.alive(a) {
                    let g = self.ledger.grant(a, self.sc.apps[a].renew);
                    self.apps[a].granted += g;
                }
            }
        }
    }

    /// Charges every app its VMs' bids; an app short of credits has its bids scaled down to
    /// what it can pay (so no account goes negative).
    fn bill(&mut self) {
        for a in 0..self.apps.len() {
            let n = self.apps[a].vms.len() as f64;
            if self.set.shutdown_when_broke
                && self.active(a)
                && n > 0.0
                && self.ledger.accounts[a] < n * self.sc.bid_min.total()
            {
                log::debug!("app {a} shut down: balance {}", self.ledger.accounts[a]);
                self.apps[a].shutdown = true;
                for v in self.apps[a].vms.clone() {
                    self.kill_vm(v);
                }
                continue;
            }
            let total: f64 = self.apps[a]
                .vms
                .iter()
                .map(|&v| self.vms[v].bid.total())
                .sum();
            if total <= 0.0 {
                continue;
            }
            let paid = self.ledger.charge(a, total);
            self.apps[a].spent += paid;
            if paid < total {
                let f = paid / total;
                for &v in &self.apps[a].vms.clone() {
                    let b = self.vms[v].bid;
                    self.vms[v].bid = Res::new(b.cpu * f, b.mem * f);
                }
            }
        }
    }

    fn rebalance(&mut self, t: f64) -> usize {
        if !self.set.rebalance_enabled || self.sc.nodes.len() < 2 {
            return 0;
        }
        let ids: Vec<usize> = (0..self.vms.len()).filter(|&v| self.vms[v].alive).collect();
        let inst = Instance {
            nodes: self.sc.nodes.clone(),
            vms: ids
                .iter()
                .map(|&v| InstVm {
                    node: self.vms[v].node,
                    bid: self.vms[v].bid,
                    cap: self.sc.apps[self.vms[v].app].vm_size,
                })
                .collect(),
            max_vms_per_node: self.sc.max_vms_per_node,
            migrations: self.set.rebalance.migration_limit_or(3),
        };
        let s = &self.set.rebalance;
        let p = TabuParams {
            epsilon: s.epsilon,
            migrations: inst.migrations,
            tenure: s.tabu_tenure,
            iterations: s.iterations,
            norm: s.error_norm,
        };
        let res = tabu_search(&inst, &p);
        let mut moved = 0;
        for (k, &v) in ids.iter().enumerate() {
            if res.placement[k] != self.vms[v].node {
                self.vms[v].node = res.placement[k];
                self.vms[v].ready_at = self.vms[v].ready_at.max(t + self.set.migration_s);
                moved += 1;
            }
        }
        moved
    }

    /// Eq. 1 with caps and the reserve price on every node.
    fn market(&mut self) {
        let n = self.sc.nodes.len();
        let mut members = vec![Vec::new(); n];
        for (v, vm) in self.vms.iter().enumerate() {
            if vm.alive {
                members[vm.node].push(v);
            }
        }
        for (node, mem) in members.iter().enumerate() {
            let mut price = Res::default();
            for r in 0..2 {
                let bids: Vec<f64> = mem.iter().map(|&v| self.vms[v].bid.get(r)).collect();
                let caps: Vec<f64> = mem
                    .iter()
                    .map(|&v| self.sc.apps[self.vms[v].app].vm_size.get(r))
                    .collect();
                let floor = if self.set.price_floor {
                    self.sc.reserve_price.get(r)
                } else {
                    0.0
                };
                let s = share_with_reserve(&bids, &caps, self.sc.nodes[node].get(r), floor);
                for (k, &v) in mem.iter().enumerate() {
                    self.vms[v].alloc.set(r, s.alloc[k]);
                }
                price.set(r, s.price);
            }
            self.node_price[node] = price;
        }
    }
}

/// Runs a scenario (validated beforehand) with the given settings.
pub fn simulate(sc: &Scenario, set: &SimSettings) -> SimResult {
    simulate_within(sc, set, &crate::solver::Deadline::none())
}

/// [`simulate`] until `deadline` (checked once per period): a run it stops records the
/// simulated time reached in [`SimResult::stopped_at_s`].
pub fn simulate_within(
    sc: &Scenario,
    set: &SimSettings,
    deadline: &crate::solver::Deadline,
) -> SimResult {
    let mut st = State::new(sc, set);
    let mut stopped_at_s = None;
    let mut rows = Vec::new();
    let mut periods = Vec::new();
    let steps = (sc.duration_s / sc.period_s).ceil() as u64;
    for k in 0..steps {
        let t = k as f64 * sc.period_s;
        if deadline.expired() {
            stopped_at_s = Some(t);
            break;
        }
        st.renew(t);
        st.admit(t);
        st.controllers(t);
        st.bill();
        let migrations = st.rebalance(t);
        st.market();
        st.progress(t);
        if set.record_rows {
            st.record(t, &mut rows);
        }
        let used_cpu = st.vms.iter().filter(|v| v.alive).map(|v| v.alloc.cpu).sum();
        periods.push(PeriodStat {
            time_s: t,
            imbalance: st.ledger.imbalance(),
            min_balance: st.ledger.min_balance(),
            used_cpu,
            migrations,
        });
        st.retire(t);
        if set.stop_when_done && st.apps.iter().all(|a| a.finish.is_some() || a.shutdown) {
            break;
        }
    }
    let apps = (0..sc.apps.len())
        .map(|a| {
            let s = &st.apps[a];
            let deadline = sc.apps[a].deadline_s.map(|d| sc.apps[a].arrival_s + d);
            AppOutcome {
                name: sc.apps[a].name.clone(),
                start_s: s.start,
                finish_s: s.finish,
                deadline_s: deadline,
                met: deadline.map(|d| s.finish.is_some_and(|f| f <= d + 1e-9)),
                granted: s.granted,
                spent: s.spent,
                shutdown: s.shutdown,
                suspensions: s.suspensions,
            }
        })
        .collect();
    SimResult {
        rows,
        periods,
        apps,
        ledger: st.ledger,
        stopped_at_s,
    }
}
