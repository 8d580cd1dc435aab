//! `--method bp` after the root (models/periodic.md, "Branch-and-price"): when the root's
//! packing is above its bound, the aligned fill ([`super::aligned_fill`]), the local search,
//! the repacking ([`super::repack`]) and then branch-and-price over
//! the *job-level* master — the root's own master, one row per job with demand `N_j` — whose
//! branching rows count the machines holding at least `k_j` tasks of every job of a corner
//! (Vanderbeck 2011): `Σ_{a ≥ q} λ_a ≤ ⌊s⌋` or `≥ ⌈s⌉`. The pricing honours the rows exactly
//! ([`super::branched`]). Nodes: column generation from the shared pool over a HiGHS LP with
//! the rows, a safe Farley bound (the rows' duals in the dual objective), best bound first
//! (ties: deeper, then the `≥` child); at each node the LP rounded down, the rest packed by
//! BFD and repacked, as the primal heuristic.

use super::aligned_fill::aligned_fill;
use super::branched::{holds, BranchedPricing, Corner, Counts};
use super::heuristics::best_fit_decreasing_within;
use super::instance::Instance;
use super::local_search::local_search;
use super::node::{solve_node, Node, NodeEnd, Row};
use super::packing::Machine;
use super::pricing::PricingSettings;
use super::repack::{complete, repack, RepackSettings};
use super::root::{remove_over_coverage, uncovered, Root};
use super::settings::Settings;
use super::solution::Solution;
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::problem::Proof;
use crate::solver::Deadline;
use log::{debug, info};
use std::collections::{BTreeMap, BinaryHeap, HashSet};
use std::time::Instant;

/// How the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeEnd {
    /// The incumbent meets the least open bound.
    Optimal,
    /// The deadline.
    TimeLimit,
    /// The node limit.
    NodeLimit,
    /// Some node could be neither closed nor split (a pricing without proof, too many cells,
    /// an artificial column left in the LP): its bound holds, the search is incomplete.
    Incomplete,
}

/// What the search found.
#[derive(Debug, Clone)]
pub struct TreeOutcome {
    /// The best packing (no over-coverage).
    pub machines: Vec<Machine>,
    /// Proven lower bound on the optimum.
    pub bound: u64,
    /// How it ended.
    pub end: TreeEnd,
    /// Nodes solved.
    pub nodes: u64,
    /// Nodes still open.
    pub open: usize,
    /// Deepest node solved.
    pub depth: u32,
    /// Columns in the pool at the end.
    pub columns: usize,
    /// Exact pricings (all cells).
    pub exact_pricings: u64,
    /// Incumbents the node heuristic improved.
    pub heuristic_gains: u64,
    /// Wall seconds.
    pub seconds: f64,
}

/// The live log's phase `what`, started from the root's packing and bound.
fn from_root(what: &str, root: &Root) -> crate::solver::progress::Phase {
    crate::solver::progress::phase(|| {
        format!(
            "{what} from {} machines, bound {}",
            root.machines.len(),
            root.lower_bound
        )
    })
}

/// `--method bp` from the root's answer: the repacking, then the tree, within `deadline`.
/// `paced`: the aligned fill into the peak bound spent its budget too fast (then it is not
/// tried again unless `aligned_fill.after_pace`).
pub(super) fn solve(
    inst: &Instance,
    settings: &Settings,
    mut root: Root,
    paced: bool,
    began: Instant,
    deadline: &Deadline,
) -> Result<Solution> {
    let bs = &settings.bp;
    let tasks: u64 = inst.jobs.iter().map(|j| u64::from(j.tasks)).sum();
    let root_machines = root.machines.len();
    // Only once the root's bound has settled: before, the tree's first node goes on with the
    // column generation, which the time is better spent on (300-job Large/Large seed 2 is
    // proven so, and was not with the search first).
    let settled = root.stats.get("root_settled").is_some_and(|&v| v > 0.5);
    // The aligned fill below the root's packing, one machine fewer at a time while it
    // succeeds (a target with more budget is easier, so the first try is the likeliest),
    // down to the root's bound; the peak bound was tried before the root, with the same draws.
    if bs.aligned_fill.enabled && (!paced || bs.aligned_fill.after_pace) {
        let until = deadline.keeping(|left| (1.0 - bs.aligned_fill.share) * left);
        let peak_bound = super::peak::total_demand_bound(inst);
        let (mut attempts, mut seconds) = (0, 0.0);
        let mut target = (root.machines.len() as u64).saturating_sub(1);
        while target >= root.lower_bound.max(peak_bound + 1) && !until.expired() {
            let _phase = crate::solver::progress::phase(|| {
                format!(
                    "aligned fill into {target} machines, bound {}",
                    root.lower_bound
                )
            });
            let f = aligned_fill(inst, target, &bs.aligned_fill, &until);
            attempts += f.attempts;
            seconds += f.seconds;
            match f.machines {
                Some(m) => {
                    target = (m.len() as u64).saturating_sub(1);
                    root.machines = m;
                }
                None => break,
            }
        }
        let stats = &mut root.stats;
        *stats.entry("aligned_fill_attempts".into()).or_default() += attempts as f64;
        *stats.entry("aligned_fill_seconds".into()).or_default() += seconds;
    }
    if bs.local_search.enabled && settled && root.machines.len() as u64 > root.lower_bound {
        let until = deadline.keeping(|left| (1.0 - bs.local_search.share) * left);
        let _phase = from_root("local search", &root);
        let r = local_search(
            inst,
            &mut root.machines,
            root.lower_bound,
            &bs.local_search,
            &until,
        );
        let stats = &mut root.stats;
        stats.insert("local_search_attempts".into(), r.attempts as f64);
        stats.insert("local_search_gains".into(), r.gains as f64);
        stats.insert("local_search_moves".into(), r.moves as f64);
        stats.insert("local_search_seconds".into(), r.seconds);
    }
    if bs.repack.enabled && root.machines.len() as u64 > root.lower_bound {
        let until = deadline.keeping(|left| (1.0 - bs.repack_share) * left);
        let _phase = from_root("repacking", &root);
        let r = repack(
            inst,
            &mut root.machines,
            root.lower_bound,
            settings,
            &bs.repack,
            &until,
        )?;
        let stats = &mut root.stats;
        stats.insert("repack_attempts".into(), r.attempts as f64);
        stats.insert("repack_gains".into(), r.gains as f64);
        stats.insert("repack_seconds".into(), r.seconds);
    }
    let start_tree = root.machines.len() as u64 > root.lower_bound && !deadline.expired();
    let stats = &mut root.stats;
    stats.insert("tasks".into(), tasks as f64);
    stats.insert("root_machines".into(), root_machines as f64);
    stats.insert("tree_started".into(), f64::from(u8::from(start_tree)));
    if !start_tree {
        stats.insert("nodes".into(), 0.0);
        return Ok(root.into_solution("bp", began));
    }
    let phase = from_root("branch-and-price over jobs", &root);
    let out = search(inst, settings, &root, deadline)?;
    drop(phase);
    if out.machines.len() < root.machines.len() {
        root.machines = out.machines;
    }
    if out.bound > root.lower_bound {
        root.lower_bound = out.bound;
        root.proof = Proof::search(out.nodes, "the job-level branch-and-price tree");
    }
    let stats = &mut root.stats;
    stats.insert("nodes".into(), out.nodes as f64);
    stats.insert("open_nodes".into(), out.open as f64);
    stats.insert("tree_depth".into(), f64::from(out.depth));
    stats.insert("tree_columns".into(), out.columns as f64);
    stats.insert("tree_seconds".into(), out.seconds);
    stats.insert("tree_pricings".into(), out.exact_pricings as f64);
    stats.insert("tree_heuristic_gains".into(), out.heuristic_gains as f64);
    stats.insert(
        "search_complete".into(),
        f64::from(u8::from(out.end == TreeEnd::Optimal)),
    );
    Ok(root.into_solution("bp", began))
}

/// A column over jobs with real coefficients as counts.
fn counts_of(col: &[(usize, f64)]) -> Counts {
    let mut c: Counts = col
        .iter()
        .filter(|e| e.1 > 0.5)
        .map(|&(j, n)| (j, n.round() as u32))
        .collect();
    c.sort_unstable();
    c
}

/// Branch-and-price over the job-level master from the root's columns and packing.
pub fn search(
    inst: &Instance,
    settings: &Settings,
    root: &Root,
    deadline: &Deadline,
) -> Result<TreeOutcome> {
    let began = Instant::now();
    let ts = &settings.bp.tree;
    let pricing_settings = PricingSettings {
        prove_aim: ts.prove_aim,
        ..settings.pricing.for_loop(ts.reduced_cost_tol)
    };
    let mut pricing = BranchedPricing::new(inst, pricing_settings, ts.max_cells);
    let mut pool: Vec<Counts> = Vec::new();
    let mut seen: HashSet<Counts> = HashSet::new();
    let mut remember = |pool: &mut Vec<Counts>, cols: &[Counts]| {
        for c in cols {
            if !c.is_empty() && seen.insert(c.clone()) {
                pool.push(c.clone());
            }
        }
    };
    let start: Vec<Counts> = root
        .columns
        .iter()
        .map(|c| counts_of(c))
        .chain(root.machines.iter().map(|m| {
            let mut t = m.tasks.clone();
            t.sort_unstable();
            t
        }))
        .collect();
    remember(&mut pool, &start);
    // Every job alone (as many tasks as fit): the master is feasible without artificials
    // whenever the rows allow it.
    let alone: Vec<Counts> = inst
        .jobs
        .iter()
        .enumerate()
        .map(|(j, job)| {
            let n = job
                .tasks
                .min((inst.capacity / job.peak() + 1e-12).floor() as u32)
                .max(1);
            vec![(j, n)]
        })
        .collect();
    remember(&mut pool, &alone);
    pricing.remember(pool.iter());
    let mut incumbent = root.machines.clone();
    let global = root.lower_bound;
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    heap.push(Node {
        rows: Vec::new(),
        bound: global,
        depth: 0,
        seq,
    });
    let (mut nodes, mut depth, mut gains) = (0u64, 0u32, 0u64);
    let mut stuck: Option<u64> = None;
    let mut last_log = Instant::now();
    let end = loop {
        let best = incumbent.len() as u64;
        heap.retain(|n: &Node| n.bound < best);
        if heap.is_empty() {
            break TreeEnd::Optimal;
        }
        if deadline.expired() {
            break TreeEnd::TimeLimit;
        }
        if nodes >= ts.node_limit {
            break TreeEnd::NodeLimit;
        }
        let node = heap.pop().expect("not empty");
        nodes += 1;
        depth = depth.max(node.depth);
        let node_began = Instant::now();
        let out = solve_node(inst, &mut pricing, &pool, &node, best, ts, deadline)?;
        let node_seconds = node_began.elapsed().as_secs_f64();
        remember(&mut pool, &out.columns);
        let node_bound = ceil_with_tolerance(out.bound).max(node.bound);
        debug!(
            "tree node {nodes} depth {}: bound {node_bound}, {} rows, incumbent {best}, {node_seconds:.2} s",
            node.depth,
            node.rows.len()
        );
        let (primal, artificial) = match out.end {
            NodeEnd::Pruned => continue,
            NodeEnd::Open => {
                if deadline.expired() {
                    // Not solved: back in the queue, so its bound counts.
                    heap.push(Node {
                        bound: node_bound,
                        ..node
                    });
                    nodes -= 1;
                } else {
                    stuck = Some(stuck.map_or(node_bound, |b| b.min(node_bound)));
                }
                continue;
            }
            NodeEnd::Converged { primal, artificial } => (primal, artificial),
        };
        if node_bound >= incumbent.len() as u64 {
            continue;
        }
        // Integer solutions of the LP, and the node heuristic.
        let mut support: BTreeMap<&Counts, f64> = BTreeMap::new();
        for (c, &v) in out.columns.iter().zip(&primal) {
            if v > 1e-9 {
                *support.entry(c).or_default() += v;
            }
        }
        let integral =
            artificial <= 1e-9 && support.values().all(|v| (v - v.round()).abs() <= 1e-6);
        if integral || ts.heuristics {
            let rs = RepackSettings {
                patience: ts.repack_patience,
                attempt_seconds: ts.integer_seconds,
                ..settings.bp.repack.clone()
            };
            let pack = (ts.heuristics && !integral).then_some((settings, &rs));
            let mut machines = rounded_packing(inst, &support, pack, deadline)?;
            debug!(
                "tree node {nodes}: the rounding packs {} machines in {:.2} s",
                machines.len(),
                node_began.elapsed().as_secs_f64() - node_seconds
            );
            if ts.heuristics
                && !deadline.expired()
                && machines.len() as u64 > node_bound
                && machines.len() <= incumbent.len()
            {
                repack(inst, &mut machines, node_bound, settings, &rs, deadline)?;
            }
            debug!(
                "tree node {nodes}: heuristic packs {} machines in {:.2} s",
                machines.len(),
                node_began.elapsed().as_secs_f64() - node_seconds
            );
            if machines.len() < incumbent.len() {
                info!(
                    "tree: node {nodes} packs {} machines (was {})",
                    machines.len(),
                    incumbent.len()
                );
                gains += 1;
                incumbent = machines;
            }
        }
        let best = incumbent.len() as u64;
        if node_bound >= best {
            continue;
        }
        if artificial > 1e-9 {
            stuck = Some(stuck.map_or(node_bound, |b| b.min(node_bound)));
            continue;
        }
        let branched: HashSet<usize> = node
            .rows
            .iter()
            .flat_map(|r| r.corner.iter().map(|e| e.0))
            .collect();
        let Some(corner) = branching_corner(&support, &branched) else {
            // Integral: the LP optimum is a packing; the node is solved when it meets the
            // node's bound, else (the loop stopped on the incumbent) it stays open.
            let value: f64 = support.values().sum();
            if ceil_with_tolerance(value) > node_bound {
                stuck = Some(stuck.map_or(node_bound, |b| b.min(node_bound)));
            }
            continue;
        };
        let s: f64 = support
            .iter()
            .filter(|(c, _)| holds(&corner, c))
            .map(|(_, v)| v)
            .sum();
        for at_least in [false, true] {
            let rhs = if at_least { s.ceil() } else { s.floor() };
            seq += 1;
            let mut rows = node.rows.clone();
            rows.push(Row {
                corner: corner.clone(),
                at_least,
                rhs,
            });
            heap.push(Node {
                rows,
                bound: node_bound,
                depth: node.depth + 1,
                seq,
            });
        }
        if last_log.elapsed().as_secs_f64() >= ts.progress_seconds {
            last_log = Instant::now();
            crate::solver::progress::line(format_args!(
                "branch-and-price (jobs): {nodes} nodes, {} open, bound {}, incumbent {}",
                heap.len(),
                open_bound(&heap, stuck, node_bound),
                incumbent.len()
            ));
        }
    };
    let best = incumbent.len() as u64;
    let bound = open_bound(&heap, stuck, best).max(global).min(best);
    let end = if bound >= best {
        TreeEnd::Optimal
    } else if end == TreeEnd::Optimal {
        TreeEnd::Incomplete
    } else {
        end
    };
    Ok(TreeOutcome {
        machines: incumbent,
        bound,
        end,
        nodes,
        open: heap.len(),
        depth,
        columns: pool.len(),
        exact_pricings: pricing.exact_calls,
        heuristic_gains: gains,
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// The least bound of the open and stuck nodes (`otherwise` when there are none).
fn open_bound(heap: &BinaryHeap<Node>, stuck: Option<u64>, otherwise: u64) -> u64 {
    heap.iter()
        .map(|n| n.bound)
        .chain(stuck)
        .min()
        .unwrap_or(otherwise)
}

/// The corner to branch on at an LP solution (`support`: each column's summed value): the
/// single job and count `(j, k)` whose machine count `Σ_{a_j ≥ k} λ_a` is the most fractional
/// (among the jobs `branched` already, when one is fractional enough);
/// when every such count is integral, the column of a maximal fractional one (no other
/// fractional column holds at least as much of every job): its count `λ_q + Σ_{a > q} λ_a`
/// adds integers to a fraction, so it is fractional (Vanderbeck 2011, Prop. 3). `None` when
/// every column's value is integral.
fn branching_corner(support: &BTreeMap<&Counts, f64>, branched: &HashSet<usize>) -> Option<Corner> {
    let frac = |v: f64| {
        let f = v - v.floor();
        f.min(1.0 - f)
    };
    let mut per_count: BTreeMap<(usize, u32), f64> = BTreeMap::new();
    for (c, &v) in support {
        for &(j, n) in c.iter() {
            for k in 1..=n {
                *per_count.entry((j, k)).or_default() += v;
            }
        }
    }
    // Jobs branched on already first (a new threshold on such a job adds one interval to the
    // pricing's cells, a new job doubles them), then the most fractional.
    let single = per_count
        .iter()
        .map(|(&jk, &s)| (jk, frac(s)))
        .filter(|&(_, f)| f > 1e-6)
        .max_by(|a, b| {
            let known = |x: &((usize, u32), f64)| branched.contains(&x.0 .0) && x.1 > 0.05;
            known(a)
                .cmp(&known(b))
                .then(a.1.total_cmp(&b.1))
                .then(b.0.cmp(&a.0))
        });
    if let Some(((j, k), _)) = single {
        return Some(vec![(j, k)]);
    }
    let fractional: Vec<&Counts> = support
        .iter()
        .filter(|(_, &v)| frac(v) > 1e-6)
        .map(|(c, _)| *c)
        .collect();
    fractional
        .iter()
        .find(|q| !fractional.iter().any(|p| p != *q && holds(q, p)))
        .map(|q| (*q).clone())
}

/// The LP rounded down (each column `⌊λ⌋` machines, surplus tasks removed), the tasks left
/// packed by the root's machinery (`pack`: the repacking's [`complete`]) or by BFD.
fn rounded_packing(
    inst: &Instance,
    support: &BTreeMap<&Counts, f64>,
    pack: Option<(&Settings, &RepackSettings)>,
    deadline: &Deadline,
) -> Result<Vec<Machine>> {
    let mut machines = Vec::new();
    for (c, &v) in support {
        for _ in 0..(v + 1e-6).floor() as u64 {
            let mut m = Machine::default();
            for &(j, n) in c.iter() {
                for _ in 0..n {
                    m.push(inst, j);
                }
            }
            machines.push(m);
        }
    }
    remove_over_coverage(inst, &mut machines);
    debug!(
        "rounding: {} machines rounded down, {} tasks left",
        machines.len(),
        uncovered(inst, &machines)
            .jobs
            .iter()
            .map(|j| j.tasks)
            .sum::<u32>()
    );
    match pack {
        Some((settings, rs)) => complete(inst, &mut machines, settings, rs, deadline)?,
        None => {
            let rest = uncovered(inst, &machines);
            machines.extend(best_fit_decreasing_within(&rest, &deadline.at_least(0.5)));
        }
    }
    Ok(machines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::selfcheck::{brute_force, random_instance};
    use crate::periodic::{solve, verify, BranchSettings, Method};
    use crate::Status;

    /// The tree alone (no integer finish at the root, no repacking, no node heuristic) on tiny
    /// instances whose jobs repeat (2–4 tasks each) from `seeds`: `optimal` at the brute-force
    /// optimum, and every packing verifies. Returns how many branched (more than one node,
    /// depth at least 1) and how many went two levels deep.
    fn tree_against_brute_force(seeds: std::ops::Range<u64>) -> (usize, usize) {
        let (mut branched, mut deep) = (0, 0);
        for seed in seeds {
            let inst = random_instance(21_000 + seed, 3..=5, 2..=4);
            let opt = brute_force(&inst);
            let settings = Settings {
                bp: BranchSettings::branching_only(),
                ..Settings::default()
            };
            let sol = solve(&inst, Method::Bp, &settings).unwrap();
            assert!(verify(&inst, &sol).is_empty(), "seed {seed}");
            assert_eq!(sol.machines(), Some(opt), "seed {seed}");
            assert_eq!(sol.status, Status::Optimal, "seed {seed}");
            assert_eq!(sol.lower_bound(), opt, "seed {seed}");
            let nodes = sol.stats.get("nodes").copied().unwrap_or(0.0);
            branched += usize::from(nodes > 1.0);
            deep += usize::from(sol.stats.get("tree_depth").copied().unwrap_or(0.0) >= 2.0);
        }
        (branched, deep)
    }

    /// The first 100 seeds of the sweep (`make test`); many must branch, some more than once.
    #[test]
    fn the_job_tree_alone_equals_brute_force_and_branches() {
        let (branched, deep) = tree_against_brute_force(0..100);
        eprintln!("tree sweep 0..100: branched {branched}, deep {deep}");
        assert!(
            branched >= 5,
            "the tree branched on {branched} instances only"
        );
        assert!(deep >= 2, "the tree went two levels deep on {deep} only");
    }

    /// The whole 400-seed sweep: `make soak` (`cargo test --release --lib -- --ignored`).
    #[test]
    #[ignore = "the full sweep, run by make soak"]
    fn the_job_tree_alone_equals_brute_force_full_sweep() {
        let (branched, deep) = tree_against_brute_force(0..400);
        eprintln!("tree sweep 0..400: branched {branched}, deep {deep}");
        assert!(
            branched >= 20,
            "the tree branched on {branched} instances only"
        );
        assert!(deep >= 8, "the tree went two levels deep on {deep} only");
    }
}
