//! Tight-packing probe: runs the bin-completion search of `binpacking::tight` alone on BPPLIB
//! files, into `ceil(Σw/C)` bins, and prints per file whether it found a packing, the nodes
//! and the seconds. No root LP, no tree: the search's own reach on AI-like instances.
//!
//! With `--repair R` (bins released a round), the search gets at most 2 s and the repair
//! rounds of `binpacking::repair` (`--repair-nodes N` a round) the rest of `--seconds`,
//! around its deepest partial packing.
//!
//! `cargo run --release --example tight_probe -- [--nodes N] [--seconds S] [--restart N] [--seed N] [--lds N] [--branching N] [--repair R] [--repair-nodes N] FILE...`
use std::path::Path;
use std::time::Instant;
use vcalloc::binpacking::repair::repair;
use vcalloc::binpacking::tight::{pack_partial, Tight, TightSettings};
use vcalloc::binpacking::Instance;
use vcalloc::solver::Deadline;

fn main() {
    env_logger::init();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut settings = TightSettings {
        repair_release: 0,
        ..TightSettings::default()
    };
    let mut seconds = 10.0;
    while args.first().is_some_and(|a| a.starts_with("--")) {
        let flag = args.remove(0);
        let value = args.remove(0);
        match flag.as_str() {
            "--nodes" => settings.node_limit = value.parse().expect("--nodes N"),
            "--seconds" => seconds = value.parse().expect("--seconds S"),
            "--restart" => settings.restart_nodes = value.parse().expect("--restart N"),
            "--seed" => settings.seed = value.parse().expect("--seed N"),
            "--lds" => settings.discrepancies = value.parse().expect("--lds N"),
            "--branching" => settings.branching = value.parse().expect("--branching N"),
            "--repair" => settings.repair_release = value.parse().expect("--repair R"),
            "--repair-nodes" => settings.repair_nodes = value.parse().expect("--repair-nodes N"),
            _ => panic!("unknown flag {flag}"),
        }
    }
    let (mut found, mut total) = (0, 0);
    for file in &args {
        let inst = Instance::load(Path::new(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (cap, w) = (
            inst.capacity[0],
            inst.weights().expect("a one-dimensional instance"),
        );
        let w = &w[..];
        let bins = w.iter().sum::<u64>().div_ceil(cap);
        let start = Instant::now();
        let deadline = Deadline::after(Some(seconds));
        let r = if settings.repair_release == 0 {
            pack_partial(w, cap, bins, &settings, &deadline).0
        } else {
            let (r, partial) = pack_partial(w, cap, bins, &settings, &deadline.capped(2.0));
            match r {
                Tight::Unknown => repair(w, cap, bins as usize, partial, &settings, &deadline)
                    .map_or(Tight::Unknown, Tight::Found),
                r => r,
            }
        };
        let name = file.rsplit('/').next().unwrap_or(file);
        let what = match r {
            Tight::Found(_) => "found",
            Tight::Exhausted => "exhausted",
            Tight::Unknown => "unknown",
        };
        total += 1;
        found += usize::from(what == "found");
        println!(
            "{name}\t{bins}\t{what}\t{:.2}",
            start.elapsed().as_secs_f64()
        );
    }
    println!("found {found} of {total}");
}
