//! Figs. 5–7 under every reading of the set-up: the arrival factor calibrated on the measured
//! utilisation or on the offered load, times every EC tie-break (with the paper's equal
//! shares every EC is 0.25, so the tie-break is the EC policy).

use super::experiment::{run, Calibration, ExperimentSpec, Report};
use super::method::{Method, TieBreak};
use crate::error::Result;
use std::fmt::Write;

/// The report of every reading, in table order.
pub fn all(base: &ExperimentSpec) -> Result<Vec<Report>> {
    let mut out = Vec::new();
    for cal in [Calibration::Measured, Calibration::OfferedLoad] {
        for tie in TieBreak::all() {
            let mut spec = base.clone();
            spec.calibration = cal;
            spec.settings.ec_tie_break = tie;
            log::info!("pcec readings: {} / {}", cal.name(), tie.name());
            out.push(run(&spec)?);
        }
    }
    Ok(out)
}

/// Figs. 5–6 and Fig. 7 of every reading, one row per reading and trace.
pub fn to_markdown(reports: &[Report]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## Every reading: calibration × EC tie-break\n");
    let _ = writeln!(s, "Calibration `measured`: the arrival factor makes the PC run's measured utilisation 0.5; `offered-load`: it makes Σ work / (PMs · span) 0.5. EC ties (every EC is 0.25): `pm-major` A1, A2, …, B1 (the paper's sorted list, PMs contiguous); `vm-major` A1, B1, … (= `ec-lb`); `round-robin` PM-major from after the last VM chosen; `random` uniform (seed 1). PC and EC-LB do not depend on the EC tie-break. *PC drain tail*: the share of the PC run's span (first arrival to last completion, the paper's utilisation window) after the last arrival.\n");
    let _ = writeln!(s, "### Figs. 5–6\n\n| calibration | EC ties | trace | factor | util EC / PC | mean XF EC / PC | **ratio EC/PC** | bins in [2,4] | bins ratio min–max | run-time expansion EC / PC | PC drain tail | mean wait EC / PC (s) |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in reports {
        for t in &r.traces {
            let (ec, pc) = (&t.run(Method::Ec).summary, &t.run(Method::Pc).summary);
            let ratios: Vec<f64> = t.bin_ratios().into_iter().flatten().collect();
            let inside = ratios.iter().filter(|x| (2.0..=4.0).contains(*x)).count();
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(0.0, f64::max);
            // Share of the PC run's span after the last arrival (the utilisation counts it).
            let last_arrival = t
                .run(Method::Pc)
                .bins
                .last()
                .map_or(pc.first_submit, |b| b.end);
            let tail = (pc.last_end - last_arrival) / (pc.last_end - pc.first_submit);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.3} | {:.3} / {:.3} | {:.3} / {:.3} | **{:.2}** | {}/{} | {:.2}–{:.2} | {:.2} / {:.2} | {:.2} | {:.0} / {:.0} |",
                r.spec.calibration.name(),
                r.spec.settings.ec_tie_break.name(),
                t.trace.name,
                t.arrival_factor,
                ec.utilisation,
                pc.utilisation,
                ec.mean_xf,
                pc.mean_xf,
                ec.mean_xf / pc.mean_xf,
                inside,
                ratios.len(),
                lo,
                hi,
                ec.mean_runtime_expansion,
                pc.mean_runtime_expansion,
                tail,
                ec.mean_wait,
                pc.mean_wait
            );
        }
    }
    let mults: Vec<f64> = reports
        .first()
        .map_or(Vec::new(), |r| r.spec.multipliers.clone());
    let _ = writeln!(s, "\n### Fig. 7: ratio EC/PC (PC utilisation) per inter-arrival multiplier\n\nPaper (CTC): below 4 everywhere but 4.7 at utilisation 0.65 (multiplier 0.75).\n");
    let _ = writeln!(
        s,
        "| calibration | EC ties | trace | {} |\n|---|---|---|{}",
        mults
            .iter()
            .map(|m| format!("× {m}"))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(mults.len())
    );
    for r in reports {
        for (t, pts) in r.traces.iter().zip(&r.sweeps) {
            let cells: Vec<String> = pts
                .iter()
                .map(|p| format!("{:.2} ({:.2})", p.ratios().0, p.get(Method::Pc).utilisation))
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                r.spec.calibration.name(),
                r.spec.settings.ec_tie_break.name(),
                t.trace.name,
                cells.join(" | ")
            );
        }
    }
    s
}
