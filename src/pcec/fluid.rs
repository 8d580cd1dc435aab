//! A lower bound on the mean expansion factor of *any* schedule: a time-indexed fluid LP
//! (HiGHS), per window of consecutive jobs, its value certified by weak duality.
//!
//! The relaxation (models/pcec.md §6.1 has the proof): pool the cluster into one machine of
//! capacity `Cap = min(pms·pCap, VMs·R)`, let every job run at any rate in `[0, R]`,
//! `R = min(max, pCap)`, preemptively, from its release on. On a grid of slots, `u_{j,s}` is
//! the fraction of job j's work done in slot s. A job whose mean busy time is `M_j` and whose
//! rate never exceeds R ends no earlier than `M_j + p_j/(2R)`; the mean busy time is at least
//! the work-weighted slot starts (never earlier than the release). Per job (times relative
//! to its release `r_j`, `o_{j,s} = max(τ_s, r_j) − r_j`):
//!
//! ```text
//! min Σ_j F_j / D_j                       D_j = max(threshold, p_j/R),  F_j = C_j − r_j
//! Σ_s u_{j,s} = 1                         (all of j's work is done)
//! u_{j,s} ≤ R·(τ_{s+1} − max(τ_s, r_j))/p_j   (rate ≤ R inside the slot, after the release)
//! Σ_j p_j u_{j,s} ≤ Cap·(τ_{s+1} − τ_s)   (pooled capacity; no row for the last, open slot)
//! F_j − Σ_s o_{j,s} u_{j,s} ≥ p_j/(2R),   F_j ≥ p_j/R
//! ```
//!
//! Windows: the jobs in release order, cut into chunks. Any schedule of all the jobs,
//! restricted to one chunk's jobs, satisfies that chunk's LP (the other jobs only used
//! capacity), so the sum of the chunks' LP values is at most the schedule's `Σ F_j/D_j`.
//!
//! The value reported is not HiGHS's objective but the weak-duality bound of its row duals
//! ([`crate::solver::weak_duality`]: any multipliers give a valid bound, evaluated with
//! outward rounding), so tolerances cannot make it invalid. Those multipliers, every window's
//! in turn, are the answer's `dual` proof (`fluid-lp`): [`check`] re-derives the bound from
//! the instance, the settings and them alone. A window whose LP does not solve to optimality
//! within the deadline contributes the trivial bound `Σ p_j/R / D_j` (multipliers 0).

use super::instance::Instance;
use super::method::Settings;
use crate::colgen::safe::sum_down;
use crate::error::Result;
use crate::solver::weak_duality::{self, Refused};
use crate::solver::{
    self, Bounds, BuildClock, Deadline, HighsSettings, LinearModel, LinearStatus, Sense,
};
use serde::{Deserialize, Serialize};

/// The name of the relaxation in a `dual` proof.
pub const LP_NAME: &str = "fluid-lp";

/// The bound and what it cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FluidBound {
    /// Lower bound on the mean XF of any schedule (≥ the trivial bound).
    pub mean_xf: f64,
    /// The trivial bound `mean p_j/R / max(threshold, p_j/R)`, for comparison.
    pub trivial: f64,
    /// Windows solved.
    pub windows: usize,
    /// Windows that fell back to the trivial bound (deadline or solver status).
    pub fallbacks: usize,
    /// Of those, windows whose LP was not built: the deadline had passed before or while
    /// building it (their multipliers are 0, so they count their trivial bound).
    pub not_built: usize,
    /// Largest LP: columns and rows.
    pub max_columns: usize,
    /// Rows of that LP.
    pub max_rows: usize,
    /// Wall-clock seconds, building and solving.
    pub seconds: f64,
    /// The multipliers of every window's rows, window after window (0 for a window that fell
    /// back): the proof [`check`] re-derives `mean_xf` from.
    #[serde(skip)]
    pub duals: Vec<f64>,
}

/// One job as the LP sees it (scaled release, work, XF denominator).
#[derive(Debug, Clone, Copy)]
struct LpJob {
    release: f64,
    work: f64,
    denominator: f64,
}

/// The bound for `inst` under `settings` (arrival factor, threshold, window and grid sizes).
pub fn fluid_bound(
    inst: &Instance,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<FluidBound> {
    let began = std::time::Instant::now();
    let (jobs, rate, cap) = lp_jobs(inst, settings);
    let n = jobs.len().max(1) as f64;
    let mut out = FluidBound {
        mean_xf: 0.0,
        trivial: 0.0,
        windows: 0,
        fallbacks: 0,
        not_built: 0,
        max_columns: 0,
        max_rows: 0,
        seconds: 0.0,
        duals: Vec::new(),
    };
    // Dual simplex: 3.6x faster than the crate's primal default on these LPs (300 LCG jobs,
    // 300 slots: 1.2 s against 4.4 s).
    let highs = HighsSettings {
        simplex_strategy: 1,
        ..HighsSettings::default()
    };
    let mut values = Vec::new();
    let mut trivials = Vec::new();
    for chunk in jobs.chunks(settings.fluid_window) {
        trivials.push(trivial_down(chunk, rate));
        out.windows += 1;
        // Too large for the time or memory left (counted before building), or the deadline
        // passed before or while building (issue 36): the window is left out of the LP work,
        // with multipliers 0 for its rows (the trivial bound, as `check` finds).
        let (rows, cols, nonzeros) = window_size(chunk, rate, cap, settings);
        let refused = highs.refuse_model(rows, cols, nonzeros, deadline);
        if let Some(why) = &refused {
            log::debug!("fluid LP window {}: {why}: not built", out.windows);
        }
        let mut clock = BuildClock::new(deadline);
        let built = (refused.is_none() && !deadline.expired())
            .then(|| window_model(chunk, rate, cap, settings, &mut clock))
            .flatten();
        let Some(model) = built else {
            out.fallbacks += 1;
            out.not_built += 1;
            values.push(trivial_down(chunk, rate));
            out.duals.extend(std::iter::repeat_n(0.0, rows as usize));
            continue;
        };
        if model.cols.len() > out.max_columns {
            out.max_columns = model.cols.len();
            out.max_rows = model.rows.len();
        }
        let solved = if deadline.expired() {
            None
        } else {
            Some(solver::solve(&model, &highs, deadline, None)?)
        };
        if solved.as_ref().is_none_or(|s| s.not_loaded()) {
            out.not_built += 1;
        }
        let certified = solved
            .filter(|s| s.status == LinearStatus::Optimal)
            .and_then(|s| s.row_duals)
            .and_then(|y| weak_duality::certify(&model, &y));
        let y = match certified {
            Some((y, _)) => y,
            None => {
                out.fallbacks += 1;
                vec![0.0; model.rows.len()]
            }
        };
        values.push(window_value(&model, chunk, rate, &y).expect("the multipliers fit"));
        out.duals.extend(y);
    }
    out.mean_xf = mean_down(&values, n);
    out.trivial = mean_down(&trivials, n);
    out.seconds = began.elapsed().as_secs_f64();
    log::debug!(
        "fluid bound {} (trivial {}), {} windows, {} fallbacks ({} not built), {:.2} s",
        out.mean_xf,
        out.trivial,
        out.windows,
        out.fallbacks,
        out.not_built,
        out.seconds
    );
    Ok(out)
}

/// `Σ_j (p_j/R) / D_j` over `jobs`, rounded down: the trivial bound's numerator.
fn trivial_down(jobs: &[LpJob], rate: f64) -> f64 {
    sum_down(
        jobs.iter()
            .map(|j| div_down(div_down(j.work, rate), j.denominator)),
    )
}

/// `a / b` rounded down (`b > 0`): the quotient, or the float below it when it came out
/// above the exact value (the residual `q·b − a`, exact by a fused multiply-add, says so).
fn div_down(a: f64, b: f64) -> f64 {
    let q = a / b;
    if q.abs() < crate::colgen::safe::TINY || q.mul_add(b, -a) > 0.0 {
        q.next_down()
    } else {
        q
    }
}

/// `Σ values / n`, rounded down.
fn mean_down(values: &[f64], n: f64) -> f64 {
    div_down(sum_down(values.iter().copied()), n).max(0.0)
}

/// One window's bound at multipliers `y`: weak duality at `y` moved into the dual-feasible
/// signs ([`weak_duality::clip`]), floored at the window's trivial bound (both valid).
fn window_value(
    model: &LinearModel,
    chunk: &[LpJob],
    rate: f64,
    y: &[f64],
) -> Result<f64, Refused> {
    weak_duality::fits(model, y)?;
    let b = weak_duality::bound(model, &weak_duality::clip(model, y))?;
    Ok(b.max(trivial_down(chunk, rate)))
}

/// Re-derives the fluid bound on the mean XF from the instance, the settings (arrival
/// factor, threshold, windows and grid) and the multipliers `duals` of a `fluid-lp` proof
/// alone (issue 37): every window's LP rebuilt, its bound recomputed by weak duality with
/// outward rounding. Any vector of the right length and finite gives a valid bound (a wrong
/// one a weaker bound); `Err` names what does not fit.
pub fn check(inst: &Instance, settings: &Settings, duals: &[f64]) -> Result<f64, String> {
    let (jobs, rate, cap) = lp_jobs(inst, settings);
    let mut values = Vec::new();
    let mut at = 0;
    for (k, chunk) in jobs.chunks(settings.fluid_window.max(1)).enumerate() {
        let model = window_model_whole(chunk, rate, cap, settings);
        let rows = model.rows.len();
        let Some(y) = duals.get(at..at + rows) else {
            return Err(format!(
                "the fluid-lp proof has {} dual values; window {k} needs rows {at}..{}",
                duals.len(),
                at + rows
            ));
        };
        at += rows;
        values.push(window_value(&model, chunk, rate, y).map_err(|e| format!("window {k}: {e}"))?);
    }
    if at != duals.len() {
        return Err(format!(
            "the fluid-lp proof has {} dual values for {at} rows",
            duals.len()
        ));
    }
    Ok(mean_down(&values, jobs.len().max(1) as f64))
}

/// The jobs as the LP sees them, in release order, with the rate cap `R` and the pooled
/// capacity `Cap`.
fn lp_jobs(inst: &Instance, settings: &Settings) -> (Vec<LpJob>, f64, f64) {
    let rate = inst.vm.max.min(inst.pcap);
    let cap = (inst.pms as f64 * inst.pcap).min(inst.vm_count() as f64 * rate);
    let mut jobs: Vec<LpJob> = inst
        .jobs
        .iter()
        .map(|j| LpJob {
            release: j.submit * settings.arrival_factor,
            work: j.work,
            denominator: settings.xf_threshold.max(inst.ideal_runtime(j.work)),
        })
        .collect();
    jobs.sort_by(|a, b| a.release.total_cmp(&b.release));
    (jobs, rate, cap)
}

/// Every window's LP as one model (independent blocks, rows and columns prefixed `w{k}_`):
/// its optimum divided by the job count is the fluid bound before the trivial floor of each
/// window, as CPLEX LP or MPS.
pub fn lp_file(
    inst: &Instance,
    settings: &Settings,
    source: &str,
    format: solver::ModelFormat,
) -> String {
    let (jobs, rate, cap) = lp_jobs(inst, settings);
    let mut all = LinearModel::new(Sense::Minimize);
    for (k, chunk) in jobs.chunks(settings.fluid_window).enumerate() {
        all.append(
            window_model_whole(chunk, rate, cap, settings),
            &format!("w{k}_"),
        );
    }
    let comment = vec![
        "PC/EC: the fluid LP bound on the mean expansion factor (models/pcec.md section 6.1)".into(),
        format!(
            "instance: {source}: {} jobs, {} PMs x {} VMs; windows of {} jobs (w<k>_ prefixes)",
            jobs.len(),
            inst.pms,
            inst.vms_per_pm,
            settings.fluid_window
        ),
        format!(
            "the bound on the mean XF is the objective divided by {} (each window floored at its trivial bound)",
            jobs.len()
        ),
    ];
    format.write(&all, &comment)
}

/// The slot starts of a window: its distinct releases, thinned to at most
/// `settings.fluid_slots`, then `settings.fluid_tail_slots` slots after the last release,
/// closer together near it, up to a horizon past which one open slot takes the rest.
fn grid(chunk: &[LpJob], rate: f64, cap: f64, settings: &Settings) -> Vec<f64> {
    let mut releases: Vec<f64> = chunk.iter().map(|j| j.release).collect();
    releases.dedup();
    let step = releases.len().div_ceil(settings.fluid_slots).max(1);
    let mut starts: Vec<f64> = releases.iter().step_by(step).copied().collect();
    let last = *releases.last().expect("a window has jobs");
    let backlog: f64 = chunk.iter().map(|j| j.work).sum::<f64>() / cap;
    let longest = chunk.iter().map(|j| j.work / rate).fold(0.0, f64::max);
    let span = backlog + longest;
    let k = settings.fluid_tail_slots;
    for i in 0..=k {
        let f = i as f64 / k as f64;
        let t = last + span * f * f;
        if t > *starts.last().expect("non-empty") {
            starts.push(t);
        }
    }
    starts
}

/// Rows, columns and nonzeros (at most) of one window's LP ([`window_model`]), counted
/// without building it: work and completion rows (one per job each), capacity rows (one per
/// closed slot); a `u_{j,s}` per slot from j's release on (three entries at most) and an
/// `F_j` per job.
fn window_size(chunk: &[LpJob], rate: f64, cap: f64, settings: &Settings) -> (u64, u64, u64) {
    let starts = grid(chunk, rate, cap, settings);
    let slots = starts.len();
    let (mut cols, mut nonzeros) = (chunk.len() as u64, chunk.len() as u64);
    for job in chunk {
        let first = starts
            .partition_point(|&t| t <= job.release)
            .saturating_sub(1);
        cols += (slots - first) as u64;
        nonzeros += 3 * (slots - first) as u64;
    }
    ((2 * chunk.len() + slots - 1) as u64, cols, nonzeros)
}

/// [`window_model`] built to the end (no deadline: `check`, the export).
fn window_model_whole(chunk: &[LpJob], rate: f64, cap: f64, settings: &Settings) -> LinearModel {
    window_model(
        chunk,
        rate,
        cap,
        settings,
        &mut BuildClock::new(&Deadline::none()),
    )
    .expect("no deadline")
}

/// The LP of one window (see the module comment). Columns: every `u_{j,s}` for the slots
/// from j's release on, then the `F_j`. Rows: work (one per job), capacity (one per closed
/// slot), completion (one per job). `None` once `clock` sees the deadline pass (a tick per
/// column).
fn window_model(
    chunk: &[LpJob],
    rate: f64,
    cap: f64,
    settings: &Settings,
    clock: &mut BuildClock,
) -> Option<LinearModel> {
    let starts = grid(chunk, rate, cap, settings);
    let slots = starts.len();
    let mut m = LinearModel::new(Sense::Minimize);
    let work: Vec<_> = (0..chunk.len())
        .map(|j| m.add_row(format!("work_{j}"), Bounds::equal(1.0)))
        .collect();
    let capacity: Vec<_> = (0..slots - 1)
        .map(|s| {
            let width = starts[s + 1] - starts[s];
            m.add_row(format!("cap_{s}"), Bounds::at_most(cap * width))
        })
        .collect();
    let done: Vec<_> = chunk
        .iter()
        .enumerate()
        .map(|(j, job)| {
            m.add_row(
                format!("end_{j}"),
                Bounds::at_least(job.work / (2.0 * rate)),
            )
        })
        .collect();
    for (j, job) in chunk.iter().enumerate() {
        let first = starts
            .partition_point(|&t| t <= job.release)
            .saturating_sub(1);
        for s in first..slots {
            if clock.tick() {
                return None;
            }
            let from = starts[s].max(job.release);
            let (upper, mut entries) = match starts.get(s + 1) {
                Some(&to) => (
                    (rate * (to - from) / job.work).min(1.0),
                    vec![(work[j], 1.0), (capacity[s], job.work)],
                ),
                None => (1.0, vec![(work[j], 1.0)]),
            };
            let offset = from - job.release;
            if offset > 0.0 {
                entries.push((done[j], -offset));
            }
            m.add_col(
                format!("u_{j}_{s}"),
                0.0,
                Bounds::new(0.0, upper),
                false,
                entries,
            );
        }
    }
    for (j, job) in chunk.iter().enumerate() {
        let lower = job.work / rate;
        m.add_col(
            format!("F_{j}"),
            1.0 / job.denominator,
            Bounds::at_least(lower),
            false,
            vec![(done[j], 1.0)],
        );
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcec::tests::inst;
    use crate::pcec::{generate, solve, GenSpec, Method, VmSpec};

    fn bound(i: &Instance, st: &Settings) -> FluidBound {
        fluid_bound(i, st, &Deadline::after(None)).unwrap()
    }

    #[test]
    fn two_jobs_on_one_machine_are_bounded_between_trivial_and_optimal() {
        // Both released at 0, 100 s each, one PM: any schedule has Σ C ≥ 100 + 200, mean XF
        // ≥ 1.5 (reached by running one then the other); trivial bound 1.
        let i = inst(1, 2, &[(0.0, 100.0), (0.0, 100.0)]);
        let b = bound(&i, &Settings::default());
        assert_eq!(b.trivial, 1.0);
        assert!(b.mean_xf > 1.2 && b.mean_xf <= 1.5 + 1e-12, "{b:?}");
        assert_eq!(b.fallbacks, 0);
    }

    #[test]
    fn windows_past_the_deadline_are_not_built_and_count_their_trivial_bound() {
        let spec = GenSpec {
            pms: 3,
            vms_per_pm: 4,
            jobs: 120,
            mean_interarrival: 6.0,
            ..GenSpec::default()
        };
        let i = generate(&spec, 3);
        let st = Settings {
            fluid_window: 40,
            ..Settings::default()
        };
        let full = bound(&i, &st);
        assert_eq!((full.windows, full.not_built), (3, 0));
        assert!(full.mean_xf > full.trivial, "{full:?}");
        // Passed before the first window: none built, the trivial bound, and the zero
        // multipliers have each window's row count (`check` re-derives the same bound).
        let late = fluid_bound(&i, &st, &Deadline::after(Some(0.0))).unwrap();
        assert_eq!((late.windows, late.not_built, late.fallbacks), (3, 3, 3));
        assert_eq!(late.mean_xf, late.trivial);
        assert_eq!(late.duals.len(), full.duals.len());
        let checked = check(&i, &st, &late.duals).unwrap();
        assert!(
            checked >= late.mean_xf && checked <= full.mean_xf,
            "{checked}"
        );
        // A clock that has already expired stops the build at its first reading.
        let (jobs, rate, cap) = lp_jobs(&i, &st);
        let mut clock = BuildClock::new(&Deadline::after(Some(0.0)));
        let mut ticks = 0;
        while !clock.tick() {
            ticks += 1;
        }
        assert_eq!(ticks + 1, BuildClock::EVERY as usize);
        let whole = window_model_whole(&jobs, rate, cap, &st);
        let (rows, cols, nonzeros) = window_size(&jobs, rate, cap, &st);
        let entries: usize = whole.cols.iter().map(|c| c.entries.len()).sum();
        assert_eq!(
            (whole.rows.len(), whole.cols.len()),
            (rows as usize, cols as usize)
        );
        assert!(entries as u64 <= nonzeros && 2 * entries as u64 >= nonzeros);
        if whole.cols.len() >= BuildClock::EVERY as usize {
            let mut c = BuildClock::new(&Deadline::after(Some(0.0)));
            assert!(window_model(&jobs, rate, cap, &st, &mut c).is_none());
        }
    }

    #[test]
    fn below_every_policy_and_the_enumeration() {
        let st = Settings::default();
        let mut above_trivial = 0;
        for seed in 0..25 {
            let spec = GenSpec {
                jobs: 3 + seed as usize % 6,
                mean_interarrival: 12.0,
                ..GenSpec::default()
            };
            let i = generate(&spec, seed);
            let b = bound(&i, &st);
            assert!(b.mean_xf >= b.trivial);
            above_trivial += usize::from(b.mean_xf > b.trivial * (1.0 + 1e-6));
            let best = solve(&i, Method::Enumerate, &st).unwrap();
            assert!(
                b.mean_xf <= best.summary.mean_xf,
                "seed {seed}: {b:?} vs {}",
                best.summary.mean_xf
            );
        }
        assert!(above_trivial >= 5, "the LP adds nothing: {above_trivial}");
        for seed in 0..6 {
            let spec = GenSpec {
                pms: 3,
                vms_per_pm: 4,
                jobs: 150,
                mean_interarrival: 6.0,
                vm: if seed % 2 == 0 {
                    VmSpec::default()
                } else {
                    VmSpec {
                        min: 0.1,
                        max: 0.6,
                        share: 1.0,
                    }
                },
                ..GenSpec::default()
            };
            let i = generate(&spec, 50 + seed);
            let windowed = Settings {
                fluid_window: 40,
                fluid_slots: 15,
                ..st.clone()
            };
            for s in [&st, &windowed] {
                let b = bound(&i, s);
                assert!(b.mean_xf > b.trivial, "seed {seed}: {b:?}");
                for m in Method::policies() {
                    let x = solve(&i, m, s).unwrap().summary.mean_xf;
                    assert!(b.mean_xf <= x, "seed {seed} {}: {b:?} above {x}", m.name());
                }
            }
        }
    }

    /// `check` re-derives the reported bound from the instance and the multipliers alone,
    /// never above the best dispatch; doctored multipliers give a weaker bound or are refused.
    #[test]
    fn the_proof_is_re_derived_and_doctored_duals_fall() {
        let mut above = 0;
        for seed in 0..30 {
            let spec = GenSpec {
                jobs: 3 + seed as usize % 6,
                mean_interarrival: 8.0,
                ..GenSpec::default()
            };
            let i = generate(&spec, 100 + seed);
            let st = Settings {
                fluid_window: 1 + seed as usize % 5,
                ..Settings::default()
            };
            let b = bound(&i, &st);
            let again = check(&i, &st, &b.duals).unwrap();
            assert_eq!(again, b.mean_xf, "seed {seed}");
            let best = solve(&i, Method::Enumerate, &st).unwrap().summary.mean_xf;
            assert!(again <= best, "seed {seed}: {again} above {best}");
            above += usize::from(again > b.trivial);
            for f in [-1.0, 0.0, 0.5, 2.0, 1e3] {
                let d: Vec<f64> = b.duals.iter().map(|y| y * f).collect();
                let x = check(&i, &st, &d).unwrap();
                assert!(x <= best && x >= b.trivial, "seed {seed} ×{f}: {x}");
            }
            let mut d = b.duals.clone();
            d.push(0.0);
            assert!(check(&i, &st, &d).is_err());
            assert!(check(&i, &st, &b.duals[1..]).is_err());
            d = b.duals.clone();
            d[0] = f64::NAN;
            assert!(check(&i, &st, &d).is_err());
            d[0] = f64::INFINITY;
            assert!(check(&i, &st, &d).is_err());
        }
        assert!(
            above >= 5,
            "the LP beat the trivial bound {above} times only"
        );
    }

    #[test]
    fn dual_bound_matches_the_lp_value() {
        let i = generate(
            &GenSpec {
                pms: 2,
                vms_per_pm: 4,
                jobs: 60,
                mean_interarrival: 4.0,
                ..GenSpec::default()
            },
            3,
        );
        let st = Settings::default();
        let rate = 1.0;
        let jobs: Vec<LpJob> = i
            .jobs
            .iter()
            .map(|j| LpJob {
                release: j.submit,
                work: j.work,
                denominator: j.work.max(10.0),
            })
            .collect();
        let m = window_model_whole(&jobs, rate, 2.0, &st);
        let s = solver::solve(&m, &HighsSettings::default(), &Deadline::after(None), None).unwrap();
        let lp = s.objective.unwrap();
        let (_, safe) = weak_duality::certify(&m, s.row_duals.as_ref().unwrap()).unwrap();
        assert!(
            safe <= lp + 1e-9 * lp && safe >= lp * (1.0 - 1e-6),
            "{safe} vs {lp}"
        );
        // A wrong dual vector still gives a valid (weak) bound.
        let zero = weak_duality::bound(&m, &vec![0.0; m.rows.len()]).unwrap();
        assert!(zero <= lp);
    }
}
