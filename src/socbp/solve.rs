//! The methods, their settings, the solution and its verification.

use super::improve::{fewer_bins, ImproveSettings, ImproveStats};
use super::instance::Instance;
use super::pricing::{PricingSettings, SocKnapsack};
use crate::colgen::{
    branch_and_price, check_partition, partition, unit_columns, BpEnd, BpSettings,
};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::problem::{Certificate, Proof, Sense};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};

/// An SOC-capacity bin-packing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// First fit decreasing.
    Ffd,
    /// Best fit decreasing.
    Bfd,
    /// Column generation at the root and a dive: the LP bound, no branching.
    Cg,
    /// Branch-and-price: proven optimal, or incumbent, bound and gap on a limit.
    Bp,
}

impl Method {
    /// Every method.
    pub fn all() -> [Method; 4] {
        [Method::Ffd, Method::Bfd, Method::Cg, Method::Bp]
    }
    /// Name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Ffd => "ffd",
            Method::Bfd => "bfd",
            Method::Cg => "cg",
            Method::Bp => "bp",
        }
    }
    /// One line for `--help`.
    pub fn description(&self) -> &'static str {
        match self {
            Method::Ffd => "first fit decreasing (by a + D√b), against the closed-form bound",
            Method::Bfd => "best fit decreasing (by a + D√b), against the closed-form bound",
            Method::Cg => "root column generation and a dive: the configuration-LP bound",
            Method::Bp => {
                "branch-and-price (Ryan–Foster, exact conic knapsack pricing): proven optimal or a gap"
            }
        }
    }
}

crate::method_table!(Method, all);

/// Settings of the methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The pricing.
    pub pricing: PricingSettings,
    /// The search (`cg`: only its root, with `node_limit` 1).
    pub bp: BpSettings,
    /// `cg` and `bp`: the local search that lowers the best-fit packing's bins before the
    /// root (models/packing.md §8, "Primal side").
    pub improve: ImproveSettings,
    /// `experiment socbp-cloud`: seconds per instance (`solve` takes `--time-limit`).
    pub study_seconds: f64,
}

impl Default for Settings {
    fn default() -> Self {
        let mut bp = BpSettings::default();
        // Column generation at a node stops once its bound rounds up to the master's: the
        // pricing then needs to prove only `max π·a ≤ π·1/(⌈master⌉ − 1)`, not convergence
        // (exact convergence proofs of this pricing take millions of nodes).
        bp.cg.closure_gap = 0.1;
        // Stabilised (issue 34, models/packing.md §8): dual-optimal inequalities from the
        // items' componentwise dominance and self-adjusting smoothing. The master's re-solves
        // were 200–800 degenerate simplex pivots each; on the six n = 400 instances of seed 1
        // (60 s, `bp`) 0 of 6 were proven without, 4 with.
        bp.cg.dual_optimal_inequalities = true;
        bp.cg.smoothing_auto = true;
        // Column management (models/packing.md §2, "Column management"): at most 2 columns a
        // row stay in the master's LP. n = 400 d 0.99 seed 1: the root settled in 4.2 s
        // instead of 24.9–30.5 s; roots within 30 s 30 → 32 of 36.
        bp.cg.live_columns_per_row = 2.0;
        // The pairs' dual-optimal inequalities (`π_j + π_k ≤ π_i` when `j` and `k` fit in
        // `i`'s place), separated at each master's duals, and the bins the exchanges stand
        // for kept when they leave (models/packing.md §8, "Pairs and recovery"). The 36
        // n = 400 roots back to back with the defaults before: 549 → 415 s, within 30 s
        // 30 → 32.
        bp.cg.pair_inequalities = true;
        bp.cg.recover_columns = true;
        // Masters of 700 rows (items) and more by the interior point (models/packing.md §8,
        // "The master's LP by size"): at n = 1,000 the roots settled within 120 s went from
        // 6 to 9 of 12; at n = 400 the warm simplex is better (32 roots within 30 s against 28).
        bp.cg.interior_master_from = 700;
        // Two more pricings an iteration of the root on the smoothing's segment, one nearer
        // the center, one farther (models/packing.md §2, "Extra pricing points"; the nodes
        // keep `bp.node_extra_points` 0): at n = 1,000 the roots settled within 120 s 9 → 10
        // of 12 (d 0.99 seed 1 at 33 s), at n = 400 the same 33 proven.
        bp.cg.extra_points = 2;
        Settings {
            pricing: PricingSettings::default(),
            bp,
            improve: ImproveSettings::default(),
            study_seconds: 60.0,
        }
    }
}

/// A packing and its certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Objective: bins used; bound: proven lower bound.
    pub certificate: Certificate,
    /// Items per bin (indices into the instance's items).
    pub bins: Vec<Vec<usize>>,
}

crate::certified!(Solution);

/// First or best fit, items by decreasing `a + D√b` (ties by index); best fit: the bin left
/// with the least room `c − load`.
pub(super) fn fit_decreasing(inst: &Instance, best: bool) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..inst.len()).collect();
    order.sort_by(|&x, &y| inst.size(y).total_cmp(&inst.size(x)).then(x.cmp(&y)));
    // Per bin: Σa, Σb, items.
    let mut bins: Vec<(f64, f64, Vec<usize>)> = Vec::new();
    for i in order {
        let (a, b) = (inst.a[i], inst.b[i]);
        let fits = bins
            .iter()
            .enumerate()
            .filter(|(_, x)| inst.fits(x.0 + a, x.1 + b));
        let pick = if best {
            fits.max_by(|x, y| {
                inst.load(x.1 .0, x.1 .1)
                    .total_cmp(&inst.load(y.1 .0, y.1 .1))
                    .then(y.0.cmp(&x.0))
            })
            .map(|(k, _)| k)
        } else {
            fits.map(|(k, _)| k).next()
        };
        match pick {
            Some(k) => {
                bins[k].0 += a;
                bins[k].1 += b;
                bins[k].2.push(i);
            }
            None => bins.push((a, b, vec![i])),
        }
    }
    bins.into_iter().map(|b| b.2).collect()
}

/// Runs `method` on `inst` within `deadline`.
pub fn solve(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    let began = std::time::Instant::now();
    let volume = inst.volume_bound();
    let mut certificate = Certificate::new(super::NAME, method.name(), Sense::Minimize);
    let bins = match method {
        Method::Ffd | Method::Bfd => {
            let bins = fit_decreasing(inst, method == Method::Bfd);
            certificate.scored(bins.len() as f64, volume as f64, 0.0);
            certificate.proof = Some(Proof::closed_form("volume"));
            bins
        }
        Method::Cg | Method::Bp => {
            let improve = &settings.improve;
            let phase = (improve.share_before_root, 0);
            let (start, before) = fewer_bins(
                inst,
                fit_decreasing(inst, true),
                volume as usize,
                improve,
                phase,
                deadline,
            );
            let mut after = ImproveStats::default();
            let stats = &mut certificate.stats;
            let mut proof = Proof::closed_form("volume");
            let (bins, lower) =
                if start.len() as u64 <= volume {
                    stats.insert("nodes".into(), 0.0);
                    stats.insert("open_nodes".into(), 0.0);
                    stats.insert("search_complete".into(), 1.0);
                    (start, volume)
                } else {
                    let cols = unit_columns(&start);
                    let mut pricing = SocKnapsack::new(inst, settings.pricing.clone())
                        .with_improve(improve.clone(), start.clone(), before.next_attempt);
                    let mut bp = settings.bp.clone();
                    if method == Method::Cg {
                        bp.node_limit = 1;
                    }
                    let out = branch_and_price(inst.len(), &mut pricing, cols, &bp, deadline)?;
                    after = pricing.improved();
                    stats.insert("nodes".into(), out.nodes as f64);
                    stats.insert("open_nodes".into(), out.open as f64);
                    stats.insert(
                        "search_complete".into(),
                        f64::from(u8::from(out.end == BpEnd::Optimal)),
                    );
                    stats.insert("root_lp".into(), out.root_lp);
                    stats.insert("columns".into(), out.columns as f64);
                    if let Some(c) = &out.root {
                        c.record(stats);
                    }
                    if out.bound > volume {
                        proof = match &out.root_duals {
                            Some(d) if out.bound == ceil_with_tolerance(out.root_lp) => {
                                super::proof::pricing(d, out.root_lp)
                            }
                            _ => Proof::search(out.nodes, "branch-and-price over the items"),
                        };
                    }
                    (partition(inst.len(), &out.incumbent), volume.max(out.bound))
                };
            ImproveStats::record(&[before, after], stats);
            let bound = (lower as f64).min(bins.len() as f64);
            certificate.scored(bins.len() as f64, bound, 0.0);
            certificate.proof = Some(proof);
            bins
        }
    };
    certificate.seconds = began.elapsed().as_secs_f64();
    Ok(Solution { certificate, bins })
}

/// Every item in exactly one bin, every bin within `Σa + D√Σb ≤ c` (with the instance's
/// relative tolerance), the objective the bin count, the bound at most the objective (the
/// heuristics' bound, the closed form, re-derived).
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    check_partition(
        inst.len(),
        &sol.bins,
        &sol.certificate,
        inst.volume_bound(),
        |bin| {
            let (a, b) = inst.sums(bin);
            (!inst.fits(a, b)).then(|| {
                format!(
                    "Σa + D√Σb = {} > capacity {}",
                    inst.load(a, b),
                    inst.capacity
                )
            })
        },
    )
}
