//! A VCSched instance: `H` identical hosts and jobs with a CPU need `α_i` and a memory need
//! `m_i`, both fractions of one host in `(0, 1]` (RR-6692 §2.3).
//!
//! Two file formats: JSON (`{"hosts": 4, "jobs": [{"cpu": .., "mem": ..}]}`) and CSV
//! (`cpu,mem[,name]` per line, header optional, hosts given on the command line). Every value
//! is validated here, so methods never see bad data.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest number of hosts accepted.
pub const MAX_HOSTS: usize = 1_000_000;

/// One job (one VM instance).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// `α_i`: fraction of a host's CPU the job uses when alone on it.
    pub cpu: f64,
    /// `m_i`: fraction of a host's memory the job needs.
    pub mem: f64,
    /// Optional label, carried through to outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A validated VCSched instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Number of identical hosts `H`.
    pub hosts: usize,
    /// The jobs, in file order (their index is their identity).
    pub jobs: Vec<Job>,
}

impl Instance {
    /// Builds and validates an instance from numbers (`file` names the source in errors).
    pub fn new(hosts: usize, jobs: Vec<Job>, file: &Path) -> Result<Self> {
        let inst = Instance { hosts, jobs };
        inst.validate(file)?;
        Ok(inst)
    }

    /// Number of jobs `J`.
    pub fn num_jobs(&self) -> usize {
        self.jobs.len()
    }

    /// `Σ α_i`.
    pub fn total_cpu(&self) -> f64 {
        self.jobs.iter().map(|j| j.cpu).sum()
    }

    /// `Σ m_i`.
    pub fn total_mem(&self) -> f64 {
        self.jobs.iter().map(|j| j.mem).sum()
    }

    /// Checks every rule of the format; the first violation is reported.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let field = |s: String| Location::Field(s);
        if self.hosts == 0 || self.hosts > MAX_HOSTS {
            return Err(InputError::new(
                file,
                field("hosts".into()),
                self.hosts.to_string(),
                format!("the number of hosts must be between 1 and {MAX_HOSTS}"),
            )
            .into());
        }
        if self.jobs.is_empty() {
            return Err(InputError::new(
                file,
                field("jobs".into()),
                "[]",
                "an instance needs at least one job",
            )
            .into());
        }
        for (i, j) in self.jobs.iter().enumerate() {
            check_fraction(j.cpu, file, field(format!("jobs[{i}].cpu")))?;
            check_fraction(j.mem, file, field(format!("jobs[{i}].mem")))?;
        }
        Ok(())
    }

    /// Reads an instance: JSON unless the file name ends in `.csv`; `hosts` is required for
    /// CSV and, for JSON, overrides nothing (giving it is an error if it disagrees).
    pub fn load(path: &Path, hosts: Option<usize>) -> Result<Self> {
        let text = crate::input::read_text(path)?;
        let is_csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        if is_csv {
            let h = hosts.ok_or_else(|| {
                InputError::new(
                    path,
                    Location::Argument("--hosts".into()),
                    "",
                    "a CSV instance needs the number of hosts: pass --hosts N",
                )
            })?;
            Self::from_csv(&text, h, path)
        } else {
            let inst = Self::from_json(&text, path)?;
            if let Some(h) = hosts.filter(|&h| h != inst.hosts) {
                return Err(InputError::new(
                    path,
                    Location::Argument("--hosts".into()),
                    h.to_string(),
                    format!(
                        "the JSON instance says {} hosts; --hosts is for CSV",
                        inst.hosts
                    ),
                )
                .into());
            }
            Ok(inst)
        }
    }

    /// Parses the JSON format.
    pub fn from_json(text: &str, file: &Path) -> Result<Self> {
        let inst: Instance = crate::input::parse_json(text, file, "JSON")?;
        inst.validate(file)?;
        Ok(inst)
    }

    /// Parses the CSV format: `cpu,mem[,name]` per line; an optional header naming those
    /// columns; blank lines and lines starting with `#` are skipped.
    pub fn from_csv(text: &str, hosts: usize, file: &Path) -> Result<Self> {
        let mut jobs = Vec::new();
        let mut header_allowed = true;
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            let first_header = header_allowed && cells[0].parse::<f64>().is_err();
            header_allowed = false;
            if first_header {
                let names: Vec<String> = cells.iter().map(|c| c.to_ascii_lowercase()).collect();
                if names != ["cpu", "mem"] && names != ["cpu", "mem", "name"] {
                    return Err(InputError::new(
                        file,
                        Location::Line(line_no, None),
                        line,
                        "the header must be `cpu,mem` or `cpu,mem,name`",
                    )
                    .into());
                }
                continue;
            }
            if cells.len() < 2 || cells.len() > 3 {
                return Err(InputError::new(
                    file,
                    Location::Line(line_no, None),
                    line,
                    format!(
                        "expected 2 or 3 comma-separated cells, found {}",
                        cells.len()
                    ),
                )
                .into());
            }
            let number = |k: usize, col: &str| -> Result<f64> {
                let loc = Location::Line(line_no, Some(col.into()));
                let v: f64 = cells[k]
                    .parse()
                    .map_err(|_| InputError::new(file, loc.clone(), cells[k], "not a number"))?;
                check_fraction(v, file, loc)?;
                Ok(v)
            };
            jobs.push(Job {
                cpu: number(0, "cpu")?,
                mem: number(1, "mem")?,
                name: cells
                    .get(2)
                    .map(|s| s.to_string())
                    .filter(|s| !s.is_empty()),
            });
        }
        if hosts == 0 || hosts > MAX_HOSTS {
            return Err(InputError::new(
                file,
                Location::Argument("--hosts".into()),
                hosts.to_string(),
                format!("the number of hosts must be between 1 and {MAX_HOSTS}"),
            )
            .into());
        }
        if jobs.is_empty() {
            return Err(InputError::new(file, Location::File, "", "the file holds no job").into());
        }
        Instance::new(hosts, jobs, file)
    }

    /// The instance as pretty JSON (the format [`Instance::from_json`] reads).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an instance always serialises")
    }
}

fn check_fraction(v: f64, file: &Path, loc: Location) -> Result<()> {
    let reason = if v.is_nan() {
        "not a number (NaN)"
    } else if v.is_infinite() {
        "must be finite"
    } else if v <= 0.0 {
        "must be greater than 0 (a fraction of one host in (0, 1])"
    } else if v > 1.0 {
        "must be at most 1 (a fraction of one host in (0, 1])"
    } else {
        return Ok(());
    };
    Err(InputError::new(file, loc, v.to_string(), reason).into())
}
