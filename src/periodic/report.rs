//! `report.md` of the periodic sweep: Belaid 2015 §5.3 (machines over the lower bound per
//! scenario and method, CG iterations and time).

use crate::experiment::{cell, max, mean, methods_of, Plot, Row};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

pub fn periodic_report(out: &mut String, rs: &[&Row], plots: &mut Vec<Plot>) {
    let methods = methods_of(rs);
    // The instance's best proven lower bound over all methods.
    let mut lb: BTreeMap<&str, f64> = BTreeMap::new();
    for r in rs {
        if let Some(b) = r.bound {
            let e = lb.entry(r.instance.as_str()).or_insert(b);
            *e = e.max(b);
        }
    }
    let scenarios: BTreeSet<(String, String)> = rs
        .iter()
        .filter_map(|r| {
            Some((
                r.text("tasks").map(String::from)?,
                r.text("amplitude").map(String::from)?,
            ))
        })
        .collect();
    let groups: Vec<String> = scenarios.iter().map(|(t, a)| format!("{t}/{a}")).collect();
    let in_scenario = |r: &Row, (t, a): &(String, String)| {
        r.text("tasks") == Some(t) && r.text("amplitude") == Some(a)
    };
    let ratio_boxes: Vec<(String, Vec<Vec<f64>>)> = methods
        .iter()
        .filter(|m| *m != "lower-bound")
        .map(|m| {
            let per: Vec<Vec<f64>> = scenarios
                .iter()
                .map(|sc| {
                    rs.iter()
                        .filter(|r| &r.method == m && in_scenario(r, sc))
                        .filter_map(|r| Some(r.objective? / lb.get(r.instance.as_str())?))
                        .collect()
                })
                .collect();
            (m.clone(), per)
        })
        .collect();
    plots.push(Plot::Boxes(
        "machines-over-bound".into(),
        "Machines / lower bound".into(),
        "ratio".into(),
        groups.clone(),
        ratio_boxes,
    ));
    for (file, title, pick) in [
        ("cg-iterations", "First-phase iterations", 0),
        ("cg-seconds", "First-phase seconds", 1),
    ] {
        let per: Vec<Vec<f64>> = scenarios
            .iter()
            .map(|sc| {
                rs.iter()
                    .filter(|r| r.method == "cg" && in_scenario(r, sc))
                    .filter_map(|r| {
                        if pick == 0 {
                            r.num("root_iterations").or(r.iterations)
                        } else {
                            r.num("root_seconds").or(Some(r.seconds))
                        }
                    })
                    .collect()
            })
            .collect();
        if per.iter().any(|v| !v.is_empty()) {
            plots.push(Plot::Boxes(
                file.into(),
                title.into(),
                title.into(),
                groups.clone(),
                vec![("cg".into(), per)],
            ));
        }
    }
    let _ = writeln!(out, "![machines over bound](machines-over-bound.svg)\n");
    let _ = writeln!(out, "## Machines / lower bound (mean, max) per scenario\n\nThe lower bound of an instance is the best bound any method proved (`⌈W/C⌉`, or `⌈z_LP⌉` from column generation).\n\n| tasks | amplitude | {} |\n|---|---|{}", methods.iter().filter(|m| *m != "lower-bound").cloned().collect::<Vec<_>>().join(" | "), "---|".repeat(methods.iter().filter(|m| *m != "lower-bound").count()));
    for (t, a) in &scenarios {
        let mut line = format!("| {t} | {a} |");
        for m in methods.iter().filter(|m| *m != "lower-bound") {
            let ratios: Vec<f64> = rs
                .iter()
                .filter(|r| {
                    &r.method == m && r.text("tasks") == Some(t) && r.text("amplitude") == Some(a)
                })
                .filter_map(|r| Some(r.objective? / lb.get(r.instance.as_str())?))
                .collect();
            line.push_str(&format!(
                " {} / {} |",
                cell(mean(&ratios), 4),
                cell(max(&ratios), 4)
            ));
        }
        let _ = writeln!(out, "{line}");
    }
    if methods.iter().any(|m| m == "cg") {
        let _ = writeln!(out, "\n## Column generation: the first phase (Fig. 2) and the whole solve\n\n![iterations](cg-iterations.svg) ![seconds](cg-seconds.svg)\n\nFirst phase: the root's column generation (`root_iterations`, `root_seconds`), stopped as `first_phase` says (default: at bound closure; `convergence`/`paper`: when the pricing proves no negative reduced cost). Paper (Fig. 2, to convergence, one column per iteration): below 300 iterations, about 200 ms per iteration, about 40 s.\n\n| tasks | amplitude | first-phase iterations mean / max | first-phase s mean / max | ms per iteration | converged | total s mean / max |\n|---|---|---|---|---|---|---|");
        for (t, a) in &scenarios {
            let cg: Vec<&&Row> = rs
                .iter()
                .filter(|r| {
                    r.method == "cg" && r.text("tasks") == Some(t) && r.text("amplitude") == Some(a)
                })
                .collect();
            let it: Vec<f64> = cg.iter().filter_map(|r| r.num("root_iterations")).collect();
            let fs: Vec<f64> = cg.iter().filter_map(|r| r.num("root_seconds")).collect();
            let conv = cg
                .iter()
                .filter(|r| r.num("root_converged") == Some(1.0))
                .count();
            let s: Vec<f64> = cg.iter().map(|r| r.seconds).collect();
            let per = match (mean(&fs), mean(&it)) {
                (Some(f), Some(i)) if i > 0.0 => Some(1000.0 * f / i),
                _ => None,
            };
            let _ = writeln!(
                out,
                "| {t} | {a} | {} / {} | {} / {} | {} | {}/{} | {} / {} |",
                cell(mean(&it), 1),
                cell(max(&it), 0),
                cell(mean(&fs), 2),
                cell(max(&fs), 2),
                cell(per, 1),
                conv,
                cg.len(),
                cell(mean(&s), 2),
                cell(max(&s), 2)
            );
        }
    }
}
