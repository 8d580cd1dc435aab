//! The rebalance problem's API: methods, settings, solution, `solve` and `verify`.

use super::exact::{exact_search, exact_search_within, root_count_bound, GAP};
use super::instance::{Instance, Res};
use super::milp::exact_rebalance;
use super::placement::{global_ideal, node_allocation, vm_error};
use super::share::ErrorNorm;
use super::tabu::{brute_force, tabu_search, SearchResult, TabuParams};
use crate::error::{InputError, Location, Result};
use crate::outcome::Violation;
use crate::problem::proof::{supports, with_closed_form};
use crate::problem::{BoundCheck, Certificate, Depth, Proof, Sense};
use crate::solver::{Deadline, HighsSettings};
use serde::{Deserialize, Serialize};

/// How a rebalance instance is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The §3.1 tabu search.
    Tabu,
    /// Exhaustive enumeration of placements (tiny instances; the test oracle).
    Brute,
    /// No migration: evaluates the current placement (the baseline every method must beat).
    Keep,
    /// The exact MILP (HiGHS) minimising the largest error, started from the tabu placement.
    Milp,
    /// The exact branch-and-bound over moves (small `M`), started from the tabu placement.
    Exact,
}

impl Method {
    /// Name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Method::Tabu => "tabu",
            Method::Brute => "brute",
            Method::Keep => "keep",
            Method::Milp => "milp",
            Method::Exact => "exact",
        }
    }
    /// One-line description.
    pub fn description(self) -> &'static str {
        match self {
            Method::Tabu => "tabu search of Merkat §3.1 (largest-error VM to its best node)",
            Method::Brute => "exhaustive search over placements within K and M (tiny instances)",
            Method::Keep => "no migration: the current placement's allocations and errors",
            Method::Milp => {
                "exact MILP (HiGHS) over placements within K and M: optimum and proven bound"
            }
            Method::Exact => {
                "exact branch-and-bound over moves (fast for small M): optimum and proven bound"
            }
        }
    }
    /// Every method.
    pub fn all() -> [Method; 5] {
        [
            Method::Tabu,
            Method::Brute,
            Method::Keep,
            Method::Milp,
            Method::Exact,
        ]
    }
}

/// Tunables of the rebalancer. The paper gives none of ε, M, τ, I; the defaults are issue 21's.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// `ε`: balancing runs only while the largest error exceeds it (default 0.05).
    pub epsilon: f64,
    /// `M` override; `None` takes the instance's `migrations` (the default is 3).
    pub migrations: Option<usize>,
    /// `τ`: iterations a (VM, source node) pair stays tabu (default 7).
    pub tabu_tenure: usize,
    /// `I`: tabu iterations per period (default 50).
    pub iterations: usize,
    /// How CPU and memory errors combine into `E_v` (default: normalised by node capacity).
    pub error_norm: ErrorNorm,
    /// The brute force refuses instances with more than this many raw placements `n^m`.
    pub brute_limit: u64,
    /// `milp`: status `optimal` when the exact largest error of the returned placement is
    /// within this of HiGHS's proven bound (default 1e-6, the tolerance).
    pub milp_tolerance: f64,
    /// `milp`: HiGHS options (threads, gaps, tolerances).
    pub highs: HighsSettings,
    /// `milp`: seconds one MILP may take (`None`: no cap; the command line's time limit
    /// applies too, the earlier wins). The `market-rebalance` study uses 0.5 when unset.
    pub milp_seconds: Option<f64>,
    /// `exact`: seconds one search may take (`None`: no cap; the command line's time limit
    /// applies too, the earlier wins). The `market-rebalance` study uses 1 when unset.
    pub exact_seconds: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epsilon: 0.05,
            migrations: None,
            tabu_tenure: 7,
            iterations: 50,
            error_norm: ErrorNorm::NodeCapacity,
            brute_limit: 5_000_000,
            milp_tolerance: 1e-6,
            milp_seconds: None,
            exact_seconds: None,
            highs: HighsSettings {
                mip_abs_gap: 1e-7,
                ..HighsSettings::default()
            },
        }
    }
}

impl Settings {
    /// Checks every value; the message names the key.
    pub fn validate(&self) -> std::result::Result<(), String> {
        if !self.epsilon.is_finite() || self.epsilon < 0.0 {
            return Err(format!(
                "epsilon = {} must be finite and non-negative",
                self.epsilon
            ));
        }
        if !self.milp_tolerance.is_finite() || self.milp_tolerance < 0.0 {
            return Err(format!(
                "milp_tolerance = {} must be finite and non-negative",
                self.milp_tolerance
            ));
        }
        for (key, value) in [
            ("milp_seconds", self.milp_seconds),
            ("exact_seconds", self.exact_seconds),
        ] {
            if let Some(t) = value.filter(|t| !(t.is_finite() && *t > 0.0)) {
                return Err(format!("{key} = {t} must be positive and finite"));
            }
        }
        if self.brute_limit == 0 {
            return Err("brute_limit must be at least 1".into());
        }
        Ok(())
    }

    /// `M` when set, else `default` (the simulation's default is the 3).
    pub fn migration_limit_or(&self, default: usize) -> usize {
        self.migrations.unwrap_or(default)
    }

    /// The migration limit in force for `inst`.
    pub fn migration_limit(&self, inst: &Instance) -> usize {
        self.migrations.unwrap_or(inst.migrations)
    }
}

/// A rebalancing answer with every metric `verify` recomputes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Objective: `max_v E_v` (minimised); bound: the brute force's optimum, HiGHS's proven
    /// lower bound for `milp`, or 0 (no error is negative) for tabu and keep; `optimal` for
    /// the brute force, and for `milp` when its exact error meets its bound.
    pub certificate: Certificate,
    /// Node of each VM after rebalancing.
    pub placement: Vec<usize>,
    /// Enforced allocation `a_v` of each VM on its new node.
    pub alloc: Vec<Res>,
    /// Global ideal `g_v` over the pooled capacity.
    pub ideal: Vec<Res>,
    /// Error `E_v` of each VM.
    pub error: Vec<f64>,
    /// `max_v E_v`.
    pub max_error: f64,
    /// `max_v E_v` of the initial placement.
    pub initial_max_error: f64,
    /// VMs whose node changed.
    pub moves: usize,
    /// The limit `M` the method respected.
    pub migration_limit: usize,
    /// The error normalisation the numbers use.
    pub error_norm: ErrorNorm,
    /// Pooled price per resource (the global ideal's price).
    pub global_price: Res,
    /// Price per node and resource after rebalancing.
    pub node_price: Vec<Res>,
    /// Tabu iterations or placements enumerated.
    pub iterations: u64,
}

crate::certified!(Solution);

/// Builds the full solution record of a placement (allocations, errors, prices, moves).
pub fn evaluate(inst: &Instance, placement: Vec<usize>, norm: ErrorNorm, limit: usize) -> Solution {
    let (ideal, global_price) = global_ideal(inst);
    let mut alloc = vec![Res::default(); inst.vms.len()];
    let mut node_price = Vec::with_capacity(inst.nodes.len());
    for (n, cap) in inst.nodes.iter().enumerate() {
        let members: Vec<usize> = (0..placement.len())
            .filter(|&v| placement[v] == n)
            .collect();
        node_price.push(node_allocation(inst, cap, &members, &mut alloc));
    }
    let error: Vec<f64> = (0..inst.vms.len())
        .map(|v| {
            let node = inst.nodes[placement[v]];
            vm_error(&alloc[v], &ideal[v], &inst.vms[v].cap, &node, norm)
        })
        .collect();
    let max_error = error.iter().copied().fold(0.0, f64::max);
    let initial: Vec<usize> = inst.vms.iter().map(|v| v.node).collect();
    let initial_max_error = if initial == placement {
        max_error
    } else {
        evaluate(inst, initial.clone(), norm, limit).max_error
    };
    let moves = placement
        .iter()
        .zip(&initial)
        .filter(|(a, b)| a != b)
        .count();
    let mut certificate = Certificate::new(super::NAME, "", Sense::Minimize);
    certificate.scored(max_error, 0.0, 0.0);
    certificate.proof = Some(Proof::closed_form("zero"));
    Solution {
        certificate,
        placement,
        alloc,
        ideal,
        error,
        max_error,
        initial_max_error,
        moves,
        migration_limit: limit,
        error_norm: norm,
        global_price,
        node_price,
        iterations: 0,
    }
}

/// Solves a rebalance instance with no time limit. `Err` for a brute force on an instance
/// too large, or a HiGHS failure.
pub fn solve(inst: &Instance, method: Method, settings: &Settings) -> Result<Solution> {
    solve_within(inst, method, settings, &Deadline::none())
}

fn tabu_params(settings: &Settings, limit: usize, epsilon: f64) -> TabuParams {
    TabuParams {
        epsilon,
        migrations: limit,
        tenure: settings.tabu_tenure,
        iterations: settings.iterations,
        norm: settings.error_norm,
    }
}

/// [`solve`] within `deadline` (only `milp` uses it: on a limit it returns its incumbent,
/// at worst the tabu placement, with HiGHS's bound).
pub fn solve_within(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    let limit = settings.migration_limit(inst);
    let norm = settings.error_norm;
    let found: SearchResult = match method {
        Method::Keep => SearchResult {
            placement: inst.vms.iter().map(|v| v.node).collect(),
            max_error: f64::NAN,
            iterations: 0,
        },
        Method::Tabu => tabu_search(inst, &tabu_params(settings, limit, settings.epsilon)),
        Method::Milp => {
            let (deadline, start) =
                exact_start(inst, settings, limit, deadline, settings.milp_seconds);
            return solve_milp(inst, settings, limit, &deadline, start);
        }
        Method::Exact => {
            let (deadline, start) =
                exact_start(inst, settings, limit, deadline, settings.exact_seconds);
            return solve_exact(inst, start, (settings, limit), &deadline);
        }
        Method::Brute => brute_force(inst, limit, norm, settings.brute_limit).ok_or_else(|| {
            let raw = format!("{}^{}", inst.nodes.len(), inst.vms.len());
            InputError::new(
                "<arguments>",
                Location::Argument("--method".into()),
                raw,
                format!(
                    "too many placements for brute force (limit {})",
                    settings.brute_limit
                ),
            )
        })?,
    };
    let mut sol = evaluate(inst, found.placement, norm, limit);
    sol.certificate.method = method.name().into();
    sol.iterations = found.iterations;
    if method == Method::Brute {
        let e = sol.max_error;
        sol.certificate.scored(e, e, 0.0);
        sol.certificate.proof = Some(Proof::search(
            found.iterations,
            "brute force over every placement within the move limit",
        ));
    }
    Ok(sol)
}

/// True when `placement` keeps `K` per node and at most `limit` VMs off their node.
fn admissible(inst: &Instance, placement: &[usize], limit: usize) -> bool {
    let mut count = vec![0usize; inst.nodes.len()];
    placement.iter().for_each(|&n| count[n] += 1);
    let moves = placement
        .iter()
        .zip(&inst.vms)
        .filter(|(&n, vm)| n != vm.node)
        .count();
    moves <= limit && count.iter().all(|&c| c <= inst.max_vms_per_node)
}

/// States the exact search may take when plain `verify` re-derives a bound (`--deep`: no
/// state limit, `--deep-seconds`).
pub const VERIFY_STATES: u64 = 200_000;

/// Re-derives a rebalancing's bound (issue 37): the closed forms `untouched` and
/// `root-count` (the move-count relaxation at the initial placement, [`root_count_bound`]);
/// a `search` (`exact`, `brute`) or HiGHS's bound (`milp`) by the exact branch-and-bound over
/// moves from the answer's own placement, within [`VERIFY_STATES`] states (`--deep`: within
/// `--deep-seconds`) — a second exact method for `milp`. A search that does not finish leaves
/// the bound claimed, never refuted.
pub fn check_bound(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    let c = &sol.certificate;
    let (norm, limit) = (sol.error_norm, sol.migration_limit);
    let closed = closed_bound(inst, norm, limit);
    with_closed_form(c, Sense::Minimize, Some(closed), || match &c.proof {
        Some(Proof::Search { .. } | Proof::Solver { .. }) => {
            let valid = sol.placement.len() == inst.vms.len()
                && sol.placement.iter().all(|&n| n < inst.nodes.len())
                && admissible(inst, &sol.placement, limit);
            let start: Vec<usize> = if valid {
                sol.placement.clone()
            } else {
                inst.vms.iter().map(|v| v.node).collect()
            };
            let (deadline, states) = if depth.deep {
                (Deadline::after(Some(depth.seconds)), u64::MAX)
            } else {
                (Deadline::none(), VERIFY_STATES)
            };
            let out = exact_search_within(inst, limit, norm, &start, &deadline, states);
            let b = out.bound.min(out_error(inst, &out.placement, sol));
            if out.complete && supports(Sense::Minimize, b, c.bound.unwrap_or(0.0) - 2.0 * GAP) {
                BoundCheck::Checked {
                    kind: "search",
                    value: b,
                }
            } else if matches!(c.proof, Some(Proof::Solver { .. })) {
                BoundCheck::claimed_by(c)
            } else if depth.deep {
                BoundCheck::Claimed {
                    why: format!(
                        "the search re-run within {} s reached the bound {b} only",
                        depth.seconds
                    ),
                }
            } else {
                BoundCheck::Claimed {
                    why: format!(
                        "the search re-run within {VERIFY_STATES} states reached the bound {b} only (use --deep)"
                    ),
                }
            }
        }
        _ => BoundCheck::claimed_by(c),
    })
}

/// The larger of the closed forms, `untouched` and `root-count` (and 0).
pub fn closed_bound(inst: &Instance, norm: ErrorNorm, limit: usize) -> f64 {
    untouched_bound(inst, norm, limit)
        .max(root_count_bound(inst, limit, norm))
        .max(0.0)
}

/// The largest error of a placement under the solution's norm and limit.
fn out_error(inst: &Instance, p: &[usize], sol: &Solution) -> f64 {
    evaluate(inst, p.to_vec(), sol.error_norm, sol.migration_limit).max_error
}

/// A lower bound on the largest error of any placement within `limit` moves: a move changes
/// two nodes' members, so at least `N − 2·limit` nodes keep theirs, and with them their
/// errors (the global ideal does not depend on the placement). It is the `(2·limit + 1)`-th
/// largest node error of the current placement (0 when every node may change).
pub fn untouched_bound(inst: &Instance, norm: ErrorNorm, limit: usize) -> f64 {
    let now = evaluate(inst, inst.vms.iter().map(|v| v.node).collect(), norm, limit);
    let mut node_error = vec![0.0f64; inst.nodes.len()];
    for (v, &n) in now.placement.iter().enumerate() {
        node_error[n] = node_error[n].max(now.error[v]);
    }
    node_error.sort_by(|a, b| b.total_cmp(a));
    node_error
        .get(limit.saturating_mul(2))
        .copied()
        .unwrap_or(0.0)
}

/// What both exact methods start from: the deadline capped at `seconds` and the tabu
/// (ε = 0) placement.
/// The `milp` method's model from its tabu start, as CPLEX LP or MPS.
pub fn model_file(
    inst: &Instance,
    settings: &Settings,
    source: &str,
    format: crate::solver::ModelFormat,
) -> Result<String> {
    let limit = settings.migration_limit(inst);
    let start = tabu_search(inst, &tabu_params(settings, limit, 0.0));
    let norm = settings.error_norm;
    super::milp::lp_file(inst, limit, norm, &start.placement, source, format)
}

fn exact_start(
    inst: &Instance,
    settings: &Settings,
    limit: usize,
    deadline: &Deadline,
    seconds: Option<f64>,
) -> (Deadline, SearchResult) {
    let deadline = seconds.map_or(*deadline, |t| deadline.capped(t));
    let start = tabu_search(inst, &tabu_params(settings, limit, 0.0));
    (deadline, start)
}

/// The exact method: tabu (ε = 0) gives the start and the cap on `δ`; HiGHS's placement and
/// the start are evaluated with the real water-filling and the better one is returned, with
/// the larger of HiGHS's bound and the closed forms ([`closed_bound`]). Optimal only when that
/// exact error is within `milp_tolerance` of the bound; when the start already meets the
/// closed forms, HiGHS is not called.
fn solve_milp(
    inst: &Instance,
    settings: &Settings,
    limit: usize,
    deadline: &Deadline,
    start: SearchResult,
) -> Result<Solution> {
    let norm = settings.error_norm;
    let untouched = untouched_bound(inst, norm, limit);
    let closed = closed_bound(inst, norm, limit);
    let mut sol = evaluate(inst, start.placement.clone(), norm, limit);
    let mut highs_bound = None;
    let (mut binaries, mut exact, mut stopped_building) = (0, true, false);
    // The MILP's size per (VM, node) pair, counted on small instances: 19 rows, 5 columns,
    // 50 nonzeros.
    let pairs = (inst.vms.len() * inst.nodes.len()) as u64;
    let refused = settings
        .highs
        .refuse_model(19 * pairs, 5 * pairs, 50 * pairs, deadline);
    if let Some(why) = &refused {
        log::warn!("milp: {why}: not built; the answer is the tabu start with the untouched bound");
    }
    if refused.is_none() && sol.max_error > closed + settings.milp_tolerance {
        let out = exact_rebalance(
            inst,
            limit,
            norm,
            &start.placement,
            &settings.highs,
            deadline,
        )?;
        if let Some(p) = out.placement.filter(|p| admissible(inst, p, limit)) {
            let cand = evaluate(inst, p, norm, limit);
            if cand.max_error < sol.max_error {
                sol = cand;
            }
        }
        log::info!(
            "milp: HiGHS {:?}, bound {:?}, exact model {}",
            out.status,
            out.bound,
            out.exact
        );
        if out.built {
            (highs_bound, binaries, exact) = (out.bound, out.binaries, out.exact);
        } else {
            log::warn!(
                "milp: the deadline passed while building the model; the answer is the tabu \
                 start with the untouched bound"
            );
            stopped_building = true;
        }
    }
    let e = sol.max_error;
    // HiGHS's bound holds up to its tolerances; it may not pass the exact error it bounds.
    let bound = highs_bound.unwrap_or(0.0).max(closed).min(e);
    sol.certificate.method = Method::Milp.name().into();
    sol.certificate.scored(e, bound, settings.milp_tolerance);
    sol.certificate.proof = Some(if bound > closed {
        Proof::solver("highs-mip")
    } else if closed > untouched {
        Proof::closed_form("root-count")
    } else {
        Proof::closed_form("untouched")
    });
    let st = &mut sol.certificate.stats;
    st.insert("binaries".into(), binaries as f64);
    st.insert("exact_model".into(), f64::from(u8::from(exact)));
    st.insert(
        "model_not_built".into(),
        f64::from(u8::from(refused.is_some() || stopped_building)),
    );
    st.insert("tabu_error".into(), start.max_error);
    st.insert("untouched_bound".into(), untouched);
    sol.iterations = start.iterations;
    Ok(sol)
}

/// The exact branch-and-bound ([`exact_search`]) from the tabu (ε = 0) placement. Optimal
/// only when the search finished (its bound is then the incumbent less [`GAP`]); on a limit
/// the bound is the root's move-count relaxation, at least [`untouched_bound`].
fn solve_exact(
    inst: &Instance,
    start: SearchResult,
    (settings, limit): (&Settings, usize),
    deadline: &Deadline,
) -> Result<Solution> {
    let norm = settings.error_norm;
    let out = exact_search(inst, limit, norm, &start.placement, deadline);
    let mut sol = evaluate(inst, out.placement, norm, limit);
    let e = sol.max_error;
    sol.certificate.method = Method::Exact.name().into();
    let tolerance = if out.complete { 2.0 * GAP } else { 0.0 };
    sol.certificate.scored(e, out.bound.min(e), tolerance);
    sol.certificate.proof = Some(if out.complete {
        Proof::search(out.states, "exact branch-and-bound over moves")
    } else {
        // Stopped: the bound is the root's move-count relaxation, a closed form.
        Proof::closed_form("root-count")
    });
    let st = &mut sol.certificate.stats;
    st.insert("states".into(), out.states as f64);
    st.insert("complete".into(), f64::from(u8::from(out.complete)));
    st.insert("tabu_error".into(), start.max_error);
    st.insert("root_bound".into(), out.root_bound);
    sol.iterations = start.iterations;
    Ok(sol)
}

/// Appends violations for reported allocations, ideals and errors that differ from `re`.
fn compare_vectors(re: &Solution, sol: &Solution, out: &mut Vec<Violation>) {
    let v = |c: &'static str, d: String| Violation {
        constraint: c,
        detail: d,
    };
    let vecs_ok = |a: &[Res], b: &[Res]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| close(x.cpu, y.cpu) && close(x.mem, y.mem))
    };
    if !vecs_ok(&re.alloc, &sol.alloc) {
        out.push(v(
            "alloc",
            "reported allocations differ from Eq. 1 on the nodes".into(),
        ));
    }
    if !vecs_ok(&re.ideal, &sol.ideal) {
        out.push(v(
            "ideal",
            "reported global ideal differs from Eq. 1 on the pooled capacity".into(),
        ));
    }
    if sol.error.len() != re.error.len()
        || sol.error.iter().zip(&re.error).any(|(a, b)| !close(*a, *b))
    {
        out.push(v(
            "error",
            "reported per-VM errors differ from the recomputed ones".into(),
        ));
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// Re-checks a solution from scratch: placement shape and nodes, `K` per node, moves within
/// the limit and counted right, no worse than the start, and every allocation, ideal, error
/// and maximum recomputed.
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    let mut out = Vec::new();
    let v = |c: &'static str, d: String| Violation {
        constraint: c,
        detail: d,
    };
    if sol.placement.len() != inst.vms.len() {
        out.push(v(
            "shape",
            format!(
                "{} placements for {} VMs",
                sol.placement.len(),
                inst.vms.len()
            ),
        ));
        return out;
    }
    if let Some(i) = sol.placement.iter().position(|&n| n >= inst.nodes.len()) {
        out.push(v(
            "node",
            format!("VM {i} on unknown node {}", sol.placement[i]),
        ));
        return out;
    }
    let mut count = vec![0usize; inst.nodes.len()];
    sol.placement.iter().for_each(|&n| count[n] += 1);
    for (n, &c) in count.iter().enumerate() {
        if c > inst.max_vms_per_node {
            out.push(v(
                "max-vms",
                format!("node {n} holds {c} > K = {}", inst.max_vms_per_node),
            ));
        }
    }
    let re = evaluate(
        inst,
        sol.placement.clone(),
        sol.error_norm,
        sol.migration_limit,
    );
    if re.moves > sol.migration_limit {
        out.push(v(
            "migrations",
            format!("{} moves > M = {}", re.moves, sol.migration_limit),
        ));
    }
    if re.moves != sol.moves {
        out.push(v(
            "moves",
            format!("reported {}, recomputed {}", sol.moves, re.moves),
        ));
    }
    if !close(re.max_error, sol.max_error) {
        out.push(v(
            "max-error",
            format!("reported {}, recomputed {}", sol.max_error, re.max_error),
        ));
    }
    if !close(re.initial_max_error, sol.initial_max_error) {
        out.push(v(
            "initial-error",
            format!(
                "reported {}, recomputed {}",
                sol.initial_max_error, re.initial_max_error
            ),
        ));
    }
    if re.max_error > re.initial_max_error + 1e-12 {
        out.push(v(
            "no-worse",
            format!(
                "max error {} above the initial {}",
                re.max_error, re.initial_max_error
            ),
        ));
    }
    compare_vectors(&re, sol, &mut out);
    let c = &sol.certificate;
    if !c.objective.is_some_and(|o| close(o, re.max_error)) {
        out.push(v(
            "objective",
            format!(
                "reported {:?}, recomputed max error {}",
                c.objective, re.max_error
            ),
        ));
    }
    // Only the brute force and the MILP prove a bound above 0 (it cannot be re-proven here
    // but must not pass the solution's own error).
    let brute = [Method::Brute, Method::Milp, Method::Exact]
        .iter()
        .any(|m| c.method == m.name());
    match c.bound {
        Some(b) if b > re.max_error + 1e-9 => out.push(v(
            "bound",
            format!("bound {b} above the max error {}", re.max_error),
        )),
        Some(b) if !brute && b > 0.0 => out.push(v(
            "bound",
            format!("{} proves no bound above 0, claims {b}", c.method),
        )),
        _ => {}
    }
    out
}
