//! Machines holding tasks, and their grouping into configurations for output.

use super::instance::Instance;
use super::peak::Load;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One machine: its load and its tasks as `(job, count)` pairs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Machine {
    /// Running sums of the tasks on it.
    pub load: Load,
    /// `(job, count)`, at most one entry per job.
    pub tasks: Vec<(usize, u32)>,
}

impl Machine {
    /// Adds one task of job `j`.
    pub fn push(&mut self, inst: &Instance, j: usize) {
        self.load.add(inst, j, 1.0);
        match self.tasks.iter_mut().find(|(k, _)| *k == j) {
            Some(e) => e.1 += 1,
            None => self.tasks.push((j, 1)),
        }
    }
}

/// A machine configuration used `count` times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Configuration {
    /// Number of machines using it.
    pub count: u64,
    /// `[job, n]` pairs, by job index.
    pub tasks: Vec<(usize, u32)>,
}

/// Groups identical machines into configurations (deterministic order).
pub fn group(machines: &[Machine]) -> Vec<Configuration> {
    let mut counts: BTreeMap<Vec<(usize, u32)>, u64> = BTreeMap::new();
    for m in machines.iter().filter(|m| !m.tasks.is_empty()) {
        let mut t = m.tasks.clone();
        t.sort_unstable();
        *counts.entry(t).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(tasks, count)| Configuration { count, tasks })
        .collect()
}

/// Total machines of a configuration list.
pub fn machine_count(configs: &[Configuration]) -> u64 {
    configs.iter().map(|c| c.count).sum()
}
