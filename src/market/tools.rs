//! The family's own command: `vcalloc simulate market SCENARIO.json` (alias of `simulate
//! rebalance`): the §4–5 market simulation of a scenario file, a per-app per-period CSV with
//! `--output`, and a summary on standard output whose credit checks are re-derived here.

use super::scenario::Scenario;
use super::sim::{simulate_within, SimResult, SimSettings};
use crate::error::{Error, Result};
use crate::problem::{apply_flags, Flag, Invalid, Target, Tool, ToolArgs, Validate};
use std::fmt::Write;

impl Validate for SimSettings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        SimSettings::validate(self).map_err(Invalid::from_message)
    }
}

/// `simulate`.
pub(crate) fn tools() -> Vec<Tool> {
    vec![Tool {
        command: "simulate",
        about: "Simulate a scheduling policy on a workload",
        title: "Merkat's market (Eq. 1 shares, Algorithms 1–3, tabu rebalancing) on a scenario: per-period CSV, summary on stdout",
        input: r#"Scenario JSON: {"period_s": 40, "duration_s": 3600, "nodes": [{"cpu": 8, "mem": 16384}], "apps": [{"name": "a", "kind": "deadline", "arrival_s": 0, "vms": 2, "work": 1800, "deadline_s": 2400, "budget": 5000}]}"#,
        aliases: &["market"],
        flags: vec![
            Flag::takes(
                "admission",
                Target::Settings,
                "admission",
                "POLICY",
                "first_fit (Merkat's, default) or easy (EASY backfilling)",
            ),
            Flag::sets(
                "no-rebalance",
                Target::Settings,
                "rebalance_enabled",
                "false",
                "Do not run the tabu rebalancer each period",
            ),
            Flag::takes(
                "interference",
                Target::Settings,
                "interference",
                "F",
                "Slowdown per co-located VM (default 0)",
            ),
            Flag::takes(
                "time-limit",
                Target::Tool,
                "time_limit",
                "SECONDS",
                "Wall-clock limit: the run stops at the first period after it, its partial results written and labelled",
            ),
        ],
        output: Some("Write the per-period CSV (time_s,app,vms,bid_cpu,bid_mem,alloc_cpu,alloc_mem,price_cpu,progress,iteration_s,balance,queued,running,suspended) here"),
        run: simulate_tool,
    }]
}

/// The credit checks of a run: the largest `|bank + provider + Σ accounts − supply|` over
/// periods and the smallest balance of any account.
pub fn credit_checks(r: &SimResult) -> (f64, f64) {
    let imbalance = r
        .periods
        .iter()
        .map(|p| p.imbalance.abs())
        .fold(r.ledger.imbalance().abs(), f64::max);
    let min_balance = r
        .periods
        .iter()
        .map(|p| p.min_balance)
        .fold(r.ledger.min_balance(), f64::min);
    (imbalance, min_balance)
}

fn opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.1}"))
}

fn simulate_tool(a: &ToolArgs<'_>) -> Result<String> {
    let settings: SimSettings = apply_flags(a.settings, &a.of(Target::Settings))?;
    let sc = Scenario::from_json(&crate::input::read_text(a.file)?, a.file)?;
    let deadline = crate::solver::Deadline::after(a.time_limit()?);
    let began = std::time::Instant::now();
    let r = simulate_within(&sc, &settings, &deadline);
    let seconds = began.elapsed().as_secs_f64();
    let (imbalance, min_balance) = credit_checks(&r);
    if imbalance > 1e-9 * (1.0 + r.ledger.supply) || min_balance < -1e-9 {
        return Err(Error::Consistency(format!(
            "credits: imbalance {imbalance}, smallest balance {min_balance}"
        )));
    }
    if let Some(out) = a.output {
        r.write_csv(out)?;
    }
    let mut s = format!(
        "{} apps, {} periods of {} s ({:.3} s); migrations {}\n",
        sc.apps.len(),
        r.periods.len(),
        sc.period_s,
        seconds,
        r.periods.iter().map(|p| p.migrations).sum::<usize>()
    );
    if let Some(t) = r.stopped_at_s {
        let _ = writeln!(
            s,
            "stopped by the time limit at simulated time {t} s of {} s: a partial run (apps not finished by then are not met)",
            sc.duration_s
        );
    }
    let _ = writeln!(
        s,
        "credits: supply {:.2}, bank {:.2}, provider {:.2}, accounts {:.2}; max |imbalance| {imbalance:.3e}; smallest balance {min_balance:.4}",
        r.ledger.supply,
        r.ledger.bank,
        r.ledger.provider,
        r.ledger.accounts.iter().sum::<f64>()
    );
    let _ = writeln!(
        s,
        "{:<16} {:>10} {:>10} {:>10} {:>6} {:>12} {:>12} {:>8} {:>11}",
        "app",
        "start_s",
        "finish_s",
        "deadline_s",
        "met",
        "granted",
        "spent",
        "shutdown",
        "suspensions"
    );
    for o in &r.apps {
        let _ = writeln!(
            s,
            "{:<16} {:>10} {:>10} {:>10} {:>6} {:>12.2} {:>12.2} {:>8} {:>11}",
            o.name,
            opt(o.start_s),
            opt(o.finish_s),
            opt(o.deadline_s),
            o.met.map_or("-", |m| if m { "yes" } else { "no" }),
            o.granted,
            o.spent,
            o.shutdown,
            o.suspensions
        );
    }
    let met = r.apps.iter().filter(|o| o.met == Some(true)).count();
    let due = r.apps.iter().filter(|o| o.met.is_some()).count();
    let _ = writeln!(s, "deadlines met: {met}/{due}");
    Ok(s)
}
