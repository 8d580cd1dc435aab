//! A lower bound on the least makespan at the paper's scale by column generation on
//! [`crate::colgen`] (models/evolving.md §5.3): the *configuration LP*.
//!
//! A configuration is a set of steps that may run at one instant: at most one step per app
//! (an app's steps are sequential) and `Σ n ≤ N`. In any schedule, whatever the expand limit
//! and the order, the steps running at time `t` form a configuration, and step `s` runs for at
//! least `d_s` (the first and last steps exactly, a middle one `≥ d_s`). Writing `x_C` for the
//! time configuration `C` runs, `makespan ≥ Σ_C x_C` with `Σ_{C ∋ s} x_C ≥ d_s` for every step:
//! the covering LP `min Σ x_C` is a lower bound on every makespan. It drops the order of an
//! app's steps and their contiguity, keeps capacity and the one-step-per-app rule, so it
//! implies both closed-form bounds (the longest app and the area over `N`) and the
//! disjunctive ones (two steps with `n_a + n_b > N` never overlap).
//!
//! The pricing is a multiple-choice knapsack (one item per app at most, integer weights `n`,
//! capacity `N`), solved exactly by dynamic programming over capacity. Its exactness makes any
//! duals a certificate: for `π ≥ 0` and `v = max_C π(C) > 0`, `π/v` is dual feasible, so
//! `makespan ≥ ⌈π·d / v⌉` (integer seconds). [`DualProof`] keeps `π`; `verify` recomputes `v`
//! from the instance alone.

use super::instance::Instance;
use crate::colgen::{self, CgSettings, Priced, Pricing};
use crate::error::Result;
use crate::outcome::ceil_with_tolerance;
use crate::solver::{CoveringLp, Deadline};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Settings of the configuration-LP bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoundSettings {
    /// The column-generation loop (iteration cap, tolerances, stopping rules).
    pub cg: CgSettings,
    /// Largest `N` the pricing's table over capacity is built for (memory `apps × N`); above
    /// it the bound stays the closed form.
    pub max_nodes: i64,
}

impl Default for BoundSettings {
    fn default() -> Self {
        BoundSettings {
            cg: CgSettings::default(),
            max_nodes: 1_000_000,
        }
    }
}

/// Dual weights `π_s ≥ 0`, one per step (per app, in step order): a checkable proof of
/// `makespan ≥ ⌈π·d / max_C π(C)⌉`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DualProof {
    /// `weights[i][k]`: step `k` of app `i`.
    pub weights: Vec<Vec<f64>>,
}

impl DualProof {
    /// The makespan bound the weights prove on `inst`, recomputed exactly; `Err` for weights
    /// that do not fit the instance.
    pub fn bound(&self, inst: &Instance) -> std::result::Result<i64, String> {
        if self.weights.len() != inst.apps.len() {
            return Err(format!(
                "{} weight lists for {} apps",
                self.weights.len(),
                inst.apps.len()
            ));
        }
        let mut value = 0.0;
        for (i, (w, app)) in self.weights.iter().zip(&inst.apps).enumerate() {
            if w.len() != app.steps.len() {
                return Err(format!(
                    "app {i}: {} weights for {} steps",
                    w.len(),
                    app.steps.len()
                ));
            }
            if let Some(x) = w.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
                return Err(format!("app {i}: weight {x} is not a finite number ≥ 0"));
            }
            // Rounded down (`colgen::safe`): the bound recomputed here is at most the exact one.
            value = crate::colgen::safe::sum_down(
                std::iter::once(value).chain(
                    w.iter()
                        .zip(&app.steps)
                        .map(|(x, s)| (x * s.duration as f64).next_down()),
                ),
            );
        }
        if inst.nodes > BoundSettings::default().max_nodes.max(1) {
            return Err(format!("N = {} is too large to check", inst.nodes));
        }
        let best = Knapsack::new(inst).best(&self.weights).0;
        if best <= 0.0 {
            return Ok(0);
        }
        Ok(ceil_with_tolerance(crate::colgen::safe::ratio_down(value, best)) as i64)
    }
}

/// The pricing: steps grouped by app, at most one per group, `Σ n ≤ N`.
struct Knapsack {
    cap: usize,
    /// Per app, per step: `(row, nodes)`.
    groups: Vec<Vec<(usize, usize)>>,
}

impl Knapsack {
    fn new(inst: &Instance) -> Knapsack {
        let mut row = 0;
        let groups = inst
            .apps
            .iter()
            .map(|a| {
                a.steps
                    .iter()
                    .map(|s| {
                        row += 1;
                        (row - 1, s.nodes.max(0) as usize)
                    })
                    .collect()
            })
            .collect();
        Knapsack {
            cap: inst.nodes.max(0) as usize,
            groups,
        }
    }

    /// The most valuable configuration under per-step values `value[i][k]` (exact), and its
    /// rows.
    fn best(&self, value: &[Vec<f64>]) -> (f64, Vec<usize>) {
        let width = self.cap + 1;
        let mut f = vec![0.0f64; width];
        // pick[g][c]: step of group g taken at capacity c (u32::MAX: none).
        let mut pick: Vec<Vec<u32>> = Vec::with_capacity(self.groups.len());
        for (g, steps) in self.groups.iter().enumerate() {
            let mut next = f.clone();
            let mut choice = vec![u32::MAX; width];
            for (k, &(_, n)) in steps.iter().enumerate() {
                let v = value[g][k];
                if v <= 0.0 || n > self.cap {
                    continue;
                }
                for c in n..width {
                    let cand = f[c - n] + v;
                    if cand > next[c] {
                        next[c] = cand;
                        choice[c] = k as u32;
                    }
                }
            }
            f = next;
            pick.push(choice);
        }
        let mut c = self.cap;
        let best = f[c];
        let mut rows = Vec::new();
        for (g, choice) in pick.iter().enumerate().rev() {
            let k = choice[c];
            if k != u32::MAX {
                let (row, n) = self.groups[g][k as usize];
                rows.push(row);
                c -= n;
            }
        }
        rows.reverse();
        (best, rows)
    }

    fn split(&self, flat: &[f64]) -> Vec<Vec<f64>> {
        self.groups
            .iter()
            .map(|g| g.iter().map(|&(r, _)| flat[r].max(0.0)).collect())
            .collect()
    }
}

impl Pricing for Knapsack {
    fn price(&mut self, duals: &[f64], _deadline: &Deadline) -> Result<Priced> {
        let (best, rows) = self.best(&self.split(duals));
        Ok(Priced {
            columns: vec![(rows.iter().map(|&r| (r, 1.0)).collect(), best)],
            proven_max: Some(best),
            upper_bound: None,
            nodes: 1,
        })
    }
}

/// What the bound found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CgBound {
    /// A lower bound on the makespan of every schedule (seconds), whatever the expand limit
    /// and the order; at least the closed form.
    pub makespan: i64,
    /// The weights behind it when it beats the closed form.
    pub proof: Option<DualProof>,
    /// The LP's value when column generation converged (the best this bound can reach).
    pub lp_value: Option<f64>,
    /// Master LP solves.
    pub iterations: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The configuration-LP bound of `inst`, stopping at `deadline` with what it has proven.
pub fn makespan_bound(
    inst: &Instance,
    settings: &BoundSettings,
    deadline: &Deadline,
) -> Result<CgBound> {
    let began = Instant::now();
    let closed = super::makespan_lower_bound(inst);
    let mut out = CgBound {
        makespan: closed,
        proof: None,
        lp_value: None,
        iterations: 0,
        seconds: 0.0,
    };
    let steps: Vec<f64> = inst
        .apps
        .iter()
        .flat_map(|a| a.steps.iter().map(|s| s.duration as f64))
        .collect();
    if steps.is_empty() || inst.nodes > settings.max_nodes {
        return Ok(out);
    }
    let mut pricing = Knapsack::new(inst);
    let mut master = CoveringLp::new(&steps);
    for r in 0..steps.len() {
        master.add_column(vec![(r, 1.0)])?;
    }
    let cg = colgen::run(
        &mut master,
        &mut pricing,
        &settings.cg,
        closed as f64,
        deadline,
    )?;
    out.iterations = cg.iterations.len();
    if cg.termination == colgen::Termination::Converged {
        out.lp_value = Some(cg.master_value);
    }
    if let Some(duals) = cg.bound_duals {
        let proof = DualProof {
            weights: pricing.split(&duals),
        };
        // The bound is what the weights prove, recomputed: the loop's own figure carries
        // its tolerances.
        if let Ok(b) = proof.bound(inst) {
            if b > out.makespan {
                out.makespan = b;
                out.proof = Some(proof);
            }
        }
    }
    out.seconds = began.elapsed().as_secs_f64();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolving::brute;
    use crate::evolving::generate::{generate, GenSpec};
    use crate::evolving::ExpandLimit;

    /// The knapsack DP equals enumeration of every configuration.
    #[test]
    fn pricing_equals_enumeration() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        let spec = GenSpec {
            apps: [1, 4],
            steps: [1, 3],
            duration: [1, 4],
            step_nodes: [1, 6],
            nodes: 8,
        };
        for seed in 0..200 {
            let inst = generate(&spec, seed);
            let k = Knapsack::new(&inst);
            let values: Vec<Vec<f64>> = inst
                .apps
                .iter()
                .map(|a| {
                    a.steps
                        .iter()
                        .map(|_| f64::from(rng.random_range(0..8u32)) / 3.0)
                        .collect()
                })
                .collect();
            let (best, rows) = k.best(&values);
            // Enumerate: each app picks none or one step.
            let mut brute = 0.0f64;
            let mut choice = vec![0usize; inst.apps.len()];
            loop {
                let (mut v, mut n) = (0.0, 0);
                for (i, &c) in choice.iter().enumerate() {
                    if c > 0 {
                        v += values[i][c - 1];
                        n += inst.apps[i].steps[c - 1].nodes;
                    }
                }
                if n <= inst.nodes {
                    brute = brute.max(v);
                }
                let mut i = 0;
                while i < choice.len() {
                    choice[i] += 1;
                    if choice[i] <= inst.apps[i].steps.len() {
                        break;
                    }
                    choice[i] = 0;
                    i += 1;
                }
                if i == choice.len() {
                    break;
                }
            }
            assert!(
                (best - brute).abs() < 1e-9,
                "seed {seed}: dp {best} brute {brute}"
            );
            let flat: Vec<f64> = values.iter().flatten().copied().collect();
            let again: f64 = rows.iter().map(|&r| flat[r]).sum();
            assert!(
                (again - best).abs() < 1e-9,
                "seed {seed}: the configuration is worth {again}"
            );
        }
    }

    /// Never above the least makespan (brute force) under the loosest limit, never below the
    /// closed form, its proof re-checks, and it beats the closed form somewhere.
    #[test]
    fn bound_is_valid_on_tiny_instances() {
        let spec = GenSpec {
            apps: [2, 4],
            steps: [1, 3],
            duration: [1, 4],
            step_nodes: [1, 5],
            nodes: 6,
        };
        let mut beaten = 0;
        for seed in 0..80 {
            let inst = generate(&spec, seed);
            let opt = brute::exact(
                &inst,
                ExpandLimit::Infinite,
                brute::Objective::Makespan,
                None,
                200,
                50_000_000,
            )
            .expect("tiny instance")
            .value;
            let b = makespan_bound(&inst, &BoundSettings::default(), &Deadline::none()).unwrap();
            let closed = super::super::makespan_lower_bound(&inst);
            assert!(
                b.makespan <= opt,
                "seed {seed}: bound {} > optimum {opt}",
                b.makespan
            );
            assert!(b.makespan >= closed);
            if let Some(p) = &b.proof {
                assert_eq!(
                    p.bound(&inst),
                    Ok(b.makespan),
                    "seed {seed}: the proof re-checks"
                );
            }
            if let Some(lp) = b.lp_value {
                assert!(b.makespan as f64 <= lp.ceil() + 1e-6, "seed {seed}");
            }
            beaten += usize::from(b.makespan > closed);
        }
        assert!(beaten > 0, "the LP bound never beat the closed form");
    }
}
