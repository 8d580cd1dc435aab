//! `experiment binpacking-bpplib --input DIR`: branch-and-price on every instance of a BPPLIB
//! set (a folder with `optima.tsv`), or of every such set below `DIR`, each within
//! `study_seconds`; proven-optimal counts, times, and the root LP beside Brandão's `lp_bound`
//! (the sweep itself is [`crate::experiment::benchmark_sweep`]).

use super::instance::Instance;
use super::solve::{solve, verify, Method, Settings};
use crate::error::Result;
use crate::experiment::{benchmark_sweep, BenchRun};
use crate::problem::StudyArgs;

/// Runs the study.
pub fn run(args: &StudyArgs) -> Result<String> {
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    let title = format!(
        "# Bin packing: branch-and-price on BPPLIB\n\nEach instance within {} s.",
        args.time_limit.unwrap_or(settings.study_seconds)
    );
    benchmark_sweep(args, "../shared/benchmarks/falkenauer_t", &title, |path| {
        let inst = Instance::load(path)?;
        let sol = solve(
            &inst,
            Method::Bp,
            &settings,
            &args.deadline(Some(settings.study_seconds)),
        )?;
        Ok(BenchRun::verified(sol.bins.len(), &sol.certificate, || {
            let violations = verify(&inst, &sol).len();
            let shallow = crate::problem::Depth::shallow();
            (
                violations,
                super::proof::check(&inst, &sol, shallow).is_checked(),
            )
        }))
    })
}
