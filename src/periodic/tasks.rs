//! The periodic pricing over unit tasks, for the unit-task tree of `--method bp`: the master
//! there has one row per task (job by job: the `N_0` tasks of job 0 first), so that
//! Ryan–Foster decisions ("tasks `s, t` together / apart") can be branched on, and this oracle
//! honours them exactly while the knapsack stays the periodic one (models/periodic.md,
//! "Branch-and-price").
//!
//! The knapsack's items are *classes*: a together group (or a task with an apart conflict) is
//! one 0-1 item whose mean and phasor are its tasks' sums; the other tasks of a job with the
//! same dual are one item whose count is how many of them a machine takes (they are
//! interchangeable in every column of the node). Apart decisions become conflicts between
//! items, which [`branch_and_bound`] honours; the greedy and the swap search stay within them.

use super::instance::Instance;
use super::knapsack::{branch_and_bound, Item, Knapsack, FIT_TOLERANCE};
use super::peak::norm;
use super::pricing::{improving_as, PricingSettings};
use crate::colgen::{BranchPricing, Column, Decisions, Priced, Pricing};
use crate::error::Result;
use crate::solver::Deadline;
use std::collections::HashMap;

/// The job of every task row (rows job by job, `N_j` each).
pub fn task_jobs(inst: &Instance) -> Vec<usize> {
    inst.jobs
        .iter()
        .enumerate()
        .flat_map(|(j, job)| std::iter::repeat_n(j, job.tasks as usize))
        .collect()
}

/// The tasks behind one knapsack item.
#[derive(Debug, Clone)]
struct Class {
    /// Task rows, ascending.
    tasks: Vec<usize>,
    /// A group: one unit takes every task. Otherwise `n` units take the first `n` tasks.
    whole: bool,
}

/// The pricing oracle of the unit-task master.
pub struct TaskPricing<'a> {
    inst: &'a Instance,
    job_of: Vec<usize>,
    settings: PricingSettings,
    decisions: Decisions,
    /// While diving: the rows' demands left (see [`Pricing::dive`]).
    residual: Option<Vec<f64>>,
    settled: bool,
    aim: f64,
    /// Exact branch-and-bound calls so far.
    pub exact_calls: u64,
}

impl<'a> TaskPricing<'a> {
    /// An oracle for the tasks of `inst`, without decisions.
    pub fn new(inst: &'a Instance, settings: PricingSettings) -> Self {
        let job_of = task_jobs(inst);
        TaskPricing {
            inst,
            decisions: Decisions::new(job_of.len(), &[], &[]),
            job_of,
            settings,
            residual: None,
            settled: false,
            aim: 1.0,
            exact_calls: 0,
        }
    }

    /// The knapsack at `duals` under the current decisions, and the tasks of each item.
    fn knapsack(&self, duals: &[f64]) -> (Knapsack, Vec<Class>) {
        let d = &self.decisions;
        let cap = self.inst.capacity;
        let (mut items, mut classes) = (Vec::<Item>::new(), Vec::<Class>::new());
        let mut item_of_group = vec![usize::MAX; d.groups.len()];
        // Free tasks by (job, dual): interchangeable.
        let mut free: HashMap<(usize, u64), usize> = HashMap::new();
        for (g, members) in d.groups.iter().enumerate() {
            if d.forbidden[g] {
                continue;
            }
            if let Some(r) = &self.residual {
                if members.iter().all(|&t| r[t] <= 1e-9) {
                    continue;
                }
            }
            let profit: f64 = members.iter().map(|&t| duals[t]).sum();
            if profit <= self.settings.min_profit {
                continue;
            }
            if members.len() == 1 && d.conflicts[g].is_empty() {
                let t = members[0];
                let j = self.job_of[t];
                if let Some(&i) = free.get(&(j, duals[t].to_bits())) {
                    classes[i].tasks.push(t);
                    items[i].ub += 1;
                    continue;
                }
                free.insert((j, duals[t].to_bits()), items.len());
                let job = &self.inst.jobs[j];
                items.push(Item {
                    job: items.len(),
                    profit,
                    mean: job.mean,
                    x: job.x(),
                    y: job.y(),
                    ub: 1,
                });
                classes.push(Class {
                    tasks: vec![t],
                    whole: false,
                });
            } else {
                let (mut mean, mut x, mut y) = (0.0, 0.0, 0.0);
                for &t in members {
                    let job = &self.inst.jobs[self.job_of[t]];
                    mean += job.mean;
                    x += job.x();
                    y += job.y();
                }
                if mean + norm(x, y) > cap + FIT_TOLERANCE {
                    continue;
                }
                item_of_group[g] = items.len();
                items.push(Item {
                    job: items.len(),
                    profit,
                    mean,
                    x,
                    y,
                    ub: 1,
                });
                classes.push(Class {
                    tasks: members.clone(),
                    whole: true,
                });
            }
        }
        for it in items.iter_mut() {
            it.ub = it.ub.min((cap / it.mean + 1e-9).floor() as u32);
        }
        let mut conflicts = vec![Vec::new(); items.len()];
        for (g, others) in d.conflicts.iter().enumerate() {
            let a = item_of_group[g];
            if a == usize::MAX {
                continue;
            }
            for &h in others {
                let b = item_of_group[h];
                if b != usize::MAX && !conflicts[a].contains(&b) {
                    conflicts[a].push(b);
                }
            }
        }
        let k = Knapsack {
            capacity: cap,
            items,
            conflicts,
        };
        (k, classes)
    }
}

/// The task rows of count vector `u`.
fn column(classes: &[Class], u: &[u32]) -> Column {
    let mut rows: Vec<usize> = classes
        .iter()
        .zip(u)
        .filter(|(_, &n)| n > 0)
        .flat_map(|(c, &n)| {
            let take = if c.whole { c.tasks.len() } else { n as usize };
            c.tasks[..take].iter().copied()
        })
        .collect();
    rows.sort_unstable();
    rows.into_iter().map(|r| (r, 1.0)).collect()
}

impl Pricing for TaskPricing<'_> {
    fn settle(&mut self) {
        self.settled = true;
    }

    fn aim(&mut self, enough: f64) {
        self.aim = enough;
    }

    fn dive(&mut self, residual: &[f64]) {
        self.residual = Some(residual.to_vec());
    }

    fn end_dive(&mut self) {
        self.residual = None;
    }

    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        let (k, classes) = self.knapsack(duals);
        let threshold = 1.0 + self.settings.improvement_tol;
        let mut family = k.greedy_family(self.settings.greedy_seeds);
        family.sort_by(|a, b| k.value(b).total_cmp(&k.value(a)));
        for u in family.iter_mut().take(self.settings.local_search_starts) {
            k.improve(u, 3);
        }
        let good = improving_as(&k, &family, threshold, |u| column(&classes, u));
        if self.residual.is_some() || (!good.is_empty() && !self.settings.exact_every_iteration) {
            return Ok(Priced {
                columns: good,
                proven_max: None,
                upper_bound: None,
                nodes: 0,
            });
        }
        self.exact_calls += 1;
        let start = family
            .iter()
            .max_by(|a, b| k.value(a).total_cmp(&k.value(b)))
            .cloned()
            .unwrap_or_else(|| vec![0; k.items.len()]);
        let search = self
            .settings
            .exact_search(threshold, self.aim, self.settled);
        let solved = branch_and_bound(&k, start, &search, deadline)?;
        let mut columns: Vec<(Column, f64)> = solved
            .improving
            .iter()
            .map(|(u, v)| (column(&classes, u), *v))
            .collect();
        if columns.is_empty() {
            columns.push((column(&classes, &solved.best), solved.value));
        }
        Ok(Priced {
            columns,
            proven_max: solved.proven_max,
            upper_bound: solved.root.map(|r| r.0),
            nodes: solved.nodes,
        })
    }
}

impl BranchPricing for TaskPricing<'_> {
    fn restrict(&mut self, together: &[(usize, usize)], apart: &[(usize, usize)]) {
        self.decisions = Decisions::new(self.job_of.len(), together, apart);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::{peak, selfcheck::random_instance};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The best column over every subset of tasks that fits and honours the decisions.
    fn brute(
        inst: &Instance,
        duals: &[f64],
        together: &[(usize, usize)],
        apart: &[(usize, usize)],
    ) -> f64 {
        let jobs = task_jobs(inst);
        let n = jobs.len();
        let mut best = 0.0_f64;
        for mask in 0u32..(1 << n) {
            let has = |t: usize| mask >> t & 1 == 1;
            if together.iter().any(|&(s, t)| has(s) != has(t))
                || apart.iter().any(|&(s, t)| has(s) && has(t))
            {
                continue;
            }
            let mut counts: Vec<(usize, u32)> = Vec::new();
            for t in (0..n).filter(|&t| has(t)) {
                match counts.iter_mut().find(|e| e.0 == jobs[t]) {
                    Some(e) => e.1 += 1,
                    None => counts.push((jobs[t], 1)),
                }
            }
            if peak::fits(inst, &peak::load_of(inst, &counts)) {
                best = best.max((0..n).filter(|&t| has(t)).map(|t| duals[t]).sum());
            }
        }
        best
    }

    /// Under random together/apart decisions and duals (some equal among a job's tasks), the
    /// exact search's proven maximum is the enumerated optimum, and every column it returns
    /// fits, honours the decisions and is worth what it says.
    #[test]
    fn exact_pricing_under_decisions_equals_enumeration() {
        let mut tight = 0;
        for seed in 0..300u64 {
            let inst = random_instance(seed, 2..=4, 1..=3);
            let jobs = task_jobs(&inst);
            let n = jobs.len();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let duals: Vec<f64> = (0..n)
                .map(|t| {
                    if rng.random_bool(0.5) {
                        0.1 * (jobs[t] + 1) as f64
                    } else {
                        rng.random_range(0.0..0.6)
                    }
                })
                .collect();
            let (mut together, mut apart) = (Vec::new(), Vec::new());
            for _ in 0..rng.random_range(0..3) {
                let (s, t) = (rng.random_range(0..n), rng.random_range(0..n));
                if s != t {
                    if rng.random_bool(0.5) {
                        together.push((s, t));
                    } else {
                        apart.push((s, t));
                    }
                }
            }
            let settings = PricingSettings {
                exact_every_iteration: true,
                ..PricingSettings::default()
            };
            let mut p = TaskPricing::new(&inst, settings);
            p.restrict(&together, &apart);
            p.aim(0.0);
            let truth = brute(&inst, &duals, &together, &apart);
            let priced = p.price(&duals, &Deadline::none()).unwrap();
            let proven = priced.proven_max.expect("complete search");
            assert!(
                proven >= truth - 1e-9 && proven <= truth.max(1.0 + 1e-7) + 1e-6,
                "seed {seed}: proven {proven}, enumeration {truth}"
            );
            let best = priced.columns.iter().map(|c| c.1).fold(0.0, f64::max);
            if truth > 1.0 + 1e-6 {
                tight += 1;
                assert!(
                    best >= truth - 1e-9,
                    "seed {seed}: best column {best} < {truth}"
                );
            }
            for (col, v) in &priced.columns {
                let rows: Vec<usize> = col.iter().map(|e| e.0).collect();
                let has = |t: usize| rows.contains(&t);
                assert!(
                    together.iter().all(|&(s, t)| has(s) == has(t)),
                    "seed {seed}"
                );
                assert!(
                    apart.iter().all(|&(s, t)| !(has(s) && has(t))),
                    "seed {seed}"
                );
                let mut counts: Vec<(usize, u32)> = Vec::new();
                for &t in &rows {
                    match counts.iter_mut().find(|e| e.0 == jobs[t]) {
                        Some(e) => e.1 += 1,
                        None => counts.push((jobs[t], 1)),
                    }
                }
                assert!(
                    peak::fits(&inst, &peak::load_of(&inst, &counts)),
                    "seed {seed}"
                );
                let worth: f64 = rows.iter().map(|&t| duals[t]).sum();
                assert!((worth - v).abs() < 1e-9, "seed {seed}: {worth} vs {v}");
            }
        }
        assert!(tight > 30, "only {tight} cases had an improving column");
    }
}
