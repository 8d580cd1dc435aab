//! `vcalloc experiment market-paper [--settings FILE]`: §5 in simulation — Fig. 6, Fig. 7,
//! the satisfaction study, and the satisfaction study under every reading with its
//! sensitivity table. The settings file holds the simulation's settings and each figure's
//! parameters, every key optional:
//! `{"sim": {SimSettings}, "fig6": {Fig6Spec}, "fig7": {Fig7Spec}, "satisfaction": {SatSpec},
//! "sensitivity": {SensSpec}}`.

use super::fig6::{fig6, Fig6Spec};
use super::fig7::{fig7, Fig7Spec};
use super::satisfaction::{satisfaction, SatSpec};
use super::satsens::{sensitivity, SensSpec};
use super::sim::SimSettings;
use crate::error::Result;
use crate::problem::{Invalid, StudyArgs, Validate};
use serde::{Deserialize, Serialize};

/// The study's settings (defaults: the paper's readings, models/market.md §6).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PaperSettings {
    /// The simulation's settings (Algorithm 1's reading, suspend and start rules, …).
    pub sim: SimSettings,
    /// Fig. 6's parameters and set-ups.
    pub fig6: Fig6Spec,
    /// Fig. 7's parameters.
    pub fig7: Fig7Spec,
    /// The satisfaction study's parameters.
    pub satisfaction: SatSpec,
    /// The readings table and the sensitivity grid.
    pub sensitivity: SensSpec,
}

impl Validate for PaperSettings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        self.sim
            .validate()
            .map_err(|why| Invalid::from_message(format!("sim.{why}")))?;
        let s = &self.satisfaction;
        if s.apps == 0 || s.seeds == 0 || s.nodes == 0 || s.max_vms_per_node < 8 {
            return Err(Invalid::new(
                "satisfaction",
                format!(
                    "apps {}, seeds {}, nodes {}, max_vms_per_node {}",
                    s.apps, s.seeds, s.nodes, s.max_vms_per_node
                ),
                "need apps, seeds, nodes ≥ 1 and max_vms_per_node ≥ 8 (the largest app)",
            ));
        }
        if !(s.target_load > 0.0 && s.target_load.is_finite()) {
            return Err(Invalid::new(
                "satisfaction.target_load",
                s.target_load,
                "must be positive",
            ));
        }
        if !(s.tightness.0 >= 1.0 && s.tightness.1 >= s.tightness.0) {
            return Err(Invalid::new(
                "satisfaction.tightness",
                format!("{:?}", s.tightness),
                "need 1 ≤ low ≤ high",
            ));
        }
        let sens = &self.sensitivity;
        if sens.enabled && sens.seeds == 0 {
            return Err(Invalid::new("sensitivity.seeds", 0, "must be at least 1"));
        }
        if let Some(l) = sens.loads.iter().find(|l| !(**l > 0.0 && l.is_finite())) {
            return Err(Invalid::new("sensitivity.loads", l, "must be positive"));
        }
        if let Some(c) = sens
            .node_cores
            .iter()
            .find(|c| !(**c > 0.0 && c.is_finite()))
        {
            return Err(Invalid::new(
                "sensitivity.node_cores",
                c,
                "must be positive",
            ));
        }
        for v in &self.fig6.variants {
            if v.max_vms_per_node == 0 || !(v.node.cpu > 0.0 && v.node.cpu.is_finite()) {
                return Err(Invalid::new(
                    "fig6.variants",
                    &v.name,
                    "needs at least one VM slot and a positive node",
                ));
            }
        }
        Ok(())
    }
}

/// Figs. 6–7, the satisfaction study and, unless disabled, its readings and sensitivity.
pub(crate) fn paper_study(args: &StudyArgs) -> Result<String> {
    let p: PaperSettings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    let set = &p.sim;
    let mut md =
        String::from("# Market-based sharing (Merkat, Costache et al. 2013), §5 in simulation\n\n");
    md += &format!(
        "Settings: `{}`\n\n",
        serde_json::to_string(&p.sim).expect("settings serialise")
    );
    let f6 = fig6(&p.fig6, set);
    f6.write_plots(&args.out)?;
    md += &f6.to_markdown();
    let f7 = fig7(&p.fig7, set);
    f7.write_plots(&args.out)?;
    md += &f7.to_markdown();
    let sat = satisfaction(&p.satisfaction, set)?;
    sat.write_plots(&args.out)?;
    md += &sat.to_markdown();
    if p.sensitivity.enabled {
        let sens = sensitivity(&p.satisfaction, &p.sensitivity, set)?;
        md += "\n";
        md += &sens.to_markdown(&p.satisfaction);
    }
    Ok(md)
}
