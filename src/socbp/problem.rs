//! SOC-capacity bin packing as a [`Problem`] for the registry.

use super::instance::Instance;
use super::solve::{solve, verify, Method, Settings, Solution};
use crate::error::Result;
use crate::problem::{Common, Flag, Invalid, Problem, Sense, Study, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The SOC-capacity bin-packing family.
pub struct SocPacking;

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.bp.node_limit == 0 {
            return Err(Invalid::new("bp.node_limit", 0, "must be at least 1"));
        }
        if self.pricing.node_limit == 0 {
            return Err(Invalid::new("pricing.node_limit", 0, "must be at least 1"));
        }
        if self.study_seconds.is_nan() || self.study_seconds <= 0.0 {
            return Err(Invalid::new(
                "study_seconds",
                self.study_seconds,
                "must be > 0",
            ));
        }
        Ok(())
    }
}

/// A random instance: `items` items with `a` uniform in `[a_min, a_max]`, `b` uniform in
/// `[0, b_max]`, capacity `capacity`, coefficient `d` (items that would not fit alone are
/// shrunk until they do).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Items.
    #[serde(default = "items")]
    pub items: usize,
    /// Bin capacity.
    #[serde(default = "capacity")]
    pub capacity: f64,
    /// The coefficient of the square root.
    #[serde(default = "d")]
    pub d: f64,
    /// Least linear term.
    #[serde(default = "a_min")]
    pub a_min: f64,
    /// Largest linear term.
    #[serde(default = "a_max")]
    pub a_max: f64,
    /// Largest term under the root.
    #[serde(default = "b_max")]
    pub b_max: f64,
    /// Seed.
    pub seed: u64,
}

fn items() -> usize {
    30
}
fn capacity() -> f64 {
    72.0
}
fn d() -> f64 {
    1.22
}
fn a_min() -> f64 {
    1.0
}
fn a_max() -> f64 {
    16.0
}
fn b_max() -> f64 {
    16.0
}

impl Validate for Spec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.items == 0 || self.items > super::instance::MAX_ITEMS {
            return Err(Invalid::new("items", self.items, "must be 1 … 100,000"));
        }
        if !(self.capacity.is_finite() && self.capacity > 0.0) {
            return Err(Invalid::new("capacity", self.capacity, "must be > 0"));
        }
        if !(self.d.is_finite() && self.d >= 0.0) {
            return Err(Invalid::new("d", self.d, "must be ≥ 0"));
        }
        if !(0.0 <= self.a_min && self.a_min <= self.a_max && self.a_max <= self.capacity) {
            return Err(Invalid::new(
                "a_max",
                self.a_max,
                "need 0 ≤ a_min ≤ a_max ≤ capacity",
            ));
        }
        if !(self.b_max.is_finite() && self.b_max >= 0.0) {
            return Err(Invalid::new("b_max", self.b_max, "must be ≥ 0"));
        }
        Ok(())
    }
}

/// Uniform terms, seeded; an item too large alone has its `b` lowered to fit.
pub fn generate(spec: &Spec) -> Instance {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(spec.seed);
    let mut inst = Instance {
        capacity: spec.capacity,
        d: spec.d,
        a: Vec::new(),
        b: Vec::new(),
    };
    for _ in 0..spec.items {
        let a: f64 = rng.random_range(spec.a_min..=spec.a_max);
        let mut b: f64 = rng.random_range(0.0..=spec.b_max);
        if spec.d > 0.0 {
            b = b.min(((spec.capacity - a) / spec.d).powi(2) * (1.0 - 1e-9));
        }
        inst.a.push(a);
        inst.b.push(b.max(0.0));
    }
    inst
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

impl Problem for SocPacking {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "SOC-capacity bin packing (.cbp, JSON): Σa + D√Σb ≤ c per bin, branch-and-price to proven optimality";
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
                "json|cbp",
                "Input format (default: the extension's, else the content's)",
            ),
            Flag::sets(
                "no-dive",
                Target::Settings,
                "bp.root_dive",
                "false",
                "bp: no dive at the root (the tree must find the optimum)",
            ),
            Flag::takes("items", G, "items", "N", "Items (default 30)"),
            Flag::takes("capacity", G, "capacity", "C", "Bin capacity (default 72)"),
            Flag::takes("d", G, "d", "D", "Coefficient of √Σb (default 1.22)"),
            Flag::takes("a-min", G, "a_min", "A", "Least a (default 1)"),
            Flag::takes("a-max", G, "a_max", "A", "Largest a (default 16)"),
            Flag::takes("b-max", G, "b_max", "B", "Largest b (default 16)"),
        ]
    }

    fn configure(_settings: &mut Settings, _common: &Common) {}

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

    fn generate(spec: &Spec) -> Result<Instance> {
        Ok(generate(spec))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!(
            "{} items, capacity {}, D = {}",
            inst.len(),
            inst.capacity,
            inst.d
        )
    }

    fn studies() -> Vec<Study> {
        vec![Study {
            name: "socbp-cloud",
            title: "Branch-and-price on the CloudSmall .cbp set (--input: a folder with optima.tsv): proven optimal, times, against the published bounds",
            limits: Some("each instance: its branch-and-price (instead of `study_seconds`)"),
            run: super::study::run,
        }]
    }
}
