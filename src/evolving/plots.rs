//! SVG plots of the experiment's distributions: one empirical CDF per method and quantity.

use super::experiment::PaperReport;
use crate::error::{Error, Result};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const COLOURS: [RGBColor; 6] = [BLACK, RED, BLUE, CYAN, GREEN, MAGENTA];

fn io_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// One CDF chart: `series[j]` are the samples of method `j` (NaN dropped).
fn cdf_chart(
    path: &Path,
    title: &str,
    xlabel: &str,
    names: &[&str],
    series: &[Vec<f64>],
) -> Result<()> {
    let sorted: Vec<Vec<f64>> = series
        .iter()
        .map(|s| {
            let mut v: Vec<f64> = s.iter().copied().filter(|x| x.is_finite()).collect();
            v.sort_by(f64::total_cmp);
            v
        })
        .collect();
    let lo = sorted
        .iter()
        .filter_map(|v| v.first())
        .copied()
        .fold(f64::INFINITY, f64::min);
    let hi = sorted
        .iter()
        .filter_map(|v| v.last())
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    let pad = 0.02 * (hi - lo);
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| io_err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(lo - pad..hi + pad, 0f64..1f64)
        .map_err(|e| io_err(path, e))?;
    chart
        .configure_mesh()
        .x_desc(xlabel)
        .y_desc("fraction of samples ≤ x")
        .draw()
        .map_err(|e| io_err(path, e))?;
    for (j, v) in sorted.iter().enumerate() {
        if v.is_empty() {
            continue;
        }
        let n = v.len() as f64;
        let pts: Vec<(f64, f64)> = v
            .iter()
            .enumerate()
            .map(|(i, &x)| (x, (i + 1) as f64 / n))
            .collect();
        let colour = COLOURS[j % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts, colour.stroke_width(2)))
            .map_err(|e| io_err(path, e))?
            .label(names[j])
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| io_err(path, e))?;
    root.present().map_err(|e| io_err(path, e))?;
    Ok(())
}

impl PaperReport {
    /// Writes CDF plots (makespan, ACT, AWT relative to rigid; waste; eff. utilisation;
    /// schedule time) into `dir`, named with `N`; returns the files written.
    pub fn write_plots(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir).map_err(|e| Error::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
        let names: Vec<&str> = self.methods.iter().map(|m| m.paper_name()).collect();
        type Pick = fn(&super::experiment::MethodTest) -> f64;
        let charts: [(&str, &str, &str, Pick); 6] = [
            (
                "makespan_rel",
                "Makespan relative to rigid",
                "makespan / rigid",
                |x| x.makespan_rel,
            ),
            (
                "act_rel",
                "Average completion time relative to rigid",
                "ACT / rigid",
                |x| x.act_rel,
            ),
            (
                "awt_rel",
                "Average waiting time relative to rigid",
                "AWT / rigid",
                |x| x.awt_rel,
            ),
            ("waste", "System waste (% of used area)", "waste %", |x| {
                x.waste_pct
            }),
            (
                "eff_util",
                "Effective utilisation",
                "ΣU / (N·makespan) %",
                |x| x.eff_util_pct,
            ),
            ("schedule_ms", "Schedule time per test", "ms", |x| {
                x.schedule_ms
            }),
        ];
        let n = self.spec.gen.nodes;
        let mut out = Vec::new();
        for (file, title, xlabel, pick) in charts {
            let series: Vec<Vec<f64>> = self
                .per_test
                .iter()
                .map(|t| t.iter().map(pick).collect())
                .collect();
            let path = dir.join(format!("evolving_{file}_N{n}.svg"));
            cdf_chart(
                &path,
                &format!("{title} (N = {n})"),
                xlabel,
                &names,
                &series,
            )?;
            out.push(path);
        }
        Ok(out)
    }
}
