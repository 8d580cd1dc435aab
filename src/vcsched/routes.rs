//! The exact routes of `exact` and `milp` (`models/vcsched.md`): `exact`'s own search and,
//! where it leaves a gap, the vector-packing bound and proof; the MILP of equations 3–11 (or
//! 12–21) warm-started by a heuristic; the adaptation MILP's three routes.

use super::allocation::{memory_feasible, Placement};
use super::instance::{Instance, BUDGET_TOLERANCE};
use super::method::{Found, Settings};
use super::{adapt, improve, lns, mcb, milp, packing, relabel};
use crate::error::{Error, Result};
use crate::problem::Proof;
use crate::solver::{self, BuildClock, Deadline, LinearStatus};
use std::collections::BTreeMap;
use std::time::Instant;

/// `exact` on the flattened instance: its own search ([`super::exact::solve`]), then, when
/// that leaves a gap above `gap_tolerance`, the packing ([`packed`]).
pub(super) fn exact_search(
    flat: &Instance,
    ub: f64,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Found> {
    let o = super::exact::solve(flat, ub, settings.exact_max_nodes, deadline);
    // The load bound in closed form, unless the search raised it.
    let closed = super::proof::load_bound_yield(flat);
    let proof = if o.bound >= closed * (1.0 - 1e-12) {
        Proof::closed_form("load-bound")
    } else {
        Proof::search(
            o.nodes,
            "exact's probes and branch-and-bound on the largest load",
        )
    };
    let found = Found {
        placement: o.placement.clone(),
        bound: Some(o.bound),
        infeasible: o.infeasible,
        stats: BTreeMap::new(),
        proof: Some(proof),
    }
    .stat("nodes", o.nodes as f64)
    .stat("exhausted", f64::from(u8::from(o.exhausted)))
    .stat("descent_steps", o.descent_steps as f64)
    .stat("probes", f64::from(o.probes));
    let mut best = o
        .placement
        .clone()
        .map(|p| (improve::max_load(flat, &p), p));
    // Already within the gap tolerance: nothing for the search and the packing to close.
    let closed = |best: &Option<(f64, Placement)>| {
        best.as_ref()
            .is_some_and(|b| (1.0 / b.0).min(1.0) >= o.bound - settings.gap_tolerance)
    };
    if o.exhausted || closed(&best) {
        return Ok(found);
    }
    let mut found = found;
    if let (Some((l, p)), true) = (&mut best, settings.lns.enabled) {
        let began = Instant::now();
        let floor = 1.0 / o.bound;
        let got = lns::improve(flat, p, floor, &settings.lns, settings.seed, deadline);
        *l = improve::max_load(flat, p);
        found.placement = Some(p.clone());
        found = found
            .stat("lns_steps", f64::from(got.steps))
            .stat("lns_gains", f64::from(got.gains))
            .stat("lns_seconds", began.elapsed().as_secs_f64());
    }
    if closed(&best) || !settings.packing.enabled {
        Ok(found)
    } else {
        packed(flat, o.bound, best, found, settings, deadline)
    }
}

/// `exact` after its own search left a gap (its yield `bound`, its placement `best` with its
/// largest load, reported as `found`): the vector-packing proof at the incumbent and the
/// configuration-LP bound ([`packing::improve`]).
fn packed(
    flat: &Instance,
    bound: f64,
    best: Option<(f64, Placement)>,
    found: Found,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Found> {
    let began = Instant::now();
    // `bound = min(1, 1/L)` for a proven floor `L` of the largest load.
    let floor = 1.0 / bound;
    let before = best.as_ref().map(|b| b.0);
    let got = packing::improve(flat, floor, best, &settings.packing, deadline)?;
    let mut f = found
        .stat("packing_probes", f64::from(got.probes))
        .stat("packing_nodes", got.nodes as f64)
        .stat("packing_proven", f64::from(u8::from(got.proven)))
        .stat("packing_seconds", began.elapsed().as_secs_f64());
    if got.infeasible {
        f.infeasible = true;
        f.placement = None;
        return Ok(f);
    }
    if let Some((l, p)) = got.placement {
        if before.is_none_or(|b| l < b) {
            f.placement = Some(p);
        }
    }
    if got.floor > floor {
        f.bound = Some(bound.min(1.0 / got.floor));
        f.proof = Some(Proof::search(
            got.nodes,
            "the vector-packing proof at the incumbent's load",
        ));
        f = f.stat("packing_floor", got.floor);
    }
    Ok(f)
}

pub(super) fn exact(
    inst: &Instance,
    settings: &Settings,
    deadline: &Deadline,
    ub: f64,
) -> Result<Found> {
    if inst.is_adaptation() {
        adaptation_exact(inst, settings, deadline, ub)
    } else {
        milp_search(inst, settings, deadline, ub, None)
    }
}

/// The adaptation MILP (see `models/vcsched.md`). Equations 22–31 are first given
/// `adapt_direct_nodes` branch-and-bound nodes, which settles small budgets (few moves to
/// choose from). Otherwise the budget-free problem — same tasks, no current hosts — is solved
/// with host symmetry breaking: its bound `Y*` caps the adaptation's `Y`, and its placement,
/// relabelled to move the least memory, is optimal for the adaptation when it fits the
/// budget. Only otherwise are equations 22–31 solved to the end, with `Y ≤ Y*`.
fn adaptation_exact(
    inst: &Instance,
    settings: &Settings,
    deadline: &Deadline,
    ub: f64,
) -> Result<Found> {
    let proven = |f: &Found, cap: f64| {
        f.placement.as_ref().is_some_and(|p| {
            let y = super::allocation::placement_min_yield(inst, p);
            y >= f.bound.unwrap_or(cap).min(cap) - settings.gap_tolerance
        })
    };
    let mut direct_settings = settings.clone();
    direct_settings.highs.mip_max_nodes = Some(settings.adapt_direct_nodes.max(1));
    let direct = milp_search(inst, &direct_settings, deadline, ub, None)?;
    if direct.infeasible || proven(&direct, ub) {
        return Ok(direct.stat("route_direct", 1.0));
    }
    let free = Instance {
        current: None,
        budget: None,
        ..inst.clone()
    };
    let relaxed = milp_search(&free, settings, deadline, ub, None)?;
    if relaxed.infeasible {
        return Ok(relaxed);
    }
    let cap = relaxed.bound.unwrap_or(ub).min(ub);
    let relabelled = relaxed
        .placement
        .map(|p| relabel::least_migration(inst, &p))
        .filter(|p| {
            inst.budget
                .is_none_or(|b| inst.migration_cost(p) <= b + BUDGET_TOLERANCE)
        });
    if let Some(p) = relabelled {
        let mut f = Found::placement(Some(p)).stat("route_budget_free", 1.0);
        f.bound = Some(cap);
        f.proof = Some(Proof::solver("highs-mip"));
        if proven(&f, cap) {
            f.stats.extend(relaxed.stats);
            return Ok(f);
        }
    }
    let mut f = milp_search(inst, settings, deadline, cap, direct.placement)?;
    f.bound = Some(f.bound.unwrap_or(cap).min(cap));
    f.proof = Some(Proof::solver("highs-mip"));
    Ok(f.stat("route_capped", 1.0))
}

/// Solves the MILP of `inst` with `Y ≤ ub` (a proven bound), warm-started by the better of the
/// heuristic seed and `also` (a placement found earlier).
fn milp_search(
    inst: &Instance,
    settings: &Settings,
    deadline: &Deadline,
    ub: f64,
    also: Option<Placement>,
) -> Result<Found> {
    let form = milp::Formulation {
        symmetry_breaking: settings.symmetry_breaking,
    };
    // MCB8 (or, for an adaptation, `adapt`) seeds HiGHS with an incumbent, relabelled so it
    // respects the symmetry breaking.
    let seed = settings
        .warm_start
        .then(|| {
            if inst.is_adaptation() {
                adapt::adapt(inst, ub, settings.mcb_tolerance).placement
            } else {
                mcb::mcb(&inst.flattened(), 8, ub, settings.mcb_tolerance).placement
            }
        })
        .flatten();
    let score = |p: &Placement| super::allocation::placement_min_yield(inst, p);
    let seed = match (seed, also) {
        (Some(a), Some(b)) => Some(if score(&b) > score(&a) { b } else { a }),
        (a, b) => a.or(b),
    }
    .map(|p| canonical(inst, &p, settings.symmetry_breaking));
    // Too large for the time or memory left (counted before building), or the deadline passed
    // while building: the warm start, with the closed-form bound.
    let not_built = |why: &str| {
        log::warn!("milp: {why}: not built; the answer is the warm start");
        Ok(Found::placement(seed.clone()).stat("model_not_built", 1.0))
    };
    let (rows, columns, nonzeros) = milp::size(inst, form);
    // HiGHS loads and presolves this MILP at about a quarter of the default rate (256 hosts ×
    // 2,000 jobs, 3.6 M nonzeros: 14.6 s before the first node), so it counts four times.
    if let Some(why) = settings
        .highs
        .refuse_model(rows, columns, 4 * nonzeros, deadline)
    {
        return not_built(&why);
    }
    let mut clock = BuildClock::new(deadline);
    let (mut model, layout) = milp::build_until(inst, form, &mut clock);
    if clock.expired() {
        return not_built("the deadline passed while building the model");
    }
    model.cols[layout.y()].bounds = crate::solver::Bounds::new(0.0, ub.min(1.0));
    let start = seed.as_ref().map(|p| {
        let y = super::allocation::placement_min_yield(inst, p);
        milp::start_vector(inst, &layout, p, y)
    });
    let out = solver::solve(&model, &settings.highs, deadline, start.as_deref())?;
    if out.not_loaded() {
        return not_built("the deadline passed while building the model (loading it into HiGHS)");
    }
    let mut f = Found::placement(None)
        .stat("highs_iterations", out.iterations as f64)
        .stat("highs_seconds", out.seconds);
    match out.status {
        LinearStatus::Infeasible => f.infeasible = true,
        LinearStatus::Unbounded => {
            return Err(Error::Highs("the VCSched MILP cannot be unbounded".into()))
        }
        _ => {
            f.bound = out.dual_bound;
            f.proof = Some(Proof::solver("highs-mip"));
            let from_highs = out.columns.map(|x| milp::placement_of(&layout, &x));
            let from_highs = from_highs.filter(|p| memory_feasible(inst, p, 1e-9));
            // Keep the better of HiGHS's incumbent and the seed (HiGHS may stop before
            // accepting the seed when the time limit is tiny).
            f.placement = match (from_highs, seed) {
                (Some(a), Some(b)) => Some(if score(&b) > score(&a) { b } else { a }),
                (a, b) => a.or(b),
            };
        }
    }
    Ok(f)
}

/// A placement that satisfies the symmetry-breaking rows of [`milp::build`]: hosts relabelled
/// in order of first use (not for an adaptation, whose hosts are distinct), then the hosts of
/// each run of interchangeable tasks (same job, same current host) in increasing order.
fn canonical(inst: &Instance, p: &[usize], symmetry_breaking: bool) -> Placement {
    if !symmetry_breaking {
        return p.to_vec();
    }
    let mut out: Placement = if inst.is_adaptation() {
        p.to_vec()
    } else {
        let mut map = BTreeMap::new();
        p.iter()
            .map(|&h| {
                let next = map.len();
                *map.entry(h).or_insert(next)
            })
            .collect()
    };
    let job_of = inst.task_jobs();
    let mut start = 0;
    for t in 1..=out.len() {
        let same = t < out.len()
            && job_of[t] == job_of[start]
            && inst.current_host(t) == inst.current_host(start);
        if !same {
            out[start..t].sort_unstable();
            start = t;
        }
    }
    out
}
