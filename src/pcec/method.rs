//! Methods (placement policies) and the tunable numbers of the simulation.

use serde::{Deserialize, Serialize};

/// How the head job of the FCFS queue picks a free VM (§III.A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Highest EC; ties in PM-major order (A1, A2, …, B1, …): co-locates jobs (Fig. 4a).
    Ec,
    /// Highest PC, then highest EC, then PM-major index (Fig. 4b).
    Pc,
    /// Highest EC; ties in VM-major order (A1, B1, C1, …, A2, …): the load-balanced EC of
    /// Fig. 7's left-most point (an interpretation).
    EcLb,
    /// Every non-delay FCFS dispatch sequence, keeping the one of least mean XF (tiny
    /// instances only).
    Enumerate,
}

impl Method {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Ec => "ec",
            Method::Pc => "pc",
            Method::EcLb => "ec-lb",
            Method::Enumerate => "enumerate",
        }
    }

    /// One line for `--help` and reports.
    pub fn description(self) -> &'static str {
        match self {
            Method::Ec => {
                "FCFS, free VM of highest equilibrium capacity, ties PM-major (packs PMs)"
            }
            Method::Pc => "FCFS, free VM of highest potential capacity, then EC, then index",
            Method::EcLb => {
                "FCFS, free VM of highest equilibrium capacity, ties VM-major (spreads)"
            }
            Method::Enumerate => {
                "best mean XF over all non-delay FCFS dispatch choices (≤ 8 jobs, ≤ 4 VMs)"
            }
        }
    }

    /// Every method.
    pub fn all() -> [Method; 4] {
        [Method::Ec, Method::Pc, Method::EcLb, Method::Enumerate]
    }

    /// The three greedy policies of the paper's experiments.
    pub fn policies() -> [Method; 3] {
        [Method::Ec, Method::Pc, Method::EcLb]
    }
}

crate::method_table!(Method, all);

/// Every tunable number of the simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Factor applied to every submit time (stretches inter-arrival times; > 1 lowers the load).
    pub arrival_factor: f64,
    /// `threshold` of Eq. 3, the bounded-slowdown floor on the ideal run time, seconds.
    pub xf_threshold: f64,
    /// Number of equal arrival-time bins for the per-bin XF and utilisation (Figs. 5–6).
    pub bins: usize,
    /// Two capacities closer than this are a tie (then the next criterion decides).
    pub tie_tolerance: f64,
    /// Largest job count `enumerate` accepts.
    pub enumerate_max_jobs: usize,
    /// Largest VM count `enumerate` accepts.
    pub enumerate_max_vms: usize,
    /// Relative tolerance of `verify` (work conservation, recomputed metrics).
    pub verify_tolerance: f64,
    /// A queue longer than this starts a "queueing episode" (the paper explains its 4.7
    /// ratio by three intervals where EC queued over 20 jobs).
    pub queue_episode_threshold: usize,
    /// Jobs per window of the fluid LP bound (consecutive in release order).
    pub fluid_window: usize,
    /// Slots of the fluid LP over a window's releases (its distinct release times, thinned
    /// to at most this many slot starts).
    pub fluid_slots: usize,
    /// Slots of the fluid LP after a window's last release, up to its horizon.
    pub fluid_tail_slots: usize,
    /// The certificate's bound (`solve`): the closed form, the fluid LP (its multipliers the
    /// `dual` proof `verify` re-derives), or `auto` — the fluid LP on instances of at most
    /// `fluid_auto_jobs` jobs.
    pub lower_bound: LowerBound,
    /// `auto`: the largest instance the fluid LP bounds (one window of 1,000 jobs solves in
    /// about a second; the simulation itself takes milliseconds).
    pub fluid_auto_jobs: usize,
    /// How `ec` breaks ties between free VMs of equal EC. Under the paper's set-up (equal
    /// shares, min 0, max 1) every EC is 0.25, so this rule *is* the EC policy.
    pub ec_tie_break: TieBreak,
    /// Seed of the `random` tie-break.
    pub tie_seed: u64,
}

/// Which bound a `solve` certificate carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LowerBound {
    /// The fluid LP up to `fluid_auto_jobs` jobs, else the closed form. The default.
    #[default]
    Auto,
    /// Always the fluid LP (within the command's time limit; windows left unsolved count
    /// their trivial bound).
    Fluid,
    /// The closed form `mean p_j/R / max(threshold, p_j/R)` only.
    ClosedForm,
}

impl LowerBound {
    /// True when the fluid LP bounds an instance of `jobs` jobs.
    pub fn fluid(self, jobs: usize, auto_jobs: usize) -> bool {
        match self {
            LowerBound::Auto => jobs <= auto_jobs,
            LowerBound::Fluid => true,
            LowerBound::ClosedForm => false,
        }
    }
}

/// The order in which `ec` scans free VMs of equal EC (the first one wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieBreak {
    /// A1, A2, …, B1, …: the paper's "first VM from the sorted EC list" with a PM's VMs
    /// contiguous (§III.A: "contiguous sequences of VMs on a common PM … leads to
    /// collocation"). The default.
    #[default]
    PmMajor,
    /// A1, B1, C1, …, A2, …: what `ec-lb` does.
    VmMajor,
    /// PM-major order starting after the VM chosen last (cyclic).
    RoundRobin,
    /// Uniform among the free VMs of highest EC (ChaCha8 seeded by `tie_seed`).
    Random,
}

impl TieBreak {
    /// Every rule.
    pub fn all() -> [TieBreak; 4] {
        [
            TieBreak::PmMajor,
            TieBreak::VmMajor,
            TieBreak::RoundRobin,
            TieBreak::Random,
        ]
    }
    /// The name in settings files.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::PmMajor => "pm-major",
            TieBreak::VmMajor => "vm-major",
            TieBreak::RoundRobin => "round-robin",
            TieBreak::Random => "random",
        }
    }
}

impl std::str::FromStr for TieBreak {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        TieBreak::all()
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown tie-break `{s}`; expected pm-major, vm-major, round-robin or random"
                )
            })
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            arrival_factor: 1.0,
            xf_threshold: 10.0,
            bins: 50,
            tie_tolerance: 1e-12,
            enumerate_max_jobs: 8,
            enumerate_max_vms: 4,
            verify_tolerance: 1e-9,
            queue_episode_threshold: 20,
            fluid_window: 1000,
            fluid_slots: 100,
            fluid_tail_slots: 30,
            lower_bound: LowerBound::Auto,
            fluid_auto_jobs: 1000,
            ec_tie_break: TieBreak::PmMajor,
            tie_seed: 1,
        }
    }
}

impl Settings {
    /// Checks every value; the message names the key.
    pub fn validate(&self) -> std::result::Result<(), String> {
        let pos = |k: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{k} must be a finite number > 0, got {v}"))
            }
        };
        pos("arrival_factor", self.arrival_factor)?;
        pos("xf_threshold", self.xf_threshold)?;
        pos("verify_tolerance", self.verify_tolerance)?;
        if !(self.tie_tolerance.is_finite() && self.tie_tolerance >= 0.0) {
            return Err(format!(
                "tie_tolerance must be a finite number ≥ 0, got {}",
                self.tie_tolerance
            ));
        }
        if self.bins == 0 {
            return Err("bins must be ≥ 1".into());
        }
        for (k, v) in [
            ("fluid_window", self.fluid_window),
            ("fluid_slots", self.fluid_slots),
            ("fluid_tail_slots", self.fluid_tail_slots),
        ] {
            if v == 0 {
                return Err(format!("{k} must be ≥ 1"));
            }
        }
        if self.enumerate_max_jobs > 12 || self.enumerate_max_vms > 8 {
            return Err("enumerate_max_jobs ≤ 12 and enumerate_max_vms ≤ 8 keep the enumeration finite in practice".into());
        }
        Ok(())
    }
}
