//! Published benchmark sets with known optima (a folder with `optima.tsv`: `instance`,
//! `optimum` or `NA`, optionally `lp_bound`, `best_lb`, `best_ub`): every instance through one
//! exact run, and a table of proven counts, times and the checks against the published values.
//! Knows no problem: the family passes the run of one instance.

use crate::error::{InputError, Location, Result};
use crate::problem::StudyArgs;
use rayon::prelude::*;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One row of `optima.tsv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    /// The instance file, relative to the set's folder.
    pub file: String,
    /// The proven optimum, when published.
    pub optimum: Option<u64>,
    /// The root LP bound (Brandão's `lp_bound`), when given.
    pub lp_bound: Option<f64>,
    /// The best published lower bound (the optimum when proven).
    pub best_lb: Option<u64>,
    /// The best published packing (the optimum when proven).
    pub best_ub: Option<u64>,
}

/// Reads `dir/optima.tsv` (columns by header name; `instance` first).
pub fn read_optima(dir: &Path) -> Result<Vec<Known>> {
    let path = dir.join("optima.tsv");
    let text = crate::input::read_text(&path)?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (opt, lp, lb, ub) = (
        col("optimum"),
        col("lp_bound"),
        col("best_lb"),
        col("best_ub"),
    );
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |c: Option<usize>| c.and_then(|c| f.get(c)).map(|v| v.trim());
            let optimum: Option<u64> = get(opt).and_then(|v| v.parse().ok());
            Known {
                file: f[0].to_string(),
                optimum,
                lp_bound: get(lp).and_then(|v| v.parse().ok()),
                best_lb: get(lb).and_then(|v| v.parse().ok()).or(optimum),
                best_ub: get(ub).and_then(|v| v.parse().ok()).or(optimum),
            }
        })
        .collect())
}

/// The set folders at `input`: itself when it holds an `optima.tsv`, otherwise its
/// subfolders that do, sorted.
pub fn set_folders(input: &Path) -> Vec<PathBuf> {
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

/// One instance's exact run.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRun {
    /// Bins of the packing found.
    pub bins: u64,
    /// The proven lower bound.
    pub bound: u64,
    /// Seconds.
    pub seconds: f64,
    /// The root LP value (NaN when unknown).
    pub root_lp: f64,
    /// Search nodes.
    pub nodes: f64,
    /// Seconds of the root's column generation (NaN when no root was solved).
    pub root_seconds: f64,
    /// The root's column generation converged (the pricing proved no improving column).
    pub root_converged: bool,
    /// The root's integer bound is final (converged, or `⌈bound⌉ = ⌈master⌉` proven).
    pub root_settled: bool,
    /// Violations `verify` found in the answer.
    pub violations: usize,
    /// `verify` re-derived the bound from its proof (issue 37; no `--deep`).
    pub checked: bool,
    /// Seconds of that check and of `verify`'s feasibility check, in process.
    pub verify_seconds: f64,
}

impl BenchRun {
    /// The run of an answer with `bins` bins and `certificate` (bound, seconds, and the
    /// `root_lp`, `nodes`, `root_seconds` and `root_converged` stats when present), `violations` its `verify` findings.
    fn of(bins: usize, certificate: &crate::problem::Certificate, violations: usize) -> Self {
        let stat = |k: &str, none: f64| certificate.stats.get(k).copied().unwrap_or(none);
        BenchRun {
            bins: bins as u64,
            bound: certificate.bound.unwrap_or(0.0) as u64,
            seconds: certificate.seconds,
            root_lp: stat("root_lp", f64::NAN),
            nodes: stat("nodes", 0.0),
            root_seconds: stat("root_seconds", f64::NAN),
            root_converged: stat("root_converged", 0.0) > 0.5,
            root_settled: stat("root_settled", 0.0) > 0.5,
            violations,
            checked: false,
            verify_seconds: 0.0,
        }
    }

    /// The run of an answer with `bins` bins and `certificate`, checked by `check`: it returns
    /// `verify`'s violations and whether the bound was re-derived, and is timed in process.
    pub fn verified(
        bins: usize,
        certificate: &crate::problem::Certificate,
        check: impl FnOnce() -> (usize, bool),
    ) -> Self {
        let began = std::time::Instant::now();
        let (violations, checked) = check();
        BenchRun {
            checked,
            verify_seconds: began.elapsed().as_secs_f64(),
            ..Self::of(bins, certificate, violations)
        }
    }

    /// Disagreements with the published values: a packing below a proven optimum or the best
    /// lower bound, a bound above the optimum or the best packing.
    fn contradictions(&self, k: &Known) -> usize {
        usize::from(k.best_lb.is_some_and(|o| self.bins < o))
            + usize::from(k.best_ub.is_some_and(|o| self.bound > o))
    }
}

/// `NA` or the number.
fn na_or(v: Option<u64>) -> String {
    v.map_or_else(|| "NA".to_string(), |x| x.to_string())
}

/// Whether `e` is a solver's failure on one instance (HiGHS, Clarabel, an internal check),
/// which a sweep records and goes past; bad input and I/O errors still stop it.
fn solver_failure(e: &crate::error::Error) -> bool {
    use crate::error::Error;
    matches!(
        e,
        Error::Highs(_) | Error::Clarabel(_) | Error::Consistency(_)
    )
}

/// A solver's failure on one instance of a sweep, with the instance's file named.
fn naming(e: crate::error::Error, path: &Path) -> crate::error::Error {
    use crate::error::Error;
    let at = |m: String| format!("{}: {m}", path.display());
    match e {
        Error::Highs(m) => Error::Highs(at(m)),
        Error::Clarabel(m) => Error::Clarabel(at(m)),
        Error::Consistency(m) => Error::Consistency(at(m)),
        other => other,
    }
}

/// Runs `run` on every instance of every set at `args.input` (or `default_input`), the
/// instances of a set in parallel, and returns the report: `title`, then per set the
/// instances, proven, at the optimum, better than the best published packing, median and
/// max seconds, mean nodes, the largest |root LP − lp_bound| where given, and the total of
/// violations and contradictions.
pub fn sweep(
    args: &StudyArgs,
    default_input: &str,
    title: &str,
    run: impl Fn(&Path) -> Result<BenchRun> + Sync,
) -> Result<String> {
    let input = args
        .input
        .clone()
        .unwrap_or_else(|| PathBuf::from(default_input));
    let sets = set_folders(&input);
    if sets.is_empty() {
        return Err(InputError::new(
            &input,
            Location::File,
            "",
            "no folder with an optima.tsv here",
        )
        .into());
    }
    let mut md = format!(
        "{title}\n\nOne thread per instance, {} in parallel; `proven` = our bound meets our \
         packing, `= opt` = our packing has the published optimum, `< best` = fewer bins than the \
         best published packing of an open instance. Root LP: ours against the set's `lp_bound` \
         where given.\n\n\
         `root settled`: the root's column generation converged (the pricing proved that no column \
         improves) or proved `⌈bound⌉ = ⌈master value⌉` (its integer bound final), with the median \
         and largest seconds of the root among those.\n\n\
         | set | instances | proven | = opt | < best | median s | max s | mean nodes | max \\|root LP − lp_bound\\| | root settled | root median s | root max s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        rayon::current_num_threads()
    );
    let mut bad = 0;
    let (mut rederived, mut all_proven) = (0, 0);
    let mut shares = Vec::new();
    let mut tsv =
        String::from("set\tinstance\tbins\tbound\tseconds\tnodes\toptimum\tbest_lb\tbest_ub\troot_seconds\troot_converged\troot_settled\tbound_checked\tverify_seconds\terror\n");
    let mut failures: Vec<String> = Vec::new();
    for dir in sets {
        let mut known = read_optima(&dir)?;
        if let Some(n) = args.count {
            known.truncate(n);
        }
        let outcomes: Vec<(std::result::Result<BenchRun, String>, &Known)> = known
            .par_iter()
            .map(|k| {
                let path = dir.join(&k.file);
                match run(&path).map_err(|e| naming(e, &path)) {
                    Ok(r) => Ok((Ok(r), k)),
                    Err(e) if solver_failure(&e) => {
                        log::warn!("recorded and skipped: {e}");
                        Ok((Err(e.to_string()), k))
                    }
                    Err(e) => Err(e),
                }
            })
            .collect::<Result<_>>()?;
        let mut runs: Vec<(BenchRun, &Known)> = Vec::new();
        let mut set_failures: Vec<(&Known, String)> = Vec::new();
        for (outcome, k) in outcomes {
            match outcome {
                Ok(r) => runs.push((r, k)),
                Err(e) => set_failures.push((k, e)),
            }
        }
        let secs: Vec<f64> = runs.iter().map(|r| r.0.seconds).collect();
        shares.extend(
            runs.iter()
                .map(|r| r.0.verify_seconds / r.0.seconds.max(1e-6)),
        );
        let proven = runs.iter().filter(|r| r.0.bound >= r.0.bins).count();
        rederived += runs
            .iter()
            .filter(|r| r.0.bound >= r.0.bins && r.0.checked)
            .count();
        all_proven += proven;
        let at_opt = runs
            .iter()
            .filter(|r| r.1.optimum == Some(r.0.bins))
            .count();
        let better = runs
            .iter()
            .filter(|r| r.1.optimum.is_none() && r.1.best_ub.is_some_and(|u| r.0.bins < u))
            .count();
        let lp_diff = runs
            .iter()
            .filter_map(|r| r.1.lp_bound.map(|b| (r.0.root_lp - b).abs()))
            .fold(0.0, f64::max);
        let nodes = runs.iter().map(|r| r.0.nodes).sum::<f64>() / runs.len().max(1) as f64;
        let root_secs: Vec<f64> = runs
            .iter()
            .filter(|r| r.0.root_settled)
            .map(|r| r.0.root_seconds)
            .filter(|s| s.is_finite())
            .collect();
        bad += runs
            .iter()
            .map(|r| r.0.violations + r.0.contradictions(r.1))
            .sum::<usize>();
        let name = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for (r, k) in &runs {
            let _ = writeln!(
                tsv,
                "{name}\t{}\t{}\t{}\t{:.3}\t{}\t{}\t{}\t{}\t{:.3}\t{}\t{}\t{}\t{:.4}\t",
                k.file,
                r.bins,
                r.bound,
                r.seconds,
                r.nodes,
                na_or(k.optimum),
                na_or(k.best_lb),
                na_or(k.best_ub),
                r.root_seconds,
                u8::from(r.root_converged),
                u8::from(r.root_settled),
                u8::from(r.checked),
                r.verify_seconds
            );
        }
        for (k, e) in &set_failures {
            let _ = writeln!(
                tsv,
                "{name}\t{}\tNA\tNA\tNA\tNA\t{}\t{}\t{}\tNA\tNA\tNA\tNA\tNA\t{}",
                k.file,
                na_or(k.optimum),
                na_or(k.best_lb),
                na_or(k.best_ub),
                e.replace(['\t', '\n'], " ")
            );
            failures.push(format!("{name}/{}: {e}", k.file));
        }
        let _ = writeln!(
            md,
            "| {name} | {} | {proven} | {at_opt} | {better} | {:.2} | {:.2} | {nodes:.1} | {lp_diff:.3} | {} | {:.2} | {:.2} |",
            runs.len(),
            super::median(&secs),
            secs.iter().copied().fold(0.0, f64::max),
            root_secs.len(),
            super::median(&root_secs),
            root_secs.iter().copied().fold(0.0, f64::max),
        );
    }
    if !failures.is_empty() {
        let _ = writeln!(
            md,
            "\n**{} instance(s) failed** (a solver's error, recorded and skipped; not counted \
             above):\n",
            failures.len()
        );
        for f in &failures {
            let _ = writeln!(md, "- {f}");
        }
    }
    let path = args.out.join("instances.tsv");
    std::fs::create_dir_all(&args.out)
        .and_then(|()| std::fs::write(&path, tsv))
        .map_err(|source| crate::Error::Io { path, source })?;
    let _ = writeln!(
        md,
        "\nPer instance: `instances.tsv`. Every packing through `verify`; no packing below a published lower bound, no bound \
         above a published packing: {bad} violations. Proven with the bound re-derived by \
         `verify --strict` (models/proofs.md): {rederived} / {all_proven}. Verify time (the \
         feasibility check and the bound's re-derivation, in process) against the solve's, \
         median: {:.1}%.",
        100.0 * super::median(&shares)
    );
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run with `bins` bins proven optimal, verified, no statistics.
    fn proven_run(bins: u64) -> BenchRun {
        BenchRun {
            bins,
            bound: bins,
            seconds: 0.5,
            root_lp: f64::NAN,
            nodes: 0.0,
            root_seconds: f64::NAN,
            root_converged: false,
            root_settled: false,
            violations: 0,
            checked: true,
            verify_seconds: 0.0,
        }
    }

    #[test]
    fn optima_columns_by_header_and_na_rows() {
        let dir = std::env::temp_dir().join(format!("vcalloc-optima-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("optima.tsv"),
            "instance\toptimum\tsource\tstatus\tbest_lb\tbest_ub\na.cbp\t8\tx\toptimal\t8\t8\nb.cbp\tNA\tx\topen\t7\t8\n",
        )
        .unwrap();
        let k = read_optima(&dir).unwrap();
        assert_eq!(k[0].optimum, Some(8));
        assert_eq!(
            (k[1].optimum, k[1].best_lb, k[1].best_ub),
            (None, Some(7), Some(8))
        );
        let run = proven_run(7);
        assert_eq!(run.contradictions(&k[1]), 0);
        assert_eq!(run.contradictions(&k[0]), 1);
        assert_eq!(set_folders(&dir), vec![dir.clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A solver's failure on one instance is recorded and the sweep goes on; bad input
    /// still stops it, naming the file.
    #[test]
    fn a_solver_failure_is_recorded_and_the_sweep_goes_on() {
        let dir = std::env::temp_dir().join(format!("vcalloc-sweep-{}", std::process::id()));
        let set = dir.join("set");
        std::fs::create_dir_all(&set).unwrap();
        std::fs::write(
            set.join("optima.tsv"),
            "instance\toptimum\na.cbp\t3\nb.cbp\t4\n",
        )
        .unwrap();
        let args = StudyArgs {
            out: dir.join("out"),
            seed: 0,
            count: None,
            settings: None,
            input: Some(set.clone()),
            time_limit: None,
        };
        let good = proven_run(3);
        let md = sweep(&args, "", "t", |path| {
            if path.ends_with("b.cbp") {
                Err(crate::error::Error::Highs("status Unknown".into()))
            } else {
                Ok(good.clone())
            }
        })
        .unwrap();
        assert!(md.contains("**1 instance(s) failed**"), "{md}");
        assert!(
            md.contains("set/b.cbp:") && md.contains("status Unknown"),
            "{md}"
        );
        assert!(md.contains("| set | 1 | 1 | 1 |"), "{md}");
        let tsv = std::fs::read_to_string(dir.join("out").join("instances.tsv")).unwrap();
        let rows: Vec<&str> = tsv.lines().collect();
        assert_eq!(rows.len(), 3, "{tsv}");
        assert!(rows[0].ends_with("\terror"));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("set\tb.cbp\tNA") && r.contains("status Unknown")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("set\ta.cbp\t3\t3") && r.ends_with('\t')));
        let stopped = sweep(&args, "", "t", |path| {
            Err(InputError::new(path, Location::File, "", "malformed").into())
        });
        assert!(stopped.unwrap_err().to_string().contains("malformed"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
