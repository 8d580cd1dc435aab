//! The methods of VCSched, their settings, and the one entry point [`solve`] that turns any
//! of them into a [`Solution`] with its bound and gap.

use super::allocation::{allocate_within, memory_feasible, Placement};
use super::instance::{Instance, BUDGET_TOLERANCE};
use super::lns::LnsSettings;
use super::packing::PackingSettings;
use super::relaxation::{self, Route};
use super::routes;
use super::solution::{JobGrant, Solution};
use super::{adapt, greedy, mcb, relabel, rounding};
use crate::error::{Error, InputError, Location, Result};
use crate::problem::{Certificate, Invalid, Proof, Sense, Validate};
use crate::solver::{Deadline, HighsSettings};
use crate::Status;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Instant;

/// A VCSched method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The largest CPU load minimised exactly (bounds, seeds, descent, branch-and-bound).
    Exact,
    /// Equations 3–11 solved by HiGHS.
    Milp,
    /// The rational relaxation (closed form and HiGHS).
    LpBound,
    /// Greedy, jobs in file order.
    Gr,
    /// Greedy, jobs by decreasing memory.
    Sg,
    /// Greedy with backtracking.
    Gb,
    /// Sorted greedy with backtracking.
    Sgb,
    /// Multi-capacity bin packing, variant 1–8.
    Mcb(u8),
    /// Randomised rounding of the relaxation.
    Rrnd,
    /// Randomised rounding with no zero probability.
    Rrnz,
    /// Adaptation heuristic: keep current hosts, place new tasks, migrate within the budget.
    Adapt,
}

impl Method {
    /// Every method, in the order tables list them.
    pub fn all() -> Vec<Method> {
        let mut v = vec![
            Method::Exact,
            Method::Milp,
            Method::LpBound,
            Method::Gr,
            Method::Sg,
            Method::Gb,
        ];
        v.push(Method::Sgb);
        v.extend((1..=8).map(Method::Mcb));
        v.extend([Method::Rrnd, Method::Rrnz, Method::Adapt]);
        v
    }

    /// The heuristics (every method but `exact`, `milp` and `lp-bound`).
    pub fn heuristics() -> Vec<Method> {
        Self::all().into_iter().skip(3).collect()
    }

    /// One line: what the method does.
    pub fn description(&self) -> &'static str {
        match self {
            Method::Exact => {
                "exact: least largest CPU load under memory (bounds, seeds, local search, branch-and-bound)"
            }
            Method::Milp => "the exact MILP (equations 3–11) by HiGHS, warm-started by MCB8",
            Method::LpBound => "the rational relaxation's bound (closed form and HiGHS)",
            Method::Gr => "greedy, jobs in file order",
            Method::Sg => "greedy, jobs by decreasing memory",
            Method::Gb => "greedy with backtracking, file order",
            Method::Sgb => "greedy with backtracking, decreasing memory",
            Method::Mcb(k) => match *k {
                1 => "multi-capacity bin packing, binary search on the yield; jobs by CPU + memory, ascending",
                2 => "multi-capacity bin packing, binary search on the yield; jobs by max − min need, ascending",
                3 => "multi-capacity bin packing, binary search on the yield; jobs by max / min need, ascending",
                4 => "multi-capacity bin packing, binary search on the yield; jobs by largest need, ascending",
                5 => "multi-capacity bin packing, binary search on the yield; jobs by CPU + memory, descending",
                6 => "multi-capacity bin packing, binary search on the yield; jobs by max − min need, descending",
                7 => "multi-capacity bin packing, binary search on the yield; jobs by max / min need, descending",
                _ => "multi-capacity bin packing, binary search on the yield; jobs by largest need, descending (the paper's best)",
            },
            Method::Rrnd => "randomised rounding of the relaxation",
            Method::Rrnz => "randomised rounding with no zero probability",
            Method::Adapt => {
                "adaptation: keep current hosts, place new tasks, migrate within the budget"
            }
        }
    }

    /// The name used on the command line and in files.
    pub fn name(&self) -> String {
        match self {
            Method::Exact => "exact".into(),
            Method::Milp => "milp".into(),
            Method::LpBound => "lp-bound".into(),
            Method::Gr => "gr".into(),
            Method::Sg => "sg".into(),
            Method::Gb => "gb".into(),
            Method::Sgb => "sgb".into(),
            Method::Mcb(k) => format!("mcb{k}"),
            Method::Rrnd => "rrnd".into(),
            Method::Rrnz => "rrnz".into(),
            Method::Adapt => "adapt".into(),
        }
    }
}

crate::method_table!(Method, all);

/// Every limit and knob of the VCSched methods, with the paper's values as defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Seed of the randomised methods (RRND, RRNZ).
    pub seed: u64,
    /// Run the §3.5 average-yield phase after the minimum yield.
    pub avg_phase: bool,
    /// GB/SGB: cap on job placement attempts (the paper's 500,000).
    pub max_attempts: u64,
    /// MCB: the binary search on the yield stops when its bracket is narrower than this.
    pub mcb_tolerance: f64,
    /// MCB: score a placement by its optimal minimum yield (`placement`, ours) or by the
    /// binary search's yield (`search`, the paper's; see [`mcb::McbScore`]).
    pub mcb_score: mcb::McbScore,
    /// RRNZ: the probability given to hosts whose relaxed `e_ij` is zero (the paper's 0.01).
    pub rounding_epsilon: f64,
    /// `lp-bound`, RRND, RRNZ: which LP gives the relaxation's optimal point (see
    /// [`relaxation`]).
    pub relaxation: Route,
    /// A solution is reported optimal when `upper_bound − min_yield` is at most this.
    pub gap_tolerance: f64,
    /// MILP: fix `e_ij = 0` for `j > i` (identical hosts; see `models/vcsched.md`).
    pub symmetry_breaking: bool,
    /// MILP: give HiGHS the MCB8 placement (the `adapt` placement for an adaptation) as its
    /// first incumbent.
    pub warm_start: bool,
    /// `exact`: nodes of its branch-and-bound before it settles for incumbent, bound and gap
    /// (a node count keeps the result deterministic, where a time slice would not).
    pub exact_max_nodes: u64,
    /// Adaptation: overrides the instance's migration budget (memory units).
    pub budget: Option<f64>,
    /// Adaptation MILP: branch-and-bound nodes spent on equations 22–31 directly before the
    /// budget-free route (see `models/vcsched.md`); a node count keeps the result
    /// deterministic, where a time slice would not.
    pub adapt_direct_nodes: i32,
    /// `exact`: the large-neighbourhood search on its incumbent where its own search leaves a
    /// gap (before the packing).
    pub lns: LnsSettings,
    /// `exact`: the vector-packing bound and proof where its own search leaves a gap.
    pub packing: PackingSettings,
    /// Options passed to HiGHS.
    pub highs: HighsSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0,
            avg_phase: true,
            max_attempts: 500_000,
            mcb_tolerance: 1e-4,
            mcb_score: mcb::McbScore::Placement,
            rounding_epsilon: 0.01,
            relaxation: Route::default(),
            gap_tolerance: 1e-6,
            symmetry_breaking: true,
            warm_start: true,
            exact_max_nodes: 2_000_000,
            budget: None,
            adapt_direct_nodes: 100,
            lns: LnsSettings::default(),
            packing: PackingSettings::default(),
            highs: HighsSettings::default(),
        }
    }
}

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if !(self.mcb_tolerance.is_finite() && self.mcb_tolerance > 0.0) {
            return Err(Invalid::new(
                "mcb_tolerance",
                self.mcb_tolerance,
                "must be positive",
            ));
        }
        if !(0.0..=1.0).contains(&self.rounding_epsilon) {
            return Err(Invalid::new(
                "rounding_epsilon",
                self.rounding_epsilon,
                "must be in [0, 1]",
            ));
        }
        if !(self.gap_tolerance.is_finite() && self.gap_tolerance >= 0.0) {
            return Err(Invalid::new(
                "gap_tolerance",
                self.gap_tolerance,
                "must be >= 0",
            ));
        }
        if self.max_attempts == 0 {
            return Err(Invalid::new("max_attempts", 0, "must be at least 1"));
        }
        self.lns.check()?;
        self.packing.check()?;
        if self.highs.threads == 0 {
            return Err(Invalid::new("highs.threads", 0, "must be at least 1"));
        }
        if let Some(b) = self.budget {
            if let Err(e) =
                super::instance::check_budget(b, "<settings>", Location::Field("budget".into()))
            {
                let why = match e {
                    Error::Input(i) => i.reason,
                    other => other.to_string(),
                };
                return Err(Invalid::new("budget", b, why));
            }
        }
        Ok(())
    }
}

/// What a method found before scoring: a placement, a better bound, counters.
pub(super) struct Found {
    pub(super) placement: Option<Placement>,
    pub(super) bound: Option<f64>,
    pub(super) infeasible: bool,
    pub(super) stats: BTreeMap<String, f64>,
    /// The proof of `bound` (issue 37).
    pub(super) proof: Option<Proof>,
}

impl Found {
    pub(super) fn placement(placement: Option<Placement>) -> Self {
        Found {
            placement,
            bound: None,
            infeasible: false,
            stats: BTreeMap::new(),
            proof: None,
        }
    }
    pub(super) fn stat(mut self, name: &str, v: f64) -> Self {
        self.stats.insert(name.into(), v);
        self
    }
}

/// Solves `inst` with `method`: minimum yield first, then (unless disabled) average yield.
///
/// Parallel jobs: the placement heuristics place tasks as items (the instance
/// [`Instance::flattened`]), and every task of a job is granted the same CPU. Adaptation
/// (the instance has `current` hosts): the heuristics that ignore current hosts have their
/// hosts relabelled to move as little memory as possible (hosts are identical), and a
/// placement that still breaks the budget is dropped; `milp` and `adapt` honour the budget.
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    solve_within(inst, method, settings, &Deadline::none())
}

/// [`solve`] within `deadline`: the MILP then returns its incumbent, bound and gap.
pub fn solve_within(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    solve_sharing(
        inst,
        method,
        settings,
        deadline,
        &SharedRelaxation::default(),
    )
}

/// The rational relaxation of one instance, solved once and shared by `lp-bound`, `rrnd` and
/// `rrnz` (a sweep runs all three on each instance; the LP is nearly all of their time).
///
/// Only the relaxation of a sequential, non-adaptation instance is shared (there the three
/// methods solve the same LP). A method that reuses it reports the LP's seconds in its own
/// time, as if it had solved it, and the stat `lp_shared`.
#[derive(Debug, Default)]
pub struct SharedRelaxation {
    cell: std::cell::RefCell<Option<(Rc<relaxation::Relaxation>, f64)>>,
}

impl SharedRelaxation {
    /// The relaxation of `inst`, solved on first use, and — when it came from an earlier
    /// call — the seconds that call spent solving it.
    fn get(
        &self,
        inst: &Instance,
        settings: &Settings,
        deadline: &Deadline,
    ) -> Result<(Rc<relaxation::Relaxation>, Option<f64>)> {
        if let Some((r, secs)) = self.cell.borrow().as_ref() {
            return Ok((Rc::clone(r), Some(*secs)));
        }
        let began = Instant::now();
        let r = Rc::new(relaxation::solve(
            inst,
            settings.relaxation,
            &settings.highs,
            deadline,
        )?);
        // A relaxation cut short by the deadline is not worth keeping.
        if r.finished {
            *self.cell.borrow_mut() = Some((Rc::clone(&r), began.elapsed().as_secs_f64()));
        }
        Ok((r, None))
    }
}

/// [`solve`], taking the rational relaxation from `shared` when the method needs it.
pub fn solve_sharing(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
    shared: &SharedRelaxation,
) -> Result<Solution> {
    settings.checked()?;
    let began = Instant::now();
    let deadline = *deadline;
    let budgeted = with_budget(inst, settings.budget)?;
    let inst: &Instance = &budgeted;
    let flat = inst.flattened();
    // The relaxation of a sequential instance is the same LP for all three methods.
    let private = SharedRelaxation::default();
    let lp = match flat {
        Cow::Borrowed(_) => shared,
        Cow::Owned(_) => &private,
    };
    let flat = flat.as_ref();
    let closed = relaxation::closed_form_bound(inst);
    // Seconds of a relaxation solved by an earlier method, counted in this one's time.
    let mut reused = None;
    let mut relaxation = |of: &Instance| -> Result<Rc<relaxation::Relaxation>> {
        let (r, secs) = lp.get(of, settings, &deadline)?;
        reused = secs;
        Ok(r)
    };
    let mut found = match (method, closed) {
        (Method::LpBound, _) => lp_bound(inst, &*relaxation(inst)?),
        // Σ T_i m_i > H: the relaxation is infeasible, which proves the problem is.
        (_, None) => Found {
            infeasible: true,
            ..Found::placement(None)
        },
        (Method::Milp, Some(ub)) => routes::exact(inst, settings, &deadline, ub)?,
        // An adaptation's hosts are distinct (current hosts, a budget): the MILP route.
        (Method::Exact, Some(ub)) if inst.is_adaptation() => {
            routes::exact(inst, settings, &deadline, ub)?.stat("route_milp", 1.0)
        }
        (Method::Exact, Some(ub)) => routes::exact_search(flat, ub, settings, &deadline)?,
        (Method::Adapt, Some(ub)) => {
            let a = adapt::adapt(inst, ub, settings.mcb_tolerance);
            Found::placement(a.placement).stat("moves", a.moves as f64)
        }
        (Method::Gr, _) => Found::placement(greedy::greedy(flat, &greedy::file_order(flat))),
        (Method::Sg, _) => Found::placement(greedy::greedy(flat, &greedy::memory_order(flat))),
        (Method::Gb | Method::Sgb, _) => {
            let order = if method == Method::Gb {
                greedy::file_order(flat)
            } else {
                greedy::memory_order(flat)
            };
            let b = greedy::backtracking(flat, &order, settings.max_attempts, &deadline);
            Found::placement(b.placement)
                .stat("attempts", b.attempts as f64)
                .stat("truncated", f64::from(u8::from(b.truncated)))
        }
        (Method::Mcb(k), Some(ub)) => {
            let r = mcb::mcb(flat, k, ub, settings.mcb_tolerance);
            Found::placement(r.placement)
                .stat("trials", f64::from(r.trials))
                .stat("search_yield", r.search_yield)
        }
        (Method::Rrnd | Method::Rrnz, _) => {
            let relax = relaxation(flat)?;
            let eps = if method == Method::Rrnz {
                settings.rounding_epsilon
            } else {
                0.0
            };
            let p = relax
                .columns
                .as_ref()
                .and_then(|x| rounding::round(flat, &relax.layout, x, eps, settings.seed));
            Found::placement(p)
        }
    };
    if inst.is_adaptation() && !matches!(method, Method::Milp | Method::Exact | Method::Adapt) {
        found = fit_budget(inst, found);
    }
    if reused.is_some() {
        found = found.stat("lp_shared", 1.0);
    }
    let mut sol = finish(inst, method, settings, closed, found, began, &deadline)?;
    sol.seconds += reused.unwrap_or(0.0);
    Ok(sol)
}

/// The instance with `budget` in place of its own (an error when it has no current hosts).
fn with_budget(inst: &Instance, budget: Option<f64>) -> Result<Cow<'_, Instance>> {
    let Some(b) = budget else {
        return Ok(Cow::Borrowed(inst));
    };
    if !inst.is_adaptation() {
        return Err(InputError::new(
            "<arguments>",
            Location::Argument("--budget".into()),
            b.to_string(),
            "a migration budget needs an instance with `current` hosts (an adaptation)",
        )
        .into());
    }
    Ok(Cow::Owned(Instance {
        budget: Some(b),
        ..inst.clone()
    }))
}

/// Relabels a heuristic's hosts to move the least memory, then drops the placement when it
/// still moves more than the budget.
fn fit_budget(inst: &Instance, mut found: Found) -> Found {
    if let Some(p) = found.placement.take() {
        let p = relabel::least_migration(inst, &p);
        let cost = inst.migration_cost(&p);
        if inst.budget.is_some_and(|b| cost > b + BUDGET_TOLERANCE) {
            found.stats.insert("over_budget".into(), cost);
        } else {
            found.placement = Some(p);
        }
    }
    found
}

/// Scores a placement against the best bound and builds the solution file.
fn finish(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    closed: Option<f64>,
    found: Found,
    began: Instant,
    deadline: &Deadline,
) -> Result<Solution> {
    let bound = match (closed, found.bound) {
        (Some(c), Some(b)) => Some(c.min(b)),
        (c, b) => c.or(b),
    };
    let mut certificate = Certificate::new(super::NAME, &method.name(), Sense::Maximize);
    // The closed form `min(1, H/Σα)` unless the method's own bound is below it.
    certificate.proof = match (closed, found.bound) {
        (Some(c), Some(b)) if b < c => found.proof.clone(),
        (None, Some(_)) => found.proof.clone(),
        _ => Some(Proof::closed_form("cpu-sum")),
    };
    certificate.status = if found.infeasible {
        Status::Infeasible
    } else {
        Status::Unknown
    };
    certificate.bound = if found.infeasible { None } else { bound };
    certificate.stats = found.stats;
    let mut sol = Solution {
        certificate,
        avg_yield: None,
        migration: None,
        budget: None,
        jobs: Vec::new(),
    };
    if let (Some(p), false) = (found.placement, found.infeasible) {
        if !memory_feasible(inst, &p, 1e-9) {
            return Err(Error::Consistency(format!(
                "{method} returned a placement that overflows a host's memory"
            )));
        }
        // MCB scored as the paper scores it: every job starts from the search's yield.
        let floor = match method {
            Method::Mcb(_) if settings.mcb_score == mcb::McbScore::Search => {
                sol.stats.get("search_yield").copied()
            }
            _ => None,
        };
        let alloc = allocate_within(inst, &p, floor, settings.avg_phase, deadline)?;
        let ub = bound.unwrap_or(1.0);
        if alloc.min_yield > ub + 1e-6 {
            return Err(Error::Consistency(format!(
                "{method}: minimum yield {} above the proven bound {ub}",
                alloc.min_yield
            )));
        }
        let ub = ub.max(alloc.min_yield);
        sol.certificate
            .scored(alloc.min_yield, ub, settings.gap_tolerance);
        sol.avg_yield = Some(alloc.avg_yield);
        let mut hosts = p.iter().copied();
        sol.jobs = inst
            .jobs
            .iter()
            .zip(&alloc.cpu)
            .map(|(job, &cpu)| JobGrant {
                hosts: hosts.by_ref().take(job.tasks as usize).collect(),
                cpu,
            })
            .collect();
        if inst.is_adaptation() {
            sol.migration = Some(inst.migration_cost(&p));
        }
    }
    if inst.is_adaptation() {
        sol.budget = inst.budget;
    }
    sol.seconds = began.elapsed().as_secs_f64();
    Ok(sol)
}

fn lp_bound(inst: &Instance, relax: &relaxation::Relaxation) -> Found {
    let mut f = Found {
        infeasible: relax.value.is_none(),
        ..Found::placement(None)
    };
    let closed = relaxation::closed_form_bound(inst);
    // The whole relaxation's bound is its weak-duality bound (`dual` proof, re-derived by
    // verify); the face route's value is the closed form; HiGHS's value alone only when it
    // gave no usable duals.
    (f.bound, f.proof) = match (&relax.dual, relax.value) {
        (Some((duals, b)), Some(_)) => (
            Some(*b),
            Some(Proof::Dual {
                lp: super::lp_dual::LP_NAME.into(),
                duals: duals.clone(),
            }),
        ),
        (_, v) if v.is_some() && v == closed => (v, Some(Proof::closed_form("cpu-sum"))),
        (_, v) => (v, Some(Proof::solver("highs-lp"))),
    };
    if let Some((_, b)) = &relax.dual {
        f = f.stat("lp_dual_bound", *b);
    }
    if let Some(c) = closed {
        f = f.stat("lp_closed_form", c);
    }
    match (relax.finished, relax.value) {
        (true, Some(v)) => f = f.stat("lp_highs", v),
        (false, _) => f = f.stat("lp_highs_unfinished", 1.0),
        _ => {}
    }
    f.stat("lp_face", f64::from(u8::from(relax.route == Route::Face)))
}
