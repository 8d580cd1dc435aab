//! The compact model of periodic packing, for `export-lp` (CPLEX LP with quadratic rows, read
//! by CPLEX, Gurobi and SCIP). A machine's demand `Σ_j n_j (C_j + ρ_j sin(2πt/P + φ_j))` peaks
//! at `Σ n_j C_j + ‖Σ n_j r_j‖`, `r_j = (ρ_j cos φ_j, ρ_j sin φ_j)` (models/periodic.md), so
//! with general integers `n_jm` (tasks of job j on machine m):
//!
//! ```text
//! min Σ_m y_m
//! Σ_m n_jm = N_j                                   every task placed
//! u_m − Σ_j ρ_j cos φ_j n_jm = 0,  v_m − Σ_j ρ_j sin φ_j n_jm = 0   (u, v free)
//! Σ_j C_j n_jm + s_m − Cap y_m ≤ 0,  s_m ≥ 0       the mean and the amplitude within Cap
//! u_m² + v_m² − s_m² ≤ 0                           s_m ≥ ‖(u_m, v_m)‖ (a cone)
//! n_jm ≤ N_j y_m;  y_m ≥ y_{m+1};  y binary;  m < the machines best fit decreasing uses
//! ```

use super::heuristics::best_fit_decreasing;
use super::instance::Instance;
use crate::error::Result;
use crate::solver::{
    Bounds, HighsSettings, LinearModel, ModelFormat, QuadraticModel, QuadraticRow, Sense,
};

/// The model over `machines` machines. Columns: `n_j_m` (job-major), then per machine `y_m`,
/// `u_m`, `v_m`, `s_m`.
pub fn model(inst: &Instance, machines: usize) -> QuadraticModel {
    let jobs = inst.jobs.len();
    let mut m = LinearModel::new(Sense::Minimize);
    let placed: Vec<_> = (0..jobs)
        .map(|j| m.add_row(format!("job_{j}"), Bounds::equal(inst.jobs[j].tasks as f64)))
        .collect();
    let mut rows = |prefix: &str, bounds: Bounds| -> Vec<_> {
        (0..machines)
            .map(|k| m.add_row(format!("{prefix}_{k}"), bounds))
            .collect()
    };
    let (u_rows, v_rows) = (rows("u", Bounds::equal(0.0)), rows("v", Bounds::equal(0.0)));
    let cap = rows("cap", Bounds::at_most(0.0));
    let order: Vec<_> = (1..machines)
        .map(|k| m.add_row(format!("order_{k}"), Bounds::at_least(0.0)))
        .collect();
    let open: Vec<Vec<_>> = (0..jobs)
        .map(|j| {
            (0..machines)
                .map(|k| m.add_row(format!("open_{j}_{k}"), Bounds::at_most(0.0)))
                .collect()
        })
        .collect();
    for (j, job) in inst.jobs.iter().enumerate() {
        for k in 0..machines {
            let e = vec![
                (placed[j], 1.0),
                (u_rows[k], -job.x()),
                (v_rows[k], -job.y()),
                (cap[k], job.mean),
                (open[j][k], 1.0),
            ];
            let bounds = Bounds::new(0.0, job.tasks as f64);
            m.add_col(format!("n_{j}_{k}"), 0.0, bounds, true, e);
        }
    }
    let free = Bounds::new(f64::NEG_INFINITY, f64::INFINITY);
    let mut quadratic = Vec::new();
    for k in 0..machines {
        let mut e = vec![(cap[k], -inst.capacity)];
        if k > 0 {
            e.push((order[k - 1], -1.0));
        }
        if k + 1 < machines {
            e.push((order[k], 1.0));
        }
        e.extend((0..jobs).map(|j| (open[j][k], -(inst.jobs[j].tasks as f64))));
        m.add_col(format!("y_{k}"), 1.0, Bounds::new(0.0, 1.0), true, e);
        let u = m.add_col(format!("u_{k}"), 0.0, free, false, vec![(u_rows[k], 1.0)]);
        let v = m.add_col(format!("v_{k}"), 0.0, free, false, vec![(v_rows[k], 1.0)]);
        let s = m.add_col(
            format!("s_{k}"),
            0.0,
            Bounds::at_least(0.0),
            false,
            vec![(cap[k], 1.0)],
        );
        quadratic.push(QuadraticRow {
            name: format!("amplitude_{k}"),
            terms: vec![(u, u, 1.0), (v, v, 1.0), (s, s, -1.0)],
            upper: 0.0,
        });
    }
    QuadraticModel {
        linear: m,
        quadratic,
    }
}

/// Rows (linear and quadratic), columns and nonzeros (matrix entries and quadratic terms) of
/// [`model`] over `machines` machines, counted without building it.
pub fn size(inst: &Instance, machines: usize) -> (u64, u64, u64) {
    let (j, m) = (inst.jobs.len() as u64, machines as u64);
    let order = m.saturating_sub(1);
    let rows = j + 3 * m + order + j * m + m;
    let cols = j * m + 4 * m;
    let nonzeros = 6 * j * m + m + 2 * order + 3 * m + 3 * m;
    (rows, cols, nonzeros)
}

/// The model over best fit decreasing's machine count, as CPLEX LP (MPS: an error, see
/// [`QuadraticModel::write`]); refused (an input error, exit 2) when its size is above
/// `highs.max_model_mb`, the guard of the solve methods' HiGHS models, counted before it is
/// built.
pub fn lp_file(
    inst: &Instance,
    source: &str,
    format: ModelFormat,
    highs: &HighsSettings,
) -> Result<String> {
    let machines = best_fit_decreasing(inst).len();
    let what = format!("the compact model over {machines} machines");
    let setting = "the setting highs.max_model_mb, in --settings";
    highs.refuse_export(source, &what, size(inst, machines), setting)?;
    let comment = vec![
        "Periodic packing: the peak sum C n + |sum n r| <= Cap y per machine as a cone (models/periodic.md)".to_string(),
        format!(
            "instance: {source}: {} jobs, {} tasks, Cap = {}, {machines} machines (best fit decreasing's count)",
            inst.jobs.len(),
            inst.jobs.iter().map(|j| j.tasks as u64).sum::<u64>(),
            inst.capacity
        ),
    ];
    model(inst, machines).write(format, &comment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::read_lp;

    /// The LP text reads back to the same model, and the `bp` optimum is a point of the model
    /// (every row and cone within 1e-9) with its machine count as objective.
    #[test]
    fn the_export_round_trips_and_holds_the_optimum() {
        let text = include_str!("../../data/examples/periodic.json");
        let inst: Instance = serde_json::from_str(text).unwrap();
        let highs = HighsSettings::default();
        let exported = lp_file(&inst, "periodic.json", ModelFormat::Lp, &highs).unwrap();
        let machines = best_fit_decreasing(&inst).len();
        let m = model(&inst, machines);
        assert_eq!(read_lp(&exported).unwrap().canonical(), m.canonical());
        let sol =
            super::super::solve(&inst, super::super::Method::Bp, &Default::default()).unwrap();
        let jobs = inst.jobs.len();
        let mut point = vec![0.0; m.linear.cols.len()];
        let mut k = 0;
        for c in &sol.configurations {
            for _ in 0..c.count {
                let (mut u, mut v, mut mean) = (0.0, 0.0, 0.0);
                for &(j, n) in &c.tasks {
                    point[j * machines + k] = n as f64;
                    u += n as f64 * inst.jobs[j].x();
                    v += n as f64 * inst.jobs[j].y();
                    mean += n as f64 * inst.jobs[j].mean;
                }
                let base = jobs * machines + 4 * k;
                point[base] = 1.0;
                point[base + 1] = u;
                point[base + 2] = v;
                point[base + 3] = (u * u + v * v).sqrt();
                assert!(mean + point[base + 3] <= inst.capacity + 1e-9);
                k += 1;
            }
        }
        assert!(k <= machines);
        assert!(
            m.max_violation(&point) <= 1e-9,
            "{}",
            m.max_violation(&point)
        );
        assert_eq!(m.linear.objective_of(&point), k as f64);
        assert!(lp_file(&inst, "x", ModelFormat::Mps, &highs).is_err());
    }

    /// The counts made before building are the built model's, and a `highs.max_model_mb`
    /// below them refuses the export with an input error naming the size and the setting.
    #[test]
    fn the_size_is_counted_before_building_and_guards_the_export() {
        let text = include_str!("../../data/examples/periodic.json");
        let inst: Instance = serde_json::from_str(text).unwrap();
        for machines in [0, 1, 2, 7] {
            let built = model(&inst, machines).size();
            assert_eq!(size(&inst, machines), built, "{machines} machines");
        }
        let highs = HighsSettings {
            max_model_mb: 1e-3,
            ..HighsSettings::default()
        };
        let err = lp_file(&inst, "p.json", ModelFormat::Lp, &highs).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, crate::Error::Input(_)), "{msg}");
        let (rows, cols, nonzeros) = size(&inst, best_fit_decreasing(&inst).len());
        for part in [
            format!("{rows} rows, {cols} columns, {nonzeros} nonzeros"),
            "max_model_mb = 0.001".to_string(),
            "highs.max_model_mb".to_string(),
            "p.json".to_string(),
        ] {
            assert!(msg.contains(&part), "{part} not in {msg}");
        }
    }
}
