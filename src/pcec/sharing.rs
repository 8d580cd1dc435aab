//! The min/max/share sharing model of §II.A: how a PM's capacity `pCap` is split among its VMs
//! under given demands, and the two metrics built on it, EC (§II.B, Eq. 1) and PC (§II.C).
//!
//! The allocation is the water level `λ` of `α_k = min(δ̄_k, min_k + share_k·λ)` with
//! `δ̄_k = min(δ_k, max_k)`: the largest `λ` with `Σ α ≤ pCap` (∞ when `Σ δ̄ ≤ pCap`).
//! [`water_fill`] finds it in O(m log m) by sorting breakpoints; [`iterative_fill`] is the
//! paper's capping-and-redistribution procedure, kept as an independent oracle.

use serde::{Deserialize, Serialize};

/// The sharing parameters of one VM (§II.A): guaranteed `min`, ceiling `max`, and the `share`
/// that weighs its part of the capacity left over after every guarantee.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VmSpec {
    /// Guaranteed capacity while the VM has work (same unit as `pCap`).
    pub min: f64,
    /// Capacity the VM may never exceed.
    pub max: f64,
    /// Weight of the VM in the split of the excess capacity; must be positive.
    pub share: f64,
}

impl Default for VmSpec {
    /// The paper's data-centre setting (§III.B): min 0, max 1, equal shares.
    fn default() -> Self {
        VmSpec {
            min: 0.0,
            max: 1.0,
            share: 1.0,
        }
    }
}

/// An allocation of a PM's capacity: one rate per VM and the water level that produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Allocation {
    /// `α_k`, the capacity given to VM k.
    pub rates: Vec<f64>,
    /// `λ`, the level; `f64::INFINITY` when every capped demand fits (no contention).
    pub level: f64,
}

/// `δ̄_k = min(δ_k, max_k)`, never negative.
fn capped(spec: &VmSpec, demand: f64) -> f64 {
    demand.min(spec.max).max(0.0)
}

/// The water-filling allocation in O(m log m). Precondition (checked by every input
/// validator): `Σ min ≤ pCap`, `share > 0`, finite values, `specs.len() == demands.len()`.
pub fn water_fill(pcap: f64, specs: &[VmSpec], demands: &[f64]) -> Allocation {
    debug_assert_eq!(specs.len(), demands.len());
    let dbar: Vec<f64> = specs
        .iter()
        .zip(demands)
        .map(|(s, &d)| capped(s, d))
        .collect();
    if dbar.iter().sum::<f64>() <= pcap {
        return Allocation {
            rates: dbar,
            level: f64::INFINITY,
        };
    }
    // VMs whose capped demand exceeds their guarantee grow with λ until their breakpoint.
    let mut growing: Vec<(f64, usize)> = Vec::with_capacity(specs.len());
    let mut fixed = 0.0; // Σ of what does not grow with λ at the current level
    let mut slope = 0.0; // Σ share of the VMs still growing
    for (k, s) in specs.iter().enumerate() {
        fixed += dbar[k].min(s.min);
        if dbar[k] > s.min {
            growing.push(((dbar[k] - s.min) / s.share, k));
            slope += s.share;
        }
    }
    growing.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut level = 0.0;
    for &(bp, k) in &growing {
        if fixed + slope * bp >= pcap {
            level = ((pcap - fixed) / slope).max(0.0);
            break;
        }
        fixed += dbar[k] - specs[k].min;
        slope -= specs[k].share;
        level = bp;
    }
    let rates = specs
        .iter()
        .zip(&dbar)
        .map(|(s, &d)| d.min(s.min + s.share * level))
        .collect();
    Allocation { rates, level }
}

/// The paper's procedure (§II.B): give every contending VM its min plus its share of what is
/// left, cap every VM that got more than its (capped) demand, redistribute, repeat. O(m²).
/// Kept only as an oracle for [`water_fill`].
pub fn iterative_fill(pcap: f64, specs: &[VmSpec], demands: &[f64]) -> Vec<f64> {
    let m = specs.len();
    let dbar: Vec<f64> = specs
        .iter()
        .zip(demands)
        .map(|(s, &d)| capped(s, d))
        .collect();
    let mut rate = vec![0.0; m];
    let mut done: Vec<bool> = (0..m).map(|k| dbar[k] <= specs[k].min).collect();
    for k in 0..m {
        if done[k] {
            rate[k] = dbar[k];
        }
    }
    loop {
        let open: Vec<usize> = (0..m).filter(|&k| !done[k]).collect();
        if open.is_empty() {
            return rate;
        }
        let used: f64 = (0..m).filter(|&k| done[k]).map(|k| rate[k]).sum::<f64>()
            + open.iter().map(|&k| specs[k].min).sum::<f64>();
        let shares: f64 = open.iter().map(|&k| specs[k].share).sum();
        let excess = pcap - used;
        let mut capped_any = false;
        for &k in &open {
            let candidate = specs[k].min + specs[k].share / shares * excess;
            if candidate >= dbar[k] {
                rate[k] = dbar[k];
                done[k] = true;
                capped_any = true;
            }
        }
        if !capped_any {
            for &k in &open {
                rate[k] = specs[k].min + specs[k].share / shares * excess;
            }
            return rate;
        }
    }
}

/// Equilibrium capacity (§II.B): the allocation when every VM demands its max.
pub fn equilibrium_capacity(pcap: f64, specs: &[VmSpec]) -> Vec<f64> {
    let demands: Vec<f64> = specs.iter().map(|s| s.max).collect();
    water_fill(pcap, specs, &demands).rates
}

/// Potential capacity of VM `i` (§II.C, generalised to m VMs): its allocation if it demanded
/// its max while every other VM keeps its current demand.
pub fn potential_capacity(pcap: f64, specs: &[VmSpec], demands: &[f64], i: usize) -> f64 {
    let mut d = demands.to_vec();
    d[i] = specs[i].max;
    water_fill(pcap, specs, &d).rates[i]
}

/// [`potential_capacity`] of every VM.
pub fn potential_capacities(pcap: f64, specs: &[VmSpec], demands: &[f64]) -> Vec<f64> {
    (0..specs.len())
        .map(|i| potential_capacity(pcap, specs, demands, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn paper_pair() -> Vec<VmSpec> {
        vec![
            VmSpec {
                min: 0.25,
                max: 0.67,
                share: 4.0,
            },
            VmSpec {
                min: 0.1,
                max: 1.0,
                share: 8.0,
            },
        ]
    }

    /// Random specs with Σ min ≤ pCap, some demands above max, some zero, some below min.
    fn random_pm(rng: &mut ChaCha8Rng, m: usize) -> (f64, Vec<VmSpec>, Vec<f64>) {
        let pcap = if rng.random_bool(0.5) {
            1.0
        } else {
            rng.random_range(0.5..4.0)
        };
        let raw: Vec<f64> = (0..m).map(|_| rng.random_range(0.0..1.0)).collect();
        let scale = rng.random_range(0.0..1.0) * pcap / raw.iter().sum::<f64>().max(1e-9);
        let specs: Vec<VmSpec> = raw
            .iter()
            .map(|&r| {
                let min = r * scale;
                let max = min + rng.random_range(0.0..pcap);
                let share = if rng.random_bool(0.3) {
                    1.0
                } else {
                    rng.random_range(0.1..10.0)
                };
                VmSpec { min, max, share }
            })
            .collect();
        let demands = specs
            .iter()
            .map(|s| match rng.random_range(0..4) {
                0 => 0.0,
                1 => s.max,
                2 => rng.random_range(0.0..=s.min.max(1e-6)),
                _ => rng.random_range(0.0..2.0 * s.max),
            })
            .collect();
        (pcap, specs, demands)
    }

    #[test]
    fn paper_golden_numbers() {
        // §II.A: 0.25 + 0.65/3 and 0.1 + 0.65·2/3 (printed 0.46 and 0.54).
        let ec = equilibrium_capacity(1.0, &paper_pair());
        assert!((ec[0] - 0.4667).abs() < 1e-4, "{ec:?}");
        assert!((ec[1] - 0.5333).abs() < 1e-4, "{ec:?}");
        assert!((ec[0] - (0.25 + 0.65 / 3.0)).abs() < 1e-12);
    }

    #[test]
    fn figure_3b_caps_twice() {
        // max_B below its Eq. 1 value: B capped, then A capped; capacity left unused.
        let specs = vec![
            VmSpec {
                min: 0.25,
                max: 0.5,
                share: 4.0,
            },
            VmSpec {
                min: 0.1,
                max: 0.3,
                share: 8.0,
            },
        ];
        let ec = equilibrium_capacity(1.0, &specs);
        assert_eq!(ec, vec![0.5, 0.3]);
        assert_eq!(iterative_fill(1.0, &specs, &[0.5, 0.3]), vec![0.5, 0.3]);
    }

    #[test]
    fn paper_setting_four_vms() {
        let specs = vec![VmSpec::default(); 4];
        for &e in &equilibrium_capacity(1.0, &specs) {
            assert!((e - 0.25).abs() < 1e-15);
        }
        // k busy VMs: each gets 1/k; a free VM's PC is 1/(k+1).
        for k in 0..4 {
            let d: Vec<f64> = (0..4).map(|i| if i < k { 1.0 } else { 0.0 }).collect();
            let a = water_fill(1.0, &specs, &d);
            for i in 0..k {
                assert!((a.rates[i] - 1.0 / k as f64).abs() < 1e-15);
            }
            let pc = potential_capacity(1.0, &specs, &d, 3);
            assert!((pc - 1.0 / (k as f64 + 1.0)).abs() < 1e-15, "k={k} pc={pc}");
        }
    }

    #[test]
    fn table_one_two_vms() {
        // Table I with the typo corrected: u_A ≤ EC_A ⇒ PC_B = min(pCap − u_A, max_B), else EC_B.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2000 {
            let (pcap, specs, _) = random_pm(&mut rng, 2);
            let ec = equilibrium_capacity(pcap, &specs);
            let ua = rng.random_range(0.0..=specs[0].max);
            let pc_b = potential_capacity(pcap, &specs, &[ua, 0.0], 1);
            let expect = if ua <= ec[0] {
                (pcap - ua).min(specs[1].max)
            } else {
                ec[1]
            };
            assert!(
                (pc_b - expect).abs() < 1e-9,
                "{specs:?} ua={ua} {pc_b} {expect}"
            );
        }
    }

    #[test]
    fn water_fill_equals_iterative_and_properties() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..5000 {
            let m = rng.random_range(1..12);
            let (pcap, specs, demands) = random_pm(&mut rng, m);
            let a = water_fill(pcap, &specs, &demands);
            let b = iterative_fill(pcap, &specs, &demands);
            let sum: f64 = a.rates.iter().sum();
            assert!(sum <= pcap * (1.0 + 1e-12), "case {case}");
            for k in 0..m {
                assert!((a.rates[k] - b[k]).abs() < 1e-9 * pcap, "case {case} k {k}");
                let dbar = demands[k].min(specs[k].max);
                assert!(a.rates[k] <= dbar + 1e-12 && a.rates[k] >= 0.0);
                // A VM with work gets at least min(its demand, its guarantee).
                assert!(a.rates[k] >= dbar.min(specs[k].min) - 1e-12);
            }
            // Work-conserving: either everything fits or the PM is full.
            let dsum: f64 = specs.iter().zip(&demands).map(|(s, &d)| d.min(s.max)).sum();
            assert!((sum - dsum.min(pcap)).abs() < 1e-9 * pcap, "case {case}");
        }
    }

    #[test]
    fn ec_and_pc_properties() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..3000 {
            let m = rng.random_range(1..10);
            let (pcap, specs, demands) = random_pm(&mut rng, m);
            let ec = equilibrium_capacity(pcap, &specs);
            let max_sum: f64 = specs.iter().map(|s| s.max).sum();
            let ec_sum: f64 = ec.iter().sum();
            if max_sum >= pcap {
                assert!((ec_sum - pcap).abs() < 1e-9 * pcap, "case {case}");
            }
            let pc = potential_capacities(pcap, &specs, &demands);
            for k in 0..m {
                assert!(ec[k] >= specs[k].min - 1e-12 && ec[k] <= specs[k].max + 1e-12);
                assert!(
                    pc[k] >= ec[k] - 1e-9,
                    "case {case}: PC {} < EC {}",
                    pc[k],
                    ec[k]
                );
                assert!(pc[k] <= specs[k].max + 1e-12);
            }
            // Permutation invariance.
            let mut perm: Vec<usize> = (0..m).collect();
            for i in (1..m).rev() {
                perm.swap(i, rng.random_range(0..=i));
            }
            let ps: Vec<VmSpec> = perm.iter().map(|&k| specs[k]).collect();
            let pd: Vec<f64> = perm.iter().map(|&k| demands[k]).collect();
            let ec2 = equilibrium_capacity(pcap, &ps);
            let pc2 = potential_capacities(pcap, &ps, &pd);
            for (j, &k) in perm.iter().enumerate() {
                assert!((ec2[j] - ec[k]).abs() < 1e-12 && (pc2[j] - pc[k]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn pc_is_the_rate_after_placement() {
        // Starting a CPU-bound job on VM i (its demand becomes max) gives it exactly PC_i.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..1000 {
            let m = rng.random_range(1..8);
            let (pcap, specs, mut demands) = random_pm(&mut rng, m);
            let i = rng.random_range(0..m);
            demands[i] = 0.0;
            let pc = potential_capacity(pcap, &specs, &demands, i);
            demands[i] = specs[i].max;
            let after = iterative_fill(pcap, &specs, &demands)[i];
            assert!((pc - after).abs() < 1e-9);
        }
    }
}
