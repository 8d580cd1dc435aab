//! The proofs of an SOC packing's lower bound and their re-derivation (issue 37,
//! models/proofs.md): `volume` in closed form, the root's Farley bound (`pricing`:
//! the best bin under the duals re-proved by the knapsack below, independent of the solve's),
//! the tree (`search`, re-run by `--deep`).
//!
//! The knapsack: depth-first over items in decreasing dual, every bin checked by the
//! instance's own `fits`, bounded by the fractional knapsack of three linear rows every bin
//! satisfies — `Σa ≤ c'`, `Σb ≤ (c'/D)²` and the chord `Σa + D·Σb/√B ≤ c'` (`√x ≥ x/√B` on
//! `[0, B]`, `B = (c'/D)²`), with `c' = c(1 + TOL)` as `fits` allows. Sums err by at most
//! `n·2⁻⁵³` relative, inside the margin [`safe::widened`] adds.

use super::instance::Instance;
use super::solve::{solve, Method, Settings, Solution};
use crate::colgen::safe;
use crate::problem::proof::{check_covering, check_duals, Unproved};
use crate::problem::{BoundCheck, Depth, Proof};
use crate::solver::Deadline;

/// Nodes of the knapsack before it gives up.
const SEARCH_NODES: u64 = 5_000_000;

/// A pricing proof of the bound `lp` by the duals `pi` (one per item).
pub(super) fn pricing(pi: &[f64], lp: f64) -> Proof {
    Proof::pricing(pi, pi.iter().map(|p| p.max(0.0)).sum(), lp)
}

/// Re-derives the bound of `sol`.
pub fn check(inst: &Instance, sol: &Solution, depth: Depth) -> BoundCheck {
    check_covering(
        &sol.certificate,
        inst.volume_bound() as f64,
        depth,
        |duals, best| farley(inst, duals, best, sol.certificate.bound),
        |d| solve(inst, Method::Bp, &Settings::default(), d).map(|s| s.certificate.bound),
    )
}

/// `π·1 / max(1, v)` (before the ceiling) with `v` the proven best bin under `pi`, rounded
/// outward. With the certificate's `claimed` bound (an integer, the ceiling of the bound
/// proved), `v` need not be the best bin's value: any `v` with `⌈π·1 / v⌉ ≥ claimed` proves
/// it, so the re-proof only shows that no bin is worth more than [`enough`] (or the best bin's
/// value, whichever is larger) — a weaker statement the pricing's relaxations settle sooner.
pub fn farley(
    inst: &Instance,
    pi: &[f64],
    best: f64,
    claimed: Option<f64>,
) -> Result<f64, Unproved> {
    check_duals(pi, inst.len(), "items")?;
    let ones = vec![1.0; pi.len()];
    let covered = safe::covered_down(pi, &ones);
    let enough = claimed.map_or(0.0, |c| enough(covered, c));
    let v = by_pricing(inst, pi, best, enough)
        .or_else(|| best_bin(inst, pi, enough))
        .ok_or_else(|| {
            Unproved::Budget(
                "the best bin under the proof's duals was not proved within the node budget".into(),
            )
        })?;
    Ok(safe::farley_from(covered, v))
}

/// The largest best-bin value `v` that still proves the bound `claimed` from the covered value
/// `covered = π·1` (rounded down): `covered / ((claimed − 1)(1 + 10⁻⁷))`, whose Farley bound
/// `covered / (v·(1 + 2·10⁻⁹))` lies above `claimed − 1` by more than the ceiling's tolerance
/// (10⁻⁹ relative); 0 (no help) for a claim below 2.
pub fn enough(covered: f64, claimed: f64) -> f64 {
    if !(claimed.is_finite() && claimed >= 2.0 && covered > 0.0) {
        return 0.0;
    }
    (covered / ((claimed - 1.0) * (1.0 + 1e-7)).next_up()).next_down()
}

/// The claimed best value `best` re-proved by the family's exact pricing ([`SocKnapsack`]):
/// priced at `π / best`, aimed at `max(floor, enough / best)` (`floor = 1 + improvement_tol`),
/// a complete search or a relaxation's bound (the grid bound, the root's chord and
/// Lagrangian bounds) at most that aim, with no bin found above it, proves
/// `max π·a ≤ aim·best`, the value returned; `None` when it does not (a bin above the aim,
/// or neither proof).
fn by_pricing(inst: &Instance, pi: &[f64], best: f64, enough: f64) -> Option<f64> {
    use crate::colgen::Pricing;
    if !(best.is_finite() && best > 0.0) {
        return None;
    }
    let settings = super::PricingSettings::default();
    let aim = (1.0 + settings.improvement_tol).max(enough / best);
    let scaled: Vec<f64> = pi.iter().map(|p| p.max(0.0) / best).collect();
    let mut oracle = super::SocKnapsack::new(inst, settings);
    // Only `max ≤ aim` is asked: the search prunes there (a root bound at most the aim ends
    // it at once).
    oracle.aim(aim);
    let priced = oracle
        .price(&scaled, &Deadline::after(Some(PRICING_SECONDS)))
        .ok()?;
    let top = priced.columns.iter().map(|c| c.1).fold(0.0, f64::max);
    // A completed search's value, or an upper bound of the pricing's relaxations (the grid,
    // chord and Lagrangian root bounds): either proves that no bin is worth more.
    let proven = priced.max_bound()?;
    (top <= aim && proven <= aim).then(|| (aim * best).next_up())
}

/// Seconds the family's pricing may take to re-prove a value.
const PRICING_SECONDS: f64 = 30.0;

/// An upper bound on the best bin's `Σπ`, at least `enough` (the search only shows that no
/// bin is worth more than the larger of the two), `None` when it ran out of nodes.
pub fn best_bin(inst: &Instance, pi: &[f64], enough: f64) -> Option<f64> {
    let mut items: Vec<usize> = (0..inst.len())
        .filter(|&i| pi[i] > 0.0 && inst.fits(inst.a[i], inst.b[i]))
        .collect();
    items.sort_by(|&x, &y| pi[y].total_cmp(&pi[x]));
    let cap = inst.capacity * (1.0 + super::instance::TOL);
    // The rows: Σa ≤ c', and with D > 0, Σb ≤ (c'/D)² and the chord Σa + Σb·D²/c' ≤ c'.
    let mut weights: Vec<Vec<f64>> = vec![items.iter().map(|&i| inst.a[i]).collect()];
    let mut caps = vec![cap];
    if inst.d > 0.0 {
        let chord = inst.d * inst.d / cap;
        weights.push(items.iter().map(|&i| inst.b[i]).collect());
        caps.push((cap / inst.d).powi(2));
        weights.push(
            items
                .iter()
                .map(|&i| inst.a[i] + inst.b[i] * chord)
                .collect(),
        );
        caps.push(cap);
    }
    let orders = weights
        .iter()
        .map(|w| {
            let mut o: Vec<usize> = (0..items.len()).collect();
            let ratio = |p: usize| pi[items[p]] / w[p].max(1e-300);
            o.sort_by(|&x, &y| ratio(y).total_cmp(&ratio(x)));
            o
        })
        .collect();
    let rows = weights.len();
    let mut k = Search {
        inst,
        pi,
        items,
        weights,
        caps,
        orders,
        best: enough.max(0.0),
        nodes: 0,
    };
    let complete = k.dfs(0, 0.0, (0.0, 0.0), &mut vec![0.0; rows]);
    complete.then_some(k.best)
}

struct Search<'a> {
    inst: &'a Instance,
    pi: &'a [f64],
    items: Vec<usize>,
    /// Per row, the weight of each item (positions in `items`).
    weights: Vec<Vec<f64>>,
    caps: Vec<f64>,
    /// Per row, the positions in decreasing `π / weight`.
    orders: Vec<Vec<usize>>,
    best: f64,
    nodes: u64,
}

impl Search<'_> {
    /// The least of the rows' fractional bounds on what items `k..` can add.
    fn bound(&self, k: usize, used: &[f64]) -> f64 {
        let mut least = f64::INFINITY;
        for (r, w) in self.weights.iter().enumerate() {
            let mut left = (self.caps[r] - used[r]).max(0.0);
            let mut add = 0.0;
            for &p in self.orders[r].iter().filter(|&&p| p >= k) {
                let v = self.pi[self.items[p]];
                if w[p] <= left {
                    left -= w[p];
                    add += v;
                } else {
                    add += v * left / w[p];
                    break;
                }
            }
            least = least.min(add);
        }
        least
    }

    /// False when the node budget ran out.
    fn dfs(&mut self, k: usize, value: f64, sums: (f64, f64), used: &mut Vec<f64>) -> bool {
        self.nodes += 1;
        if self.nodes > SEARCH_NODES {
            return false;
        }
        self.best = self.best.max(value);
        if k == self.items.len() || value + self.bound(k, used) <= self.best {
            return true;
        }
        let i = self.items[k];
        let (a, b) = (sums.0 + self.inst.a[i], sums.1 + self.inst.b[i]);
        if self.inst.fits(a, b) {
            for (r, u) in used.iter_mut().enumerate() {
                *u += self.weights[r][k];
            }
            let ok = self.dfs(k + 1, value + self.pi[i], (a, b), used);
            for (r, u) in used.iter_mut().enumerate() {
                *u -= self.weights[r][k];
            }
            if !ok {
                return false;
            }
        }
        self.dfs(k + 1, value, sums, used)
    }
}
