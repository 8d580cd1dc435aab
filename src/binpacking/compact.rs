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
use crate::solver::{Bounds, LinearModel, ModelFormat, Sense};

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

/// The MILP over as many bins as best fit decreasing uses (enough for an optimum), as CPLEX LP
/// or MPS.
pub fn lp_file(inst: &Instance, source: &str, format: ModelFormat) -> String {
    let bins = fit_decreasing(&inst.items, &inst.capacity, true).len();
    let comment = vec![
        "Bin / vector packing: the assignment MILP (models/packing.md), symmetry rows y_j >= y_j+1"
            .to_string(),
        format!(
            "instance: {source}: {} items, {} dimension(s), {bins} bins (best fit decreasing's count)",
            inst.len(),
            inst.dims()
        ),
    ];
    format.write(&assignment_milp(inst, bins), &comment)
}
