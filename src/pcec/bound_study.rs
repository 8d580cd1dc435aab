//! Study `pcec-bound`: how far EC, PC and EC-LB are from *any* schedule, by the fluid LP
//! bound, on the traces of the paper's set-up; and on tiny instances, the bound against the
//! best non-delay FCFS dispatch (which it must not exceed).

use super::experiment::{calibrate, load, ExperimentSpec};
use super::fluid::{fluid_bound, FluidBound};
use super::generate::{generate, GenSpec};
use super::method::{Method, Settings};
use super::solve::solve;
use crate::error::{Error, Result};
use crate::solver::Deadline;
use std::fmt::Write;

/// One trace: the bound and the three policies' mean XF at the calibrated factor.
#[derive(Debug, Clone)]
struct TraceBound {
    name: String,
    jobs: usize,
    factor: f64,
    bound: FluidBound,
    xf: Vec<(Method, f64, f64)>,
}

/// Runs the study: the report's Markdown.
pub(crate) fn run(spec: &ExperimentSpec, tiny: &GenSpec, instances: usize) -> Result<String> {
    let mut rows = Vec::new();
    for t in &spec.traces {
        let inst = load(spec, t)?;
        let factor = calibrate(&inst, spec)?;
        let settings = Settings {
            arrival_factor: factor,
            ..spec.settings.clone()
        };
        let bound = fluid_bound(&inst, &settings, &Deadline::none())?;
        let xf = Method::policies()
            .into_iter()
            .map(|m| {
                let s = solve(&inst, m, &settings)?;
                Ok((m, s.summary.mean_xf, s.summary.utilisation))
            })
            .collect::<Result<Vec<_>>>()?;
        log::info!("{}: bound {:?}", t.name, bound);
        rows.push(TraceBound {
            name: t.name.clone(),
            jobs: inst.jobs.len(),
            factor,
            bound,
            xf,
        });
    }
    let mut s = String::new();
    let st = &spec.settings;
    let _ = writeln!(s, "# PC and EC against the fluid LP lower bound\n");
    let _ = writeln!(s, "Set-up of `pcec-paper`: {} PMs × {} VMs (min {}, max {}, share {}), first {} serial jobs per trace, arrival factor giving an offered load of {}. The bound (models/pcec.md §6.1) holds for *every* schedule — preemptive, migrating, not FCFS, not non-delay — on the pooled capacity, so the ratios measure the price of FCFS non-preemptive dispatch as well as the policy's. Windows of {} jobs, {} release slots and {} tail slots per window; HiGHS dual simplex, the value recomputed from the duals by weak duality.\n",
        spec.pms, spec.vms_per_pm, spec.vm.min, spec.vm.max, spec.vm.share, spec.jobs, spec.target_utilisation, st.fluid_window, st.fluid_slots, st.fluid_tail_slots);
    let _ = writeln!(s, "| trace | jobs | arrival factor | windows | largest LP (cols × rows) | trivial bound | **LP bound** | XF EC | XF PC | XF EC-LB | EC/LB | **PC/LB** | EC-LB/LB | LP seconds |");
    let _ = writeln!(
        s,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in &rows {
        let b = &r.bound;
        let x = |m: Method| r.xf.iter().find(|e| e.0 == m).expect("every policy").1;
        let (ec, pc, lb) = (x(Method::Ec), x(Method::Pc), x(Method::EcLb));
        let _ = writeln!(s, "| {} | {} | {:.3} | {}{} | {} × {} | {:.4} | **{:.4}** | {:.3} | {:.3} | {:.3} | {:.2} | **{:.2}** | {:.2} | {:.2} |",
            r.name, r.jobs, r.factor, b.windows,
            if b.fallbacks > 0 { format!(" ({} trivial)", b.fallbacks) } else { String::new() },
            b.max_columns, b.max_rows, b.trivial, b.mean_xf, ec, pc, lb, ec / b.mean_xf, pc / b.mean_xf, lb / b.mean_xf, b.seconds);
    }
    s.push('\n');
    s.push_str(&tiny_table(tiny, instances, st)?);
    Ok(s)
}

/// The bound against the best non-delay FCFS dispatch and PC on tiny instances; an error if
/// the bound ever exceeds a schedule (it would not be a bound).
fn tiny_table(tiny: &GenSpec, instances: usize, st: &Settings) -> Result<String> {
    let (mut best_ratio, mut pc_ratio, mut worst) = (0.0, 0.0, 0.0f64);
    let mut above_trivial = 0;
    for seed in 0..instances as u64 {
        let inst = generate(tiny, seed);
        let b = fluid_bound(&inst, st, &Deadline::none())?;
        let best = solve(&inst, Method::Enumerate, st)?.summary.mean_xf;
        let pc = solve(&inst, Method::Pc, st)?.summary.mean_xf;
        if b.mean_xf > best {
            return Err(Error::Consistency(format!(
                "seed {seed}: fluid bound {} above the best dispatch {best}",
                b.mean_xf
            )));
        }
        above_trivial += usize::from(b.mean_xf > b.trivial * (1.0 + 1e-9));
        best_ratio += best / b.mean_xf / instances as f64;
        pc_ratio += pc / b.mean_xf / instances as f64;
        worst = worst.max(best / b.mean_xf);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## Tiny instances: the bound against the best non-delay FCFS dispatch\n"
    );
    let _ = writeln!(s, "{instances} random instances, {} PMs × {} VMs, {} jobs (mean inter-arrival {} s). The bound is below the best dispatch on every one (checked; the study fails otherwise) and above the trivial bound on {above_trivial}.\n",
        tiny.pms, tiny.vms_per_pm, tiny.jobs, tiny.mean_interarrival);
    let _ = writeln!(
        s,
        "| mean best/LB | worst best/LB | mean PC/LB |\n|---|---|---|"
    );
    let _ = writeln!(s, "| {best_ratio:.4} | {worst:.4} | {pc_ratio:.4} |");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcec::experiment::TraceSpec;

    #[test]
    fn fixture_study_reports_ratios_of_at_least_one() {
        let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/pcec");
        let spec = ExperimentSpec {
            traces: vec![TraceSpec {
                name: "lcg300".into(),
                path: data.join("lcg-head-300.swf.gz"),
                stands_for: "Grid'5000".into(),
            }],
            pms: 3,
            ..ExperimentSpec::default()
        };
        let md = run(&spec, &GenSpec::default(), 12).unwrap();
        let row = md.lines().find(|l| l.starts_with("| lcg300")).unwrap();
        let cells: Vec<&str> = row.split('|').map(|c| c.trim().trim_matches('*')).collect();
        let num = |k: usize| cells[k].parse::<f64>().unwrap();
        let (trivial, lb) = (num(6), num(7));
        assert!(lb >= trivial, "{row}");
        for k in 11..=13 {
            assert!(num(k) >= 1.0, "ratio column {k} below 1: {row}");
        }
        assert!(md.contains("12 random instances"));
    }
}
