//! Settings of the periodic methods: one plain struct, its defaults and its validation.

use super::aligned_fill::AlignedFillSettings;
use super::local_search::LocalSearchSettings;
use super::pricing::PricingSettings;
use super::repack::RepackSettings;
use crate::colgen::{CgSettings, DiveSettings};
use crate::problem::{Invalid, Validate};
use crate::solver::HighsSettings;
use serde::{Deserialize, Serialize};

/// Settings of the periodic methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Cap on the integer finish (the dive, then the integer master), seconds (the paper used
    /// 300 for its integer step).
    pub integer_time_limit: f64,
    /// Column-generation loop settings.
    pub cg: CgSettings,
    /// Pricing settings.
    pub pricing: PricingSettings,
    /// HiGHS options for the integer finish.
    pub highs: HighsSettings,
    /// The dive before the integer master (it shares `integer_time_limit`).
    pub dive: DiveSettings,
    /// Also seed the master with MM's packing, and start the integer finish from it when it
    /// beats BFD. Off by default: the dive starts the integer finish better than MM, and MM's
    /// search on `M` costs about a second on small-task instances (half of the first phase).
    pub mm_start: bool,
    /// Under a time limit, the share of it column generation's first phase may use when the
    /// integer finish would otherwise get less than `integer_time_limit` (the rest is kept
    /// for the finish).
    pub first_phase_share: f64,
    /// Branch-and-price (`bp`).
    pub bp: BranchSettings,
    /// HiGHS returns a little after its deadline even with the interrupt callbacks (0.1–0.9 s
    /// measured on masters of a few thousand columns), so the integer master gets what the
    /// finish has left less this share of it…
    pub integer_margin_share: f64,
    /// …and at least this many seconds less.
    pub integer_margin_seconds: f64,
    /// How far column generation's first phase runs (Fig. 2 of the paper).
    pub first_phase: FirstPhase,
    /// The first master's columns.
    pub initial_columns: InitialColumns,
}

/// The columns the job-level master starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InitialColumns {
    /// Ours (default): the paper's `K_0` and the machines of BFD (and of MM with `mm_start`),
    /// which the integer finish starts from.
    #[default]
    K0AndHeuristics,
    /// The paper's §4: `K_0` alone, one column per job holding as many of its tasks as fit
    /// on one machine.
    K0,
}

/// How far column generation's first phase runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstPhase {
    /// Ours (default): stop once `⌈bound⌉ = ⌈master⌉` within `cg.closure_gap`, or on tailing
    /// off after that (`cg.tail_iterations`); the `cg` settings as given.
    #[default]
    BoundClosure,
    /// To convergence: until the pricing proves that no column has a negative reduced cost
    /// (`cg.stop_when_bound_closes = false`, `cg.tail_iterations = 0`), the columns per
    /// iteration as `cg.max_columns_per_iteration` says.
    Convergence,
    /// The paper's Algorithm 1: to convergence with one column per iteration.
    Paper,
}

impl std::str::FromStr for FirstPhase {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "bound-closure" => Ok(FirstPhase::BoundClosure),
            "convergence" => Ok(FirstPhase::Convergence),
            "paper" => Ok(FirstPhase::Paper),
            _ => Err(format!(
                "unknown first phase `{s}`; expected bound-closure, convergence or paper"
            )),
        }
    }
}

impl Settings {
    /// Writes `first_phase` into the column-generation settings it stands for (the CLI does
    /// it for every command; a library caller building `Settings` in code calls it).
    pub fn apply_first_phase(&mut self) {
        match self.first_phase {
            FirstPhase::BoundClosure => {}
            FirstPhase::Convergence | FirstPhase::Paper => {
                self.cg.stop_when_bound_closes = false;
                self.cg.tail_iterations = 0;
                if self.first_phase == FirstPhase::Paper {
                    self.cg.max_columns_per_iteration = 1;
                }
            }
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            integer_time_limit: 10.0,
            cg: CgSettings::default(),
            pricing: PricingSettings::default(),
            highs: HighsSettings::default(),
            // The engine's 100 pricing rounds after each fixing: §5.3 `bp` at 60 s 30 / 30
            // proven (29 with 3 rounds), `cg` at 10 s 26 / 30 (12) (models/periodic.md,
            // "Integer finish").
            dive: DiveSettings::default(),
            mm_start: false,
            first_phase_share: 0.75,
            bp: BranchSettings::default(),
            integer_margin_share: 0.15,
            integer_margin_seconds: 0.5,
            first_phase: FirstPhase::BoundClosure,
            initial_columns: InitialColumns::K0AndHeuristics,
        }
    }
}

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        use Rule::*;
        let checks = [
            ("integer_time_limit", self.integer_time_limit, Seconds),
            ("cg.smoothing", self.cg.smoothing, Unit),
            ("cg.reduced_cost_tol", self.cg.reduced_cost_tol, NonNegative),
            ("cg.closure_gap", self.cg.closure_gap, NonNegative),
            ("cg.tail_gap", self.cg.tail_gap, NonNegative),
            (
                "cg.live_columns_per_row",
                self.cg.live_columns_per_row,
                NonNegative,
            ),
            (
                "cg.max_columns_per_iteration",
                self.cg.max_columns_per_iteration as f64,
                AtLeastOne,
            ),
            ("pricing.min_profit", self.pricing.min_profit, NonNegative),
            (
                "pricing.improvement_tol",
                self.pricing.improvement_tol,
                NonNegative,
            ),
            ("pricing.threads", self.pricing.threads as f64, AtLeastOne),
            ("pricing.batch", self.pricing.batch as f64, AtLeastOne),
            ("first_phase_share", self.first_phase_share, Unit),
            ("bp.root_share", self.bp.root_share, Unit),
            ("bp.repack_share", self.bp.repack_share, Unit),
            ("bp.local_search.share", self.bp.local_search.share, Unit),
            ("bp.aligned_fill.share", self.bp.aligned_fill.share, Unit),
            (
                "bp.aligned_fill.min_tasks_per_machine",
                self.bp.aligned_fill.min_tasks_per_machine,
                NonNegative,
            ),
            (
                "bp.aligned_fill.balance",
                self.bp.aligned_fill.balance,
                NonNegative,
            ),
            (
                "bp.repack.attempt_seconds",
                self.bp.repack.attempt_seconds,
                Seconds,
            ),
            (
                "bp.tree.integer_seconds",
                self.bp.tree.integer_seconds,
                Seconds,
            ),
            ("integer_margin_share", self.integer_margin_share, Unit),
            (
                "integer_margin_seconds",
                self.integer_margin_seconds,
                NonNegative,
            ),
        ];
        for (field, value, rule) in checks {
            if !rule.holds(value) {
                return Err(Invalid::new(field, value, rule.why()));
            }
        }
        if self.highs.threads == 0 {
            return Err(Invalid::new("highs.threads", 0, "must be at least 1"));
        }
        Ok(())
    }
}

/// What a numeric setting must be.
#[derive(Clone, Copy)]
enum Rule {
    Seconds,
    Unit,
    NonNegative,
    AtLeastOne,
}

impl Rule {
    fn holds(self, v: f64) -> bool {
        match self {
            Rule::Seconds => v.is_finite() && v > 0.0,
            Rule::Unit => (0.0..1.0).contains(&v),
            Rule::NonNegative => v.is_finite() && v >= 0.0,
            Rule::AtLeastOne => v >= 1.0,
        }
    }
    fn why(self) -> &'static str {
        match self {
            Rule::Seconds => "must be a positive number of seconds",
            Rule::Unit => "must be in [0, 1)",
            Rule::NonNegative => "must be >= 0",
            Rule::AtLeastOne => "must be at least 1",
        }
    }
}

/// Settings of the job-level tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TreeSettings {
    /// Nodes at most (then: the incumbent, the least open bound, the gap).
    pub node_limit: u64,
    /// A column enters a node's master when its reduced cost is below `−reduced_cost_tol`.
    pub reduced_cost_tol: f64,
    /// Columns added per pricing at most.
    pub columns_per_iteration: usize,
    /// Improving columns after which a cell's exact search stops (nothing is proven then;
    /// the last pricing of a node always runs to a proof).
    pub partial: usize,
    /// Most cells a pricing may enumerate (the product over the branched jobs of their
    /// intervals); beyond, the node stays open with its bound.
    pub max_cells: usize,
    /// The primal heuristic at the nodes (the LP rounded down, BFD, repacking); off, the
    /// tree must find the optimum by branching alone (the brute-force tests).
    pub heuristics: bool,
    /// Seconds for the integer finish (dive and integer master) of the node heuristic's
    /// packing of the LP's rounded-down residual, and of each of its repacking attempts.
    pub integer_seconds: f64,
    /// Repacking attempts in a row without gain at a node's heuristic.
    pub repack_patience: u64,
    /// Seconds between progress lines at `info!`.
    pub progress_seconds: f64,
    /// The tree's pricing proves the aim before it stops on columns below it
    /// (`pricing.prove_aim` in the tree; see there).
    pub prove_aim: bool,
}

impl Default for TreeSettings {
    fn default() -> Self {
        TreeSettings {
            node_limit: 100_000,
            reduced_cost_tol: 1e-7,
            columns_per_iteration: 10,
            partial: 3,
            max_cells: 4_096,
            heuristics: true,
            integer_seconds: 0.5,
            repack_patience: 0,
            progress_seconds: 5.0,
            prove_aim: true,
        }
    }
}

/// Settings of `--method bp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BranchSettings {
    /// Under a time limit, the share of it the job-level root may use (the repacking and the
    /// tree get the rest).
    pub root_share: f64,
    /// The job-level root's dive and restricted integer master (off: the tree starts from the
    /// best heuristic and must find the optimum itself; the brute-force tests use it).
    pub root_finish: bool,
    /// When the root leaves a gap: repacking a few machines at a time (see `periodic::repack`).
    pub repack: RepackSettings,
    /// The share of the time left that repacking may use before the tree starts.
    pub repack_share: f64,
    /// When the root leaves a gap, before the repacking: the consistent-neighbourhood local
    /// search (see `periodic::local_search`).
    pub local_search: LocalSearchSettings,
    /// The aligned fill (see `periodic::aligned_fill`): into the peak bound before the root,
    /// then into the root's bound when the root leaves a gap.
    pub aligned_fill: AlignedFillSettings,
    /// The job-level tree.
    pub tree: TreeSettings,
}

impl Default for BranchSettings {
    fn default() -> Self {
        BranchSettings {
            root_share: 0.5,
            root_finish: true,
            repack: RepackSettings::default(),
            repack_share: 0.0,
            local_search: LocalSearchSettings::default(),
            aligned_fill: AlignedFillSettings::default(),
            tree: TreeSettings::default(),
        }
    }
}

impl BranchSettings {
    /// The tree on its own: no integer finish at the root, no repacking, no heuristic in the
    /// tree, so that branching itself must find and prove the optimum.
    pub fn branching_only() -> Self {
        BranchSettings {
            root_finish: false,
            repack: RepackSettings {
                enabled: false,
                ..RepackSettings::default()
            },
            local_search: LocalSearchSettings {
                enabled: false,
                ..LocalSearchSettings::default()
            },
            aligned_fill: AlignedFillSettings {
                enabled: false,
                ..AlignedFillSettings::default()
            },
            tree: TreeSettings {
                heuristics: false,
                ..TreeSettings::default()
            },
            ..BranchSettings::default()
        }
    }
}
