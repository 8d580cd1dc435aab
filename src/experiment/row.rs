//! One CSV row per (instance, method): the instance's parameters and the method's
//! certificate, with the problem's own figures beside it.

use crate::error::{Error, InputError, Location, Result};
use crate::problem::{Certificate, InstanceRef};
use std::collections::BTreeMap;
use std::path::Path;

/// The columns every row has, in file order; a sweep's own columns stand between `seed` and
/// `method`.
const HEAD: [&str; 4] = ["set", "instance", "index", "seed"];
/// `bound_check` says what became of the bound ([`crate::problem::BoundCheck::label`]:
/// the proof kind that re-derived it, `claimed`, `none`) and `verify_seconds` what that took.
const TAIL: [&str; 10] = [
    "method",
    "status",
    "objective",
    "bound",
    "gap",
    "seconds",
    "iterations",
    "bound_check",
    "verify_seconds",
    "error",
];

/// A result row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Sweep name.
    pub set: String,
    /// Instance identifier (specification and index).
    pub instance: String,
    /// Index within the specification.
    pub index: usize,
    /// Generator seed.
    pub seed: u64,
    /// Method.
    pub method: String,
    /// Status (`optimal`, `feasible`, `infeasible`, `unknown`, or `error`).
    pub status: String,
    /// The certificate's objective.
    pub objective: Option<f64>,
    /// The certificate's bound.
    pub bound: Option<f64>,
    /// Relative gap.
    pub gap: Option<f64>,
    /// Wall-clock seconds of the method.
    pub seconds: f64,
    /// The method's main counter (column-generation iterations, placement attempts…), from
    /// the problem's `iterations` figure.
    pub iterations: Option<f64>,
    /// An error message when the method failed.
    pub error: Option<String>,
    /// The sweep's own columns: instance parameters and the problem's figures, as written.
    pub fields: BTreeMap<String, String>,
}

impl Row {
    /// A row with the instance's parameters filled in.
    pub fn for_instance(set: &str, inst: &InstanceRef, method: &str) -> Row {
        Row {
            set: set.into(),
            instance: inst.id.clone(),
            index: inst.index,
            seed: inst.seed,
            method: method.into(),
            status: String::new(),
            objective: None,
            bound: None,
            gap: None,
            seconds: 0.0,
            iterations: None,
            error: None,
            fields: inst.params.iter().cloned().collect(),
        }
    }

    /// Fills in a certificate and the problem's figures (`iterations` goes to its column).
    pub fn record(&mut self, c: &Certificate, values: &[(&'static str, f64)]) {
        self.status = c.status.as_str().into();
        self.objective = c.objective;
        self.bound = c.bound;
        self.gap = c.gap;
        self.seconds = c.seconds;
        for &(k, v) in values {
            if k == "iterations" {
                self.iterations = Some(v);
            } else {
                self.fields.insert(k.into(), v.to_string());
            }
        }
    }

    /// A field read as a number (empty or absent: `None`).
    pub fn num(&self, key: &str) -> Option<f64> {
        self.fields.get(key).and_then(|v| v.parse().ok())
    }

    /// A field as text (empty or absent: `None`).
    pub fn text(&self, key: &str) -> Option<&str> {
        self.fields
            .get(key)
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    }

    /// The resume key.
    pub fn key(&self) -> (String, String) {
        (self.instance.clone(), self.method.clone())
    }

    /// The header of a sweep with these problem columns.
    pub fn header(columns: &[&str]) -> Vec<String> {
        HEAD.iter()
            .chain(columns)
            .chain(TAIL.iter())
            .map(|s| s.to_string())
            .collect()
    }

    /// The row's cells under `header`, each on one line (a line break in a message becomes a
    /// space), so that a row is exactly one line of the file.
    pub fn cells(&self, header: &[String]) -> Vec<String> {
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        let one_line = |c: String| {
            if c.contains(['\n', '\r']) {
                c.replace(['\n', '\r'], " ")
            } else {
                c
            }
        };
        header
            .iter()
            .map(|h| match h.as_str() {
                "set" => self.set.clone(),
                "instance" => self.instance.clone(),
                "index" => self.index.to_string(),
                "seed" => self.seed.to_string(),
                "method" => self.method.clone(),
                "status" => self.status.clone(),
                "objective" => opt(self.objective),
                "bound" => opt(self.bound),
                "gap" => opt(self.gap),
                "seconds" => self.seconds.to_string(),
                "iterations" => opt(self.iterations),
                "error" => self.error.clone().unwrap_or_default(),
                other => self.fields.get(other).cloned().unwrap_or_default(),
            })
            .map(one_line)
            .collect()
    }

    /// The row as one CSV line under `header`, newline included: what one append writes.
    pub fn line(&self, header: &[String]) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.write_record(self.cells(header))
            .expect("a CSV record is written to memory");
        w.into_inner().expect("a CSV record is written to memory")
    }

    /// Reads a row from its cells under `header`.
    pub fn parse(header: &[String], cells: &csv::StringRecord) -> std::result::Result<Row, String> {
        let mut row = Row {
            set: String::new(),
            instance: String::new(),
            index: 0,
            seed: 0,
            method: String::new(),
            status: String::new(),
            objective: None,
            bound: None,
            gap: None,
            seconds: 0.0,
            iterations: None,
            error: None,
            fields: BTreeMap::new(),
        };
        if cells.len() != header.len() {
            return Err(format!(
                "{} cells under {} columns",
                cells.len(),
                header.len()
            ));
        }
        let num = |s: &str| -> std::result::Result<Option<f64>, String> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse()
                    .map(Some)
                    .map_err(|_| format!("`{s}` is not a number"))
            }
        };
        for (h, c) in header.iter().zip(cells.iter()) {
            match h.as_str() {
                "set" => row.set = c.into(),
                "instance" => row.instance = c.into(),
                "index" => row.index = c.parse().map_err(|_| format!("index `{c}`"))?,
                "seed" => row.seed = c.parse().map_err(|_| format!("seed `{c}`"))?,
                "method" => row.method = c.into(),
                "status" => row.status = c.into(),
                "objective" => row.objective = num(c)?,
                "bound" => row.bound = num(c)?,
                "gap" => row.gap = num(c)?,
                "seconds" => row.seconds = num(c)?.unwrap_or(0.0),
                "iterations" => row.iterations = num(c)?,
                "error" => row.error = (!c.is_empty()).then(|| c.to_string()),
                other => {
                    row.fields.insert(other.into(), c.into());
                }
            }
        }
        Ok(row)
    }
}

/// Path of the results file in a folder.
pub fn results_path(dir: &Path) -> std::path::PathBuf {
    dir.join("results.csv")
}

/// Reads the header and rows of a results file. Rows are whole lines (see [`Row::cells`]), so
/// the bytes after the last line break are a line torn by a kill, and are dropped, as is any
/// other unreadable row. A file without one whole line (a torn header) has an empty header.
pub fn read_table(path: &Path) -> Result<(Vec<String>, Vec<Row>)> {
    let bytes = std::fs::read(path).map_err(|e| {
        InputError::new(
            path,
            Location::File,
            "",
            format!("cannot read the results: {e}"),
        )
    })?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < bytes.len() {
        log::warn!(
            "{}: dropping a torn last line ({} bytes)",
            path.display(),
            bytes.len() - whole
        );
    }
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(&bytes[..whole]);
    let header: Vec<String> = rdr
        .headers()
        .map_err(|e| InputError::new(path, Location::Line(1, None), "", e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    let mut rows = Vec::new();
    for rec in rdr.records() {
        match rec
            .map_err(|e| e.to_string())
            .and_then(|r| Row::parse(&header, &r))
        {
            Ok(r) => rows.push(r),
            Err(e) => log::warn!("{}: skipping an unreadable row ({e})", path.display()),
        }
    }
    Ok((header, rows))
}

/// Reads the rows of a results file.
pub fn read_rows(path: &Path) -> Result<Vec<Row>> {
    read_table(path).map(|(_, rows)| rows)
}

/// Sorts rows by (set, instance, method): the order of a finished sweep and of a merge.
pub fn sort_rows(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        (a.set.as_str(), a.instance.as_str(), a.method.as_str()).cmp(&(
            b.set.as_str(),
            b.instance.as_str(),
            b.method.as_str(),
        ))
    });
}

/// Writes rows under `header` to `path`, replacing it atomically: the whole table goes to
/// `path.tmp`, is synced to disk, and is renamed over `path` (then the folder is synced), so
/// a kill at any moment leaves either the old file or the new one, never a mix.
pub fn write_rows(path: &Path, header: &[String], rows: &[Row]) -> Result<()> {
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let mut w = csv::Writer::from_path(&tmp).map_err(|e| io(e.into()))?;
    w.write_record(header).map_err(|e| io(e.into()))?;
    for r in rows {
        w.write_record(r.cells(header)).map_err(|e| io(e.into()))?;
    }
    let file = w.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(io)?;
    sync_folder(path);
    Ok(())
}

/// Syncs the folder holding `path` (a rename or a new file is durable once its folder is);
/// best effort: not every platform opens folders.
pub(super) fn sync_folder(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}
