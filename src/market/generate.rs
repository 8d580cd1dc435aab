//! Random rebalance instances (issue 21: 4–20 nodes, lognormal bids), deterministic per seed.

use super::instance::{Instance, Res, Vm};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What to generate. Node sizes follow Table 1's 1-core / 900 MB VMs on 8-core nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenSpec {
    /// Fewest nodes (inclusive).
    pub nodes_min: usize,
    /// Most nodes (inclusive).
    pub nodes_max: usize,
    /// Node capacity.
    pub node: Res,
    /// `K`.
    pub max_vms_per_node: usize,
    /// Fraction of the `n·K` slots holding a VM, drawn uniformly in this range.
    pub fill: (f64, f64),
    /// VM sizes to draw from (uniformly); each must fit a node.
    pub vm_sizes: Vec<Res>,
    /// Mean and standard deviation of `ln` of the CPU bid.
    pub cpu_bid_log: (f64, f64),
    /// Mean and standard deviation of `ln` of the memory bid.
    pub mem_bid_log: (f64, f64),
    /// `M` written into the instance.
    pub migrations: usize,
    /// Seed of the random stream (the command line's `--seed`).
    pub seed: u64,
}

impl Default for GenSpec {
    fn default() -> Self {
        GenSpec {
            nodes_min: 4,
            nodes_max: 20,
            node: Res::new(8.0, 16384.0),
            max_vms_per_node: 8,
            fill: (0.5, 1.0),
            vm_sizes: vec![
                Res::new(1.0, 900.0),
                Res::new(2.0, 1800.0),
                Res::new(4.0, 3600.0),
            ],
            cpu_bid_log: (10f64.ln(), 1.0),
            mem_bid_log: (2f64.ln(), 1.0),
            migrations: 3,
            seed: 0,
        }
    }
}

/// A standard normal draw (Box–Muller), so that no distribution crate is needed.
pub fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// `exp(N(mu, sigma))`.
pub fn lognormal(rng: &mut ChaCha8Rng, (mu, sigma): (f64, f64)) -> f64 {
    (mu + sigma * normal(rng)).exp()
}

/// A random instance: node count uniform in range, VMs placed uniformly on nodes with room.
pub fn generate(spec: &GenSpec, seed: u64) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.random_range(spec.nodes_min.max(1)..=spec.nodes_max.max(spec.nodes_min.max(1)));
    let k = spec.max_vms_per_node.max(1);
    let (lo, hi) = spec.fill;
    let fill = if hi > lo {
        rng.random_range(lo..=hi)
    } else {
        lo
    };
    let m = ((n * k) as f64 * fill.clamp(0.0, 1.0)).round() as usize;
    let mut count = vec![0usize; n];
    let mut vms = Vec::with_capacity(m);
    for _ in 0..m {
        let free: Vec<usize> = (0..n).filter(|&i| count[i] < k).collect();
        let node = free[rng.random_range(0..free.len())];
        count[node] += 1;
        let size = if spec.vm_sizes.is_empty() {
            spec.node
        } else {
            spec.vm_sizes[rng.random_range(0..spec.vm_sizes.len())]
        };
        let cap = Res::new(size.cpu.min(spec.node.cpu), size.mem.min(spec.node.mem));
        let bid = Res::new(
            lognormal(&mut rng, spec.cpu_bid_log),
            lognormal(&mut rng, spec.mem_bid_log),
        );
        vms.push(Vm { node, bid, cap });
    }
    Instance {
        nodes: vec![spec.node; n],
        vms,
        max_vms_per_node: k,
        migrations: spec.migrations,
    }
}
