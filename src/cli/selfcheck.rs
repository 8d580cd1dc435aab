//! `vcalloc selfcheck`: runs the soak and prints its summary, or replays one case.

use super::args::SelfCheck;
use std::sync::atomic::{AtomicUsize, Ordering};
use vcalloc::problem::selfcheck::{families, run as soak, CaseReport};
use vcalloc::{Error, InputError, Location};

fn show(problem: &str, seed: u64, r: &CaseReport) -> String {
    let mut out = format!(
        "DISAGREEMENT {problem} {} (seed {seed}; replay: vcalloc selfcheck --problem {problem} --replay {seed})\n",
        r.kind
    );
    for d in &r.disagreements {
        out.push_str(&format!("  {d}\n"));
    }
    out.push_str(&format!("  instance: {}\n", r.instance));
    out
}

pub fn run(a: &SelfCheck) -> vcalloc::Result<i32> {
    let fams = families(a.problem.as_deref());
    if fams.is_empty() {
        let why = "no family of that name has a self-check";
        let value = a.problem.clone().unwrap_or_default();
        return Err(InputError::new(
            "<arguments>",
            Location::Argument("--problem".into()),
            value,
            why,
        )
        .into());
    }
    if let Some(seed) = a.replay {
        let r = fams[0].selfcheck(seed).expect("families have a self-check");
        if r.disagreements.is_empty() {
            println!(
                "{} {} (seed {seed}): {} checks, no disagreement",
                fams[0].name(),
                r.kind,
                r.checks
            );
            println!("  instance: {}", r.instance);
            return Ok(0);
        }
        print!("{}", show(fams[0].name(), seed, &r));
        return Ok(1);
    }
    let threads = a.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Consistency(format!("thread pool: {e}")))?;
    let done = AtomicUsize::new(0);
    let step = (a.cases / 10).max(1);
    let progress = || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(step) {
            eprintln!("selfcheck: {n}/{} cases", a.cases);
        }
    };
    let s = pool.install(|| soak(&fams, a.cases, a.seed, &progress));
    for f in &s.failures {
        print!("{}", show(f.problem, f.seed, &f.report));
    }
    for (kind, n) in &s.per_kind {
        println!("  {kind:<28} {n:>7} cases");
    }
    println!(
        "selfcheck: {} cases, {} checks, {} disagreements, {:.1} s (seed {}, {} families, {} threads)",
        s.cases,
        s.checks,
        s.failures.len(),
        s.seconds,
        a.seed,
        fams.len(),
        pool.current_num_threads()
    );
    Ok(if s.failures.is_empty() { 0 } else { 1 })
}
