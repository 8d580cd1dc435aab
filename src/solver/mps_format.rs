//! Writes a [`LinearModel`] in free MPS, the other format every solver reads (HiGHS, CPLEX,
//! Gurobi, SCIP, GLPK `--freemps`, CBC), and names the two formats `export-lp` offers.
//! Output is deterministic, numbers in shortest round-trip form as in the LP writer.

use super::linear::{Bounds, LinearModel, Sense};
use super::lp_format::{num, write_lp};
use std::fmt::Write;

/// A model file's format: CPLEX LP or free MPS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelFormat {
    /// CPLEX LP (`.lp`).
    #[default]
    Lp,
    /// Free MPS (`.mps`).
    Mps,
}

impl ModelFormat {
    /// `model` in this format, with `comment` lines at the top.
    pub fn write(self, model: &LinearModel, comment: &[String]) -> String {
        match self {
            ModelFormat::Lp => write_lp(model, comment),
            ModelFormat::Mps => write_mps(model, comment),
        }
    }
}

impl std::str::FromStr for ModelFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "lp" => Ok(ModelFormat::Lp),
            "mps" => Ok(ModelFormat::Mps),
            _ => Err("expected lp or mps".into()),
        }
    }
}

/// Renders `model` as free MPS, with `comment` lines (`*`) at the top. Integer columns sit
/// between `MARKER` lines and always carry explicit bounds (some readers make an unbounded
/// integer column binary); a two-sided row is a `G` row with a range.
pub fn write_mps(model: &LinearModel, comment: &[String]) -> String {
    let mut out = String::new();
    for line in comment {
        let _ = writeln!(out, "* {line}");
    }
    out.push_str("NAME vcalloc\nOBJSENSE\n");
    out.push_str(match model.sense {
        Sense::Maximize => "    MAX\n",
        Sense::Minimize => "    MIN\n",
    });
    out.push_str("ROWS\n N  obj\n");
    for row in &model.rows {
        let kind = match (row.bounds.lower.is_finite(), row.bounds.upper.is_finite()) {
            _ if row.bounds.lower == row.bounds.upper => "E",
            (true, _) => "G",
            (false, true) => "L",
            (false, false) => "N",
        };
        let _ = writeln!(out, " {kind}  {}", row.name);
    }
    out.push_str("COLUMNS\n");
    let mut integer = false;
    for (k, c) in model.cols.iter().enumerate() {
        if c.integer != integer {
            let marker = if c.integer { "INTORG" } else { "INTEND" };
            let _ = writeln!(out, "    MARKER{k} 'MARKER' '{marker}'");
            integer = c.integer;
        }
        let mut entries: Vec<(&str, f64)> = Vec::new();
        if c.cost != 0.0 || c.entries.is_empty() {
            entries.push(("obj", c.cost));
        }
        entries.extend(
            c.entries
                .iter()
                .filter(|(_, a)| *a != 0.0)
                .map(|(r, a)| (model.rows[r.0].name.as_str(), *a)),
        );
        if entries.is_empty() {
            entries.push(("obj", 0.0));
        }
        for (row, a) in entries {
            let _ = writeln!(out, "    {}  {row}  {}", c.name, num(a));
        }
    }
    if integer {
        let _ = writeln!(out, "    MARKER{} 'MARKER' 'INTEND'", model.cols.len());
    }
    out.push_str("RHS\n");
    for row in &model.rows {
        let Bounds { lower, upper } = row.bounds;
        let rhs = if lower.is_finite() { lower } else { upper };
        if rhs.is_finite() && rhs != 0.0 {
            let _ = writeln!(out, "    RHS  {}  {}", row.name, num(rhs));
        }
    }
    let ranged: Vec<_> = model
        .rows
        .iter()
        .filter(|r| r.bounds.lower.is_finite() && r.bounds.upper.is_finite())
        .filter(|r| r.bounds.lower != r.bounds.upper)
        .collect();
    if !ranged.is_empty() {
        out.push_str("RANGES\n");
        for row in ranged {
            let width = row.bounds.upper - row.bounds.lower;
            let _ = writeln!(out, "    RNG  {}  {}", row.name, num(width));
        }
    }
    out.push_str("BOUNDS\n");
    for c in &model.cols {
        let Bounds { lower, upper } = c.bounds;
        let name = &c.name;
        let mut line = |kind: &str, v: Option<f64>| {
            let _ = match v {
                Some(v) => writeln!(out, " {kind} BND  {name}  {}", num(v)),
                None => writeln!(out, " {kind} BND  {name}"),
            };
        };
        if c.integer && lower == 0.0 && upper == 1.0 {
            line("BV", None);
        } else if lower == upper {
            line("FX", Some(lower));
        } else {
            match (lower.is_finite(), upper.is_finite()) {
                (false, false) => line("FR", None),
                (false, true) => {
                    line("MI", None);
                    line("UP", Some(upper));
                }
                (true, _) => {
                    if lower != 0.0 || c.integer || upper < 0.0 {
                        line("LO", Some(lower));
                    }
                    match upper.is_finite() {
                        true => line("UP", Some(upper)),
                        false if c.integer => line("PL", None),
                        false => {}
                    }
                }
            }
        }
    }
    out.push_str("ENDATA\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{solve, Deadline, HighsSettings};

    /// Every kind of row and bound the writer emits, solved by HiGHS from our model and from
    /// the MPS and LP text it reads back: the same optimum.
    #[test]
    fn highs_reads_back_every_row_and_bound_kind() {
        let mut m = LinearModel::new(Sense::Maximize);
        let le = m.add_row("le", Bounds::at_most(10.0));
        let ge = m.add_row("ge", Bounds::at_least(-3.0));
        let eq = m.add_row("eq", Bounds::equal(4.0));
        let rg = m.add_row("rg", Bounds::new(1.0, 7.5));
        m.add_col(
            "b",
            3.0,
            Bounds::new(0.0, 1.0),
            true,
            vec![(le, 2.0), (rg, 1.0)],
        );
        m.add_col(
            "n",
            1.0,
            Bounds::new(-2.0, 5.0),
            true,
            vec![(le, 1.0), (eq, 1.0)],
        );
        m.add_col(
            "g",
            2.0,
            Bounds::at_least(0.0),
            true,
            vec![(le, 1.0), (ge, 1.0)],
        );
        m.add_col(
            "f",
            -1.0,
            Bounds::new(f64::NEG_INFINITY, f64::INFINITY),
            false,
            vec![(ge, 1.0), (rg, 1.0)],
        );
        m.add_col(
            "u",
            0.5,
            Bounds::new(f64::NEG_INFINITY, 2.5),
            false,
            vec![(eq, 1.0)],
        );
        m.add_col("x", 1.5, Bounds::new(1.0, 3.0), false, vec![(le, 1.0)]);
        m.add_col("z", 0.0, Bounds::equal(2.0), false, vec![]);
        let ours = solve(&m, &HighsSettings::default(), &Deadline::none(), None)
            .unwrap()
            .objective
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        for format in [ModelFormat::Mps, ModelFormat::Lp] {
            let path = dir.path().join(format!("m.{format:?}").to_lowercase());
            std::fs::write(&path, format.write(&m, &["a test".into()])).unwrap();
            let theirs = crate::solver::solve_file(&path).unwrap();
            assert!(
                (ours - theirs.unwrap()).abs() < 1e-9,
                "{format:?}: {ours} vs {theirs:?}"
            );
        }
    }
}
