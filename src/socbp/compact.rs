//! The compact model of SOC-capacity bin packing, for `export-lp` (CPLEX LP with quadratic
//! rows, read by CPLEX, Gurobi and SCIP):
//!
//! ```text
//! min Σ_j y_j
//! Σ_j x_ij = 1                              every item in one bin
//! Σ_i a_i x_ij + D t_j − c y_j ≤ 0          the bin's linear part and its root
//! Σ_i b_i x_ij² − t_j² ≤ 0,  t_j ≥ 0        t_j ≥ √(Σ b_i x_ij): x binary, so x² = x (a cone)
//! y_j ≥ y_{j+1};  x, y binary;  j < the bins first fit decreasing uses
//! ```

use super::instance::Instance;
use super::solve::fit_decreasing;
use crate::error::Result;
use crate::solver::{
    Bounds, HighsSettings, LinearModel, ModelFormat, QuadraticModel, QuadraticRow, Sense,
};

/// The model over `bins` bins. Columns: `x_i_j` (item-major), then `y_j`, then `t_j`.
pub fn model(inst: &Instance, bins: usize) -> QuadraticModel {
    let n = inst.len();
    let mut m = LinearModel::new(Sense::Minimize);
    let item: Vec<_> = (0..n)
        .map(|i| m.add_row(format!("item_{i}"), Bounds::equal(1.0)))
        .collect();
    let lin: Vec<_> = (0..bins)
        .map(|j| m.add_row(format!("cap_{j}"), Bounds::at_most(0.0)))
        .collect();
    let order: Vec<_> = (1..bins)
        .map(|j| m.add_row(format!("order_{j}"), Bounds::at_least(0.0)))
        .collect();
    let x: Vec<Vec<_>> = (0..n)
        .map(|i| {
            (0..bins)
                .map(|j| {
                    let e = vec![(item[i], 1.0), (lin[j], inst.a[i])];
                    m.add_col(format!("x_{i}_{j}"), 0.0, Bounds::new(0.0, 1.0), true, e)
                })
                .collect()
        })
        .collect();
    for j in 0..bins {
        let mut e = vec![(lin[j], -inst.capacity)];
        if j > 0 {
            e.push((order[j - 1], -1.0));
        }
        if j + 1 < bins {
            e.push((order[j], 1.0));
        }
        m.add_col(format!("y_{j}"), 1.0, Bounds::new(0.0, 1.0), true, e);
    }
    let quadratic = (0..bins)
        .map(|j| {
            let t = m.add_col(
                format!("t_{j}"),
                0.0,
                Bounds::at_least(0.0),
                false,
                vec![(lin[j], inst.d)],
            );
            let mut terms: Vec<_> = (0..n)
                .filter(|&i| inst.b[i] != 0.0)
                .map(|i| (x[i][j], x[i][j], inst.b[i]))
                .collect();
            terms.push((t, t, -1.0));
            QuadraticRow {
                name: format!("root_{j}"),
                terms,
                upper: 0.0,
            }
        })
        .collect();
    QuadraticModel {
        linear: m,
        quadratic,
    }
}

/// Rows (linear and quadratic), columns and nonzeros (matrix entries and quadratic terms) of
/// [`model`] over `bins` bins, counted without building it.
pub fn size(inst: &Instance, bins: usize) -> (u64, u64, u64) {
    let (n, b) = (inst.len() as u64, bins as u64);
    let with_b = inst.b.iter().filter(|&&b| b != 0.0).count() as u64;
    let order = b.saturating_sub(1);
    let rows = n + b + order + b;
    let cols = n * b + 2 * b;
    let nonzeros = 2 * n * b + b + 2 * order + b + b * (with_b + 1);
    (rows, cols, nonzeros)
}

/// The model over first fit decreasing's bin count, as CPLEX LP (MPS: an error, see
/// [`QuadraticModel::write`]); refused (an input error, exit 2) when its size, counted before
/// it is built, is above `highs.max_model_mb` (SOC packing has no HiGHS settings: the
/// default's, as in its solve methods).
pub fn lp_file(
    inst: &Instance,
    source: &str,
    format: ModelFormat,
    highs: &HighsSettings,
) -> Result<String> {
    let bins = fit_decreasing(inst, false).len();
    let what = format!("the compact model over {bins} bins");
    let setting = "the limit of SOC packing's HiGHS models, which take no settings";
    highs.refuse_export(source, &what, size(inst, bins), setting)?;
    let comment = vec![
        "SOC-capacity bin packing: sum a x + D t <= c y, sum b x^2 <= t^2 per bin (models/packing.md)".to_string(),
        format!(
            "instance: {source}: {} items, c = {}, D = {}, {bins} bins (first fit decreasing's count)",
            inst.len(),
            inst.capacity,
            inst.d
        ),
        "x binary, so the quadratic row is the second-order cone t >= sqrt(sum b x)".to_string(),
    ];
    model(inst, bins).write(format, &comment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{read_lp, Deadline};

    /// The LP text reads back to the same model, and branch-and-price's optimal packing is a
    /// point of the model (every row and cone within 1e-9) with its bin count as objective.
    #[test]
    fn the_export_round_trips_and_holds_the_optimum() {
        let text = include_str!("../../data/examples/socbp.json");
        let inst: Instance = serde_json::from_str(text).unwrap();
        let highs = HighsSettings::default();
        let exported = lp_file(&inst, "socbp.json", ModelFormat::Lp, &highs).unwrap();
        let bins = fit_decreasing(&inst, false).len();
        let m = model(&inst, bins);
        assert_eq!(read_lp(&exported).unwrap().canonical(), m.canonical());
        let sol = super::super::solve(
            &inst,
            super::super::Method::Bp,
            &Default::default(),
            &Deadline::none(),
        )
        .unwrap();
        let n = inst.len();
        let mut point = vec![0.0; m.linear.cols.len()];
        for (j, bin) in sol.bins.iter().enumerate() {
            for &i in bin {
                point[i * bins + j] = 1.0;
            }
            point[n * bins + j] = 1.0;
            point[n * bins + bins + j] = bin.iter().map(|&i| inst.b[i]).sum::<f64>().sqrt();
        }
        assert!(
            m.max_violation(&point) <= 1e-9,
            "{}",
            m.max_violation(&point)
        );
        assert_eq!(m.linear.objective_of(&point), sol.bins.len() as f64);
        assert!(lp_file(&inst, "x", ModelFormat::Mps, &highs).is_err());
    }

    /// The counts made before building are the built model's, and a limit below them
    /// refuses the export with an input error naming the size and the limit.
    #[test]
    fn the_size_is_counted_before_building_and_guards_the_export() {
        let text = include_str!("../../data/examples/socbp.json");
        let mut inst: Instance = serde_json::from_str(text).unwrap();
        inst.b[0] = 0.0; // an item without a quadratic term
        for bins in [0, 1, 2, 7] {
            assert_eq!(size(&inst, bins), model(&inst, bins).size(), "{bins} bins");
        }
        let small = HighsSettings {
            max_model_mb: 1e-3,
            ..HighsSettings::default()
        };
        let err = lp_file(&inst, "soc.json", ModelFormat::Lp, &small).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, crate::Error::Input(_)), "{msg}");
        let (rows, cols, nonzeros) = size(&inst, fit_decreasing(&inst, false).len());
        for part in [
            format!("{rows} rows, {cols} columns, {nonzeros} nonzeros"),
            "max_model_mb = 0.001".to_string(),
            "soc.json".to_string(),
        ] {
            assert!(msg.contains(&part), "{part} not in {msg}");
        }
    }
}
