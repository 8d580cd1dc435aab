//! The periodic solution file.

use super::packing::Configuration;
use crate::error::Result;
use crate::problem::{Certificate, Sense};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// A periodic-packing answer: the certificate (objective: machines; bound: a proven lower
/// bound on the number of machines) and the configurations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Status, machines, lower bound, gap `(machines − bound) / machines`, seconds and
    /// extra figures (phase times, columns, pricing calls…).
    pub certificate: Certificate,
    /// Lower bound on the LP optimum of the master (column generation only).
    pub lp_bound: Option<f64>,
    /// Column-generation iterations (0 for heuristics).
    pub iterations: u32,
    /// Machine configurations; each task placed exactly once.
    #[serde(default)]
    pub configurations: Vec<Configuration>,
}

crate::certified!(Solution);

impl Solution {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a solution always serialises")
    }

    /// Machines used (`None` for `lower-bound`): the certificate's objective.
    pub fn machines(&self) -> Option<u64> {
        self.certificate.objective.map(|m| m as u64)
    }

    /// The proven lower bound on the number of machines: the certificate's bound.
    pub fn lower_bound(&self) -> u64 {
        self.certificate.bound.map_or(0, |b| b as u64)
    }

    /// Reads a solution file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::input::parse_json(&crate::input::read_text(path)?, path, "solution")
    }
}

/// The answer of `method`: its configurations (if any), machine count, proven lower bound, LP
/// bound and iterations, timed from `began`.
pub(super) fn finished(
    method: &str,
    configurations: Option<Vec<Configuration>>,
    machines: u64,
    lower_bound: u64,
    lp_bound: Option<f64>,
    iterations: u32,
    began: Instant,
) -> Solution {
    let mut certificate = Certificate::new(super::NAME, method, Sense::Minimize);
    certificate.bound = Some(lower_bound as f64);
    // The heuristics' bound; column generation replaces it with its own.
    certificate.proof = Some(crate::problem::Proof::closed_form("total-demand"));
    if configurations.is_some() {
        certificate.scored(machines as f64, lower_bound as f64, 0.0);
    }
    certificate.seconds = began.elapsed().as_secs_f64();
    Solution {
        certificate,
        lp_bound,
        iterations,
        configurations: configurations.unwrap_or_default(),
    }
}
