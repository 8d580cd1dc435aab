//! An evolving-applications instance (§3.3): a cluster of `N` nodes and a list of apps, each
//! with its requested evolution profile. The list order is the order Algorithm 1 serves them.
//!
//! File format: `{"nodes": 100, "apps": [{"name": "a0", "steps": [[500, 5], [3600, 10]]}]}`.

use super::profile::{Ep, Step};
use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest total of all durations accepted: a quarter of `i64::MAX`, so that every time the
/// algorithms form (a start plus a stretched span, a mirror `C − t`, `l·d` saturated) stays
/// exact. Not tunable: it is the arithmetic's safety margin, not a modelling choice.
pub const MAX_TOTAL_TIME: i64 = i64::MAX / 4;

/// One application and its requested EP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct App {
    /// A label for reports (need not be unique).
    #[serde(default)]
    pub name: String,
    /// `(d_k, n_k)`, written `[duration, nodes]`.
    pub steps: Vec<Step>,
}

impl App {
    /// The requested EP.
    pub fn ep(&self) -> Ep {
        Ep::new(self.steps.clone())
    }
    /// `Σ d_k`: the app's run time without expansion.
    pub fn total_duration(&self) -> i64 {
        self.steps.iter().map(|s| s.duration).sum()
    }
    /// `max n_k`: what a rigid scheduler must hold for the whole run.
    pub fn peak_nodes(&self) -> i64 {
        self.steps.iter().map(|s| s.nodes).max().unwrap_or(0)
    }
    /// `U = Σ n_k d_k`: the area the app computes with.
    pub fn used_area(&self) -> i64 {
        self.steps.iter().map(|s| s.nodes * s.duration).sum()
    }
    /// The one-step EP `(Σ d_k, max n_k)` the rigid baseline schedules.
    pub fn rigid_steps(&self) -> Vec<Step> {
        vec![Step::new(self.total_duration(), self.peak_nodes())]
    }
}

/// A validated instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// `N` (the paper's `n_nodes`): nodes of the homogeneous cluster.
    pub nodes: i64,
    /// The apps in list order.
    pub apps: Vec<App>,
}

impl Instance {
    /// Parses and validates a JSON instance; every bad value is reported with its field path.
    pub fn from_json(text: &str, file: &Path) -> Result<Instance> {
        let inst: Instance = crate::input::parse_json(text, file, "JSON")?;
        inst.validate(file)?;
        Ok(inst)
    }

    /// Checks every rule of §3.3 plus the arithmetic bound; the first violation is reported.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let bad = |field: String, v: String, why: &str| -> Result<()> {
            Err(InputError::new(file, Location::Field(field), v, why).into())
        };
        if self.nodes < 1 {
            return bad("nodes".into(), self.nodes.to_string(), "must be at least 1");
        }
        if self.apps.is_empty() {
            return bad(
                "apps".into(),
                "[]".into(),
                "an instance needs at least one app",
            );
        }
        let mut total: i64 = 0;
        for (i, app) in self.apps.iter().enumerate() {
            if app.steps.is_empty() {
                return bad(
                    format!("apps[{i}].steps"),
                    "[]".into(),
                    "an app needs at least one step",
                );
            }
            for (k, s) in app.steps.iter().enumerate() {
                if s.duration < 1 {
                    let f = format!("apps[{i}].steps[{k}][0]");
                    return bad(f, s.duration.to_string(), "a duration must be at least 1 s");
                }
                if s.nodes < 1 || s.nodes > self.nodes {
                    let f = format!("apps[{i}].steps[{k}][1]");
                    let why = format!("a node count must lie in 1..={}", self.nodes);
                    return bad(f, s.nodes.to_string(), &why);
                }
                total = match total.checked_add(s.duration) {
                    Some(t) if t <= MAX_TOTAL_TIME => t,
                    _ => {
                        let f = format!("apps[{i}].steps[{k}][0]");
                        let why = format!(
                            "the total of all durations would exceed {MAX_TOTAL_TIME} s \
                             (i64 time arithmetic would overflow)"
                        );
                        return bad(f, s.duration.to_string(), &why);
                    }
                };
            }
        }
        // Areas are at most N × makespan ≤ N × total time: keep that within i64 too.
        if self.nodes.checked_mul(total).is_none() {
            let why = format!("nodes × total duration ({total} s) overflows i64 areas");
            return bad("nodes".into(), self.nodes.to_string(), &why);
        }
        Ok(())
    }

    /// Total duration of all apps: the makespan of running them one after another, an upper
    /// bound on every method's makespan.
    pub fn total_duration(&self) -> i64 {
        self.apps.iter().map(App::total_duration).sum()
    }

    /// Number of apps.
    pub fn len(&self) -> usize {
        self.apps.len()
    }

    /// Whether there are no apps (never true for a validated instance).
    pub fn is_empty(&self) -> bool {
        self.apps.is_empty()
    }
}
