//! Market-based sharing after Merkat (Costache et al., INRIA RR-8343, 2013).
//!
//! - [`share`]: proportional share with caps (Eq. 1) by water-filling, error normalisation.
//! - [`instance`], [`placement`], [`tabu`], [`rebalance`], [`generate`]: the §3.1 load
//!   balancing problem (instance, evaluation, tabu search and brute-force oracle, API).
//! - [`controllers`]: Algorithms 1–3 of §3.2.
//! - [`sim`]: the discrete-time market simulation; [`experiments`]: the §5 reproductions.

pub mod controllers;
pub mod exact;
pub mod fig6;
pub mod fig7;
pub mod generate;
pub mod instance;
pub mod ledger;
pub mod milp;
pub mod paper;
pub mod placement;
pub mod plot;
mod problem;
pub mod rebalance;
pub mod rebalance_study;
pub mod satbound;
pub mod satisfaction;
pub mod satsens;
pub mod scenario;
pub mod selfcheck;
pub mod share;
pub mod sim;
pub mod simout;
mod simstep;
mod suspend;
pub mod swf;
pub mod tabu;
pub mod tools;

pub use generate::{generate, GenSpec};
pub use problem::Rebalance;

/// The registry name of the rebalance problem.
pub const NAME: &str = "rebalance";
pub use instance::{Instance, Res, Vm};
pub use rebalance::{evaluate, solve, solve_within, verify, Method, Settings, Solution};
pub use scenario::{AppKind, AppSpec, Job, Scenario};
pub use share::{proportional_share, share_with_reserve, ErrorNorm, Share};
pub use sim::{simulate, Admission, SimResult, SimSettings, StartRule, SuspendRule};

#[cfg(test)]
mod simtests;
#[cfg(test)]
mod tests;
