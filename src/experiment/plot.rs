//! SVG line plots for the reports (plotters, SVG backend: no system fonts needed).

use plotters::prelude::*;
use std::path::Path;

type Chart<'a> = ChartContext<
    'a,
    SVGBackend<'a>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Draws the legend and writes the file.
fn finish(
    chart: &mut Chart<'_>,
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// One named series of `(x, y)` points.
pub type Series = (String, Vec<(f64, f64)>);

/// Draws `series` as lines with markers into `path`.
pub fn lines(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    let pts = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !x0.is_finite() {
        return Ok(());
    }
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    let (y0, y1) = (y0 - pad, y1 + pad);
    let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 15, y)], color.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| e.to_string())?;
    }
    finish(&mut chart, &root)
}

/// Box plots: one group per label on the x axis, one box per series inside each group
/// (quartiles, median line, whiskers to the extremes).
pub fn boxes(
    path: &Path,
    title: &str,
    y_label: &str,
    groups: &[String],
    series: &[(String, Vec<Vec<f64>>)],
) -> Result<(), String> {
    let all: Vec<f64> = series
        .iter()
        .flat_map(|s| s.1.iter().flatten().copied())
        .collect();
    if all.is_empty() || groups.is_empty() {
        return Ok(());
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.05).max(1e-3);
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let n = groups.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..n - 0.5, (lo - pad)..(hi + pad))
        .map_err(|e| e.to_string())?;
    let labels = groups.to_vec();
    chart
        .configure_mesh()
        .y_desc(y_label)
        .x_labels(groups.len())
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .disable_x_mesh()
        .draw()
        .map_err(|e| e.to_string())?;
    let width = 0.8 / series.len().max(1) as f64;
    for (s, (name, per_group)) in series.iter().enumerate() {
        let color = Palette99::pick(s).to_rgba();
        let mut first = true;
        for (g, values) in per_group.iter().enumerate() {
            if values.is_empty() {
                continue;
            }
            let mut v = values.clone();
            v.sort_by(f64::total_cmp);
            let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
            let x = g as f64 - 0.4 + width * (s as f64 + 0.5);
            let (l, r) = (x - 0.4 * width, x + 0.4 * width);
            let drawn = chart
                .draw_series([
                    PathElement::new(vec![(x, v[0]), (x, v[v.len() - 1])], color.stroke_width(1)),
                    PathElement::new(vec![(l, q(0.5)), (r, q(0.5))], BLACK.stroke_width(2)),
                ])
                .map_err(|e| e.to_string())?;
            if first {
                drawn.label(name.as_str()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                });
                first = false;
            }
            chart
                .draw_series([Rectangle::new(
                    [(l, q(0.25)), (r, q(0.75))],
                    color.mix(0.6).filled(),
                )])
                .map_err(|e| e.to_string())?;
        }
    }
    finish(&mut chart, &root)
}
