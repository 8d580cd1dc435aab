//! `report.md` from a results CSV: the header (rows, instances, errors) of each sweep, then
//! the report its problem writes; and the small table helpers the problems' reports share.

use super::plot::Series;
use super::row::Row;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The mean, `None` for no values.
pub fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Quantile `q` of the values by nearest rank; NaN for no values.
pub fn quantile(v: &[f64], q: f64) -> f64 {
    let mut v = v.to_vec();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1]
}

/// The median by nearest rank (the lower middle for an even count); NaN for no values.
pub fn median(v: &[f64]) -> f64 {
    quantile(v, 0.5)
}

/// The largest value, `None` for no values.
pub fn max(v: &[f64]) -> Option<f64> {
    v.iter()
        .copied()
        .fold(None, |m, x| Some(m.map_or(x, |m: f64| m.max(x))))
}

/// A table cell: the value with `digits` decimals, or a dash.
pub fn cell(x: Option<f64>, digits: usize) -> String {
    x.map_or("–".into(), |v| format!("{v:.digits$}"))
}

/// Key for ordering floats in maps.
pub fn k(x: f64) -> String {
    format!("{x:.2}")
}

/// Per method, a value (or none) at each x.
pub type Matrix = Vec<(String, Vec<(f64, Option<f64>)>)>;

/// A plot to draw.
#[derive(Debug, Clone)]
pub enum Plot {
    /// Lines: file stem, title, x label, y label, series.
    Lines(String, String, String, String, Vec<Series>),
    /// Box plots: file stem, title, y label, group labels, per series the values of each group.
    Boxes(
        String,
        String,
        String,
        Vec<String>,
        Vec<(String, Vec<Vec<f64>>)>,
    ),
}

impl Plot {
    /// The file stem.
    pub fn name(&self) -> &str {
        match self {
            Plot::Lines(f, ..) | Plot::Boxes(f, ..) => f,
        }
    }
}

/// The report of a set's rows (markdown) and the plots it refers to.
pub fn render(rows: &[Row]) -> (String, Vec<Plot>) {
    let mut out = String::new();
    let mut plots = Vec::new();
    let sets: BTreeSet<&str> = rows.iter().map(|r| r.set.as_str()).collect();
    for set in sets {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.set == set).collect();
        let _ = writeln!(out, "# Results: {set}\n");
        let instances: BTreeSet<&str> = rs.iter().map(|r| r.instance.as_str()).collect();
        let errors = rs.iter().filter(|r| r.status == "error").count();
        let _ = writeln!(
            out,
            "{} rows, {} instances, {errors} errors.\n",
            rs.len(),
            instances.len()
        );
        out.push_str(&proof_share(&rs));
        match crate::problem::find_sweep(set) {
            Some((entry, _)) => {
                let (text, mut more) = entry.report(set, &rs);
                out.push_str(&text);
                plots.append(&mut more);
            }
            None => {
                let _ = writeln!(out, "(no registered sweep is called `{set}`)\n");
            }
        }
    }
    (out, plots)
}

/// The share of `optimal` claims and of bounds that verify re-derived (the rows'
/// `bound_check`), and the median verify time against the solve's (issue 37).
pub fn proof_share(rs: &[&Row]) -> String {
    let checked = |r: &Row| {
        r.text("bound_check")
            .is_some_and(|k| !matches!(k, "claimed" | "refuted" | "none"))
    };
    let with_bound: Vec<&&Row> = rs.iter().filter(|r| r.bound.is_some()).collect();
    if with_bound.iter().all(|r| r.text("bound_check").is_none()) {
        return String::new();
    }
    let optimal: Vec<&&Row> = with_bound
        .iter()
        .copied()
        .filter(|r| r.status == "optimal")
        .collect();
    let share = |v: &[&&Row]| {
        let k = v.iter().filter(|r| checked(r)).count();
        let pct = if v.is_empty() {
            0.0
        } else {
            100.0 * k as f64 / v.len() as f64
        };
        format!("{k}/{} ({pct:.1}%)", v.len())
    };
    let ratios: Vec<f64> = rs
        .iter()
        .filter_map(|r| Some(r.num("verify_seconds")? / r.seconds.max(1e-6)))
        .collect();
    let mut out = format!(
        "Bounds re-derived by verify: {} of the `optimal` claims, {} of all bounds.",
        share(&optimal),
        share(&with_bound)
    );
    // Timings on a line of their own (the only line of this paragraph that varies by run).
    if !ratios.is_empty() {
        let _ = write!(
            out,
            "\n\nVerify time / solve time: median {:.1}%, max {:.1}%.",
            100.0 * median(&ratios),
            100.0 * max(&ratios).unwrap_or(0.0)
        );
    }
    out.push_str("\n\n");
    out
}

/// Writes `report.md` and its SVG plots into `dir`.
pub fn write(dir: &std::path::Path, rows: &[Row]) -> crate::Result<()> {
    let (text, plots) = render(rows);
    for plot in plots {
        let path = dir.join(format!("{}.svg", plot.name()));
        let drawn = match &plot {
            Plot::Lines(_, title, x, y, series) => super::plot::lines(&path, title, x, y, series),
            Plot::Boxes(_, title, y, groups, series) => {
                super::plot::boxes(&path, title, y, groups, series)
            }
        };
        if let Err(e) = drawn {
            log::warn!("{}: plot not drawn: {e}", path.display());
        }
    }
    let path = dir.join("report.md");
    std::fs::write(&path, text).map_err(|source| crate::Error::Io { path, source })
}

/// The rows of method `m`.
pub fn by<'a>(rs: &'a [&'a Row], m: &'a str) -> impl Iterator<Item = &'a &'a Row> + 'a {
    rs.iter().filter(move |r| r.method == m)
}

/// The methods of the rows, in order of first appearance.
pub fn methods_of(rs: &[&Row]) -> Vec<String> {
    let mut seen = Vec::new();
    for r in rs {
        if !seen.contains(&r.method) {
            seen.push(r.method.clone());
        }
    }
    seen
}

/// Plot series of a matrix, leaving out the missing points.
pub fn to_series(matrix: &Matrix) -> Vec<Series> {
    matrix
        .iter()
        .map(|(m, cells)| {
            (
                m.clone(),
                cells.iter().filter_map(|&(x, v)| Some((x, v?))).collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn quantiles_use_nearest_rank() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(super::quantile(&v, 0.5), 2.0);
        assert_eq!(super::quantile(&v, 0.95), 4.0);
        assert!(super::quantile(&[], 0.5).is_nan());
    }
}
