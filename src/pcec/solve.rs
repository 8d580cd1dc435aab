//! Running a policy (or the enumeration) through the simulation and collecting the metrics.

use super::instance::Instance;
use super::method::{Method, Settings, TieBreak};
use super::sim::Sim;
use super::solution::{BinStat, JobRecord, Solution, Summary};
use crate::error::{InputError, Location, Result};
use crate::outcome::Status;
use crate::problem::{Certificate, Sense};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Simulates `inst` under `method`.
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    settings
        .validate()
        .map_err(|m| InputError::new("<settings>", Location::Argument("settings".into()), "", m))?;
    inst.validate(Path::new("<instance>"))?;
    if let Some(j) = inst
        .jobs
        .iter()
        .find(|j| !(j.submit * settings.arrival_factor).is_finite())
    {
        let why = format!("job {}: submit × arrival_factor overflows", j.id);
        let loc = Location::Argument("arrival_factor".into());
        return Err(
            InputError::new("<settings>", loc, settings.arrival_factor.to_string(), why).into(),
        );
    }
    if method == Method::Enumerate {
        return super::enumerate::enumerate(inst, settings);
    }
    let mut sim = Sim::new(
        inst,
        settings.arrival_factor,
        settings.bins,
        settings.queue_episode_threshold,
    );
    let mut ties = Ties::new(settings);
    while sim.next_decision() {
        let vm = choose(&sim, method, settings.tie_tolerance, &mut ties);
        sim.start_head(vm);
    }
    debug_assert!(sim.finished());
    log::debug!(
        "{} on {} jobs done at t={}",
        method.name(),
        inst.jobs.len(),
        sim.t
    );
    Ok(collect(&sim, method, Status::Feasible, settings, None))
}

/// Replaces the closed-form bound of `sol` by the fluid LP's ([`super::fluid`]) when the LP
/// proves more: its multipliers become the certificate's `dual` proof (`fluid-lp`), which
/// `verify` re-derives; `optimal` only when the gap closes. Windows left unsolved at the
/// deadline count their trivial bound.
pub fn fluid_certificate(
    inst: &Instance,
    settings: &Settings,
    deadline: &crate::solver::Deadline,
    sol: &mut Solution,
) -> Result<()> {
    let fluid = super::fluid::fluid_bound(inst, settings, deadline)?;
    let c = &mut sol.certificate;
    let stats = &mut c.stats;
    stats.insert("fluid_bound".into(), fluid.mean_xf);
    stats.insert("fluid_seconds".into(), fluid.seconds);
    stats.insert("fluid_fallbacks".into(), fluid.fallbacks as f64);
    if fluid.not_built > 0 {
        // Too large for the time left, or the deadline passed before or while building a
        // window's LP (issue 36): those windows count their trivial bound.
        log::warn!(
            "fluid LP: {} of {} windows not built (too large for the time left, or the deadline \
             passed): their trivial bound",
            fluid.not_built,
            fluid.windows
        );
        stats.insert("model_not_built".into(), 1.0);
        stats.insert("fluid_not_built".into(), fluid.not_built as f64);
    }
    let closed = super::solution::xf_lower_bound(inst, settings.xf_threshold);
    let objective = sol.summary.mean_xf;
    if fluid.mean_xf > closed {
        let bound = fluid.mean_xf.min(objective);
        c.scored(objective, bound, 1e-12 * bound);
        c.proof = Some(crate::problem::Proof::Dual {
            lp: super::fluid::LP_NAME.into(),
            duals: fluid.duals,
        });
    }
    Ok(())
}

/// The state of `ec`'s tie-break across decisions.
pub(crate) struct Ties {
    rule: TieBreak,
    /// Round-robin: the VM after the one chosen last.
    next: usize,
    rng: ChaCha8Rng,
}

impl Ties {
    pub(crate) fn new(settings: &Settings) -> Ties {
        Ties {
            rule: settings.ec_tie_break,
            next: 0,
            rng: ChaCha8Rng::seed_from_u64(settings.tie_seed),
        }
    }
}

/// `ec` under its tie-break: the free VM of highest EC, ties by `ties`.
fn choose_ec(sim: &Sim, tol: f64, ties: &mut Ties) -> usize {
    let w = sim.inst.vms_per_pm;
    let v = sim.inst.pms * w;
    let free = |vm: &usize| sim.vm_job[*vm].is_none();
    let top = (0..v)
        .filter(free)
        .map(|vm| sim.ec[vm % w])
        .fold(f64::NEG_INFINITY, f64::max);
    let tied = |vm: &usize| free(vm) && sim.ec[*vm % w] >= top - tol;
    let vm = match ties.rule {
        TieBreak::PmMajor => (0..v).find(tied),
        TieBreak::VmMajor => (0..w)
            .flat_map(|s| (0..sim.inst.pms).map(move |p| p * w + s))
            .find(tied),
        TieBreak::RoundRobin => (0..v).map(|k| (ties.next + k) % v).find(tied),
        TieBreak::Random => {
            let c: Vec<usize> = (0..v).filter(tied).collect();
            (!c.is_empty()).then(|| c[ties.rng.random_range(0..c.len())])
        }
    }
    .expect("a free VM exists at a decision");
    ties.next = (vm + 1) % v;
    vm
}

/// The free VM a greedy policy gives the head job.
pub(crate) fn choose(sim: &Sim, method: Method, tol: f64, ties: &mut Ties) -> usize {
    if method == Method::Ec {
        return choose_ec(sim, tol, ties);
    }
    let w = sim.inst.vms_per_pm;
    let pms = sim.inst.pms;
    let mut best: Option<(usize, f64, f64)> = None;
    let mut consider = |vm: usize, primary: f64, secondary: f64| {
        if sim.vm_job[vm].is_some() {
            return;
        }
        let better = match best {
            None => true,
            Some((_, p, s)) => primary > p + tol || (primary >= p - tol && secondary > s + tol),
        };
        if better {
            best = Some((vm, primary, secondary));
        }
    };
    match method {
        Method::Pc => (0..pms * w).for_each(|vm| consider(vm, sim.pc[vm], sim.ec[vm % w])),
        Method::Ec | Method::Enumerate => {
            (0..pms * w).for_each(|vm| consider(vm, sim.ec[vm % w], 0.0))
        }
        Method::EcLb => {
            for s in 0..w {
                for p in 0..pms {
                    consider(p * w + s, sim.ec[s], 0.0);
                }
            }
        }
    }
    best.expect("a free VM exists at a decision").0
}

/// Mean XF of a finished simulation (the enumeration's objective).
pub(crate) fn mean_xf(sim: &Sim, threshold: f64) -> f64 {
    let n = sim.inst.jobs.len();
    let total: f64 = (0..n)
        .map(|j| {
            (sim.end[j] - sim.submit[j])
                / threshold.max(sim.inst.ideal_runtime(sim.inst.jobs[j].work))
        })
        .sum();
    total / n as f64
}

/// The solution of a finished simulation.
pub(crate) fn collect(
    sim: &Sim,
    method: Method,
    status: Status,
    settings: &Settings,
    sequences: Option<u64>,
) -> Solution {
    let inst = sim.inst;
    let w = inst.vms_per_pm;
    let n = inst.jobs.len();
    let jobs: Vec<JobRecord> = (0..n)
        .map(|j| {
            let ideal = inst.ideal_runtime(inst.jobs[j].work);
            JobRecord {
                id: inst.jobs[j].id,
                submit: sim.submit[j],
                start: sim.start[j],
                end: sim.end[j],
                pm: sim.vm_of[j] / w,
                vm: sim.vm_of[j] % w,
                xf: (sim.end[j] - sim.submit[j]) / settings.xf_threshold.max(ideal),
                pc_at_start: sim.pc_at_start[j],
            }
        })
        .collect();
    let m = &sim.meter;
    let cap = inst.pms as f64 * inst.pcap;
    let span = m.last - m.origin;
    let nf = n as f64;
    let summary = Summary {
        jobs: n,
        mean_xf: jobs.iter().map(|r| r.xf).sum::<f64>() / nf,
        max_xf: jobs.iter().map(|r| r.xf).fold(0.0, f64::max),
        utilisation: if span > 0.0 {
            m.rate_integral / (cap * span)
        } else {
            0.0
        },
        vm_occupancy: if span > 0.0 {
            m.vm_integral / (inst.vm_count() as f64 * span)
        } else {
            0.0
        },
        first_submit: m.origin,
        last_end: m.last,
        mean_wait: jobs.iter().map(|r| r.start - r.submit).sum::<f64>() / nf,
        mean_runtime_expansion: jobs
            .iter()
            .zip(&inst.jobs)
            .map(|(r, j)| (r.end - r.start) / inst.ideal_runtime(j.work))
            .sum::<f64>()
            / nf,
        max_queue: sim.max_queue,
        queue_episodes: sim.episodes,
    };
    let bins = bin_stats(&jobs, m.origin, m.width, &m.bins, cap);
    let mut certificate = Certificate::new(super::NAME, method.name(), Sense::Minimize);
    let bound = super::solution::xf_lower_bound(inst, settings.xf_threshold);
    certificate.scored(summary.mean_xf, bound.min(summary.mean_xf), 1e-12 * bound);
    certificate.proof = Some(crate::problem::Proof::closed_form("xf-lower-bound"));
    if status != Status::Feasible {
        certificate.stats.insert("best_nondelay_fcfs".into(), 1.0);
    }
    if let Some(k) = sequences {
        certificate.stats.insert("sequences".into(), k as f64);
    }
    Solution {
        certificate,
        settings: settings.clone(),
        jobs,
        summary,
        bins,
        sequences,
    }
}

/// The bin of an arrival time (the last bin is closed on the right).
pub(crate) fn bin_of(submit: f64, origin: f64, width: f64, n: usize) -> usize {
    if width > 0.0 {
        (((submit - origin) / width).floor().max(0.0) as usize).min(n - 1)
    } else {
        0
    }
}

/// Per-bin mean XF from the records and utilisation from the integrals.
pub(crate) fn bin_stats(
    jobs: &[JobRecord],
    origin: f64,
    width: f64,
    integrals: &[f64],
    cap: f64,
) -> Vec<BinStat> {
    let n = integrals.len();
    let mut count = vec![0usize; n];
    let mut xf = vec![0.0; n];
    for r in jobs {
        let k = bin_of(r.submit, origin, width, n);
        count[k] += 1;
        xf[k] += r.xf;
    }
    (0..n)
        .map(|k| BinStat {
            start: origin + width * k as f64,
            end: origin + width * (k + 1) as f64,
            jobs: count[k],
            mean_xf: (count[k] > 0).then(|| xf[k] / count[k] as f64),
            utilisation: (width > 0.0).then(|| integrals[k] / (cap * width)),
        })
        .collect()
}
