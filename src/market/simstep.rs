//! The per-period app logic of the simulation: controllers (Algorithms 1–3), job dispatch in
//! frameworks, progress of lock-step apps and jobs, and the CSV rows.

use super::controllers::{horizontal, vertical, HorizontalInput, VerticalInput};
use super::instance::Res;
use super::scenario::AppKind;
use super::sim::{Row, State, SuspendRule};

impl State<'_> {
    /// Runs every active app's controller and sets its VMs' bids for this period.
    pub(crate) fn controllers(&mut self, t: f64) {
        for a in 0..self.apps.len() {
            if !self.active(a) {
                continue;
            }
            match self.sc.apps[a].kind {
                AppKind::Deadline if self.sc.apps[a].deadline_s.is_some() => {
                    self.control_deadline(a, t)
                }
                AppKind::Deadline | AppKind::BestEffort => self.apps[a].bid = self.sc.apps[a].bid,
                AppKind::Framework => self.control_framework(a, t),
            }
            let bid = self.apps[a].bid;
            for &v in &self.apps[a].vms {
                self.vms[v].bid = bid;
            }
        }
    }

    fn slowest_alloc(&self, a: usize) -> Res {
        let mut m = Res::new(f64::INFINITY, f64::INFINITY);
        for &v in &self.apps[a].vms {
            m = Res::new(
                m.cpu.min(self.vms[v].alloc.cpu),
                m.mem.min(self.vms[v].alloc.mem),
            );
        }
        if m.cpu.is_finite() {
            m
        } else {
            Res::default()
        }
    }

    /// Algorithm 1 for a deadline-driven app: `v` is the last iteration time, `v_ref` the time
    /// left to the deadline over the iterations left, the budget per period is the balance over
    /// the periods left to the deadline.
    fn control_deadline(&mut self, a: usize, t: f64) {
        let spec = &self.sc.apps[a];
        let app = &self.apps[a];
        if app.iter_time <= 0.0 || app.vms.is_empty() {
            return; // no observation yet: keep the initial bid
        }
        let left_iters = (spec.iterations as f64 - app.done_iters).max(1e-9);
        let start = app.start.unwrap_or(spec.arrival_s);
        let deadline = spec.arrival_s + spec.deadline_s.unwrap_or(f64::INFINITY);
        // The reference aims at a fraction of the time between start and deadline.
        let deadline = start + (deadline - start) * self.set.deadline_target;
        let time_left = (deadline - t).max(self.sc.period_s);
        let v_ref = time_left / left_iters;
        let periods_left = (time_left / self.sc.period_s).ceil().max(1.0);
        let n = app.vms.len() as f64;
        let bid_max = self.ledger.accounts[a] / periods_left / n;
        let node = self.vms[app.vms[0]].node;
        let price = self.node_price[node];
        let share = Res::new(
            safe_div(app.bid.cpu, price.cpu),
            safe_div(app.bid.mem, price.mem),
        );
        let input = VerticalInput {
            bid: app.bid,
            bid_min: self.sc.bid_min,
            bid_max,
            alloc: self.slowest_alloc(a),
            alloc_min: Res::default(),
            alloc_max: spec.vm_size,
            share,
            v: app.iter_time.min(1e12),
            v_ref,
            v_low: spec.thresholds.0 * v_ref,
            v_high: spec.thresholds.1 * v_ref,
            history: app.history,
        };
        let new = vertical(&input, &self.set.vertical);
        let change = app.bid.total() - new.total();
        // NeedsSuspend() of Algorithm 4: the SLO is not met and the budget cannot fix it.
        let slo_missed = input.v > input.v_high;
        let suspend = slo_missed
            && match self.set.suspend {
                SuspendRule::Off => false,
                SuspendRule::Price => !self.affordable(a, t),
                SuspendRule::BudgetCut => {
                    let unlimited = VerticalInput {
                        bid_max: f64::INFINITY,
                        ..input
                    };
                    vertical(&unlimited, &self.set.vertical).total() > bid_max * (1.0 + 1e-12)
                }
            };
        let app = &mut self.apps[a];
        if change.abs() > 1e-12 {
            app.history = change;
        }
        app.bid = new;
        if suspend {
            self.suspend(a);
        }
    }

    /// Algorithms 2 and 3 for a framework, then FCFS dispatch of its queue.
    fn control_framework(&mut self, a: usize, t: f64) {
        let spec = &self.sc.apps[a];
        while self.apps[a].next_job < spec.jobs.len() {
            let j = self.apps[a].job_order[self.apps[a].next_job];
            if spec.jobs[j].arrival_s > t {
                break;
            }
            self.apps[a].queue.push_back(j);
            self.apps[a].next_job += 1;
        }
        let queued: usize = self.apps[a].queue.iter().map(|&j| spec.jobs[j].procs).sum();
        let idle: Vec<usize> = self.apps[a]
            .vms
            .iter()
            .copied()
            .filter(|&v| self.vms[v].job.is_none())
            .collect();
        let idle_vm = idle
            .iter()
            .any(|&v| t - self.vms[v].idle_since >= spec.keep_idle_s);
        let mut others = Res::default();
        for vm in self.vms.iter().filter(|v| v.alive && v.app != a) {
            others = Res::new(others.cpu + vm.bid.cpu, others.mem + vm.bid.mem);
        }
        let r = self.sc.renewal_interval_s;
        let periods_left = (((t / r).floor() + 1.0) * r - t) / self.sc.period_s;
        let dec = horizontal(&HorizontalInput {
            nvms: self.apps[a].desired,
            nvms_max: spec.vms,
            v: queued as f64,
            v_low: spec.thresholds.0,
            v_high: spec.thresholds.1,
            idle_vm,
            step: self.set.horizontal_step,
            bid_max: self.ledger.accounts[a] / periods_left.ceil().max(1.0),
            price: Res::new(others.cpu / self.pooled.cpu, others.mem / self.pooled.mem),
            reserve: self.sc.reserve_price,
            alloc_max: spec.vm_size,
            capacity: self.pooled,
        });
        self.apps[a].desired = dec.nvms;
        self.resize_framework(a, dec.nvms, t);
        // The bid for the desired count is carried by the VMs placed so far, so that a
        // framework waiting for slots still signals its demand through the price.
        let placed = self.apps[a].vms.len().max(1) as f64;
        let total = Res::new(
            dec.bid_per_vm.cpu * dec.nvms as f64,
            dec.bid_per_vm.mem * dec.nvms as f64,
        );
        let min = self.sc.bid_min;
        self.apps[a].bid = Res::new(
            (total.cpu / placed).max(min.cpu),
            (total.mem / placed).max(min.mem),
        );
        self.dispatch(a, t);
    }

    /// Adds VMs (while slots are free) or releases them, longest-idle first, then busy ones
    /// whose jobs go back to the head of the queue.
    fn resize_framework(&mut self, a: usize, target: usize, t: f64) {
        while self.apps[a].vms.len() < target && self.add_vm(a, t).is_some() {}
        while self.apps[a].vms.len() > target {
            let vms = &self.apps[a].vms;
            let victim = vms
                .iter()
                .copied()
                .filter(|&v| self.vms[v].job.is_none())
                .min_by(|&x, &y| self.vms[x].idle_since.total_cmp(&self.vms[y].idle_since))
                .unwrap_or(*vms.last().expect("more VMs than target"));
            if let Some(j) = self.vms[victim].job {
                let k = self.apps[a]
                    .running
                    .iter()
                    .position(|r| r.0 == j)
                    .expect("running job");
                let (_, group, _) = self.apps[a].running.remove(k);
                for v in group {
                    self.vms[v].job = None;
                    self.vms[v].idle_since = t;
                }
                self.apps[a].queue.push_front(j);
            }
            self.kill_vm(victim);
        }
    }

    /// Strict FCFS: start the head job while enough ready idle VMs exist.
    fn dispatch(&mut self, a: usize, t: f64) {
        while let Some(&j) = self.apps[a].queue.front() {
            let job = self.sc.apps[a].jobs[j];
            let idle: Vec<usize> = self.apps[a]
                .vms
                .iter()
                .copied()
                .filter(|&v| self.vms[v].job.is_none())
                .collect();
            if idle.len() < job.procs {
                break;
            }
            self.apps[a].queue.pop_front();
            let group: Vec<usize> = idle[..job.procs].to_vec();
            for &v in &group {
                self.vms[v].job = Some(j);
            }
            let _ = t;
            self.apps[a].running.push((j, group, job.runtime_s));
        }
    }

    /// Effective CPU of a VM over the period: allocation, interference, boot/migration stall.
    fn effective(&self, v: usize, t: f64, count: &[usize]) -> (f64, f64) {
        let vm = &self.vms[v];
        let others = count[vm.node].saturating_sub(1) as f64;
        let slow = (1.0 - self.set.interference * others).max(0.0);
        let size = self.sc.apps[vm.app].vm_size;
        let mem = if self.set.memory_slowdown && size.mem > 0.0 {
            (vm.alloc.mem / size.mem).min(1.0)
        } else {
            1.0
        };
        let p = self.sc.period_s;
        let active = (p - (vm.ready_at - t).clamp(0.0, p)) / p;
        let rate = if size.cpu > 0.0 {
            vm.alloc.cpu / size.cpu
        } else {
            0.0
        };
        (rate * slow * mem, active)
    }

    /// Advances every active app over `[t, t + period)`.
    pub(crate) fn progress(&mut self, t: f64) {
        let count = self.node_count();
        let p = self.sc.period_s;
        for a in 0..self.apps.len() {
            if !self.active(a) {
                continue;
            }
            let spec = &self.sc.apps[a];
            if spec.kind == AppKind::Framework {
                self.progress_jobs(a, t, &count);
                continue;
            }
            let (mut speed, mut active) = (f64::INFINITY, 1.0f64);
            for &v in &self.apps[a].vms {
                let (s, act) = self.effective(v, t, &count);
                speed = speed.min(s);
                active = active.min(act);
            }
            // Iteration time at the VM's full size is work/iterations/size.cpu; slower by 1/speed.
            let iter_full = spec.work / spec.iterations as f64 / spec.vm_size.cpu.max(1e-12);
            let iter_time = if speed > 0.0 {
                iter_full / speed
            } else {
                f64::INFINITY
            };
            let app = &mut self.apps[a];
            app.iter_time = iter_time;
            let gained = if iter_time.is_finite() {
                active * p / iter_time
            } else {
                0.0
            };
            let left = spec.iterations as f64 - app.done_iters;
            if gained >= left - 1e-9 && gained > 0.0 {
                app.finish = Some(t + p * (1.0 - active) + left * iter_time);
                app.done_iters = spec.iterations as f64;
            } else {
                app.done_iters += gained;
            }
        }
    }

    fn progress_jobs(&mut self, a: usize, t: f64, count: &[usize]) {
        let p = self.sc.period_s;
        let mut finished = Vec::new();
        for k in 0..self.apps[a].running.len() {
            let (speed, active) = self.apps[a].running[k]
                .1
                .iter()
                .map(|&v| self.effective(v, t, count))
                .fold((f64::INFINITY, 1.0f64), |(s, a), (x, y)| {
                    (s.min(x), a.min(y))
                });
            let work = speed * active * p;
            let run = &mut self.apps[a].running[k];
            if work >= run.2 && speed > 0.0 {
                let end = t + p * (1.0 - active) + run.2 / speed;
                finished.push((k, end));
            } else {
                run.2 -= work;
            }
        }
        for &(k, end) in finished.iter().rev() {
            let (_, group, _) = self.apps[a].running.remove(k);
            for v in group {
                self.vms[v].job = None;
                self.vms[v].idle_since = end;
            }
            self.apps[a].jobs_done += 1;
        }
        let spec = &self.sc.apps[a];
        if self.apps[a].jobs_done == spec.jobs.len() {
            let last = finished.iter().map(|x| x.1).fold(t, f64::max);
            self.apps[a].finish = Some(last);
        }
    }

    /// Releases the VMs of apps that finished this period.
    pub(crate) fn retire(&mut self, _t: f64) {
        for a in 0..self.apps.len() {
            if self.apps[a].finish.is_some() {
                for v in self.apps[a].vms.clone() {
                    self.kill_vm(v);
                }
            }
        }
    }

    /// Appends one row per app that is running this period.
    pub(crate) fn record(&self, t: f64, rows: &mut Vec<Row>) {
        for a in 0..self.apps.len() {
            let app = &self.apps[a];
            if app.start.is_none()
                || app.finish.is_some_and(|f| f < t)
                || (app.shutdown && app.vms.is_empty())
            {
                continue;
            }
            let spec = &self.sc.apps[a];
            let n = app.vms.len();
            let mean = |f: &dyn Fn(usize) -> f64| {
                if n == 0 {
                    0.0
                } else {
                    app.vms.iter().map(|&v| f(v)).sum::<f64>() / n as f64
                }
            };
            let progress = match spec.kind {
                AppKind::Framework => app.jobs_done as f64 / spec.jobs.len().max(1) as f64,
                _ => app.done_iters / spec.iterations as f64,
            };
            rows.push(Row {
                time_s: t,
                app: spec.name.clone(),
                vms: n,
                bid_cpu: mean(&|v| self.vms[v].bid.cpu),
                bid_mem: mean(&|v| self.vms[v].bid.mem),
                alloc_cpu: mean(&|v| self.vms[v].alloc.cpu),
                alloc_mem: mean(&|v| self.vms[v].alloc.mem),
                price_cpu: mean(&|v| self.node_price[self.vms[v].node].cpu),
                progress,
                iteration_s: if app.iter_time.is_finite() {
                    app.iter_time
                } else {
                    -1.0
                },
                balance: self.ledger.accounts[a],
                queued: app.queue.len(),
                running: app.running.len(),
                suspended: app.suspended,
            });
        }
    }
}

fn safe_div(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        f64::INFINITY
    }
}
