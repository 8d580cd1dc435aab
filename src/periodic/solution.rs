//! The periodic solution file.

use super::packing::Configuration;
use crate::error::Result;
use crate::Status;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A periodic-packing answer: configurations, machine count, bounds and gap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Always `"periodic"`.
    pub problem: String,
    /// Method name (`cg`, `bfd`, `mm`, `mmm`, `lower-bound`).
    pub method: String,
    /// `optimal` only when `machines` equals the proven lower bound.
    pub status: Status,
    /// Machines used (`null` for `lower-bound`).
    pub machines: Option<u64>,
    /// Best proven lower bound on the number of machines.
    pub lower_bound: u64,
    /// Lower bound on the LP optimum of the master (column generation only).
    pub lp_bound: Option<f64>,
    /// `(machines − lower_bound) / machines`.
    pub gap: Option<f64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Column-generation iterations (0 for heuristics).
    pub iterations: u32,
    /// Machine configurations; each task placed exactly once.
    #[serde(default)]
    pub configurations: Vec<Configuration>,
    /// Extra figures (phase times, columns, pricing calls, …).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub stats: std::collections::BTreeMap<String, f64>,
}

impl Solution {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a solution always serialises")
    }

    /// Reads a solution file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::input::parse_json(&crate::input::read_text(path)?, path, "solution")
    }
}
