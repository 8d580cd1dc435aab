//! A minimal reader of the Standard Workload Format (Feitelson's Parallel Workloads Archive):
//! `;` comment lines, then 18 whitespace-separated fields per job; we use job number (1),
//! submit time (2), run time (4), allocated processors (5) and requested processors (8).

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One job of an SWF trace.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SwfJob {
    /// Job number (field 1).
    pub id: u64,
    /// Submit time in seconds (field 2).
    pub submit_s: f64,
    /// Run time in seconds (field 4).
    pub runtime_s: f64,
    /// Processors (field 5, or field 8 when field 5 is −1).
    pub procs: usize,
}

const NAMES: [&str; 8] = [
    "job",
    "submit",
    "wait",
    "runtime",
    "procs",
    "cpu",
    "mem",
    "req_procs",
];

/// Parses SWF text. Jobs whose run time or processor count is unknown (−1) are skipped, as
/// the format prescribes; malformed numbers are errors naming the line and column.
pub fn parse_swf(text: &str, file: &Path) -> Result<Vec<SwfJob>> {
    let mut jobs = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 8 {
            let why = format!("an SWF line needs at least 8 fields, found {}", f.len());
            return Err(InputError::new(file, Location::Line(k + 1, None), line, why).into());
        }
        let mut num = [0f64; 8];
        for c in 0..8 {
            num[c] = f[c]
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    InputError::new(
                        file,
                        Location::Line(k + 1, Some(NAMES[c].into())),
                        f[c],
                        "not a finite number",
                    )
                })?;
        }
        let procs = if num[4] > 0.0 { num[4] } else { num[7] };
        if num[3] < 0.0 || procs <= 0.0 || num[1] < 0.0 {
            continue;
        }
        jobs.push(SwfJob {
            id: num[0] as u64,
            submit_s: num[1],
            runtime_s: num[3],
            procs: procs as usize,
        });
    }
    if jobs.is_empty() {
        return Err(
            InputError::new(file, Location::File, "", "no usable jobs in the SWF file").into(),
        );
    }
    Ok(jobs)
}

/// The bundled Lublin–Feitelson trace (`data/market/lublin_256.swf`, a copy of
/// `shared/traces/lublin_256.swf`; see `data/market/README.md`).
pub fn lublin() -> Vec<SwfJob> {
    let text = include_str!("../../data/market/lublin_256.swf");
    parse_swf(text, Path::new("data/market/lublin_256.swf")).expect("the bundled trace parses")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn bundled_trace_parses() {
        let j = lublin();
        assert_eq!(j.len(), 10_000);
        assert_eq!(
            (j[0].submit_s, j[0].runtime_s, j[0].procs),
            (5094.0, 12072.0, 16)
        );
    }

    #[test]
    fn bad_line_names_line_and_column() {
        match parse_swf("; c\n1 2 -1 x 4 -1 -1 -1\n", Path::new("t.swf")) {
            Err(Error::Input(e)) => {
                assert_eq!(e.location, Location::Line(2, Some("runtime".into())))
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_swf("1 2 3\n", Path::new("t.swf")).is_err());
        assert!(parse_swf("; only\n", Path::new("t.swf")).is_err());
    }
}
