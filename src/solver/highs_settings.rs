//! The settings of every HiGHS solve ([`HighsSettings`]), their validation, and the guard
//! that refuses a model too large to build in the memory or the time left (solve methods and
//! `export-lp` alike), its size counted before it is built.

use super::deadline::Deadline;
use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};

/// Options handed to HiGHS for one solve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HighsSettings {
    /// Threads HiGHS may use (1 when many solves run in parallel).
    pub threads: u32,
    /// Relative MIP gap at which HiGHS stops (`mip_rel_gap`).
    pub mip_rel_gap: f64,
    /// Absolute MIP gap at which HiGHS stops (`mip_abs_gap`).
    pub mip_abs_gap: f64,
    /// Primal feasibility tolerance of the LPs (`primal_feasibility_tolerance`).
    pub feasibility_tolerance: f64,
    /// Feasibility and integrality tolerance of a MIP's branch-and-cut
    /// (`mip_feasibility_tolerance`). HiGHS's default 1e-6: at 1e-9 HiGHS claimed optimality
    /// below a feasible point on a VCSched and a rebalance instance (the soak and `exact`
    /// found them; `tests/it/selfcheck.rs`, `tests/it/vcsched_exact.rs`).
    pub mip_feasibility_tolerance: f64,
    /// HiGHS's random seed (it changes tie-breaking, hence reproducibility).
    pub random_seed: i32,
    /// LP algorithm: `choose`, `simplex`, `ipm` or `pdlp` (HiGHS's `solver` option; MIPs
    /// always use HiGHS's branch-and-cut).
    pub lp_algorithm: String,
    /// Simplex variant (HiGHS's `simplex_strategy`: 0 choose, 1 dual, 4 primal). Primal is
    /// the default: on the 64-host, 500-job VCSched relaxation it is 2.3x faster than dual
    /// (docs/results.md) and, unlike PDLP, returns a vertex.
    pub simplex_strategy: i32,
    /// Branch-and-bound node limit (`mip_max_nodes`; `None`: HiGHS's default, no limit). A
    /// deterministic cap on effort, unlike the time limit.
    pub mip_max_nodes: Option<i32>,
    /// HiGHS's sub-MIP heuristics RENS and RINS (`mip_heuristic_run_rens`, `_rins`). Off for
    /// the reduced-cost enumeration's exact-cover masters: half of HiGHS's time there went to
    /// them (Hard28 BPP144, 742 columns: 6.1 → 3.4 s).
    pub mip_sub_mips: bool,
    /// The memory bound of a model build, in MB: a model whose estimated size (ours and
    /// HiGHS's copy, [`model_megabytes`]) is above it is not built, and the method answers
    /// with its warm start or heuristic, labelled so (`model_not_built` in its stats).
    pub max_model_mb: f64,
    /// Nonzeros the build, HiGHS's load and its presolve handle per second (measured on 2
    /// cores: a 16-million-nonzero rebalance MILP took 8 s to build and load, and HiGHS then
    /// overran a 20 s limit by 15 s in presolve): a model that would take
    /// more than half the seconds left at this rate is not built either, so a time limit is
    /// kept whatever the size and HiGHS has the other half.
    pub build_nonzeros_per_second: f64,
}

impl Default for HighsSettings {
    fn default() -> Self {
        HighsSettings {
            threads: 1,
            mip_rel_gap: 1e-7,
            mip_abs_gap: 1e-9,
            feasibility_tolerance: 1e-9,
            mip_feasibility_tolerance: 1e-6,
            random_seed: 0,
            lp_algorithm: "choose".into(),
            simplex_strategy: 4,
            mip_max_nodes: None,
            mip_sub_mips: true,
            max_model_mb: 4096.0,
            build_nonzeros_per_second: 1e6,
        }
    }
}

impl HighsSettings {
    /// The first field HiGHS would refuse (its option's range), as `(field, value, reason)`:
    /// checked when settings are read, so the error names the file and the key rather than
    /// failing as a solver error in the middle of a solve.
    pub fn invalid(&self) -> Option<(&'static str, String, &'static str)> {
        let num = crate::input::number;
        let tolerance = |v: f64| v.is_finite() && (1e-10..=1.0).contains(&v);
        if !(self.mip_rel_gap.is_finite() && self.mip_rel_gap >= 0.0) {
            return Some((
                "mip_rel_gap",
                num(self.mip_rel_gap),
                "must be a finite number ≥ 0",
            ));
        }
        if !(self.mip_abs_gap.is_finite() && self.mip_abs_gap >= 0.0) {
            return Some((
                "mip_abs_gap",
                num(self.mip_abs_gap),
                "must be a finite number ≥ 0",
            ));
        }
        if !tolerance(self.feasibility_tolerance) {
            let v = num(self.feasibility_tolerance);
            return Some((
                "feasibility_tolerance",
                v,
                "must be in [1e-10, 1] (HiGHS's range)",
            ));
        }
        if !tolerance(self.mip_feasibility_tolerance) {
            let v = num(self.mip_feasibility_tolerance);
            return Some((
                "mip_feasibility_tolerance",
                v,
                "must be in [1e-10, 1] (HiGHS's range)",
            ));
        }
        if self.random_seed < 0 {
            return Some(("random_seed", self.random_seed.to_string(), "must be ≥ 0"));
        }
        if !["choose", "simplex", "ipm", "pdlp"].contains(&self.lp_algorithm.as_str()) {
            let why = "must be choose, simplex, ipm or pdlp";
            return Some(("lp_algorithm", self.lp_algorithm.clone(), why));
        }
        if !(0..=4).contains(&self.simplex_strategy) {
            let why = "must be 0 (choose), 1 (dual), 2, 3 or 4 (primal)";
            return Some(("simplex_strategy", self.simplex_strategy.to_string(), why));
        }
        if let Some(n) = self.mip_max_nodes.filter(|&n| n < 0) {
            return Some(("mip_max_nodes", n.to_string(), "must be ≥ 0"));
        }
        for (key, v) in [
            ("max_model_mb", self.max_model_mb),
            ("build_nonzeros_per_second", self.build_nonzeros_per_second),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Some((key, num(v), "must be a finite number > 0"));
            }
        }
        None
    }

    /// Why a model of `rows`, `cols` and `nonzeros` (an estimate made before building it)
    /// must not be built: above [`HighsSettings::max_model_mb`], or more than the seconds
    /// left at [`HighsSettings::build_nonzeros_per_second`] can build and load. `None`: build.
    pub fn refuse_model(
        &self,
        rows: u64,
        cols: u64,
        nonzeros: u64,
        deadline: &Deadline,
    ) -> Option<String> {
        let mb = model_megabytes(rows, cols, nonzeros);
        if mb > self.max_model_mb {
            return Some(format!(
                "the model ({rows} rows, {cols} columns, {nonzeros} nonzeros, about {mb:.0} MB) \
                 exceeds max_model_mb = {}",
                self.max_model_mb
            ));
        }
        let left = deadline.remaining_secs();
        match left {
            Some(t) if nonzeros as f64 > 0.5 * t * self.build_nonzeros_per_second => Some(format!(
                "the model ({nonzeros} nonzeros) cannot be built and loaded in half the {t:.2} s \
                 left (build_nonzeros_per_second = {})",
                self.build_nonzeros_per_second
            )),
            _ => None,
        }
    }
}

impl HighsSettings {
    /// [`HighsSettings::refuse_model`] for a model written to a file (`export-lp`: no
    /// deadline), `size` counted before building it: an input error on `source` (exit 2)
    /// naming `what`, the size, the limit and where the limit comes from (`setting`).
    pub fn refuse_export(
        &self,
        source: &str,
        what: &str,
        (rows, cols, nonzeros): (u64, u64, u64),
        setting: &str,
    ) -> Result<()> {
        match self.refuse_model(rows, cols, nonzeros, &Deadline::none()) {
            None => Ok(()),
            Some(why) => {
                let why = format!("{what} is not exported: {why} ({setting})");
                Err(InputError::new(source, Location::File, "", why).into())
            }
        }
    }
}

/// The memory of a built and presolved model, MB, estimated: 200 bytes per nonzero (our entry,
/// HiGHS's column- and row-wise copies and its presolve's) and 150 per row or column (a name,
/// our record, HiGHS's arrays). Measured: the 16-million-nonzero, 7.6-million-row-and-column
/// rebalance MILP peaked at 4.8 GB; this gives 4.3 GB.
pub fn model_megabytes(rows: u64, cols: u64, nonzeros: u64) -> f64 {
    (nonzeros as f64 * 200.0 + (rows + cols) as f64 * 150.0) / 1e6
}
