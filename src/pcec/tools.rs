//! The family's own commands: `vcalloc capacity pcec PMS.json` (EC and PC of every VM of a
//! PM description) and `vcalloc simulate pcec TRACE` (one policy on a trace: per-job CSV,
//! summary on standard output, optionally the fluid LP bound beside it).

use super::{capacity, fluid_bound, verify, Load, Method, Pcec, PmDescription, Settings};
use crate::error::{Error, InputError, Location, Result};
use crate::problem::{apply_flags, Flag, Problem, Target, Tool, ToolArgs};
use crate::solver::Deadline;
use std::fmt::Write;

/// `capacity` and `simulate`.
pub(crate) fn tools() -> Vec<Tool> {
    let mut sim_flags: Vec<Flag> = Pcec::flags()
        .into_iter()
        .filter(|f| matches!(f.target, Target::Load | Target::Settings))
        .collect();
    sim_flags.push(Flag::takes(
        "policy",
        Target::Tool,
        "policy",
        "POLICY",
        "ec, pc or ec-lb (enumerate on tiny instances); required",
    ));
    sim_flags.push(Flag::takes(
        "time-limit",
        Target::Tool,
        "time_limit",
        "SECONDS",
        "Wall-clock limit of the fluid LP bound (its windows left are then bounded by the trivial bound)",
    ));
    sim_flags.push(Flag::sets(
        "fluid-bound",
        Target::Tool,
        "fluid_bound",
        "true",
        "Also compute the fluid LP lower bound on the mean XF of any schedule, and the policy's ratio to it",
    ));
    vec![
        Tool {
            command: "capacity",
            about: "Capacity metrics of a machine description",
            title: "EC and PC of every VM of PMs with min/max/share and current demands",
            input: r#"PM description: {"pms": [{"pcap": 1, "vms": [{"name": "A", "min": 0, "max": 1, "share": 1, "demand": 0.5}]}]}"#,
            aliases: &[],
            flags: Vec::new(),
            output: Some("Also write the capacities as JSON here"),
            run: capacity_tool,
        },
        Tool {
            command: "simulate",
            about: "Simulate a scheduling policy on a workload",
            title: "FCFS dispatch of an SWF trace (or instance JSON) by EC or PC: per-job CSV, summary on stdout",
            input: "SWF trace (.swf, .swf.gz) or instance JSON",
            aliases: &[],
            flags: sim_flags,
            output: Some("Write the per-job CSV (id,submit,start,end,pm,vm,xf) here"),
            run: simulate_tool,
        },
    ]
}

fn capacity_tool(a: &ToolArgs<'_>) -> Result<String> {
    let desc = PmDescription::from_json(&crate::input::read_text(a.file)?, a.file)?;
    let caps = capacity(&desc);
    if let Some(out) = a.output {
        let json = serde_json::to_string_pretty(&caps).expect("capacities serialise");
        std::fs::write(out, json + "\n").map_err(Error::io(out))?;
    }
    let mut s = format!(
        "{:>3} {:<12} {:>7} {:>7} {:>7} {:>7} {:>10} {:>7} {:>7}\n",
        "pm", "vm", "min", "max", "share", "demand", "allocation", "EC", "PC"
    );
    for (p, (pm, cap)) in desc.pms.iter().zip(&caps).enumerate() {
        for (vm, c) in pm.vms.iter().zip(&cap.vms) {
            let _ = writeln!(
                s,
                "{p:>3} {:<12} {:>7.4} {:>7.4} {:>7.4} {:>7.4} {:>10.4} {:>7.4} {:>7.4}",
                c.name, vm.min, vm.max, vm.share, vm.demand, c.allocation, c.ec, c.pc
            );
        }
    }
    Ok(s)
}

fn argument(name: &str, value: &str, why: impl Into<String>) -> Error {
    InputError::new("<arguments>", Location::Argument(name.into()), value, why).into()
}

fn simulate_tool(a: &ToolArgs<'_>) -> Result<String> {
    let policy = a
        .option("policy")
        .ok_or_else(|| argument("--policy", "", "required: ec, pc or ec-lb"))?;
    let method: Method = policy
        .parse()
        .map_err(|why: String| argument("--policy", policy, why))?;
    let time_limit = a.time_limit()?;
    let load: Load = apply_flags(None, &a.of(Target::Load))?;
    let settings: Settings = apply_flags(a.settings, &a.of(Target::Settings))?;
    let inst = Pcec::load(a.file, &load)?;
    let began = std::time::Instant::now();
    let sol = super::solve(&inst, method, &settings)?;
    let seconds = began.elapsed().as_secs_f64();
    if let Some(v) = verify(&inst, &sol).first() {
        return Err(Error::Consistency(format!(
            "{} failed verification: {v}",
            method.name()
        )));
    }
    if let Some(out) = a.output {
        sol.write_jobs_csv(out)?;
    }
    let mut s = format!("{} ({seconds:.3} s)\n", sol.summary_line());
    if a.option("fluid_bound").is_some() {
        let b = fluid_bound(&inst, &settings, &Deadline::after(time_limit))?;
        let _ = writeln!(
            s,
            "fluid LP lower bound on the mean XF of any schedule: {:.4} (trivial {:.4}; {} windows, {} fallbacks, {:.2} s); {}/bound = {:.3}",
            b.mean_xf,
            b.trivial,
            b.windows,
            b.fallbacks,
            b.seconds,
            method.name(),
            sol.summary.mean_xf / b.mean_xf
        );
    }
    Ok(s)
}
