//! The experiment of §5.1: seeded tests, the six methods on each, Tables 1–2 with the paper's
//! numbers beside ours.

use super::generate::{generate, GenSpec};
use super::method::{solve, Method, Settings};
use super::verify::verify;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PaperSpec {
    /// Number of tests (the paper: 1,000).
    pub tests: usize,
    /// Test `k` is generated with seed `seed + k`.
    pub seed: u64,
    /// The generator's ranges (and `N`).
    pub gen: GenSpec,
    /// The methods' settings.
    pub settings: Settings,
    /// Run `verify` on every solution (outside the timed part).
    pub verify: bool,
}

impl Default for PaperSpec {
    fn default() -> Self {
        PaperSpec {
            tests: 1000,
            seed: 1,
            gen: GenSpec::default(),
            settings: Settings::default(),
            verify: true,
        }
    }
}

/// One method on one test: the per-test quantities of Tables 1–2.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MethodTest {
    /// System waste, % of the used area.
    pub waste_pct: f64,
    /// `ΣA / ΣA_rigid`.
    pub utilisation_rel: f64,
    /// `ΣU / (N · makespan)`, %.
    pub eff_util_pct: f64,
    /// `makespan / makespan_rigid`.
    pub makespan_rel: f64,
    /// Wall time of `solve`, ms.
    pub schedule_ms: f64,
    /// `ACT / ACT_rigid`.
    pub act_rel: f64,
    /// `AWT / AWT_rigid`.
    pub awt_rel: f64,
    /// Expanded apps, % of the test's apps.
    pub expanded_pct: f64,
    /// Compactions rejected in this test.
    pub rejections: u64,
}

/// min / avg / max over finite values (NaN ratios are skipped).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Minimum.
    pub min: f64,
    /// Mean.
    pub avg: f64,
    /// Maximum.
    pub max: f64,
}

impl Stat {
    /// Summary of `xs` (all NaN if none is finite).
    pub fn of(xs: impl IntoIterator<Item = f64>) -> Stat {
        let (mut min, mut max, mut sum, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
        for x in xs.into_iter().filter(|x| x.is_finite()) {
            min = min.min(x);
            max = max.max(x);
            sum += x;
            n += 1;
        }
        if n == 0 {
            return Stat {
                min: f64::NAN,
                avg: f64::NAN,
                max: f64::NAN,
            };
        }
        Stat {
            min,
            avg: sum / n as f64,
            max,
        }
    }
}

/// All results of one run: per method, per test and per app.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaperReport {
    /// What was run.
    pub spec: PaperSpec,
    /// Methods, in row order.
    pub methods: Vec<Method>,
    /// `per_test[m][k]`: method `m` on test `k`.
    pub per_test: Vec<Vec<MethodTest>>,
    /// `app_expansion[m]`: every app's expansion %, all tests.
    pub app_expansion: Vec<Vec<f64>>,
    /// `app_waste[m]`: every app's waste % (of its used area), all tests.
    pub app_waste: Vec<Vec<f64>>,
    /// Violations found by `verify` over all solutions (0 expected).
    pub violations: usize,
    /// Wall time of the whole run, seconds (including verification).
    pub wall_seconds: f64,
    /// Time spent in `solve` alone, seconds, summed over methods and tests.
    pub solve_seconds: f64,
}

/// Runs the experiment. `Err` only for invalid settings or generator ranges.
pub fn run_paper(spec: &PaperSpec) -> Result<PaperReport> {
    let bad = |why: String| {
        crate::error::InputError::new(
            "<experiment>",
            crate::error::Location::Field("spec".into()),
            "",
            why,
        )
    };
    spec.gen.validate().map_err(|w| bad(format!("gen.{w}")))?;
    spec.settings
        .validate()
        .map_err(|w| bad(format!("settings.{w}")))?;
    let wall = Instant::now();
    let methods = Method::all().to_vec();
    let m = methods.len();
    let mut per_test = vec![Vec::with_capacity(spec.tests); m];
    let (mut app_expansion, mut app_waste) = (vec![Vec::new(); m], vec![Vec::new(); m]);
    let (mut violations, mut solve_seconds) = (0usize, 0f64);
    for k in 0..spec.tests {
        let inst = generate(&spec.gen, spec.seed.wrapping_add(k as u64));
        let mut sols = Vec::with_capacity(m);
        for &method in &methods {
            let t = Instant::now();
            let sol = solve(&inst, method, &spec.settings)?;
            let secs = t.elapsed().as_secs_f64();
            solve_seconds += secs;
            if spec.verify {
                violations += verify(&inst, &sol).len();
            }
            sols.push((sol, secs));
        }
        let rigid = sols[0].0.metrics.clone();
        for (j, (sol, secs)) in sols.iter().enumerate() {
            let r = sol.metrics.relative_to(&rigid);
            per_test[j].push(MethodTest {
                waste_pct: sol.metrics.waste_pct,
                utilisation_rel: r.utilisation,
                eff_util_pct: sol.metrics.effective_utilisation_pct,
                makespan_rel: r.makespan,
                schedule_ms: secs * 1e3,
                act_rel: r.avg_completion,
                awt_rel: r.avg_waiting,
                expanded_pct: sol.metrics.expanded_pct,
                rejections: sol.compaction_rejections,
            });
            app_expansion[j].extend(sol.apps.iter().map(|a| a.metrics.expansion_pct));
            app_waste[j].extend(sol.apps.iter().map(|a| a.metrics.waste_pct));
        }
        if k % 100 == 99 {
            log::info!("evolving-paper: {} of {} tests", k + 1, spec.tests);
        }
    }
    Ok(PaperReport {
        spec: spec.clone(),
        methods,
        per_test,
        app_expansion,
        app_waste,
        violations,
        wall_seconds: wall.elapsed().as_secs_f64(),
        solve_seconds,
    })
}

/// The paper's Table 1 (waste, utilisation, eff. util., makespan, schedule time; min/avg/max),
/// rows rigid, noX, 2X, 2X+c, infX, infX+c, as printed ("ε" kept).
pub const PAPER_TABLE1: [[&str; 15]; 6] = [
    [
        "43", "70", "116", "1", "1", "1", "30", "40", "51", "1", "1", "1", "4.64", "6.2", "9.41",
    ],
    [
        "0", "0", "0", ".46", ".58", ".69", "49", "61", "73", ".49", ".65", ".82", "11.4", "24.7",
        "55.8",
    ],
    [
        "0", "2", "11", ".47", ".60", ".71", "50", "63", "75", ".48", ".64", ".82", "11.4", "24.4",
        "45.4",
    ],
    [
        "0", "ε", "4", ".46", ".59", ".70", "53", "63", "75", ".48", ".63", ".82", "17.1", "36.7",
        "88.6",
    ],
    [
        "0", "7", "22", ".49", ".63", ".78", "52", "64", "73", ".49", ".63", ".78", "11.4", "23.4",
        "49.2",
    ],
    [
        "0", "1", "11", ".46", ".59", ".71", "55", "64", "74", ".47", ".62", ".78", "17.6", "36",
        "124",
    ],
];

/// The paper's Table 2 (avg ACT rel., avg AWT rel., num. expanded %, app expansion %, per-app
/// waste %; min/avg/max).
pub const PAPER_TABLE2: [[&str; 15]; 6] = [
    [
        "1", "1", "1", "1", "1", "1", "0", "0", "0", "0", "0", "0", "0", "67", "681",
    ],
    [
        ".42", ".61", ".84", ".36", ".55", ".81", "0", "0", "0", "0", "0", "0", "0", "0", "0",
    ],
    [
        ".45", ".61", ".84", ".36", ".54", ".80", "0", "22", "56", "0", "4", "76", "0", "2", "75",
    ],
    [
        ".44", ".60", ".84", ".37", ".54", ".81", "0", "7", "40", "0", "ε", "60", "0", "ε", "41",
    ],
    [
        ".43", ".62", ".81", ".27", ".53", ".76", "0", "26", "62", "0", "19", "884", "0", "6",
        "360",
    ],
    [
        ".44", ".60", ".81", ".35", ".53", ".76", "0", "13", "47", "0", "5", "1354", "0", "1",
        "119",
    ],
];

/// How a value of a column is printed (ratios with 2 decimals, percentages with 1).
#[derive(Clone, Copy)]
enum Fmt {
    Pct,
    Ratio,
    Ms,
}

fn cell(x: f64, f: Fmt) -> String {
    match f {
        Fmt::Pct => format!("{x:.1}"),
        Fmt::Ratio => format!("{x:.2}"),
        Fmt::Ms => format!("{x:.3}"),
    }
}

impl PaperReport {
    /// Summaries of Table 1's five columns for method row `j`.
    pub fn table1_row(&self, j: usize) -> [Stat; 5] {
        let t = &self.per_test[j];
        [
            Stat::of(t.iter().map(|x| x.waste_pct)),
            Stat::of(t.iter().map(|x| x.utilisation_rel)),
            Stat::of(t.iter().map(|x| x.eff_util_pct)),
            Stat::of(t.iter().map(|x| x.makespan_rel)),
            Stat::of(t.iter().map(|x| x.schedule_ms)),
        ]
    }

    /// Summaries of Table 2's five columns for method row `j`.
    pub fn table2_row(&self, j: usize) -> [Stat; 5] {
        let t = &self.per_test[j];
        [
            Stat::of(t.iter().map(|x| x.act_rel)),
            Stat::of(t.iter().map(|x| x.awt_rel)),
            Stat::of(t.iter().map(|x| x.expanded_pct)),
            Stat::of(self.app_expansion[j].iter().copied()),
            Stat::of(self.app_waste[j].iter().copied()),
        ]
    }

    /// Compactions rejected, per method, over all tests.
    pub fn rejections(&self, j: usize) -> u64 {
        self.per_test[j].iter().map(|x| x.rejections).sum()
    }

    fn table(
        &self,
        title: &str,
        heads: [&str; 5],
        fmts: [Fmt; 5],
        rows: &dyn Fn(usize) -> [Stat; 5],
        paper: &[[&str; 15]; 6],
    ) -> String {
        let mut s = format!("**{title}** — each cell: ours (paper)\n\n| Name |");
        for h in heads {
            s += &format!(" {h} min | avg | max |");
        }
        s += "\n|---|";
        s += &"---|".repeat(15);
        s += "\n";
        for (j, m) in self.methods.iter().enumerate() {
            s += &format!("| **{}** |", m.paper_name());
            for (c, st) in rows(j).iter().enumerate() {
                for (q, v) in [st.min, st.avg, st.max].into_iter().enumerate() {
                    let p = paper.get(j).map_or("–", |r| r[3 * c + q]);
                    s += &format!(" {} ({p}) |", cell(v, fmts[c]));
                }
            }
            s += "\n";
        }
        s
    }

    /// Tables 1 and 2 in the paper's layout with the paper's numbers beside ours.
    pub fn to_markdown(&self) -> String {
        let g = &self.spec.gen;
        let mut s = format!(
            "### Evolving applications, Klein & Pérez 2011 §5 — N = {}, {} tests (seed {}), \
             apps U{{{}..{}}}, steps U{{{}..{}}}, d U{{{}..{}}} s, n U{{{}..{}}}\n\n",
            g.nodes,
            self.spec.tests,
            self.spec.seed,
            g.apps[0],
            g.apps[1],
            g.steps[0],
            g.steps[1],
            g.duration[0],
            g.duration[1],
            g.step_nodes[0],
            g.step_nodes[1]
        );
        use Fmt::*;
        s += &self.table(
            "Table 1. System-centric metrics",
            [
                "Waste (%)",
                "Utilisation (rel.)",
                "Eff. util. (%)",
                "Makespan (rel.)",
                "Sch. time (ms)",
            ],
            [Pct, Ratio, Pct, Ratio, Ms],
            &|j| self.table1_row(j),
            &PAPER_TABLE1,
        );
        s += "\n";
        s += &self.table(
            "Table 2. User-centric metrics",
            [
                "Avg. ACT (rel.)",
                "Avg. AWT (rel.)",
                "Num. expanded (%)",
                "App expansion (%)",
                "Per-app waste (%)",
            ],
            [Ratio, Ratio, Pct, Pct, Pct],
            &|j| self.table2_row(j),
            &PAPER_TABLE2,
        );
        let rej: Vec<String> = self
            .methods
            .iter()
            .enumerate()
            .filter(|(_, m)| m.compacting())
            .map(|(j, m)| format!("{}: {}", m.paper_name(), self.rejections(j)))
            .collect();
        s += &format!(
            "\nWaste is relative to the used area. Schedule time: ours is `solve` on one core of a \
             2-core VM (Rust, release); the paper's is Python on a 2.53 GHz Core 2 Duo. \
             Compactions rejected (would not keep C): {}. Verify violations: {}. \
             Solve time total {:.2} s, wall {:.2} s.\n",
            rej.join(", "),
            self.violations,
            self.solve_seconds,
            self.wall_seconds
        );
        s
    }
}
