//! The event-driven simulation of §III.B: one job per VM, FCFS, non-preemptive; CPU-bound jobs
//! whose rates are the PM's water-filling allocation, recomputed on that PM at every start and
//! end. The engine stops at every dispatch decision so that the greedy policies and the
//! exhaustive enumeration drive the same code.
//!
//! Event order: all completions at time t (any PM), then all arrivals at t, then dispatch while
//! the queue is not empty and a VM is free. Completions are exact: a job ends at the time its
//! PM predicted when its rates were last set (`t + remaining/rate`), never by thresholding.

use super::instance::Instance;
use super::sharing::{equilibrium_capacity, potential_capacity, water_fill, VmSpec};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// A PM's next completion, valid while the PM's epoch is unchanged.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ev {
    time: f64,
    pm: usize,
    epoch: u64,
}

impl Eq for Ev {}
impl Ord for Ev {
    /// Reversed, so that `BinaryHeap` pops the earliest (then lowest PM).
    fn cmp(&self, o: &Self) -> Ordering {
        o.time
            .total_cmp(&self.time)
            .then(o.pm.cmp(&self.pm))
            .then(o.epoch.cmp(&self.epoch))
    }
}
impl PartialOrd for Ev {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Time integrals of the cluster's allocated rate, overall and per arrival-time bin.
#[derive(Debug, Clone)]
pub(crate) struct Meter {
    pub last: f64,
    pub rate_integral: f64,
    pub vm_integral: f64,
    pub origin: f64,
    pub width: f64,
    pub bins: Vec<f64>,
}

impl Meter {
    fn add(&mut self, t: f64, rate: f64, busy: usize) {
        let (a, b) = (self.last, t);
        if b <= a {
            return;
        }
        self.rate_integral += rate * (b - a);
        self.vm_integral += busy as f64 * (b - a);
        if rate > 0.0 && self.width > 0.0 {
            let n = self.bins.len();
            let mut k = (((a - self.origin) / self.width).floor().max(0.0) as usize).min(n);
            while k < n {
                let lo = self.origin + self.width * k as f64;
                let hi = if k + 1 == n {
                    self.origin + self.width * n as f64
                } else {
                    lo + self.width
                };
                if lo >= b {
                    break;
                }
                let overlap = b.min(hi) - a.max(lo);
                if overlap > 0.0 {
                    self.bins[k] += rate * overlap;
                }
                k += 1;
            }
        }
        self.last = t;
    }
}

/// The simulation state. Cloneable so that the enumeration can branch at each decision.
#[derive(Debug, Clone)]
pub(crate) struct Sim<'a> {
    pub inst: &'a Instance,
    specs: Vec<VmSpec>,
    /// EC of each slot of a PM (the same on every PM).
    pub ec: Vec<f64>,
    /// PC of every VM (meaningful for free VMs), refreshed on its PM's changes.
    pub pc: Vec<f64>,
    order: Vec<usize>,
    pub submit: Vec<f64>,
    next: usize,
    pub queue: VecDeque<usize>,
    pub t: f64,
    pub vm_job: Vec<Option<usize>>,
    pub free: usize,
    pm_last: Vec<f64>,
    pm_epoch: Vec<u64>,
    pm_rate: Vec<f64>,
    total_rate: f64,
    rem: Vec<f64>,
    rate: Vec<f64>,
    pred_end: Vec<f64>,
    pub start: Vec<f64>,
    pub end: Vec<f64>,
    pub vm_of: Vec<usize>,
    pub pc_at_start: Vec<f64>,
    heap: BinaryHeap<Ev>,
    pub meter: Meter,
    pub max_queue: usize,
    pub episodes: usize,
    episode_threshold: usize,
    in_episode: bool,
    done: usize,
}

impl<'a> Sim<'a> {
    /// A cluster with every VM free, before the first arrival. `bins` equal bins span the
    /// (scaled) arrival times.
    pub fn new(
        inst: &'a Instance,
        arrival_factor: f64,
        bins: usize,
        episode_threshold: usize,
    ) -> Sim<'a> {
        let n = inst.jobs.len();
        let v = inst.vm_count();
        let specs = vec![inst.vm; inst.vms_per_pm];
        let ec = equilibrium_capacity(inst.pcap, &specs);
        let submit: Vec<f64> = inst
            .jobs
            .iter()
            .map(|j| j.submit * arrival_factor)
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| submit[a].total_cmp(&submit[b]).then(a.cmp(&b)));
        let origin = submit[order[0]];
        let width = (submit[order[n - 1]] - origin) / bins as f64;
        let pc0 = potential_capacity(inst.pcap, &specs, &vec![0.0; specs.len()], 0);
        Sim {
            inst,
            ec,
            pc: vec![pc0; v],
            specs,
            order,
            submit,
            next: 0,
            queue: VecDeque::new(),
            t: origin,
            vm_job: vec![None; v],
            free: v,
            pm_last: vec![origin; inst.pms],
            pm_epoch: vec![0; inst.pms],
            pm_rate: vec![0.0; inst.pms],
            total_rate: 0.0,
            rem: vec![0.0; n],
            rate: vec![0.0; n],
            pred_end: vec![f64::INFINITY; n],
            start: vec![f64::NAN; n],
            end: vec![f64::NAN; n],
            vm_of: vec![usize::MAX; n],
            pc_at_start: vec![f64::NAN; n],
            heap: BinaryHeap::new(),
            meter: Meter {
                last: origin,
                rate_integral: 0.0,
                vm_integral: 0.0,
                origin,
                width,
                bins: vec![0.0; bins],
            },
            max_queue: 0,
            episodes: 0,
            episode_threshold,
            in_episode: false,
            done: 0,
        }
    }

    /// Runs events until the head job must choose a free VM (`true`) or every job is done
    /// (`false`).
    pub fn next_decision(&mut self) -> bool {
        loop {
            if !self.queue.is_empty() && self.free > 0 {
                return true;
            }
            if !self.step() {
                return false;
            }
        }
    }

    fn next_completion(&mut self) -> f64 {
        while let Some(e) = self.heap.peek() {
            if e.epoch == self.pm_epoch[e.pm] {
                return e.time;
            }
            self.heap.pop();
        }
        f64::INFINITY
    }

    /// Processes every event at the next event time; `false` when there is none left.
    fn step(&mut self) -> bool {
        let q = self.queue.len();
        self.max_queue = self.max_queue.max(q);
        if q > self.episode_threshold && !self.in_episode {
            self.episodes += 1;
        }
        self.in_episode = q > self.episode_threshold;
        let tc = self.next_completion();
        let ta = self
            .order
            .get(self.next)
            .map_or(f64::INFINITY, |&j| self.submit[j]);
        let t = tc.min(ta);
        if t == f64::INFINITY {
            return false;
        }
        let busy = self.vm_job.len() - self.free;
        self.meter.add(t, self.total_rate, busy);
        self.t = t;
        while self.next_completion() == t {
            let e = self.heap.pop().expect("peeked");
            self.complete_on(e.pm);
        }
        while self
            .order
            .get(self.next)
            .is_some_and(|&j| self.submit[j] == t)
        {
            self.queue.push_back(self.order[self.next]);
            self.next += 1;
        }
        true
    }

    /// Brings the remaining work of PM `p`'s jobs to the current time.
    fn advance_pm(&mut self, p: usize) {
        let dt = self.t - self.pm_last[p];
        if dt > 0.0 {
            let w = self.inst.vms_per_pm;
            for vm in p * w..(p + 1) * w {
                if let Some(j) = self.vm_job[vm] {
                    self.rem[j] -= self.rate[j] * dt;
                }
            }
        }
        self.pm_last[p] = self.t;
    }

    fn complete_on(&mut self, p: usize) {
        self.advance_pm(p);
        let w = self.inst.vms_per_pm;
        for vm in p * w..(p + 1) * w {
            if let Some(j) = self.vm_job[vm] {
                if self.pred_end[j] <= self.t {
                    self.end[j] = self.t;
                    self.rem[j] = 0.0;
                    self.vm_job[vm] = None;
                    self.free += 1;
                    self.done += 1;
                }
            }
        }
        self.recompute(p);
    }

    /// New rates, predicted ends and free-VM PCs on PM `p` after a start or an end.
    fn recompute(&mut self, p: usize) {
        let w = self.inst.vms_per_pm;
        let demands: Vec<f64> = (0..w)
            .map(|s| {
                if self.vm_job[p * w + s].is_some() {
                    self.specs[s].max
                } else {
                    0.0
                }
            })
            .collect();
        let alloc = water_fill(self.inst.pcap, &self.specs, &demands);
        let mut sum = 0.0;
        let mut next = f64::INFINITY;
        for s in 0..w {
            let vm = p * w + s;
            match self.vm_job[vm] {
                Some(j) => {
                    let r = alloc.rates[s];
                    self.rate[j] = r;
                    sum += r;
                    self.pred_end[j] = if r > 0.0 {
                        self.t + self.rem[j].max(0.0) / r
                    } else {
                        f64::INFINITY
                    };
                    next = next.min(self.pred_end[j]);
                }
                None => self.pc[vm] = potential_capacity(self.inst.pcap, &self.specs, &demands, s),
            }
        }
        self.total_rate += sum - self.pm_rate[p];
        self.pm_rate[p] = sum;
        self.pm_epoch[p] += 1;
        if next.is_finite() {
            self.heap.push(Ev {
                time: next,
                pm: p,
                epoch: self.pm_epoch[p],
            });
        }
    }

    /// Starts the head job on the free VM `vm`.
    pub fn start_head(&mut self, vm: usize) {
        debug_assert!(self.vm_job[vm].is_none());
        let j = self.queue.pop_front().expect("a queued job");
        let p = vm / self.inst.vms_per_pm;
        self.advance_pm(p);
        self.pc_at_start[j] = self.pc[vm];
        self.vm_job[vm] = Some(j);
        self.start[j] = self.t;
        self.vm_of[j] = vm;
        self.rem[j] = self.inst.jobs[j].work;
        self.free -= 1;
        self.recompute(p);
    }

    /// Whether every job has ended.
    pub fn finished(&self) -> bool {
        self.done == self.inst.jobs.len()
    }
}
