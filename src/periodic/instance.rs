//! A periodic-demand packing instance (Belaid & Eyraud-Dubois 2015, §3.1): machines of
//! capacity `C`; job `j` has `N_j` identical tasks whose CPU demand is
//! `W_j(t) = C_j + ρ_j sin(2πt/P + φ_j)`.
//!
//! Two formats: JSON (`{"capacity": 20, "jobs": [{"mean", "amplitude", "phase", "tasks"}]}`)
//! and BPPLIB 1-D bin packing (`n`, `c`, then `n` weights), read as zero-amplitude jobs.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One job: `tasks` identical tasks with a sinusoidal demand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// `C_j`: mean demand of one task.
    pub mean: f64,
    /// `ρ_j`: amplitude of one task's demand, `0 ≤ ρ_j ≤ C_j`.
    pub amplitude: f64,
    /// `φ_j`: phase in radians.
    pub phase: f64,
    /// `N_j`: number of tasks.
    pub tasks: u32,
}

impl Job {
    /// `ρ_j cos φ_j`, the first coordinate of the task's phasor.
    pub fn x(&self) -> f64 {
        self.amplitude * self.phase.cos()
    }
    /// `ρ_j sin φ_j`.
    pub fn y(&self) -> f64 {
        self.amplitude * self.phase.sin()
    }
    /// `C_j + ρ_j`: the peak of one task alone.
    pub fn peak(&self) -> f64 {
        self.mean + self.amplitude
    }
}

/// A validated periodic instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// `C`: capacity of every machine.
    pub capacity: f64,
    /// The jobs.
    pub jobs: Vec<Job>,
}

/// Input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The JSON format.
    Json,
    /// BPPLIB: `n`, `c`, then `n` integer weights, one per line.
    Bpplib,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "bpplib" => Ok(Format::Bpplib),
            _ => Err(format!("unknown format `{s}`; expected json or bpplib")),
        }
    }
}

/// The largest machine capacity, 2^52 (as a BPPLIB capacity): demands are at most the
/// capacity, so a machine's summed demand stays finite for any task count.
pub const MAX_CAPACITY: f64 = 4_503_599_627_370_496.0;

impl Instance {
    /// Total number of tasks `Σ N_j`.
    pub fn num_tasks(&self) -> u64 {
        self.jobs.iter().map(|j| u64::from(j.tasks)).sum()
    }

    /// Checks every rule; the first violation is reported with its field.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let err = |field: String, v: f64, why: &str| -> Result<()> {
            Err(InputError::new(file, Location::Field(field), crate::input::number(v), why).into())
        };
        if !(self.capacity.is_finite() && self.capacity > 0.0) {
            return err(
                "capacity".into(),
                self.capacity,
                "must be a finite number > 0",
            );
        }
        if self.capacity > MAX_CAPACITY {
            return err(
                "capacity".into(),
                self.capacity,
                "must be at most 2^52 (as in BPPLIB): the peak of a machine sums its tasks' \
                 demands, which overflow beyond (scale the instance down)",
            );
        }
        if self.jobs.is_empty() {
            return Err(InputError::new(
                file,
                Location::Field("jobs".into()),
                "[]",
                "an instance needs at least one job",
            )
            .into());
        }
        for (j, job) in self.jobs.iter().enumerate() {
            let f = |name: &str| format!("jobs[{j}].{name}");
            for (name, v) in [
                ("mean", job.mean),
                ("amplitude", job.amplitude),
                ("phase", job.phase),
            ] {
                if !v.is_finite() {
                    return err(f(name), v, "must be a finite number");
                }
            }
            if job.mean <= 0.0 {
                return err(f("mean"), job.mean, "must be > 0");
            }
            if job.amplitude < 0.0 || job.amplitude > job.mean {
                return err(
                    f("amplitude"),
                    job.amplitude,
                    "must be between 0 and the job's mean (demand never negative)",
                );
            }
            if job.tasks == 0 {
                return Err(InputError::new(
                    file,
                    Location::Field(f("tasks")),
                    "0",
                    "must be an integer >= 1",
                )
                .into());
            }
            if job.peak() > self.capacity {
                return Err(InputError::new(
                    file,
                    Location::Field(format!("jobs[{j}]")),
                    format!(
                        "mean {} + amplitude {}",
                        crate::input::number(job.mean),
                        crate::input::number(job.amplitude)
                    ),
                    format!(
                        "exceeds the capacity {}: no machine can hold one task of job {j}",
                        crate::input::number(self.capacity)
                    ),
                )
                .into());
            }
        }
        Ok(())
    }

    /// Reads a file; the format is guessed from the content when not given (`{` → JSON).
    pub fn load(path: &Path, format: Option<Format>) -> Result<Self> {
        let text = crate::input::read_text(path)?;
        let format = format.unwrap_or(if text.trim_start().starts_with('{') {
            Format::Json
        } else {
            Format::Bpplib
        });
        match format {
            Format::Json => Self::from_json(&text, path),
            Format::Bpplib => Self::from_bpplib(&text, path),
        }
    }

    /// Parses the JSON format.
    pub fn from_json(text: &str, file: &Path) -> Result<Self> {
        let inst: Instance = crate::input::parse_json(text, file, "JSON")?;
        inst.validate(file)?;
        Ok(inst)
    }

    /// Parses BPPLIB (`n`, `c`, then `n` whole weights; read by the bin-packing family's
    /// parser, so both report the same errors). Equal weights become one job whose `tasks` is
    /// their count, in order of first appearance.
    pub fn from_bpplib(text: &str, file: &Path) -> Result<Self> {
        let bins = crate::binpacking::Instance::from_bpplib(text, file)?;
        let mut jobs: Vec<Job> = Vec::new();
        let mut index: std::collections::HashMap<u64, usize> = Default::default();
        for w in bins.items.iter().map(|w| w[0]) {
            let k = *index.entry(w).or_insert_with(|| {
                jobs.push(Job {
                    mean: w as f64,
                    amplitude: 0.0,
                    phase: 0.0,
                    tasks: 0,
                });
                jobs.len() - 1
            });
            jobs[k].tasks += 1;
        }
        let inst = Instance {
            capacity: bins.capacity[0] as f64,
            jobs,
        };
        inst.validate(file)?;
        Ok(inst)
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an instance always serialises")
    }
}
