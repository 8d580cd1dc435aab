//! The six §5.3 scenarios (tasks large/medium/small × amplitude large/small), 100 jobs,
//! capacity 20, seeds 1…K (default 5): column generation with a per-instance time limit
//! (default 60 s), and BFD, MM, MMM for comparison.
//!
//! `cargo bench --bench periodic_synthetic -- [--seeds K] [--time-limit S] [--jobs J]
//! [--settings FILE] [--threads T] [--tasks large|medium|small] [--method cg|bp]` prints one line per instance and a median per
//! scenario: when `⌈z_LP⌉` was proven (`⌈bound⌉ = ⌈master⌉` first held), first-phase seconds,
//! total seconds, iterations, status and proven bound, machines / ⌈z_LP⌉ (LP bound proven so far), machines / ⌈W/C⌉, and
//! the heuristics' machines / ⌈W/C⌉. Under `cargo test --benches` it runs one tiny instance only.

use vcalloc::periodic::{
    generate, solve, solve_within, verify, Amplitude, Method, Settings, TaskSize,
};
use vcalloc::solver::Deadline;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = !args.iter().any(|a| a == "--bench");
    let get = |name: &str, default: f64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let seeds = if quick { 1 } else { get("--seeds", 5.0) as u64 };
    let limit = get("--time-limit", if quick { 5.0 } else { 60.0 });
    let jobs = if quick {
        6
    } else {
        get("--jobs", 100.0) as usize
    };
    let text = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    // `--settings FILE`: the method's settings as JSON (as `solve periodic --settings`).
    let base = match text("--settings") {
        Some(f) => vcalloc::problem::apply_flags(Some(std::path::Path::new(f)), &[])
            .expect("settings file"),
        None => Settings::default(),
    };
    let mut settings = base;
    // `--threads T`: as `solve --threads` (the exact pricing's threads and HiGHS's).
    if let Some(t) = text("--threads") {
        let t: usize = t.parse().expect("--threads");
        settings.pricing.threads = t;
        settings.highs.threads = t as u32;
    }
    let only: Option<TaskSize> = text("--tasks").map(|t| t.parse().expect("--tasks"));
    let method: Method = text("--method").map_or(Method::Cg, |m| m.parse().expect("--method"));
    for tasks in [TaskSize::Large, TaskSize::Medium, TaskSize::Small] {
        if only.is_some_and(|o| o != tasks) {
            continue;
        }
        for amplitude in [Amplitude::Large, Amplitude::Small] {
            let (mut p1, mut tot, mut vs_lp, mut vs_w, mut bfd, mut mm, mut mmm) =
                (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
            let (mut settled, mut proven) = (vec![], 0);
            for seed in 1..=seeds {
                let inst = generate(tasks, amplitude, jobs, seed).expect("valid scenario");
                let sol = solve_within(&inst, method, &settings, &Deadline::after(Some(limit)))
                    .expect("solve");
                proven += usize::from(sol.status == vcalloc::Status::Optimal);
                assert!(verify(&inst, &sol).is_empty());
                let m = sol.machines().unwrap() as f64;
                let s = &sol.stats;
                // `bp`'s aligned fill can meet the peak bound before any column generation:
                // then there is no LP, and ⌈W/C⌉ stands for it.
                let lp = sol
                    .lp_bound
                    .map_or(sol.lower_bound(), vcalloc::ceil_with_tolerance)
                    .max(1) as f64;
                let w = s["lower_bound_peak"];
                let stop = ["converged", "bound_closed", "tailing_off", "pricing_limit"]
                    .into_iter()
                    .find(|k| s.get(*k) == Some(&1.0))
                    .unwrap_or(if sol.lp_bound.is_none() {
                        "no LP"
                    } else {
                        "time limit"
                    });
                // When `⌈z_LP⌉` was proven (never: infinite, so the median cannot flatter).
                let proven_at = s.get("bound_settled_seconds").copied().unwrap_or(
                    if sol.lp_bound.is_none() && sol.status == vcalloc::Status::Optimal {
                        sol.seconds
                    } else {
                        f64::INFINITY
                    },
                );
                println!(
                    "{tasks:?}/{amplitude:?} seed {seed}: {method} {:?}, machines {m}, bound {}, gap {:.4}%, ⌈z_LP⌉ {lp} (master {:.2}, stop: {stop}), ⌈W/C⌉ {w}, ⌈z_LP⌉ proven at {proven_at:.2} s, phase 1 {:.2} s, total {:.2} s, {} iterations, tree nodes {}, root machines {}",
                    sol.status, sol.lower_bound(), 100.0 * sol.gap.unwrap_or(0.0), s.get("master_value").copied().unwrap_or(f64::NAN), s.get("phase1_seconds").copied().unwrap_or(0.0), sol.seconds, sol.iterations, s.get("nodes").copied().unwrap_or(0.0),
                    s.get("root_machines").copied().unwrap_or(m)
                );
                p1.push(s.get("phase1_seconds").copied().unwrap_or(0.0));
                settled.push(proven_at);
                tot.push(sol.seconds);
                vs_lp.push(m / lp);
                vs_w.push(m / w);
                for (method, v) in [
                    (Method::Bfd, &mut bfd),
                    (Method::Mm, &mut mm),
                    (Method::Mmm, &mut mmm),
                ] {
                    let h = solve(&inst, method, &settings).expect("heuristic");
                    v.push(h.machines().unwrap() as f64 / w);
                }
            }
            println!(
                "== {tasks:?} tasks, {amplitude:?} amplitude: {proven}/{seeds} proven optimal; median ⌈z_LP⌉ proven at {:.2} s, phase 1 {:.2} s, total {:.2} s; machines/⌈z_LP⌉ {:.4}, machines/⌈W/C⌉ {:.4}; BFD {:.4}, MM {:.4}, MMM {:.4} (× ⌈W/C⌉)",
                median(&mut settled), median(&mut p1), median(&mut tot), median(&mut vs_lp), median(&mut vs_w), median(&mut bfd), median(&mut mm), median(&mut mmm)
            );
        }
    }
}
