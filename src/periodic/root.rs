//! The job-level root: column generation over the aggregated master (one row per job, demand
//! `N_j`; a column is a count of tasks per job), its dive and its restricted integer master.
//! `cg` is this alone; `bp` starts from it ([`super::tree`]), and the repacking packs its
//! residuals with it ([`super::repack`]). It calls nothing above it: the flow is method →
//! root → tree (→ repack → root's packing of a residual).

use super::heuristics::{best_fit_decreasing_within, min_max_search_within};
use super::instance::Instance;
use super::packing::{group, machine_count, Machine};
use super::pricing::PeriodicPricing;
use super::settings::{InitialColumns, Settings};
use super::solution::{finished, Solution};
use crate::colgen::{self, Column, CoveringMaster};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::problem::Proof;
use crate::solver::Deadline;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

fn key(tasks: &[(usize, u32)]) -> Vec<(usize, u32)> {
    let mut t = tasks.to_vec();
    t.sort_unstable();
    t
}

/// What column generation over the job-level master (one row per job, demand `N_j`) and its
/// integer finish leave: the best machines found, the proven lower bound and the figures.
pub(super) struct Root {
    /// The best packing found (no over-coverage, no empty machine).
    pub machines: Vec<Machine>,
    /// `max(⌈W/C⌉, ⌈z_LP⌉)`.
    pub lower_bound: u64,
    /// The LP bound (the loop's Lagrangian bound).
    pub lp_bound: f64,
    /// Loop iterations.
    pub iterations: u32,
    /// Figures for the certificate.
    pub stats: BTreeMap<String, f64>,
    /// The master's columns at the end (the tree starts from them).
    pub columns: Vec<Column>,
    /// The proof of `lower_bound`: ⌈W/C⌉ in closed form, or the Farley bound of the loop's
    /// duals (the tree replaces it when it raises the bound).
    pub proof: Proof,
}

impl Root {
    /// The answer of `method` with these machines and this bound.
    pub fn into_solution(self, method: &str, began: Instant) -> Solution {
        let configurations = group(&self.machines);
        let machines = machine_count(&configurations);
        let mut sol = finished(
            method,
            Some(configurations),
            machines,
            self.lower_bound,
            Some(self.lp_bound),
            self.iterations,
            began,
        );
        sol.stats.extend(self.stats);
        sol.certificate.proof = Some(self.proof);
        sol
    }
}

/// Column generation over the job-level master, then (with `integer_finish`) the dive and the
/// restricted integer master from the best heuristic; without it, the best heuristic.
pub(super) fn aggregated_root(
    inst: &Instance,
    settings: &Settings,
    lb_w: u64,
    integer_finish: bool,
    began: Instant,
    deadline: &Deadline,
) -> Result<Root> {
    let deadline = *deadline;
    let heuristics_phase =
        crate::solver::progress::phase(|| "heuristics (best fit decreasing, min-max)".into());
    // Heuristics: baselines, initial columns and the integer finish's starting point.
    let bfd = best_fit_decreasing_within(inst, &deadline);
    let mm = if settings.mm_start {
        min_max_search_within(inst, &deadline)
    } else {
        Vec::new()
    };
    // Heuristic packings hold no empty machine: their length is their machine count.
    let best_heur = if !mm.is_empty() && mm.len() <= bfd.len() {
        &mm
    } else {
        &bfd
    };
    let heuristic_seconds = began.elapsed().as_secs_f64();
    drop(heuristics_phase);

    // Initial columns: K0 (as many tasks of one job as fit alone) and, unless the settings
    // say `k0`, the heuristics' machines.
    let mut configs: Vec<Vec<(usize, u32)>> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |t: Vec<(usize, u32)>, configs: &mut Vec<Vec<(usize, u32)>>| {
        if !t.is_empty() && seen.insert(t.clone()) {
            configs.push(t);
        }
    };
    for (j, job) in inst.jobs.iter().enumerate() {
        let n = job
            .tasks
            .min((inst.capacity / job.peak() + 1e-12).floor() as u32)
            .max(1);
        push(vec![(j, n)], &mut configs);
    }
    if settings.initial_columns == InitialColumns::K0AndHeuristics {
        for m in bfd.iter().chain(&mm) {
            push(key(&m.tasks), &mut configs);
        }
    }
    let demands: Vec<f64> = inst.jobs.iter().map(|j| f64::from(j.tasks)).collect();
    let mut master = CoveringMaster::new(&demands);
    for c in &configs {
        master.add_column(c.iter().map(|&(j, n)| (j, f64::from(n))).collect())?;
    }
    let initial_columns = master.len();
    let pricing_settings = settings.pricing.for_loop(settings.cg.reduced_cost_tol);
    let mut pricing = PeriodicPricing::new(inst, pricing_settings);
    pricing.remember(master.columns());
    // Under a time limit, the first phase leaves a share for the integer finish.
    let phase1_deadline = deadline.keeping(|left| {
        settings
            .integer_time_limit
            .min((1.0 - settings.first_phase_share) * left)
    });
    // W/C bounds the LP optimum too (the total demand of a covering is at most Σ Y_i · C).
    let w_over_c = super::peak::total_demand(inst) / inst.capacity;
    let cg = colgen::run(
        &mut master,
        &mut pricing,
        &settings.cg,
        w_over_c,
        &phase1_deadline,
    )?;
    let lp_lb = ceil_with_tolerance(cg.bound);
    let lower_bound = lb_w.max(lp_lb);
    let phase1 = began.elapsed().as_secs_f64();

    // Integer finish over the generated columns, started from the best heuristic.
    let columns: Vec<Column> = master.columns().to_vec();
    let index: BTreeMap<Vec<(usize, u32)>, usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.iter().map(|&(j, n)| (j, n as u32)).collect::<Vec<_>>(), i))
        .collect();
    let mut start = vec![0.0; columns.len()];
    for m in best_heur {
        if let Some(&i) = index.get(&key(&m.tasks)) {
            start[i] += 1.0;
        }
    }
    let heur_machines = best_heur.len() as u64;
    let mut chosen: Vec<Machine> = best_heur.clone();
    let mut best_machines = heur_machines;
    // The integer finish shares one budget: the dive first, the integer master after it.
    let finish_deadline = deadline.capped(settings.integer_time_limit);
    let (mut dive_seconds, mut dive_machines) = (0.0, None);
    let mut columns = columns;
    if integer_finish && settings.dive.enabled && best_machines > lower_bound && !deadline.expired()
    {
        let mut dive_settings = settings.dive.clone();
        dive_settings.reduced_cost_tol = dive_settings
            .reduced_cost_tol
            .max(settings.cg.reduced_cost_tol);
        let began_dive = Instant::now();
        let out = colgen::dive(&mut master, &mut pricing, &dive_settings, &finish_deadline)?;
        dive_seconds = began_dive.elapsed().as_secs_f64();
        columns = master.columns().to_vec();
        start.resize(columns.len(), 0.0);
        let mut machines = expand(inst, &columns, &out.counts);
        if !out.complete {
            // Stopped by the deadline: BFD packs what the fixed machines leave.
            machines.extend(best_fit_decreasing_within(
                &uncovered(inst, &machines),
                &deadline.at_least(0.5),
            ));
        }
        let total = machines.len() as u64;
        dive_machines = Some((total, out.steps, out.columns_added, out.complete));
        if total < best_machines {
            best_machines = total;
            chosen = machines;
            if out.complete {
                start = out.counts.iter().map(|&c| c as f64).collect();
            }
        }
    }
    let mut int_seconds = 0.0;
    let mut int_not_built = false;
    // HiGHS overruns its deadline a little: it gets what is left less a margin.
    let int_deadline = finish_deadline.keeping(|left| {
        (settings.integer_margin_share * left).max(settings.integer_margin_seconds)
    });
    if integer_finish && best_machines > lower_bound && !int_deadline.expired() {
        let out = colgen::solve_integer_master(
            &columns,
            &demands,
            Some(&start),
            &settings.highs,
            &int_deadline,
        )?;
        int_seconds = out.seconds;
        int_not_built = out.not_built;
        if let Some(counts) = out.counts {
            let total: u64 = counts.iter().sum();
            if total < best_machines {
                chosen = expand(inst, &columns, &counts);
            }
        }
    }
    remove_over_coverage(inst, &mut chosen);
    let mut stats = BTreeMap::new();
    let s = &mut stats;
    s.insert("lower_bound_peak".into(), lb_w as f64);
    s.insert("lower_bound_lp".into(), lp_lb as f64);
    s.insert("master_value".into(), cg.master_value);
    s.insert("heuristic_seconds".into(), heuristic_seconds);
    s.insert("phase1_seconds".into(), phase1);
    if let Some(t) = cg.settled_seconds {
        // From the start of the solve, like phase 1.
        s.insert("bound_settled_seconds".into(), phase1 - cg.seconds + t);
    }
    s.insert("integer_seconds".into(), int_seconds);
    if int_not_built {
        // The deadline passed while the integer master was built (issue 36): the answer is
        // the heuristics' and the dive's.
        s.insert("model_not_built".into(), 1.0);
    }
    s.insert("dive_seconds".into(), dive_seconds);
    if let Some((m, steps, added, complete)) = dive_machines {
        s.insert("dive_machines".into(), m as f64);
        s.insert("dive_complete".into(), f64::from(u8::from(complete)));
        s.insert("dive_steps".into(), f64::from(steps));
        s.insert("dive_columns".into(), added as f64);
    }
    s.insert("columns_initial".into(), initial_columns as f64);
    s.insert("columns".into(), columns.len() as f64);
    s.insert("exact_pricings".into(), pricing.exact_calls as f64);
    s.insert("pool_pricings".into(), pricing.pool_hits as f64);
    s.insert(
        "pricing_nodes".into(),
        cg.iterations.iter().map(|i| i.nodes as f64).sum(),
    );
    s.insert("heuristic_machines".into(), heur_machines as f64);
    let flag = |t: colgen::Termination| f64::from(u8::from(cg.termination == t));
    s.insert("converged".into(), flag(colgen::Termination::Converged));
    s.insert(
        "bound_closed".into(),
        flag(colgen::Termination::BoundClosed),
    );
    s.insert(
        "pricing_limit".into(),
        flag(colgen::Termination::PricingLimit),
    );
    s.insert("tailing_off".into(), flag(colgen::Termination::TailingOff));
    cg.convergence().record(s);
    let proof = match &cg.bound_duals {
        Some(d) if lp_lb > lb_w => super::proof::pricing(inst, d, cg.bound),
        _ => Proof::closed_form("total-demand"),
    };
    Ok(Root {
        machines: chosen,
        lower_bound,
        lp_bound: cg.bound,
        iterations: cg.iterations.len() as u32,
        stats,
        columns,
        proof,
    })
}

/// The tasks `machines` leave unplaced, as an instance of the same jobs.
pub(super) fn uncovered(inst: &Instance, machines: &[Machine]) -> Instance {
    let mut left: Vec<i64> = inst.jobs.iter().map(|j| i64::from(j.tasks)).collect();
    for m in machines {
        for &(j, n) in &m.tasks {
            left[j] -= i64::from(n);
        }
    }
    Instance {
        capacity: inst.capacity,
        jobs: inst
            .jobs
            .iter()
            .zip(left)
            .map(|(job, n)| super::instance::Job {
                tasks: n.max(0) as u32,
                ..job.clone()
            })
            .collect(),
    }
}

/// One machine per unit of `counts`.
pub(super) fn expand(inst: &Instance, columns: &[Column], counts: &[u64]) -> Vec<Machine> {
    let mut out = Vec::new();
    for (col, &k) in columns.iter().zip(counts) {
        for _ in 0..k {
            let mut m = Machine::default();
            for &(j, n) in col {
                for _ in 0..n as u32 {
                    m.push(inst, j);
                }
            }
            out.push(m);
        }
    }
    out
}

/// The covering master may place more tasks of a job than it has: remove the surplus
/// (removing a task never raises a peak, every demand being non-negative), then drop empty
/// machines.
pub fn remove_over_coverage(inst: &Instance, machines: &mut Vec<Machine>) {
    let mut surplus: Vec<i64> = inst.jobs.iter().map(|j| -i64::from(j.tasks)).collect();
    for m in machines.iter() {
        for &(j, n) in &m.tasks {
            surplus[j] += i64::from(n);
        }
    }
    for m in machines.iter_mut().rev() {
        let mut changed = false;
        for e in m.tasks.iter_mut() {
            let take = surplus[e.0].min(i64::from(e.1)).max(0);
            if take > 0 {
                e.1 -= take as u32;
                surplus[e.0] -= take;
                changed = true;
            }
        }
        if changed {
            m.tasks.retain(|e| e.1 > 0);
            let tasks = std::mem::take(&mut m.tasks);
            *m = Machine::default();
            for (j, n) in tasks {
                for _ in 0..n {
                    m.push(inst, j);
                }
            }
        }
    }
    machines.retain(|m| !m.tasks.is_empty());
}
