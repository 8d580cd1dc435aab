//! `experiment colgen-root --input PATH`: how the root column generation converges, for every
//! family that runs one. Every instance file under `PATH` goes to the first registered family
//! that offers a `cg` method and reads it ([`crate::problem::Entry::claims`]); its `cg` solve
//! runs under [`crate::colgen::trace::capture`], and the study reports per instance the root's
//! record from the certificate (iterations, columns, seconds, converged, settled, bound) and,
//! from the trace, the seconds until the integer bound settled (`⌈bound⌉ = ⌈master⌉`). For
//! the first instance of each family it draws the classic picture, master value and safe bound
//! against time (`root-FAMILY.svg`); `traces.tsv` holds every instance's points. Knows no
//! problem: the registry does the loading and the solving, and every answer is verified there.

use super::report::{cell, max, median};
use crate::colgen::trace::{self, Loop};
use crate::error::{InputError, Location, Result};
use crate::outcome::ceil_with_tolerance;
use crate::problem::{registry, Common, Entry, SolveRequest, Study, StudyArgs};
use rayon::prelude::*;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Seconds per solve when `--time-limit` is not given.
const DEFAULT_SECONDS: f64 = 60.0;

/// The study's entry for the registry.
pub fn root_study() -> Study {
    Study {
        name: "colgen-root",
        title: "Root column generation of every instance under --input (any family with a `cg` method): seconds to convergence, iterations, bound, and master value and bound against time (SVG)",
        limits: Some("each instance's `cg` solve (default 60 s)"),
        run,
    }
}

/// One instance's run.
struct RootRow {
    file: String,
    family: &'static str,
    outcome: std::result::Result<Outcome, String>,
}

struct Outcome {
    status: String,
    objective: Option<f64>,
    bound: Option<f64>,
    seconds: f64,
    stat: std::collections::BTreeMap<String, f64>,
    root: Loop,
}

impl Outcome {
    fn get(&self, key: &str) -> Option<f64> {
        self.stat.get(key).copied()
    }

    /// Seconds (since the solve began) at which the root's integer bound first settled: the
    /// first traced point whose ceilings meet or, for a root that settled without (converged
    /// with a master a few 10⁻⁷ above an integer, within HiGHS's tolerances, when the pricing
    /// proved that no column improves; or stopped once `⌈bound⌉` reached the incumbent, which
    /// proves `⌈bound⌉ = ⌈LP⌉`), the root's last point.
    fn settled_at(&self) -> Option<f64> {
        self.root
            .iter()
            .find(|p| {
                p.bound > 0.0 && ceil_with_tolerance(p.bound) >= ceil_with_tolerance(p.master)
            })
            .or_else(|| {
                self.root
                    .last()
                    .filter(|_| self.flag("root_converged") || self.flag("root_settled"))
            })
            .map(|p| p.seconds)
    }

    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| v > 0.5)
    }

    /// The root's columns of both tables, in their order: converged, settled (as `yes`/`1`),
    /// root seconds, settled seconds, iterations, columns, root bound and master; `fine`
    /// (`roots.tsv`) with more digits than the report's.
    fn root_cells(&self, fine: bool) -> [String; 8] {
        let (secs, lp) = if fine { (3, 6) } else { (2, 4) };
        let flag = |key: &str| match (self.flag(key), fine) {
            (true, true) => "1".to_string(),
            (false, true) => "0".to_string(),
            (true, false) => "yes".to_string(),
            (false, false) => "no".to_string(),
        };
        [
            flag("root_converged"),
            flag("root_settled"),
            cell(self.get("root_seconds"), secs),
            cell(self.settled_at(), secs),
            cell(self.get("root_iterations"), 0),
            cell(self.get("root_columns"), 0),
            cell(self.get("root_bound"), lp),
            cell(self.get("root_master"), lp),
        ]
    }
}

/// The instance files under `input` (itself when a file), sorted, recursively; notes and
/// tables (`.md`, `.tsv`, `.csv`, `.txt` named README) are not instances.
fn instance_files(input: &Path) -> Result<Vec<PathBuf>> {
    let meta = std::fs::metadata(input).map_err(|e| {
        InputError::new(
            input,
            Location::Argument("--input".into()),
            input.display().to_string(),
            format!("cannot read it: {e}"),
        )
    })?;
    if meta.is_file() {
        return Ok(vec![input.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![input.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| crate::Error::Io {
            path: dir.clone(),
            source,
        })?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            let note = matches!(ext, "md" | "tsv" | "csv" | "svg")
                || name.to_ascii_lowercase().starts_with("readme")
                || name.starts_with('.');
            if !note {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The family that reads `file` and runs column generation.
fn family_of(file: &Path) -> Option<&'static dyn Entry> {
    registry()
        .iter()
        .copied()
        .filter(|e| e.methods().iter().any(|(m, _)| m == "cg"))
        .find(|e| e.claims(file))
}

fn run_one(args: &StudyArgs, input: &Path, file: &Path) -> Option<RootRow> {
    let entry = family_of(file)?;
    let req = SolveRequest {
        file,
        method: "cg",
        settings: args.settings.as_deref(),
        flags: &[],
        common: Common {
            seed: Some(args.seed),
            threads: Some(1),
        },
        time_limit: Some(args.time_limit.unwrap_or(DEFAULT_SECONDS)),
    };
    let (answer, loops) = trace::capture(|| entry.solve(&req));
    let outcome = answer
        .map(|a| Outcome {
            status: a.certificate.status.to_string(),
            objective: a.certificate.objective,
            bound: a.certificate.bound,
            seconds: a.certificate.seconds,
            stat: a.certificate.stats,
            root: loops
                .into_iter()
                .find(|l| !l.is_empty())
                .unwrap_or_default(),
        })
        .map_err(|e| e.to_string());
    let name = file.strip_prefix(input).unwrap_or(file);
    Some(RootRow {
        file: if name.as_os_str().is_empty() {
            file.display().to_string()
        } else {
            name.display().to_string()
        },
        family: entry.name(),
        outcome,
    })
}

fn run(args: &StudyArgs) -> Result<String> {
    let Some(input) = args.input.as_deref() else {
        return Err(InputError::new(
            "<arguments>",
            Location::Argument("--input".into()),
            "",
            "colgen-root needs --input: an instance file or a folder of them",
        )
        .into());
    };
    let mut files = instance_files(input)?;
    if let Some(n) = args.count {
        files.truncate(n);
    }
    let runs: Vec<(PathBuf, Option<RootRow>)> = files
        .par_iter()
        .map(|f| (f.clone(), run_one(args, input, f)))
        .collect();
    let skipped: Vec<String> = runs
        .iter()
        .filter(|(_, r)| r.is_none())
        .map(|(f, _)| f.display().to_string())
        .collect();
    let rows: Vec<RootRow> = runs.into_iter().filter_map(|(_, r)| r).collect();
    write_files(&args.out, &rows)?;
    Ok(report(args, input, &rows, &skipped))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> crate::Error + '_ {
    move |source| crate::Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// `roots.tsv`, `traces.tsv` and one SVG per family.
fn write_files(out: &Path, rows: &[RootRow]) -> Result<()> {
    let mut roots = String::from(
        "instance\tfamily\tstatus\tobjective\tbound\tseconds\troot_converged\troot_settled\troot_seconds\tsettled_seconds\troot_iterations\troot_columns\troot_bound\troot_master\terror\n",
    );
    let mut traces = String::from("instance\tfamily\tseconds\tmaster\tbound\n");
    for r in rows {
        match &r.outcome {
            Ok(o) => {
                let _ = writeln!(
                    roots,
                    "{}\t{}\t{}\t{}\t{}\t{:.3}\t{}\t",
                    r.file,
                    r.family,
                    o.status,
                    cell(o.objective, 0),
                    cell(o.bound, 0),
                    o.seconds,
                    o.root_cells(true).join("\t"),
                );
                for p in &o.root {
                    let _ = writeln!(
                        traces,
                        "{}\t{}\t{:.4}\t{:.9}\t{:.9}",
                        r.file, r.family, p.seconds, p.master, p.bound
                    );
                }
            }
            Err(e) => {
                let _ = writeln!(
                    roots,
                    "{}\t{}\terror\t\t\t\t\t\t\t\t\t\t\t\t{}",
                    r.file,
                    r.family,
                    e.replace(['\t', '\n'], " ")
                );
            }
        }
    }
    let path = out.join("roots.tsv");
    std::fs::write(&path, roots).map_err(io(&path))?;
    let path = out.join("traces.tsv");
    std::fs::write(&path, traces).map_err(io(&path))?;
    for (family, r, o) in pictured(rows) {
        let path = out.join(format!("root-{family}.svg"));
        let master: Vec<(f64, f64)> = o.root.iter().map(|p| (p.seconds, p.master)).collect();
        // The bound starts at 0 (or a closed form far below); from its first useful value on.
        let floor = o.root.last().map_or(0.0, |p| p.bound) * 0.5;
        let bound: Vec<(f64, f64)> = o
            .root
            .iter()
            .filter(|p| p.bound > floor)
            .map(|p| (p.seconds, p.bound))
            .collect();
        super::plot::lines(
            &path,
            &format!("{family}: {} — root column generation", r.file),
            "seconds since the solve began",
            "LP value",
            &[
                ("master value (upper bound)".into(), master),
                ("safe Farley bound (lower bound)".into(), bound),
            ],
        )
        .map_err(|e| crate::Error::Io {
            path: path.clone(),
            source: std::io::Error::other(e),
        })?;
    }
    Ok(())
}

/// The first instance of each family whose root ran at least two iterations.
fn pictured(rows: &[RootRow]) -> Vec<(&'static str, &RootRow, &Outcome)> {
    let mut out: Vec<(&'static str, &RootRow, &Outcome)> = Vec::new();
    for r in rows {
        if let Ok(o) = &r.outcome {
            if o.root.len() >= 2 && !out.iter().any(|(f, _, _)| *f == r.family) {
                out.push((r.family, r, o));
            }
        }
    }
    out
}

fn report(args: &StudyArgs, input: &Path, rows: &[RootRow], skipped: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Root column generation — `experiment colgen-root --input {}`\n\nEach instance by its family's `cg` method within {} s, one HiGHS thread, seed {}. \
         `converged`: the pricing proved that no column improves (the bound is the LP optimum); \
         `settled`: converged, or `⌈bound⌉ = ⌈master⌉` proven; `settled s`: seconds from the \
         solve's start until the integer bound settled (the root begins after the family's \
         heuristics). Bounds are the engine's safe Farley bounds. Files: `roots.tsv`, \
         `traces.tsv`, `root-FAMILY.svg`.\n",
        input.display(),
        args.time_limit.unwrap_or(DEFAULT_SECONDS),
        args.seed
    );
    let families: Vec<&str> = {
        let mut f: Vec<&str> = rows.iter().map(|r| r.family).collect();
        f.sort_unstable();
        f.dedup();
        f
    };
    let _ = writeln!(
        s,
        "| family | instances | errors | root converged | root settled | root seconds median / max | settled seconds median / max | proven optimal |\n|---|---|---|---|---|---|---|---|"
    );
    for f in &families {
        let ok: Vec<&Outcome> = rows
            .iter()
            .filter(|r| r.family == *f)
            .filter_map(|r| r.outcome.as_ref().ok())
            .collect();
        let errors = rows
            .iter()
            .filter(|r| r.family == *f && r.outcome.is_err())
            .count();
        let secs: Vec<f64> = ok.iter().filter_map(|o| o.get("root_seconds")).collect();
        let settled: Vec<f64> = ok.iter().filter_map(|o| o.settled_at()).collect();
        let _ = writeln!(
            s,
            "| {f} | {} | {errors} | {} | {} | {} / {} | {} / {} | {} |",
            ok.len() + errors,
            ok.iter().filter(|o| o.flag("root_converged")).count(),
            ok.iter().filter(|o| o.flag("root_settled")).count(),
            cell((!secs.is_empty()).then(|| median(&secs)), 2),
            cell(max(&secs), 2),
            cell((!settled.is_empty()).then(|| median(&settled)), 2),
            cell(max(&settled), 2),
            ok.iter().filter(|o| o.status == "optimal").count(),
        );
    }
    let _ = writeln!(
        s,
        "\n| instance | family | status | packing | bound | root converged | settled | root s | settled s | iterations | columns | root bound | master |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in rows {
        match &r.outcome {
            Ok(o) => {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} |",
                    r.file,
                    r.family,
                    o.status,
                    cell(o.objective, 0),
                    cell(o.bound, 0),
                    o.root_cells(false).join(" | "),
                );
            }
            Err(e) => {
                let _ = writeln!(
                    s,
                    "| {} | {} | error: {e} | | | | | | | | | | |",
                    r.file, r.family
                );
            }
        }
    }
    for (family, r, _) in pictured(rows) {
        let _ = writeln!(s, "\n![{family}: {}](root-{family}.svg)", r.file);
    }
    if !skipped.is_empty() {
        let _ = writeln!(
            s,
            "\nNot read by any family with column generation ({}): {}",
            skipped.len(),
            skipped.join(", ")
        );
    }
    s
}
