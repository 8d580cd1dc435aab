//! Adapters over the external solvers — the only module that names HiGHS or Clarabel.
//! Nothing here knows about any problem: models come in as a [`LinearModel`] (compact LPs
//! and MILPs), a [`ColumnLp`] (a column-generation master kept alive between solves; its
//! covering case [`CoveringLp`]), a [`BoxSocp`] (a box-bounded program over one second-order
//! cone) or a [`LogProgram`] (`max Σ w ln(x − o)`, Eisenberg–Gale, over exponential cones),
//! answers go out as outcomes with statuses, bounds and duals.

mod column_lp;
mod covering;
mod deadline;
mod expcone;
mod highs;
mod highs_settings;
mod linear;
mod lp_format;
mod mps_format;
pub mod progress;
mod quadratic_lp;
mod socp;
pub mod weak_duality;

pub use self::highs::{solve, solve_file, HighsSettings, LinearOutcome, LinearStatus};
pub use column_lp::{column_key, Column, ColumnLp, LpSolution, MasterLp};
pub use covering::{CoveringLp, CoveringSolution};
pub use deadline::{clear_interrupt, interrupt, interrupted, BuildClock, Deadline};
pub use expcone::{maximise_log_sum, LogOutcome, LogProgram};
pub use linear::{Bounds, ColId, LinearModel, RowId, Sense};
pub use lp_format::write_lp;
pub use mps_format::{write_mps, ModelFormat};
pub use quadratic_lp::{read_lp, Canonical, QuadraticModel, QuadraticRow};
pub use socp::{BoxSocp, SocpOutcome};
