//! The solution file: what every method returns and what `vcalloc verify` re-checks.

use crate::error::Result;
use crate::problem::Certificate;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One job's placement and grant. In files a sequential job reads `{"host": 2, "cpu": ..}`
/// and a parallel job `{"hosts": [2, 2, 5], "cpu": ..}` (one host per task); `cpu` is the
/// grant of *each* task, so the tasks of a job are equal by construction (eq. 20).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawGrant", into = "RawGrant")]
pub struct JobGrant {
    /// Host index (from 0) of each task.
    pub hosts: Vec<usize>,
    /// CPU fraction granted to each task on its host.
    pub cpu: f64,
}

impl JobGrant {
    /// A sequential job's grant.
    pub fn single(host: usize, cpu: f64) -> Self {
        JobGrant {
            hosts: vec![host],
            cpu,
        }
    }
}

/// The file form of [`JobGrant`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrant {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hosts: Option<Vec<usize>>,
    cpu: f64,
}

impl TryFrom<RawGrant> for JobGrant {
    type Error = String;
    fn try_from(r: RawGrant) -> std::result::Result<Self, String> {
        let hosts = match (r.host, r.hosts) {
            (Some(h), None) => vec![h],
            (None, Some(hs)) if !hs.is_empty() => hs,
            (None, Some(_)) => return Err("`hosts` must list one host per task".into()),
            (Some(_), Some(_)) => return Err("give `host` or `hosts`, not both".into()),
            (None, None) => return Err("missing `host` (or `hosts` for a parallel job)".into()),
        };
        Ok(JobGrant { hosts, cpu: r.cpu })
    }
}

impl From<JobGrant> for RawGrant {
    fn from(g: JobGrant) -> Self {
        let one = g.hosts.len() == 1;
        RawGrant {
            host: one.then(|| g.hosts[0]),
            hosts: (!one).then_some(g.hosts),
            cpu: g.cpu,
        }
    }
}

/// A VCSched answer: the certificate (objective: the minimum yield; bound: an upper bound on
/// the optimal minimum yield, `null` when infeasible) and the allocation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Status, minimum yield, upper bound, gap, seconds (the average-yield phase
    /// included) and the method's counters (attempts, trials, HiGHS iterations…).
    pub certificate: Certificate,
    /// Mean yield of the allocation, when there is one.
    pub avg_yield: Option<f64>,
    /// Adaptation: memory moved by the migrations of this allocation (eq. 31).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migration: Option<f64>,
    /// Adaptation: the budget the method was given (the instance's or `--budget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<f64>,
    /// One entry per job, in instance order; absent when there is no allocation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jobs: Vec<JobGrant>,
}

crate::certified!(Solution);

impl Solution {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a solution always serialises")
    }

    /// Reads a solution file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::input::parse_json(&crate::input::read_text(path)?, path, "solution")
    }

    /// Smallest yield of the allocation, when there is one (the certificate's objective).
    pub fn min_yield(&self) -> Option<f64> {
        self.certificate.objective
    }

    /// Best proven upper bound on the optimal minimum yield (the certificate's bound).
    pub fn upper_bound(&self) -> Option<f64> {
        self.certificate.bound
    }

    /// The placement (host per task, job by job), when there is an allocation.
    pub fn placement(&self) -> Vec<usize> {
        self.jobs
            .iter()
            .flat_map(|j| j.hosts.iter().copied())
            .collect()
    }
}
