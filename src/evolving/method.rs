//! The methods of §5.1, their settings, the solution they answer with and [`solve`].

use super::bound::{makespan_bound, BoundSettings};
use super::fit::ExpandLimit;
use super::instance::Instance;
use super::metrics::{app_metrics, system_metrics, AppMetrics, SystemMetrics};
use super::schedule::{list_schedule, rigid_backfill};
use crate::error::Result;
use crate::problem::{Certificate, Proof, Sense};
use serde::{Deserialize, Serialize};

/// A scheduling method of Tables 1–2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// Each app as one step `(Σ d, max n)`, conservative backfilling in list order.
    Rigid,
    /// Algorithm 1, expand limit 1.
    Nox,
    /// Algorithm 1, expand limit `Settings::limited_expand` (2 in the paper).
    X2,
    /// 2X followed by compacting.
    X2c,
    /// Algorithm 1, no expand limit.
    Infx,
    /// infX followed by compacting.
    Infxc,
    /// The time-indexed MILP (HiGHS): the least makespan over every schedule under the
    /// expand limit `Settings::exact_expand` (not one of the paper's methods).
    Exact,
}

impl Method {
    /// The paper's methods, in the tables' row order.
    pub fn all() -> [Method; 6] {
        use Method::*;
        [Rigid, Nox, X2, X2c, Infx, Infxc]
    }
    /// Every method: the paper's and `exact`.
    pub fn with_exact() -> [Method; 7] {
        use Method::*;
        [Rigid, Nox, X2, X2c, Infx, Infxc, Exact]
    }
    /// Name on the command line and in files.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Rigid => "rigid",
            Method::Nox => "nox",
            Method::X2 => "2x",
            Method::X2c => "2x+c",
            Method::Infx => "infx",
            Method::Infxc => "infx+c",
            Method::Exact => "exact",
        }
    }
    /// The row label of the paper's tables.
    pub fn paper_name(&self) -> &'static str {
        match self {
            Method::Rigid => "rigid",
            Method::Nox => "noX",
            Method::X2 => "2X",
            Method::X2c => "2X+c",
            Method::Infx => "infX",
            Method::Infxc => "infX+c",
            Method::Exact => "exact",
        }
    }
    /// One line for `--help` and reports.
    pub fn description(&self) -> &'static str {
        match self {
            Method::Rigid => "rigid baseline: one block of max n over Σd, conservative backfilling",
            Method::Nox => "Algorithm 1, fit without expansion (l = 1)",
            Method::X2 => "Algorithm 1, fit with expand limit l (default 2)",
            Method::X2c => "Algorithm 1, fit with expand limit l (default 2), then compacting",
            Method::Infx => "Algorithm 1, fit with unlimited expansion",
            Method::Infxc => "Algorithm 1, fit with unlimited expansion, then compacting",
            Method::Exact => {
                "time-indexed MILP (HiGHS): the least makespan under exact_expand (small instances)"
            }
        }
    }
    /// The expand limit the method schedules under (rigid and noX: 1).
    pub fn expand_limit(&self, settings: &Settings) -> ExpandLimit {
        match self {
            Method::Rigid | Method::Nox => ExpandLimit::NONE,
            Method::X2 | Method::X2c => ExpandLimit::Finite(settings.limited_expand),
            Method::Infx | Method::Infxc => ExpandLimit::Infinite,
            Method::Exact => settings.exact_expand,
        }
    }
    /// Whether the compacting post-pass runs.
    pub fn compacting(&self) -> bool {
        matches!(self, Method::X2c | Method::Infxc)
    }
}

crate::method_table!(Method, with_exact);

/// Which code path computes the rigid baseline; both give the same schedule (a test checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RigidPath {
    /// Algorithm 1 with noX on the one-step EPs (the fast path).
    Fit,
    /// The from-scratch conservative backfilling of `schedule::rigid_backfill`.
    Backfill,
}

/// Settings of the evolving methods. Every tunable number of the family lives here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The expand limit `l` of the 2X methods (the paper: 2). Integer so `l·d` stays exact.
    pub limited_expand: u32,
    /// How the rigid baseline is computed.
    pub rigid_path: RigidPath,
    /// `exact`: the expand limit of the MILP (`{"finite": 1}` is noX, `"infinite"` infX).
    pub exact_expand: ExpandLimit,
    /// `exact`: the largest model (start binaries) it builds; larger instances are refused.
    pub exact_max_binaries: usize,
    /// `exact`: HiGHS options.
    pub highs: crate::solver::HighsSettings,
    /// The lower bound the heuristics' certificates carry: the closed form (instant) or the
    /// column-generation bound of `bound` (HiGHS; tighter, seconds at the paper's scale).
    pub lower_bound: LowerBound,
    /// The column-generation bound's settings.
    pub bound: BoundSettings,
}

/// Which lower bound a heuristic's certificate carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LowerBound {
    /// [`makespan_lower_bound`]: the longest app and the used area over `N`.
    Closed,
    /// [`super::bound::makespan_bound`]: the configuration LP (column generation).
    Cg,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limited_expand: 2,
            rigid_path: RigidPath::Fit,
            exact_expand: ExpandLimit::NONE,
            exact_max_binaries: 200_000,
            highs: crate::solver::HighsSettings::default(),
            lower_bound: LowerBound::Closed,
            bound: BoundSettings::default(),
        }
    }
}

impl Settings {
    /// Rejects values no method can honour; the message names the key.
    pub fn validate(&self) -> std::result::Result<(), String> {
        if matches!(self.exact_expand, ExpandLimit::Finite(0)) {
            return Err("exact_expand: the expand limit must be at least 1".into());
        }
        if self.limited_expand < 1 {
            return Err(format!(
                "limited_expand = {}: the expand limit must be at least 1",
                self.limited_expand
            ));
        }
        if self.bound.max_nodes < 1 {
            return Err(format!(
                "bound.max_nodes = {}: must be at least 1",
                self.bound.max_nodes
            ));
        }
        Ok(())
    }
}

/// One app's schedule and its metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppSchedule {
    /// The app's name, copied from the instance.
    pub name: String,
    /// `s_1 < … < s_K`: the start of each step. For rigid schedules the steps run back to back
    /// inside the block `[s_1, s_1 + Σ d)`, which holds `max n` nodes throughout.
    pub starts: Vec<i64>,
    /// Its §5.1 metrics.
    pub metrics: AppMetrics,
}

/// A schedule of every app plus the metrics of §5.1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Objective: the makespan; bound: [`makespan_lower_bound`]; `optimal` only when the
    /// two meet (these heuristics prove nothing else).
    pub certificate: Certificate,
    /// The expand limit C1 was scheduled under.
    pub expand_limit: ExpandLimit,
    /// Whether each app holds one rigid block of `max n` nodes.
    pub rigid: bool,
    /// Compacting passes rejected (kept the uncompacted fit).
    pub compaction_rejections: u64,
    /// Per app, in instance order.
    pub apps: Vec<AppSchedule>,
    /// System metrics.
    pub metrics: SystemMetrics,
    /// With `lower_bound = "cg"`: the dual weights behind a bound above the closed form,
    /// which `verify` re-checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_proof: Option<super::bound::DualProof>,
}

/// Runs `method` on `inst`. `Err` only for bad settings or an instance that fails
/// validation (re-checked here because the fit loops forever on a step wider than `N`).
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    solve_within(inst, method, settings, &crate::solver::Deadline::none())
}

/// [`solve`] within `deadline` (only `exact` can use time: HiGHS then returns its incumbent and
/// bound).
pub fn solve_within(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &crate::solver::Deadline,
) -> Result<Solution> {
    let began = std::time::Instant::now();
    let mut sol = if method == Method::Exact {
        exact(inst, settings, deadline)?
    } else {
        let mut sol = schedule(inst, method, settings)?;
        if settings.lower_bound == LowerBound::Cg {
            let makespan = sol.metrics.makespan;
            let b = makespan_bound(inst, &settings.bound, deadline)?;
            sol.certificate
                .scored(makespan as f64, b.makespan as f64, 0.0);
            if b.proof.is_some() {
                // The weights are the solution's `bound_proof`, not repeated here.
                sol.certificate.proof = Some(Proof::Dual {
                    lp: "configuration-lp (weights in bound_proof)".into(),
                    duals: Vec::new(),
                });
            }
            let stats = &mut sol.certificate.stats;
            stats.insert("bound_lp_solves".into(), b.iterations as f64);
            stats.insert("bound_seconds".into(), b.seconds);
            sol.bound_proof = b.proof;
        }
        sol
    };
    sol.certificate.seconds = began.elapsed().as_secs_f64();
    Ok(sol)
}

fn schedule(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    inst.validate(std::path::Path::new("<instance>"))?;
    settings.validate().map_err(|why| {
        crate::error::InputError::new(
            "<settings>",
            crate::error::Location::Field("settings".into()),
            "",
            why,
        )
    })?;
    let limit = method.expand_limit(settings);
    let rigid = method == Method::Rigid;
    let (block_starts, rejections) = if rigid && settings.rigid_path == RigidPath::Backfill {
        (
            rigid_backfill(inst).into_iter().map(|s| vec![s]).collect(),
            0,
        )
    } else {
        let ls = list_schedule(inst, limit, method.compacting(), rigid);
        (ls.starts, ls.compaction_rejections)
    };
    Ok(build_solution(
        inst,
        method,
        limit,
        rigid,
        block_starts,
        rejections,
    ))
}

/// The MILP's schedule, scored against the better of its proven bound and the closed-form one.
fn exact(
    inst: &Instance,
    settings: &Settings,
    deadline: &crate::solver::Deadline,
) -> Result<Solution> {
    use super::milp::{solve_exact, ExactObjective};
    inst.validate(std::path::Path::new("<instance>"))?;
    let limit = settings.exact_expand;
    let out = solve_exact(
        inst,
        limit,
        ExactObjective::Makespan,
        settings.exact_max_binaries,
        &settings.highs,
        deadline,
    )?;
    // No schedule from HiGHS by the deadline: Algorithm 1's list schedule under the same
    // expand limit is the incumbent (feasible, scored against the bounds below).
    let (starts, fallback) = match out.starts {
        Some(starts) => (starts, false),
        None => (list_schedule(inst, limit, false, false).starts, true),
    };
    let mut sol = build_solution(inst, Method::Exact, limit, false, starts, 0);
    let closed = makespan_lower_bound(inst) as f64;
    // HiGHS's bound on an integer makespan rounds up (tolerance for its round-off).
    let milp = out.bound.map_or(closed, |b| (b - 1e-6).ceil());
    let bound = closed.max(milp).min(sol.metrics.makespan as f64);
    let bound = if out.optimal && !fallback {
        sol.metrics.makespan as f64
    } else {
        bound
    };
    sol.certificate
        .scored(sol.metrics.makespan as f64, bound, 0.0);
    if bound > closed {
        sol.certificate.proof = Some(Proof::solver("highs-mip"));
    }
    sol.certificate
        .stats
        .insert("milp_binaries".into(), out.binaries as f64);
    if fallback {
        sol.certificate
            .stats
            .insert("list_schedule_fallback".into(), 1.0);
    }
    if let Some(why) = &out.refused {
        log::warn!("exact: {why}: not built; the answer is Algorithm 1's list schedule");
        sol.certificate.stats.insert("model_not_built".into(), 1.0);
    }
    Ok(sol)
}

/// Assembles the solution: rigid block starts become per-step starts, metrics are computed.
pub fn build_solution(
    inst: &Instance,
    method: Method,
    limit: ExpandLimit,
    rigid: bool,
    starts: Vec<Vec<i64>>,
    rejections: u64,
) -> Solution {
    let mut apps = Vec::with_capacity(inst.apps.len());
    for (app, s) in inst.apps.iter().zip(starts) {
        let s = if rigid {
            let mut t = s[0];
            app.steps
                .iter()
                .map(|st| {
                    let here = t;
                    t += st.duration;
                    here
                })
                .collect()
        } else {
            s
        };
        let metrics = app_metrics(app, &s, rigid);
        apps.push(AppSchedule {
            name: app.name.clone(),
            starts: s,
            metrics,
        });
    }
    let am: Vec<AppMetrics> = apps.iter().map(|a| a.metrics.clone()).collect();
    let metrics = system_metrics(inst, &am);
    let mut certificate = Certificate::new(super::NAME, method.name(), Sense::Minimize);
    certificate.scored(
        metrics.makespan as f64,
        makespan_lower_bound(inst) as f64,
        0.0,
    );
    certificate.proof = Some(Proof::closed_form("makespan-lower-bound"));
    Solution {
        certificate,
        expand_limit: limit,
        rigid,
        compaction_rejections: rejections,
        metrics,
        apps,
        bound_proof: None,
    }
}

crate::certified!(Solution);

/// A lower bound on the makespan of any schedule of `inst` that starts at 0, whatever the
/// expand limit: the longest app cannot finish before `Σ d_k`, and the cluster cannot run the
/// used area `Σ n_k d_k` faster than `N` nodes at a time.
pub fn makespan_lower_bound(inst: &Instance) -> i64 {
    let longest = inst
        .apps
        .iter()
        .map(|a| a.total_duration())
        .max()
        .unwrap_or(0);
    let area: i128 = inst.apps.iter().map(|a| i128::from(a.used_area())).sum();
    let n = i128::from(inst.nodes.max(1));
    let by_area = ((area + n - 1) / n) as i64;
    longest.max(by_area)
}
