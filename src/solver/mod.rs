//! Adapters over the external solvers. Nothing here knows about any problem: models come in
//! as a [`LinearModel`], answers go out as a [`LinearOutcome`].

mod deadline;
mod highs;
mod linear;
mod lp_format;

pub use self::highs::{solve, HighsSettings, LinearOutcome, LinearStatus};
pub use deadline::Deadline;
pub use linear::{Bounds, ColId, LinearModel, RowId, Sense};
pub use lp_format::write_lp;
