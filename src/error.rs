//! The one error type of the crate.
//!
//! Outcomes of a solve (optimal, feasible with a gap, infeasible, limit reached) are *not*
//! errors: they live in [`crate::Status`]. `Err` is reserved for bad input, I/O failures and
//! solver failures.

use std::path::PathBuf;

/// Where in an input a bad value was found: a field of a JSON document or a line of a CSV file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The whole file (unreadable, empty, wrong format).
    File,
    /// A JSON field path such as `jobs[3].cpu`.
    Field(String),
    /// A 1-based line number of a text file, with the column name when known.
    Line(usize, Option<String>),
    /// A command-line argument such as `--hosts`.
    Argument(String),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File => write!(f, "file"),
            Location::Field(p) => write!(f, "field `{p}`"),
            Location::Line(n, None) => write!(f, "line {n}"),
            Location::Line(n, Some(c)) => write!(f, "line {n}, column `{c}`"),
            Location::Argument(a) => write!(f, "argument `{a}`"),
        }
    }
}

/// A rejected input: which file, where in it, the offending value and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or `<arguments>` for command-line values).
    pub file: PathBuf,
    /// The field, line or argument.
    pub location: Location,
    /// The offending value as written (possibly abbreviated).
    pub value: String,
    /// Why it was rejected.
    pub reason: String,
}

impl InputError {
    /// Builds an input error.
    pub fn new(
        file: impl Into<PathBuf>,
        location: Location,
        value: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        let mut value = value.into();
        // A number written out in full (`1e308` as 309 digits) is shown in scientific form;
        // integers up to 2^64 (20 digits) stay exact.
        if value.len() > 24 {
            if let Ok(v) = value.parse::<f64>() {
                value = format!("{v:e}");
            }
        }
        if value.chars().count() > 60 {
            value = value.chars().take(57).collect::<String>() + "...";
        }
        InputError {
            file: file.into(),
            location,
            value,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.file.as_os_str() == "-" {
            f.write_str("<stdin>")?;
        } else {
            write!(f, "{}", self.file.display())?;
        }
        write!(f, ": {}: ", self.location)?;
        if !self.value.is_empty() {
            write!(f, "value `{}`: ", self.value)?;
        }
        f.write_str(&self.reason)
    }
}

/// Everything that can go wrong, apart from ordinary solve outcomes.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input data (exit code 2 in the CLI).
    #[error("invalid input: {0}")]
    Input(Box<InputError>),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// HiGHS refused a model or an option, or failed while solving.
    #[error("HiGHS failed: {0}")]
    Highs(String),
    /// Clarabel refused a problem or a setting.
    #[error("Clarabel failed: {0}")]
    Clarabel(String),
    /// Two computations that must agree did not (an internal consistency check).
    #[error("consistency check failed: {0}")]
    Consistency(String),
}

impl Error {
    /// Turns an I/O failure on `path` into [`Error::Io`] (for `map_err`).
    pub fn io(path: &std::path::Path) -> impl Fn(std::io::Error) -> Error + '_ {
        move |source| Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl From<InputError> for Error {
    fn from(e: InputError) -> Self {
        Error::Input(Box::new(e))
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
