//! The `periodic` commands.

use super::args::SolvePeriodic;
use super::commands::emit;
use std::path::Path;
use vcalloc::periodic::{self, Format, Instance, Settings, Solution};
use vcalloc::Location;

pub fn solve(a: &SolvePeriodic) -> vcalloc::Result<i32> {
    let inst = Instance::load(&a.file, a.format)?;
    let mut settings = match &a.settings {
        Some(p) => Settings::load(p)?,
        None => Settings::default(),
    };
    // Options override the file; each is checked as the file's fields are.
    let args = Path::new("<arguments>");
    if a.time_limit.is_some() {
        settings.time_limit = a.time_limit;
    }
    if let Some(t) = a.integer_time_limit {
        settings.integer_time_limit = t;
    }
    if let Some(s) = a.smoothing {
        settings.cg.smoothing = s;
    }
    if a.exact_pricing {
        settings.pricing.exact_every_iteration = true;
    }
    if let Some(n) = a.node_relaxation {
        settings.pricing.node_solver = n;
    }
    if let Some(b) = a.node_bound {
        settings.pricing.node_bound = b;
    }
    // The file's values were checked as it was read: a value rejected now came from an option.
    settings.check(args).map_err(|e| match e {
        vcalloc::Error::Input(mut i) => {
            if let Location::Field(f) = &i.location {
                let option = match f.as_str() {
                    "cg.smoothing" => "--smoothing".to_string(),
                    other => format!("--{}", other.replace('_', "-")),
                };
                i.location = Location::Argument(option);
            }
            vcalloc::Error::Input(i)
        }
        other => other,
    })?;
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
