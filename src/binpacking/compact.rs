//! The compact assignment MILP of bin and vector packing (Kantorovich's model): the
//! independent check of branch-and-price and the model `export-lp` writes for other solvers.
//!
//! ```text
//! min Σ_j y_j
//! Σ_j x_ij = 1                      every item i in one bin
//! Σ_i w_id x_ij ≤ C_d y_j           every bin j and dimension d
//! y_j ≥ y_{j+1}                     bins used in order (symmetry)
//! x, y binary,  j < the bins best fit decreasing uses
//! ```

use super::instance::Instance;
use crate::colgen::vector::fit_decreasing;
use crate::error::Result;
use crate::solver::{Bounds, HighsSettings, LinearModel, ModelFormat, Sense};

/// The MILP over `bins` bins.
pub fn assignment_milp(inst: &Instance, bins: usize) -> LinearModel {
    let (n, dims) = (inst.len(), inst.dims());
    let mut m = LinearModel::new(Sense::Minimize);
    let assign: Vec<_> = (0..n)
        .map(|i| m.add_row(format!("item_{i}"), Bounds::equal(1.0)))
        .collect();
    let cap: Vec<Vec<_>> = (0..bins)
        .map(|j| {
            (0..dims)
                .map(|d| m.add_row(format!("cap_{j}_{d}"), Bounds::at_most(0.0)))
                .collect()
        })
        .collect();
    let order: Vec<_> = (1..bins)
        .map(|j| m.add_row(format!("order_{j}"), Bounds::at_least(0.0)))
        .collect();
    for (i, &a) in assign.iter().enumerate() {
        for (j, cj) in cap.iter().enumerate() {
            let mut e = vec![(a, 1.0)];
            e.extend((0..dims).map(|d| (cj[d], inst.items[i][d] as f64)));
            m.add_col(format!("x_{i}_{j}"), 0.0, Bounds::new(0.0, 1.0), true, e);
        }
    }
    for j in 0..bins {
        let mut e: Vec<_> = (0..dims)
            .map(|d| (cap[j][d], -(inst.capacity[d] as f64)))
            .collect();
        if j > 0 {
            e.push((order[j - 1], -1.0));
        }
        if j + 1 < bins {
            e.push((order[j], 1.0));
        }
        m.add_col(format!("y_{j}"), 1.0, Bounds::new(0.0, 1.0), true, e);
    }
    m
}

/// Rows, columns and nonzeros of [`assignment_milp`] over `bins` bins, counted without
/// building it.
pub fn size(inst: &Instance, bins: usize) -> (u64, u64, u64) {
    let (n, d, b) = (inst.len() as u64, inst.dims() as u64, bins as u64);
    let order = b.saturating_sub(1);
    let rows = n + b * d + order;
    let cols = n * b + b;
    let nonzeros = n * b * (1 + d) + b * d + 2 * order;
    (rows, cols, nonzeros)
}

/// The MILP over as many bins as best fit decreasing uses (enough for an optimum), as CPLEX LP
/// or MPS; refused (an input error, exit 2) when its size, counted before it is built, is
/// above `highs.max_model_mb` (bin packing has no HiGHS settings: the default's, as in its
/// solve methods).
pub fn lp_file(
    inst: &Instance,
    source: &str,
    format: ModelFormat,
    highs: &HighsSettings,
) -> Result<String> {
    let bins = fit_decreasing(&inst.items, &inst.capacity, true).len();
    let what = format!("the assignment MILP over {bins} bins");
    let setting = "the limit of bin packing's HiGHS models, which take no settings";
    highs.refuse_export(source, &what, size(inst, bins), setting)?;
    let comment = vec![
        "Bin / vector packing: the assignment MILP (models/packing.md), symmetry rows y_j >= y_j+1"
            .to_string(),
        format!(
            "instance: {source}: {} items, {} dimension(s), {bins} bins (best fit decreasing's count)",
            inst.len(),
            inst.dims()
        ),
    ];
    Ok(format.write(&assignment_milp(inst, bins), &comment))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts made before building are the built model's, and a limit below them
    /// refuses the export with an input error naming the size and the limit.
    #[test]
    fn the_size_is_counted_before_building_and_guards_the_export() {
        let text = include_str!("../../data/examples/vbp.json");
        let inst: Instance = serde_json::from_str(text).unwrap();
        for bins in [0, 1, 2, 7] {
            let built = assignment_milp(&inst, bins).size();
            assert_eq!(size(&inst, bins), built, "{bins} bins");
        }
        let default = HighsSettings::default();
        assert!(lp_file(&inst, "vbp.json", ModelFormat::Lp, &default).is_ok());
        let small = HighsSettings {
            max_model_mb: 1e-3,
            ..default
        };
        let err = lp_file(&inst, "vbp.json", ModelFormat::Lp, &small).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, crate::Error::Input(_)), "{msg}");
        let bins = fit_decreasing(&inst.items, &inst.capacity, true).len();
        let (rows, cols, nonzeros) = size(&inst, bins);
        for part in [
            format!("{rows} rows, {cols} columns, {nonzeros} nonzeros"),
            "max_model_mb = 0.001".to_string(),
            "vbp.json".to_string(),
        ] {
            assert!(msg.contains(&part), "{part} not in {msg}");
        }
    }
}
