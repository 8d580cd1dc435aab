//! SOC-capacity bin packing as a [`Problem`] for the registry.

use super::generate::{generate, Spec};
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
        let live = self.bp.cg.live_columns_per_row;
        if !(live.is_finite() && live >= 0.0) {
            return Err(Invalid::new(
                "bp.cg.live_columns_per_row",
                live,
                "must be a finite number ≥ 0 (0: no column management)",
            ));
        }
        let gap = self.pricing.grid_chord_gap;
        if !(1e-5..=0.5).contains(&gap) {
            return Err(Invalid::new(
                "pricing.grid_chord_gap",
                gap,
                "must be in [1e-5, 0.5]: the grid bound's chord gap, relative to the capacity (smaller \
                 gaps need thousands of pieces)",
            ));
        }
        if self.pricing.grid_fine_cells > 1_000_000 {
            return Err(Invalid::new(
                "pricing.grid_fine_cells",
                self.pricing.grid_fine_cells,
                "must be at most 1,000,000 (at most grid_cells: no refinement)",
            ));
        }
        if self.pricing.grid_cells > 1_000_000 {
            return Err(Invalid::new(
                "pricing.grid_cells",
                self.pricing.grid_cells,
                "must be at most 1,000,000 (0 turns the grid bound off)",
            ));
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
            Flag::takes(
                "type",
                G,
                "type",
                "g|h|d",
                "The authors' cloud instances (Xu et al. 2022): g Gaussian, h Hoeffding, d distributionally robust (default: uniform terms)",
            ),
            Flag::takes(
                "alpha",
                G,
                "alpha",
                "A",
                "With --type: risk level in (0, 1), D from it (default 0.9)",
            ),
            Flag::sets(
                "datagen",
                G,
                "datagen",
                "true",
                "With --type: as the authors' datagen.py where it departs from the issue (b from √E[X²], room 5c/(load+5), top class to 33.05)",
            ),
            Flag::takes("d", G, "d", "D", "Uniform: coefficient of √Σb (default 1.22)"),
            Flag::takes("a-min", G, "a_min", "A", "Uniform: least a (default 1)"),
            Flag::takes("a-max", G, "a_max", "A", "Uniform: largest a (default 16)"),
            Flag::takes("b-max", G, "b_max", "B", "Uniform: largest b (default 16)"),
        ]
    }

    fn configure(_settings: &mut Settings, _common: &Common) {}

    const EXTENSIONS: &'static [&'static str] = &["json", "cbp"];
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

    fn generate(spec: &Spec) -> Result<Instance> {
        Ok(generate(spec))
    }

    /// `.cbp` unless the file ends in `.json` (as [`Instance::load_file`] reads it): header
    /// `<type> c n <alpha>`, `u … 0` for the uniform generator.
    fn instance_text(spec: &Spec, inst: &Instance, output: Option<&Path>) -> String {
        match output {
            Some(p) if p.extension().is_none_or(|e| e != "json") => match spec.kind {
                Some(kind) => inst.to_cbp(kind.letter(), spec.alpha()),
                None => inst.to_cbp("u", 0.0),
            },
            _ => serde_json::to_string_pretty(inst).expect("an instance serialises"),
        }
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

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/examples/socbp.json",
            include_str!("../../data/examples/socbp.json"),
            "bp",
            "ffd",
        ))
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
