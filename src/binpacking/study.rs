//! `experiment binpacking-bpplib --input DIR`: branch-and-price on every instance of a BPPLIB
//! set (a folder with `optima.tsv`), or of every such set below `DIR`, each within
//! `study_seconds`; proven-optimal counts, times, and the root LP beside Brandão's `lp_bound`.

use super::instance::Instance;
use super::solve::{solve, verify, Method, Settings};
use crate::error::Result;
use crate::problem::StudyArgs;
use crate::solver::Deadline;
use rayon::prelude::*;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One row of `optima.tsv`: instance file, optimum, root LP bound (when given).
struct Known {
    file: String,
    optimum: Option<u64>,
    lp_bound: Option<f64>,
}

fn read_optima(dir: &Path) -> Result<Vec<Known>> {
    let path = dir.join("optima.tsv");
    let text = crate::input::read_text(&path)?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let lp_col = header.iter().position(|h| *h == "lp_bound");
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Known {
                file: f[0].to_string(),
                optimum: f.get(1).and_then(|v| v.parse().ok()),
                lp_bound: lp_col.and_then(|c| f.get(c)).and_then(|v| v.parse().ok()),
            }
        })
        .collect())
}

/// One instance's run.
struct Run {
    bins: u64,
    bound: u64,
    optimum: Option<u64>,
    seconds: f64,
    root_lp: f64,
    lp_bound: Option<f64>,
    nodes: f64,
    violations: usize,
}

fn sets(input: &Path) -> Vec<PathBuf> {
    if input.join("optima.tsv").exists() {
        return vec![input.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(input)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("optima.tsv").exists())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Runs the study.
pub fn run(args: &StudyArgs) -> Result<String> {
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    let input = args
        .input
        .clone()
        .unwrap_or_else(|| PathBuf::from("../shared/benchmarks/falkenauer_t"));
    let sets = sets(&input);
    if sets.is_empty() {
        return Err(crate::error::InputError::new(
            &input,
            crate::error::Location::File,
            "",
            "no folder with an optima.tsv here",
        )
        .into());
    }
    let mut md = format!(
        "# Bin packing: branch-and-price on BPPLIB\n\nEach instance within {} s (one thread per \
         instance, {} in parallel); `proven` = our bound meets our packing, `= opt` = our packing \
         has the published optimum. Root LP: ours against Brandão's `lp_bound` (2 decimals).\n\n\
         | set | instances | proven | = opt | median s | max s | mean nodes | max \\|root LP − lp_bound\\| |\n|---|---|---|---|---|---|---|---|\n",
        settings.study_seconds,
        rayon::current_num_threads()
    );
    let mut violations = 0;
    for dir in sets {
        let mut known = read_optima(&dir)?;
        if let Some(n) = args.count {
            known.truncate(n);
        }
        let runs: Vec<Run> = known
            .par_iter()
            .map(|k| -> Result<Run> {
                let inst = Instance::load(&dir.join(&k.file))?;
                let sol = solve(
                    &inst,
                    Method::Bp,
                    &settings,
                    &Deadline::after(Some(settings.study_seconds)),
                )?;
                let c = &sol.certificate;
                Ok(Run {
                    bins: sol.bins.len() as u64,
                    bound: c.bound.unwrap_or(0.0) as u64,
                    optimum: k.optimum,
                    seconds: c.seconds,
                    root_lp: c.stats.get("root_lp").copied().unwrap_or(f64::NAN),
                    lp_bound: k.lp_bound,
                    nodes: c.stats.get("nodes").copied().unwrap_or(0.0),
                    violations: verify(&inst, &sol).len()
                        + usize::from(k.optimum.is_some_and(|o| (sol.bins.len() as u64) < o))
                        + usize::from(
                            k.optimum
                                .is_some_and(|o| c.bound.unwrap_or(0.0) > o as f64 + 1e-9),
                        ),
                })
            })
            .collect::<Result<_>>()?;
        let mut secs: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        secs.sort_by(f64::total_cmp);
        let median = secs.get(secs.len() / 2).copied().unwrap_or(0.0);
        let max = secs.last().copied().unwrap_or(0.0);
        let proven = runs.iter().filter(|r| r.bound >= r.bins).count();
        let at_opt = runs.iter().filter(|r| r.optimum == Some(r.bins)).count();
        let lp_diff = runs
            .iter()
            .filter_map(|r| r.lp_bound.map(|b| (r.root_lp - b).abs()))
            .fold(0.0, f64::max);
        let nodes = runs.iter().map(|r| r.nodes).sum::<f64>() / runs.len().max(1) as f64;
        violations += runs.iter().map(|r| r.violations).sum::<usize>();
        let name = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let _ = writeln!(
            md,
            "| {name} | {} | {proven} | {at_opt} | {median:.2} | {max:.2} | {nodes:.1} | {lp_diff:.3} |",
            runs.len()
        );
    }
    let _ = writeln!(
        md,
        "\nEvery packing through `verify`, no packing below a published optimum, no bound above \
         it: {violations} violations."
    );
    Ok(md)
}
