//! Issue 21's performance figures, medians over repeated runs: water-filling (Eq. 1) for 10⁴
//! VMs, the exact rebalance (`exact`) of 20 full nodes × 160 VMs at M = 3 (K = 8) and of the
//! same VMs with K = 12 at M = 1–8, and a simulated 24 h of 32 VMs (4 nodes × 8 slots, 8 deadline-driven apps of 4 VMs renewed hourly).
//! `cargo bench --bench market_perf`.
mod common;

use common::time;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::market::{
    generate, proportional_share, simulate, solve, AppSpec, GenSpec, Method, Res, Scenario,
    Settings, SimSettings,
};

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let bids: Vec<f64> = (0..10_000).map(|_| rng.random_range(0.1..100.0)).collect();
    let caps: Vec<f64> = (0..10_000).map(|_| rng.random_range(0.5..4.0)).collect();
    let (med, lo, hi) = time(201, || proportional_share(&bids, &caps, 5_000.0));
    println!(
        "water-filling, 10^4 VMs: median {:.3} ms (min {:.3}, max {:.3}; 201 runs; target ≤ 1 ms)",
        med * 1e3,
        lo * 1e3,
        hi * 1e3
    );

    let spec = GenSpec {
        nodes_min: 20,
        nodes_max: 20,
        fill: (1.0, 1.0),
        ..GenSpec::default()
    };
    let inst = generate(&spec, 1);
    let mut roomy = inst.clone();
    roomy.max_vms_per_node = 12;
    for (inst, m) in [
        (&inst, 3),
        (&roomy, 1),
        (&roomy, 2),
        (&roomy, 3),
        (&roomy, 4),
        (&roomy, 6),
        (&roomy, 8),
    ] {
        let settings = Settings {
            migrations: Some(m),
            exact_seconds: Some(20.0),
            ..Settings::default()
        };
        let mut last = None;
        let (med, lo, hi) = time(3, || {
            last = Some(solve(inst, Method::Exact, &settings).expect("exact"));
        });
        let sol = last.expect("ran");
        let c = &sol.certificate;
        println!(
            "exact rebalance (exact), {} nodes x {} VMs, K = {}, M = {m}: median {med:.3} s (min {lo:.3}, max {hi:.3}; 3 runs; 20 s cap; target ≤ 10 s); status {}, max E {:.4}, bound {:.4}, {} states",
            inst.nodes.len(),
            inst.vms.len(),
            inst.max_vms_per_node,
            c.status.as_str(),
            sol.max_error,
            c.bound.unwrap_or(0.0),
            c.stats.get("states").copied().unwrap_or(0.0)
        );
    }

    let apps = (0..8)
        .map(|k| AppSpec {
            name: format!("app{k}"),
            arrival_s: 600.0 * k as f64,
            vms: 4,
            work: 40_000.0,
            iterations: 4_000,
            deadline_s: Some(80_000.0),
            budget: 20_000.0,
            renew: 2_000.0,
            ..AppSpec::default()
        })
        .collect();
    let sc = Scenario {
        duration_s: 86_400.0,
        nodes: vec![Res::new(4.0, 8192.0); 4],
        max_vms_per_node: 8,
        apps,
        ..Scenario::default()
    };
    let set = SimSettings {
        record_rows: false,
        stop_when_done: false,
        ..SimSettings::default()
    };
    let (med, lo, hi) = time(11, || simulate(&sc, &set));
    let r = simulate(&sc, &set);
    println!(
        "simulated 24 h, 32 VMs ({} periods, tabu rebalancing on): median {:.3} s (min {:.3}, max {:.3}; 11 runs; target ≤ 1 s); {} migrations",
        r.periods.len(),
        med,
        lo,
        hi,
        r.periods.iter().map(|p| p.migrations).sum::<usize>()
    );
}
