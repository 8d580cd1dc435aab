//! `experiment socbp-cloud --input DIR`: branch-and-price on every `.cbp` instance of a set
//! with `optima.tsv` (CloudSmall), each within `study_seconds`; proven counts and times beside
//! the published optima and bounds (the sweep is [`crate::experiment::benchmark_sweep`]).

use super::instance::Instance;
use super::solve::{solve, verify, Method, Settings};
use crate::error::Result;
use crate::experiment::{benchmark_sweep, BenchRun};
use crate::problem::StudyArgs;

/// Runs the study.
pub fn run(args: &StudyArgs) -> Result<String> {
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    let title = format!(
        "# SOC-capacity bin packing: branch-and-price on CloudSmall\n\nEach instance within {} s.",
        args.time_limit.unwrap_or(settings.study_seconds)
    );
    benchmark_sweep(
        args,
        "../shared/benchmarks/socbp_cloud_small",
        &title,
        |path| {
            let inst = Instance::load_file(path)?;
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
        },
    )
}
