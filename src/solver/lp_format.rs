//! Writes a [`LinearModel`] in the CPLEX LP format, readable by HiGHS, CPLEX, Gurobi, SCIP,
//! GLPK (`--lp`) and CBC. Output is deterministic: the same model gives the same bytes.

use super::linear::{LinearModel, Sense};
use std::fmt::Write;

/// Renders `model` as CPLEX LP text, with `comment` lines at the top.
pub fn write_lp(model: &LinearModel, comment: &[String]) -> String {
    let mut out = String::new();
    for line in comment {
        let _ = writeln!(out, "\\ {line}");
    }
    out.push_str(match model.sense {
        Sense::Maximize => "Maximize\n",
        Sense::Minimize => "Minimize\n",
    });
    let objective: Vec<(f64, &str)> = model
        .cols
        .iter()
        .filter(|c| c.cost != 0.0)
        .map(|c| (c.cost, c.name.as_str()))
        .collect();
    let _ = writeln!(out, " obj:{}", terms(&objective));

    // Transpose the column-wise matrix into rows.
    let mut rows: Vec<Vec<(f64, &str)>> = vec![Vec::new(); model.rows.len()];
    for c in &model.cols {
        for &(r, a) in &c.entries {
            if a != 0.0 {
                rows[r.0].push((a, c.name.as_str()));
            }
        }
    }
    out.push_str("Subject To\n");
    for (row, t) in model.rows.iter().zip(&rows) {
        let (lo, hi) = (row.bounds.lower, row.bounds.upper);
        let lhs = terms(t);
        if lo == hi {
            let _ = writeln!(out, " {}:{} = {}", row.name, lhs, num(hi));
        } else {
            if lo.is_finite() {
                let suffix = if hi.is_finite() { "_lo" } else { "" };
                let _ = writeln!(out, " {}{}:{} >= {}", row.name, suffix, lhs, num(lo));
            }
            if hi.is_finite() {
                let suffix = if lo.is_finite() { "_hi" } else { "" };
                let _ = writeln!(out, " {}{}:{} <= {}", row.name, suffix, lhs, num(hi));
            }
        }
    }

    out.push_str("Bounds\n");
    for c in &model.cols {
        let (lo, hi) = (c.bounds.lower, c.bounds.upper);
        let binary = c.integer && lo == 0.0 && hi == 1.0;
        if binary || (lo == 0.0 && hi == f64::INFINITY) {
            continue;
        }
        match (lo.is_finite(), hi.is_finite()) {
            (false, false) => {
                let _ = writeln!(out, " {} free", c.name);
            }
            (true, true) if lo == hi => {
                let _ = writeln!(out, " {} = {}", c.name, num(lo));
            }
            (true, true) => {
                let _ = writeln!(out, " {} <= {} <= {}", num(lo), c.name, num(hi));
            }
            (true, false) => {
                let _ = writeln!(out, " {} >= {}", c.name, num(lo));
            }
            (false, true) => {
                let _ = writeln!(out, " -inf <= {} <= {}", c.name, num(hi));
            }
        }
    }
    let section = |out: &mut String, title: &str, names: Vec<&str>| {
        if !names.is_empty() {
            let _ = writeln!(out, "{title}");
            for n in names {
                let _ = writeln!(out, " {n}");
            }
        }
    };
    let is_bin = |c: &&super::linear::Column| c.bounds.lower == 0.0 && c.bounds.upper == 1.0;
    let binaries = model.cols.iter().filter(|c| c.integer).filter(is_bin);
    section(
        &mut out,
        "Binaries",
        binaries.map(|c| c.name.as_str()).collect(),
    );
    let generals = model.cols.iter().filter(|c| c.integer && !is_bin(c));
    section(
        &mut out,
        "Generals",
        generals.map(|c| c.name.as_str()).collect(),
    );
    out.push_str("End\n");
    out
}

fn terms(t: &[(f64, &str)]) -> String {
    if t.is_empty() {
        return " 0".to_string();
    }
    let mut s = String::new();
    for (k, &(a, name)) in t.iter().enumerate() {
        // Keep lines short: some LP readers cap the line length.
        if k > 0 && k % 8 == 0 {
            s.push_str("\n  ");
        }
        let sign = if a < 0.0 { '-' } else { '+' };
        let _ = write!(s, " {sign} {} {name}", num(a.abs()));
    }
    s
}

/// Shortest representation that reads back to the same `f64`.
pub(super) fn num(v: f64) -> String {
    if v == f64::INFINITY {
        "inf".into()
    } else if v == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{v}")
    }
}
