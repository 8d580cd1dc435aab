//! SVG plots of the reproduction: Figs. 5–6 per trace (XF ratio per arrival bin on top,
//! utilisation below, as in the paper) and Fig. 7 (XF ratio against utilisation).

use super::experiment::Report;
use super::method::Method;
use crate::error::{Error, Result};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

fn plot_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

const COLOURS: [RGBColor; 3] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
];

/// Writes `fig56-<trace>.svg` for every trace and `fig7.svg` into `dir` (created if missing);
/// returns the files written.
pub fn write_plots(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    let mut files = Vec::new();
    for t in &report.traces {
        let path = dir.join(format!("fig56-{}.svg", t.trace.name));
        fig56(report, t, &path).map_err(|e| plot_err(&path, e))?;
        files.push(path);
    }
    let path = dir.join("fig7.svg");
    fig7(report, &path).map_err(|e| plot_err(&path, e))?;
    files.push(path);
    Ok(files)
}

type DynErr = Box<dyn std::error::Error>;

fn fig56(
    report: &Report,
    t: &super::experiment::TraceRun,
    path: &Path,
) -> std::result::Result<(), DynErr> {
    let root = SVGBackend::new(path, (900, 640)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(380);
    let days = |x: f64| x / 86_400.0;
    let pc = t.run(Method::Pc);
    let ec = t.run(Method::Ec);
    let xmax = pc.bins.last().map_or(1.0, |b| days(b.end)).max(1e-9);
    let ratios: Vec<(f64, f64)> = t
        .bin_ratios()
        .iter()
        .zip(&pc.bins)
        .filter_map(|(r, b)| r.map(|r| (days(b.start + b.end) / 2.0, r)))
        .collect();
    let ymax = ratios.iter().map(|p| p.1).fold(4.5, f64::max) * 1.05;
    let mut c = ChartBuilder::on(&top)
        .caption(
            format!(
                "{} (for {}): XF(EC)/XF(PC) per arrival bin",
                t.trace.name, t.trace.stands_for
            ),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)?;
    c.configure_mesh()
        .x_desc("arrival time (days, scaled)")
        .y_desc("XF ratio")
        .draw()?;
    for band in [2.0, 4.0] {
        c.draw_series(LineSeries::new(
            vec![(0.0, band), (xmax, band)],
            RED.mix(0.4),
        ))?;
    }
    c.draw_series(LineSeries::new(ratios.clone(), &COLOURS[0]))?
        .label("ours")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], COLOURS[0]));
    c.draw_series(
        ratios
            .iter()
            .map(|&p| Circle::new(p, 3, COLOURS[0].filled())),
    )?;
    c.draw_series(LineSeries::new(vec![(0.0, 3.0)], RED.mix(0.4)))?
        .label("paper: 2–4")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.mix(0.4)));
    c.configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    let mut u = ChartBuilder::on(&bottom)
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..xmax, 0f64..1.05f64)?;
    u.configure_mesh()
        .x_desc("arrival time (days, scaled)")
        .y_desc("utilisation")
        .draw()?;
    for (k, (run, name)) in [(pc, "PC"), (ec, "EC")].into_iter().enumerate() {
        let pts: Vec<(f64, f64)> = run
            .bins
            .iter()
            .filter_map(|b| b.utilisation.map(|v| (days(b.start + b.end) / 2.0, v)))
            .collect();
        let col = COLOURS[k + 1];
        u.draw_series(LineSeries::new(pts, &col))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], col));
    }
    u.configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    let _ = report;
    root.present()?;
    Ok(())
}

fn fig7(report: &Report, path: &Path) -> std::result::Result<(), DynErr> {
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut ymax: f64 = 5.0;
    for pts in &report.sweeps {
        for p in pts {
            let (a, b) = p.ratios();
            ymax = ymax.max(a).max(b);
        }
    }
    let mut c = ChartBuilder::on(&root)
        .caption(
            "Fig. 7: XF ratio vs average utilisation (PC run)",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..1.0f64, 0f64..ymax * 1.05)?;
    c.configure_mesh()
        .x_desc("average utilisation")
        .y_desc("XF ratio")
        .draw()?;
    for (k, (t, pts)) in report.traces.iter().zip(&report.sweeps).enumerate() {
        let col = COLOURS[k % COLOURS.len()];
        let mut ec: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.get(Method::Pc).utilisation, p.ratios().0))
            .collect();
        ec.sort_by(|a, b| a.0.total_cmp(&b.0));
        c.draw_series(LineSeries::new(ec.clone(), &col))?
            .label(format!("{} EC/PC", t.trace.name))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], col));
        c.draw_series(ec.iter().map(|&p| Circle::new(p, 3, col.filled())))?;
        let lb: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.get(Method::Pc).utilisation, p.ratios().1))
            .collect();
        c.draw_series(lb.iter().map(|&p| TriangleMarker::new(p, 4, col)))?
            .label(format!("{} EC-LB/PC", t.trace.name))
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 4, col));
    }
    c.draw_series(std::iter::once(Cross::new(
        (0.65, 4.7),
        6,
        RED.stroke_width(2),
    )))?
    .label("paper: 4.7 at 0.65")
    .legend(|(x, y)| Cross::new((x + 10, y), 5, RED));
    c.draw_series(LineSeries::new(vec![(0.0, 4.0), (1.0, 4.0)], RED.mix(0.4)))?;
    c.configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
