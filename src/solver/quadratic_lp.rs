//! A linear model with quadratic rows `Σ q·x·y ≤ u` — second-order cones written as
//! `‖(u, v)‖² ≤ t²`, `t ≥ 0` — in CPLEX LP format, and a reader of the subset the writers
//! produce. HiGHS solves no quadratic rows: the conic families' exports are for CPLEX, Gurobi
//! and SCIP, and the reader is how a test checks that what was written is what was meant.

use super::linear::{Bounds, ColId, LinearModel, Sense};
use super::lp_format::{num, write_lp};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A quadratic row: `Σ coef·x·y ≤ upper` (`x = y` for a square).
#[derive(Debug, Clone, PartialEq)]
pub struct QuadraticRow {
    /// Name in the LP file.
    pub name: String,
    /// `(x, y, coef)` terms.
    pub terms: Vec<(ColId, ColId, f64)>,
    /// Right-hand side.
    pub upper: f64,
}

/// A linear model plus quadratic rows.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadraticModel {
    /// The objective, the linear rows and every column.
    pub linear: LinearModel,
    /// The quadratic rows.
    pub quadratic: Vec<QuadraticRow>,
}

/// Every figure of a model keyed by name, to compare two models whatever their orders.
pub type Canonical = (
    bool,
    BTreeMap<String, (f64, f64, f64, bool)>,
    BTreeMap<String, (f64, f64, BTreeMap<String, f64>)>,
    BTreeMap<String, (f64, BTreeMap<(String, String), f64>)>,
);

impl QuadraticModel {
    /// Rows (linear and quadratic), columns and nonzeros (matrix entries and quadratic terms).
    pub fn size(&self) -> (u64, u64, u64) {
        let (rows, cols, nonzeros) = self.linear.size();
        let terms: usize = self.quadratic.iter().map(|q| q.terms.len()).sum();
        let quadratic = self.quadratic.len() as u64;
        (rows + quadratic, cols, nonzeros + terms as u64)
    }

    /// CPLEX LP text: the linear model's, with the quadratic rows (`[ … ]`) after its rows.
    pub fn write_lp(&self, comment: &[String]) -> String {
        let text = write_lp(&self.linear, comment);
        let at = text
            .find("\nBounds\n")
            .expect("the LP writer always writes a Bounds section")
            + 1;
        let name = |c: ColId| self.linear.cols[c.0].name.as_str();
        let mut rows = String::new();
        for q in &self.quadratic {
            let _ = write!(rows, " {}: [", q.name);
            for (k, &(x, y, a)) in q.terms.iter().enumerate() {
                if k > 0 && k % 6 == 0 {
                    rows.push_str("\n  ");
                }
                let sign = if a < 0.0 { '-' } else { '+' };
                let _ = if x == y {
                    write!(rows, " {sign} {} {} ^ 2", num(a.abs()), name(x))
                } else {
                    write!(rows, " {sign} {} {} * {}", num(a.abs()), name(x), name(y))
                };
            }
            let _ = writeln!(rows, " ] <= {}", num(q.upper));
        }
        format!("{}{rows}{}", &text[..at], &text[at..])
    }

    /// The model in `format`: CPLEX LP; MPS is refused (an input error naming `--format`), as
    /// the quadratic rows are written in LP format only.
    pub fn write(&self, format: super::ModelFormat, comment: &[String]) -> crate::Result<String> {
        match format {
            super::ModelFormat::Lp => Ok(self.write_lp(comment)),
            super::ModelFormat::Mps => Err(crate::InputError::new(
                "<arguments>",
                crate::Location::Argument("--format".into()),
                "mps",
                "the model has quadratic (conic) rows, written in LP format only (--format lp)",
            )
            .into()),
        }
    }

    /// The largest violation of a row, a quadratic row or a bound by `x`.
    pub fn max_violation(&self, x: &[f64]) -> f64 {
        let quad = self.quadratic.iter().map(|q| {
            let v: f64 = q.terms.iter().map(|&(a, b, c)| c * x[a.0] * x[b.0]).sum();
            v - q.upper
        });
        quad.fold(self.linear.max_violation(x), f64::max)
    }

    /// Every figure keyed by name (see [`Canonical`]).
    pub fn canonical(&self) -> Canonical {
        let m = &self.linear;
        let cols = m
            .cols
            .iter()
            .map(|c| {
                let b = (c.cost, c.bounds.lower, c.bounds.upper, c.integer);
                (c.name.clone(), b)
            })
            .collect();
        let mut rows: BTreeMap<String, (f64, f64, BTreeMap<String, f64>)> = m
            .rows
            .iter()
            .map(|r| {
                (
                    r.name.clone(),
                    (r.bounds.lower, r.bounds.upper, BTreeMap::new()),
                )
            })
            .collect();
        for c in &m.cols {
            for &(r, a) in c.entries.iter().filter(|e| e.1 != 0.0) {
                let row = rows.get_mut(&m.rows[r.0].name).expect("a row of the model");
                *row.2.entry(c.name.clone()).or_default() += a;
            }
        }
        let name = |c: ColId| m.cols[c.0].name.clone();
        let quad = self
            .quadratic
            .iter()
            .map(|q| {
                let mut t: BTreeMap<(String, String), f64> = BTreeMap::new();
                for &(x, y, a) in &q.terms {
                    let key = if name(x) <= name(y) {
                        (name(x), name(y))
                    } else {
                        (name(y), name(x))
                    };
                    *t.entry(key).or_default() += a;
                }
                (q.name.clone(), (q.upper, t))
            })
            .collect();
        (m.sense == Sense::Maximize, cols, rows, quad)
    }
}

/// Reads the CPLEX LP subset the writers produce (`\` comments, one objective, rows with
/// linear terms and at most one `[ … ]` quadratic part, `Bounds`, `Binaries`, `Generals`).
/// Columns are numbered in order of first appearance; unknown syntax is an error naming the
/// token.
pub fn read_lp(text: &str) -> Result<QuadraticModel, String> {
    let mut sense = None;
    let mut section = "";
    let mut statements: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('\\') {
            continue;
        }
        match t {
            "Maximize" | "Minimize" => {
                sense = Some(if t == "Maximize" {
                    Sense::Maximize
                } else {
                    Sense::Minimize
                });
                section = "objective";
                continue;
            }
            "Subject To" | "Bounds" | "Binaries" | "Generals" | "End" => {
                section = t;
                continue;
            }
            _ => {}
        }
        let starts = line.starts_with(' ') && !line.starts_with("  ");
        let tokens = t.split_whitespace().map(str::to_string);
        match statements.last_mut() {
            Some(last) if !starts && last.0 == section => last.1.extend(tokens),
            _ => statements.push((section.to_string(), tokens.collect())),
        }
    }
    let mut r = Reader {
        model: QuadraticModel {
            linear: LinearModel::new(sense.ok_or("no Maximize or Minimize section")?),
            quadratic: Vec::new(),
        },
        cols: BTreeMap::new(),
    };
    for (section, tokens) in statements {
        match section.as_str() {
            "objective" => r.objective(&tokens)?,
            "Subject To" => r.row(&tokens)?,
            "Bounds" => r.bound(&tokens)?,
            "Binaries" | "Generals" => {
                for name in tokens {
                    let c = r.col(&name);
                    let col = &mut r.model.linear.cols[c.0];
                    col.integer = true;
                    if section == "Binaries" {
                        col.bounds = Bounds::new(0.0, 1.0);
                    }
                }
            }
            s => return Err(format!("statement outside a section ({s:?}): {tokens:?}")),
        }
    }
    Ok(r.model)
}

struct Reader {
    model: QuadraticModel,
    cols: BTreeMap<String, ColId>,
}

fn number(t: &str) -> Result<f64, String> {
    match t {
        "inf" | "+inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        _ => t
            .parse()
            .map_err(|_| format!("expected a number, found {t:?}")),
    }
}

impl Reader {
    fn col(&mut self, name: &str) -> ColId {
        if let Some(&c) = self.cols.get(name) {
            return c;
        }
        let c = self
            .model
            .linear
            .add_col(name, 0.0, Bounds::at_least(0.0), false, Vec::new());
        self.cols.insert(name.to_string(), c);
        c
    }

    /// `± coef name` terms up to the first token that is not a sign; returns the terms and
    /// how many tokens they took.
    fn terms(&mut self, t: &[String]) -> Result<(Vec<(ColId, f64)>, usize), String> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < t.len() && (t[k] == "+" || t[k] == "-") {
            let sign = if t[k] == "-" { -1.0 } else { 1.0 };
            let coef = number(t.get(k + 1).ok_or("a sign with no term")?)?;
            let name = t.get(k + 2).ok_or("a coefficient with no variable")?;
            out.push((self.col(name), sign * coef));
            k += 3;
        }
        Ok((out, k))
    }

    fn objective(&mut self, t: &[String]) -> Result<(), String> {
        let (terms, used) = self.terms(t.get(1..).ok_or("an empty objective")?)?;
        if used + 1 != t.len() && !(t.len() == 2 && t[1] == "0") {
            return Err(format!("unread objective tokens: {:?}", &t[used + 1..]));
        }
        for (c, a) in terms {
            self.model.linear.cols[c.0].cost += a;
        }
        Ok(())
    }

    fn row(&mut self, t: &[String]) -> Result<(), String> {
        let name = t[0]
            .strip_suffix(':')
            .ok_or_else(|| format!("a row without a name: {t:?}"))?
            .to_string();
        let mut k = 1;
        if t.get(k).map(String::as_str) == Some("[") {
            let mut terms = Vec::new();
            k += 1;
            while t.get(k).map(String::as_str) != Some("]") {
                let sign = match t.get(k).map(String::as_str) {
                    Some("+") => 1.0,
                    Some("-") => -1.0,
                    other => return Err(format!("row {name}: expected a sign, found {other:?}")),
                };
                let coef = number(t.get(k + 1).ok_or("a truncated term")?)?;
                let x = self.col(t.get(k + 2).ok_or("a truncated term")?);
                match (t.get(k + 3).map(String::as_str), t.get(k + 4)) {
                    (Some("^"), Some(two)) if two == "2" => terms.push((x, x, sign * coef)),
                    (Some("*"), Some(y)) => {
                        let y = self.col(y);
                        terms.push((x, y, sign * coef));
                    }
                    other => return Err(format!("row {name}: a quadratic term ends {other:?}")),
                }
                k += 5;
            }
            let (op, rhs) = (t.get(k + 1), t.get(k + 2));
            if op.map(String::as_str) != Some("<=") || t.len() != k + 3 {
                return Err(format!("row {name}: a quadratic row must end `] <= u`"));
            }
            let upper = number(rhs.ok_or("no right-hand side")?)?;
            self.model
                .quadratic
                .push(QuadraticRow { name, terms, upper });
            return Ok(());
        }
        let (terms, used) = self.terms(&t[k..])?;
        k += used;
        if terms.is_empty() && t.get(k).map(String::as_str) == Some("0") {
            k += 1;
        }
        let rhs = number(
            t.get(k + 1)
                .ok_or_else(|| format!("row {name}: no right-hand side"))?,
        )?;
        let bounds = match t.get(k).map(String::as_str) {
            Some("<=") => Bounds::at_most(rhs),
            Some(">=") => Bounds::at_least(rhs),
            Some("=") => Bounds::equal(rhs),
            other => return Err(format!("row {name}: expected <=, >= or =, found {other:?}")),
        };
        if t.len() != k + 2 {
            return Err(format!("row {name}: unread tokens {:?}", &t[k + 2..]));
        }
        let row = self.model.linear.add_row(name, bounds);
        for (c, a) in terms {
            self.model.linear.cols[c.0].entries.push((row, a));
        }
        Ok(())
    }

    fn bound(&mut self, t: &[String]) -> Result<(), String> {
        let words: Vec<&str> = t.iter().map(String::as_str).collect();
        let (name, bounds) = match words.as_slice() {
            [x, "free"] => (*x, Bounds::new(f64::NEG_INFINITY, f64::INFINITY)),
            [x, "=", v] => (*x, Bounds::equal(number(v)?)),
            [x, ">=", v] => (*x, Bounds::at_least(number(v)?)),
            [lo, "<=", x, "<=", hi] => (*x, Bounds::new(number(lo)?, number(hi)?)),
            other => return Err(format!("a bound not understood: {other:?}")),
        };
        let c = self.col(name);
        self.model.linear.cols[c.0].bounds = bounds;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second-order cone and every kind of linear row, bound and integrality survive the
    /// round trip; a malformed row is an error, not a silent model.
    #[test]
    fn write_then_read_gives_the_same_model() {
        let mut m = LinearModel::new(Sense::Minimize);
        let eq = m.add_row("eq", Bounds::equal(2.0));
        let le = m.add_row("le", Bounds::at_most(7.5));
        let ge = m.add_row("ge", Bounds::at_least(-1.0));
        let x = m.add_col(
            "x",
            1.0,
            Bounds::new(0.0, 1.0),
            true,
            vec![(eq, 1.0), (le, 2.5)],
        );
        let n = m.add_col("n", 0.0, Bounds::new(0.0, 4.0), true, vec![(eq, 1.0)]);
        let u = m.add_col(
            "u",
            0.0,
            Bounds::new(f64::NEG_INFINITY, f64::INFINITY),
            false,
            vec![(ge, 1.0)],
        );
        let t = m.add_col(
            "t",
            -0.25,
            Bounds::at_least(0.0),
            false,
            vec![(le, 1.0), (ge, -0.25)],
        );
        let f = m.add_col("f", 2.0, Bounds::equal(3.0), false, vec![]);
        let model = QuadraticModel {
            linear: m,
            quadratic: vec![QuadraticRow {
                name: "soc".into(),
                terms: vec![(u, u, 1.0), (n, x, 0.5), (t, t, -1.0), (f, f, 1e-3)],
                upper: 0.0,
            }],
        };
        let text = model.write_lp(&["a comment".into()]);
        assert!(
            text.contains(" soc: [ + 1 u ^ 2 + 0.5 n * x - 1 t ^ 2 + 0.001 f ^ 2 ] <= 0\n"),
            "{text}"
        );
        let back = read_lp(&text).unwrap();
        assert_eq!(back.canonical(), model.canonical(), "{text}");
        // x = 1, n = 1, u = 0, t = 2, f = 3: the cone holds (0.5 + 0.009 ≤ 4).
        assert!(model.max_violation(&[1.0, 1.0, 0.0, 2.0, 3.0]) <= 0.0);
        assert!(model.max_violation(&[1.0, 1.0, 0.0, 0.0, 3.0]) > 0.5);
        for bad in [
            "Minimize\n obj: + 1 x\nSubject To\n r: + 1 x <> 2\nEnd\n",
            "Subject To\nEnd\n",
        ] {
            assert!(read_lp(bad).is_err(), "{bad}");
        }
    }
}
