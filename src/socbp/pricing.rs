//! The pricing of SOC-capacity bin packing under Ryan–Foster decisions: the most valuable bin
//! `max Σ π_g` over together-groups `g` (their `a` and `b` summed) with no apart pair inside and
//! `Σa + D√Σb ≤ c` — a 0-1 knapsack with a concave capacity curve, solved exactly by
//! depth-first branch-and-bound.
//!
//! Each call: the grid bound and its sets (`grid.rs`), a quick search from them, and the exact
//! search (`search.rs`) when the grid bound does not already prove what the caller asks
//! (`models/packing.md` §8).

use super::chord_tables::ChordTables;
use super::exchanges::{dominance_pairs, violated_pairs};
use super::grid::{Above, Rows};
use super::improve::{AfterRoot, ImproveSettings, ImproveStats};
use super::instance::Instance;
use super::lagrange::Lagrange;
use super::search::{pieces, ratio, Cand, Search};
use crate::colgen::{
    bins_as_columns, covered_items, price_uncovered, quick_then_exact, BranchPricing, Column,
    Decisions, Priced, Pricing, Searched,
};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// Pricing settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingSettings {
    /// Search nodes of one call at most (then the answer proves nothing).
    pub node_limit: u64,
    /// Nodes of the quick search tried first: when it finds an improving bin the exact
    /// search is skipped (that iteration then proves no bound).
    pub quick_nodes: u64,
    /// Improving columns returned per call at most (the best found).
    pub max_columns: usize,
    /// A column must be worth more than `1 + improvement_tol`.
    pub improvement_tol: f64,
    /// Pieces of the bound's chord relaxation (besides `[0, b_min]`).
    pub slopes: usize,
    /// Cells of the Lagrangian bound's tables (`lagrange.rs`; 0: no such bound), used by the
    /// exact search.
    pub lagrange_cells: usize,
    /// Points of the geometric grid of multipliers it chooses from.
    pub lagrange_multipliers: usize,
    /// Cells of the Lagrangian tables at most, all multipliers together (`lagrange_cells` is
    /// lowered for many candidates: at the default, from about 1,150 candidates on).
    pub lagrange_table_cells: usize,
    /// Cells of the chord rows' integer tables (`chord_tables.rs`), all rows together (0: no
    /// such bound), used by the exact search: each row's knapsack over the candidates left,
    /// read at a node in one step.
    pub chord_table_cells: usize,
    /// Cells of one chord row's table at most.
    pub chord_table_width: usize,
    /// Once the exact search holds an improving bin, it stops this many nodes later (the
    /// call then proves nothing, and column generation goes on with the bins found).
    pub after_improving: u64,
    /// Run the exact search also when the quick search's improving bins are worth at most
    /// the aim ([`Pricing::aim`]), and let it run on past them: a complete search then proves
    /// `max π·a ≤ aim`, the bound that closes the caller's gap (`after_improving` counts from
    /// a bin above the aim). `false`: only when no improving bin is held.
    pub prove_aim: bool,
    /// Cells of each row of the grid bound (`grid.rs`; 0: no such bound): computed when the
    /// quick search finds no improving bin, it proves `max π·a ≤ aim` without the exact
    /// search when it can, and bounds every such round.
    pub grid_cells: usize,
    /// The grid bound's chords' largest gap below `D√Σb`, relative to the capacity (its
    /// pieces of `Σb` are as long as that allows).
    pub grid_chord_gap: f64,
    /// The grid bound's finest rows: the row that holds the bound is solved again with four
    /// times its cells while it has fewer than this (`grid.rs`: the rounding of the weights,
    /// one cell per item of a bin, is most of the bound's error).
    pub grid_fine_cells: usize,
    /// Then the piece that holds the bound is cut in two, up to this many times per call
    /// (`grid.rs`: each half's chord is four times closer to `√Σb`).
    pub grid_splits: usize,
    /// Split points kept from call to call (newest first): the rows of later calls start cut
    /// there, so the splits accumulate where the bound lands (0: every call starts afresh).
    pub grid_kept_cuts: usize,
    /// Refine the grid's rows only when a quick search from the rows' first sets finds no bin
    /// worth half the way from 1 to their bound and that bound does not prove the aim (then
    /// the quick search runs again from the refined rows' sets); `false`: refine at every
    /// call.
    pub grid_refine_lazily: bool,
    /// The grid bound's best rows whose optimal sets, repaired into bins, are offered as
    /// columns (the first incumbents of the searches).
    pub grid_columns: usize,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            node_limit: 20_000_000,
            quick_nodes: 20_000,
            max_columns: 10,
            improvement_tol: 1e-9,
            slopes: 12,
            lagrange_cells: 4_000,
            lagrange_multipliers: 12,
            lagrange_table_cells: 60_000_000,
            chord_table_cells: 12_000_000,
            chord_table_width: 8_000,
            after_improving: 50_000,
            prove_aim: false,
            grid_cells: 2_000,
            grid_chord_gap: 0.001,
            grid_fine_cells: 32_000,
            grid_splits: 16,
            grid_kept_cuts: 32,
            grid_refine_lazily: true,
            grid_columns: 8,
        }
    }
}

/// The oracle: the instance and the current decisions.
pub struct SocKnapsack {
    inst: Instance,
    settings: PricingSettings,
    decisions: Decisions,
    /// In a dive: the quick search only.
    diving: bool,
    /// In a dive: the items the fixed bins cover ([`price_uncovered`]).
    covered: Option<Vec<bool>>,
    /// The value whose proof already closes the caller's bound ([`Pricing::aim`]): the
    /// search prunes at it.
    aim: f64,
    /// The least root relaxation bound of the searches of the current call (their chord
    /// bound, and the Lagrangian one when computed): an upper bound on the pricing optimum
    /// even when no search completes.
    root_bound: std::cell::Cell<f64>,
    /// The grid's split points of the last calls (at most `grid_kept_cuts`, newest last):
    /// the next calls' rows start from them.
    cuts: std::cell::RefCell<Vec<f64>>,
    /// The local search after the root ([`BranchPricing::improve_packing`]) and what it did.
    improve: AfterRoot,
}

impl SocKnapsack {
    /// The oracle with no decisions.
    pub fn new(inst: &Instance, settings: PricingSettings) -> SocKnapsack {
        SocKnapsack {
            decisions: Decisions::new(inst.len(), &[], &[]),
            inst: inst.clone(),
            settings,
            diving: false,
            covered: None,
            aim: 0.0,
            root_bound: std::cell::Cell::new(f64::INFINITY),
            cuts: std::cell::RefCell::new(Vec::new()),
            improve: AfterRoot::default(),
        }
    }

    /// With the local search after the root (`moves = 0`: none, as without this call) from
    /// `start`, the packing the root starts from, its attempts from `first_attempt` on (those
    /// before the root: [`ImproveStats::next_attempt`]).
    pub fn with_improve(
        mut self,
        settings: ImproveSettings,
        start: Vec<Vec<usize>>,
        first_attempt: u32,
    ) -> SocKnapsack {
        self.improve.settings = Some(settings);
        self.improve.start = start;
        self.improve.first_attempt = first_attempt;
        self
    }

    /// What the local search after the root did (zeros when it did not run).
    pub fn improved(&self) -> ImproveStats {
        self.improve.stats
    }

    /// The value above which a bin makes the call's proof impossible: `1 + tol`, or the aim
    /// when that is larger and `prove_aim` is on.
    fn enough(&self) -> f64 {
        let floor = 1.0 + self.settings.improvement_tol;
        if self.settings.prove_aim {
            floor.max(self.aim)
        } else {
            floor
        }
    }

    /// The grid's terms `(Σa, Σb, value)` per group under the decisions (apart pairs
    /// ignored: a relaxation).
    fn grid_terms(&self, values: &[f64]) -> Vec<(f64, f64, f64)> {
        let inst = &self.inst;
        let dec = &self.decisions;
        dec.groups
            .iter()
            .enumerate()
            .map(|(g, m)| {
                let (a, b) = inst.sums(m);
                let v = if dec.forbidden[g] {
                    0.0
                } else {
                    m.iter().map(|&i| values[i].max(0.0)).sum()
                };
                (a, b, v)
            })
            .collect()
    }

    /// Keeps the newest `grid_kept_cuts` split points, `made` last.
    fn keep_cuts(&self, made: &[f64]) {
        let mut cuts = self.cuts.borrow_mut();
        cuts.extend_from_slice(made);
        let keep = self.settings.grid_kept_cuts;
        if cuts.len() > keep {
            let extra = cuts.len() - keep;
            cuts.drain(..extra);
        }
    }

    /// The grid's rows (`grid.rs`) at `values`, or `None` at the deadline.
    fn grid_rows(&self, terms: &[(f64, f64, f64)], deadline: &Deadline) -> Option<Rows> {
        let grid = super::grid::Grid {
            cells: self.settings.grid_cells,
            chord_gap: self.settings.grid_chord_gap,
            fine_cells: self.settings.grid_fine_cells,
            splits: self.settings.grid_splits,
        };
        Rows::new(
            self.inst.capacity,
            self.inst.d,
            terms,
            grid,
            &self.cuts.borrow(),
            deadline,
        )
    }

    /// The most valuable bins at `values` (per item), best first, whether the search completed
    /// (then the first is the exact optimum), and the nodes spent.
    pub fn search(&self, values: &[f64]) -> Searched {
        self.search_within(
            values,
            self.settings.node_limit,
            true,
            &[],
            None,
            &Deadline::none(),
        )
    }

    /// The search with at most `limit` nodes, with the Lagrangian bound and the chord rows'
    /// tables when `exact`; the sets of groups `suggested`, repaired into bins, are among its
    /// first incumbents. The tables are built on the grid's pieces `above` the aim when
    /// given (with the most a bin in the others is worth), else on every piece of
    /// `grid_chord_gap`.
    fn search_within(
        &self,
        values: &[f64],
        limit: u64,
        exact: bool,
        suggested: &[Vec<usize>],
        above: Option<&Above>,
        deadline: &Deadline,
    ) -> Searched {
        let inst = &self.inst;
        let dec = &self.decisions;
        let mut cand: Vec<Cand> = dec
            .groups
            .iter()
            .enumerate()
            .filter(|(g, _)| !dec.forbidden[*g])
            .map(|(group, m)| {
                let (a, b) = inst.sums(m);
                let v = m.iter().map(|&i| values[i].max(0.0)).sum();
                Cand { group, a, b, v }
            })
            .filter(|c| c.v > 0.0 && inst.fits(c.a, c.b))
            .collect();
        cand.sort_by(|x, y| {
            (y.v / inst.load(y.a, y.b).max(1e-300))
                .total_cmp(&(x.v / inst.load(x.a, x.b).max(1e-300)))
                .then(x.a.total_cmp(&y.a))
                .then(x.b.total_cmp(&y.b))
                .then(x.group.cmp(&y.group))
        });
        let n = cand.len();
        let index: std::collections::HashMap<usize, usize> =
            cand.iter().enumerate().map(|(k, c)| (c.group, k)).collect();
        let conflicts: Vec<Vec<usize>> = cand
            .iter()
            .map(|c| {
                dec.conflicts[c.group]
                    .iter()
                    .filter_map(|g| index.get(g).copied())
                    .collect()
            })
            .collect();
        let twin: Vec<bool> = (0..n)
            .map(|k| {
                k > 0
                    && cand[k].a == cand[k - 1].a
                    && cand[k].b == cand[k - 1].b
                    && cand[k].v == cand[k - 1].v
                    && conflicts[k].is_empty()
                    && conflicts[k - 1].is_empty()
            })
            .collect();
        let grid = pieces(inst, &cand, self.settings.slopes);
        let orders: Vec<Vec<usize>> = grid
            .iter()
            .map(|p| {
                let w = |c: &Cand| c.a + inst.d * p.slope * c.b;
                let mut o: Vec<usize> = (0..n).collect();
                o.sort_by(|&x, &y| {
                    ratio(cand[y].v, w(&cand[y]))
                        .total_cmp(&ratio(cand[x].v, w(&cand[x])))
                        .then(x.cmp(&y))
                });
                o
            })
            .collect();
        let terms: Vec<(f64, f64, f64)> = if exact {
            cand.iter().map(|c| (c.a, c.b, c.v)).collect()
        } else {
            Vec::new()
        };
        let lag_cells = lagrange_cells(&self.settings, n);
        let lag = (exact && lag_cells > 0).then(|| {
            Lagrange::new(
                inst.capacity,
                inst.d,
                &terms,
                lag_cells,
                self.settings.lagrange_multipliers,
            )
        });
        let tables = (exact && self.settings.chord_table_cells > 0)
            .then(|| {
                let every;
                let (pieces, left_out) = match above {
                    Some(a) => (&a.pieces[..], a.left_out),
                    None => {
                        let all: Vec<usize> = (0..n).collect();
                        let cap = inst.capacity * (1.0 + super::instance::TOL);
                        let gap = self.settings.grid_chord_gap;
                        every = super::chords::pieces(cap, inst.d, &terms, &all, gap);
                        (&every[..], 0.0)
                    }
                };
                ChordTables::new(
                    inst,
                    &cand,
                    pieces,
                    left_out,
                    self.settings.chord_table_cells,
                    self.settings.chord_table_width,
                )
            })
            .flatten();
        if let Some(l) = &lag {
            log::debug!(
                "socbp pricing: aim {:.6}, lagrangian root bound {:.6} with λ {:?}",
                self.aim,
                l.bound(0, 0.0, 0.0, f64::INFINITY),
                l.lambdas
            );
        }
        let mut s = Search {
            lag: lag.as_ref(),
            tables: tables.as_ref(),
            inst,
            cand: &cand,
            conflicts: &conflicts,
            twin: &twin,
            grid: &grid,
            orders: &orders,
            blocked: vec![0; n],
            open_at: vec![false; n],
            taken: Vec::new(),
            best: Vec::new(),
            keep: self.settings.max_columns.max(1),
            floor: 1.0 + self.settings.improvement_tol,
            aim: self.aim,
            enough: self.enough(),
            after_improving: self.settings.after_improving,
            improving_at: None,
            nodes: 0,
            limit,
            deadline,
        };
        // What no bin can exceed, proven or not: the root's relaxations.
        let mut root = s.bound(0, 0.0, 0.0, 0.0, f64::INFINITY);
        if let Some(l) = &lag {
            root = root.min(l.bound(0, 0.0, 0.0, f64::INFINITY));
        }
        self.root_bound.set(self.root_bound.get().min(root));
        // Greedy in the candidates' order, the suggested bins, then the Lagrangian tables'
        // bins: first incumbents.
        s.repair(&[]);
        for set in suggested {
            let ks: Vec<usize> = set.iter().filter_map(|g| index.get(g).copied()).collect();
            s.repair(&ks);
        }
        if let Some(l) = &lag {
            for items in l.suggestions() {
                s.repair(&items);
            }
        }
        let complete = s.dfs(0, 0.0, 0.0, 0.0);
        let nodes = s.nodes;
        let mut out: Vec<(f64, Vec<usize>)> = s
            .best
            .into_iter()
            .map(|(v, ks)| {
                let mut items: Vec<usize> = ks
                    .iter()
                    .flat_map(|&k| dec.groups[cand[k].group].iter().copied())
                    .collect();
                items.sort_unstable();
                (v, items)
            })
            .collect();
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        (out, complete, nodes)
    }
}

impl Pricing for SocKnapsack {
    /// The grid bound and its bins first, then a quick search (`quick_nodes`) that starts
    /// from them; when neither holds an improving bin, the exact search, unless the grid
    /// bound already proves `max π·a ≤ aim` (while diving: the quick search alone).
    fn price(&mut self, duals: &[f64], deadline: &Deadline) -> Result<Priced> {
        if let Some(covered) = self.covered.take() {
            let priced = price_uncovered(&covered, duals, |v| self.price(v, deadline));
            self.covered = Some(covered);
            return priced;
        }
        self.root_bound.set(f64::INFINITY);
        let st = &self.settings;
        let floor = 1.0 + st.improvement_tol;
        let keep = st.grid_columns;
        let quick_limit = st.quick_nodes.min(st.node_limit);
        let terms = (st.grid_cells > 0 && !self.diving).then(|| self.grid_terms(duals));
        let mut rows = terms.as_ref().and_then(|t| self.grid_rows(t, deadline));
        // Refined rows, or none past the deadline.
        let refined = |rows: Option<Rows>| {
            rows.zip(terms.as_ref())
                .and_then(|(r, t)| r.refine(t, deadline))
        };
        if !st.grid_refine_lazily {
            rows = refined(rows);
        }
        let mut suggested = match (&mut rows, &terms) {
            (Some(r), Some(t)) => r.sets(t, keep, deadline),
            _ => Vec::new(),
        };
        let mut quick = self.search_within(duals, quick_limit, false, &suggested, None, deadline);
        let mut improving = quick.0.first().is_some_and(|b| b.0 > floor);
        // Lazily: the refinement only where the first reading left no bin worth half the way
        // from 1 to the unrefined bound, nor a proof of the aim (early in a root the quick
        // search finds such bins at once; late, the improving bins are finer than the
        // rounding of 2,000 cells).
        let refine_now = st.grid_refine_lazily
            && !quick.1
            && rows.as_ref().is_some_and(|r| {
                let g = r.bound();
                let proven = g <= self.aim.max(floor);
                let strong = quick
                    .0
                    .first()
                    .is_some_and(|b| b.0 > floor.max(0.5 * (1.0 + g)));
                !strong && !proven && r.refinable(terms.as_deref().unwrap_or(&[]))
            });
        if refine_now {
            rows = refined(rows);
            if let (Some(r), Some(t)) = (&mut rows, &terms) {
                suggested = r.sets(t, keep, deadline);
                let first = quick.2;
                quick = self.search_within(duals, quick_limit, false, &suggested, None, deadline);
                quick.2 += first;
                improving = quick.0.first().is_some_and(|b| b.0 > floor);
            }
        }
        if let Some(r) = &rows {
            self.keep_cuts(r.cuts());
        }
        let grid = rows.as_ref().map(Rows::bound);
        if let Some(g) = grid {
            log::debug!("socbp pricing: aim {:.6}, grid bound {g:.6}", self.aim);
        }
        let above = rows.as_ref().map(|r| r.above(self.aim));
        let mut priced = match grid {
            // Proven without a search: no bin is worth more than `g`, and nothing more is
            // asked (`g` at most the aim, or no improving bin exists).
            Some(g) if !improving && !quick.1 && g <= self.aim.max(floor) => Priced {
                columns: bins_as_columns(quick.0),
                proven_max: Some(g),
                upper_bound: None,
                nodes: quick.2,
            },
            _ => quick_then_exact(
                |limit, exact| {
                    if exact {
                        self.search_within(duals, limit, true, &suggested, above.as_ref(), deadline)
                    } else {
                        quick.clone()
                    }
                },
                st.quick_nodes,
                st.node_limit,
                self.enough(),
                self.aim,
                self.diving,
            ),
        };
        // Every round then gives the loop a Lagrangian (Farley) bound, not only those whose
        // exact search completes.
        let root = self.root_bound.get().min(grid.unwrap_or(f64::INFINITY));
        priced.upper_bound = (root.is_finite() && !self.diving).then_some(root);
        Ok(priced)
    }

    fn aim(&mut self, enough: f64) {
        self.aim = enough;
    }

    fn settled_packing(&mut self, bound: u64, deadline: &Deadline) -> Option<u64> {
        if self.diving {
            return None;
        }
        self.improve.at_settle(&self.inst, bound, deadline)
    }

    /// Each item against the item of least `a + b` that is at least as large in both terms
    /// (ties by index, so no two items dominate each other): a bin's load `Σa + D√Σb` does
    /// not grow when the heavy item is replaced by the light one, so the result is a bin
    /// again. None under branching decisions, which a swap could break.
    fn dominance(&self) -> Vec<(usize, usize)> {
        if !self.decisions.is_empty() {
            return Vec::new();
        }
        dominance_pairs(&self.inst)
    }

    /// For each item, the pair of two others that fits in its place (`a_j + a_k ≤ a_i`,
    /// `b_j + b_k ≤ b_i`: the load does not grow) with the largest `π_j + π_k`, when that
    /// exceeds `π_i`. None under branching decisions.
    fn violated_pairs(&self, pi: &[f64]) -> Vec<(usize, usize, usize)> {
        if !self.decisions.is_empty() {
            return Vec::new();
        }
        violated_pairs(&self.inst, pi)
    }

    /// Covered items are priced at 0 and left out of the bins ([`price_uncovered`]).
    fn dive(&mut self, residual: &[f64]) {
        self.diving = true;
        self.covered = covered_items(residual, self.inst.len());
    }

    fn end_dive(&mut self) {
        self.diving = false;
        self.covered = None;
    }
}

/// The cells of the Lagrangian tables for `n` candidates: `lagrange_cells`, lowered so that
/// the tables of every multiplier the grid offers (and 0) hold at most `lagrange_table_cells`
/// cells in all (0: no such bound).
pub(super) fn lagrange_cells(settings: &PricingSettings, n: usize) -> usize {
    let tables = (n + 1)
        .saturating_mul(settings.lagrange_multipliers + 1)
        .max(1);
    let cells = settings
        .lagrange_cells
        .min(settings.lagrange_table_cells / tables);
    if cells < 2 {
        0
    } else {
        cells
    }
}

impl BranchPricing for SocKnapsack {
    fn restrict(&mut self, together: &[(usize, usize)], apart: &[(usize, usize)]) {
        self.decisions = Decisions::new(self.inst.len(), together, apart);
    }

    fn improve_packing(
        &mut self,
        incumbent: &[Column],
        bound: u64,
        deadline: &Deadline,
    ) -> Option<Vec<Column>> {
        self.improve.run(&self.inst, incumbent, bound, deadline)
    }
}
