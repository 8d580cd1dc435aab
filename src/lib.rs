//! vcalloc: optimal and provably near-optimal resource allocation for virtualized clusters.
//!
//! Every method returns an allocation *and a certificate*: a status that claims optimality
//! only with proof, the best bound known and the gap. Problems live in their own modules
//! ([`vcsched`]); external solvers are reached only through [`solver`].
#![deny(missing_docs)]

pub mod error;
mod outcome;
pub mod solver;
pub mod vcsched;

pub use error::{Error, InputError, Location, Result};
pub use outcome::{relative_gap, status_with_solution, Status};
