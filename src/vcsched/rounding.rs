//! Randomised rounding of the LP relaxation, RRND and RRNZ (RR-6692 §3.2).
//!
//! Jobs are taken in file order; job `i` draws a host with probability proportional to its
//! relaxed `e_ij`, among the hosts whose remaining memory can hold it. RRNZ first raises
//! every zero `e_ij` to `ε` so that no host is ruled out by the LP alone. The draws come from
//! a ChaCha8 stream seeded by the caller: same seed, same placement.

use super::allocation::Placement;
use super::instance::Instance;
use super::milp::Layout;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Rounds the relaxed point `x`; `epsilon` is 0 for RRND and ε for RRNZ.
pub fn round(
    inst: &Instance,
    layout: &Layout,
    x: &[f64],
    epsilon: f64,
    seed: u64,
) -> Option<Placement> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut mem = vec![0.0; inst.hosts];
    let mut placement = Vec::with_capacity(inst.num_jobs());
    let mut weights = vec![0.0; inst.hosts];
    for (i, job) in inst.jobs.iter().enumerate() {
        for (j, w) in weights.iter_mut().enumerate() {
            let e = x[layout.e(i, j)].clamp(0.0, 1.0);
            // LP values within solver tolerance of zero count as zero.
            let e = if e <= 1e-9 { epsilon } else { e };
            *w = if mem[j] + job.mem <= 1.0 { e } else { 0.0 };
        }
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut draw = rng.random::<f64>() * total;
        let mut chosen = None;
        for (j, &w) in weights.iter().enumerate() {
            if w > 0.0 {
                chosen = Some(j);
                if draw < w {
                    break;
                }
                draw -= w;
            }
        }
        let j = chosen?;
        mem[j] += job.mem;
        placement.push(j);
    }
    Some(placement)
}
