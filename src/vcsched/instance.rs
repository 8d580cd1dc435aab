//! A VCSched instance: `H` identical hosts and jobs with a CPU need `α_i` and a memory need
//! `m_i`, both fractions of one host in `(0, 1]` (RR-6692 §2.3).
//!
//! A job may be parallel (§5): `T_i` tasks that all need `α_i` and `m_i`; two tasks of one
//! job may share a host. An instance may also describe an adaptation (§6.1): the host each
//! task runs on now (`current`, `null` for a new task) and a migration budget `B` in memory
//! units. Tasks are numbered job by job: job 0's tasks first, then job 1's, and so on.
//!
//! Two file formats: JSON (`{"hosts": 4, "jobs": [{"cpu": .., "mem": ..}]}`) and CSV
//! (`cpu,mem[,name]` per line, header optional, hosts given on the command line). Every value
//! is validated here, so methods never see bad data.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::path::Path;

/// Slack allowed on the migration budget (rounding in sums of memory needs).
pub const BUDGET_TOLERANCE: f64 = 1e-9;

/// Largest number of hosts accepted.
pub const MAX_HOSTS: usize = 1_000_000;

/// Largest number of tasks of one job.
pub const MAX_TASKS: u32 = 1_000_000;

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
    /// `T_i`: number of tasks (1 for a sequential job).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub tasks: u32,
}

fn one() -> u32 {
    1
}

fn is_one(t: &u32) -> bool {
    *t == 1
}

impl Job {
    /// A sequential job.
    pub fn new(cpu: f64, mem: f64) -> Self {
        Job {
            cpu,
            mem,
            name: None,
            tasks: 1,
        }
    }
}

/// A validated VCSched instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Number of identical hosts `H`.
    pub hosts: usize,
    /// The jobs, in file order (their index is their identity).
    pub jobs: Vec<Job>,
    /// Adaptation: the host of every task now, `None` for a task that has just arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<Vec<Option<usize>>>,
    /// Adaptation: the most memory migrations may move (`None`: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<f64>,
}

/// The formats of a VCSched instance file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The JSON document (every feature: parallel jobs, adaptations).
    Json,
    /// `cpu,mem[,name]` per line; the host count from `--hosts`.
    Csv,
}

impl Instance {
    /// Builds and validates an instance from numbers (`file` names the source in errors).
    pub fn new(hosts: usize, jobs: Vec<Job>, file: &Path) -> Result<Self> {
        let inst = Instance {
            hosts,
            jobs,
            current: None,
            budget: None,
        };
        inst.validate(file)?;
        Ok(inst)
    }

    /// Number of jobs `J`.
    pub fn num_jobs(&self) -> usize {
        self.jobs.len()
    }

    /// Number of tasks `Σ T_i` (the number of jobs when every job is sequential).
    pub fn num_tasks(&self) -> usize {
        self.jobs.iter().map(|j| j.tasks as usize).sum()
    }

    /// True when some job has more than one task.
    pub fn is_parallel(&self) -> bool {
        self.jobs.iter().any(|j| j.tasks > 1)
    }

    /// True when the instance describes an adaptation (it gives current hosts).
    pub fn is_adaptation(&self) -> bool {
        self.current.is_some()
    }

    /// The job of every task, in task order.
    pub fn task_jobs(&self) -> Vec<usize> {
        self.jobs
            .iter()
            .enumerate()
            .flat_map(|(i, j)| std::iter::repeat_n(i, j.tasks as usize))
            .collect()
    }

    /// Every task's job data, in task order.
    pub fn tasks(&self) -> impl Iterator<Item = &Job> + '_ {
        self.jobs
            .iter()
            .flat_map(|j| std::iter::repeat_n(j, j.tasks as usize))
    }

    /// The current host of task `t` (`None` for a new task or when not adapting).
    pub fn current_host(&self, t: usize) -> Option<usize> {
        self.current
            .as_ref()
            .and_then(|c| c.get(t).copied().flatten())
    }

    /// Memory moved by `placement` (a host per task): `m_i` for every task placed off its
    /// current host (eq. 31); new tasks move nothing.
    pub fn migration_cost(&self, placement: &[usize]) -> f64 {
        self.tasks()
            .zip(placement)
            .enumerate()
            .filter(|&(t, (_, &h))| self.current_host(t).is_some_and(|c| c != h))
            .map(|(_, (job, _))| job.mem)
            .fold(0.0, |a, m| a + m)
    }

    /// The tasks as sequential jobs (same hosts, no adaptation data): what the placement
    /// heuristics work on, since a placement puts tasks, not jobs, on hosts. Borrowed when the
    /// instance is already sequential and not an adaptation.
    pub fn flattened(&self) -> Cow<'_, Instance> {
        if !self.is_parallel() && !self.is_adaptation() {
            return Cow::Borrowed(self);
        }
        Cow::Owned(Instance {
            hosts: self.hosts,
            jobs: self
                .tasks()
                .map(|j| Job {
                    tasks: 1,
                    ..j.clone()
                })
                .collect(),
            current: None,
            budget: None,
        })
    }

    /// `Σ T_i α_i`.
    pub fn total_cpu(&self) -> f64 {
        self.tasks().map(|j| j.cpu).sum()
    }

    /// `Σ T_i m_i`.
    pub fn total_mem(&self) -> f64 {
        self.tasks().map(|j| j.mem).sum()
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
            check_least_cpu(j.cpu, file, field(format!("jobs[{i}].cpu")))?;
            check_fraction(j.mem, file, field(format!("jobs[{i}].mem")))?;
            if j.tasks == 0 || j.tasks > MAX_TASKS {
                return Err(InputError::new(
                    file,
                    field(format!("jobs[{i}].tasks")),
                    j.tasks.to_string(),
                    format!("a job has between 1 and {MAX_TASKS} tasks"),
                )
                .into());
            }
        }
        if let Some(current) = &self.current {
            let n = self.num_tasks();
            if current.len() != n {
                return Err(InputError::new(
                    file,
                    field("current".into()),
                    format!("{} entries", current.len()),
                    format!("one entry (a host or null) is needed per task: {n} tasks"),
                )
                .into());
            }
            for (t, h) in current.iter().enumerate() {
                if let Some(h) = h.filter(|&h| h >= self.hosts) {
                    return Err(InputError::new(
                        file,
                        field(format!("current[{t}]")),
                        h.to_string(),
                        format!("no such host: hosts are numbered 0 to {}", self.hosts - 1),
                    )
                    .into());
                }
            }
        }
        if let Some(b) = self.budget {
            check_budget(b, file, field("budget".into()))?;
            if self.current.is_none() {
                return Err(InputError::new(
                    file,
                    field("budget".into()),
                    b.to_string(),
                    "a migration budget needs `current` (the hosts the tasks run on now)",
                )
                .into());
            }
        }
        Ok(())
    }

    /// Reads an instance (`-`: standard input): JSON when the content opens with `{`, else
    /// the format its extension names (`.json`, `.csv`), else CSV; `hosts` is
    /// required for CSV and, for JSON, overrides nothing (giving it is an error if it
    /// disagrees).
    pub fn load(path: &Path, hosts: Option<usize>) -> Result<Self> {
        Self::load_as(path, hosts, None)
    }

    /// [`Instance::load`] with the format given (`--format`), or chosen as there when `None`.
    pub fn load_as(path: &Path, hosts: Option<usize>, format: Option<Format>) -> Result<Self> {
        let text = crate::input::read_text(path)?;
        let format = crate::input::choose_format(
            format,
            path,
            &text,
            &[("json", Format::Json), ("csv", Format::Csv)],
            Format::Json,
            || Format::Csv,
        );
        let is_csv = format == Format::Csv;
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
                check_fraction(v, file, loc.clone())?;
                if col == "cpu" {
                    check_least_cpu(v, file, loc)?;
                }
                Ok(v)
            };
            jobs.push(Job {
                name: cells
                    .get(2)
                    .map(|s| s.to_string())
                    .filter(|s| !s.is_empty()),
                ..Job::new(number(0, "cpu")?, number(1, "mem")?)
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

/// Checks a migration budget: a finite number of memory units, at least 0.
pub fn check_budget(b: f64, file: impl AsRef<Path>, loc: Location) -> Result<()> {
    let reason = if b.is_nan() {
        "not a number (NaN)"
    } else if b.is_infinite() {
        "must be finite (leave the budget out for no limit)"
    } else if b < 0.0 {
        "a migration budget (memory units) cannot be negative"
    } else {
        return Ok(());
    };
    Err(InputError::new(file.as_ref(), loc, b.to_string(), reason).into())
}

/// The least CPU need: HiGHS rejects the MILP of a need near 1e-30 and proves a wrong bound
/// near 1e-9 (the yield variables are scaled by `1/α`), so smaller needs are input errors.
pub const MIN_CPU: f64 = 1e-6;

fn check_least_cpu(v: f64, file: &Path, loc: Location) -> Result<()> {
    if v >= MIN_CPU {
        return Ok(());
    }
    let why = format!(
        "must be at least {MIN_CPU:e} of a host: a smaller need is below the solvers' tolerances"
    );
    Err(InputError::new(file, loc, crate::input::number(v), why).into())
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
    Err(InputError::new(file, loc, crate::input::number(v), reason).into())
}
