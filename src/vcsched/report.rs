//! `report.md` of the VCSched sweeps: RR-6692 §4.2 (Table 1, yields and failure rates versus
//! slack, run time versus jobs, heuristics against the MILP), §5.2 and §6.1.

use crate::experiment::{by, cell, k, max, mean, methods_of, to_series, Matrix, Plot, Row};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

pub fn vcsched_report(out: &mut String, rs: &[&Row], plots: &mut Vec<Plot>) {
    let methods = methods_of(rs);
    // An instance is feasible when some method found an allocation.
    let feasible: BTreeSet<&str> = rs
        .iter()
        .filter(|r| r.objective.is_some())
        .map(|r| r.instance.as_str())
        .collect();
    let _ = writeln!(out, "## Per method\n\nFailure rate over the {} instances on which some method found an allocation; yields averaged over solved instances; gap to the method's own bound.\n", feasible.len());
    let _ = writeln!(out, "| method | runs | solved | failure rate | mean min yield | mean avg yield | mean gap | mean s | max s |\n|---|---|---|---|---|---|---|---|---|");
    for m in &methods {
        let runs: Vec<&&Row> = by(rs, m).collect();
        let solved: Vec<&&Row> = runs
            .iter()
            .filter(|r| r.objective.is_some())
            .copied()
            .collect();
        let on_feasible = runs
            .iter()
            .filter(|r| feasible.contains(r.instance.as_str()))
            .count();
        let failed = runs
            .iter()
            .filter(|r| feasible.contains(r.instance.as_str()) && r.objective.is_none())
            .count();
        let secs: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        let _ = writeln!(
            out,
            "| {m} | {} | {} | {} | {} | {} | {} | {} | {} |",
            runs.len(),
            solved.len(),
            if on_feasible > 0 && m != "lp-bound" {
                format!("{:.2}%", 100.0 * failed as f64 / on_feasible as f64)
            } else {
                "–".into()
            },
            cell(
                mean(
                    &solved
                        .iter()
                        .filter_map(|r| r.objective)
                        .collect::<Vec<_>>()
                ),
                4
            ),
            cell(
                mean(
                    &solved
                        .iter()
                        .filter_map(|r| r.num("avg_yield"))
                        .collect::<Vec<_>>()
                ),
                4
            ),
            cell(
                mean(
                    &solved
                        .iter()
                        .filter_map(|r| r.gap)
                        .map(|g| 100.0 * g)
                        .collect::<Vec<_>>()
                ),
                2
            ),
            cell(mean(&secs), 5),
            cell(max(&secs), 5),
        );
    }

    // RR-6692 Table 1 (and Figure 7's table) in both scorings, beside the paper.
    super::report_paper::mcb_table(out, rs);

    // Versus the MILP (small set).
    let milp: BTreeMap<&str, f64> = by(rs, "milp")
        .filter_map(|r| r.objective.map(|y| (r.instance.as_str(), y)))
        .collect();
    if !milp.is_empty() {
        let _ = writeln!(out, "\n## Heuristics against the MILP optimum\n\nOn the {} instances the MILP solved: mean and max `100 (milp − y) / milp` where the heuristic succeeded, and its failures.\n\n| method | mean % below | max % below | failures |\n|---|---|---|---|", milp.len());
        for m in methods.iter().filter(|m| *m != "milp" && *m != "lp-bound") {
            let mut below = Vec::new();
            let mut fails = 0;
            for r in by(rs, m).filter(|r| milp.contains_key(r.instance.as_str())) {
                let opt = milp[r.instance.as_str()];
                match r.objective {
                    Some(y) if opt > 0.0 => below.push(100.0 * (opt - y) / opt),
                    Some(_) => below.push(0.0),
                    None => fails += 1,
                }
            }
            let _ = writeln!(
                out,
                "| {m} | {} | {} | {fails} |",
                cell(mean(&below), 3),
                cell(max(&below), 3)
            );
        }
    }

    certified_gaps(out, rs, &methods);
    super::report_paper::lp_table(out, rs);

    // Adaptations: yields averaged over the instances every method solved, so that each
    // point compares the methods on the same instances (a method that fails on the hard
    // ones would otherwise look better).
    let adapting = rs.iter().any(|r| r.num("budget").is_some());
    let common: BTreeSet<&str> = feasible
        .iter()
        .copied()
        .filter(|i| {
            methods
                .iter()
                .filter(|m| *m != "lp-bound")
                .all(|m| by(rs, m).any(|r| r.instance == *i && r.objective.is_some()))
        })
        .collect();
    // Versus slack and versus jobs: one matrix per metric feeds both the table and the plot.
    let slacks: BTreeSet<String> = rs.iter().filter_map(|r| r.num("slack").map(k)).collect();
    let metrics = [
        ("Mean minimum yield", "min-yield-vs-slack", 3),
        ("Mean average yield", "avg-yield-vs-slack", 3),
        ("Failure rate (%)", "failure-rate-vs-slack", 1),
    ];
    for (metric, (title, file, digits)) in metrics.into_iter().enumerate() {
        let matrix: Matrix = methods
            .iter()
            // `lp-bound` returns a bound, never an allocation: it is the LP line of the plot.
            .filter(|m| *m != "lp-bound")
            .map(|m| {
                let cells = slacks
                    .iter()
                    .map(|sl| {
                        let at: Vec<&&Row> = by(rs, m)
                            .filter(|r| r.num("slack").map(k).as_ref() == Some(sl))
                            .filter(|r| {
                                metric == 2 || !adapting || common.contains(r.instance.as_str())
                            })
                            .collect();
                        let v = match metric {
                            0 => mean(&at.iter().filter_map(|r| r.objective).collect::<Vec<_>>()),
                            1 => mean(
                                &at.iter()
                                    .filter_map(|r| r.num("avg_yield"))
                                    .collect::<Vec<_>>(),
                            ),
                            _ => {
                                let f: Vec<&&&Row> = at
                                    .iter()
                                    .filter(|r| feasible.contains(r.instance.as_str()))
                                    .collect();
                                (!f.is_empty()).then(|| {
                                    100.0
                                        * f.iter().filter(|r| r.objective.is_none()).count() as f64
                                        / f.len() as f64
                                })
                            }
                        };
                        (sl.parse::<f64>().unwrap_or(0.0), v)
                    })
                    .collect();
                (m.clone(), cells)
            })
            .collect();
        let over = if adapting && metric < 2 {
            format!(
                "Over the {} instances every method solved (the same instances for every method).\n\n",
                common.len()
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "
## {title} versus slack

{over}![{title}]({file}.svg)

| method | {} |
|---|{}",
            slacks.iter().cloned().collect::<Vec<_>>().join(" | "),
            "---|".repeat(slacks.len())
        );
        for (m, cells) in &matrix {
            let line: String = cells
                .iter()
                .map(|(_, v)| format!(" {} |", cell(*v, digits)))
                .collect();
            let _ = writeln!(out, "| {m} |{line}");
        }
        let mut series = to_series(&matrix);
        if metric == 0 {
            // The LP bound of §3.1, averaged over the instances whose relaxation is feasible.
            let bound: Vec<(f64, f64)> = slacks
                .iter()
                .filter_map(|sl| {
                    let mut per_instance: BTreeMap<&str, f64> = BTreeMap::new();
                    for r in rs
                        .iter()
                        .filter(|r| r.num("slack").map(k).as_ref() == Some(sl))
                    {
                        if let Some(b) = r.bound {
                            per_instance.insert(r.instance.as_str(), b);
                        }
                    }
                    Some((
                        sl.parse().ok()?,
                        mean(&per_instance.into_values().collect::<Vec<_>>())?,
                    ))
                })
                .collect();
            series.push(("LP bound".into(), bound));
        }
        plots.push(Plot::Lines(
            file.to_string(),
            title.to_string(),
            "memory slack".into(),
            title.to_string(),
            series,
        ));
    }
    let jobs: BTreeSet<usize> = rs
        .iter()
        .filter_map(|r| r.num("jobs").map(|j| j as usize))
        .collect();
    let matrix: Matrix = methods
        .iter()
        .map(|m| {
            let cells = jobs
                .iter()
                .map(|j| {
                    (
                        *j as f64,
                        mean(
                            &by(rs, m)
                                .filter(|r| r.num("jobs").map(|j| j as usize) == Some(*j))
                                .map(|r| r.seconds)
                                .collect::<Vec<_>>(),
                        ),
                    )
                })
                .collect();
            (m.clone(), cells)
        })
        .collect();
    let parallel = rs.iter().any(|r| r.set == "vcsched-parallel");
    let _ = writeln!(
        out,
        "
## Mean run time (s) versus {}

![run time](time-vs-jobs.svg)

| method | {} |
|---|{}",
        if parallel { "tasks" } else { "jobs" },
        jobs.iter()
            .map(|j| j.to_string())
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(jobs.len())
    );
    for (m, cells) in &matrix {
        let line: String = cells
            .iter()
            .map(|(_, v)| format!(" {} |", cell(*v, 5)))
            .collect();
        let _ = writeln!(out, "| {m} |{line}");
    }
    plots.push(Plot::Lines(
        "time-vs-jobs".into(),
        "Mean run time".into(),
        if parallel { "tasks" } else { "jobs" }.into(),
        "seconds".into(),
        to_series(&matrix),
    ));
    if rs.iter().any(|r| r.num("budget").is_some()) {
        adapt_report(out, rs, &methods, plots);
    }
}

/// `vcsched-adapt`: minimum yield and memory moved versus the migration budget, over the
/// workloads the MILP solved at every budget (so each point averages the same workloads).
fn adapt_report(out: &mut String, rs: &[&Row], methods: &[String], plots: &mut Vec<Plot>) {
    let budgets: BTreeSet<String> = rs.iter().filter_map(|r| r.num("budget").map(k)).collect();
    let workload = |r: &Row| (r.num("slack").map(k), r.num("cv_mem").map(k), r.index);
    let mut solved_at: BTreeMap<_, usize> = BTreeMap::new();
    for r in by(rs, "milp").filter(|r| r.objective.is_some()) {
        *solved_at.entry(workload(r)).or_default() += 1;
    }
    let common: BTreeSet<_> = solved_at
        .into_iter()
        .filter(|&(_, n)| n == budgets.len())
        .map(|(w, _)| w)
        .collect();
    let _ = writeln!(
        out,
        "\n## Adaptation: minimum yield versus migration budget\n\n\
         Budget as a fraction of the memory of the tasks that stay. Means over the {} \
         workloads the MILP solved at every budget (a heuristic's failure counts as yield 0 in \
         the mean and in `fails`); `moved` is the mean memory migrated; `below milp` the mean \
         `100 (milp − y) / milp` where the method succeeded.\n\n\
         ![min yield versus budget](min-yield-vs-budget.svg)\n\n\
         | method | budget | mean min yield | below milp (%) | fails | mean moved | mean s |\n\
         |---|---|---|---|---|---|---|",
        common.len()
    );
    let milp: BTreeMap<&str, f64> = by(rs, "milp")
        .filter_map(|r| r.objective.map(|y| (r.instance.as_str(), y)))
        .collect();
    let mut matrix: Matrix = Vec::new();
    for m in methods.iter().filter(|m| *m != "lp-bound") {
        let mut cells = Vec::new();
        for b in &budgets {
            let at: Vec<&&Row> = by(rs, m)
                .filter(|r| r.num("budget").map(k).as_ref() == Some(b))
                .filter(|r| common.contains(&workload(r)))
                .collect();
            let ys: Vec<f64> = at.iter().map(|r| r.objective.unwrap_or(0.0)).collect();
            let below: Vec<f64> = at
                .iter()
                .filter_map(|r| {
                    let (y, opt) = (r.objective?, *milp.get(r.instance.as_str())?);
                    (opt > 0.0).then(|| 100.0 * (opt - y) / opt)
                })
                .collect();
            let fails = at.iter().filter(|r| r.objective.is_none()).count();
            let moved: Vec<f64> = at.iter().filter_map(|r| r.num("migration")).collect();
            let secs: Vec<f64> = at.iter().map(|r| r.seconds).collect();
            let y = mean(&ys);
            let _ = writeln!(
                out,
                "| {m} | {b} | {} | {} | {fails} | {} | {} |",
                cell(y, 4),
                cell(mean(&below), 2),
                cell(mean(&moved), 4),
                cell(mean(&secs), 4)
            );
            cells.push((b.parse::<f64>().unwrap_or(0.0), y));
        }
        matrix.push((m.clone(), cells));
    }
    plots.push(Plot::Lines(
        "min-yield-vs-budget".into(),
        "Mean minimum yield after adaptation".into(),
        "budget (fraction of the staying memory)".into(),
        "mean minimum yield".into(),
        to_series(&matrix),
    ));
}

/// The gap of every heuristic to the certified optimum: on each instance the best proven
/// bound (the least `bound` of a row of `exact` or `milp`) and the best allocation of those
/// two; `100 (bound − y) / bound` is at least the heuristic's true gap, and equals it where the
/// exact method proved optimality. Then MCB8's gap by slack and job count.
fn certified_gaps(out: &mut String, rs: &[&Row], methods: &[String]) {
    let exact_rows = || {
        rs.iter()
            .filter(|r| r.method == "exact" || r.method == "milp")
    };
    let mut bound: BTreeMap<&str, f64> = BTreeMap::new();
    for r in exact_rows() {
        if let Some(b) = r.bound {
            let e = bound.entry(r.instance.as_str()).or_insert(b);
            *e = e.min(b);
        }
    }
    let proven: BTreeSet<&str> = exact_rows()
        .filter(|r| r.status == "optimal")
        .map(|r| r.instance.as_str())
        .collect();
    if bound.is_empty() || !methods.iter().any(|m| m == "exact") {
        return;
    }
    let _ = writeln!(out, "\n## Heuristics against the certified optimum\n\nOn the {} instances with a bound from `exact`/`milp` ({} proven optimal): mean and max `100 (bound − y) / bound` where the heuristic succeeded (the true gap where proven, an upper bound on it elsewhere).\n\n| method | mean % | max % | failures |\n|---|---|---|---|", bound.len(), proven.len());
    let gap_of = |r: &Row| {
        let b = *bound.get(r.instance.as_str())?;
        Some(r.objective.map(|y| 100.0 * (b - y).max(0.0) / b))
    };
    for m in methods.iter().filter(|m| *m != "lp-bound") {
        let gaps: Vec<Option<f64>> = by(rs, m).filter_map(|r| gap_of(r)).collect();
        let ok: Vec<f64> = gaps.iter().flatten().copied().collect();
        let _ = writeln!(
            out,
            "| {m} | {} | {} | {} |",
            cell(mean(&ok), 3),
            cell(max(&ok), 3),
            gaps.len() - ok.len()
        );
    }
    let mut cells: BTreeMap<(u64, String), Vec<f64>> = BTreeMap::new();
    for r in by(rs, "mcb8") {
        if let (Some(Some(g)), Some(j), Some(sl)) = (gap_of(r), r.num("jobs"), r.num("slack")) {
            cells.entry((j as u64, k(sl))).or_default().push(g);
        }
    }
    if cells.is_empty() {
        return;
    }
    let jobs: BTreeSet<u64> = cells.keys().map(|c| c.0).collect();
    let slacks: BTreeSet<String> = cells.keys().map(|c| c.1.clone()).collect();
    let _ = writeln!(
        out,
        "\n### Gap of MCB8 to the certified optimum (mean %), by slack and job count\n\n| jobs | {} |\n|---|{}",
        slacks.iter().cloned().collect::<Vec<_>>().join(" | "),
        "---|".repeat(slacks.len())
    );
    for j in jobs {
        let line: Vec<String> = slacks
            .iter()
            .map(|sl| cell(cells.get(&(j, sl.clone())).and_then(|v| mean(v)), 3))
            .collect();
        let _ = writeln!(out, "| {j} | {} |", line.join(" | "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, method: &str, y: Option<f64>) -> Row {
        let fields = [("slack", "0.4"), ("budget", "0.5"), ("jobs", "12")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Row {
            set: "vcsched-adapt".into(),
            instance: instance.into(),
            index: 0,
            seed: 0,
            method: method.into(),
            status: if y.is_some() { "feasible" } else { "unknown" }.into(),
            objective: y,
            bound: Some(1.0),
            gap: None,
            seconds: 0.0,
            iterations: None,
            error: None,
            fields,
        }
    }

    /// An adaptation's yields versus slack average every method over the same instances.
    #[test]
    fn adaptation_slack_table_uses_common_instances() {
        let rows = [
            row("a", "milp", Some(0.95)),
            row("a", "mcb8", Some(0.9)),
            row("b", "milp", Some(1.0)),
            row("b", "mcb8", None),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let mut out = String::new();
        vcsched_report(&mut out, &refs, &mut Vec::new());
        let table = &out[out.find("## Mean minimum yield versus slack").unwrap()..];
        assert!(table.contains("Over the 1 instances every method solved"));
        assert!(table.contains("| milp | 0.950 |"), "{table}");
        assert!(table.contains("| mcb8 | 0.900 |"), "{table}");
    }
}
