//! Fewer bins by a consistent-neighbourhood search, after Buljubašić & Vasquez ("Consistent
//! neighborhood search for one-dimensional bin packing and two-dimensional vector packing",
//! Computers & Operations Research 2016): from a packing of `m` bins, two bins are emptied
//! into a *pool*; moves between the pool and the other `m − 2` bins — one or two pool items
//! into a bin for none, one or two of its items (at most three items in all) — keep every bin
//! within its capacity and lower the pool's weight, the weights of the items that stay in the
//! pool growing at each move; an item taken out of a bin may not go back into it for `tenure`
//! moves. Once the pool fits in one bin (or is empty), a packing of `m − 1` (`m − 2`) bins is
//! found and the search goes on from it. `cg` and `bp` run it once the root's integer bound
//! settles below the packing, or else after the root's column generation (then the search
//! stops at that bound), and, when `share_before_root` is set, briefly on best fit's packing
//! before the root. Seeded: the same seed and settings, the same packing (a time cap may end
//! it earlier). Model and measurements: models/packing.md §8, "Primal side".

use super::instance::Instance;
use crate::colgen::{partition, unit_columns, Column};
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Settings of the search (`[improve]` of the socbp settings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ImproveSettings {
    /// Moves of one attempt at one bin fewer (0: the search is off).
    pub moves: u32,
    /// Attempts (other pairs of bins emptied) at one count before the search gives up.
    pub attempts: u32,
    /// Moves during which an item taken out of a bin may not go back into it.
    pub tenure: u32,
    /// Growth of a pool item's weight per move it stays in the pool, relative to its size.
    pub weight_step: f64,
    /// Before the root: at most this share of the time left (0 by default: the search then
    /// runs only once the root's integer bound settles or its column generation ends; on the
    /// n = 400 set the same 33 proven without it, the 36 solves 339 → 306 s, and CloudSmall's
    /// median 1.25 → 0.07 s, models/packing.md §8, "Primal side") …
    pub share_before_root: f64,
    /// … and after the root, while a gap is left: at most this share of the time left …
    pub share_after_root: f64,
    /// … and at most this many seconds each time.
    pub max_seconds: f64,
    /// Seed of the choice of the bins emptied.
    pub seed: u64,
}

impl Default for ImproveSettings {
    fn default() -> Self {
        ImproveSettings {
            moves: 20_000,
            attempts: 12,
            tenure: 8,
            weight_step: 0.02,
            share_before_root: 0.0,
            share_after_root: 0.1,
            max_seconds: 20.0,
            seed: 1,
        }
    }
}

/// What the search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ImproveStats {
    /// Bins saved against the packing it started from.
    pub saved: usize,
    /// Attempts run.
    pub attempts: u32,
    /// Moves made in all.
    pub moves: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// The attempt a later call on the packing returned should start at: the first
    /// attempt at the last count plus those run to their end there.
    pub next_attempt: u32,
}

impl ImproveStats {
    /// The bins saved, moves and seconds of `runs` (before and after the root) as the
    /// certificate's `improve_saved`, `improve_moves` and `improve_seconds`.
    pub fn record(runs: &[ImproveStats], stats: &mut std::collections::BTreeMap<String, f64>) {
        let sum = |f: fn(&ImproveStats) -> f64| runs.iter().map(f).sum::<f64>();
        stats.insert("improve_saved".into(), sum(|d| d.saved as f64));
        stats.insert("improve_moves".into(), sum(|d| d.moves as f64));
        stats.insert("improve_seconds".into(), sum(|d| d.seconds));
    }
}

/// The search after the root, as the pricing oracle holds it: its settings (`None`: off),
/// the packing the root starts from, and what it found and did. It runs once: when the
/// root's integer bound settles ([`crate::colgen::Pricing::settled_packing`]) or else after
/// the root's column generation ([`crate::colgen::BranchPricing::improve_packing`]).
#[derive(Debug, Clone, Default)]
pub(super) struct AfterRoot {
    pub(super) settings: Option<ImproveSettings>,
    /// The attempt to start at (where the search before the root left off).
    pub(super) first_attempt: u32,
    /// The packing the root starts from.
    pub(super) start: Vec<Vec<usize>>,
    ran: bool,
    found: Option<Vec<Vec<usize>>>,
    pub(super) stats: ImproveStats,
}

impl AfterRoot {
    /// Once: fewer bins than `bins`, never below `bound`, within `share_after_root` of the
    /// time left; the size of the packing found, kept for [`AfterRoot::run`].
    fn search(
        &mut self,
        inst: &Instance,
        bins: Vec<Vec<usize>>,
        bound: u64,
        deadline: &Deadline,
    ) -> Option<u64> {
        if self.ran {
            return None;
        }
        self.ran = true;
        let settings = self.settings.as_ref()?;
        let phase = (settings.share_after_root, self.first_attempt);
        let (bins, did) = fewer_bins(inst, bins, bound as usize, settings, phase, deadline);
        self.stats = did;
        if did.saved == 0 {
            return None;
        }
        let len = bins.len() as u64;
        self.found = Some(bins);
        Some(len)
    }

    /// At the settled root: the search from the root's starting packing.
    pub(super) fn at_settle(
        &mut self,
        inst: &Instance,
        bound: u64,
        deadline: &Deadline,
    ) -> Option<u64> {
        let bins = std::mem::take(&mut self.start);
        self.search(inst, bins, bound, deadline)
    }

    /// After the root's column generation: the packing found (the search runs now if it has
    /// not yet), when it has fewer bins than `incumbent`.
    pub(super) fn run(
        &mut self,
        inst: &Instance,
        incumbent: &[Column],
        bound: u64,
        deadline: &Deadline,
    ) -> Option<Vec<Column>> {
        if !self.ran {
            self.search(inst, partition(inst.len(), incumbent), bound, deadline);
        }
        let found = self.found.take()?;
        (found.len() < incumbent.len()).then(|| unit_columns(&found))
    }
}

/// One bin: its items and their sums.
#[derive(Debug, Clone)]
struct Bin {
    items: Vec<usize>,
    a: f64,
    b: f64,
}

/// A subset of the pool (one or two items) with its sums and weight.
#[derive(Debug, Clone, Copy)]
struct Part {
    items: [usize; 2],
    len: usize,
    a: f64,
    b: f64,
    w: f64,
}

/// The best move found: pool part `p` (indices into the parts) into bin `k` for the bin's
/// items at positions `q`.
#[derive(Debug, Clone, Copy)]
struct Move {
    k: usize,
    q: [usize; 2],
    q_len: usize,
    p: usize,
    delta: f64,
}

/// The packing `bins` (every item once, every bin within capacity) with as few bins as the
/// search reaches, never below `floor`, within `share` of the time left (and
/// `max_seconds`; a share of 0: no search), and what it did. Its attempts are numbered from
/// `first_attempt` (a later call on the same packing skips the earlier call's first, fixed
/// one) and draw from the seed mixed with it. The result is a valid packing.
pub fn fewer_bins(
    inst: &Instance,
    bins: Vec<Vec<usize>>,
    floor: usize,
    settings: &ImproveSettings,
    (share, first_attempt): (f64, u32),
    deadline: &Deadline,
) -> (Vec<Vec<usize>>, ImproveStats) {
    let began = std::time::Instant::now();
    let deadline = deadline
        .keeping(|left| left * (1.0 - share.clamp(0.0, 1.0)))
        .capped(settings.max_seconds);
    let mut stats = ImproveStats {
        next_attempt: first_attempt,
        ..ImproveStats::default()
    };
    let start = bins.len();
    let mut best = bins;
    // A share of 0 is no search, with or without a time limit.
    'counts: while share > 0.0
        && settings.moves > 0
        && best.len() > floor.max(1)
        && !deadline.expired()
    {
        for attempt in first_attempt..first_attempt + settings.attempts {
            if deadline.expired() {
                break 'counts;
            }
            stats.attempts += 1;
            let (found, moves) = attempt_fewer(inst, &best, attempt, settings, &deadline);
            stats.moves += moves;
            if found.is_none() && !deadline.expired() {
                stats.next_attempt = attempt + 1;
            }
            if let Some(b) = found {
                log::debug!(
                    "socbp improve: {} → {} bins (attempt {attempt}, {} moves in all, {:.2} s)",
                    best.len(),
                    b.len(),
                    stats.moves,
                    began.elapsed().as_secs_f64()
                );
                best = b;
                stats.next_attempt = first_attempt;
                continue 'counts;
            }
        }
        break;
    }
    stats.saved = start - best.len();
    stats.seconds = began.elapsed().as_secs_f64();
    (best, stats)
}

/// One attempt: two bins emptied (attempt 0: the two least loaded; attempt `k > 0`: the
/// least loaded and another of the lighter half, drawn from the seed plus `k`), then the
/// moves. A packing of fewer bins, or `None`, and the moves made.
fn attempt_fewer(
    inst: &Instance,
    packing: &[Vec<usize>],
    attempt: u32,
    settings: &ImproveSettings,
    deadline: &Deadline,
) -> (Option<Vec<Vec<usize>>>, u64) {
    let m = packing.len();
    if m < 2 {
        return (None, 0);
    }
    let load = |items: &[usize]| {
        let (a, b) = inst.sums(items);
        inst.load(a, b)
    };
    let mut order: Vec<usize> = (0..m).collect();
    let loads: Vec<f64> = packing.iter().map(|b| load(b)).collect();
    order.sort_by(|&x, &y| loads[x].total_cmp(&loads[y]).then(x.cmp(&y)));
    let (r1, r2) = if attempt == 0 {
        (order[0], order[1])
    } else {
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed.wrapping_add(u64::from(attempt)));
        let half = (m / 2).max(2);
        let pick = rng.random_range(1..half);
        (order[0], order[pick])
    };
    let mut bins: Vec<Bin> = Vec::with_capacity(m - 2);
    let mut pool: Vec<usize> = Vec::new();
    for (k, items) in packing.iter().enumerate() {
        if k == r1 || k == r2 {
            pool.extend_from_slice(items);
        } else {
            let (a, b) = inst.sums(items);
            bins.push(Bin {
                items: items.clone(),
                a,
                b,
            });
        }
    }
    let c = inst.capacity;
    let n = inst.len();
    // The weights: each item's size alone (relative to the capacity), plus what it gained
    // staying in the pool.
    let mut weight: Vec<f64> = (0..n).map(|i| inst.size(i) / c).collect();
    // Per item: the bin it may not re-enter and the move until which it may not.
    let mut barred: Vec<(usize, u64)> = vec![(usize::MAX, 0); n];
    let mut moves = 0u64;
    let mut parts: Vec<Part> = Vec::new();
    let mut least = f64::INFINITY;
    loop {
        let (pa, pb) = inst.sums(&pool);
        least = least.min(inst.load(pa, pb) / c);
        if inst.fits(pa, pb) {
            let mut out: Vec<Vec<usize>> = bins.into_iter().map(|b| b.items).collect();
            if !pool.is_empty() {
                out.push(pool);
            }
            return (Some(out), moves);
        }
        if moves >= u64::from(settings.moves) || (moves.is_multiple_of(16) && deadline.expired()) {
            log::trace!(
                "socbp improve: attempt {attempt} ends, the pool's least load {least:.4}·c"
            );
            return (None, moves);
        }
        pool_parts(inst, &pool, &weight, &mut parts);
        let Some(mv) = best_move(inst, &bins, &parts, &weight, &barred, moves) else {
            return (None, moves);
        };
        moves += 1;
        // Apply: the bin's items at `q` to the pool, the part into the bin.
        let bin = &mut bins[mv.k];
        let mut q_items: Vec<usize> = mv.q[..mv.q_len].iter().map(|&x| bin.items[x]).collect();
        q_items.sort_unstable();
        bin.items.retain(|i| !q_items.contains(i));
        let part = parts[mv.p];
        let p_items = &part.items[..part.len];
        bin.items.extend_from_slice(p_items);
        (bin.a, bin.b) = inst.sums(&bin.items);
        debug_assert!(inst.fits(bin.a, bin.b));
        pool.retain(|i| !p_items.contains(i));
        for &i in &q_items {
            pool.push(i);
            barred[i] = (mv.k, moves + u64::from(settings.tenure));
        }
        for &i in &pool {
            weight[i] += settings.weight_step * inst.size(i) / c;
        }
    }
}

/// The pool's parts of one and two items, by decreasing weight.
fn pool_parts(inst: &Instance, pool: &[usize], weight: &[f64], parts: &mut Vec<Part>) {
    parts.clear();
    for (x, &i) in pool.iter().enumerate() {
        parts.push(Part {
            items: [i, usize::MAX],
            len: 1,
            a: inst.a[i],
            b: inst.b[i],
            w: weight[i],
        });
        for &j in &pool[x + 1..] {
            parts.push(Part {
                items: [i, j],
                len: 2,
                a: inst.a[i] + inst.a[j],
                b: inst.b[i] + inst.b[j],
                w: weight[i] + weight[j],
            });
        }
    }
    parts.sort_by(|x, y| y.w.total_cmp(&x.w).then(x.items.cmp(&y.items)));
}

/// The move of least `delta` (the pool's weight after less before) among those not barred:
/// for each bin and each choice `q` of none, one or two of its items, the heaviest part that
/// fits in its place (parts by decreasing weight, so the first that fits is that choice's
/// best). At most three items move.
fn best_move(
    inst: &Instance,
    bins: &[Bin],
    parts: &[Part],
    weight: &[f64],
    barred: &[(usize, u64)],
    now: u64,
) -> Option<Move> {
    let heaviest = parts.first()?.w;
    let mut best: Option<Move> = None;
    let is_barred = |part: &Part, k: usize| {
        part.items[..part.len]
            .iter()
            .any(|&i| barred[i].0 == k && barred[i].1 > now)
    };
    for (k, bin) in bins.iter().enumerate() {
        let len = bin.items.len();
        // (q, its length, Σa, Σb, weight) for q = ∅, singles, pairs.
        let mut consider = |q: [usize; 2], q_len: usize, qa: f64, qb: f64, qw: f64| {
            let bound = best.map_or(f64::INFINITY, |m| m.delta);
            if qw - heaviest >= bound {
                return;
            }
            let (ra, rb) = (bin.a - qa, bin.b - qb);
            for (p, part) in parts.iter().enumerate() {
                if qw - part.w >= bound {
                    break;
                }
                if part.len + q_len > 3 {
                    continue;
                }
                if inst.fits(ra + part.a, rb + part.b) && !is_barred(part, k) {
                    best = Some(Move {
                        k,
                        q,
                        q_len,
                        p,
                        delta: qw - part.w,
                    });
                    break;
                }
            }
        };
        consider([0, 0], 0, 0.0, 0.0, 0.0);
        for x in 0..len {
            let i = bin.items[x];
            let wi = weight[i];
            consider([x, 0], 1, inst.a[i], inst.b[i], wi);
            for y in x + 1..len {
                let j = bin.items[y];
                consider(
                    [x, y],
                    2,
                    inst.a[i] + inst.a[j],
                    inst.b[i] + inst.b[j],
                    wi + weight[j],
                );
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::selfcheck::{brute, random_case};
    use super::super::solve::fit_decreasing;
    use super::*;

    /// Every item once, every bin within its capacity.
    fn assert_packing(inst: &Instance, bins: &[Vec<usize>], case: usize) {
        let mut seen = vec![0u32; inst.len()];
        for bin in bins {
            assert!(!bin.is_empty(), "case {case}: an empty bin");
            for &i in bin {
                seen[i] += 1;
            }
            let (a, b) = inst.sums(bin);
            assert!(inst.fits(a, b), "case {case}: bin {bin:?} over capacity");
        }
        assert!(seen.iter().all(|&s| s == 1), "case {case}: {seen:?}");
    }

    #[test]
    fn fewer_bins_keeps_a_packing_and_never_beats_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let settings = ImproveSettings {
            moves: 300,
            ..ImproveSettings::default()
        };
        let mut saved = 0;
        for case in 0..300 {
            let inst = random_case(&mut rng, case);
            let opt = brute(&inst);
            // From one bin per item (the worst start) and from best fit.
            for start in [
                (0..inst.len()).map(|i| vec![i]).collect::<Vec<_>>(),
                fit_decreasing(&inst, true),
            ] {
                let m = start.len();
                let (bins, stats) =
                    fewer_bins(&inst, start, 1, &settings, (1.0, 0), &Deadline::none());
                assert_packing(&inst, &bins, case);
                assert!(
                    bins.len() >= opt,
                    "case {case}: {} < optimum {opt}",
                    bins.len()
                );
                assert_eq!(stats.saved, m - bins.len(), "case {case}");
                saved += stats.saved;
            }
        }
        assert!(saved > 0, "the search never saved a bin");
    }

    #[test]
    fn fewer_bins_reaches_the_optimum_from_singletons_on_most_tiny_cases() {
        // A heuristic, so not always; but from one bin per item it must do far better than
        // its start, and as well as best fit on nearly every tiny case.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut at_opt, cases) = (0, 200);
        for case in 0..cases {
            let inst = random_case(&mut rng, case);
            let opt = brute(&inst);
            let start: Vec<Vec<usize>> = (0..inst.len()).map(|i| vec![i]).collect();
            let (bins, _) = fewer_bins(
                &inst,
                start,
                opt,
                &ImproveSettings::default(),
                (1.0, 0),
                &Deadline::none(),
            );
            at_opt += usize::from(bins.len() == opt);
        }
        assert!(
            at_opt * 10 >= cases * 9,
            "{at_opt} of {cases} at the optimum"
        );
    }

    #[test]
    fn fewer_bins_is_reproducible() {
        let inst = crate::socbp::generate::generate(&crate::socbp::generate::Spec {
            items: 200,
            capacity: 72.0,
            kind: Some(crate::socbp::generate::Kind::H),
            alpha: Some(0.95),
            datagen: true,
            d: None,
            a_min: None,
            a_max: None,
            b_max: None,
            seed: 3,
        });
        let start = fit_decreasing(&inst, true);
        // No time cap: the moves alone decide where it ends.
        let settings = ImproveSettings {
            moves: 3_000,
            attempts: 4,
            max_seconds: f64::INFINITY,
            ..ImproveSettings::default()
        };
        let one = fewer_bins(
            &inst,
            start.clone(),
            1,
            &settings,
            (1.0, 0),
            &Deadline::none(),
        );
        let two = fewer_bins(&inst, start, 1, &settings, (1.0, 0), &Deadline::none());
        assert_packing(&inst, &one.0, 0);
        assert_eq!(one.0, two.0);
        assert_eq!(one.1.moves, two.1.moves);
        assert!(one.1.moves > 0, "the search did not run");
    }
}
