//! Bin packing as a [`Problem`] for the registry.

use super::instance::Instance;
use super::solve::{solve, verify, Method, Settings, Solution};
use crate::error::Result;
use crate::problem::{Common, Flag, Invalid, Problem, Sense, Study, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The one-dimensional bin-packing family.
pub struct BinPacking;

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.bp.node_limit == 0 {
            return Err(Invalid::new("bp.node_limit", 0, "must be at least 1"));
        }
        if self.pricing.node_limit == 0 {
            return Err(Invalid::new("pricing.node_limit", 0, "must be at least 1"));
        }
        let c = &self.cuts;
        for (key, v) in [
            ("cuts.share", c.share),
            ("bp.enumeration.share", self.bp.enumeration.share),
            (
                "bp.enumeration.plain_retry_share",
                self.bp.enumeration.plain_retry_share,
            ),
            ("bp.retry_share", self.bp.retry_share),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Invalid::new(key, v, "must be in [0, 1]"));
            }
        }
        for (key, v) in [
            ("cuts.reduced_cost_tol", c.reduced_cost_tol),
            ("cuts.min_violation", c.min_violation),
            ("bp.pool_per_row", self.bp.pool_per_row),
            (
                "bp.cg.live_columns_per_row",
                self.bp.cg.live_columns_per_row,
            ),
            (
                "root_cg.live_columns_per_row",
                self.root_cg.live_columns_per_row,
            ),
            (
                "bp.retry_live_columns_per_row",
                self.bp.retry_live_columns_per_row,
            ),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Invalid::new(key, v, "must be a finite number ≥ 0"));
            }
        }
        let t = self.bp.pair_target;
        if !(t > 0.0 && t < 1.0) {
            return Err(Invalid::new("bp.pair_target", t, "must be in (0, 1)"));
        }
        Ok(())
    }
}

/// A random instance: `items` weights uniform in `[min, max]`, capacity `capacity`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Items.
    #[serde(default = "items")]
    pub items: usize,
    /// Bin capacity.
    #[serde(default = "capacity")]
    pub capacity: u64,
    /// Smallest weight.
    #[serde(default = "min_weight")]
    pub min_weight: u64,
    /// Largest weight.
    #[serde(default = "max_weight")]
    pub max_weight: u64,
    /// Dimensions (weights drawn independently in each).
    #[serde(default = "dims")]
    pub dims: usize,
    /// Seed.
    pub seed: u64,
}

fn dims() -> usize {
    1
}

fn items() -> usize {
    50
}
fn capacity() -> u64 {
    150
}
fn min_weight() -> u64 {
    20
}
fn max_weight() -> u64 {
    100
}

impl Validate for Spec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.items == 0 || self.items > super::instance::MAX_ITEMS {
            return Err(Invalid::new("items", self.items, "must be 1 … 100,000"));
        }
        if self.dims == 0 || self.dims > super::instance::MAX_DIMS {
            return Err(Invalid::new("dims", self.dims, "must be 1 … 16"));
        }
        if !(1..=self.max_weight).contains(&self.min_weight) || self.max_weight > self.capacity {
            return Err(Invalid::new(
                "max_weight",
                self.max_weight,
                "need 1 ≤ min_weight ≤ max_weight ≤ capacity",
            ));
        }
        Ok(())
    }
}

/// Uniform weights, seeded.
pub fn generate(spec: &Spec) -> Instance {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(spec.seed);
    Instance {
        capacity: vec![spec.capacity; spec.dims],
        items: (0..spec.items)
            .map(|_| {
                (0..spec.dims)
                    .map(|_| rng.random_range(spec.min_weight..=spec.max_weight))
                    .collect()
            })
            .collect(),
    }
}

/// How an instance file is read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Load {
    /// The file's format (by default its extension's, else its content's).
    pub format: Option<super::Format>,
}

impl Validate for Load {}

const G: Target = Target::Spec;

impl Problem for BinPacking {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "Bin and vector packing (BPPLIB, .vbp, JSON): branch-and-price to proven optimality";
    const SENSE: Sense = Sense::Minimize;
    type Instance = Instance;
    type Solution = Solution;
    type Method = Method;
    type Settings = Settings;
    type Load = Load;
    type Spec = Spec;
    type Memo = ();

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes(
                "node-limit",
                Target::Settings,
                "bp.node_limit",
                "N",
                "bp: search nodes at most (default 100000)",
            ),
            Flag::takes(
                "format",
                Target::Load,
                "format",
                "json|vbp|bpplib",
                "Input format (default: the extension's, else the content's)",
            ),
            Flag::sets(
                "no-dive",
                Target::Settings,
                "bp.root_dive",
                "false",
                "bp: no dive at the root (the tree must find the optimum)",
            ),
            Flag::takes("items", G, "items", "N", "Items (default 50)"),
            Flag::takes("capacity", G, "capacity", "C", "Bin capacity (default 150)"),
            Flag::takes("dims", G, "dims", "D", "Dimensions (default 1)"),
            Flag::takes(
                "min-weight",
                G,
                "min_weight",
                "W",
                "Smallest weight (default 20)",
            ),
            Flag::takes(
                "max-weight",
                G,
                "max_weight",
                "W",
                "Largest weight (default 100)",
            ),
        ]
    }

    fn configure(_settings: &mut Settings, _common: &Common) {}

    const EXTENSIONS: &'static [&'static str] = &["json", "vbp", "txt", "bpp"];
    fn load(path: &Path, load: &Load) -> Result<Instance> {
        Instance::load_as(path, load.format)
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        _memo: &(),
    ) -> Result<Solution> {
        solve(inst, method, settings, deadline)
    }

    fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
        verify(inst, sol)
    }

    fn check_bound(
        inst: &Instance,
        sol: &Solution,
        depth: crate::problem::Depth,
    ) -> crate::problem::BoundCheck {
        super::proof::check(inst, sol, depth)
    }

    fn export_lp(
        inst: &Instance,
        _settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        let highs = crate::solver::HighsSettings::default();
        Some(super::compact::lp_file(inst, name, format, &highs))
    }

    fn generate(spec: &Spec) -> Result<Instance> {
        Ok(generate(spec))
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/examples/vbp.json",
            include_str!("../../data/examples/vbp.json"),
            "bp",
            "ffd",
        ))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!("{} items, capacity {:?}", inst.len(), inst.capacity)
    }

    fn studies() -> Vec<Study> {
        vec![Study {
            name: "binpacking-bpplib",
            title: "Branch-and-price on BPPLIB sets (--input: a set folder with optima.tsv, or a folder of them): proven optimal, times, root LP against Brandão's",
            limits: Some("each instance: its branch-and-price (instead of `study_seconds`)"),
            run: super::study::run,
        }]
    }
}
