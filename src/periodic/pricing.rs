//! The pricing oracle of the periodic master: builds the knapsack of eqs. 9–10 from the duals,
//! tries a greedy first, and proves with the branch-and-bound of [`super::knapsack`] only when
//! the greedy finds no improving column (or always, with `exact_every_iteration`).

use super::instance::Instance;
use super::knapsack::{branch_and_bound, Bound, Item, Knapsack, NodeSolver, Search};
use crate::colgen::{Column, Priced, Pricing};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Pricing settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingSettings {
    /// Run the exact branch-and-bound at every iteration (gives a Lagrangian bound each time)
    /// instead of only when the greedy finds nothing.
    pub exact_every_iteration: bool,
    /// Node cap of one branch-and-bound (then the answer is not proven).
    pub node_limit: u64,
    /// Node cap once the integer bound is settled (see [`Pricing::settle`]): the remaining
    /// columns only polish the integer finish, and one search can otherwise run for the
    /// whole time limit (measured: 43 s for one call on a medium-task instance).
    pub settled_node_limit: u64,
    /// Duals at or below this are treated as zero (the job is left out of the knapsack).
    pub min_profit: f64,
    /// A column must be worth more than `1 + improvement_tol` to be returned. Must be at least
    /// the loop's `reduced_cost_tol` (the solver raises it to that): a column the pricing calls
    /// improving but the loop does not ends the loop with neither a column nor a proof.
    pub improvement_tol: f64,
    /// Greedy columns seeded with each of this many most profitable jobs, per call.
    pub greedy_seeds: usize,
    /// Partial pricing: stop the branch-and-bound once this many improving columns are known
    /// (0: always search to the end). A call that finds none still runs to the end, which is
    /// the proof the loop needs to stop.
    pub partial: usize,
    /// A partial search stops once it has held an improving column for this many nodes
    /// (measured: one search on a medium-task instance found 2 columns, then ran 2.6 million
    /// nodes for a third).
    pub partial_patience: u64,
    /// Node relaxation of the branch-and-bound.
    pub node_solver: NodeSolver,
    /// Bound of the knapsack along a direction in the directional relaxation.
    pub node_bound: Bound,
    /// Greedy columns polished by swap local search when none improves (0: off).
    pub local_search_starts: usize,
    /// Known columns (the seeds and every column returned so far) worth the most at the
    /// current duals that are polished by the same local search before an exact search (0:
    /// off). The master's basic columns are worth exactly 1, so one swap away from them is
    /// where improving columns usually are.
    pub pool_starts: usize,
    /// When none of those improves, further pool columns (up to this many in all, best first)
    /// are polished one by one until one does.
    pub pool_reach: usize,
    /// Every call first runs a short branch-and-bound of this many nodes (0: off), its root
    /// a disc search from the previous call's root direction (no interior-point solve): its
    /// improving incumbents are near-best columns, its root bound is a valid bound on the
    /// pricing optimum (a Lagrangian bound for the master at every iteration), and when it
    /// completes within the cap it is the proof itself.
    pub probe_nodes: u64,
    /// Feasibility-based bound tightening at every branch-and-bound node (see
    /// [`super::knapsack::Knapsack::tighten`]).
    pub tighten: bool,
    /// Prune branch-and-bound nodes by the integer knapsack along their relaxation's direction
    /// (see [`super::knapsack_rows`]), in the exact searches (not the probe).
    pub integer_rows: bool,
    /// Solve each branch-and-bound node's cancelling LP (see [`super::knapsack_lp`]): its
    /// direction where the relaxation cancels the phases, a search along the rim where it
    /// does not (`false`: the pattern search in the disc everywhere).
    pub cancel_lp: bool,
    /// Branch-and-bound node order: dive on up-branches, then resume at the open node of
    /// highest bound (`false`: depth first throughout). Improving columns turn up sooner, so
    /// partial searches stop earlier and their columns are better.
    pub best_first: bool,
    /// Threads of the exact searches (`--threads`): above 1, each expands `batch` nodes at a
    /// time in parallel. The searches, and so the columns, depend on `batch`, not on the
    /// threads: the same answer on every run and with any number above 1.
    pub threads: usize,
    /// Nodes a parallel exact search expands at a time (see `threads`).
    pub batch: usize,
    /// While an aim is set (see [`Pricing::aim`]), only columns worth more than it stop a
    /// partial exact search: those in between are returned, but the search goes on to the
    /// proof that settles the caller's bound. Off for the root's loop, on in the tree
    /// (`bp.tree.prove_aim`); models/periodic.md has the measurements.
    pub prove_aim: bool,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            exact_every_iteration: false,
            node_limit: 5_000_000,
            settled_node_limit: 20_000,
            min_profit: 1e-12,
            improvement_tol: 1e-7,
            greedy_seeds: 20,
            partial: 3,
            partial_patience: 100_000,
            node_solver: NodeSolver::Directional,
            node_bound: Bound::default(),
            local_search_starts: 3,
            pool_starts: 5,
            pool_reach: 20,
            probe_nodes: 200,
            tighten: true,
            integer_rows: true,
            cancel_lp: true,
            best_first: true,
            threads: 1,
            batch: 32,
            prove_aim: false,
        }
    }
}

impl PricingSettings {
    /// These settings for a loop whose reduced-cost tolerance is `loop_tol`: the pricing's
    /// notion of an improving column must not be finer than the loop's (a column worth
    /// 1 + 1e-8 once stopped a loop with its master 0.14% above the bound, models/periodic.md).
    pub fn for_loop(&self, loop_tol: f64) -> PricingSettings {
        PricingSettings {
            improvement_tol: self.improvement_tol.max(loop_tol),
            ..self.clone()
        }
    }

    /// The search options every call shares: prune at `aim` (or `threshold` when higher),
    /// keep every column worth more than `threshold`, these settings' node bound, tightening
    /// and node order; complete and uncapped unless the caller says otherwise.
    pub(super) fn search(&self, threshold: f64, aim: f64) -> Search {
        Search {
            threshold: threshold.max(aim),
            keep_above: threshold,
            bound: self.node_bound,
            tighten: self.tighten,
            integer_rows: self.integer_rows,
            cancel_lp: self.cancel_lp,
            best_first: self.best_first,
            ..Search::default()
        }
    }

    /// The exact search: [`Self::search`] with partial pricing (unless every iteration is
    /// exact), the node cap (`settled_node_limit` once the integer bound is `settled`) and
    /// the node relaxation.
    pub(super) fn exact_search(&self, threshold: f64, aim: f64, settled: bool) -> Search {
        let stop = (self.partial > 0 && !self.exact_every_iteration).then_some(self.partial);
        Search {
            stop_after: stop,
            patience: stop.map(|_| self.partial_patience),
            node_limit: if settled {
                self.settled_node_limit.min(self.node_limit)
            } else {
                self.node_limit
            },
            solver: self.node_solver,
            batch: if self.threads > 1 { self.batch } else { 0 },
            stop_on_kept: !self.prove_aim,
            ..self.search(threshold, aim)
        }
    }
}

/// The periodic pricing oracle.
pub struct PeriodicPricing<'a> {
    inst: &'a Instance,
    settings: PricingSettings,
    /// Exact branch-and-bound calls so far.
    pub exact_calls: u64,
    /// Calls settled by polishing pool columns.
    pub pool_hits: u64,
    /// The integer bound is settled: searches use `settled_node_limit`.
    settled: bool,
    /// Known columns as `(job, count)` lists, without repeats.
    pool: Vec<Vec<(usize, u32)>>,
    in_pool: std::collections::HashSet<Vec<(usize, u32)>>,
    /// The last probe's root direction (the next probe's starting point).
    last_dir: Option<[f64; 2]>,
    /// A proof that no column is worth more than this settles the loop (see [`Pricing::aim`]).
    aim: f64,
    /// While diving: heuristics and the probe only, tasks per job capped by these residual
    /// demands (see [`Pricing::dive`]).
    residual: Option<Vec<u32>>,
    /// The exact searches' threads (with `settings.threads` above 1).
    workers: Option<rayon::ThreadPool>,
}

impl<'a> PeriodicPricing<'a> {
    /// An oracle for `inst`.
    pub fn new(inst: &'a Instance, settings: PricingSettings) -> Self {
        let workers = (settings.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(settings.threads)
                    .build()
                    .map_err(|e| log::warn!("pricing on one thread: no thread pool ({e})"))
                    .ok()
            })
            .flatten();
        PeriodicPricing {
            inst,
            settings,
            workers,
            exact_calls: 0,
            pool_hits: 0,
            settled: false,
            pool: Vec::new(),
            in_pool: Default::default(),
            last_dir: None,
            residual: None,
            aim: 1.0,
        }
    }

    /// Adds known columns (e.g. the master's initial ones) to the pool.
    pub fn remember<'c>(&mut self, columns: impl IntoIterator<Item = &'c Column>) {
        for c in columns {
            let key: Vec<(usize, u32)> = c
                .iter()
                .filter(|&&(_, n)| n > 0.0)
                .map(|&(j, n)| (j, n.round() as u32))
                .collect();
            if !key.is_empty() && self.in_pool.insert(key.clone()) {
                self.pool.push(key);
            }
        }
    }

    /// The `count` pool columns worth the most at `duals`, as count vectors of `k`'s items
    /// (jobs left out of `k` have non-positive duals: dropping their tasks loses nothing).
    fn best_of_pool(&self, k: &Knapsack, duals: &[f64], count: usize) -> Vec<Vec<u32>> {
        let mut scored: Vec<(f64, usize)> = self
            .pool
            .iter()
            .enumerate()
            .map(|(i, c)| (c.iter().map(|&(j, n)| duals[j] * f64::from(n)).sum(), i))
            .collect();
        let count = count.min(scored.len());
        if count == 0 {
            return Vec::new();
        }
        // Best first, ties by pool order.
        let order = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        scored.select_nth_unstable_by(count - 1, order);
        scored[..count].sort_unstable_by(order);
        let slot: std::collections::HashMap<usize, usize> = k
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.job, i))
            .collect();
        scored[..count]
            .iter()
            .map(|&(_, i)| {
                let mut u = vec![0; k.items.len()];
                for &(j, n) in &self.pool[i] {
                    if let Some(&s) = slot.get(&j) {
                        u[s] = n.min(k.items[s].ub);
                    }
                }
                u
            })
            .collect()
    }

    /// [`PricingSettings::search`] at this oracle's aim.
    fn search(&self, threshold: f64) -> Search {
        self.settings.search(threshold, self.aim)
    }

    /// The knapsack for duals `π` (jobs with `π_j` above `min_profit` only).
    pub fn knapsack(&self, duals: &[f64]) -> Knapsack {
        let c = self.inst.capacity;
        let items = self
            .inst
            .jobs
            .iter()
            .enumerate()
            .filter(|(j, _)| duals[*j] > self.settings.min_profit)
            .map(|(j, job)| {
                let cap = self.residual.as_ref().map_or(job.tasks, |r| r[j]);
                Item {
                    job: j,
                    profit: duals[j],
                    mean: job.mean,
                    x: job.x(),
                    y: job.y(),
                    ub: job.tasks.min(cap).min((c / job.mean + 1e-9).floor() as u32),
                }
            })
            .filter(|it| it.ub > 0)
            .collect();
        Knapsack::new(c, items)
    }
}

/// Swap-polishes the first `always` of `starts`, then the others in order (best first) until
/// one of them is worth more than `threshold`. Each polish costs about as much as a hundred
/// branch-and-bound nodes, so reaching further than the first few pays only when they fail.
fn polish(k: &Knapsack, starts: &mut [Vec<u32>], threshold: f64, always: usize) {
    let mut found = false;
    for (i, u) in starts.iter_mut().enumerate() {
        if found && i >= always {
            return;
        }
        k.improve(u, 3);
        found |= k.value(u) > threshold;
    }
}

/// The smaller of two optional bounds.
fn min_of(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The count vector of `family` worth the most (the last of equals).
fn best<'f>(k: &Knapsack, family: &'f [Vec<u32>]) -> Option<&'f Vec<u32>> {
    family
        .iter()
        .max_by(|a, b| k.value(a).total_cmp(&k.value(b)))
}

/// The columns of `family` worth more than `threshold`, best first, without repeats.
fn improving_columns(k: &Knapsack, family: &[Vec<u32>], threshold: f64) -> Vec<(Column, f64)> {
    improving_as(k, family, threshold, |u| column(k, u))
}

/// The count vectors of `family` worth more than `threshold`, as columns by `column`, best
/// first, without repeats.
pub(super) fn improving_as(
    k: &Knapsack,
    family: &[Vec<u32>],
    threshold: f64,
    column: impl Fn(&[u32]) -> Column,
) -> Vec<(Column, f64)> {
    let mut good: Vec<(Column, f64)> = family
        .iter()
        .map(|u| (u, k.value(u)))
        .filter(|(_, v)| *v > threshold)
        .map(|(u, v)| (column(u), v))
        .collect();
    good.sort_by(|a, b| b.1.total_cmp(&a.1));
    good.dedup_by(|a, b| a.0 == b.0);
    good
}

/// See [`PeriodicPricing::dominance`]: pairs `(light, heavy)`, at most one per light job.
/// The margin `1e-12 · C` keeps a pair whose profiles touch out of rounding's reach.
pub(super) fn dominance_pairs(inst: &Instance) -> Vec<(usize, usize)> {
    let jobs = &inst.jobs;
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| jobs[a].mean.total_cmp(&jobs[b].mean).then(a.cmp(&b)));
    let margin = 1e-12 * inst.capacity;
    let mut pairs = Vec::new();
    for (k, &light) in order.iter().enumerate() {
        let l = &jobs[light];
        let heavy = order[k + 1..].iter().copied().find(|&h| {
            let h = &jobs[h];
            h.mean - l.mean - (h.x() - l.x()).hypot(h.y() - l.y()) >= margin
        });
        if let Some(h) = heavy {
            pairs.push((light, h));
        }
    }
    pairs
}

fn column(k: &Knapsack, u: &[u32]) -> Column {
    k.items
        .iter()
        .zip(u)
        .filter(|(_, &n)| n > 0)
        .map(|(it, &n)| (it.job, f64::from(n)))
        .collect()
}

impl Pricing for PeriodicPricing<'_> {
    fn settle(&mut self) {
        self.settled = true;
    }

    fn aim(&mut self, enough: f64) {
        self.aim = enough;
    }

    /// Each job against the job of least mean whose load is at least its own at every
    /// instant: `C_h − C_l ≥ ‖P_h − P_l‖` for the phasors `P = ρ e^{iφ}` (the difference of
    /// two profiles is a sinusoid of that mean and amplitude). A task of `h` on a machine
    /// may then be replaced by one of `l`: its load falls at every instant, so it still
    /// fits. Ties in mean are ordered by job index, so no two jobs dominate each other.
    fn dominance(&self) -> Vec<(usize, usize)> {
        dominance_pairs(self.inst)
    }

    fn dive(&mut self, residual: &[f64]) {
        self.residual = Some(
            residual
                .iter()
                .map(|&r| (r - 1e-9).ceil().max(0.0) as u32)
                .collect(),
        );
    }

    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        let k = self.knapsack(duals);
        let threshold = 1.0 + self.settings.improvement_tol;
        let t0 = std::time::Instant::now();
        let mut family = k.greedy_family(self.settings.greedy_seeds);
        let improving = |f: &[Vec<u32>]| f.iter().any(|u| k.value(u) > threshold);
        // The probe: a short search from the best greedy column.
        let mut probe_bound = None;
        let mut probe_nodes = 0;
        if self.settings.probe_nodes > 0 && !k.items.is_empty() {
            let start = best(&k, &family)
                .cloned()
                .unwrap_or_else(|| vec![0; k.items.len()]);
            let search = Search {
                node_limit: self.settings.probe_nodes,
                solver: NodeSolver::Directional,
                root_hint: Some(self.last_dir.unwrap_or([0.0, 0.0])),
                // Not in the probe: its 200 nodes then reach elsewhere and find other columns,
                // and medium-task runs took up to twice the nodes (Medium/Small seeds 2, 3, 5:
                // 77k / 236k / 57k → 172k / 269k / 112k pricing nodes).
                integer_rows: false,
                ..self.search(threshold)
            };
            let solved = branch_and_bound(&k, start, &search, deadline)?;
            probe_nodes = solved.nodes;
            if let Some((_, Some(dir))) = solved.root {
                self.last_dir = Some(dir);
            }
            probe_bound = solved
                .proven_max
                .or(min_of(solved.open_bound, solved.root.map(|r| r.0)));
            let proven = solved.proven_max.is_some();
            family.extend(solved.improving.into_iter().map(|(u, _)| u));
            if proven && !improving(&family) {
                // Nothing improves, and the probe proved it.
                let top = best(&k, &family).cloned().unwrap_or_default();
                return Ok(Priced {
                    columns: vec![(column(&k, &top), k.value(&top))],
                    proven_max: solved.proven_max,
                    upper_bound: None,
                    nodes: probe_nodes,
                });
            }
        }
        let reach = self.settings.pool_reach.max(self.settings.pool_starts);
        if self.residual.is_some() {
            // Diving: the heuristic columns, whatever they are.
            return Ok(Priced {
                columns: improving_columns(&k, &family, threshold),
                proven_max: None,
                upper_bound: probe_bound,
                nodes: probe_nodes,
            });
        }
        if !improving(&family) {
            // Polish the best few greedy columns by swaps before paying for an exact search.
            family.sort_by(|a, b| k.value(b).total_cmp(&k.value(a)));
            family.truncate(self.settings.local_search_starts);
            let all = family.len();
            polish(&k, &mut family, threshold, all);
        }
        if !improving(&family) && reach > 0 {
            let mut near = self.best_of_pool(&k, duals, reach);
            polish(&k, &mut near, threshold, self.settings.pool_starts);
            if improving(&near) {
                self.pool_hits += 1;
            }
            family.extend(near);
        }
        let good = improving_columns(&k, &family, threshold);
        let greedy = best(&k, &family).cloned().unwrap_or_default();
        if !good.is_empty() && !self.settings.exact_every_iteration {
            self.remember(good.iter().map(|(c, _)| c));
            return Ok(Priced {
                columns: good,
                proven_max: None,
                upper_bound: probe_bound,
                nodes: probe_nodes,
            });
        }
        let t1 = std::time::Instant::now();
        self.exact_calls += 1;
        let search = self
            .settings
            .exact_search(threshold, self.aim, self.settled);
        let solved = match &self.workers {
            Some(w) => w.install(|| branch_and_bound(&k, greedy, &search, deadline)),
            None => branch_and_bound(&k, greedy, &search, deadline),
        }?;
        let mut columns: Vec<(Column, f64)> = solved
            .improving
            .iter()
            .map(|(u, v)| (column(&k, u), *v))
            .collect();
        if columns.is_empty() {
            columns.push((column(&k, &solved.best), solved.value));
        }
        self.remember(columns.iter().map(|(c, _)| c));
        log::debug!(
            "pricing: heuristics {:.4}s, exact {:.4}s ({} nodes)",
            (t1 - t0).as_secs_f64(),
            t1.elapsed().as_secs_f64(),
            solved.nodes
        );
        Ok(Priced {
            columns,
            proven_max: solved.proven_max,
            // A partial search still bounds the optimum by its open nodes.
            upper_bound: min_of(probe_bound, solved.open_bound),
            nodes: solved.nodes + probe_nodes,
        })
    }
}
