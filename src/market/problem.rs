//! The §3.1 rebalance problem as a [`Problem`]: the tabu search, the brute force and the
//! no-migration baseline for the registry.

use super::generate::{generate, GenSpec};
use super::instance::Instance;
use super::rebalance::{solve_within, verify, Method, Settings, Solution};
use crate::error::Result;
use crate::problem::{Common, Flag, Invalid, Problem, Sense, Study, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use std::path::Path;

/// Rebalancing VMs across nodes so that each gets close to its share of the pooled market
/// (Merkat §3.1).
pub struct Rebalance;

crate::method_table!(Method, all);

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        Settings::validate(self).map_err(Invalid::from_message)
    }
}

impl Validate for GenSpec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.nodes_min == 0 || self.nodes_max < self.nodes_min {
            return Err(Invalid::new(
                "nodes_min",
                self.nodes_min,
                "need 1 ≤ nodes_min ≤ nodes_max",
            ));
        }
        if self.max_vms_per_node == 0 {
            return Err(Invalid::new("max_vms_per_node", 0, "must be at least 1"));
        }
        Ok(())
    }
}

impl Problem for Rebalance {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "Rebalance: migrate VMs so each node's proportional share nears the pooled market's (Merkat §3.1)";
    const SENSE: Sense = Sense::Minimize;
    type Instance = Instance;
    type Solution = Solution;
    type Method = Method;
    type Settings = Settings;
    type Load = ();
    type Spec = GenSpec;
    type Memo = ();

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes(
                "migrations",
                Target::Settings,
                "migrations",
                "M",
                "Most VMs that may change node (default: the instance's)",
            ),
            Flag::takes(
                "epsilon",
                Target::Settings,
                "epsilon",
                "E",
                "Stop once the largest error is at most E (default 0.05)",
            ),
            Flag::takes(
                "tabu-tenure",
                Target::Settings,
                "tabu_tenure",
                "T",
                "Iterations a (VM, source) move stays tabu (default 7)",
            ),
            Flag::takes(
                "iterations",
                Target::Settings,
                "iterations",
                "I",
                "Tabu iterations (default 50)",
            ),
            Flag::takes(
                "nodes-min",
                Target::Spec,
                "nodes_min",
                "N",
                "Fewest nodes (default 4)",
            ),
            Flag::takes(
                "nodes-max",
                Target::Spec,
                "nodes_max",
                "N",
                "Most nodes (default 20)",
            ),
            Flag::takes(
                "migrations",
                Target::Spec,
                "migrations",
                "M",
                "The instance's migration limit",
            ),
        ]
    }

    fn configure(settings: &mut Settings, common: &Common) {
        if let Some(t) = common.threads {
            settings.highs.threads = t;
        }
    }

    fn load(path: &Path, _load: &()) -> Result<Instance> {
        Instance::from_json(&crate::input::read_text(path)?, path)
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        _memo: &(),
    ) -> Result<Solution> {
        let began = std::time::Instant::now();
        let mut sol = solve_within(inst, method, settings, deadline)?;
        sol.certificate.seconds = began.elapsed().as_secs_f64();
        Ok(sol)
    }

    fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
        verify(inst, sol)
    }

    fn check_bound(
        inst: &Instance,
        sol: &Solution,
        depth: crate::problem::Depth,
    ) -> crate::problem::BoundCheck {
        super::rebalance::check_bound(inst, sol, depth)
    }

    fn export_lp(
        inst: &Instance,
        settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        Some(super::rebalance::model_file(inst, settings, name, format))
    }

    fn generate(spec: &GenSpec) -> Result<Instance> {
        Ok(generate(spec, spec.seed))
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/examples/rebalance.json",
            include_str!("../../data/examples/rebalance.json"),
            "exact",
            "tabu",
        ))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!("{} VMs on {} nodes", inst.vms.len(), inst.nodes.len())
    }

    fn tools() -> Vec<crate::problem::Tool> {
        super::tools::tools()
    }

    fn studies() -> Vec<Study> {
        vec![Study {
            name: "market-paper",
            title: "Merkat §5 in simulation: Fig. 6 (vertical scaling to a deadline, Table 1's two VMs and variants), Fig. 7 (two frameworks), satisfaction against EASY backfilling with a 95% interval, under every reading, and its sensitivity to load, tightness, budget rule and cores (--settings: {sim, fig6, fig7, satisfaction, sensitivity})",
            limits: None,
            run: super::paper::paper_study,
        }, Study {
            name: "market-rebalance",
            title: "Exact rebalancing (exact branch-and-bound over moves) against tabu: the Pareto curve of the largest error against M in {0,1,2,4,8} and tabu's gap over random instances (4-20 nodes, lognormal bids; --instances, default 1000)",
            limits: Some("each exact search (instead of `exact_seconds`, 0.5 s)"),
            run: super::rebalance_study::rebalance_study,
        }]
    }
}
