//! Runs the paper's experiment (1,000 tests) at N = 100 and N = 112, writes Tables 1–2 as
//! Markdown and the CDF plots, and measures the performance figures of issue 19:
//! mean schedule time per test per method (target: noX ≤ 0.25 ms, +c ≤ 0.5 ms) and the whole
//! 6 × 1,000 run (target < 10 s on one core).
//!
//! `cargo bench --bench evolving_paper -- [OUT_DIR] [TESTS]` (default `target/evolving-paper`,
//! 1000). Without `--bench` (as under `cargo test --benches`) it runs 20 tests only.

use std::time::Instant;
use vcalloc::evolving::brute::{exact, Objective};
use vcalloc::evolving::experiment::{run_paper, PaperSpec};
use vcalloc::evolving::{generate, solve, ExpandLimit, GenSpec, Instance, Method, Settings};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Repeated timing of each method over the same tests: per-test mean of each repetition,
/// then the median over repetitions.
fn timing(tests: usize, reps: usize) {
    let insts: Vec<Instance> = (0..tests as u64)
        .map(|k| generate(&GenSpec::default(), 1 + k))
        .collect();
    let settings = Settings::default();
    println!(
        "\n#### Schedule time per test (N = 100, {tests} tests, median of {reps} repetitions)\n"
    );
    println!("| method | mean ms / test | whole set, s |\n|---|---|---|");
    let mut total = 0.0;
    for m in Method::all() {
        let mut per_rep = Vec::new();
        for _ in 0..reps {
            let t = Instant::now();
            for inst in &insts {
                std::hint::black_box(solve(inst, m, &settings).unwrap());
            }
            per_rep.push(t.elapsed().as_secs_f64());
        }
        let med = median(per_rep);
        total += med;
        println!(
            "| {} | {:.4} | {:.3} |",
            m.paper_name(),
            1e3 * med / tests as f64,
            med
        );
    }
    println!("| all 6 | – | {total:.3} |");
}

/// Algorithm 1 (list order and best order) against the brute-force optimum on tiny tests.
fn tiny_exact(cases: u64) {
    let spec = GenSpec {
        apps: [2, 4],
        steps: [1, 3],
        duration: [1, 3],
        step_nodes: [1, 4],
        nodes: 4,
    };
    println!("\n#### Algorithm 1 vs brute-force optimum (makespan), {cases} tiny tests (2–4 apps, ≤ 3 steps, d ≤ 3, N = 4)\n");
    println!("| l | method | solved | list = opt | mean list / opt | max list / opt |\n|---|---|---|---|---|---|");
    for (l, m) in [
        (ExpandLimit::NONE, Method::Nox),
        (ExpandLimit::Finite(2), Method::X2),
        (ExpandLimit::Infinite, Method::Infx),
    ] {
        let (mut solved, mut equal, mut sum, mut worst) = (0, 0, 0.0, 1.0f64);
        for seed in 0..cases {
            let inst = generate(&spec, seed);
            let Some(ex) = exact(&inst, l, Objective::Makespan, None, 60, 20_000_000) else {
                continue;
            };
            let got = solve(&inst, m, &Settings::default())
                .unwrap()
                .metrics
                .makespan;
            assert!(got >= ex.value);
            solved += 1;
            equal += usize::from(got == ex.value);
            let r = got as f64 / ex.value as f64;
            sum += r;
            worst = worst.max(r);
        }
        println!(
            "| {l} | {} | {solved} | {equal} | {:.3} | {worst:.3} |",
            m.paper_name(),
            sum / solved as f64
        );
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let quick = !all.iter().any(|a| a == "--bench");
    let args: Vec<&String> = all.iter().filter(|a| !a.starts_with("--")).collect();
    let out =
        std::path::PathBuf::from(args.first().map_or("target/evolving-paper", |s| s.as_str()));
    let tests: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 20 } else { 1000 });
    std::fs::create_dir_all(&out).unwrap();
    let mut md = String::new();
    for nodes in [100, 112] {
        let spec = PaperSpec {
            tests,
            gen: GenSpec {
                nodes,
                ..GenSpec::default()
            },
            ..PaperSpec::default()
        };
        let t = Instant::now();
        let rep = run_paper(&spec).unwrap();
        let wall = t.elapsed().as_secs_f64();
        let text = rep.to_markdown();
        println!("{text}\n(run_paper wall time incl. verify: {wall:.2} s)\n");
        md += &text;
        md += "\n";
        for p in rep.write_plots(&out.join("plots")).unwrap() {
            println!("wrote {}", p.display());
        }
    }
    std::fs::write(out.join("evolving_paper.md"), md).unwrap();
    timing(tests, 5);
    tiny_exact(300);
}
