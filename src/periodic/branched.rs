//! The periodic knapsack under the job-level tree's branching rows (models/periodic.md,
//! "Branching over jobs").
//!
//! A branching row is a *corner* `q = {(j, k_j)}`: it counts the machines whose column holds at
//! least `k_j` tasks of every job `j` of `q` (Vanderbeck 2011's component-bound sets). With the
//! row's dual `μ`, a column `a` is worth `π·a + Σ_rows μ [a ≥ q]`: a step in the profit, which
//! the linear knapsack cannot express. It is priced exactly by cutting the count range of every
//! job that some corner names at its thresholds: in each *cell* (one interval per such job) every
//! indicator is constant, so the cell is the ordinary periodic knapsack over a box `lo ≤ U ≤ hi`
//! plus a constant, and the pricing optimum is the best cell's. Cells are tried from the highest
//! constant down; a cell is solved by the exact branch-and-bound from its box (`Knapsack::lower`).

use super::instance::Instance;
use super::knapsack::{branch_and_bound, Item, Knapsack};
use super::pricing::{PeriodicPricing, PricingSettings};
use crate::colgen::Pricing;
use crate::error::Result;
use crate::solver::Deadline;
use std::collections::{BTreeMap, HashSet};

/// A column over jobs: `(job, tasks)` with tasks > 0, jobs ascending.
pub type Counts = Vec<(usize, u32)>;

/// A branching row's corner: `(job, at least k)` pairs, jobs ascending, `k ≥ 1`.
pub type Corner = Vec<(usize, u32)>;

/// Whether the column `col` holds at least `corner`'s tasks of every job it names.
pub fn holds(corner: &[(usize, u32)], col: &[(usize, u32)]) -> bool {
    corner
        .iter()
        .all(|&(j, k)| col.iter().find(|e| e.0 == j).is_some_and(|&(_, n)| n >= k))
}

/// One cell: per named job its interval, and the constant the rows add there.
#[derive(Debug, Clone)]
struct Cell {
    bounds: Vec<(usize, u32, u32)>,
    bonus: f64,
}

/// What one exact pricing found.
#[derive(Debug, Clone, Default)]
pub struct Priced {
    /// Columns worth more than the threshold (values with the rows' steps), best first.
    pub columns: Vec<(Counts, f64)>,
    /// A proof that no column is worth more (`None` when a search stopped early or there were
    /// too many cells).
    pub proven_max: Option<f64>,
    /// An upper bound on every column's value that proves nothing about convergence (the root
    /// pricing's relaxation bound plus the highest cell constant): a Lagrangian bound still.
    pub upper_bound: Option<f64>,
    /// Branch-and-bound nodes.
    pub nodes: u64,
    /// Cells solved.
    pub cells: usize,
}

/// The pricing oracle of the job-level tree.
pub struct BranchedPricing<'a> {
    inst: &'a Instance,
    settings: PricingSettings,
    /// Rows with their current duals.
    rows: Vec<(Corner, f64)>,
    /// Known columns (every column returned so far and the caller's).
    pool: Vec<Counts>,
    in_pool: HashSet<Counts>,
    /// Most cells a pricing enumerates (beyond: no proof).
    pub max_cells: usize,
    /// Exact pricings so far.
    pub exact_calls: u64,
    /// The root's pricing over `π` alone (its greedy family, probe, pool and exact search):
    /// its columns are candidates, and its proof bounds every cell.
    plain: PeriodicPricing<'a>,
}

impl<'a> BranchedPricing<'a> {
    /// An oracle for `inst` without rows.
    pub fn new(inst: &'a Instance, settings: PricingSettings, max_cells: usize) -> Self {
        BranchedPricing {
            inst,
            settings: settings.clone(),
            rows: Vec::new(),
            pool: Vec::new(),
            in_pool: HashSet::new(),
            max_cells,
            exact_calls: 0,
            plain: PeriodicPricing::new(inst, settings.clone()),
        }
    }

    /// A proof that no column beats `enough` settles the caller's bound (see
    /// [`Pricing::aim`]); only without rows, where the pricing over `π` alone is the answer
    /// (a cell's bound adds the rows' duals, which the aim does not see).
    pub fn aim(&mut self, enough: f64) {
        self.plain
            .aim(if self.rows.is_empty() { enough } else { 1.0 });
    }

    /// The rows and their duals for the next pricings.
    pub fn set_rows(&mut self, rows: Vec<(Corner, f64)>) {
        self.rows = rows;
    }

    /// Adds known columns to the pool (the heuristic phase reprices them).
    pub fn remember<'c>(&mut self, columns: impl IntoIterator<Item = &'c Counts>) {
        for c in columns {
            if !c.is_empty() && self.in_pool.insert(c.clone()) {
                self.pool.push(c.clone());
                let col: crate::colgen::Column =
                    c.iter().map(|&(j, n)| (j, f64::from(n))).collect();
                self.plain.remember(std::iter::once(&col));
            }
        }
    }

    /// The most tasks of job `j` a column can hold.
    fn cap(&self, j: usize) -> u32 {
        let job = &self.inst.jobs[j];
        job.tasks
            .min((self.inst.capacity / job.mean + 1e-9).floor() as u32)
    }

    /// `π·a` plus the steps of the rows `a` reaches.
    pub fn value(&self, duals: &[f64], col: &[(usize, u32)]) -> f64 {
        let linear: f64 = col.iter().map(|&(j, n)| duals[j] * f64::from(n)).sum();
        linear
            + self
                .rows
                .iter()
                .filter(|(c, _)| holds(c, col))
                .map(|(_, mu)| mu)
                .sum::<f64>()
    }

    /// The cells of the current rows, highest constant first; `None` beyond `max_cells`.
    fn cells(&self) -> Option<Vec<Cell>> {
        let mut thresholds: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
        for (c, _) in &self.rows {
            for &(j, k) in c {
                thresholds.entry(j).or_default().push(k);
            }
        }
        let mut count = 1usize;
        let mut ranges: Vec<(usize, Vec<(u32, u32)>)> = Vec::new();
        for (j, mut t) in thresholds {
            t.sort_unstable();
            t.dedup();
            let cap = self.cap(j);
            let mut cuts = vec![0];
            cuts.extend(t.into_iter().filter(|&k| k <= cap));
            let intervals: Vec<(u32, u32)> = cuts
                .iter()
                .enumerate()
                .map(|(i, &lo)| (lo, cuts.get(i + 1).map_or(cap, |&next| next - 1)))
                .collect();
            count = count.saturating_mul(intervals.len());
            ranges.push((j, intervals));
        }
        if count > self.max_cells {
            return None;
        }
        let mut cells = Vec::with_capacity(count);
        let mut digit = vec![0usize; ranges.len()];
        loop {
            let bounds: Vec<(usize, u32, u32)> = ranges
                .iter()
                .zip(&digit)
                .map(|((j, iv), &d)| (*j, iv[d].0, iv[d].1))
                .collect();
            let lows: Vec<(usize, u32)> = bounds.iter().map(|&(j, lo, _)| (j, lo)).collect();
            let bonus = self
                .rows
                .iter()
                .filter(|(c, _)| holds(c, &lows))
                .map(|(_, mu)| mu)
                .sum();
            cells.push(Cell { bounds, bonus });
            // Next digit (mixed radix).
            let mut i = 0;
            loop {
                if i == digit.len() {
                    cells.sort_by(|a, b| b.bonus.total_cmp(&a.bonus));
                    return Some(cells);
                }
                digit[i] += 1;
                if digit[i] < ranges[i].1.len() {
                    break;
                }
                digit[i] = 0;
                i += 1;
            }
        }
    }

    /// The knapsack of one cell at duals `π`, and the constant its columns gain: jobs whose
    /// dual is not positive take their cell's least count (more never pays: peaks are
    /// monotone and the cell, so the steps, stay the same). `None` for an empty cell.
    fn cell_knapsack(&self, duals: &[f64], cell: &Cell) -> Option<(Knapsack, f64)> {
        let c = self.inst.capacity;
        let mut constant = cell.bonus;
        let (mut items, mut lower) = (Vec::new(), Vec::new());
        for (j, job) in self.inst.jobs.iter().enumerate() {
            let (lo, hi) = cell
                .bounds
                .iter()
                .find(|b| b.0 == j)
                .map_or((0, self.cap(j)), |&(_, lo, hi)| (lo, hi.min(self.cap(j))));
            if lo > hi {
                return None;
            }
            let positive = duals[j] > self.settings.min_profit;
            let hi = if positive { hi } else { lo };
            if hi == 0 {
                continue;
            }
            let profit = if positive {
                duals[j]
            } else {
                constant += duals[j] * f64::from(lo);
                0.0
            };
            items.push(Item {
                job: j,
                profit,
                mean: job.mean,
                x: job.x(),
                y: job.y(),
                ub: hi,
            });
            lower.push(lo);
        }
        let mut k = Knapsack::new(c, items);
        if !k.fits(&lower) {
            return None;
        }
        k.lower = lower;
        Some((k, constant))
    }

    /// The columns worth more than `threshold` at duals `π` (the rows' duals set by
    /// [`Self::set_rows`]): first the cheap ones (each cell's corner completed greedily, the
    /// pool), and when none improves, every cell exactly. `stop_after` improving columns end a
    /// cell's search early (then nothing is proven).
    pub fn price(
        &mut self,
        duals: &[f64],
        threshold: f64,
        stop_after: Option<usize>,
        deadline: &Deadline,
    ) -> Result<Priced> {
        let Some(cells) = self.cells() else {
            return Ok(Priced::default());
        };
        // The pricing over `π` alone: without rows it is the whole answer.
        let plain = self.plain.price(duals, deadline)?;
        let mut cheap: Vec<Counts> = plain
            .columns
            .iter()
            .map(|(c, _)| {
                let mut k: Counts = c.iter().map(|&(j, n)| (j, n.round() as u32)).collect();
                k.retain(|e| e.1 > 0);
                k.sort_unstable();
                k
            })
            .collect();
        // Every column lies in a cell: it is worth at most `max_a π·a` plus the highest constant.
        let top = cells.first().map_or(0.0, |c| c.bonus);
        let upper_bound = plain.max_bound().map(|u| u + top);
        if self.rows.is_empty() {
            let found = self.improving(duals, cheap, threshold);
            self.exact_calls += u64::from(plain.proven_max.is_some());
            self.remember_found(&found);
            return Ok(Priced {
                columns: found,
                proven_max: plain.proven_max,
                upper_bound,
                nodes: plain.nodes,
                cells: 1,
            });
        }
        for cell in &cells {
            if let Some((k, _)) = self.cell_knapsack(duals, cell) {
                let mut u = k.lower_bounds();
                let upper: Vec<u32> = k.items.iter().map(|i| i.ub).collect();
                k.complete(&mut u, &upper);
                cheap.push(counts(&k, &u));
            }
        }
        cheap.extend(self.pool.iter().cloned());
        let mut found = self.improving(duals, cheap, threshold);
        if !found.is_empty() && stop_after.is_some() {
            self.remember_found(&found);
            return Ok(Priced {
                columns: found,
                upper_bound,
                nodes: plain.nodes,
                ..Priced::default()
            });
        }
        self.exact_calls += 1;
        let (mut proven, mut nodes, mut solved) = (Some(threshold), plain.nodes, 0);
        // No cell beats `threshold` unless its constant plus the best column of the whole
        // knapsack (no box, no step) does: one search bounds every cell.
        let whole = Cell {
            bounds: Vec::new(),
            bonus: 0.0,
        };
        let mut overall = plain.proven_max.unwrap_or(f64::INFINITY);
        if cells.len() > 1 && overall.is_infinite() {
            if let Some((k, constant)) = self.cell_knapsack(duals, &whole) {
                let target = threshold - top - constant;
                let mut search = self.settings.search(target, target);
                search.node_limit = self.settings.node_limit;
                search.solver = self.settings.node_solver;
                let out = branch_and_bound(&k, k.lower_bounds(), &search, deadline)?;
                nodes += out.nodes;
                if let Some(v) = out.proven_max {
                    overall = v + constant;
                }
            }
        }
        for cell in &cells {
            if cell.bonus + overall <= threshold {
                // Cells come highest constant first: none after this one beats it either.
                break;
            }
            let Some((k, constant)) = self.cell_knapsack(duals, cell) else {
                continue;
            };
            let target = threshold - constant;
            let mut search = self.settings.search(target, target);
            search.stop_after = stop_after;
            search.node_limit = self.settings.node_limit;
            search.solver = self.settings.node_solver;
            let start = k.lower_bounds();
            let out = branch_and_bound(&k, start, &search, deadline)?;
            nodes += out.nodes;
            solved += 1;
            proven = match (proven, out.proven_max) {
                (Some(p), Some(v)) => Some(p.max(v + constant)),
                _ => None,
            };
            let cols: Vec<Counts> = out.improving.iter().map(|(u, _)| counts(&k, u)).collect();
            found.extend(self.improving(duals, cols, threshold));
            if proven.is_none() && !found.is_empty() {
                break;
            }
        }
        found.sort_by(|a, b| b.1.total_cmp(&a.1));
        found.dedup_by(|a, b| a.0 == b.0);
        self.remember_found(&found);
        Ok(Priced {
            columns: found,
            proven_max: proven,
            upper_bound,
            nodes,
            cells: solved,
        })
    }

    fn remember_found(&mut self, found: &[(Counts, f64)]) {
        let cols: Vec<Counts> = found.iter().map(|(c, _)| c.clone()).collect();
        self.remember(cols.iter());
    }

    /// The columns of `cols` worth more than `threshold`, best first, without repeats.
    fn improving(&self, duals: &[f64], cols: Vec<Counts>, threshold: f64) -> Vec<(Counts, f64)> {
        let mut out: Vec<(Counts, f64)> = cols
            .into_iter()
            .map(|c| {
                let v = self.value(duals, &c);
                (c, v)
            })
            .filter(|(c, v)| !c.is_empty() && *v > threshold)
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }
}

/// A count vector of `k`'s items as a column over jobs.
fn counts(k: &Knapsack, u: &[u32]) -> Counts {
    let mut c: Counts = k
        .items
        .iter()
        .zip(u)
        .filter(|(_, &n)| n > 0)
        .map(|(it, &n)| (it.job, n))
        .collect();
    c.sort_unstable();
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::peak;
    use crate::periodic::selfcheck::random_instance;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every column of `inst` that fits, by enumeration.
    fn all_columns(inst: &Instance) -> Vec<Counts> {
        let caps: Vec<u32> = inst.jobs.iter().map(|j| j.tasks).collect();
        let mut out = Vec::new();
        let mut u = vec![0u32; caps.len()];
        loop {
            let c: Counts = u
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(j, &n)| (j, n))
                .collect();
            if peak::fits(inst, &peak::load_of(inst, &c)) {
                out.push(c);
            }
            let mut i = 0;
            loop {
                if i == u.len() {
                    return out;
                }
                u[i] += 1;
                if u[i] <= caps[i] {
                    break;
                }
                u[i] = 0;
                i += 1;
            }
        }
    }

    /// Under random rows (corners of one or two jobs, duals of either sign) and random job
    /// duals, the exact pricing's proof equals the best value by enumeration, and its best
    /// column reaches it; the rows must matter (change the optimum) in many cases.
    #[test]
    fn branched_pricing_equals_enumeration_under_random_rows() {
        let mut changed = 0;
        for seed in 0..300u64 {
            let inst = random_instance(11_000 + seed, 2..=5, 1..=4);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n = inst.jobs.len();
            let duals: Vec<f64> = (0..n)
                .map(|_| {
                    if rng.random_bool(0.15) {
                        0.0
                    } else {
                        rng.random_range(0.0..0.6)
                    }
                })
                .collect();
            let mut rows = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let mut corner: Corner = Vec::new();
                for _ in 0..rng.random_range(1..=2) {
                    let j = rng.random_range(0..n);
                    if corner.iter().all(|e| e.0 != j) {
                        corner.push((j, rng.random_range(1..=inst.jobs[j].tasks)));
                    }
                }
                corner.sort_unstable();
                rows.push((corner, rng.random_range(-0.5..0.5)));
            }
            let mut p = BranchedPricing::new(&inst, PricingSettings::default(), 1 << 16);
            p.set_rows(rows.clone());
            let columns = all_columns(&inst);
            let best = columns
                .iter()
                .map(|c| p.value(&duals, c))
                .fold(0.0f64, f64::max);
            let plain = columns
                .iter()
                .map(|c| c.iter().map(|&(j, k)| duals[j] * f64::from(k)).sum::<f64>())
                .fold(0.0f64, f64::max);
            changed += usize::from((best - plain).abs() > 1e-6);
            let out = p.price(&duals, -1.0, None, &Deadline::none()).unwrap();
            let proof = out.proven_max.expect("an exact pricing proves");
            assert!(
                proof >= best - 1e-9 && proof <= best + 1e-6,
                "seed {seed}: proof {proof}, enumeration {best}, rows {rows:?}"
            );
            if best <= 0.0 {
                continue;
            }
            let top = out.columns.first().expect("a column worth more than 0");
            assert!(
                (top.1 - best).abs() <= 1e-9,
                "seed {seed}: best column worth {}, enumeration {best}",
                top.1
            );
            assert!(
                (p.value(&duals, &top.0) - top.1).abs() <= 1e-12,
                "seed {seed}: a column's value misreported"
            );
            assert!(
                peak::fits(&inst, &peak::load_of(&inst, &top.0)),
                "seed {seed}: column overflows"
            );
        }
        assert!(
            changed >= 60,
            "the rows changed the optimum in {changed} cases"
        );
    }
}
