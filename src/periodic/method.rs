//! The periodic-packing methods and their one entry point [`solve`].

use super::branch::BranchSettings;
use super::heuristics::{best_fit_decreasing_within, min_max_module_within, min_max_search_within};
use super::instance::Instance;
use super::packing::{group, machine_count, Configuration, Machine};
use super::peak::total_demand_bound;
use super::pricing::{PeriodicPricing, PricingSettings};
use super::solution::Solution;
use crate::colgen::{self, CgSettings, Column, CoveringMaster, DiveSettings};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::problem::{Certificate, Invalid, Sense, Validate};
use crate::solver::{Deadline, HighsSettings};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// A periodic-packing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Branch-and-price: the job-level root, then Ryan–Foster branching over unit tasks.
    Bp,
    /// Column generation (Dantzig–Wolfe) with the integer finish.
    Cg,
    /// Best-Fit Decreasing.
    Bfd,
    /// Min-Max with dichotomic search on the machine count.
    Mm,
    /// Min-Max on peak demands (ignores phases).
    Mmm,
    /// The peak-of-total-demand bound `⌈W/C⌉` alone.
    LowerBound,
}

impl Method {
    /// Every method.
    pub fn all() -> [Method; 6] {
        [
            Method::Bp,
            Method::Cg,
            Method::Bfd,
            Method::Mm,
            Method::Mmm,
            Method::LowerBound,
        ]
    }
    /// One line: what the method does.
    pub fn description(&self) -> &'static str {
        match self {
            Method::Bp => {
                "branch-and-price: column generation, then Ryan–Foster branching over unit tasks"
            }
            Method::Cg => {
                "column generation (HiGHS master, SOCP knapsack pricing) with the integer finish"
            }
            Method::Bfd => "Best-Fit Decreasing on peak demands of the sinusoids",
            Method::Mm => "Min-Max with a dichotomic search on the machine count",
            Method::Mmm => "Min-Max on peak demands (ignores phases)",
            Method::LowerBound => "the peak-of-total-demand bound ⌈W/C⌉ alone",
        }
    }

    /// Name on the command line and in files.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Bp => "bp",
            Method::Cg => "cg",
            Method::Bfd => "bfd",
            Method::Mm => "mm",
            Method::Mmm => "mmm",
            Method::LowerBound => "lower-bound",
        }
    }
}

crate::method_table!(Method, all);

/// Settings of the periodic methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Cap on the integer finish (the dive, then the integer master), seconds (the paper used
    /// 300 for its integer step).
    pub integer_time_limit: f64,
    /// Column-generation loop settings.
    pub cg: CgSettings,
    /// Pricing settings.
    pub pricing: PricingSettings,
    /// HiGHS options for the integer finish.
    pub highs: HighsSettings,
    /// The dive before the integer master (it shares `integer_time_limit`).
    pub dive: DiveSettings,
    /// Also seed the master with MM's packing, and start the integer finish from it when it
    /// beats BFD. Off by default: the dive starts the integer finish better than MM, and MM's
    /// search on `M` costs about a second on small-task instances (half of the first phase).
    pub mm_start: bool,
    /// Under a time limit, the share of it column generation's first phase may use when the
    /// integer finish would otherwise get less than `integer_time_limit` (the rest is kept
    /// for the finish).
    pub first_phase_share: f64,
    /// Branch-and-price (`bp`).
    pub bp: BranchSettings,
    /// HiGHS returns a little after its deadline even with the interrupt callbacks (0.1–0.9 s
    /// measured on masters of a few thousand columns), so the integer master gets what the
    /// finish has left less this share of it…
    pub integer_margin_share: f64,
    /// …and at least this many seconds less.
    pub integer_margin_seconds: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            integer_time_limit: 10.0,
            cg: CgSettings::default(),
            pricing: PricingSettings::default(),
            highs: HighsSettings::default(),
            dive: DiveSettings::default(),
            mm_start: false,
            first_phase_share: 0.75,
            bp: BranchSettings::default(),
            integer_margin_share: 0.15,
            integer_margin_seconds: 0.5,
        }
    }
}

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        use Rule::*;
        let checks = [
            ("integer_time_limit", self.integer_time_limit, Seconds),
            ("cg.smoothing", self.cg.smoothing, Unit),
            ("cg.reduced_cost_tol", self.cg.reduced_cost_tol, NonNegative),
            ("cg.closure_gap", self.cg.closure_gap, NonNegative),
            ("cg.tail_gap", self.cg.tail_gap, NonNegative),
            (
                "cg.max_columns_per_iteration",
                self.cg.max_columns_per_iteration as f64,
                AtLeastOne,
            ),
            ("pricing.min_profit", self.pricing.min_profit, NonNegative),
            (
                "pricing.improvement_tol",
                self.pricing.improvement_tol,
                NonNegative,
            ),
            ("first_phase_share", self.first_phase_share, Unit),
            ("bp.root_share", self.bp.root_share, Unit),
            ("bp.repack_share", self.bp.repack_share, Unit),
            (
                "bp.repack.attempt_seconds",
                self.bp.repack.attempt_seconds,
                Seconds,
            ),
            ("integer_margin_share", self.integer_margin_share, Unit),
            (
                "integer_margin_seconds",
                self.integer_margin_seconds,
                NonNegative,
            ),
        ];
        for (field, value, rule) in checks {
            if !rule.holds(value) {
                return Err(Invalid::new(field, value, rule.why()));
            }
        }
        if self.highs.threads == 0 {
            return Err(Invalid::new("highs.threads", 0, "must be at least 1"));
        }
        Ok(())
    }
}

/// What a numeric setting must be.
#[derive(Clone, Copy)]
enum Rule {
    Seconds,
    Unit,
    NonNegative,
    AtLeastOne,
}

impl Rule {
    fn holds(self, v: f64) -> bool {
        match self {
            Rule::Seconds => v.is_finite() && v > 0.0,
            Rule::Unit => (0.0..1.0).contains(&v),
            Rule::NonNegative => v.is_finite() && v >= 0.0,
            Rule::AtLeastOne => v >= 1.0,
        }
    }
    fn why(self) -> &'static str {
        match self {
            Rule::Seconds => "must be a positive number of seconds",
            Rule::Unit => "must be in [0, 1)",
            Rule::NonNegative => "must be >= 0",
            Rule::AtLeastOne => "must be at least 1",
        }
    }
}

fn from_machines(
    method: Method,
    machines: &[Machine],
    lower_bound: u64,
    began: Instant,
) -> Solution {
    let configurations = group(machines);
    let m = machine_count(&configurations);
    finish(
        method.name(),
        Some(configurations),
        m,
        lower_bound,
        None,
        0,
        began,
    )
}

fn finish(
    method: &str,
    configurations: Option<Vec<Configuration>>,
    machines: u64,
    lower_bound: u64,
    lp_bound: Option<f64>,
    iterations: u32,
    began: Instant,
) -> Solution {
    let mut certificate = Certificate::new(super::NAME, method, Sense::Minimize);
    certificate.bound = Some(lower_bound as f64);
    if configurations.is_some() {
        certificate.scored(machines as f64, lower_bound as f64, 0.0);
    }
    certificate.seconds = began.elapsed().as_secs_f64();
    Solution {
        certificate,
        lp_bound,
        iterations,
        configurations: configurations.unwrap_or_default(),
    }
}

/// Solves `inst` with `method`, without a time limit.
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    solve_within(inst, method, settings, &Deadline::none())
}

/// Solves `inst` with `method` within `deadline` (column generation then keeps a share for
/// its integer finish and returns its incumbent, bound and gap).
pub fn solve_within(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    settings.checked()?;
    let began = Instant::now();
    let lb = total_demand_bound(inst);
    Ok(match method {
        Method::LowerBound => finish(method.name(), None, 0, lb, None, 0, began),
        Method::Bfd => from_machines(
            method,
            &best_fit_decreasing_within(inst, deadline),
            lb,
            began,
        ),
        Method::Mm => from_machines(method, &min_max_search_within(inst, deadline), lb, began),
        Method::Mmm => from_machines(method, &min_max_module_within(inst, deadline), lb, began),
        Method::Cg => column_generation(inst, settings, lb, began, deadline)?,
        Method::Bp => super::branch::solve(inst, settings, lb, began, deadline)?,
    })
}

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
}

impl Root {
    /// The answer of `method` with these machines and this bound.
    pub fn into_solution(self, method: &str, began: Instant) -> Solution {
        let configurations = group(&self.machines);
        let machines = machine_count(&configurations);
        let mut sol = finish(
            method,
            Some(configurations),
            machines,
            self.lower_bound,
            Some(self.lp_bound),
            self.iterations,
            began,
        );
        sol.stats.extend(self.stats);
        sol
    }
}

fn column_generation(
    inst: &Instance,
    settings: &Settings,
    lb_w: u64,
    began: Instant,
    deadline: &Deadline,
) -> Result<Solution> {
    Ok(aggregated_root(inst, settings, lb_w, true, began, deadline)?.into_solution("cg", began))
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

    // Initial columns: K0 (as many tasks of one job as fit alone) and the heuristics' machines.
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
    for m in bfd.iter().chain(&mm) {
        push(key(&m.tasks), &mut configs);
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
    Ok(Root {
        machines: chosen,
        lower_bound,
        lp_bound: cg.bound,
        iterations: cg.iterations.len() as u32,
        stats,
    })
}

/// The tasks `machines` leave unplaced, as an instance of the same jobs.
fn uncovered(inst: &Instance, machines: &[Machine]) -> Instance {
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
fn expand(inst: &Instance, columns: &[Column], counts: &[u64]) -> Vec<Machine> {
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
