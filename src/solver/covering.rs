//! The covering LP `min Σ_i Y_i s.t. Σ_i a_ji Y_i ≥ N_j, Y ≥ 0`, kept alive in HiGHS
//! between solves by a [`ColumnLp`]: columns are added to the solved model and it is re-solved
//! warm from the previous basis; demands and coefficients are edited in place. Column
//! generation uses it as its master ([`crate::colgen::CoveringMaster`]).

use super::column_lp::{column_key as key, Column, ColumnLp};
use crate::error::Result;
use crate::solver::Deadline;

/// A covering LP kept alive between solves.
///
/// Besides its columns of cost 1 it may hold *exchange* columns of cost 0 (`+1` on a row
/// `light`, `−1` on a row `heavy`): in the dual they are the dual-optimal inequalities
/// `π_light ≤ π_heavy` of Ben Amor, Desrosiers and Valério de Carvalho (Operations Research
/// 2006), which stabilise column generation. They are invisible to [`CoveringLp::columns`] and
/// to the primal values; while they are active the primal values do not make a cover (an
/// exchange may carry coverage from one row to another), so callers drop them
/// ([`CoveringLp::drop_exchanges`]) and re-solve before using a primal solution.
pub struct CoveringLp {
    lp: ColumnLp,
    demands: Vec<f64>,
    columns: Vec<Column>,
    /// The LP column of each of `columns` (`None`: retired, out of the LP).
    lp_col: Vec<Option<usize>>,
    /// Columns still in the LP.
    live: usize,
    /// Per column, held at 0 ([`CoveringLp::set_enabled`]: a branch-and-price node's
    /// decisions do not admit it).
    off: Vec<bool>,
    /// The LP columns of the exchanges, and whether they are still active.
    exchanges: Vec<usize>,
    exchanges_active: bool,
    /// Each exchange's coefficients (as `exchanges`) and its value at the last solve.
    exchange_cols: Vec<Column>,
    exchange_values: Vec<f64>,
    /// The triples of [`CoveringLp::extend_exchanges`] in the LP.
    triples: std::collections::HashSet<(usize, usize, usize)>,
    /// The retired columns by their coefficients (see [`CoveringLp::add_column`]).
    retired: std::collections::HashMap<Vec<(usize, u64)>, usize>,
    /// Columns added again after a copy of them was retired: never retired.
    returned: std::collections::HashSet<usize>,
    /// The LP is solved without crossover: its duals lie inside the optimal face, so
    /// retirements are remembered (see [`CoveringLp::add_column`]).
    interior: bool,
}

/// An optimal solution of the covering LP.
#[derive(Debug, Clone)]
pub struct CoveringSolution {
    /// `Σ Y_i`.
    pub value: f64,
    /// `Y_i` per column.
    pub primal: Vec<f64>,
    /// `π_j ≥ 0` per row (clamped at 0 against round-off).
    pub duals: Vec<f64>,
    /// Simplex iterations of this solve.
    pub iterations: i64,
}

impl CoveringLp {
    /// An LP with one row per demand `N_j` and no column yet.
    pub fn new(demands: &[f64]) -> Self {
        let bounds: Vec<(f64, f64)> = demands.iter().map(|&n| (n, f64::INFINITY)).collect();
        CoveringLp {
            lp: ColumnLp::new(&bounds),
            demands: demands.to_vec(),
            columns: Vec::new(),
            lp_col: Vec::new(),
            live: 0,
            off: Vec::new(),
            exchanges: Vec::new(),
            exchanges_active: false,
            exchange_cols: Vec::new(),
            exchange_values: Vec::new(),
            triples: std::collections::HashSet::new(),
            retired: std::collections::HashMap::new(),
            returned: std::collections::HashSet::new(),
            interior: false,
        }
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// True when there is no column.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// The columns, in the order they were added.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The demands `N_j`.
    pub fn demands(&self) -> &[f64] {
        &self.demands
    }

    /// Adds a column of cost 1, always at the end of [`CoveringLp::columns`] (callers edit
    /// the column they just added by its index). Under interior-point duals without crossover
    /// a column equal to a retired one is never retired itself: duals from the middle of the
    /// optimal face can price a retired column out once more after every retirement, and
    /// column generation would cycle between the two. (Under a simplex it is an ordinary
    /// column: there the rule kept columns that the tree no longer needed, Hard28 BPP40 4.0 s
    /// → over 10 s.)
    pub fn add_column(&mut self, col: Column) -> Result<()> {
        self.add_column_enabled(col, true)
    }

    /// [`CoveringLp::add_column`], held at 0 from the start unless `enabled`
    /// ([`CoveringLp::set_enabled`]).
    pub fn add_column_enabled(&mut self, col: Column, enabled: bool) -> Result<()> {
        if !self.retired.is_empty() && self.retired.remove(&key(&col)).is_some() {
            self.returned.insert(self.columns.len());
            log::trace!("covering: a retired column priced out again, kept from now on");
        }
        let upper = if enabled { f64::INFINITY } else { 0.0 };
        self.lp.add_column(1.0, 0.0, upper, &col)?;
        self.lp_col.push(Some(self.lp.len() - 1));
        self.live += 1;
        self.off.push(!enabled);
        self.columns.push(col);
        Ok(())
    }

    /// Lets column `k` take any value `≥ 0` again, or holds it at 0 (`enabled` false): a
    /// branch-and-price tree keeps one LP for all its nodes and holds the columns a node's
    /// decisions forbid at 0, so that each node starts from the last basis (dual simplex)
    /// instead of a fresh LP. Only after a first solve; a retired column is left alone.
    pub fn set_enabled(&mut self, k: usize, enabled: bool) -> Result<()> {
        let Some(&Some(c)) = self.lp_col.get(k) else {
            return Ok(());
        };
        // Already as asked (`off` is the opposite of `enabled`).
        if self.off[k] != enabled {
            return Ok(());
        }
        let upper = if enabled { f64::INFINITY } else { 0.0 };
        self.lp.set_column_bounds(c, 0.0, upper)?;
        self.off[k] = !enabled;
        Ok(())
    }

    /// Column `k` is in the LP and not held at 0 ([`CoveringLp::set_enabled`]).
    pub fn is_enabled(&self, k: usize) -> bool {
        self.is_live(k) && !self.off[k]
    }

    /// Columns still in the LP (not retired).
    pub fn live(&self) -> usize {
        self.live
    }

    /// Column `k` is still in the LP.
    pub fn is_live(&self, k: usize) -> bool {
        self.lp_col.get(k).is_some_and(Option::is_some)
    }

    /// Column `k` is in the LP, not held at 0, and [`CoveringLp::retire`] would take it out
    /// (it is not the return of a retired column).
    pub fn may_retire(&self, k: usize) -> bool {
        self.is_enabled(k) && !self.returned.contains(&k)
    }

    /// Takes the columns `which` (indices into [`CoveringLp::columns`]; not those held at 0)
    /// out of the LP. They stay in [`CoveringLp::columns`], in place, with primal value 0 from
    /// then on; edits to them are ignored. Only after a first solve, and only columns
    /// nonbasic in the last basis (e.g. of positive reduced cost at the last duals): the LP's
    /// optimum and basis are kept, and the next solve starts warm. Column generation retires
    /// columns to keep the LP small ([`crate::colgen::CgSettings::live_columns_per_row`]). A
    /// retired column added again ([`CoveringLp::add_column`]) stays.
    pub fn retire(&mut self, which: &[usize]) -> Result<()> {
        let which: Vec<usize> = which
            .iter()
            .copied()
            .filter(|&c| self.may_retire(c))
            .collect();
        let mut gone: Vec<usize> = which
            .iter()
            .filter_map(|&c| self.lp_col.get(c).copied().flatten())
            .collect();
        gone.sort_unstable();
        gone.dedup();
        if gone.is_empty() {
            return Ok(());
        }
        self.lp.delete_columns(&gone)?;
        // The LP index of a kept column drops by the deleted ones below it.
        let shift = |k: usize| k - gone.partition_point(|&g| g < k);
        for &c in &which {
            if let Some(slot) = self.lp_col.get_mut(c) {
                *slot = None;
            }
            if self.interior {
                self.retired.insert(key(&self.columns[c]), c);
            }
        }
        for slot in self.lp_col.iter_mut().flatten() {
            *slot = shift(*slot);
        }
        for e in &mut self.exchanges {
            *e = shift(*e);
        }
        self.live -= gone.len();
        Ok(())
    }

    /// Adds the exchange columns `e_light − e_heavy` (cost 0) of `pairs`, once in the LP's
    /// life: a second call does nothing. See the type's documentation.
    pub fn add_exchanges(&mut self, pairs: &[(usize, usize)]) -> Result<()> {
        if !self.exchanges.is_empty() || pairs.is_empty() {
            return Ok(());
        }
        for &(light, heavy) in pairs {
            self.push_exchange(vec![(light, 1.0), (heavy, -1.0)])?;
        }
        self.exchanges_active = true;
        Ok(())
    }

    /// Adds the exchange columns `e_j + e_k − e_heavy` (cost 0) of `triples` `(j, k, heavy)`
    /// of distinct rows not in the LP yet, while the exchanges are active (after
    /// [`CoveringLp::add_exchanges`]; they are dropped with them); returns how many were new.
    /// In the dual: `π_j + π_k ≤ π_heavy`.
    pub fn extend_exchanges(&mut self, triples: &[(usize, usize, usize)]) -> Result<usize> {
        if !self.exchanges_active {
            return Ok(0);
        }
        let mut added = 0;
        for &(j, k, heavy) in triples {
            let key = (j.min(k), j.max(k), heavy);
            if j == k || j == heavy || k == heavy || !self.triples.insert(key) {
                continue;
            }
            self.push_exchange(vec![(j, 1.0), (k, 1.0), (heavy, -1.0)])?;
            added += 1;
        }
        Ok(added)
    }

    fn push_exchange(&mut self, col: Column) -> Result<()> {
        self.lp.add_column(0.0, 0.0, f64::INFINITY, &col)?;
        self.exchanges.push(self.lp.len() - 1);
        self.exchange_cols.push(col);
        Ok(())
    }

    /// The active exchanges of positive value at the last solve, with their coefficients
    /// (`+1` on the light rows, `−1` on the heavy one).
    pub fn used_exchanges(&self) -> Vec<(&Column, f64)> {
        if !self.exchanges_active {
            return Vec::new();
        }
        self.exchange_cols
            .iter()
            .zip(&self.exchange_values)
            .filter(|(_, &y)| y > 1e-9)
            .map(|(c, &y)| (c, y))
            .collect()
    }

    /// The exchange columns are in the LP and not dropped.
    pub fn exchanges_active(&self) -> bool {
        self.exchanges_active
    }

    /// Fixes every exchange column at 0: from the next solve on, the LP is the plain
    /// covering LP again. Only after a first solve.
    pub fn drop_exchanges(&mut self) -> Result<()> {
        if self.exchanges_active {
            for k in self.exchanges.clone() {
                self.lp.set_column_bounds(k, 0.0, 0.0)?;
            }
            self.exchanges_active = false;
        }
        Ok(())
    }

    /// Changes the demand of `row` (its right-hand side `N_row`) in the LP, e.g. to the
    /// residual demand while diving. [`CoveringLp::demands`] keeps the original demands.
    /// Only after a first solve; the next solve starts warm from the last basis.
    pub fn set_demand(&mut self, row: usize, demand: f64) -> Result<()> {
        if !demand.is_finite() {
            return Err(crate::Error::Highs(format!(
                "bad demand {demand} for row {row}"
            )));
        }
        self.lp.set_row_bounds(row, demand, f64::INFINITY)
    }

    /// Changes the coefficient `a_row,col` in the LP, e.g. to trim a column to a residual
    /// demand while diving. [`CoveringLp::columns`] keeps the original columns.
    pub fn set_coefficient(&mut self, row: usize, col: usize, value: f64) -> Result<()> {
        match self.lp_col.get(col) {
            None => Err(crate::Error::Highs(format!(
                "no column {col} in the covering LP"
            ))),
            Some(None) => Ok(()),
            Some(&Some(k)) => self.lp.set_coefficient(row, k, value),
        }
    }

    /// The algorithm HiGHS solves the LP with from the next solve on.
    pub fn set_algorithm(&mut self, algorithm: super::column_lp::MasterLp) {
        self.interior = algorithm == super::column_lp::MasterLp::IpmNoCrossover;
        self.lp.set_algorithm(algorithm);
    }

    /// Solves the LP (warm after the first time); `Ok(None)` when the deadline stopped HiGHS.
    pub fn solve(&mut self, deadline: &Deadline) -> Result<Option<CoveringSolution>> {
        let solved = self.lp.solve(deadline)?;
        if let Some(s) = &solved {
            self.exchange_values = self.exchanges.iter().map(|&k| s.primal[k]).collect();
        }
        Ok(solved.map(|s| CoveringSolution {
            value: s.value,
            primal: self
                .lp_col
                .iter()
                .map(|k| k.map_or(0.0, |k| s.primal[k]))
                .collect(),
            duals: s.duals.iter().map(|&d| d.max(0.0)).collect(),
            iterations: s.iterations,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::MasterLp;

    /// Every algorithm reaches the same optimum, before and after a column is added, and its
    /// duals price the demands at the optimum (strong duality).
    #[test]
    fn every_master_algorithm_finds_the_optimum() {
        let demands = [3.0, 2.0, 4.0];
        let mut values = Vec::new();
        for alg in [
            MasterLp::Warm,
            MasterLp::Dual,
            MasterLp::Primal,
            MasterLp::Ipm,
            MasterLp::IpmNoCrossover,
        ] {
            let mut lp = CoveringLp::new(&demands);
            lp.set_algorithm(alg);
            for c in [vec![(0, 1.0)], vec![(1, 1.0)], vec![(2, 2.0)]] {
                lp.add_column(c).unwrap();
            }
            let first = lp.solve(&Deadline::none()).unwrap().unwrap();
            assert!((first.value - 7.0).abs() < 1e-6, "{alg:?}: {}", first.value);
            lp.add_column(vec![(0, 1.0), (1, 1.0), (2, 1.0)]).unwrap();
            let s = lp.solve(&Deadline::none()).unwrap().unwrap();
            let dual: f64 = s.duals.iter().zip(&demands).map(|(p, n)| p * n).sum();
            assert!(
                (s.value - dual).abs() < 1e-5,
                "{alg:?}: {} vs {dual}",
                s.value
            );
            values.push(s.value);
        }
        // With the mixed column: 3 of it and half of (0, 0, 2), 3.5.
        assert!(values.iter().all(|v| (v - 3.5).abs() < 1e-5), "{values:?}");
    }

    /// Retired columns leave the LP but not the column list: the optimum and the duals stay,
    /// the retired ones read 0, an edit to one is ignored, later columns and the exchanges
    /// keep working, and the LP grows again by new columns.
    #[test]
    fn retired_columns_leave_the_lp_and_keep_their_place() {
        let demands = [2.0, 2.0, 1.0];
        let mut lp = CoveringLp::new(&demands);
        // Singletons, a useless pair that covers row 2 twice, and the best column.
        for c in [
            vec![(0, 1.0)],
            vec![(1, 1.0)],
            vec![(2, 1.0)],
            vec![(2, 2.0)],
            vec![(0, 1.0), (1, 1.0)],
        ] {
            lp.add_column(c).unwrap();
        }
        lp.add_exchanges(&[(2, 1)]).unwrap();
        let s = lp.solve(&Deadline::none()).unwrap().unwrap();
        // Retire every column of positive reduced cost.
        let rc = |c: &Column, d: &[f64]| 1.0 - c.iter().map(|&(r, a)| a * d[r]).sum::<f64>();
        let out: Vec<usize> = (0..lp.len())
            .filter(|&k| rc(&lp.columns()[k], &s.duals) > 1e-7)
            .collect();
        assert!(!out.is_empty(), "duals {:?}", s.duals);
        lp.retire(&out).unwrap();
        assert_eq!(lp.len(), 5);
        assert_eq!(lp.live(), 5 - out.len());
        assert!(out.iter().all(|&k| !lp.is_live(k)));
        lp.set_coefficient(0, out[0], 3.0).unwrap();
        let again = lp.solve(&Deadline::none()).unwrap().unwrap();
        assert!(
            (again.value - s.value).abs() < 1e-9,
            "{} {}",
            again.value,
            s.value
        );
        assert!(out.iter().all(|&k| again.primal[k] == 0.0));
        // Without the exchange columns the plain optimum, 2.5 (the pair twice, half of the
        // double row-2 column), a cover again.
        lp.drop_exchanges().unwrap();
        let plain = lp.solve(&Deadline::none()).unwrap().unwrap();
        assert!((plain.value - 2.5).abs() < 1e-6, "{}", plain.value);
        let covered: Vec<f64> = (0..3)
            .map(|r| {
                lp.columns()
                    .iter()
                    .zip(&plain.primal)
                    .map(|(c, y)| y * c.iter().filter(|e| e.0 == r).map(|e| e.1).sum::<f64>())
                    .sum()
            })
            .collect();
        assert!(
            covered.iter().zip(&demands).all(|(c, n)| c + 1e-6 >= *n),
            "{covered:?}"
        );
        // A new column after the retirement: the LP uses it.
        lp.add_column(vec![(0, 2.0), (1, 2.0), (2, 1.0)]).unwrap();
        let last = lp.solve(&Deadline::none()).unwrap().unwrap();
        assert!((last.value - 1.0).abs() < 1e-6, "{}", last.value);
        assert!((last.primal[5] - 1.0).abs() < 1e-6, "{:?}", last.primal);
    }

    /// A column held at 0 reads 0 and the optimum is the one without it; freed, the LP uses
    /// it (warm, after a bound change); held again, the optimum is back. Added held at 0
    /// before the first solve it waits the same way, and retirement passes it by.
    #[test]
    fn columns_held_at_zero_wait_until_freed() {
        let solve = |lp: &mut CoveringLp| lp.solve(&Deadline::none()).unwrap().unwrap();
        let mut lp = CoveringLp::new(&[1.0, 1.0]);
        lp.add_column(vec![(0, 1.0)]).unwrap();
        lp.add_column(vec![(1, 1.0)]).unwrap();
        lp.add_column_enabled(vec![(0, 1.0), (1, 1.0)], false)
            .unwrap();
        let s = solve(&mut lp);
        assert!((s.value - 2.0).abs() < 1e-9 && s.primal[2] == 0.0, "{s:?}");
        assert!(lp.is_live(2) && !lp.is_enabled(2) && !lp.may_retire(2));
        lp.retire(&[2]).unwrap();
        assert!(lp.is_live(2), "a column held at 0 is not retired");
        lp.set_enabled(2, true).unwrap();
        let s = solve(&mut lp);
        assert!((s.value - 1.0).abs() < 1e-9, "{s:?}");
        assert!((s.primal[2] - 1.0).abs() < 1e-9 && lp.is_enabled(2));
        lp.set_enabled(2, false).unwrap();
        lp.set_enabled(2, false).unwrap();
        let s = solve(&mut lp);
        assert!((s.value - 2.0).abs() < 1e-9 && s.primal[2] == 0.0, "{s:?}");
    }

    /// Under interior-point duals a column equal to a retired one is added at the end, as
    /// every column, and is never retired (under a simplex it may be); the next column equal to it is an ordinary one again (its retired copy's key
    /// was used up), and so is a copy of a live column.
    #[test]
    fn a_retired_column_added_again_is_kept() {
        let mut simplex = CoveringLp::new(&[1.0]);
        simplex.add_column(vec![(0, 1.0)]).unwrap();
        simplex.add_column(vec![(0, 2.0)]).unwrap();
        simplex.solve(&Deadline::none()).unwrap().unwrap();
        simplex.retire(&[0]).unwrap();
        simplex.add_column(vec![(0, 1.0)]).unwrap();
        assert!(simplex.may_retire(2), "under a simplex an ordinary column");
        let mut lp = CoveringLp::new(&[1.0, 1.0]);
        lp.set_algorithm(MasterLp::IpmNoCrossover);
        for c in [vec![(0, 1.0)], vec![(1, 1.0)], vec![(0, 1.0), (1, 1.0)]] {
            lp.add_column(c).unwrap();
        }
        let s = lp.solve(&Deadline::none()).unwrap().unwrap();
        assert!((s.value - 1.0).abs() < 1e-6, "{}", s.value);
        lp.retire(&[0]).unwrap();
        assert!(!lp.is_live(0) && !lp.may_retire(0));
        lp.add_column(vec![(0, 1.0)]).unwrap();
        assert_eq!((lp.len(), lp.live()), (4, 3));
        assert!(lp.is_live(3) && !lp.may_retire(3) && lp.may_retire(1));
        // The column just added is edited by its index, as a dive trims it.
        lp.set_coefficient(0, 3, 1.0).unwrap();
        lp.retire(&[3, 1]).unwrap();
        assert!(lp.is_live(3) && !lp.is_live(1), "the returned column stays");
        let again = lp.solve(&Deadline::none()).unwrap().unwrap();
        assert!((again.value - 1.0).abs() < 1e-6 && again.primal.len() == 4);
        // Column 2's coefficients in another order: a copy of a live column, retirable.
        lp.add_column(vec![(1, 1.0), (0, 1.0)]).unwrap();
        assert_eq!((lp.len(), lp.live()), (5, 3));
        assert!(lp.may_retire(4));
    }
}
