//! `experiment periodic-google`: Table 1 of §5.4 on the stand-in of [`super::google`] — the
//! statistics beside the paper's, then every method (`lower-bound`, `bfd`, `mm`, `mmm`, `cg`,
//! `bp`) with its machines over `⌈W/C⌉` beside the paper's Table 1 over its 2,090.

use super::google::{generate_google, GoogleStats, PAPER, TABLE1};
use super::{solve_within, verify, Method, Settings, Solution};
use crate::error::{Error, Result};
use crate::problem::StudyArgs;
use std::fmt::Write;

/// Seconds per solve when `--time-limit` is absent.
pub const DEFAULT_LIMIT: f64 = 120.0;

/// The methods in Table 1's order, then ours.
const METHODS: [Method; 6] = [
    Method::Cg,
    Method::Bfd,
    Method::Mm,
    Method::Mmm,
    Method::Bp,
    Method::LowerBound,
];

/// One method's answer on one stand-in.
struct Run {
    label: &'static str,
    method: Method,
    sol: Solution,
    violations: usize,
}

/// Runs the study; `--instances N` runs seeds `seed..seed+N` (default 1).
pub fn run(args: &StudyArgs) -> Result<String> {
    let mut settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    settings.apply_first_phase();
    std::fs::create_dir_all(&args.out).map_err(Error::io(&args.out))?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Periodic packing, §5.4 (Google trace) on a stand-in\n"
    );
    let _ = writeln!(out, "The paper's instance (89 jobs extracted from the Google trace) is not published; the stand-in is generated to every statistic §5.4 states (`vcalloc generate periodic --stand-in google --seed K`; models/periodic.md \"The §5.4 stand-in\"). \"The capacity of X nodes\" is read as `⌈demand / C⌉`; the generator aims at `X − 0.25`, so rounding gives X as well. Every method runs on one thread with {} s per solve (`--time-limit`); every answer is re-checked by `verify`. `cg (Algorithm 1)` is the paper's procedure as written: the first phase to convergence with one column per iteration, then the restricted master as an integer program (no dive), 80% of the limit for it.\n",
        args.time_limit.unwrap_or(DEFAULT_LIMIT));
    for seed in args.seed..args.seed + args.count.unwrap_or(1) as u64 {
        let inst = generate_google(seed)?;
        let file = args.out.join(format!("google-seed{seed}.json"));
        let text = serde_json::to_string_pretty(&inst).expect("an instance serialises");
        std::fs::write(&file, text).map_err(Error::io(&file))?;
        let stats = GoogleStats::of(&inst);
        let _ = writeln!(out, "## Seed {seed} (instance: `{}`)\n", file.display());
        let _ = writeln!(
            out,
            "| statistic | paper | stand-in | ⌈stand-in⌉ |\n|---|---|---|---|"
        );
        for (name, ours, paper) in stats.rows() {
            let _ = writeln!(
                out,
                "| {name} | {paper} | {ours:.3} | {} |",
                (ours - 1e-9).ceil()
            );
        }
        let _ = writeln!(
            out,
            "\nEvery statistic matches: **{}**.\n",
            if stats.matches_paper() { "yes" } else { "no" }
        );
        let limit = args.time_limit.unwrap_or(DEFAULT_LIMIT);
        let mut literal = settings.clone();
        literal.first_phase = super::FirstPhase::Paper;
        literal.dive.enabled = false;
        literal.integer_time_limit = 0.8 * limit;
        literal.apply_first_phase();
        let plan = METHODS.iter().map(|&m| (m.name(), m, &settings)).chain([(
            "cg (Algorithm 1)",
            Method::Cg,
            &literal,
        )]);
        let runs = plan
            .map(|(label, m, st)| {
                log::info!("periodic-google seed {seed}: {label}");
                let sol = solve_within(&inst, m, st, &args.deadline(Some(DEFAULT_LIMIT)))?;
                let violations = verify(&inst, &sol).len();
                Ok(Run {
                    label,
                    method: m,
                    sol,
                    violations,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        table(&mut out, &runs, stats.overall_peak.ceil());
    }
    Ok(out)
}

fn table(out: &mut String, runs: &[Run], w: f64) {
    let best_bound = runs
        .iter()
        .map(|r| r.sol.lower_bound() as f64)
        .fold(w, f64::max);
    let _ = writeln!(out, "| method | paper nodes | paper / 2,090 | nodes | nodes / ⌈W/C⌉ = {w} | nodes / best proven bound {best_bound} | status | LP bound | first phase s | iterations | seconds | violations |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in runs {
        let name = r.label;
        let paper = TABLE1
            .iter()
            .find(|(m, _)| *m == r.method.name())
            .map(|p| p.1);
        let nodes = r.sol.machines();
        let stat = |k: &str| r.sol.certificate.stats.get(k).copied();
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} |",
            paper.map_or("–".into(), |p| p.to_string()),
            paper.map_or("–".into(), |p| format!(
                "{:.4}",
                p as f64 / PAPER.overall_peak
            )),
            nodes.map_or("–".into(), |n| n.to_string()),
            nodes.map_or("–".into(), |n| format!("{:.4}", n as f64 / w)),
            nodes.map_or("–".into(), |n| format!("{:.4}", n as f64 / best_bound)),
            r.sol.certificate.status.as_str(),
            r.sol.lp_bound.map_or("–".into(), |b| format!("{b:.2}")),
            stat("root_seconds").map_or("–".into(), |s| format!("{s:.1}")),
            if r.sol.iterations > 0 {
                r.sol.iterations.to_string()
            } else {
                "–".into()
            },
            r.sol.certificate.seconds,
            r.violations
        );
    }
    let _ = writeln!(out);
}
