//! An independent re-check of a solution: C1 per app, C2 by an event sweep, and every metric
//! recomputed from the allocations (areas integrated over the sweep, not from the formulas).

use super::fit::ExpandLimit;
use super::instance::{App, Instance};
use super::method::Solution;
use crate::outcome::Violation;

/// Allocation segments `(from, to, nodes)` of one app as the solution states it.
fn allocation(app: &App, starts: &[i64], rigid: bool) -> Vec<(i64, i64, i64)> {
    let end = starts.last().copied().unwrap_or(0) + app.steps.last().map_or(0, |s| s.duration);
    if rigid {
        let s0 = starts.first().copied().unwrap_or(0);
        return vec![(s0, end, app.peak_nodes())];
    }
    (0..starts.len())
        .map(|k| {
            let to = starts.get(k + 1).copied().unwrap_or(end);
            (starts[k], to, app.steps[k].nodes)
        })
        .collect()
}

fn v(constraint: &'static str, detail: String) -> Violation {
    Violation { constraint, detail }
}

/// C1 for one app: starts non-negative, the first step only delayed, middle steps within
/// `[d, l·d]`, rigid apps' steps back to back.
fn check_c1(i: usize, app: &App, s: &[i64], limit: ExpandLimit, rigid: bool) -> Vec<Violation> {
    let mut out = Vec::new();
    if s.len() != app.steps.len() {
        let d = format!("app {i}: {} starts for {} steps", s.len(), app.steps.len());
        return vec![v("shape", d)];
    }
    if s.first().is_some_and(|&t| t < 0) {
        out.push(v("C1", format!("app {i} starts at {} < 0", s[0])));
    }
    let k = s.len();
    for j in 0..k.saturating_sub(1) {
        let (span, d) = (s[j + 1] - s[j], app.steps[j].duration);
        let max = if j == 0 || rigid {
            Some(d)
        } else {
            limit.max_span(d)
        };
        if span < d || max.is_some_and(|m| span > m) {
            let lim = max.map_or("∞".to_string(), |m| m.to_string());
            let det = format!("app {i} step {}: span {span} outside [{d}, {lim}]", j + 1);
            out.push(v("C1", det));
        }
    }
    out
}

/// C2 by a sweep over all allocation ends; returns violations and `∫ usage dt` (= ΣA).
fn sweep_c2(nodes: i64, segs: &[(i64, i64, i64)]) -> (Vec<Violation>, i128) {
    let mut events: Vec<(i64, i64)> = Vec::with_capacity(2 * segs.len());
    for &(a, b, n) in segs {
        events.push((a, n));
        events.push((b, -n));
    }
    events.sort_unstable();
    let (mut out, mut usage, mut area) = (Vec::new(), 0i64, 0i128);
    let mut j = 0;
    while j < events.len() {
        let t = events[j].0;
        while j < events.len() && events[j].0 == t {
            usage += events[j].1;
            j += 1;
        }
        if usage > nodes && out.len() < 10 {
            out.push(v(
                "C2",
                format!("{usage} nodes in use at t = {t} > N = {nodes}"),
            ));
        }
        if let Some(&(next, _)) = events.get(j) {
            area += i128::from(usage) * i128::from(next - t);
        }
    }
    (out, area)
}

/// Floats compare within a relative 1e-9 (both NaN counts as equal).
fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Every constraint and every reported metric, recomputed.
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    if sol.apps.len() != inst.apps.len() {
        let d = format!(
            "{} apps scheduled, {} in the instance",
            sol.apps.len(),
            inst.apps.len()
        );
        return vec![v("shape", d)];
    }
    let limit = super::instance::MAX_TOTAL_TIME;
    for (i, a) in sol.apps.iter().enumerate() {
        if let Some(t) = a.starts.iter().find(|t| t.abs() > limit) {
            return vec![v(
                "range",
                format!("app {i} has a start {t} beyond ±{limit}"),
            )];
        }
    }
    let mut out = Vec::new();
    let mut all = Vec::new();
    let (mut used, mut alloc_sum, mut makespan) = (0i64, 0i128, 0i64);
    let (mut act, mut awt, mut expanded) = (0f64, 0f64, 0usize);
    for (i, (app, sched)) in inst.apps.iter().zip(&sol.apps).enumerate() {
        let c1 = check_c1(i, app, &sched.starts, sol.expand_limit, sol.rigid);
        let bad_shape = c1.iter().any(|x| x.constraint == "shape");
        out.extend(c1);
        if bad_shape {
            continue;
        }
        let segs = allocation(app, &sched.starts, sol.rigid);
        let a: i128 = segs
            .iter()
            .map(|&(f, t, n)| i128::from(n) * i128::from(t - f))
            .sum();
        let (start, end) = (segs[0].0, segs.last().map_or(0, |s| s.1));
        let u: i64 = app.steps.iter().map(|s| s.nodes * s.duration).sum();
        let total: i64 = app.steps.iter().map(|s| s.duration).sum();
        let m = &sched.metrics;
        let stretch = end - start - total;
        let ints = [
            ("waiting", m.waiting, i128::from(start)),
            ("completion", m.completion, i128::from(end)),
            ("used_area", m.used_area, i128::from(u)),
            ("allocated_area", m.allocated_area, a),
            ("waste", m.waste, a - i128::from(u)),
        ];
        for (name, got, want) in ints {
            if i128::from(got) != want {
                out.push(v(
                    "metric",
                    format!("app {i} {name}: reported {got}, recomputed {want}"),
                ));
            }
        }
        let floats = [
            (
                "expansion_pct",
                m.expansion_pct,
                100.0 * stretch as f64 / total as f64,
            ),
            (
                "waste_pct",
                m.waste_pct,
                100.0 * (a - i128::from(u)) as f64 / u as f64,
            ),
        ];
        for (name, got, want) in floats {
            if !close(got, want) {
                out.push(v(
                    "metric",
                    format!("app {i} {name}: reported {got}, recomputed {want}"),
                ));
            }
        }
        if m.expanded != (stretch > 0) {
            out.push(v(
                "metric",
                format!("app {i} expanded: reported {}", m.expanded),
            ));
        }
        used += u;
        alloc_sum += a;
        makespan = makespan.max(end);
        act += end as f64;
        awt += start as f64;
        expanded += usize::from(stretch > 0);
        all.extend(segs);
    }
    let (c2, area) = sweep_c2(inst.nodes, &all);
    out.extend(c2);
    if area != alloc_sum {
        out.push(v(
            "metric",
            format!("swept area {area} ≠ Σ app areas {alloc_sum}"),
        ));
    }
    out.extend(check_system(
        inst,
        sol,
        (used, alloc_sum, makespan),
        [act, awt],
        expanded,
    ));
    out.extend(check_certificate(inst, sol, makespan));
    out
}

/// The certificate against the recomputed makespan and bound, and the method against the
/// constraints the solution claims (a file cannot widen its own expand limit).
fn check_certificate(inst: &Instance, sol: &Solution, makespan: i64) -> Vec<Violation> {
    use super::fit::ExpandLimit;
    use super::method::Method;
    let mut out = Vec::new();
    let c = &sol.certificate;
    if c.objective != Some(makespan as f64) {
        out.push(v(
            "objective",
            format!("reported {:?}, recomputed makespan {makespan}", c.objective),
        ));
    }
    let mut lb = super::method::makespan_lower_bound(inst);
    if let Some(proof) = &sol.bound_proof {
        match proof.bound(inst) {
            Ok(b) => lb = lb.max(b),
            Err(why) => out.push(v("bound_proof", why)),
        }
    }
    // A MILP's bound cannot be re-proven here; it may not pass the schedule's own makespan.
    let exact = c.method == Method::Exact.name();
    if exact && c.bound.is_some_and(|b| b > makespan as f64) {
        out.push(v(
            "bound",
            format!(
                "claimed {:?} above the schedule's makespan {makespan}",
                c.bound
            ),
        ));
    }
    if !exact && c.bound.is_some_and(|b| b > lb as f64) {
        out.push(v(
            "bound",
            format!("claimed {:?} above the proven {lb}", c.bound),
        ));
    }
    if c.status == crate::Status::Optimal && c.bound != c.objective {
        out.push(v(
            "optimality",
            "optimal without a matching bound".to_string(),
        ));
    }
    let method: Option<Method> = c.method.parse().ok();
    let consistent = match method {
        None => false,
        Some(Method::Rigid) => sol.rigid,
        Some(Method::Nox) => !sol.rigid && sol.expand_limit == ExpandLimit::NONE,
        Some(Method::Infx | Method::Infxc | Method::Exact) => !sol.rigid,
        Some(Method::X2 | Method::X2c) => {
            !sol.rigid && matches!(sol.expand_limit, ExpandLimit::Finite(_))
        }
    };
    if !consistent {
        out.push(v(
            "method",
            format!(
                "method `{}` does not schedule with expand limit {:?} (rigid: {})",
                c.method, sol.expand_limit, sol.rigid
            ),
        ));
    }
    out
}

/// The system metrics against the recomputed totals.
fn check_system(
    inst: &Instance,
    sol: &Solution,
    (used, alloc, makespan): (i64, i128, i64),
    [act, awt]: [f64; 2],
    expanded: usize,
) -> Vec<Violation> {
    let m = &sol.metrics;
    let n = inst.apps.len() as f64;
    let mut out = Vec::new();
    for (name, got, want) in [
        ("makespan", m.makespan, i128::from(makespan)),
        ("used_area", m.used_area, i128::from(used)),
        ("allocated_area", m.allocated_area, alloc),
    ] {
        if i128::from(got) != want {
            out.push(v(
                "metric",
                format!("system {name}: reported {got}, recomputed {want}"),
            ));
        }
    }
    let floats = [
        (
            "waste_pct",
            m.waste_pct,
            100.0 * (alloc - i128::from(used)) as f64 / used as f64,
        ),
        (
            "effective_utilisation_pct",
            m.effective_utilisation_pct,
            100.0 * used as f64 / (inst.nodes as f64 * makespan as f64),
        ),
        ("avg_completion", m.avg_completion, act / n),
        ("avg_waiting", m.avg_waiting, awt / n),
        ("expanded_pct", m.expanded_pct, 100.0 * expanded as f64 / n),
    ];
    for (name, got, want) in floats {
        if !close(got, want) {
            out.push(v(
                "metric",
                format!("system {name}: reported {got}, recomputed {want}"),
            ));
        }
    }
    out
}
