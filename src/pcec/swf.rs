//! Reading Standard Workload Format traces (PWA `swf.html` v2.2): 18 whitespace-separated
//! numeric fields per job line, `;` header lines, −1 for unknown; `.gz` files are read
//! directly with flate2.
//!
//! Decisions on bad input (all rejections are [`crate::Error::Input`] with file, line, field,
//! value and reason):
//! - a job line whose field count is not 18: rejected;
//! - a field that is not a finite number (`abc`, `nan`, `inf`): rejected;
//! - run time −1 (unknown) or 0: the job is skipped (the paper simulates run time > 0 only);
//!   any other negative run time: rejected;
//! - a submit time that is negative, or earlier than the previous job line's: rejected, not
//!   sorted — every PWA log is in submit order, so disorder means a damaged file;
//! - a truncated or corrupt gzip stream: rejected at the line being read.
//!
//! Reading stops once `max_jobs` selected jobs are found, so later lines are not checked.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Names of the 18 SWF fields, used in error locations.
pub const FIELD_NAMES: [&str; 18] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable number",
    "queue number",
    "partition number",
    "preceding job number",
    "think time",
];

/// Which jobs of a trace to keep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwfOptions {
    /// Keep only serial jobs (processor count 1; field 5, or field 8 when field 5 is −1), as
    /// the paper does (§III.B).
    pub serial_only: bool,
    /// Stop after this many kept jobs (the paper: the first 10,000 serial jobs).
    pub max_jobs: Option<usize>,
}

impl Default for SwfOptions {
    fn default() -> Self {
        SwfOptions {
            serial_only: true,
            max_jobs: None,
        }
    }
}

/// One kept job line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwfJob {
    /// Field 1.
    pub id: i64,
    /// Field 2, seconds from the log start (not yet shifted).
    pub submit: f64,
    /// Field 4, seconds.
    pub run_time: f64,
    /// Processor count used for the serial filter.
    pub procs: i64,
    /// 1-based line number in the file.
    pub line: usize,
}

/// A parsed trace: kept jobs in file order and what was dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwfTrace {
    /// The kept jobs.
    pub jobs: Vec<SwfJob>,
    /// Header lines (without the `;`).
    pub header: Vec<String>,
    /// Job lines read.
    pub records: usize,
    /// Job lines skipped because they were not serial.
    pub skipped_parallel: usize,
    /// Job lines skipped because their run time was unknown or zero.
    pub skipped_runtime: usize,
}

fn line_err(file: &Path, line: usize, field: &str, value: &str, reason: String) -> crate::Error {
    InputError::new(
        file,
        Location::Line(line, Some(field.to_string())),
        value,
        reason,
    )
    .into()
}

/// Reads an SWF file (`-`: standard input), gzip-compressed when its name ends in `.gz` or
/// its first bytes are gzip's magic number.
pub fn read_swf(path: &Path, opts: &SwfOptions) -> Result<SwfTrace> {
    let mut reader: Box<dyn BufRead> = if crate::input::is_stdio(path) {
        Box::new(std::io::Cursor::new(crate::input::read_bytes(path)?))
    } else {
        let f = std::fs::File::open(path).map_err(|e| {
            crate::Error::from(InputError::new(
                path,
                Location::File,
                "",
                format!("cannot open: {e}"),
            ))
        })?;
        Box::new(BufReader::with_capacity(1 << 16, f))
    };
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
        || reader
            .fill_buf()
            .is_ok_and(|b| b.starts_with(&[0x1f, 0x8b]));
    let reader: Box<dyn BufRead> = if gz {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(reader),
        ))
    } else {
        reader
    };
    parse_swf(reader, path, opts)
}

/// Parses SWF text from any reader; `file` names it in errors.
pub fn parse_swf<R: BufRead>(mut reader: R, file: &Path, opts: &SwfOptions) -> Result<SwfTrace> {
    let mut trace = SwfTrace {
        jobs: Vec::new(),
        header: Vec::new(),
        records: 0,
        skipped_parallel: 0,
        skipped_runtime: 0,
    };
    let mut buf = Vec::with_capacity(256);
    let mut line_no = 0usize;
    let mut last_submit = f64::NEG_INFINITY;
    loop {
        if opts.max_jobs.is_some_and(|m| trace.jobs.len() >= m) {
            break;
        }
        buf.clear();
        line_no += 1;
        let n = reader.read_until(b'\n', &mut buf).map_err(|e| {
            let why = format!("cannot read (truncated or corrupt compressed stream?): {e}");
            crate::Error::from(InputError::new(
                file,
                Location::Line(line_no, None),
                "",
                why,
            ))
        })?;
        if n == 0 {
            break;
        }
        let text = std::str::from_utf8(&buf).map_err(|_| {
            let why = "the line is not UTF-8 text".to_string();
            crate::Error::from(InputError::new(
                file,
                Location::Line(line_no, None),
                "",
                why,
            ))
        })?;
        // A byte-order mark before the first line is an editor's, not data.
        let text = match line_no {
            1 => text.strip_prefix('\u{feff}').unwrap_or(text),
            _ => text,
        };
        let t = text.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(h) = t.strip_prefix(';') {
            trace.header.push(h.trim().to_string());
            continue;
        }
        let v = parse_fields(t, file, line_no)?;
        trace.records += 1;
        check_order(&v, &mut last_submit, file, line_no)?;
        if let Some(job) = select(&v, opts, &mut trace, file, line_no)? {
            trace.jobs.push(job);
        }
    }
    Ok(trace)
}

fn parse_fields(t: &str, file: &Path, line: usize) -> Result<[f64; 18]> {
    let parts: Vec<&str> = t.split_whitespace().collect();
    if parts.len() != 18 {
        let why = format!("a job line has 18 fields, this one has {}", parts.len());
        return Err(line_err(
            file,
            line,
            "fields",
            &parts.len().to_string(),
            why,
        ));
    }
    let mut v = [0.0; 18];
    for (k, p) in parts.iter().enumerate() {
        match p.parse::<f64>() {
            Ok(x) if x.is_finite() => v[k] = x,
            _ => {
                let why = format!(
                    "field {} ({}) is not a finite number",
                    k + 1,
                    FIELD_NAMES[k]
                );
                return Err(line_err(file, line, FIELD_NAMES[k], p, why));
            }
        }
    }
    if v[0].fract() != 0.0 {
        let why = "the job number must be an integer".to_string();
        return Err(line_err(file, line, FIELD_NAMES[0], parts[0], why));
    }
    Ok(v)
}

fn check_order(v: &[f64; 18], last: &mut f64, file: &Path, line: usize) -> Result<()> {
    let submit = v[1];
    if submit < 0.0 {
        let why = "the submit time must be ≥ 0 (unknown submit times cannot be simulated)";
        return Err(line_err(
            file,
            line,
            FIELD_NAMES[1],
            &submit.to_string(),
            why.into(),
        ));
    }
    if submit < *last {
        let why = format!("submit times must be non-decreasing; the previous job line has {last}");
        return Err(line_err(
            file,
            line,
            FIELD_NAMES[1],
            &submit.to_string(),
            why,
        ));
    }
    *last = submit;
    Ok(())
}

fn select(
    v: &[f64; 18],
    opts: &SwfOptions,
    trace: &mut SwfTrace,
    file: &Path,
    line: usize,
) -> Result<Option<SwfJob>> {
    let run = v[3];
    if run < 0.0 && run != -1.0 {
        let why = "a negative run time other than −1 (unknown)".to_string();
        return Err(line_err(file, line, FIELD_NAMES[3], &run.to_string(), why));
    }
    let procs = if v[4] != -1.0 { v[4] } else { v[7] } as i64;
    if opts.serial_only && procs != 1 {
        trace.skipped_parallel += 1;
        return Ok(None);
    }
    if run <= 0.0 {
        trace.skipped_runtime += 1;
        return Ok(None);
    }
    Ok(Some(SwfJob {
        id: v[0] as i64,
        submit: v[1],
        run_time: run,
        procs,
        line,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::path::PathBuf;

    fn data(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("data/pcec")
            .join(name)
    }

    fn parse(text: &str) -> Result<SwfTrace> {
        parse_swf(text.as_bytes(), Path::new("t.swf"), &SwfOptions::default())
    }

    fn where_(r: Result<SwfTrace>) -> (usize, String, String) {
        match r {
            Err(Error::Input(e)) => match e.location {
                Location::Line(n, Some(f)) => (n, f, e.value),
                other => panic!("not a line/field: {other:?}"),
            },
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    const OK: &str = "; header\n1 0 -1 100 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";

    #[test]
    fn toy_fixture() {
        // Nine KTH-style jobs, none serial, no trailing newline.
        let all = SwfOptions {
            serial_only: false,
            max_jobs: None,
        };
        let t = read_swf(&data("toy-kth-header-9jobs.swf"), &all).unwrap();
        assert_eq!(t.jobs.len(), 9);
        assert_eq!(t.header[0], "Version: 2.2");
        assert_eq!(t.jobs[8].id, 9);
        assert_eq!(t.jobs[8].submit, 8000.0);
        assert_eq!(t.jobs[8].run_time, 5000.0);
        assert_eq!(t.jobs[0].procs, 40);
        assert_eq!(t.jobs[8].line, 28);
        let serial = read_swf(&data("toy-kth-header-9jobs.swf"), &SwfOptions::default()).unwrap();
        assert!(serial.jobs.is_empty());
        assert_eq!(serial.skipped_parallel, 9);
    }

    #[test]
    fn gzip_slice_and_limit() {
        let t = read_swf(&data("lcg-head-300.swf.gz"), &SwfOptions::default()).unwrap();
        assert_eq!(t.records, 300);
        assert_eq!(t.jobs.len() + t.skipped_runtime, 300);
        assert_eq!(
            (t.jobs[0].id, t.jobs[0].submit, t.jobs[0].run_time),
            (1, 0.0, 83.0)
        );
        let lim = SwfOptions {
            serial_only: true,
            max_jobs: Some(10),
        };
        assert_eq!(
            read_swf(&data("lcg-head-300.swf.gz"), &lim)
                .unwrap()
                .jobs
                .len(),
            10
        );
        let plain = read_swf(&data("lublin-head-200.swf"), &SwfOptions::default()).unwrap();
        assert_eq!(plain.records, 200);
        assert!(plain.skipped_parallel > 0 && !plain.jobs.is_empty());
    }

    #[test]
    fn truncated_gzip_is_an_input_error() {
        match read_swf(
            &data("lcg-head-300-truncated.swf.gz"),
            &SwfOptions::default(),
        ) {
            Err(Error::Input(e)) => {
                assert!(matches!(e.location, Location::Line(n, _) if n > 1), "{e}");
                assert!(e.file.ends_with("lcg-head-300-truncated.swf.gz"));
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn bad_lines() {
        assert_eq!(parse(OK).unwrap().jobs.len(), 1);
        let short = format!("{OK}2 5 -1 100 1 -1\n");
        assert_eq!(where_(parse(&short)), (3, "fields".into(), "6".into()));
        let long = format!("{OK}2 5 -1 100 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 7\n");
        assert_eq!(where_(parse(&long)).1, "fields");
        let word = format!("{OK}2 5 -1 1x0 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
        assert_eq!(where_(parse(&word)), (3, "run time".into(), "1x0".into()));
        let nan = format!("{OK}2 5 -1 100 1 NaN -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
        assert_eq!(where_(parse(&nan)).1, "average CPU time");
        let neg = format!("{OK}2 5 -1 -7 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
        assert_eq!(where_(parse(&neg)), (3, "run time".into(), "-7".into()));
        let back = format!("{OK}2 5 -1 10 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n3 4 -1 10 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
        assert_eq!(where_(parse(&back)), (4, "submit time".into(), "4".into()));
        let unknown_submit = "1 -1 -1 10 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
        assert_eq!(where_(parse(unknown_submit)).1, "submit time");
    }

    #[test]
    fn unknown_and_zero_runtimes_are_skipped() {
        let text = "1 0 -1 -1 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 1 -1 0 1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n3 2 -1 5 -1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
        let t = parse(text).unwrap();
        assert_eq!(t.skipped_runtime, 2);
        // Field 5 unknown: field 8 (requested processors) decides.
        assert_eq!(t.jobs.len(), 1);
        assert_eq!(t.jobs[0].id, 3);
    }
}
