//! SVG line plots for the reproductions (plotters' SVG backend: no system fonts needed).

use plotters::prelude::*;
use std::path::Path;

/// One named series of `(x, y)` points.
pub type Series = (String, Vec<(f64, f64)>);

/// Draws `series` as lines into `path`; an empty plot writes nothing.
pub fn lines(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|s| s.1.iter()) {
        if x.is_finite() && y.is_finite() {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
    }
    if !x0.is_finite() {
        return Ok(());
    }
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    let (y0, y1) = (y0.min(0.0) - pad, y1 + pad);
    let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    let e = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|x| e(&x))?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let pts: Vec<(f64, f64)> = pts
            .iter()
            .copied()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect();
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(|x| e(&x))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 15, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))
}

/// Wraps a plotting failure as an I/O error on `path`.
pub fn to_error(path: &Path, msg: String) -> crate::error::Error {
    crate::error::Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(msg),
    }
}
