//! Independent re-check of a simulated schedule: rebuilds every PM's rate history from the
//! reported start and end times alone, then checks each constraint and recomputes each metric.

use super::instance::Instance;
use super::sharing::{potential_capacity, water_fill, VmSpec};
use super::solution::Solution;
use crate::outcome::Violation;

fn v(constraint: &'static str, detail: String) -> Violation {
    Violation { constraint, detail }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// Every violated constraint or mis-reported metric of `sol` for `inst` (empty when valid).
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    let mut out = Vec::new();
    let n = inst.jobs.len();
    if sol.jobs.len() != n {
        out.push(v(
            "jobs",
            format!("{} records for {} jobs", sol.jobs.len(), n),
        ));
        return out;
    }
    let tol = sol.settings.verify_tolerance;
    for (k, (r, j)) in sol.jobs.iter().zip(&inst.jobs).enumerate() {
        let bad = r.id != j.id
            || r.pm >= inst.pms
            || r.vm >= inst.vms_per_pm
            || !close(r.submit, j.submit * sol.settings.arrival_factor, tol)
            || !(r.start >= r.submit && r.end > r.start);
        if bad {
            out.push(v(
                "jobs",
                format!("record {k} (id {}) is inconsistent: {r:?}", r.id),
            ));
        }
    }
    if !out.is_empty() {
        return out;
    }
    check_exclusive_and_fcfs(inst, sol, &mut out);
    check_non_delay(inst, sol, &mut out);
    check_rates_and_metrics(inst, sol, &mut out);
    check_certificate(inst, sol, &mut out);
    out
}

/// The certificate: its objective is the mean XF of the records, its bound no more than the
/// proven one, `optimal` only when they meet.
fn check_certificate(inst: &Instance, sol: &Solution, out: &mut Vec<Violation>) {
    let c = &sol.certificate;
    let tol = sol.settings.verify_tolerance;
    let mean = sol.jobs.iter().map(|r| r.xf).sum::<f64>() / inst.jobs.len().max(1) as f64;
    if !c.objective.is_some_and(|o| close(o, mean, tol)) {
        out.push(v(
            "objective",
            format!("reported {:?}, recomputed mean XF {mean}", c.objective),
        ));
    }
    let lb = super::solution::xf_lower_bound(inst, sol.settings.xf_threshold);
    // A bound above the closed form needs its LP proof, which the bound check re-derives.
    let dual = matches!(c.proof, Some(crate::problem::Proof::Dual { .. }));
    if !dual && c.bound.is_some_and(|b| b > lb * (1.0 + tol) + tol) {
        out.push(v(
            "bound",
            format!("claimed {:?} above the proven {lb}", c.bound),
        ));
    }
    if c.status == crate::Status::Optimal && !c.bound.is_some_and(|b| close(b, mean, tol)) {
        out.push(v(
            "optimality",
            "optimal without a matching bound".to_string(),
        ));
    }
}

fn check_exclusive_and_fcfs(inst: &Instance, sol: &Solution, out: &mut Vec<Violation>) {
    let w = inst.vms_per_pm;
    let mut per_vm: Vec<Vec<usize>> = vec![Vec::new(); inst.vm_count()];
    for (k, r) in sol.jobs.iter().enumerate() {
        per_vm[r.pm * w + r.vm].push(k);
    }
    for (vm, list) in per_vm.iter_mut().enumerate() {
        list.sort_by(|&a, &b| sol.jobs[a].start.total_cmp(&sol.jobs[b].start));
        for pair in list.windows(2) {
            let (a, b) = (&sol.jobs[pair[0]], &sol.jobs[pair[1]]);
            if b.start < a.end {
                out.push(v(
                    "vm-exclusive",
                    format!("jobs {} and {} overlap on VM {vm}", a.id, b.id),
                ));
            }
        }
    }
    let mut order: Vec<usize> = (0..sol.jobs.len()).collect();
    order.sort_by(|&a, &b| {
        sol.jobs[a]
            .submit
            .total_cmp(&sol.jobs[b].submit)
            .then(a.cmp(&b))
    });
    for pair in order.windows(2) {
        let (a, b) = (&sol.jobs[pair[0]], &sol.jobs[pair[1]]);
        if b.start < a.start {
            out.push(v(
                "fcfs",
                format!(
                    "job {} started at {} before earlier job {} at {}",
                    b.id, b.start, a.id, a.start
                ),
            ));
        }
    }
}

/// No job waits while a VM is free: checked after all events of each instant.
fn check_non_delay(inst: &Instance, sol: &Solution, out: &mut Vec<Violation>) {
    let mut times: Vec<f64> = sol
        .jobs
        .iter()
        .flat_map(|r| [r.submit, r.start, r.end])
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut sub: Vec<f64> = sol.jobs.iter().map(|r| r.submit).collect();
    let mut sta: Vec<f64> = sol.jobs.iter().map(|r| r.start).collect();
    let mut end: Vec<f64> = sol.jobs.iter().map(|r| r.end).collect();
    for x in [&mut sub, &mut sta, &mut end] {
        x.sort_by(f64::total_cmp);
    }
    let (mut a, mut s, mut e) = (0, 0, 0);
    let (mut max_queue, mut episodes, mut inside) = (0, 0, false);
    let thr = sol.settings.queue_episode_threshold;
    for &t in &times {
        while a < sub.len() && sub[a] <= t {
            a += 1;
        }
        while s < sta.len() && sta[s] <= t {
            s += 1;
        }
        while e < end.len() && end[e] <= t {
            e += 1;
        }
        if a > s && s - e < inst.vm_count() {
            out.push(v(
                "non-delay",
                format!(
                    "at t={t}, {} jobs wait while {} VMs are free",
                    a - s,
                    inst.vm_count() - (s - e)
                ),
            ));
            return;
        }
        max_queue = max_queue.max(a - s);
        episodes += usize::from(a - s > thr && !inside);
        inside = a - s > thr;
    }
    let q = (sol.summary.max_queue, sol.summary.queue_episodes);
    if q != (max_queue, episodes) {
        out.push(v(
            "summary",
            format!(
                "queue (max, episodes) {q:?} reported, {:?} recomputed",
                (max_queue, episodes)
            ),
        ));
    }
}

/// Integrals rebuilt from the schedule: per job (work), cluster and per bin (utilisation).
struct Rebuilt {
    work: Vec<f64>,
    cluster: f64,
    bins: Vec<f64>,
}

fn check_rates_and_metrics(inst: &Instance, sol: &Solution, out: &mut Vec<Violation>) {
    let tol = sol.settings.verify_tolerance;
    let origin = sol
        .jobs
        .iter()
        .map(|r| r.submit)
        .fold(f64::INFINITY, f64::min);
    let last_submit = sol
        .jobs
        .iter()
        .map(|r| r.submit)
        .fold(f64::NEG_INFINITY, f64::max);
    let width = (last_submit - origin) / sol.settings.bins as f64;
    let mut rb = Rebuilt {
        work: vec![0.0; inst.jobs.len()],
        cluster: 0.0,
        bins: vec![0.0; sol.settings.bins],
    };
    let mut occupancy = 0.0;
    let mut per_pm: Vec<Vec<usize>> = vec![Vec::new(); inst.pms];
    for (k, r) in sol.jobs.iter().enumerate() {
        per_pm[r.pm].push(k);
        occupancy += r.end - r.start;
    }
    for list in &per_pm {
        replay_pm(inst, sol, list, (origin, width), &mut rb, out);
    }
    for (k, j) in inst.jobs.iter().enumerate() {
        if !close(rb.work[k], j.work, tol) {
            out.push(v(
                "work",
                format!(
                    "job {}: integrated rate {} ≠ work {}",
                    j.id, rb.work[k], j.work
                ),
            ));
        }
        let r = &sol.jobs[k];
        let xf = (r.end - r.submit) / sol.settings.xf_threshold.max(inst.ideal_runtime(j.work));
        if !close(xf, r.xf, tol) {
            out.push(v(
                "xf",
                format!("job {}: XF {} reported, {} recomputed", j.id, r.xf, xf),
            ));
        }
    }
    let s = &sol.summary;
    let last_end = sol
        .jobs
        .iter()
        .map(|r| r.end)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = last_end - origin;
    let cap = inst.pms as f64 * inst.pcap;
    let mean_xf = sol.jobs.iter().map(|r| r.xf).sum::<f64>() / inst.jobs.len() as f64;
    let checks = [
        ("mean_xf", s.mean_xf, mean_xf),
        ("utilisation", s.utilisation, rb.cluster / (cap * span)),
        (
            "vm_occupancy",
            s.vm_occupancy,
            occupancy / (inst.vm_count() as f64 * span),
        ),
        ("last_end", s.last_end, last_end),
    ];
    for (name, got, want) in checks {
        if !close(got, want, tol) {
            out.push(v(
                "summary",
                format!("{name}: {got} reported, {want} recomputed"),
            ));
        }
    }
    check_bins(sol, &rb, (origin, width), cap, out);
}

fn check_bins(
    sol: &Solution,
    rb: &Rebuilt,
    (origin, width): (f64, f64),
    cap: f64,
    out: &mut Vec<Violation>,
) {
    let n = sol.settings.bins;
    if sol.bins.len() != n {
        out.push(v(
            "bins",
            format!("{} bins reported, {n} expected", sol.bins.len()),
        ));
        return;
    }
    let mut count = vec![0usize; n];
    let mut xf = vec![0.0; n];
    for r in &sol.jobs {
        let k = if width > 0.0 {
            (((r.submit - origin) / width) as usize).min(n - 1)
        } else {
            0
        };
        count[k] += 1;
        xf[k] += r.xf;
    }
    for (k, b) in sol.bins.iter().enumerate() {
        let util_ok = match b.utilisation {
            Some(u) => {
                width > 0.0 && close(u, rb.bins[k] / (cap * width), sol.settings.verify_tolerance)
            }
            None => width <= 0.0,
        };
        let xf_ok = match b.mean_xf {
            Some(m) => {
                count[k] > 0 && close(m, xf[k] / count[k] as f64, sol.settings.verify_tolerance)
            }
            None => count[k] == 0,
        };
        if b.jobs != count[k] || !util_ok || !xf_ok {
            out.push(v(
                "bins",
                format!(
                    "bin {k}: {b:?} disagrees with the recount ({} jobs)",
                    count[k]
                ),
            ));
        }
    }
}

/// Replays one PM: at each instant ends, then starts in FCFS order (checking each started
/// job's PC), then the constant-rate stretch to the next instant.
fn replay_pm(
    inst: &Instance,
    sol: &Solution,
    list: &[usize],
    (origin, width): (f64, f64),
    rb: &mut Rebuilt,
    out: &mut Vec<Violation>,
) {
    let w = inst.vms_per_pm;
    let specs: Vec<VmSpec> = vec![inst.vm; w];
    let tol = sol.settings.verify_tolerance;
    let mut times: Vec<f64> = list
        .iter()
        .flat_map(|&k| [sol.jobs[k].start, sol.jobs[k].end])
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut starts: Vec<usize> = list.to_vec();
    starts.sort_by(|&a, &b| {
        let (x, y) = (&sol.jobs[a], &sol.jobs[b]);
        x.start
            .total_cmp(&y.start)
            .then(x.submit.total_cmp(&y.submit))
            .then(a.cmp(&b))
    });
    let mut slot: Vec<Option<usize>> = vec![None; w];
    let mut next_start = 0;
    for (i, &t) in times.iter().enumerate() {
        for s in slot.iter_mut() {
            if s.is_some_and(|k| sol.jobs[k].end <= t) {
                *s = None;
            }
        }
        while next_start < starts.len() && sol.jobs[starts[next_start]].start <= t {
            let k = starts[next_start];
            let r = &sol.jobs[k];
            let d: Vec<f64> = slot
                .iter()
                .map(|s| if s.is_some() { inst.vm.max } else { 0.0 })
                .collect();
            let pc = potential_capacity(inst.pcap, &specs, &d, r.vm);
            if !close(pc, r.pc_at_start, tol) {
                out.push(v(
                    "pc-at-start",
                    format!(
                        "job {}: PC {} recomputed, {} reported",
                        r.id, pc, r.pc_at_start
                    ),
                ));
            }
            slot[r.vm] = Some(k);
            next_start += 1;
        }
        let Some(&t2) = times.get(i + 1) else { break };
        let d: Vec<f64> = slot
            .iter()
            .map(|s| if s.is_some() { inst.vm.max } else { 0.0 })
            .collect();
        let alloc = water_fill(inst.pcap, &specs, &d);
        let sum: f64 = alloc.rates.iter().sum();
        if sum > inst.pcap * (1.0 + tol) {
            out.push(v(
                "pm-capacity",
                format!(
                    "PM {} runs at {sum} > pcap on [{t}, {t2})",
                    sol.jobs[list[0]].pm
                ),
            ));
        }
        for (s, k) in slot.iter().enumerate() {
            if let Some(k) = *k {
                rb.work[k] += alloc.rates[s] * (t2 - t);
            }
        }
        rb.cluster += sum * (t2 - t);
        add_to_bins(&mut rb.bins, origin, width, t, t2, sum);
    }
}

fn add_to_bins(bins: &mut [f64], origin: f64, width: f64, a: f64, b: f64, rate: f64) {
    if width <= 0.0 || rate == 0.0 {
        return;
    }
    for (k, bin) in bins.iter_mut().enumerate() {
        let lo = origin + width * k as f64;
        let hi = origin + width * (k + 1) as f64;
        let overlap = b.min(hi) - a.max(lo);
        if overlap > 0.0 {
            *bin += rate * overlap;
        }
    }
}
