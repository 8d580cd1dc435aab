//! Evolving applications (Klein & Pérez 2011, issue 19): fully-predictably evolving apps with
//! known node profiles, scheduled on a cluster of `N` nodes by Algorithm 1 over the fit of
//! Algorithm 2 (delay the first step, stretch later ones up to an expand limit), with the
//! compacting post-pass, against a rigid conservative-backfilling baseline; the metrics of
//! §5.1, a verifier, the generator, the paper's experiment (Tables 1–2) and a brute-force exact
//! optimum for tiny instances (the oracle for the MILP to come).
//!
//! Times are integer seconds (`i64`) and every interval is half-open `[t0, t1)`.
//! The model, with the paper's numbering and every interpretation: `models/evolving.md`.

pub mod bound;
mod bound_study;
pub mod brute;
mod exact_study;
pub mod experiment;
pub mod fit;
pub mod generate;
pub mod instance;
pub mod method;
pub mod metrics;
pub mod milp;
pub mod plots;
mod problem;
pub mod profile;
pub mod schedule;
pub mod selfcheck;
#[cfg(test)]
mod tests;
pub mod verify;

pub use fit::{compact, completion, fit, ExpandLimit, FitStats};
pub use generate::{generate, GenSpec};
pub use instance::{App, Instance};
pub use method::{makespan_lower_bound, solve, AppSchedule, Method, RigidPath, Settings, Solution};
pub use problem::{Evolving, Spec};

/// The registry name of the family.
pub const NAME: &str = "evolving";
pub use metrics::{AppMetrics, Relative, SystemMetrics};
pub use profile::{Ep, Profile, Step};
pub use verify::verify;
