//! The solution file: what every method returns and what `vcalloc verify` re-checks.

use crate::error::Result;
use crate::Status;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One job's placement and grant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobGrant {
    /// Host index, from 0.
    pub host: usize,
    /// `α_ij`: CPU fraction actually granted on that host.
    pub cpu: f64,
}

/// A VCSched answer: solution (possibly none), status, bound, gap and time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Always `"vcsched"`.
    pub problem: String,
    /// The method's name, e.g. `"mcb8"`.
    pub method: String,
    /// `optimal` only when proven; `infeasible` only when proven.
    pub status: Status,
    /// Smallest yield of the allocation, when there is one.
    pub min_yield: Option<f64>,
    /// Mean yield of the allocation, when there is one.
    pub avg_yield: Option<f64>,
    /// Best proven upper bound on the optimal minimum yield (`null` when infeasible).
    pub upper_bound: Option<f64>,
    /// `(upper_bound − min_yield) / upper_bound`, when both exist.
    pub gap: Option<f64>,
    /// Wall-clock seconds of the method, average-yield phase included.
    pub seconds: f64,
    /// One entry per job, in instance order; absent when there is no allocation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jobs: Vec<JobGrant>,
    /// Method-specific counters (attempts, trials, HiGHS iterations, the two LP bounds…).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, f64>,
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

    /// The placement (host per job), when there is an allocation.
    pub fn placement(&self) -> Vec<usize> {
        self.jobs.iter().map(|j| j.host).collect()
    }
}
