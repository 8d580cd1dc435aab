//! One CSV row per (instance, method): the instance's parameters, the method's answer.

use super::sets::{InstanceRef, Spec};
use serde::{Deserialize, Serialize};

/// A result row. Parameters that do not apply to the set are empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Set name.
    pub set: String,
    /// Instance identifier (specification and index).
    pub instance: String,
    /// Index within the specification.
    pub index: usize,
    /// Generator seed.
    pub seed: u64,
    /// VCSched: hosts.
    pub hosts: Option<usize>,
    /// Jobs.
    pub jobs: Option<usize>,
    /// VCSched: memory slack.
    pub slack: Option<f64>,
    /// VCSched: cv of memory needs.
    pub cv_mem: Option<f64>,
    /// VCSched: cv of CPU needs.
    pub cv_cpu: Option<f64>,
    /// Periodic: task size class.
    pub tasks: Option<String>,
    /// Periodic: amplitude class.
    pub amplitude: Option<String>,
    /// Method.
    pub method: String,
    /// Status (`optimal`, `feasible`, `infeasible`, `unknown`, or `error`).
    pub status: String,
    /// VCSched: minimum yield; periodic: machines.
    pub objective: Option<f64>,
    /// VCSched: average yield.
    pub objective2: Option<f64>,
    /// VCSched: upper bound on the minimum yield; periodic: lower bound on machines.
    pub bound: Option<f64>,
    /// Relative gap.
    pub gap: Option<f64>,
    /// Wall-clock seconds of the method.
    pub seconds: f64,
    /// Column-generation iterations (periodic `cg`), placement attempts or trials otherwise.
    pub iterations: Option<f64>,
    /// An error message when the method failed.
    pub error: Option<String>,
    /// Adaptation: the budget as a fraction of the staying tasks' memory.
    #[serde(default)]
    pub budget: Option<f64>,
    /// Adaptation: memory moved by the method's migrations.
    #[serde(default)]
    pub migration: Option<f64>,
}

impl Row {
    /// A row with the instance's parameters filled in.
    pub fn for_instance(set: &str, inst: &InstanceRef, method: &str) -> Row {
        let mut row = Row {
            set: set.into(),
            instance: inst.id.clone(),
            index: inst.index,
            seed: inst.seed,
            hosts: None,
            jobs: None,
            slack: None,
            cv_mem: None,
            cv_cpu: None,
            tasks: None,
            amplitude: None,
            method: method.into(),
            status: String::new(),
            objective: None,
            objective2: None,
            bound: None,
            gap: None,
            seconds: 0.0,
            iterations: None,
            error: None,
            budget: None,
            migration: None,
        };
        match inst.spec {
            Spec::Adapt {
                base: s,
                budget_fraction,
            } => {
                row.hosts = Some(s.hosts);
                row.jobs = Some(s.jobs);
                row.slack = Some(s.slack);
                row.cv_mem = Some(s.cv_mem);
                row.cv_cpu = Some(s.cv_cpu);
                row.budget = Some(budget_fraction);
            }
            Spec::Vcsched(s) => {
                row.hosts = Some(s.hosts);
                row.jobs = Some(s.jobs);
                row.slack = Some(s.slack);
                row.cv_mem = Some(s.cv_mem);
                row.cv_cpu = Some(s.cv_cpu);
            }
            Spec::Periodic {
                tasks,
                amplitude,
                jobs,
            } => {
                row.jobs = Some(jobs);
                row.tasks = Some(format!("{tasks:?}").to_lowercase());
                row.amplitude = Some(format!("{amplitude:?}").to_lowercase());
            }
        }
        row
    }

    /// The resume key.
    pub fn key(&self) -> (String, String) {
        (self.instance.clone(), self.method.clone())
    }
}
