//! The satisfaction study (§5.4.3) under every reading, and its sensitivity to the
//! parameters the paper does not state (issue 39): what it takes to reach the paper's
//! Merkat/Maui ratio of 2.79.

use super::instance::Res;
use super::satisfaction::{level, trace, BudgetRule, SatLevel, SatSpec};
use super::sim::{SimSettings, StartRule, SuspendRule};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// The grids (the main spec's other fields are kept).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SensSpec {
    /// Run the readings table and the sensitivity grid at all.
    pub enabled: bool,
    /// Seeds per cell (the main result uses the satisfaction spec's).
    pub seeds: u64,
    /// Offered CPU loads.
    pub loads: Vec<f64>,
    /// Fixed tightness levels (the spec's uniform range is always included first).
    pub tightness_levels: Vec<f64>,
    /// Cores per node (4: the VMs overcommit CPU twice; 8: one core per VM slot, as when each
    /// of Table 1's 32 one-core VMs has a core).
    pub node_cores: Vec<f64>,
}

impl Default for SensSpec {
    fn default() -> Self {
        SensSpec {
            enabled: true,
            seeds: 10,
            loads: vec![0.5, 1.0, 2.0, 4.0],
            tightness_levels: vec![1.25, 2.0, 5.0],
            node_cores: vec![4.0, 8.0],
        }
    }
}

/// One cell.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SensCell {
    /// Row label.
    pub label: String,
    /// The level's aggregate.
    pub level: SatLevel,
    /// Mean suspensions per seed under Merkat.
    pub suspensions: f64,
}

/// Both tables.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sensitivity {
    /// Every reading (suspend rule × start rule × budget rule) at the main spec.
    pub readings: Vec<SensCell>,
    /// Load × tightness × budget rule × node cores, under the paper's readings.
    pub grid: Vec<SensCell>,
    /// The grid's parameters.
    pub spec: SensSpec,
}

fn cell(label: String, spec: &SatSpec, fixed: Option<f64>, set: &SimSettings) -> Result<SensCell> {
    let l = level(spec, &trace(spec), fixed, set)?;
    let suspensions =
        l.seeds.iter().map(|s| s.suspensions).sum::<usize>() as f64 / l.seeds.len().max(1) as f64;
    Ok(SensCell {
        label,
        level: l,
        suspensions,
    })
}

/// Runs both tables (no upper bound: no MILP).
pub fn sensitivity(main: &SatSpec, sens: &SensSpec, set: &SimSettings) -> Result<Sensitivity> {
    let base = SatSpec {
        bound: false,
        ..main.clone()
    };
    let rules = [BudgetRule::InverseDeadline, BudgetRule::InverseTightness];
    let mut readings = Vec::new();
    for rule in rules {
        for suspend in [SuspendRule::Price, SuspendRule::BudgetCut, SuspendRule::Off] {
            for start in [StartRule::Price, StartRule::Slots] {
                let spec = SatSpec {
                    budget_rule: rule,
                    ..base.clone()
                };
                let s = SimSettings {
                    suspend,
                    start,
                    ..set.clone()
                };
                let label = format!("{rule:?} | {suspend:?} | {start:?}");
                readings.push(cell(label, &spec, None, &s)?);
            }
        }
    }
    let mut grid = Vec::new();
    for &cores in &sens.node_cores {
        for rule in rules {
            for &load in &sens.loads {
                let spec = SatSpec {
                    budget_rule: rule,
                    target_load: load,
                    node: Res::new(cores, main.node.mem),
                    seeds: sens.seeds,
                    ..base.clone()
                };
                let fixed =
                    std::iter::once(None).chain(sens.tightness_levels.iter().map(|&t| Some(t)));
                for f in fixed {
                    let label = format!("{cores} | {rule:?} | {load}");
                    grid.push(cell(label, &spec, f, set)?);
                }
            }
        }
    }
    Ok(Sensitivity {
        readings,
        grid,
        spec: sens.clone(),
    })
}

fn ratio(l: &SatLevel) -> String {
    l.ratio
        .map_or("n/a (EASY ≤ 0)".into(), |r| format!("{r:.2}"))
}

impl Sensitivity {
    /// The two tables.
    pub fn to_markdown(&self, main: &SatSpec) -> String {
        let mut s = String::from("## Satisfaction under every reading (§5.4.3)\n\n");
        s += &format!(
            "Tightness U[{}, {}], load {}, {} cores per node, {} seeds, no bound. Merkat and EASY as satisfaction / Σ budget (mean ± 95 %); ratio Σ Merkat / Σ EASY (paper: 2.79).\n\n",
            main.tightness.0, main.tightness.1, main.target_load, main.node.cpu, main.seeds
        );
        s += "| budget rule | suspend rule | start rule | Merkat | EASY | ratio | met of 30 (Merkat / EASY) | suspensions per run |\n|---|---|---|---|---|---|---|---|\n";
        for c in &self.readings {
            let l = &c.level;
            let met = |f: fn(&super::satisfaction::SatSeed) -> usize| {
                l.seeds.iter().map(f).sum::<usize>() as f64 / l.seeds.len().max(1) as f64
            };
            s += &format!(
                "| {} | {:.3} ± {:.3} | {:.3} ± {:.3} | {} | {:.1} / {:.1} | {:.1} |\n",
                c.label,
                l.merkat.0,
                l.merkat.1,
                l.baseline.0,
                l.baseline.1,
                ratio(l),
                met(|x| x.met_merkat),
                met(|x| x.met_baseline),
                c.suspensions
            );
        }
        let sp = &self.spec;
        s += &format!(
            "\n## Sensitivity: what it takes to reach 2.79\n\nPaper readings (suspend `price`, start `price`), {} seeds per cell. Each cell: ratio Σ Merkat / Σ EASY, then (Merkat, EASY) satisfaction / Σ budget. Load: offered CPU work over the arrival span divided by the cores (arrivals compressed). Tightness: deadline / run time.\n\n",
            sp.seeds
        );
        let cols: Vec<String> =
            std::iter::once(format!("U[{}, {}]", main.tightness.0, main.tightness.1))
                .chain(sp.tightness_levels.iter().map(|t| t.to_string()))
                .collect();
        s += "| cores per node | budget rule | load |";
        for c in &cols {
            s += &format!(" tightness {c} |");
        }
        s += "\n|---|---|---|";
        s += &"---|".repeat(cols.len());
        s += "\n";
        for row in self.grid.chunks(cols.len()) {
            s += &format!("| {} |", row[0].label);
            for c in row {
                let l = &c.level;
                s += &format!(" {} ({:.2}, {:.2}) |", ratio(l), l.merkat.0, l.baseline.0);
            }
            s += "\n";
        }
        let reach: Vec<&SensCell> = self
            .grid
            .iter()
            .filter(|c| c.level.ratio.is_some_and(|r| r >= 2.79))
            .collect();
        s += &format!(
            "\nCells at or above the paper's 2.79: {} of {}",
            reach.len(),
            self.grid.len()
        );
        let tight_of = |k: usize| cols[k % cols.len()].clone();
        if !reach.is_empty() {
            s += ": ";
            let idx: Vec<String> = self
                .grid
                .iter()
                .enumerate()
                .filter(|(_, c)| c.level.ratio.is_some_and(|r| r >= 2.79))
                .map(|(k, c)| format!("{} × tightness {}", c.label, tight_of(k)))
                .collect();
            s += &idx.join("; ");
        }
        s += ".\n";
        s
    }
}
