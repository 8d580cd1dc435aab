//! Column generation (or branch-and-price) on BPPLIB sets with known optima.
//!
//! `cargo bench --bench periodic_bpplib -- DIR [DIR…] [--time-limit S] [--method cg|bp]` solves every instance
//! listed in `DIR/optima.tsv` (default limit 10 s each) and prints, per set, how many reach the
//! known optimum, how many are proven optimal, and the median and max time. Without a folder
//! (as under `cargo test --benches`) it runs on `data/bpplib`.

use std::path::{Path, PathBuf};
use vcalloc::periodic::{solve_within, verify, Instance, Method, Settings};
use vcalloc::solver::Deadline;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut limit = 10.0;
    let mut method = Method::Cg;
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--time-limit" {
            limit = it
                .next()
                .and_then(|s| s.parse().ok())
                .expect("--time-limit S");
        } else if a == "--method" {
            method = it
                .next()
                .and_then(|s| s.parse().ok())
                .expect("--method cg|bp");
        } else if !a.starts_with('-') {
            dirs.push(PathBuf::from(a));
        }
    }
    if dirs.is_empty() {
        dirs.push(PathBuf::from("data/bpplib"));
    }
    for dir in dirs {
        run_set(&dir, limit, method);
    }
}

fn run_set(dir: &Path, limit: f64, method: Method) {
    let table =
        std::fs::read_to_string(dir.join("optima.tsv")).expect("optima.tsv in the set folder");
    let settings = Settings::default();
    let (mut reached, mut proven, mut total) = (0, 0, 0);
    let mut times = Vec::new();
    let mut misses = Vec::new();
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let Ok(optimum) = cols[1].parse::<u64>() else {
            continue;
        };
        let inst = Instance::load(&dir.join(cols[0]), None).expect("instance");
        let deadline = Deadline::after(Some(limit));
        let sol = solve_within(&inst, method, &settings, &deadline).expect("solve");
        assert!(
            verify(&inst, &sol).is_empty(),
            "{}: invalid solution",
            cols[0]
        );
        let m = sol.machines().expect("cg and bp always have a packing");
        assert!(
            m >= optimum && sol.lower_bound() <= optimum,
            "{}: inconsistent with the known optimum",
            cols[0]
        );
        total += 1;
        reached += usize::from(m == optimum);
        proven += usize::from(sol.status == vcalloc::Status::Optimal);
        if m != optimum {
            misses.push(format!("{} ({m} vs {optimum})", cols[0]));
        }
        times.push(sol.seconds);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} ({method}): {reached}/{total} at the known optimum, {proven} proven optimal; time median {:.3} s, max {:.3} s (limit {limit} s)",
        dir.display(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    if !misses.is_empty() {
        println!("  above the optimum: {}", misses.join(", "));
    }
}
