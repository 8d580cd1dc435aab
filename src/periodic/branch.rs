//! `--method bp`: branch-and-price for periodic packing (models/periodic.md,
//! "Branch-and-price"). First the job-level root: column generation over one row per job
//! (demand `N_j`), its dive and its restricted integer master, as `cg` does, under a share of
//! the time. When a gap is left, the unit-task tree of [`crate::colgen::branch_and_price`]
//! goes on from that packing: one row per task, Ryan–Foster branching on pairs of tasks, and
//! the periodic knapsack under the decisions as its pricing ([`super::tasks`]).

use super::instance::Instance;
use super::method::{aggregated_root, remove_over_coverage, Settings};
use super::packing::Machine;
use super::repack::{repack, RepackSettings};
use super::solution::Solution;
use super::tasks::{task_jobs, TaskPricing};
use crate::colgen::{branch_and_price, BpEnd, BpSettings, Column};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of `--method bp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BranchSettings {
    /// Under a time limit, the share of it the job-level root may use (the tree gets the rest
    /// and whatever the root leaves).
    pub root_share: f64,
    /// The job-level root's dive and restricted integer master (off: the tree starts from the
    /// best heuristic and must find the optimum itself; the brute-force tests use it).
    pub root_finish: bool,
    /// When the root leaves a gap: repacking a few machines at a time (see [`super::repack`]).
    pub repack: RepackSettings,
    /// With a tree to come, the share of the time left that repacking may use.
    pub repack_share: f64,
    /// The unit-task tree starts only when the instance has at most this many tasks: its
    /// master has one row per task (the answer is then the root's, with its bound and gap).
    pub max_tasks: usize,
    /// The unit-task tree.
    pub tree: BpSettings,
}

impl Default for BranchSettings {
    fn default() -> Self {
        BranchSettings {
            root_share: 0.5,
            root_finish: true,
            repack: RepackSettings::default(),
            repack_share: 0.3,
            max_tasks: 2_000,
            tree: BpSettings::default(),
        }
    }
}

impl BranchSettings {
    /// The tree on its own: no integer finish at the root, no repacking, no dive or integer
    /// master in the tree, so that branching itself must find and prove the optimum.
    pub fn branching_only() -> Self {
        BranchSettings {
            root_finish: false,
            repack: RepackSettings {
                enabled: false,
                ..RepackSettings::default()
            },
            tree: BpSettings::branching_only(),
            ..BranchSettings::default()
        }
    }
}

/// Branch-and-price on `inst`; `lb_w` is `⌈W/C⌉`.
pub(super) fn solve(
    inst: &Instance,
    settings: &Settings,
    lb_w: u64,
    began: Instant,
    deadline: &Deadline,
) -> Result<Solution> {
    let bs = &settings.bp;
    let tasks: usize = inst.jobs.iter().map(|j| j.tasks as usize).sum();
    let tree_allowed = tasks <= bs.max_tasks;
    let root_deadline = deadline.keeping(|left| (1.0 - bs.root_share) * left);
    let mut root = aggregated_root(inst, settings, lb_w, bs.root_finish, began, &root_deadline)?;
    let root_machines = root.machines.len();
    let mut repacked = None;
    if bs.repack.enabled && root.machines.len() as u64 > root.lower_bound {
        // With a tree to come, repacking gets its share of what is left; else all of it.
        let until = if tree_allowed {
            deadline.keeping(|left| (1.0 - bs.repack_share) * left)
        } else {
            *deadline
        };
        repacked = Some(repack(
            inst,
            &mut root.machines,
            root.lower_bound,
            settings,
            &bs.repack,
            &until,
        )?);
    }
    let gap = root.machines.len() as u64 > root.lower_bound;
    let start_tree = gap && tree_allowed && !deadline.expired();
    if let Some(r) = repacked {
        let stats = &mut root.stats;
        stats.insert("repack_attempts".into(), r.attempts as f64);
        stats.insert("repack_gains".into(), r.gains as f64);
        stats.insert("repack_seconds".into(), r.seconds);
    }
    let stats = &mut root.stats;
    stats.insert("tasks".into(), tasks as f64);
    stats.insert("root_machines".into(), root_machines as f64);
    stats.insert("tree_started".into(), f64::from(u8::from(start_tree)));
    if !start_tree {
        stats.insert("nodes".into(), 0.0);
        return Ok(root.into_solution("bp", began));
    }
    let pricing_settings = settings.pricing.for_loop(bs.tree.cg.reduced_cost_tol);
    let mut pricing = TaskPricing::new(inst, pricing_settings);
    let start = task_columns(inst, &root.machines);
    let out = branch_and_price(tasks, &mut pricing, start, &bs.tree, deadline)?;
    let jobs = task_jobs(inst);
    let mut machines: Vec<Machine> = out
        .incumbent
        .iter()
        .map(|col| {
            let mut m = Machine::default();
            for &(t, _) in col {
                m.push(inst, jobs[t]);
            }
            m
        })
        .collect();
    remove_over_coverage(inst, &mut machines);
    if machines.len() < root.machines.len() {
        root.machines = machines;
    }
    root.lower_bound = root.lower_bound.max(out.bound);
    let stats = &mut root.stats;
    stats.insert("nodes".into(), out.nodes as f64);
    stats.insert("open_nodes".into(), out.open as f64);
    stats.insert("tree_columns".into(), out.columns as f64);
    stats.insert("tree_seconds".into(), out.seconds);
    stats.insert("tree_pricings".into(), pricing.exact_calls as f64);
    stats.insert(
        "search_complete".into(),
        f64::from(u8::from(out.end == BpEnd::Optimal)),
    );
    Ok(root.into_solution("bp", began))
}

/// A packing over jobs as columns over task rows (rows job by job; each job's tasks handed
/// out in order).
fn task_columns(inst: &Instance, machines: &[Machine]) -> Vec<Column> {
    let mut next: Vec<usize> = inst
        .jobs
        .iter()
        .scan(0, |first, j| {
            let at = *first;
            *first += j.tasks as usize;
            Some(at)
        })
        .collect();
    machines
        .iter()
        .map(|m| {
            let mut col: Column = Vec::new();
            for &(j, n) in &m.tasks {
                for _ in 0..n {
                    col.push((next[j], 1.0));
                    next[j] += 1;
                }
            }
            col.sort_by_key(|e| e.0);
            col
        })
        .collect()
}
