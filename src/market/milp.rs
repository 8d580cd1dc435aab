//! The exact rebalancer (`--method milp`, `models/market.md` §3.1): one HiGHS MILP that
//! minimises the largest allocation error `δ` over every placement within `K` and `M`.
//!
//! Why one MILP and no bisection: write node `n`'s clearing price of resource `r` as an
//! *inverse* price `q_n = 1/p_n`. A member `v` then gets `α_vn = min(cap_v, b_v q_n)` — linear
//! in `q_n` once a binary `w_vn` says which side of the `min` is active — and its error window
//! `|α_vn − g_v| ≤ δ·ν_vn` is linear in `δ` and `α` together. With no cap binding this is the
//! issue's window on the node's total bid (`q_n = C_n / B_n`), whose ends
//! `b C_n / (g ± δν)` are not linear in `δ` (hence the bisection); in `q` they are,
//! so HiGHS minimises `δ` itself and its dual bound is the proof.
//!
//! Per node and resource the clearing condition is `Σ_v α_vn = C_n`, or every member capped
//! with `Σ cap ≤ C_n` (binary `h_n`). Given the members, these rows admit exactly the
//! water-filling allocation of `share.rs` (the KKT conditions of Eq. 1), so the model is
//! exact for every VM with a positive bid; a VM with a zero bid and a positive cap (it takes
//! only what positive bidders leave) has its error rows dropped, which keeps the model a
//! relaxation: the bound stays valid and the status comes from the exact evaluation.

use super::instance::{Instance, Res};
use super::placement::{global_ideal, Evaluation};
use super::share::ErrorNorm;
use crate::error::{Error, Result};
use crate::solver::{
    self, Bounds, BuildClock, ColId, Deadline, HighsSettings, LinearModel, LinearStatus, RowId,
    Sense,
};

/// What the MILP found.
#[derive(Debug, Clone)]
pub struct MilpOutcome {
    /// The placement of HiGHS's incumbent, when it has one.
    pub placement: Option<Vec<usize>>,
    /// HiGHS's proven lower bound on the largest error (valid for the true optimum: the
    /// model is exact or a relaxation), when known.
    pub bound: Option<f64>,
    /// HiGHS's status.
    pub status: LinearStatus,
    /// True when every VM-resource pair is modelled exactly (no zero bid with a positive cap).
    pub exact: bool,
    /// Binary variables of the model.
    pub binaries: usize,
    /// False when the deadline passed while the model was being built (nothing was solved).
    pub built: bool,
}

/// `(α, w)` columns per VM and node, `None` where the pair is not modelled.
type PairCols = Vec<Vec<Option<(ColId, ColId)>>>;

/// Columns of the model that the start vector and the decoding need.
struct Layout {
    delta: ColId,
    /// `x[v][n]`.
    x: Vec<Vec<ColId>>,
    /// Per resource: `t[r][n]` (inverse price scaled to [0, 1]) and `h[r][n]`.
    t: [Vec<ColId>; 2],
    h: [Vec<ColId>; 2],
    /// Per resource, per VM and node: `(α, w)` when the pair is modelled.
    aw: [PairCols; 2],
    /// Per resource: the largest inverse price `Q^r` and the unit `U^r` of allocations.
    qmax: [f64; 2],
    unit: [f64; 2],
}

/// The weight `ν` of a VM's error on node `n`: `E_v ≤ δ` iff `|a − g| ≤ δ ν` for each resource.
fn weight(norm: ErrorNorm, node: &Res, cap: &Res, r: usize) -> f64 {
    match norm {
        ErrorNorm::NodeCapacity => node.get(r),
        ErrorNorm::VmCap => cap.get(r),
        ErrorNorm::Absolute => 1.0,
    }
}

/// Builds the MILP; `delta_max` is an error some placement achieves (the start's).
fn build(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    delta_max: f64,
    clock: &mut BuildClock,
) -> Option<(LinearModel, Layout, bool)> {
    let (nn, m) = (inst.nodes.len(), inst.vms.len());
    let (ideal, _) = global_ideal(inst);
    let mut lp = LinearModel::new(Sense::Minimize);
    let mut exact = true;
    // Placement rows.
    let assign: Vec<RowId> = (0..m)
        .map(|v| lp.add_row(format!("assign_{v}"), Bounds::equal(1.0)))
        .collect();
    let k = inst.max_vms_per_node as f64;
    let per_node: Vec<RowId> = (0..nn)
        .map(|n| lp.add_row(format!("k_{n}"), Bounds::at_most(k)))
        .collect();
    let stay = lp.add_row("migrations", Bounds::at_least(m as f64 - migrations as f64));
    let mut x_entries: Vec<Vec<Vec<(RowId, f64)>>> = (0..m)
        .map(|v| {
            (0..nn)
                .map(|n| {
                    let mut e = vec![(assign[v], 1.0), (per_node[n], 1.0)];
                    if inst.vms[v].node == n {
                        e.push((stay, 1.0));
                    }
                    e
                })
                .collect()
        })
        .collect();
    let mut delta_entries = Vec::new();
    let mut t_cols: [Vec<ColId>; 2] = [Vec::new(), Vec::new()];
    let mut h_cols: [Vec<ColId>; 2] = [Vec::new(), Vec::new()];
    let mut aw: [PairCols; 2] = [Vec::new(), Vec::new()];
    let mut qmax = [0.0; 2];
    let mut unit = [1.0; 2];
    for r in 0..2 {
        let priced = |v: usize| inst.vms[v].bid.get(r) > 0.0 && inst.vms[v].cap.get(r) > 0.0;
        exact &= (0..m).all(|v| priced(v) || inst.vms[v].cap.get(r) <= 0.0);
        unit[r] = inst.nodes.iter().map(|c| c.get(r)).fold(0.0, f64::max);
        qmax[r] = (0..m)
            .filter(|&v| priced(v))
            .map(|v| inst.vms[v].cap.get(r) / inst.vms[v].bid.get(r))
            .fold(0.0, f64::max);
        let u = unit[r];
        aw[r] = vec![vec![None; nn]; m];
        for n in 0..nn {
            let cap_n = inst.nodes[n].get(r) / u;
            let supply_hi = lp.add_row(format!("supply_hi_{r}_{n}"), Bounds::at_most(cap_n));
            let supply_lo = lp.add_row(format!("supply_lo_{r}_{n}"), Bounds::at_least(cap_n));
            let mut t_entries = Vec::new();
            let mut h_entries = vec![(supply_lo, cap_n)];
            for v in (0..m).filter(|&v| priced(v)) {
                if clock.tick() {
                    return None;
                }
                let vm = &inst.vms[v];
                let cap = vm.cap.get(r) / u;
                let g = ideal[v].get(r) / u;
                // α at t = 1 when uncapped: b·Q / U (the big-M of the uncapped side).
                let beta = vm.bid.get(r) * qmax[r] / u;
                let nu = weight(norm, &inst.nodes[n], &vm.cap, r) / u;
                let name = |s: &str| format!("{s}_{r}_{v}_{n}");
                let up = lp.add_row(name("cap_x"), Bounds::at_most(0.0)); // α − cap x ≤ 0
                let capped = lp.add_row(name("cap_w"), Bounds::at_least(0.0)); // α − cap w ≥ 0
                let below = lp.add_row(name("bq_hi"), Bounds::at_most(0.0)); // α − βt ≤ 0
                let above = lp.add_row(name("bq_lo"), Bounds::at_least(-beta)); // α − βt − βx + βw ≥ −β
                let w_in_x = lp.add_row(name("w_x"), Bounds::at_most(0.0)); // w − x ≤ 0
                let w_ok = lp.add_row(name("w_t"), Bounds::at_least(0.0)); // βt − cap w ≥ 0
                let all_capped = lp.add_row(name("h"), Bounds::at_most(1.0)); // h + x − w ≤ 1
                let err_hi = lp.add_row(name("e_hi"), Bounds::at_most(g)); // α − νδ ≤ g
                let err_lo = lp.add_row(name("e_lo"), Bounds::at_most(0.0)); // g x − α − νδ ≤ 0
                delta_entries.push((err_hi, -nu));
                delta_entries.push((err_lo, -nu));
                t_entries.extend([(below, -beta), (above, -beta), (w_ok, beta)]);
                h_entries.push((all_capped, 1.0));
                x_entries[v][n].extend([
                    (up, -cap),
                    (above, -beta),
                    (w_in_x, -1.0),
                    (all_capped, 1.0),
                    (err_lo, g),
                ]);
                let a = lp.add_col(
                    name("a"),
                    0.0,
                    Bounds::new(0.0, cap),
                    false,
                    vec![
                        (up, 1.0),
                        (capped, 1.0),
                        (below, 1.0),
                        (above, 1.0),
                        (err_hi, 1.0),
                        (err_lo, -1.0),
                        (supply_hi, 1.0),
                        (supply_lo, 1.0),
                    ],
                );
                let w = lp.add_col(
                    name("w"),
                    0.0,
                    Bounds::new(0.0, 1.0),
                    true,
                    vec![
                        (capped, -cap),
                        (above, beta),
                        (w_in_x, 1.0),
                        (w_ok, -cap),
                        (all_capped, -1.0),
                    ],
                );
                aw[r][v][n] = Some((a, w));
            }
            t_cols[r].push(lp.add_col(
                format!("t_{r}_{n}"),
                0.0,
                Bounds::new(0.0, 1.0),
                false,
                t_entries,
            ));
            h_cols[r].push(lp.add_col(
                format!("h_{r}_{n}"),
                0.0,
                Bounds::new(0.0, 1.0),
                true,
                h_entries,
            ));
        }
    }
    let delta = lp.add_col(
        "delta",
        1.0,
        Bounds::new(0.0, delta_max),
        false,
        delta_entries,
    );
    let x = x_entries
        .into_iter()
        .enumerate()
        .map(|(v, row)| {
            row.into_iter()
                .enumerate()
                .map(|(n, e)| lp.add_col(format!("x_{v}_{n}"), 0.0, Bounds::new(0.0, 1.0), true, e))
                .collect()
        })
        .collect();
    let layout = Layout {
        delta,
        x,
        t: t_cols,
        h: h_cols,
        aw,
        qmax,
        unit,
    };
    Some((lp, layout, exact))
}

/// The column vector of a placement (HiGHS's first incumbent): allocations from the real
/// water-filling, the inverse prices and capped flags that reproduce them.
fn start_vector(inst: &Instance, lay: &Layout, ev: &Evaluation, cols: usize) -> Vec<f64> {
    let mut s = vec![0.0; cols];
    s[lay.delta.0] = ev.max_error();
    for (v, &n) in ev.placement.iter().enumerate() {
        s[lay.x[v][n].0] = 1.0;
    }
    for r in 0..2 {
        let u = lay.unit[r];
        for n in 0..inst.nodes.len() {
            // The largest allocation-to-bid ratio among uncapped members fixes q; with every
            // member capped any q ≥ max cap/b works, so take Q.
            let mut q: Option<f64> = None;
            let mut all_capped = true;
            let mut sum = 0.0;
            for &v in &ev.members[n] {
                if let Some((a, w)) = lay.aw[r][v][n] {
                    let vm = &inst.vms[v];
                    let alloc = ev.alloc[v].get(r);
                    sum += alloc;
                    s[a.0] = alloc / u;
                    if alloc >= vm.cap.get(r) {
                        s[w.0] = 1.0;
                    } else {
                        all_capped = false;
                        q = Some(alloc / vm.bid.get(r));
                    }
                }
            }
            let q = q.unwrap_or(lay.qmax[r]);
            s[lay.t[r][n].0] = if lay.qmax[r] > 0.0 {
                (q / lay.qmax[r]).min(1.0)
            } else {
                0.0
            };
            let full = sum >= inst.nodes[n].get(r) * (1.0 - 1e-12);
            s[lay.h[r][n].0] = if all_capped && !full { 1.0 } else { 0.0 };
        }
    }
    s
}

/// The MILP [`exact_rebalance`] solves from `start`, as CPLEX LP or MPS.
pub fn lp_file(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    start: &[usize],
    source: &str,
    format: solver::ModelFormat,
) -> Result<String> {
    let ev = Evaluation::new(inst, start.to_vec(), norm);
    let delta_max = ev.max_error() * (1.0 + 1e-7) + 1e-7;
    let never = &mut BuildClock::new(&Deadline::none());
    let (lp, _, exact) = build(inst, migrations, norm, delta_max, never)
        .ok_or_else(|| Error::Consistency("the rebalance MILP build stopped".into()))?;
    let comment = vec![
        "Rebalance: the exact MILP of the least largest allocation error (models/market.md section 3.1)".into(),
        format!(
            "instance: {source}: {} nodes, {} VMs, at most {migrations} migrations, error norm {norm:?}",
            inst.nodes.len(),
            inst.vms.len()
        ),
        format!(
            "delta is capped at {delta_max} (the tabu start's error); the model is {}",
            if exact {
                "exact: its optimum is the least largest error"
            } else {
                "a relaxation (zero-bid VMs): its optimum is a lower bound"
            }
        ),
    ];
    Ok(format.write(&lp, &comment))
}

/// Solves the exact rebalancing MILP from the placement `start` (its error caps `δ`).
pub fn exact_rebalance(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    start: &[usize],
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<MilpOutcome> {
    let ev = Evaluation::new(inst, start.to_vec(), norm);
    // A little room above the start's error so that it stays feasible after round-off.
    let delta_max = ev.max_error() * (1.0 + 1e-7) + 1e-7;
    let mut clock = BuildClock::new(deadline);
    let Some((lp, lay, exact)) = build(inst, migrations, norm, delta_max, &mut clock) else {
        // The deadline passed while building: no model, the caller keeps its start.
        return Ok(MilpOutcome {
            placement: None,
            bound: None,
            status: LinearStatus::NoSolution,
            exact: false,
            binaries: 0,
            built: false,
        });
    };
    let binaries = lp.cols.iter().filter(|c| c.integer).count();
    let x0 = start_vector(inst, &lay, &ev, lp.cols.len());
    log::debug!(
        "rebalance MILP: {} rows, {} columns ({binaries} binary), start violation {:.2e}",
        lp.rows.len(),
        lp.cols.len(),
        lp.max_violation(&x0)
    );
    let out = solver::solve(&lp, highs, deadline, Some(&x0))?;
    let placement = out.columns.as_ref().map(|c| {
        lay.x
            .iter()
            .map(|row| {
                let best = row
                    .iter()
                    .enumerate()
                    .max_by(|a, b| c[a.1 .0].total_cmp(&c[b.1 .0]));
                best.map_or(0, |(n, _)| n)
            })
            .collect()
    });
    Ok(MilpOutcome {
        placement,
        bound: out.dual_bound.map(|b| b.max(0.0)),
        status: out.status,
        exact,
        binaries,
        built: !out.not_loaded(),
    })
}

/// The relaxation's model: the MILP of [`exact_rebalance`] with `δ ≤ delta_max` and every
/// integrality dropped.
pub fn relaxation(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    delta_max: f64,
) -> LinearModel {
    // No deadline: the clock never expires, so the model is always built.
    let mut clock = BuildClock::new(&Deadline::none());
    build(inst, migrations, norm, delta_max, &mut clock)
        .expect("a build without a deadline completes")
        .0
        .relaxed()
}

/// Solves the LP relaxation and certifies its row duals by weak duality: the multipliers
/// and the bound they prove, `None` when HiGHS gives no duals (a limit, a failure).
pub fn relaxation_bound(
    inst: &Instance,
    migrations: usize,
    norm: ErrorNorm,
    delta_max: f64,
    highs: &HighsSettings,
    deadline: &Deadline,
) -> Result<Option<(Vec<f64>, f64)>> {
    let lp = relaxation(inst, migrations, norm, delta_max);
    let out = solver::solve(&lp, highs, deadline, None)?;
    Ok(out
        .row_duals
        .and_then(|y| solver::weak_duality::certify(&lp, &y)))
}

#[cfg(test)]
mod relaxation_study {
    use super::*;
    use crate::market::generate::{generate, GenSpec};

    /// Not a test: how the LP relaxation compares with the closed forms and the optimum.
    #[test]
    #[ignore]
    fn relaxation_against_the_closed_forms() {
        for seed in 1..=40u64 {
            let spec = GenSpec {
                nodes_min: 3,
                nodes_max: 8,
                migrations: [0, 1, 2, 3, 4][seed as usize % 5],
                ..GenSpec::default()
            };
            let inst = generate(&spec, seed);
            let norm = ErrorNorm::NodeCapacity;
            let m = inst.migrations;
            let start: Vec<usize> = inst.vms.iter().map(|v| v.node).collect();
            let dl = Deadline::after(Some(5.0));
            let ex = crate::market::exact::exact_search(&inst, m, norm, &start, &dl);
            let untouched = crate::market::rebalance::untouched_bound(&inst, norm, m);
            let t = std::time::Instant::now();
            let dmax = ex.max_error * (1.0 + 1e-7) + 1e-7;
            let lp = relaxation_bound(
                &inst,
                m,
                norm,
                dmax,
                &HighsSettings::default(),
                &Deadline::after(Some(20.0)),
            )
            .unwrap()
            .map(|x| x.1);
            println!(
                "seed {seed:3} n {:2} vms {:3} M {m}: opt {:.4} ({}) untouched {:.4} root {:.4} lp {:?} ({:.2}s)",
                inst.nodes.len(),
                inst.vms.len(),
                ex.max_error,
                ex.complete,
                untouched,
                ex.root_bound,
                lp,
                t.elapsed().as_secs_f64()
            );
        }
    }
}
