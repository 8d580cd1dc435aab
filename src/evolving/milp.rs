//! The exact side (`models/evolving.md` §5): a time-indexed MILP solved by HiGHS, the optimum
//! over every schedule (every order, every delay and stretch within the expand limit) of the
//! makespan or of the sum of completion times.
//!
//! Time is cut into slots of `grid` seconds; every duration must be a multiple of it, so the
//! model is exact. `x_ikτ = 1` when step `k` of app `i` starts at slot `τ`; with the cumulative
//! `X_ikτ = Σ_{τ' ≤ τ} x_ikτ'`, step `k < K` is active at `τ` iff `X_ikτ − X_i,k+1,τ = 1` and
//! the last step iff `X_iKτ − X_iK,τ−d_K = 1`, so the capacity row of slot `τ` is linear in
//! `x` with no extra binary. The horizon is the serial makespan `Σ_i Σ_k d_ik`, which a
//! makespan-optimal schedule never needs to exceed (for the sum of completions the optimum is
//! over schedules within it, as for the brute force).

use super::fit::ExpandLimit;
use super::instance::Instance;
use crate::error::{Error, InputError, Location, Result};
use crate::solver::{
    self, Bounds, BuildClock, Deadline, HighsSettings, LinearModel, LinearStatus, RowId, Sense,
};
use serde::{Deserialize, Serialize};

/// What the MILP minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExactObjective {
    /// The latest completion.
    Makespan,
    /// `Σ_i C_i`.
    SumCompletion,
}

/// The MILP's answer, in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactOutcome {
    /// Step starts per app (seconds), when HiGHS found a schedule.
    pub starts: Option<Vec<Vec<i64>>>,
    /// The schedule's objective, seconds.
    pub value: Option<f64>,
    /// HiGHS's proven lower bound, seconds.
    pub bound: Option<f64>,
    /// Proven optimal.
    pub optimal: bool,
    /// Binary variables of the model.
    pub binaries: usize,
    /// Why the model was not built (above `exact_max_binaries`, or the `highs` memory and
    /// time bounds of a model build); `None` when it was.
    pub refused: Option<String>,
}

/// The slot length: the greatest common divisor of every duration (the coarsest exact grid).
pub fn grid(inst: &Instance) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    inst.apps
        .iter()
        .flat_map(|a| a.steps.iter().map(|s| s.duration))
        .fold(0, gcd)
        .max(1)
}

/// The time-indexed MILP as it is solved: the model, its layout, the slot length `g` and the
/// objective's constant (in slots; the schedule's value is `(objective + constant) · g` s).
struct Built {
    model: LinearModel,
    cols: Layout,
    grid: i64,
    constant: f64,
    binaries: usize,
}

/// Builds the time-indexed MILP under `limit`, refusing models above `max_binaries` and,
/// with a `guard`, models the HiGHS settings refuse for the time or memory left (counted
/// before building: `Ok(Err(why))`). The clock ticks once per row and column; once it has
/// expired the build stops and `Ok(Err(why))` says so.
fn model(
    inst: &Instance,
    limit: ExpandLimit,
    objective: ExactObjective,
    max_binaries: usize,
    guard: Option<(&HighsSettings, &Deadline)>,
) -> Result<std::result::Result<Built, String>> {
    let g = grid(inst);
    let slots: Vec<Vec<i64>> = inst
        .apps
        .iter()
        .map(|a| a.steps.iter().map(|s| s.duration / g).collect())
        .collect();
    let horizon: i64 = slots.iter().flatten().sum();
    let binaries: usize = slots.iter().map(|d| d.len() * (horizon as usize + 1)).sum();
    // A step's start column reaches every later capacity row (the cumulative form): about
    // T²/2 coefficients for each step but the last, which reaches only its own d_K rows.
    let t = horizon as u128 + 1;
    let nonzeros: u128 = slots
        .iter()
        .map(|d| (d.len() as u128 - 1) * t * t / 2 + t * (*d.last().unwrap_or(&0) as u128 + 4))
        .sum();
    let max_nonzeros = 40 * max_binaries as u128;
    if binaries > max_binaries || nonzeros > max_nonzeros {
        return Err(InputError::new(
            "<instance>",
            Location::Field("apps".into()),
            format!("{binaries} binaries, {nonzeros} coefficients"),
            format!(
                "the time-indexed MILP (grid {g} s, horizon {horizon} slots) exceeds \
                 exact_max_binaries = {max_binaries} (or 40 coefficients per allowed binary): \
                 a smaller instance or a coarser duration grid"
            ),
        )
        .into());
    }
    let rows = horizon as u64 + slots.iter().map(|d| 2 * d.len() as u64).sum::<u64>();
    let refused = guard.and_then(|(highs, deadline)| {
        let nonzeros = u64::try_from(nonzeros).unwrap_or(u64::MAX);
        highs.refuse_model(rows, binaries as u64 + 1, nonzeros, deadline)
    });
    if let Some(why) = refused {
        return Ok(Err(why));
    }
    let mut clock = BuildClock::new(guard.map_or(&Deadline::none(), |(_, d)| d));
    let (model, cols) = build(inst, &slots, horizon, limit, objective, &mut clock);
    if clock.expired() {
        return Ok(Err("the deadline passed while building the model".into()));
    }
    // The sum of completions counts start slots in the model; the last durations are a constant.
    let constant = match objective {
        ExactObjective::Makespan => 0.0,
        ExactObjective::SumCompletion => slots.iter().map(|d| d[d.len() - 1]).sum::<i64>() as f64,
    };
    Ok(Ok(Built {
        model,
        cols,
        grid: g,
        constant,
        binaries,
    }))
}

/// The time-indexed MILP as CPLEX LP text (or MPS), exactly the model `exact` solves; the
/// header says how its objective (slots) maps to seconds.
pub fn lp_file(
    inst: &Instance,
    limit: ExpandLimit,
    max_binaries: usize,
    source: &str,
    format: solver::ModelFormat,
) -> Result<String> {
    let b = model(inst, limit, ExactObjective::Makespan, max_binaries, None)?
        .map_err(|why| Error::Consistency(format!("the evolving MILP was not built: {why}")))?;
    let comment = vec![
        "Evolving applications: the time-indexed MILP of the least makespan (models/evolving.md section 5)".to_string(),
        format!(
            "instance: {source}: {} apps on {} nodes; expand limit {}",
            inst.apps.len(),
            inst.nodes,
            match limit {
                ExpandLimit::Finite(l) => l.to_string(),
                ExpandLimit::Infinite => "none".into(),
            }
        ),
        format!(
            "slots of {} s: the makespan in seconds is the objective times {}",
            b.grid, b.grid
        ),
    ];
    Ok(format.write(&b.model, &comment))
}

/// Solves the time-indexed MILP under `limit`, refusing models above `max_binaries`.
pub fn solve_exact(
    inst: &Instance,
    limit: ExpandLimit,
    objective: ExactObjective,
    max_binaries: usize,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<ExactOutcome> {
    let refusal = |why: String| ExactOutcome {
        starts: None,
        value: None,
        bound: None,
        optimal: false,
        binaries: 0,
        refused: Some(why),
    };
    let Built {
        model,
        cols,
        grid: g,
        constant,
        binaries,
    } = match model(
        inst,
        limit,
        objective,
        max_binaries,
        Some((highs, deadline)),
    ) {
        Ok(Ok(b)) => b,
        Ok(Err(why)) => return Ok(refusal(why)),
        Err(Error::Input(e)) => return Ok(refusal(e.to_string())),
        Err(e) => return Err(e),
    };
    let (rows, columns) = (model.rows.len() as u64, model.cols.len() as u64);
    let nonzeros = model.cols.iter().map(|c| c.entries.len() as u64).sum();
    if let Some(why) = highs.refuse_model(rows, columns, nonzeros, deadline) {
        return Ok(refusal(why));
    }
    let out = solver::solve(&model, highs, deadline, None)?;
    if out.not_loaded() {
        let why = "the deadline passed while building the model (loading it into HiGHS)";
        return Ok(refusal(why.into()));
    }
    let seconds = |v: f64| (v + constant) * g as f64;
    let mut res = ExactOutcome {
        starts: None,
        value: None,
        bound: out.dual_bound.map(seconds),
        optimal: out.status == LinearStatus::Optimal,
        binaries,
        refused: None,
    };
    match out.status {
        LinearStatus::Infeasible | LinearStatus::Unbounded => {
            return Err(Error::Consistency(format!(
                "the evolving MILP ended {:?}: the serial schedule is always feasible",
                out.status
            )))
        }
        _ => {}
    }
    if let Some(x) = out.columns {
        let starts: Vec<Vec<i64>> = cols
            .iter()
            .map(|app| {
                app.iter()
                    .map(|(first, n)| {
                        let t = (0..*n).find(|&t| x[first + t] > 0.5).unwrap_or(0);
                        t as i64 * g
                    })
                    .collect()
            })
            .collect();
        res.value = out.objective.map(seconds);
        res.starts = Some(starts);
    }
    Ok(res)
}

/// For each app and step: the first column of its `x_ik·` and how many slots it spans.
type Layout = Vec<Vec<(usize, usize)>>;

fn build(
    inst: &Instance,
    slots: &[Vec<i64>],
    horizon: i64,
    limit: ExpandLimit,
    objective: ExactObjective,
    clock: &mut BuildClock,
) -> (LinearModel, Layout) {
    let t_count = horizon as usize + 1;
    let mut m = LinearModel::new(Sense::Minimize);
    let cap: Vec<RowId> = (0..horizon)
        .map(|t| m.add_row(format!("cap_{t}"), Bounds::at_most(inst.nodes as f64)))
        .collect();
    let mut layout: Layout = Vec::new();
    let makespan_rows: Vec<RowId> = (0..inst.apps.len())
        .map(|i| m.add_row(format!("mk_{i}"), Bounds::at_least(0.0)))
        .collect();
    for (i, app) in inst.apps.iter().enumerate() {
        let d = &slots[i];
        let kk = d.len();
        let assign: Vec<RowId> = (0..kk)
            .map(|k| m.add_row(format!("one_{i}_{k}"), Bounds::equal(1.0)))
            .collect();
        // Gap rows S_{k+1} − S_k: equal to d_1 after the first step, within [d, l·d] after
        // the middle ones.
        let gaps: Vec<RowId> = (0..kk.saturating_sub(1))
            .map(|k| {
                let lo = d[k] as f64;
                let hi = if k == 0 {
                    lo
                } else {
                    limit.max_span(d[k]).map_or(f64::INFINITY, |s| s as f64)
                };
                m.add_row(format!("gap_{i}_{k}"), Bounds::new(lo, hi))
            })
            .collect();
        let mut app_layout = Vec::new();
        for k in 0..kk {
            let first = m.cols.len();
            let n_k = app.steps[k].nodes as f64;
            let n_prev = (k > 0).then(|| app.steps[k - 1].nodes as f64);
            for t in 0..t_count {
                if clock.tick() {
                    return (m, layout);
                }
                let last_fits = k + 1 < kk || t as i64 + d[k] <= horizon;
                let mut e = vec![(assign[k], 1.0)];
                if !last_fits {
                    // A last step may not run past the horizon.
                    m.add_col(
                        format!("x_{i}_{k}_{t}"),
                        0.0,
                        Bounds::new(0.0, 0.0),
                        true,
                        e,
                    );
                    continue;
                }
                if k + 1 < kk {
                    e.push((gaps[k], -(t as f64)));
                }
                if k > 0 {
                    e.push((gaps[k - 1], t as f64));
                }
                if k + 1 == kk {
                    e.push((makespan_rows[i], -(t as f64)));
                }
                for (s, row) in cap.iter().enumerate().skip(t) {
                    // Step k holds n_k from its start on — until the next step starts (that
                    // step's column subtracts it), or for d_K slots if it is the last.
                    let holds = k + 1 < kk || (s as i64) < t as i64 + d[k];
                    let mut c = if holds { n_k } else { 0.0 };
                    if let Some(np) = n_prev {
                        c -= np;
                    }
                    if c != 0.0 {
                        e.push((*row, c));
                    }
                }
                let cost = match objective {
                    ExactObjective::SumCompletion if k + 1 == kk => t as f64,
                    _ => 0.0,
                };
                m.add_col(
                    format!("x_{i}_{k}_{t}"),
                    cost,
                    Bounds::new(0.0, 1.0),
                    true,
                    e,
                );
            }
            app_layout.push((first, t_count));
        }
        layout.push(app_layout);
    }
    // M ≥ S_iK + d_iK: M − S_iK ≥ d_iK.
    for (i, row) in makespan_rows.iter().enumerate() {
        let dk = *slots[i].last().expect("an app has a step") as f64;
        m.rows[row.0].bounds = Bounds::at_least(dk);
    }
    let mk_cost = match objective {
        ExactObjective::Makespan => 1.0,
        ExactObjective::SumCompletion => 0.0,
    };
    let entries = makespan_rows.iter().map(|r| (*r, 1.0)).collect();
    m.add_col(
        "makespan",
        mk_cost,
        Bounds::new(0.0, horizon as f64),
        false,
        entries,
    );
    (m, layout)
}
