//! The family's self-check: tiny rebalance instances (caps binding or not, and mixed ones with
//! zero bids, zero caps and every error norm); `milp` and `exact` against the brute force,
//! `tabu` and `keep` never better than it, every answer within `M` and `K` and verified. The
//! unit tests draw their instances from here.

use super::{generate, solve, ErrorNorm, GenSpec, Instance, Method, Res, Settings, Vm};
use crate::problem::selfcheck::CaseReport;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &super::rebalance::Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::Rebalance>(inst, sol)
}

/// Tiny generated instances: 2–3 nodes, at most 8 VMs, `M` = seed mod 4.
pub fn tiny(seed: u64) -> Instance {
    let spec = GenSpec {
        nodes_min: 2,
        nodes_max: 3,
        max_vms_per_node: 4,
        fill: (0.4, 0.7),
        migrations: (seed % 4) as usize,
        ..GenSpec::default()
    };
    let mut inst = generate(&spec, seed);
    inst.vms.truncate(8);
    inst
}

/// Tiny instances whose caps equal the node capacity, so no cap binds on any node (the
/// pooled ideal of a large bidder may still be capped).
pub fn tiny_uncapped(seed: u64) -> Instance {
    let mut inst = tiny(seed);
    let node = inst.nodes[0];
    inst.vms.iter_mut().for_each(|vm| vm.cap = node);
    inst
}

/// Tiny random instances that exercise every branch of the exact search: 1–3 nodes of
/// random size, ≤ 8 VMs with caps that bind or not, some zero bids and zero caps, a small
/// `K` that may bind, `M` from 0 to 5.
pub fn tiny_mixed(seed: u64) -> Instance {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let nn = rng.random_range(1..=3usize);
    let nodes: Vec<Res> = (0..nn)
        .map(|_| Res::new(rng.random_range(2.0..8.0), rng.random_range(1000.0..4000.0)))
        .collect();
    let k = rng.random_range(2..=5usize);
    let m = rng.random_range(0..=(nn * k).min(8));
    let mut count = vec![0usize; nn];
    let mut vms = Vec::new();
    for _ in 0..m {
        let free: Vec<usize> = (0..nn).filter(|&n| count[n] < k).collect();
        let node = free[rng.random_range(0..free.len())];
        count[node] += 1;
        let small = nodes.iter().fold(Res::new(f64::MAX, f64::MAX), |a, n| {
            Res::new(a.cpu.min(n.cpu), a.mem.min(n.mem))
        });
        let bid = |rng: &mut rand_chacha::ChaCha8Rng| {
            if rng.random_bool(0.08) {
                0.0
            } else {
                rng.random_range(0.5..40.0)
            }
        };
        let cap = |rng: &mut rand_chacha::ChaCha8Rng, most: f64| {
            if rng.random_bool(0.05) {
                0.0
            } else {
                rng.random_range(0.1..=1.0) * most
            }
        };
        vms.push(Vm {
            node,
            bid: Res::new(bid(&mut rng), bid(&mut rng)),
            cap: Res::new(cap(&mut rng, small.cpu), cap(&mut rng, small.mem)),
        });
    }
    Instance {
        nodes,
        vms,
        max_vms_per_node: k,
        migrations: rng.random_range(0..=5),
    }
}

/// One soak case: a third each of capped, uncapped and mixed instances.
pub fn case(seed: u64) -> CaseReport {
    let (kind, inst) = match seed % 3 {
        0 => ("caps", tiny(seed / 3)),
        1 => ("uncapped", tiny_uncapped(seed / 3)),
        _ => ("mixed norms", tiny_mixed(seed / 3)),
    };
    let mixed = seed % 3 == 2;
    let settings = Settings {
        epsilon: 0.0,
        error_norm: if mixed {
            [
                ErrorNorm::NodeCapacity,
                ErrorNorm::VmCap,
                ErrorNorm::Absolute,
            ][(seed / 3 % 3) as usize]
        } else {
            Settings::default().error_norm
        },
        ..Settings::default()
    };
    let mut r = CaseReport::new(kind, &inst);
    let Some(brute) = r.answer("brute", solve(&inst, Method::Brute, &settings)) else {
        return r;
    };
    let truth = Some(brute.max_error);
    // milp is exact for positive bids only: the mixed instances have zero bids.
    let exact: &[Method] = if mixed {
        &[Method::Exact]
    } else {
        &[Method::Exact, Method::Milp]
    };
    for m in Method::all() {
        let Some(sol) = r.answer(&m.to_string(), solve(&inst, m, &settings)) else {
            continue;
        };
        let v = verify(&inst, &sol);
        r.check(v.is_empty(), || format!("{m}: verify: {v:?}"));
        r.check(sol.moves <= inst.migrations, || {
            format!("{m}: {} moves, M = {}", sol.moves, inst.migrations)
        });
        if mixed && m == Method::Milp {
            continue;
        }
        let c = &sol.certificate;
        r.check(c.objective == Some(sol.max_error), || {
            format!(
                "{m}: certificate {:?}, max error {}",
                c.objective, sol.max_error
            )
        });
        r.against(c, truth, exact.contains(&m), 1e-6);
    }
    r
}
