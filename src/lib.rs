//! vcalloc: optimal and provably near-optimal resource allocation for virtualized clusters.
//!
//! Every method returns an allocation *and a certificate*: a status that claims optimality
//! only with proof, the best bound known and the gap.
//!
//! **Start at [`problem`]**: the [`Problem`] trait every family implements, the
//! [`Certificate`] every answer carries, and the registry the command line and the
//! experiment runner iterate. Families live in their own modules ([`vcsched`], [`periodic`]);
//! external solvers are reached only through [`solver`], and column generation through the
//! problem-free engine [`colgen`].
//!
//! ```
//! use std::path::Path;
//! use vcalloc::vcsched::{solve, verify, Instance, Method, Settings};
//!
//! let json = r#"{"hosts": 2, "jobs": [{"cpu": 0.6, "mem": 0.3},
//!                                     {"cpu": 0.6, "mem": 0.3},
//!                                     {"cpu": 0.6, "mem": 0.3}]}"#;
//! let inst = Instance::from_json(json, Path::new("example"))?;
//! let sol = solve(&inst, Method::Milp, &Settings::default())?;
//! // Two jobs must share a host: each gets half of it, a yield of 0.5 / 0.6.
//! assert_eq!(sol.status, vcalloc::Status::Optimal);
//! assert!((sol.min_yield().unwrap() - 0.5 / 0.6).abs() < 1e-9);
//! assert!(verify(&inst, &sol).is_empty());
//! # Ok::<(), vcalloc::Error>(())
//! ```
#![deny(missing_docs)]

pub mod binpacking;
pub mod colgen;
pub mod error;
pub mod evolving;
pub mod experiment;
pub mod input;
pub mod market;
mod outcome;
pub mod pcec;
pub mod periodic;
pub mod problem;
pub mod socbp;
pub mod solver;
pub mod vcsched;

pub use error::{Error, InputError, Location, Result};
pub use outcome::{ceil_with_tolerance, Status, Violation};
pub use problem::{Certificate, Problem, Sense};
