//! `experiment vcsched-infeasible`: where the paper's counts and ours part.
//!
//! 1. The small set's infeasible count (RR-6692 §4.2.2: 60 of 1,440; ours 117) under every
//!    reading of §4.1's generator ([`Reading`]) and several base seeds, each instance classified
//!    by `exact` (a proof either way), with the cause (`Σ m > H`, or no packing), and the
//!    distribution by slack, memory cv and job count.
//! 2. MCB8's large outliers (§4.2.1's Figure 7 table: max 3.16% degradation from the best MCB;
//!    ours 34.7%): on the memory-tight corner of the large set (slack ≤ 0.2, memory cv 0.75),
//!    every instance where MCB8 is more than 10% below the best variant, with what MCB8's
//!    packing does on a grid of yields — whether it packs above its binary search's answer
//!    (the search missed it) or nowhere there (the packing rule itself fails).

use super::generate::{generate_read, Reading, Spec};
use super::mcb::{self, variant};
use super::problem::GenSpec;
use super::relaxation::closed_form_bound;
use super::{solve, Instance, Method, Settings};
use crate::error::Result;
use crate::problem::{StudyArgs, SweepInstance};
use crate::Status;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Base seeds (sets of 1,440) per reading when `--instances` is not given.
const DEFAULT_SETS: usize = 5;
/// Points of the yield grid on which MCB8's packing is tried.
const GRID: usize = 2000;

fn base(s: &GenSpec) -> Spec {
    Spec {
        hosts: s.hosts,
        jobs: s.jobs,
        slack: s.slack,
        cv_mem: s.cv_mem,
        cv_cpu: s.cv_cpu,
        seed: s.seed,
        parallel: false,
    }
}

/// Why an instance is infeasible, or `None` when it is feasible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Cause {
    /// `Σ m > H`: the relaxation is infeasible.
    MemorySum,
    /// `Σ m ≤ H` but no placement fits (proved by `exact`).
    Packing,
    /// `exact` neither found a placement nor ruled one out.
    Unknown,
}

fn classify(inst: &Instance) -> Result<Option<Cause>> {
    if closed_form_bound(inst).is_none() {
        return Ok(Some(Cause::MemorySum));
    }
    let sol = solve(inst, Method::Exact, &Settings::default())?;
    Ok(match sol.status {
        Status::Infeasible => Some(Cause::Packing),
        Status::Unknown => Some(Cause::Unknown),
        _ => None,
    })
}

/// `(slack, cv_mem, jobs)` → (infeasible, instances) of one set.
type Cells = BTreeMap<(String, String, usize), (usize, usize)>;

fn infeasible_counts(out: &mut String, args: &StudyArgs) -> Result<()> {
    let sets = args.count.unwrap_or(DEFAULT_SETS).max(1);
    let _ = writeln!(
        out,
        "## 1. Infeasible instances of the small set, by reading of §4.1\n\n\
         {sets} sets of 1,440 (base seeds {} to {}; the sweep's seeds, `vcsched-small --seed S`), \
         each instance classified by `exact`. Paper: 60 of 1,440 (\"judged to be infeasible \
         because the GLPK solver could not find a solution\"). Readings: `reject` (ours: a draw \
         outside (0, 1] is drawn again), `clip` (moved to the nearest end), `exact-slack` \
         (memory scaled so that Σm = H (1 − slack) exactly), `sqrt-cv` (sd = √cv × mean).\n\n\
         | reading | infeasible per set | mean | of which Σm > H (mean) | no packing (mean) | unknown |\n\
         |---|---|---|---|---|---|",
        args.seed,
        args.seed + sets as u64 - 1
    );
    let mut first: BTreeMap<&'static str, Cells> = BTreeMap::new();
    for reading in Reading::ALL {
        let mut per_set = Vec::new();
        let (mut sum, mut packing, mut unknown) = (0, 0, 0);
        for s in 0..sets {
            let seed = args.seed + s as u64;
            let mut cells = Cells::new();
            let mut n = 0;
            for si in super::sweeps::small(10, seed) {
                let SweepInstance { spec, .. } = si;
                let inst = generate_read(&base(&spec), reading)?;
                let cause = classify(&inst)?;
                let key = (
                    format!("{:.1}", spec.slack),
                    format!("{}", spec.cv_mem),
                    spec.jobs,
                );
                let cell = cells.entry(key).or_default();
                cell.1 += 1;
                if let Some(c) = cause {
                    cell.0 += 1;
                    n += 1;
                    match c {
                        Cause::MemorySum => sum += 1,
                        Cause::Packing => packing += 1,
                        Cause::Unknown => unknown += 1,
                    }
                }
            }
            per_set.push(n);
            if s == 0 {
                first.insert(reading.name(), cells);
            }
        }
        let f = sets as f64;
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {:.1} | {:.1} | {unknown} |",
            reading.name(),
            per_set
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            per_set.iter().sum::<usize>() as f64 / f,
            sum as f64 / f,
            packing as f64 / f,
        );
    }
    for (name, cells) in &first {
        distribution(out, name, cells, args.seed);
    }
    Ok(())
}

/// Infeasible counts by slack (rows) and memory cv × jobs (columns), of 20 instances each.
fn distribution(out: &mut String, reading: &str, cells: &Cells, seed: u64) {
    let cols: Vec<(String, usize)> = {
        let mut c: Vec<(String, usize)> = cells.keys().map(|k| (k.1.clone(), k.2)).collect();
        c.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        c.dedup();
        c
    };
    let mut slacks: Vec<&String> = cells.keys().map(|k| &k.0).collect();
    slacks.dedup();
    let _ = writeln!(
        out,
        "\n### `{reading}`, base seed {seed}: infeasible instances by parameter\n\n\
         Each cell counts 20 instances (10 per CPU cv; CPU needs do not decide feasibility).\n\n\
         | slack | {} | total |\n|---|{}---|",
        cols.iter()
            .map(|(cv, j)| format!("cv_mem {cv}, {j} jobs"))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(cols.len())
    );
    let mut totals = vec![0; cols.len()];
    for sl in slacks {
        let mut line = format!("| {sl} |");
        let mut row = 0;
        for (c, (cv, j)) in cols.iter().enumerate() {
            let n = cells.get(&(sl.clone(), cv.clone(), *j)).map_or(0, |c| c.0);
            totals[c] += n;
            row += n;
            line.push_str(&format!(" {n} |"));
        }
        let _ = writeln!(out, "{line} {row} |");
    }
    let _ = writeln!(
        out,
        "| all | {} | {} |",
        totals
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" | "),
        totals.iter().sum::<usize>()
    );
}

/// MCB8 against the best MCB variant on the memory-tight corner of the large set.
fn mcb8_outliers(out: &mut String, args: &StudyArgs) -> Result<()> {
    let tol = Settings::default().mcb_tolerance;
    let corner: Vec<SweepInstance<GenSpec>> = super::sweeps::large(100, args.seed)
        .into_iter()
        .filter(|si| si.spec.slack <= 0.2 + 1e-9 && si.spec.cv_mem == 0.75)
        .collect();
    let _ = writeln!(
        out,
        "\n## 2. MCB8's outliers on the large set\n\n\
         The memory-tight corner of `vcsched-large --seed {}` (slack ≤ 0.2, memory cv 0.75: {} \
         instances; the large set's degradations above 10% all lie there, results.md), every \
         instance where MCB8 is more than 10% below the best MCB variant in either scoring: by \
         the binary search's yield (*search*, the paper's) or by the placement's optimal minimum \
         yield (*placement*, ours). *MCB8 packs up to*: the largest yield of a {GRID}-point grid \
         over (0, LP bound] at which MCB8's packing succeeds; *switches*: how often success \
         flips along the grid (0 or 1 for a monotone packing).\n\n\
         | instance | LP bound | best (search) | MCB8 search yield | degradation % (search) | best (placement) | MCB8 placement yield | degradation % (placement) | MCB8 packs up to | switches |\n\
         |---|---|---|---|---|---|---|---|---|---|",
        args.seed,
        corner.len()
    );
    let (mut outliers, mut missed) = (0, 0);
    for si in &corner {
        let inst = super::generate(&base(&si.spec))?;
        let Some(ub) = closed_form_bound(&inst) else {
            continue;
        };
        let runs: Vec<(u8, mcb::McbResult)> =
            (1..=8).map(|k| (k, mcb::mcb(&inst, k, ub, tol))).collect();
        let placed = |r: &mcb::McbResult| {
            r.placement
                .as_deref()
                .map(|p| super::placement_min_yield(&inst, p))
        };
        let best_by = |score: &dyn Fn(&mcb::McbResult) -> Option<f64>| {
            runs.iter()
                .filter_map(|r| Some((r.0, score(&r.1)?)))
                .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a })
        };
        let searched = |r: &mcb::McbResult| r.placement.as_ref().map(|_| r.search_yield);
        let (best_k, best) = best_by(&searched);
        let (best_pk, best_p) = best_by(&placed);
        let m8 = &runs[7].1;
        let Some(m8_placed) = placed(m8) else {
            continue;
        };
        if best <= 0.0 || best_p <= 0.0 {
            continue;
        }
        let deg = 100.0 * (best - m8.search_yield) / best;
        let deg_p = 100.0 * (best_p - m8_placed) / best_p;
        if deg <= 10.0 && deg_p <= 10.0 {
            continue;
        }
        outliers += 1;
        let (key, desc) = variant(8);
        let mut top = 0.0;
        let mut switches = 0;
        let mut last = None;
        for g in 1..=GRID {
            let y = ub * g as f64 / GRID as f64;
            let ok = mcb::pack(&inst, key, desc, y).is_some();
            if ok {
                top = y;
            }
            if last.is_some_and(|l| l != ok) {
                switches += 1;
            }
            last = Some(ok);
        }
        if top > m8.search_yield + ub / GRID as f64 {
            missed += 1;
        }
        let _ = writeln!(
            out,
            "| {} | {ub:.4} | mcb{best_k} {best:.4} | {:.4} | {deg:.2} | mcb{best_pk} {best_p:.4} | {m8_placed:.4} | {deg_p:.2} | {top:.4} | {switches} |",
            si.id, m8.search_yield
        );
    }
    let _ = writeln!(
        out,
        "\n{outliers} instances with MCB8 more than 10% below the best variant in either \
         scoring; on {missed} of them MCB8's packing succeeds somewhere on the grid above the \
         yield its binary search returned (the packing is not monotone in the yield, and the \
         search stepped over a yield where it succeeds)."
    );
    Ok(())
}

/// Runs the study and returns its report.
pub fn run(args: &StudyArgs) -> Result<String> {
    let mut out = String::from(
        "# vcsched-infeasible: the infeasible count and MCB8's outliers against RR-6692\n\n",
    );
    infeasible_counts(&mut out, args)?;
    mcb8_outliers(&mut out, args)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `classify` calls an instance infeasible exactly when brute force finds no placement.
    #[test]
    fn classify_agrees_with_brute_force() {
        let mut infeasible = 0;
        for seed in 0..40 {
            let spec = Spec {
                hosts: 3,
                jobs: 6,
                slack: 0.1,
                cv_mem: 0.75,
                cv_cpu: 0.75,
                seed,
                parallel: false,
            };
            for reading in Reading::ALL {
                let inst = generate_read(&spec, reading).unwrap();
                let cause = classify(&inst).unwrap();
                let brute = super::super::brute::optimal_min_yield(&inst);
                assert_eq!(cause.is_some(), brute.is_none(), "seed {seed} {reading:?}");
                assert_ne!(cause, Some(Cause::Unknown));
                if cause == Some(Cause::MemorySum) {
                    assert!(inst.total_mem() > inst.hosts as f64);
                }
                infeasible += usize::from(cause.is_some());
            }
        }
        assert!(infeasible > 0, "the test must meet infeasible instances");
    }
}
