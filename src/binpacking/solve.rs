//! The methods, their settings, the solution and its verification.

use super::aggregate::{self, Types};
use super::cut_pricing::CutKnapsack;
use super::instance::Instance;
use super::local::{self, LocalSettings};
use super::repair;
use super::tight::{self, Tight, TightSettings};
use crate::colgen::vector::{fit_decreasing, min_bin_slack, BinKnapsack, PricingSettings};
use crate::colgen::{
    branch_and_price, check_partition, partition, subset_row_root, unit_columns, BpEnd, BpSettings,
    CgSettings, CutSettings,
};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::problem::{Certificate, Proof, Sense};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Serialize};

/// A bin-packing method.
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
            Method::Ffd => "first fit decreasing, against ⌈Σw/C⌉",
            Method::Bfd => "best fit decreasing, against ⌈Σw/C⌉",
            Method::Cg => {
                "root column generation and a dive: the Gilmore–Gomory bound, no branching"
            }
            Method::Bp => {
                "branch-and-price (Ryan–Foster, exact knapsack pricing): proven optimal or a gap"
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
    /// `experiment binpacking-bpplib`: seconds per instance (`solve` takes `--time-limit`).
    pub study_seconds: f64,
    /// One dimension: the local search that lowers the bin count before and after the root.
    pub local: LocalSettings,
    /// One dimension: bin completion into as many bins as the bound when the waste that
    /// leaves is small (`tight.rs`; the perfect packings of AI).
    pub tight: TightSettings,
    /// With identical items, column generation and dives over item types first (the
    /// cutting-stock master); the unit-item tree only when they leave a gap.
    pub aggregate: bool,
    /// One dimension: subset-row cut rounds at the root when a gap is left, before the tree
    /// (they prove the optimum when the LP bound is one below it).
    pub cuts: CutSettings,
    /// The aggregated root's column generation (its dives use `bp.cg`).
    pub root_cg: CgSettings,
    /// Columns per pricing call at the aggregated root.
    pub root_columns: usize,
    /// The aggregated root's [`PricingSettings::deviations`] (the unit tree's are
    /// `pricing.deviations`, 0): its loop's tail adds full bins a call instead of one. In the
    /// tree they changed Hard28 BPP175's branching (15 nodes, open at 10 s, against 5 nodes
    /// and 6.9 s); models/packing.md §3.
    pub root_deviations: usize,
    /// Two dimensions or more: the start is also minimum bin slack (MBS′) with this many
    /// knapsack nodes a bin, kept when it uses fewer bins than best fit decreasing (0: off);
    /// within 5% of the time left and at most 2 s, or not at all.
    pub start_mbs_nodes: u64,
}

/// The aggregated root's column generation: self-adjusting Wentges smoothing, the
/// dual-optimal inequalities of the item types' weights, 30 columns per round. Measured on
/// AI/ANI 402 (an earlier session; docs/results.md's history in git): the root converged in
/// 4.3–6.1 s against more than 19 s without them. At most 2 columns a row in the master's LP
/// (column management, models/packing.md §2): the AI/ANI 600 roots settle in 6.4–9.9 s
/// instead of 10.2–17.0 s; with `root_deviations` (several full bins a pricing call) within
/// 6.8 s (models/packing.md §3).
pub fn root_cg() -> CgSettings {
    CgSettings {
        smoothing_auto: true,
        dual_optimal_inequalities: true,
        max_columns_per_iteration: 30,
        live_columns_per_row: 2.0,
        ..CgSettings::default()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pricing: PricingSettings::default(),
            // Strong branching on 2 pairs above depth 20: Hard28's non-IRUP BPP175 closes in
            // 15 nodes (15.6 s), where 10 pairs each node spent 20 child column generations
            // and were open at 60 s; the 2-D set is the same either way. Every node's master
            // starts from the whole compatible pool (`pool_per_row` 0): BPP175 in 5 nodes and
            // 5.6 s instead of 15 and 12.6 s, the 1-D sets 1,615 / 1,615 at 10 s, the 2-D
            // set 373 against 372 (models/packing.md §4).
            bp: BpSettings {
                strong_candidates: 2,
                strong_depth: 20,
                pool_per_row: 0.0,
                // One master LP for the whole tree, each node warm from the last basis: ANI
                // 201 NR_4 proven in 35 s instead of 530 s (models/packing.md §4, "Warm nodes").
                warm_nodes: true,
                ..BpSettings::default()
            },
            study_seconds: 10.0,
            start_mbs_nodes: 2_000,
            local: LocalSettings::default(),
            tight: TightSettings::default(),
            aggregate: true,
            cuts: CutSettings::default(),
            root_cg: root_cg(),
            root_columns: 30,
            root_deviations: 16,
        }
    }
}

/// A packing and its certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Objective: bins used; bound: proven lower bound.
    pub certificate: Certificate,
    /// Items per bin (indices into the instance's items; `.vbp` types expanded in order).
    pub bins: Vec<Vec<usize>>,
}

crate::certified!(Solution);

/// Runs `method` on `inst` within `deadline`.
pub fn solve(
    inst: &Instance,
    method: Method,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Solution> {
    let began = std::time::Instant::now();
    let volume = inst.volume_bound() as f64;
    let mut certificate = Certificate::new(super::NAME, method.name(), Sense::Minimize);
    let bins = match method {
        Method::Ffd | Method::Bfd => {
            let bins = fit_decreasing(&inst.items, &inst.capacity, method == Method::Bfd);
            certificate.scored(bins.len() as f64, volume, 0.0);
            certificate.proof = Some(Proof::closed_form("volume"));
            bins
        }
        Method::Cg | Method::Bp => {
            let mut start = fit_decreasing(&inst.items, &inst.capacity, true);
            if inst.capacity.len() > 1 && settings.start_mbs_nodes > 0 {
                // 5% of the time left, at most 2 s (3,000 items of two dimensions take about
                // 14 s in all; the CL_x_200 files 0.04 s): unfinished, best fit stays.
                let budget = deadline.keeping(|left| 0.95 * left).capped(2.0);
                let mbs = min_bin_slack(
                    &inst.items,
                    &inst.capacity,
                    settings.start_mbs_nodes,
                    &budget,
                );
                if let Some(mbs) = mbs.filter(|m| m.len() < start.len()) {
                    log::debug!("MBS′: {} bins, best fit {}", mbs.len(), start.len());
                    start = mbs;
                }
            }
            let (mut lower, mut root_lp, mut columns) = (inst.volume_bound(), f64::NAN, 0);
            let mut enumerated: Option<usize> = None;
            let mut convergence = None;
            // The proof of `lower`: each source replaces it only when it raises the bound,
            // so of equal bounds the cheapest to check stays.
            let mut proof = Proof::closed_form("volume");
            let raise = |lower: &mut u64, proof: &mut Proof, b: u64, p: &dyn Fn() -> Proof| {
                if b > *lower {
                    *lower = b;
                    *proof = p();
                }
            };
            // One dimension: the Martello–Toth bound, and the local search towards it.
            let weights = inst.weights();
            let cap = inst.capacity[0];
            let local = |start: Vec<Vec<usize>>, lower: u64, share: f64| match &weights {
                Some(w) => local::improve(w, cap, start, lower, share, &settings.local, deadline),
                None => start,
            };
            // The bin counts already tried, with their node limits: the search is
            // deterministic, so a second try at the same count within no more nodes (before
            // and after the root) would repeat the first.
            let tried: std::cell::RefCell<Vec<(u64, u64)>> = Default::default();
            // Every bin of a `k`-bin packing must be full: `Σw = k·C`.
            let total: Option<u128> = weights.as_ref().map(|w| w.iter().map(|&x| x as u128).sum());
            let full_at = |k: u64| total == Some(k as u128 * cap as u128);
            // The search's nodes at `k` bins after the root (or with no root).
            let nodes_at = |k: u64| {
                if full_at(k) {
                    settings.tight.perfect_node_limit
                } else {
                    settings.tight.node_limit
                }
            };
            // Bin completion into `lower` bins when little waste is allowed (`tight.rs`):
            // after the root's enumeration, before its dives (or before the tree); when
            // every bin must be full, before the root too, and after it with more nodes.
            let tight = |start: Vec<Vec<usize>>, lower: u64, nodes: u64| match &weights {
                Some(w)
                    if start.len() as u64 > lower
                        && !tried
                            .borrow()
                            .iter()
                            .any(|&(k, n)| k == lower && n >= nodes) =>
                {
                    tried.borrow_mut().push((lower, nodes));
                    let ts = TightSettings {
                        node_limit: nodes,
                        ..settings.tight.clone()
                    };
                    let secs = deadline
                        .remaining_secs()
                        .map_or(settings.local.unlimited_seconds, |l| {
                            l * settings.tight.share
                        });
                    match tight::pack_partial(w, cap, lower, &ts, &deadline.capped(secs)) {
                        (Tight::Found(bins), _) => bins,
                        (Tight::Unknown, partial) if full_at(lower) && ts.repair_share > 0.0 => {
                            let secs = deadline
                                .remaining_secs()
                                .map_or(settings.local.unlimited_seconds, |l| l * ts.repair_share);
                            let by = deadline.capped(secs);
                            repair::repair(w, cap, lower as usize, partial, &ts, &by)
                                .unwrap_or(start)
                        }
                        _ => start,
                    }
                }
                _ => start,
            };
            if let Some(w) = &weights {
                let l2 = local::l2_bound(w, cap);
                raise(&mut lower, &mut proof, l2, &|| Proof::closed_form("l2"));
                start = local::better_start(w, cap, start, lower, &settings.local, deadline);
            }
            let phase = |name: &str, bins: usize, lower: u64| {
                log::info!(
                    "{name}: {bins} bins, bound {lower}, {:.2} s",
                    began.elapsed().as_secs_f64()
                );
            };
            phase("start", start.len(), lower);
            let types = Types::of(inst);
            let aggregated = settings.aggregate && types.count() < inst.len();
            // Without aggregation no root comes between the two phases: one, the longer.
            let share = if aggregated {
                settings.local.share_before_root
            } else {
                settings.local.share_after_root
            };
            // Before the root too when every bin must be full (`Σw = lower·C`, the perfect
            // packings of AI): a packing found needs no root, which takes 4–7 s at 600
            // items. Within `node_limit` nodes: the root is cheap on smaller instances
            // (Falkenauer T) and its dives find many packings; after it the search gets
            // `perfect_node_limit`. Other budgets wait for the root: before it, the search
            // cost Hard28's BPP645 its proof at 10 s (models/packing.md §5).
            let before = start.len();
            if !aggregated {
                start = tight(start, lower, nodes_at(lower));
            } else if full_at(lower) {
                start = tight(start, lower, settings.tight.node_limit);
            }
            let settled = start.len() < before && start.len() as u64 <= lower;
            if settled {
                phase("tight packing", start.len(), lower);
            }
            start = local(start, lower, share);
            phase("local search", start.len(), lower);
            if aggregated && !settled {
                let mut root_bp = settings.bp.clone();
                root_bp.cg = settings.root_cg.clone();
                let root_pricing = PricingSettings {
                    max_columns: settings.root_columns,
                    deviations: settings.root_deviations,
                    ..settings.pricing.clone()
                };
                let root = aggregate::root(
                    inst,
                    &types,
                    start,
                    &root_pricing,
                    &settings.bp,
                    &root_bp.cg,
                    deadline,
                    |bins, bound| {
                        let k = bound.max(lower);
                        let bins = tight(bins, k, nodes_at(k));
                        local(bins, bound.max(lower), settings.local.share_after_root)
                    },
                )?;
                let by_pricing = root.bound == ceil_with_tolerance(root.lp);
                let root_proof = || match (&root.duals, by_pricing) {
                    (Some(d), true) => super::proof::pricing(&types.per_item(d), root.lp),
                    _ => Proof::search(
                        root.enumerated.unwrap_or(0) as u64,
                        "the root's reduced-cost enumeration of the item types' bins",
                    ),
                };
                raise(&mut lower, &mut proof, root.bound, &root_proof);
                (root_lp, columns) = (root.lp, root.columns);
                enumerated = root.enumerated;
                convergence = Some(root.convergence);
                phase("aggregated root", root.bins.len(), lower);
                start = local(root.bins, lower, settings.local.share_after_root);
                phase("local search", start.len(), lower);
            }
            if method == Method::Bp && (start.len() as u64) > lower {
                if let Some(w) = &weights {
                    let cut = root_cuts(w, cap, &start, lower, root_lp, settings, deadline)?;
                    if let Some(out) = cut {
                        let b = ceil_with_tolerance(out.bound);
                        // The duals of the round that found the bound, re-derived by verify's
                        // own cut pricing; a label only if no round's duals give it.
                        raise(&mut lower, &mut proof, b, &|| match &out.proof {
                            Some(p) if ceil_with_tolerance(p.bound) == b => {
                                super::proof::cut_pricing(p)
                            }
                            _ => Proof::solver("subset-row-cut-lp"),
                        });
                        let stats = &mut certificate.stats;
                        stats.insert("cut_rounds".into(), out.rounds as f64);
                        stats.insert("cuts".into(), out.cuts as f64);
                        stats.insert("cut_bound".into(), out.bound);
                        phase("cut rounds", start.len(), lower);
                    }
                }
            }
            let stats = &mut certificate.stats;
            let bins = if (start.len() as u64) <= lower || (aggregated && method == Method::Cg) {
                stats.insert("nodes".into(), 0.0);
                stats.insert("open_nodes".into(), 0.0);
                stats.insert(
                    "search_complete".into(),
                    f64::from(u8::from(start.len() as u64 <= lower)),
                );
                start
            } else {
                let cols = unit_columns(&start);
                let mut pricing =
                    BinKnapsack::new(&inst.items, &inst.capacity, settings.pricing.clone());
                let mut bp = settings.bp.clone();
                if method == Method::Cg {
                    bp.node_limit = 1;
                }
                let out = branch_and_price(inst.len(), &mut pricing, cols, &bp, deadline)?;
                let tree_proof = || match &out.root_duals {
                    Some(d) if out.bound == ceil_with_tolerance(out.root_lp) => {
                        super::proof::pricing(d, out.root_lp)
                    }
                    _ => Proof::search(out.nodes, "branch-and-price over unit items"),
                };
                raise(&mut lower, &mut proof, out.bound, &tree_proof);
                if !aggregated {
                    root_lp = out.root_lp;
                    convergence = out.root;
                }
                columns += out.columns;
                enumerated = enumerated.or(out.enumerated);
                stats.insert("nodes".into(), out.nodes as f64);
                stats.insert("open_nodes".into(), out.open as f64);
                stats.insert(
                    "search_complete".into(),
                    f64::from(u8::from(out.end == BpEnd::Optimal)),
                );
                partition(inst.len(), &out.incumbent)
            };
            // JSON has no NaN: no root LP when none was solved.
            if root_lp.is_finite() {
                stats.insert("root_lp".into(), root_lp);
            }
            stats.insert("columns".into(), columns as f64);
            if let Some(k) = enumerated {
                stats.insert("enumerated".into(), k as f64);
            }
            stats.insert("aggregated".into(), f64::from(u8::from(aggregated)));
            if let Some(c) = &convergence {
                c.record(stats);
            }
            let bound = (lower as f64).min(bins.len() as f64);
            certificate.scored(bins.len() as f64, bound, 0.0);
            certificate.proof = Some(proof);
            bins
        }
    };
    certificate.seconds = began.elapsed().as_secs_f64();
    Ok(Solution { certificate, bins })
}

/// Subset-row cut rounds at the root over unit items ([`subset_row_root`]) from the packing
/// `start`, aiming at `start.len()` bins; `None` when they are off or the instance is too
/// large for them (rows, or the pricing's table of items × capacity).
fn root_cuts(
    weights: &[u64],
    cap: u64,
    start: &[Vec<usize>],
    lower: u64,
    root_lp: f64,
    settings: &Settings,
    deadline: &Deadline,
) -> Result<Option<crate::colgen::CutOutcome>> {
    let cs = &settings.cuts;
    let n = weights.len();
    if !cs.enabled
        || n > cs.max_rows
        || (n as u64).saturating_mul(cap + 1) > settings.pricing.dp_cells
        || deadline.expired()
    {
        return Ok(None);
    }
    let budget = deadline.keeping(|left| left * (1.0 - cs.share));
    let pool = unit_columns(start);
    let mut pricing = CutKnapsack::new(weights, cap, settings.pricing.clone());
    let known = if root_lp.is_finite() {
        root_lp.max(lower as f64 - 1.0)
    } else {
        lower as f64 - 1.0
    };
    let out = subset_row_root(
        n,
        &mut pricing,
        pool,
        cs,
        start.len() as u64,
        known.max(0.0),
        &budget,
    )?;
    Ok(Some(out))
}

/// Every item in exactly one bin, no bin over capacity in any dimension, the objective the bin
/// count, the bound at most the objective (a proven bound is not re-proven here; the
/// heuristics' bound, the volume bound, is).
pub fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
    check_partition(
        inst.len(),
        &sol.bins,
        &sol.certificate,
        inst.volume_bound(),
        |bin| {
            let mut load: Vec<u128> = vec![0; inst.dims()];
            for &i in bin {
                for (l, &x) in load.iter_mut().zip(&inst.items[i]) {
                    *l += u128::from(x);
                }
            }
            let d = (0..inst.dims()).find(|&d| load[d] > u128::from(inst.capacity[d]))?;
            Some(format!(
                "holds {} > capacity {} in dimension {}",
                load[d],
                inst.capacity[d],
                d + 1
            ))
        },
    )
}
