//! The `periodic` commands.

use super::args::SolvePeriodic;
use super::commands::emit;
use std::path::Path;
use vcalloc::periodic::{self, Format, Instance, Settings, Solution};
use vcalloc::{InputError, Location};

pub fn solve(a: &SolvePeriodic) -> vcalloc::Result<i32> {
    let inst = Instance::load(&a.file, a.format)?;
    if !(0.0..1.0).contains(&a.smoothing) {
        return Err(InputError::new(
            "<arguments>",
            Location::Argument("--smoothing".into()),
            a.smoothing.to_string(),
            "must be in [0, 1)",
        )
        .into());
    }
    for (name, v) in [
        ("--time-limit", a.time_limit),
        ("--integer-time-limit", Some(a.integer_time_limit)),
    ] {
        if let Some(t) = v.filter(|t| !(t.is_finite() && *t > 0.0)) {
            return Err(InputError::new(
                "<arguments>",
                Location::Argument(name.into()),
                t.to_string(),
                "must be a positive number of seconds",
            )
            .into());
        }
    }
    let mut settings = Settings {
        time_limit: a.time_limit,
        integer_time_limit: a.integer_time_limit,
        ..Settings::default()
    };
    settings.cg.smoothing = a.smoothing;
    settings.pricing.exact_every_iteration = a.exact_pricing;
    settings.pricing.node_solver = a.node_relaxation;
    let sol = periodic::solve(&inst, a.method, &settings)?;
    emit(&sol.to_json(), a.output.as_deref())?;
    if a.output.is_some() {
        println!(
            "{:<12} {:<10} {:>9} {:>12} {:>10} {:>7} {:>6} {:>9}",
            "method", "status", "machines", "lower bound", "lp bound", "gap", "iter", "seconds"
        );
        println!(
            "{:<12} {:<10} {:>9} {:>12} {:>10} {:>7} {:>6} {:>9.3}",
            sol.method,
            sol.status.as_str(),
            sol.machines.map_or("-".into(), |m| m.to_string()),
            sol.lower_bound,
            sol.lp_bound.map_or("-".into(), |b| format!("{b:.3}")),
            sol.gap.map_or("-".into(), |g| format!("{:.2}%", 100.0 * g)),
            sol.iterations,
            sol.seconds
        );
    }
    Ok(0)
}

/// True when the file is a JSON document whose `problem` is `"periodic"`.
pub fn is_periodic_solution(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.get("problem").and_then(|p| p.as_str()) == Some("periodic"))
}

pub fn verify(instance: &Path, solution: &Path, format: Option<Format>) -> vcalloc::Result<i32> {
    let inst = Instance::load(instance, format)?;
    let sol = Solution::load(solution)?;
    let violations = periodic::verify(&inst, &sol);
    if violations.is_empty() {
        println!(
            "ok: {} periodic solution by {} satisfies every constraint ({} jobs, {} tasks, {} machines)",
            sol.status,
            sol.method,
            inst.jobs.len(),
            inst.num_tasks(),
            sol.machines.map_or("no".into(), |m| m.to_string())
        );
        Ok(0)
    } else {
        for v in &violations {
            println!("violated {v}");
        }
        Ok(1)
    }
}
