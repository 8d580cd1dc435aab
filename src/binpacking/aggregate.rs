//! The aggregated root (cutting-stock form): identical items become one row with a demand,
//! column generation, reduced-cost enumeration ([`close_by_enumeration`]) and
//! limited-discrepancy dives run on that much smaller master, and only
//! when they leave a gap does the search go on to branch-and-price over unit items (whose
//! Ryan–Foster branching needs one row per item). On Falkenauer U (120–1,000 items, about 80
//! distinct weights) the unit master did not converge in 10 s; the aggregated one does in
//! well under a second (docs/results.md).

use super::instance::Instance;
use crate::colgen::vector::{maximal_columns, waste_budget};
use crate::colgen::vector::{BinKnapsack, PricingSettings};
use crate::colgen::{
    close_by_enumeration, integer_bins, root_dives, run, BpSettings, CgSettings, Column,
    CoveringMaster, Priced, Pricing,
};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::Deadline;
use std::collections::HashMap;

/// Items grouped by identical weights, in order of first appearance.
pub struct Types {
    /// The items of each type.
    pub members: Vec<Vec<usize>>,
}

impl Types {
    /// Groups `inst`'s items.
    pub fn of(inst: &Instance) -> Types {
        let mut index: HashMap<&[u64], usize> = HashMap::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (i, w) in inst.items.iter().enumerate() {
            let t = *index.entry(w.as_slice()).or_insert_with(|| {
                members.push(Vec::new());
                members.len() - 1
            });
            members[t].push(i);
        }
        Types { members }
    }

    /// Values per type as values per item (each item its type's).
    pub fn per_item(&self, per_type: &[f64]) -> Vec<f64> {
        let n = self.members.iter().map(Vec::len).sum();
        let mut out = vec![0.0; n];
        for (m, &v) in self.members.iter().zip(per_type) {
            for &i in m {
                out[i] = v;
            }
        }
        out
    }

    /// Number of types.
    pub fn count(&self) -> usize {
        self.members.len()
    }

    /// A packing over unit items as columns over types (count per type).
    pub fn to_type_columns(&self, bins: &[Vec<usize>]) -> Vec<Column> {
        let mut type_of = HashMap::new();
        for (t, m) in self.members.iter().enumerate() {
            for &i in m {
                type_of.insert(i, t);
            }
        }
        bins.iter()
            .map(|b| {
                let mut count: Vec<(usize, f64)> = Vec::new();
                for i in b {
                    let t = type_of[i];
                    match count.iter_mut().find(|c| c.0 == t) {
                        Some(c) => c.1 += 1.0,
                        None => count.push((t, 1.0)),
                    }
                }
                count.sort_by_key(|c| c.0);
                count
            })
            .collect()
    }

    /// Bins over types (repeated columns) as bins over unit items: each type's items are
    /// handed out in order; a bin asking for more copies than are left takes what is left.
    pub fn to_unit_bins(&self, cols: &[Column]) -> Vec<Vec<usize>> {
        let mut next = vec![0usize; self.count()];
        let mut bins = Vec::new();
        for c in cols {
            let mut bin = Vec::new();
            for &(t, k) in c {
                for _ in 0..k.round() as usize {
                    if let Some(&i) = self.members[t].get(next[t]) {
                        bin.push(i);
                        next[t] += 1;
                    }
                }
            }
            if !bin.is_empty() {
                bins.push(bin);
            }
        }
        bins
    }
}

/// The pricing over types: a [`BinKnapsack`] over copies of each type (as many as the demand
/// and the capacity allow), a bin's copies counted back per type. Exact when the knapsack is.
pub struct TypeKnapsack {
    inner: BinKnapsack,
    /// The type of each copy.
    copy_type: Vec<usize>,
    /// Per type: its weight (one dimension; empty otherwise) and its copies.
    type_weight: Vec<u64>,
    /// Per type: its weights in every dimension.
    type_weights: Vec<Vec<u64>>,
    type_copies: Vec<u64>,
    /// The capacity (one dimension) and the enumeration's cell budget.
    capacity: u64,
    cells: u64,
}

impl TypeKnapsack {
    /// The oracle for `types` of `inst`.
    pub fn new(inst: &Instance, types: &Types, settings: PricingSettings) -> TypeKnapsack {
        let mut weights = Vec::new();
        let mut copy_type = Vec::new();
        for (t, m) in types.members.iter().enumerate() {
            let w = &inst.items[m[0]];
            let fit = w
                .iter()
                .zip(&inst.capacity)
                .filter(|(&x, _)| x > 0)
                .map(|(&x, &c)| (c / x) as usize)
                .min()
                .unwrap_or(m.len());
            for _ in 0..m.len().min(fit) {
                weights.push(w.clone());
                copy_type.push(t);
            }
        }
        let mut type_copies = vec![0u64; types.count()];
        for &t in &copy_type {
            type_copies[t] += 1;
        }
        let type_weight = if inst.dims() == 1 {
            types.members.iter().map(|m| inst.items[m[0]][0]).collect()
        } else {
            Vec::new()
        };
        TypeKnapsack {
            type_weights: types
                .members
                .iter()
                .map(|m| inst.items[m[0]].clone())
                .collect(),
            cells: settings.enumeration_cells,
            inner: BinKnapsack::new(&weights, &inst.capacity, settings),
            copy_type,
            type_weight,
            type_copies,
            capacity: inst.capacity[0],
        }
    }
}

impl Pricing for TypeKnapsack {
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        let values: Vec<f64> = self.copy_type.iter().map(|&t| duals[t]).collect();
        let mut priced = self.inner.price(&values, deadline)?;
        let mut seen = std::collections::HashSet::new();
        priced.columns = priced
            .columns
            .into_iter()
            .map(|(c, v)| {
                let mut count: Vec<(usize, f64)> = Vec::new();
                for (copy, _) in c {
                    let t = self.copy_type[copy];
                    match count.iter_mut().find(|x| x.0 == t) {
                        Some(x) => x.1 += 1.0,
                        None => count.push((t, 1.0)),
                    }
                }
                count.sort_by_key(|x| x.0);
                (count, v)
            })
            .filter(|(c, _)| !c.is_empty() && seen.insert(format!("{c:?}")))
            .collect();
        Ok(priced)
    }

    /// One dimension: each type against the next heavier one (a chain, so every lighter
    /// type is below every heavier one); several: each type against the lightest type that
    /// weighs at least as much in every dimension, if any.
    fn dominance(&self) -> Vec<(usize, usize)> {
        let weights = &self.type_weights;
        let mut order: Vec<usize> = (0..weights.len()).collect();
        order.sort_by(|&x, &y| weights[x].iter().sum::<u64>().cmp(&weights[y].iter().sum()));
        let mut pairs = Vec::new();
        for (k, &light) in order.iter().enumerate() {
            let heavy = order[k + 1..]
                .iter()
                .copied()
                .find(|&h| weights[light].iter().zip(&weights[h]).all(|(l, h)| l <= h));
            if let Some(h) = heavy {
                pairs.push((light, h));
            }
        }
        pairs
    }

    /// Per copy, 1 for the first copies of each type up to its residual demand (rounded up)
    /// and 0 beyond: the inner knapsack then prices the copies beyond at 0 and leaves them out
    /// of its bins ([`crate::colgen::price_uncovered`]), since a bin holding more of a type
    /// than is left would be valued for coverage the residual problem does not need.
    fn dive(&mut self, residual: &[f64]) {
        let mut rank = 0;
        let per_copy: Vec<f64> = (0..self.copy_type.len())
            .map(|k| {
                let t = self.copy_type[k];
                rank = if k > 0 && self.copy_type[k - 1] == t {
                    rank + 1
                } else {
                    0
                };
                f64::from(u8::from((rank as f64) < (residual[t] - 1e-9).ceil()))
            })
            .collect();
        self.inner.dive(&per_copy);
    }

    fn end_dive(&mut self) {
        self.inner.end_dive();
    }

    fn can_enumerate(&self) -> bool {
        !self.type_weight.is_empty()
    }

    /// One dimension: every maximal bin over the types worth `min_value`.
    fn enumerate(
        &mut self,
        duals: &[f64],
        min_value: f64,
        bins: u64,
        limit: usize,
        deadline: &Deadline,
    ) -> Result<Option<Vec<Column>>> {
        if !self.can_enumerate() {
            return Ok(None);
        }
        Ok(maximal_columns(
            &self.type_weight,
            duals,
            &self.type_copies,
            self.capacity,
            min_value,
            waste_budget(&self.type_weight, &self.type_copies, self.capacity, bins),
            limit,
            self.cells,
            deadline,
        ))
    }
}

/// What the aggregated root found.
pub struct Root {
    /// Its LP value (or best Lagrangian bound when it stopped early).
    pub lp: f64,
    /// `⌈LP⌉` when proven (or the enumeration's bound, when higher), else the volume bound.
    pub bound: u64,
    /// The best packing known (unit items), at most `start`'s size.
    pub bins: Vec<Vec<usize>>,
    /// Columns generated.
    pub columns: usize,
    /// Bins the reduced-cost enumeration listed, when it ran to the end.
    pub enumerated: Option<usize>,
    /// How its column generation converged.
    pub convergence: crate::colgen::Convergence,
    /// The duals (per item type) behind `lp` when it beat the volume bound: its pricing
    /// proof.
    pub duals: Option<Vec<f64>>,
}

/// The loop smooths its duals or adds dual-optimal inequalities.
fn stabilised(cg: &CgSettings) -> bool {
    cg.smoothing > 0.0 || cg.smoothing_auto || cg.dual_optimal_inequalities
}

/// The enumeration again at the duals of a plain loop (no smoothing, no dual-optimal
/// inequalities) run afresh from `start` within `plain_retry_share` of the time left: the
/// vertex a stabilised loop ends at can leave far more bins at reduced cost 0 (ANI 201_NR_0:
/// more than 20,000 listed against 254 at the plain loop's duals).
fn plain_closure(
    demands: &[f64],
    start: Vec<Column>,
    oracle: &mut TypeKnapsack,
    root_cg: &CgSettings,
    target: u64,
    settings: &crate::colgen::EnumerationSettings,
    deadline: &Deadline,
) -> Result<Option<crate::colgen::Closure>> {
    let plain = CgSettings {
        smoothing: 0.0,
        smoothing_auto: false,
        dual_optimal_inequalities: false,
        live_columns_per_row: 0.0,
        ..root_cg.clone()
    };
    let mut master = CoveringMaster::new(demands);
    for c in start {
        master.add_column(c)?;
    }
    let capped = deadline.keeping(|left| left * (1.0 - settings.plain_retry_share));
    let closure = close_by_enumeration(&mut master, oracle, &plain, target, settings, &capped)?;
    log::debug!(
        "enumeration at the plain loop's duals: {}",
        match &closure {
            Some(c) => format!("{} columns, bound {}", c.columns, c.bound),
            None => "none".into(),
        }
    );
    Ok(closure)
}

/// Column generation (`root_cg`) and dives (`bp`) over `inst`'s `types`, from the packing
/// `start`.
#[allow(clippy::too_many_arguments)]
pub fn root(
    inst: &Instance,
    types: &Types,
    start: Vec<Vec<usize>>,
    pricing: &PricingSettings,
    bp: &BpSettings,
    root_cg: &CgSettings,
    deadline: &Deadline,
    mut improve: impl FnMut(Vec<Vec<usize>>, u64) -> Vec<Vec<usize>>,
) -> Result<Root> {
    let demands: Vec<f64> = types.members.iter().map(|m| m.len() as f64).collect();
    let mut oracle = TypeKnapsack::new(inst, types, pricing.clone());
    let mut master = CoveringMaster::new(&demands);
    for c in types.to_type_columns(&start) {
        master.add_column(c)?;
    }
    let volume = inst.volume_bound();
    let cg = run(&mut master, &mut oracle, root_cg, volume as f64, deadline)?;
    let mut bound = ceil_with_tolerance(cg.bound).max(volume);
    let mut bins = start;
    let mut enumerated = None;
    let mut retry = false;
    if (bins.len() as u64) > bound {
        // The root's duals decide which columns a better packing could use.
        let closure = close_by_enumeration(
            &mut master,
            &mut oracle,
            root_cg,
            bins.len() as u64 - 1,
            &bp.enumeration,
            deadline,
        )?;
        retry = closure.is_none() && stabilised(root_cg) && bp.enumeration.plain_retry_share > 0.0;
        if let Some(c) = closure {
            enumerated = Some(c.columns);
            bound = bound.max(c.bound);
            if let Some(cols) = c.bins {
                bins = types.to_unit_bins(&cols);
            }
        }
    }
    if (bins.len() as u64) > bound {
        // The caller's primal improvement, aimed at the root's bound, before the dives.
        bins = improve(bins, bound);
    }
    if (bins.len() as u64) > bound && bp.root_dive {
        // The aggregated root's own dive settings (`bp.aggregated_dive`: 100 pricing rounds
        // per fixing by default, like the unit dive and the periodic family's).
        let mut settings = bp.clone();
        settings.dive = bp.aggregated_dive.clone();
        if let Some(cols) = root_dives(
            &mut master,
            &mut oracle,
            &settings,
            bound,
            bins.len() as u64,
            deadline,
        )? {
            let found = types.to_unit_bins(&cols);
            if found.len() < bins.len() {
                bins = found;
            }
        }
    }
    if (bins.len() as u64) > bound && bp.integer_seconds > 0.0 && !deadline.expired() {
        // The restricted integer master over the types' columns, as the periodic family's
        // integer finish.
        if let Some(cols) = integer_bins(
            master.columns(),
            &demands,
            None,
            bp.integer_seconds,
            deadline,
        )? {
            let found = types.to_unit_bins(&cols);
            if found.len() < bins.len() {
                bins = found;
            }
        }
    }
    if retry && (bins.len() as u64) > bound && !deadline.expired() {
        // After the dives, which find the IRUP packings (AI) that the retry would only list.
        let start = types.to_type_columns(&bins);
        let target = bins.len() as u64 - 1;
        if let Some(c) = plain_closure(
            &demands,
            start,
            &mut oracle,
            root_cg,
            target,
            &bp.enumeration,
            deadline,
        )? {
            enumerated = Some(c.columns);
            bound = bound.max(c.bound);
            if let Some(cols) = c.bins {
                bins = types.to_unit_bins(&cols);
            }
        }
    }
    Ok(Root {
        lp: cg.bound,
        bound,
        bins,
        columns: master.len(),
        enumerated,
        convergence: cg.convergence(),
        duals: cg.bound_duals.clone(),
    })
}
