//! The performance figures, medians over repeated runs:
//! simulation of the first 10,000 serial LCG jobs per policy, the Fig. 7 sweep
//! (7 multipliers × 3 policies × 3 traces), water-filling for 10⁴ VMs.
//! `cargo bench --bench pcec_sim -- [TRACES_DIR]` (default `../shared/traces`; without the
//! folder, as on a clone without `shared/`, it says so and measures water-filling only).
mod common;

use common::time;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vcalloc::pcec::experiment::{load, sweep, ExperimentSpec};
use vcalloc::pcec::{equilibrium_capacity, solve, water_fill, Method, Settings, VmSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map_or(
            std::path::PathBuf::from("../shared/traces"),
            std::path::PathBuf::from,
        );
    let mut spec = ExperimentSpec::default();
    for t in &mut spec.traces {
        let file = t
            .path
            .file_name()
            .map(|f| f.to_os_string())
            .unwrap_or_default();
        t.path = dir.join(file);
    }
    if spec.traces.iter().all(|t| t.path.exists()) {
        traces(&spec)?;
    } else {
        println!("no traces in {}: water-filling only", dir.display());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let m = 10_000;
    let specs: Vec<VmSpec> = (0..m)
        .map(|_| VmSpec {
            min: rng.random_range(0.0..1.0) / m as f64,
            max: rng.random_range(0.0..0.01),
            share: rng.random_range(0.1..10.0),
        })
        .map(|s| VmSpec {
            max: s.max.max(s.min),
            ..s
        })
        .collect();
    let demands: Vec<f64> = specs
        .iter()
        .map(|s| rng.random_range(0.0..1.5) * s.max)
        .collect();
    let (med, lo, hi) = time(101, || water_fill(1.0, &specs, &demands));
    println!(
        "water_fill 10^4 VMs (random demands): median {:.3} ms (min {:.3}, max {:.3})",
        med * 1e3,
        lo * 1e3,
        hi * 1e3
    );
    let (med, _, _) = time(101, || equilibrium_capacity(1.0, &specs));
    println!("equilibrium_capacity 10^4 VMs: median {:.3} ms", med * 1e3);
    Ok(())
}

/// Loading and simulating the three traces, and the Fig. 7 sweep.
fn traces(spec: &ExperimentSpec) -> Result<(), Box<dyn std::error::Error>> {
    let insts: Vec<_> = spec
        .traces
        .iter()
        .map(|t| load(spec, t))
        .collect::<Result<_, _>>()?;
    let (ld, _, _) = time(5, || load(spec, &spec.traces[0]).unwrap());
    println!(
        "load LCG first 10,000 serial jobs (gz): median {:.1} ms",
        ld * 1e3
    );
    for (t, inst) in spec.traces.iter().zip(&insts) {
        let f = inst.offered_load() / spec.target_utilisation;
        for m in Method::policies() {
            let st = Settings {
                arrival_factor: f,
                ..spec.settings.clone()
            };
            let (med, lo, hi) = time(21, || solve(inst, m, &st).unwrap());
            println!(
                "simulate {:>10} {:>5} jobs {:>5}: median {:.2} ms (min {:.2}, max {:.2})",
                t.name,
                inst.jobs.len(),
                m.name(),
                med * 1e3,
                lo * 1e3,
                hi * 1e3
            );
        }
    }
    let (med, lo, hi) = time(7, || {
        for inst in &insts {
            let f = inst.offered_load() / spec.target_utilisation;
            sweep(inst, spec, f).unwrap();
        }
    });
    println!(
        "Fig. 7 sweep 7 × 3 × 3 = 63 simulations: median {:.3} s (min {:.3}, max {:.3})",
        med, lo, hi
    );
    Ok(())
}
