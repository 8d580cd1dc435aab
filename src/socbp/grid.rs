//! An upper bound on the conic knapsack `max v·x`, `a·x + D√(b·x) ≤ c`, `x ∈ {0,1}ⁿ`: the
//! largest over pieces `[S_k, S_{k+1}]` of the bin's `Σb` of an exact 0-1 knapsack on the
//! chord of `√S` over that piece, by dynamic programming on weights rounded *down*.
//!
//! On a piece, `√S ≥ √S_k + σ_k(S − S_k)` (the chord; `σ_k` its slope), so every bin whose
//! `Σb` lies in it satisfies `Σ (a_i + Dσ_k b_i) ≤ c − D(√S_k − σ_k S_k)`: a linear knapsack.
//! Outside the piece the chord lies *above* the concave `√S`, so a set that satisfies that
//! row with `Σb` elsewhere is a bin: dropping `S_k ≤ Σb ≤ S_{k+1}` adds no infeasible set.
//! Each row is solved exactly on a grid of `cells` (weights `⌊w_i·cells/R_k⌋`: every bin of
//! the piece stays within the grid's capacity), and the bound is the largest over the
//! pieces. Its error: the chord's (a setting, 0.1% of the capacity by default: the pieces
//! are as long as that allows) and one cell per item of a bin.
//!
//! Unlike the Lagrangian bound of `lagrange.rs` (exact in `a`, the root term dualised) it has
//! no duality gap, and unlike the search's fractional (Dantzig) bound on the same chords it
//! is integral: on the 400-item cloud instances, where the root term binds, both of those
//! stay near 1.2 at duals whose pricing optimum is below 1.03. A root bound only (no suffix
//! tables): the pricing uses it to prove `max π·a ≤ aim` without a search, and to give every
//! such round a Lagrangian bound (`models/packing.md` §8).

use super::chords::{chord_gap, cut, pieces, row_room, slope};
use super::instance::TOL;
use crate::colgen::{relax, Taken};
use crate::solver::Deadline;

/// The grid: cells of each knapsack row, and the chords' largest gap below `D√S`, relative
/// to the capacity (which sets the pieces). `fine_cells` (at least `cells` to act): the row
/// that holds the bound is solved again with four times the cells, up to `fine_cells`, for
/// as long as the bound sits on a row that is not yet that fine. `splits`: up to that many
/// times in the rows' life (they are built per pricing call), the piece that holds the bound
/// is cut in two at its geometric middle (each half's chord is four times closer to `√S`),
/// while its chord's gap is above `10⁻⁶` of the capacity ([`Rows::refine`]).
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    pub cells: usize,
    pub chord_gap: f64,
    pub fine_cells: usize,
    pub splits: usize,
}

/// The bound on `max Σ v_i` over bins of the items `(a_i, b_i, v_i)` (items of value `≤ 0`
/// ignored), and the optimal sets of the `keep` best pieces' rows (see [`Rows::sets`]), the
/// rows refined (see [`Rows::refine`]); `None` when the deadline passed first. (The pricing
/// uses [`Rows`] itself, to refine only when it needs to.)
#[cfg(test)]
pub fn bound(
    capacity: f64,
    d: f64,
    terms: &[(f64, f64, f64)],
    grid: Grid,
    keep: usize,
    deadline: &Deadline,
) -> Option<(f64, Vec<Vec<usize>>)> {
    let mut rows = Rows::new(capacity, d, terms, grid, &[], deadline)?.refine(terms, deadline)?;
    let sets = rows.sets(terms, keep, deadline);
    Some((rows.bound(), sets))
}

/// The grid's pieces whose rows are worth more than a floor, and the most a bin in the
/// others is worth (at most that floor): what the exact search's chord tables need
/// (`chord_tables.rs`).
pub struct Above {
    pub pieces: Vec<(f64, f64)>,
    pub left_out: f64,
}

/// The pieces' knapsack rows, each with its value and the cells it was solved at: built at
/// `grid.cells`, then read ([`Rows::sets`]) or refined ([`Rows::refine`]) as the caller
/// needs (the pricing refines only when the first reading leaves it without an improving
/// bin, `pricing.grid_refine_lazily`).
pub struct Rows {
    cap: f64,
    d: f64,
    grid: Grid,
    /// The items of positive value (indices into the terms).
    items: Vec<usize>,
    /// Per piece: its ends.
    pieces: Vec<(f64, f64)>,
    /// Per piece: its row's value and cells.
    at: Vec<(f64, usize)>,
    /// The knapsacks' table, grown as needed.
    f: Vec<f64>,
    /// The points where [`Rows::refine`] split pieces.
    made: Vec<f64>,
}

impl Rows {
    /// Every piece's row at `grid.cells`, the pieces also cut at the points `cuts` (earlier
    /// calls' splits, [`Rows::cuts`]: any partition of `Σb` gives a valid bound); `None` past
    /// the deadline.
    pub fn new(
        capacity: f64,
        d: f64,
        terms: &[(f64, f64, f64)],
        grid: Grid,
        cuts: &[f64],
        deadline: &Deadline,
    ) -> Option<Rows> {
        let cap = capacity * (1.0 + TOL);
        let items: Vec<usize> = (0..terms.len())
            .filter(|&i| {
                let t = terms[i];
                t.2 > 0.0 && t.0.is_finite() && t.1.is_finite()
            })
            .collect();
        let cells = grid.cells.max(1);
        let mut f = vec![0.0f64; cells + 1];
        let pieces = cut(pieces(cap, d, terms, &items, grid.chord_gap), cuts);
        let mut at = Vec::with_capacity(pieces.len());
        for &piece in &pieces {
            if deadline.expired() {
                return None;
            }
            at.push((
                knapsack(cap, d, terms, &items, piece, cells, &mut f, None),
                cells,
            ));
        }
        Some(Rows {
            cap,
            d,
            grid,
            items,
            pieces,
            at,
            f,
            made: Vec::new(),
        })
    }

    /// The bound: the largest row, raised by [`Rows::raise`] (outward).
    pub fn bound(&self) -> f64 {
        let best = self.at.iter().map(|r| r.0).fold(0.0, f64::max);
        best * self.raise()
    }

    /// A relative `1e-12` per item, for the additions' round-off in a row's value.
    fn raise(&self) -> f64 {
        1.0 + 1e-12 * (self.items.len() as f64 + 1.0)
    }

    /// The pieces whose rows are worth more than `floor`, and the largest value of the
    /// others (raised as [`Rows::bound`] is): a bin whose `Σb` ends in one of those is worth
    /// at most that.
    pub fn above(&self, floor: f64) -> Above {
        let raise = self.raise();
        let mut pieces = Vec::new();
        let mut left_out = 0.0f64;
        for (&p, &(v, _)) in self.pieces.iter().zip(&self.at) {
            if v * raise > floor {
                pieces.push(p);
            } else {
                left_out = left_out.max(v * raise);
            }
        }
        Above { pieces, left_out }
    }

    /// Whether [`Rows::refine`] would change anything: the largest row is below
    /// `grid.fine_cells`, or its piece may still be split.
    pub fn refinable(&self, terms: &[(f64, f64, f64)]) -> bool {
        self.top()
            .is_some_and(|k| self.at[k].0 > 0.0 && self.step(terms, k).is_some())
    }

    fn top(&self) -> Option<usize> {
        (0..self.at.len()).max_by(|&x, &y| self.at[x].0.total_cmp(&self.at[y].0))
    }

    /// What refining row `k` does next, or `None` when nothing: while the rounding (one
    /// cell per item of a typical set: the row's room over the median item's weight) is
    /// above the chord's gap, or no split is left, four times the cells (up to
    /// `fine_cells`); otherwise a split, while splits are left and the chord's gap is above
    /// `10⁻⁶·c`.
    fn step(&self, terms: &[(f64, f64, f64)], k: usize) -> Option<Step> {
        let ends = self.pieces[k];
        let cells = self.at[k].1;
        let gap = chord_gap(self.d, ends);
        let may_split = self.grid.splits > 0 && gap > 1e-6 * self.cap;
        let room = row_room(self.cap, self.d, ends);
        let rounding = self.typical_count(terms, ends) * room / cells as f64;
        if cells < self.grid.fine_cells && (rounding >= gap || !may_split) {
            Some(Step::Cells)
        } else if may_split && (cells < self.grid.fine_cells || gap > rounding) {
            Some(Step::Split)
        } else {
            None
        }
    }

    /// Items in a typical set of the piece's row: its room over the median item's weight.
    fn typical_count(&self, terms: &[(f64, f64, f64)], ends: (f64, f64)) -> f64 {
        let slope = slope(ends);
        let mut w: Vec<f64> = self
            .items
            .iter()
            .map(|&i| terms[i].0 + self.d * slope * terms[i].1)
            .collect();
        if w.is_empty() {
            return 1.0;
        }
        let mid = w.len() / 2;
        let (_, m, _) = w.select_nth_unstable_by(mid, f64::total_cmp);
        (row_room(self.cap, self.d, ends) / m.max(1e-12)).clamp(1.0, w.len() as f64)
    }

    /// Refines the row that holds the largest value, step by step ([`Rows::step`]: four times
    /// its cells, at most `fine_cells`, or its piece cut in two at its geometric middle, at
    /// most `splits` times), for as long as that row has a step left. Every resolution bounds
    /// the row's bins (weights rounded down), and each half's row bounds the bins whose `Σb`
    /// lies in it, so a row keeps the least of its values and a half at most its whole's.
    /// `None` past the deadline (the rows are then of no use: the caller has no bound).
    pub fn refine(mut self, terms: &[(f64, f64, f64)], deadline: &Deadline) -> Option<Rows> {
        let splits = self.grid.splits;
        while let Some(k) = self.top().filter(|&k| self.at[k].0 > 0.0) {
            let Some(step) = self.step(terms, k) else {
                break;
            };
            if deadline.expired() {
                return None;
            }
            let (value, cells) = self.at[k];
            match step {
                Step::Cells => {
                    let finer = cells.saturating_mul(4).min(self.grid.fine_cells);
                    let v = self.solve(terms, self.pieces[k], finer);
                    self.at[k] = (value.min(v), finer);
                }
                Step::Split => {
                    let (lo, hi) = self.pieces[k];
                    let mid = if lo > 0.0 { (lo * hi).sqrt() } else { hi / 4.0 };
                    let left = self.solve(terms, (lo, mid), cells).min(value);
                    let right = self.solve(terms, (mid, hi), cells).min(value);
                    self.pieces[k] = (lo, mid);
                    self.at[k] = (left, cells);
                    self.pieces.push((mid, hi));
                    self.at.push((right, cells));
                    self.made.push(mid);
                    self.grid.splits -= 1;
                }
            }
        }
        log::trace!(
            "grid refined: {} pieces ({} split), bound {:.6}, top cells {}",
            self.pieces.len(),
            splits - self.grid.splits,
            self.bound(),
            self.top().map_or(0, |k| self.at[k].1)
        );
        Some(self)
    }

    /// The points where this refinement split pieces, for the next call's rows.
    pub fn cuts(&self) -> &[f64] {
        &self.made
    }

    /// The row of piece `ends` solved at `cells`.
    fn solve(&mut self, terms: &[(f64, f64, f64)], ends: (f64, f64), cells: usize) -> f64 {
        self.f.resize(cells + 1, 0.0);
        knapsack(
            self.cap,
            self.d,
            terms,
            &self.items,
            ends,
            cells,
            &mut self.f[..=cells],
            None,
        )
    }

    /// The optimal sets of the `keep` best rows, each read at its current cells (indices into
    /// `terms`, by decreasing value per unit of the row's weight: a set is a bin up to the
    /// rounding and the chord, and a repair that drops items from the end makes it one; a
    /// refined row's set overflows the bin by less, so its repair loses less). Fewer past
    /// the deadline.
    pub fn sets(
        &mut self,
        terms: &[(f64, f64, f64)],
        keep: usize,
        deadline: &Deadline,
    ) -> Vec<Vec<usize>> {
        let (cap, d) = (self.cap, self.d);
        let mut order: Vec<usize> = (0..self.at.len()).collect();
        order.sort_by(|&x, &y| self.at[y].0.total_cmp(&self.at[x].0).then(x.cmp(&y)));
        let mut sets = Vec::new();
        let mut take = Taken::default();
        for &k in order.iter().take(keep) {
            let (value, cells) = self.at[k];
            let ends = self.pieces[k];
            let slope = slope(ends);
            if value <= 0.0 || deadline.expired() {
                break;
            }
            self.f.resize(cells + 1, 0.0);
            take.reset(self.items.len(), cells + 1);
            knapsack(
                cap,
                d,
                terms,
                &self.items,
                ends,
                cells,
                &mut self.f[..=cells],
                Some(&mut take),
            );
            let room = row_room(cap, d, ends);
            let scale = cells as f64 / room;
            let weight = |i: usize| (terms[i].0 + d * slope * terms[i].1) * scale;
            let mut r = cells;
            let mut set = Vec::new();
            for (k, &i) in self.items.iter().enumerate().rev() {
                if take.get(k, r) {
                    set.push(i);
                    r -= weight(i).floor() as usize;
                }
            }
            set.sort_by(|&x, &y| {
                (terms[y].2 / weight(y).max(1e-300))
                    .total_cmp(&(terms[x].2 / weight(x).max(1e-300)))
                    .then(x.cmp(&y))
            });
            sets.push(set);
        }
        sets
    }
}

/// A refinement step of one row.
enum Step {
    Cells,
    Split,
}

/// The 0-1 knapsack `max Σ v_i`, `Σ ⌊w_i·scale⌋ ≤ cells` over `items`, with `w_i = a_i +
/// Dσ b_i` and `scale = cells/room` of the piece `[S_k, S_{k+1}]` (`σ` its chord's slope):
/// its value, and in `take` (when given, `items` rows of `cells + 1` bits) whether item `k` is taken
/// at capacity `r`.
#[allow(clippy::too_many_arguments)]
fn knapsack(
    cap: f64,
    d: f64,
    terms: &[(f64, f64, f64)],
    items: &[usize],
    ends: (f64, f64),
    cells: usize,
    f: &mut [f64],
    mut take: Option<&mut Taken>,
) -> f64 {
    // The row `Σ (a_i + Dσ b_i) ≤ room`.
    let slope = slope(ends);
    let room = row_room(cap, d, ends);
    if room < 0.0 {
        return 0.0;
    }
    let scale = cells as f64 / room;
    f.fill(0.0);
    for (k, &i) in items.iter().enumerate() {
        let (a, b, v) = terms[i];
        let w = ((a + d * slope * b) * scale).floor().max(0.0);
        if w > cells as f64 {
            continue;
        }
        let w = w as usize;
        relax(f, w, v, take.as_deref_mut().map(|t| t.row(k)));
    }
    f[cells]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The optimum by enumeration.
    fn brute(cap: f64, d: f64, terms: &[(f64, f64, f64)]) -> f64 {
        let n = terms.len();
        (0u32..1 << n)
            .filter_map(|m| {
                let (mut a, mut b, mut v) = (0.0, 0.0, 0.0);
                for (i, t) in terms.iter().enumerate() {
                    if m >> i & 1 == 1 {
                        (a, b, v) = (a + t.0, b + t.1, v + t.2);
                    }
                }
                (a + d * b.sqrt() <= cap * (1.0 + TOL)).then_some(v)
            })
            .fold(0.0, f64::max)
    }

    /// The first of `sets`, if any, is worth `value` (to 10⁻⁹ relative).
    fn first_set_is_worth(terms: &[(f64, f64, f64)], sets: &[Vec<usize>], value: f64, case: usize) {
        if let Some(set) = sets.first() {
            let v: f64 = set.iter().map(|&i| terms[i].2).sum();
            assert!(
                (v - value).abs() <= 1e-9 * (1.0 + value),
                "case {case}: set {v}, value {value}"
            );
        }
    }

    #[test]
    fn never_below_the_optimum_and_close_with_fine_cells() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut tightened = 0;
        for case in 0..200 {
            let n = rng.random_range(1..=12);
            let d = if case % 5 == 0 {
                0.0
            } else {
                rng.random_range(0.2..3.0)
            };
            let cap = 72.0;
            let terms: Vec<(f64, f64, f64)> = (0..n)
                .map(|_| {
                    (
                        rng.random_range(0.0..30.0),
                        rng.random_range(0.0..60.0),
                        rng.random_range(-0.2..1.0),
                    )
                })
                .collect();
            let opt = brute(cap, d, &terms);
            let none = Deadline::none();
            let coarse_with = |fine_cells| {
                bound(
                    cap,
                    d,
                    &terms,
                    Grid {
                        cells: 50,
                        chord_gap: 0.05,
                        fine_cells,
                        splits: 0,
                    },
                    1,
                    &none,
                )
                .unwrap()
            };
            let coarse = coarse_with(0).0;
            // Refined rows: still above the optimum, never above the unrefined bound, and
            // the best row's set is read at its refined cells (worth the refined value).
            let (refined, sets) = coarse_with(800);
            first_set_is_worth(&terms, &sets, refined, case);
            assert!(
                refined >= opt - 1e-12 && refined <= coarse + 1e-12,
                "case {case}: refined {refined}, coarse {coarse}, optimum {opt}"
            );
            if refined < coarse - 1e-9 {
                tightened += 1;
            }
            let (fine, sets) = bound(
                cap,
                d,
                &terms,
                Grid {
                    cells: 4000,
                    chord_gap: 0.001,
                    fine_cells: 0,
                    splits: 0,
                },
                2,
                &none,
            )
            .unwrap();
            // The best row's set is worth the row's value (it is its optimum).
            first_set_is_worth(&terms, &sets, fine, case);
            assert!(
                coarse >= opt - 1e-12,
                "case {case}: coarse {coarse} < {opt}"
            );
            assert!(fine >= opt - 1e-12, "case {case}: fine {fine} < {opt}");
            // The fine grid's optimal set is a bin of a capacity larger by the chord's gap
            // (0.1% of `c`) and 12 cells of at most `c`: its optimum bounds the bound.
            let roomier = brute(cap * (1.0 + 0.001 + 12.0 / 4000.0), d, &terms);
            assert!(
                fine <= roomier + 1e-9,
                "case {case}: fine {fine} > {roomier}"
            );
        }
        // The refinement is not vacuous: it lowers the coarse bound on many cases.
        assert!(tightened >= 30, "{tightened}");
    }

    #[test]
    fn a_passed_deadline_gives_no_bound() {
        let past = Deadline::after(Some(0.0));
        std::thread::sleep(std::time::Duration::from_millis(2));
        let terms = [(1.0, 1.0, 1.0)];
        assert!(bound(
            72.0,
            1.0,
            &terms,
            Grid {
                cells: 10,
                chord_gap: 0.01,
                fine_cells: 0,
                splits: 0,
            },
            1,
            &past
        )
        .is_none());
    }

    /// The rows read before and after their refinement (the pricing's lazy order): the
    /// first reading's best set is worth the unrefined bound and the second's the refined
    /// one, the refinement never raises the bound nor leaves it below the optimum, and it
    /// ends with nothing left to refine.
    #[test]
    fn rows_read_before_and_after_refining() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let none = Deadline::none();
        for case in 0..150 {
            let n = rng.random_range(1..=10);
            let d = rng.random_range(0.2..3.0);
            let terms: Vec<(f64, f64, f64)> = (0..n)
                .map(|_| {
                    (
                        rng.random_range(0.0..30.0),
                        rng.random_range(0.0..60.0),
                        rng.random_range(0.05..1.0),
                    )
                })
                .collect();
            let grid = Grid {
                cells: 40,
                chord_gap: 0.05,
                fine_cells: 640,
                splits: case % 3 * 4,
            };
            let worth = |set: &Vec<usize>| set.iter().map(|&i| terms[i].2).sum::<f64>();
            let mut rows = Rows::new(72.0, d, &terms, grid, &[], &none).unwrap();
            let coarse = rows.bound();
            let first = rows.sets(&terms, 1, &none);
            let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b);
            assert!(
                first
                    .first()
                    .is_none_or(|s| near(worth(s) * (1.0 + 1e-12 * (n as f64 + 1.0)), coarse)),
                "case {case}: first set {:?}, coarse {coarse}",
                first.first().map(worth)
            );
            let mut rows = rows.refine(&terms, &none).unwrap();
            assert!(!rows.refinable(&terms), "case {case}");
            let refined = rows.bound();
            let opt = brute(72.0, d, &terms);
            assert!(
                refined <= coarse + 1e-12 && refined >= opt - 1e-12,
                "case {case}: coarse {coarse}, refined {refined}, optimum {opt}"
            );
            // The top row's set is worth its value; a split half's value may be its whole's
            // (the least of the two), below its set's.
            let second = rows.sets(&terms, 1, &none);
            assert!(
                second.first().is_none_or(|s| {
                    let w = worth(s) * (1.0 + 1e-12 * (n as f64 + 1.0));
                    near(w, refined) || (grid.splits > 0 && w >= refined)
                }),
                "case {case}"
            );
        }
    }

    /// Splitting the piece that holds the bound: never below the optimum, never above the
    /// unsplit bound, and lower on many cases (long pieces: a chord gap of 5% of `c`).
    #[test]
    fn splitting_the_top_piece_tightens_a_valid_bound() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let none = Deadline::none();
        let mut tightened = 0;
        for case in 0..200 {
            let n = rng.random_range(1..=10);
            let d = rng.random_range(0.5..4.0);
            let terms: Vec<(f64, f64, f64)> = (0..n)
                .map(|_| {
                    (
                        rng.random_range(0.0..20.0),
                        rng.random_range(0.0..200.0),
                        rng.random_range(0.05..1.0),
                    )
                })
                .collect();
            let with = |splits| {
                let grid = Grid {
                    cells: 4000,
                    chord_gap: 0.05,
                    fine_cells: 4000,
                    splits,
                };
                bound(72.0, d, &terms, grid, 1, &none).unwrap().0
            };
            let (whole, split) = (with(0), with(12));
            let opt = brute(72.0, d, &terms);
            assert!(
                split >= opt - 1e-12 && split <= whole + 1e-12,
                "case {case}: whole {whole}, split {split}, optimum {opt}"
            );
            // Rows cut beforehand at random points (an earlier call's splits) bound too.
            let b_cap = (72.0f64 / d).powi(2);
            let cuts: Vec<f64> = (0..rng.random_range(0..6))
                .map(|_| rng.random_range(0.0..b_cap * 1.2))
                .collect();
            let grid = Grid {
                cells: 4000,
                chord_gap: 0.05,
                fine_cells: 4000,
                splits: 4,
            };
            let rows = Rows::new(72.0, d, &terms, grid, &cuts, &none).unwrap();
            let first = rows.bound();
            let rows = rows.refine(&terms, &none).unwrap();
            assert!(
                first >= opt - 1e-12 && rows.bound() >= opt - 1e-12,
                "case {case}: cut at {cuts:?}: {first}, refined {}, optimum {opt}",
                rows.bound()
            );
            assert!(rows.cuts().len() <= 4, "case {case}");
            if split < whole - 1e-9 {
                tightened += 1;
            }
        }
        assert!(tightened >= 30, "{tightened}");
    }
}
