//! Exhaustive search over non-delay FCFS dispatch choices for tiny instances: at each decision
//! the head job may take any free VM. The least mean XF found is the best any greedy policy
//! of this class (EC, PC, EC-LB, …) can reach, so it is a test oracle and a yardstick.
//!
//! Symmetry (exact because every VM and every PM is identical): free VMs of one PM are
//! interchangeable, and so are PMs with no running job; one representative of each is tried.

use super::instance::Instance;
use super::method::{Method, Settings};
use super::sim::Sim;
use super::solution::Solution;
use super::solve::{collect, mean_xf};
use crate::error::{InputError, Location, Result};
use crate::outcome::Status;

/// The free VMs worth trying for the head job.
fn candidates(sim: &Sim) -> Vec<usize> {
    let w = sim.inst.vms_per_pm;
    let mut out = Vec::new();
    let mut idle_pm_taken = false;
    for p in 0..sim.inst.pms {
        let slots = p * w..(p + 1) * w;
        let Some(first_free) = slots.clone().find(|&vm| sim.vm_job[vm].is_none()) else {
            continue;
        };
        if slots.clone().all(|vm| sim.vm_job[vm].is_none()) {
            if idle_pm_taken {
                continue;
            }
            idle_pm_taken = true;
        }
        out.push(first_free);
    }
    out
}

/// Best mean XF over all non-delay FCFS schedules (depth-first, ties kept at the first found).
pub(crate) fn enumerate(inst: &Instance, settings: &Settings) -> Result<Solution> {
    if inst.jobs.len() > settings.enumerate_max_jobs {
        let why = format!(
            "enumerate accepts at most {} jobs",
            settings.enumerate_max_jobs
        );
        return Err(InputError::new(
            "<instance>",
            Location::Field("jobs".into()),
            inst.jobs.len().to_string(),
            why,
        )
        .into());
    }
    if inst.vm_count() > settings.enumerate_max_vms {
        let why = format!(
            "enumerate accepts at most {} VMs",
            settings.enumerate_max_vms
        );
        return Err(InputError::new(
            "<instance>",
            Location::Field("pms".into()),
            inst.vm_count().to_string(),
            why,
        )
        .into());
    }
    let mut best: Option<(f64, Sim)> = None;
    let mut leaves = 0u64;
    let mut stack = vec![Sim::new(
        inst,
        settings.arrival_factor,
        settings.bins,
        settings.queue_episode_threshold,
    )];
    while let Some(mut s) = stack.pop() {
        if !s.next_decision() {
            leaves += 1;
            let v = mean_xf(&s, settings.xf_threshold);
            if best.as_ref().is_none_or(|(b, _)| v < *b) {
                best = Some((v, s));
            }
            continue;
        }
        for &vm in candidates(&s).iter().rev() {
            let mut c = s.clone();
            c.start_head(vm);
            stack.push(c);
        }
    }
    let (_, sim) = best.expect("at least one schedule");
    Ok(collect(
        &sim,
        Method::Enumerate,
        Status::Optimal,
        settings,
        Some(leaves),
    ))
}

/// How far each greedy policy is from the best non-delay FCFS schedule on random tiny
/// instances.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EnumerationStudy {
    /// The instance generator used.
    pub spec: super::generate::GenSpec,
    /// Instances (seeds `0..instances`).
    pub instances: usize,
    /// Per policy: (method, mean of XF/best, max of XF/best, instances where it is optimal).
    pub policies: Vec<(Method, f64, f64, usize)>,
    /// Mean number of complete dispatch sequences explored per instance.
    pub mean_sequences: f64,
}

/// Runs the enumeration and the three policies on `instances` generated instances.
pub fn study(
    spec: &super::generate::GenSpec,
    instances: usize,
    settings: &Settings,
) -> Result<EnumerationStudy> {
    let mut acc: Vec<(Method, f64, f64, usize)> = Method::policies()
        .iter()
        .map(|&m| (m, 0.0, 0.0, 0))
        .collect();
    let mut sequences = 0.0;
    for seed in 0..instances as u64 {
        let inst = super::generate::generate(spec, seed);
        let best = enumerate(&inst, settings)?;
        sequences += best.sequences.unwrap_or(0) as f64;
        for a in acc.iter_mut() {
            let s = super::solve::solve(&inst, a.0, settings)?;
            let r = s.summary.mean_xf / best.summary.mean_xf;
            a.1 += r / instances as f64;
            a.2 = a.2.max(r);
            a.3 += usize::from(r <= 1.0 + 1e-9);
        }
    }
    Ok(EnumerationStudy {
        spec: spec.clone(),
        instances,
        policies: acc,
        mean_sequences: sequences / instances as f64,
    })
}

impl EnumerationStudy {
    /// A Markdown table (the paper has no counterpart: this is beyond the paper).
    pub fn to_markdown(&self) -> String {
        let mut s = format!(
            "## Beyond the paper: greedy policies against the best non-delay FCFS schedule\n\n{} random instances, {} PMs × {} VMs, {} jobs each (mean inter-arrival {} s, work log-uniform in [{}, {}] s); {:.0} complete dispatch sequences per instance on average after symmetry reduction. The paper has no counterpart.\n\n| policy | mean XF / best | worst XF / best | optimal on |\n|---|---|---|---|\n",
            self.instances, self.spec.pms, self.spec.vms_per_pm, self.spec.jobs, self.spec.mean_interarrival, self.spec.work_min, self.spec.work_max, self.mean_sequences
        );
        for (m, mean, max, opt) in &self.policies {
            s.push_str(&format!(
                "| {} | {:.4} | {:.4} | {}/{} |\n",
                m.name(),
                mean,
                max,
                opt,
                self.instances
            ));
        }
        s
    }
}
