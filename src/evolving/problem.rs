//! Evolving applications as a [`Problem`]: methods, flags and the paper's study for the
//! registry.

use super::experiment::{run_paper, PaperSpec};
use super::{generate, GenSpec, Instance, Method, Settings, Solution};
use crate::error::{InputError, Location, Result};
use crate::problem::{Common, Flag, Invalid, Problem, Sense, Study, StudyArgs, Target, Validate};
use crate::solver::Deadline;
use crate::Violation;
use serde::{Deserialize, Deserializer, Serialize};
use std::path::Path;

/// The evolving-applications family (Klein & Pérez 2011).
pub struct Evolving;

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        Settings::validate(self).map_err(Invalid::from_message)
    }
}

/// An inclusive range `[lo, hi]`, written as a pair, one number, or `"lo..hi"` (the form
/// `--apps 15..20` takes on the command line).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Range(pub [i64; 2]);

impl<'de> Deserialize<'de> for Range {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Range, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Pair([i64; 2]),
            One(i64),
            Text(String),
        }
        let bad = |s: &str| serde::de::Error::custom(format!("`{s}` is not a range lo..hi"));
        match Raw::deserialize(d)? {
            Raw::Pair(p) => Ok(Range(p)),
            Raw::One(v) => Ok(Range([v, v])),
            Raw::Text(s) => {
                let (lo, hi) = s.split_once("..").ok_or_else(|| bad(&s))?;
                let lo = lo.trim().parse().map_err(|_| bad(&s))?;
                let hi = hi
                    .trim()
                    .trim_start_matches('=')
                    .parse()
                    .map_err(|_| bad(&s))?;
                Ok(Range([lo, hi]))
            }
        }
    }
}

/// A generator specification: §5.1's ranges (defaults the paper's) and the seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Apps per test.
    #[serde(default = "apps")]
    pub apps: Range,
    /// Steps per app.
    #[serde(default = "steps")]
    pub steps: Range,
    /// Step duration, seconds.
    #[serde(default = "duration")]
    pub duration: Range,
    /// Nodes per step.
    #[serde(default = "step_nodes")]
    pub step_nodes: Range,
    /// `N`.
    #[serde(default = "nodes")]
    pub nodes: i64,
    /// Seed of the random stream.
    pub seed: u64,
}

fn apps() -> Range {
    Range([15, 20])
}
fn steps() -> Range {
    Range([1, 10])
}
fn duration() -> Range {
    Range([500, 3600])
}
fn step_nodes() -> Range {
    Range([1, 75])
}
fn nodes() -> i64 {
    100
}

impl Spec {
    fn gen(&self) -> std::result::Result<GenSpec, Invalid> {
        let small = |key: &str, r: Range| -> std::result::Result<[u32; 2], Invalid> {
            let lo = u32::try_from(r.0[0])
                .map_err(|_| Invalid::new(key, r.0[0], "must be in 1 … 2^32 − 1"))?;
            let hi = u32::try_from(r.0[1])
                .map_err(|_| Invalid::new(key, r.0[1], "must be in 1 … 2^32 − 1"))?;
            Ok([lo, hi])
        };
        Ok(GenSpec {
            apps: small("apps", self.apps)?,
            steps: small("steps", self.steps)?,
            duration: self.duration.0,
            step_nodes: self.step_nodes.0,
            nodes: self.nodes,
        })
    }
}

impl Validate for Spec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        let g = self.gen()?;
        g.validate().map_err(|why| {
            let key = why.split_whitespace().next().unwrap_or("spec").to_string();
            Invalid::new(&key, "", why)
        })
    }
}

const G: Target = Target::Spec;

impl Problem for Evolving {
    const NAME: &'static str = super::NAME;
    const TITLE: &'static str =
        "Evolving applications: schedule node profiles on N nodes, delayed or stretched (Klein & Pérez 2011)";
    const SENSE: Sense = Sense::Minimize;
    type Instance = Instance;
    type Solution = Solution;
    type Method = Method;
    type Settings = Settings;
    type Load = ();
    type Spec = Spec;
    type Memo = ();

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes("limited-expand", Target::Settings, "limited_expand", "L", "Expand limit l of 2x and 2x+c (default 2)"),
            Flag::takes("exact-expand", Target::Settings, "exact_expand", "{\"finite\":L}|\"infinite\"", "exact: the MILP's expand limit (default noX)"),
            Flag::takes("bound", Target::Settings, "lower_bound", "closed|cg", "The heuristics' certified lower bound: closed form (default) or column generation"),
            Flag::takes("rigid-path", Target::Settings, "rigid_path", "fit|backfill", "How rigid is computed: Algorithm 1 on one-step profiles, or conservative backfilling"),
            Flag::takes("apps", G, "apps", "LO..HI", "Apps per test (default 15..20)"),
            Flag::takes("steps", G, "steps", "LO..HI", "Steps per app (default 1..10)"),
            Flag::takes("duration", G, "duration", "LO..HI", "Step duration in seconds (default 500..3600)"),
            Flag::takes("step-nodes", G, "step_nodes", "LO..HI", "Nodes per step (default 1..75)"),
            Flag::takes("nodes", G, "nodes", "N", "Cluster nodes N (default 100)"),
        ]
    }

    fn configure(settings: &mut Settings, common: &Common) {
        if let Some(t) = common.threads {
            settings.highs.threads = t;
        }
    }

    fn load(path: &Path, _load: &()) -> Result<Instance> {
        Instance::from_json(&crate::input::read_text(path)?, path)
    }

    fn solve(
        inst: &Instance,
        method: Method,
        settings: &Settings,
        deadline: &Deadline,
        _memo: &(),
    ) -> Result<Solution> {
        super::method::solve_within(inst, method, settings, deadline)
    }

    fn verify(inst: &Instance, sol: &Solution) -> Vec<Violation> {
        super::verify(inst, sol)
    }

    fn check_bound(
        inst: &Instance,
        sol: &Solution,
        depth: crate::problem::Depth,
    ) -> crate::problem::BoundCheck {
        let _ = depth;
        // The closed form, then the configuration LP's dual weights (`bound_proof`).
        let c = &sol.certificate;
        let closed = Some(super::method::makespan_lower_bound(inst) as f64);
        crate::problem::proof::with_closed_form(c, Sense::Minimize, closed, || {
            match (&sol.bound_proof, &c.proof) {
                (Some(p), Some(crate::problem::Proof::Dual { .. })) => match p.bound(inst) {
                    Ok(b) => crate::problem::proof::judge(c, Sense::Minimize, "dual", b as f64),
                    Err(why) => crate::problem::BoundCheck::Refuted { why },
                },
                _ => crate::problem::BoundCheck::claimed_by(c),
            }
        })
    }

    fn export_lp(
        inst: &Instance,
        settings: &Settings,
        name: &str,
        format: crate::solver::ModelFormat,
    ) -> Option<Result<String>> {
        let limit = settings.exact_expand;
        let max = settings.exact_max_binaries;
        Some(super::milp::lp_file(inst, limit, max, name, format))
    }

    fn generate(spec: &Spec) -> Result<Instance> {
        let g = spec.gen().map_err(|bad| {
            InputError::new(
                "<arguments>",
                Location::Field(bad.key),
                bad.value,
                bad.reason,
            )
        })?;
        Ok(generate(&g, spec.seed))
    }

    fn demo() -> Option<crate::problem::demo::Demo> {
        Some(crate::problem::demo::Demo::of(
            "data/examples/evolving.json",
            include_str!("../../data/examples/evolving.json"),
            "exact",
            "2x+c",
        ))
    }

    fn selfcheck(seed: u64) -> Option<crate::problem::selfcheck::CaseReport> {
        Some(super::selfcheck::case(seed))
    }

    fn describe(inst: &Instance) -> String {
        format!("{} apps on {} nodes", inst.apps.len(), inst.nodes)
    }

    fn studies() -> Vec<Study> {
        vec![Study {
            name: "evolving-paper",
            title: "Klein & Pérez 2011 §5: Tables 1–2 (1,000 tests, six methods) at N = 100 and N = 112, with the paper's numbers beside ours",
            limits: None,
            run: paper_study,
        }, Study {
            name: "evolving-exact",
            title: "Algorithm 1 against the MILP's proven optimum on small tests (3–6 apps, 1–4 steps, N = 16), in list order and in the best order",
            limits: Some("each MILP (a test not proven optimal within it is left out)"),
            run: super::exact_study::run,
        }, Study {
            name: "evolving-bound",
            title: "Each method's makespan against a column-generation lower bound (HiGHS master, exact DP pricing) on the paper's 1,000 tests",
            limits: Some("each column-generation bound (stopped early, a weaker valid bound)"),
            run: super::bound_study::run,
        }]
    }
}

/// Tables 1–2 at N = 100 (the calibrated default) and N = 112, with CDF plots.
fn paper_study(args: &StudyArgs) -> Result<String> {
    let settings: Settings = crate::problem::apply_flags(args.settings.as_deref(), &[])?;
    let mut text = String::from("# Evolving applications: Klein & Pérez 2011, Tables 1–2\n\n");
    for nodes in [100, 112] {
        let mut spec = PaperSpec {
            seed: args.seed,
            settings: settings.clone(),
            ..PaperSpec::default()
        };
        if let Some(n) = args.count {
            spec.tests = n;
        }
        spec.gen.nodes = nodes;
        let report = run_paper(&spec)?;
        let dir = args.out.join(format!("n{nodes}"));
        std::fs::create_dir_all(&dir).map_err(|source| crate::Error::Io {
            path: dir.clone(),
            source,
        })?;
        report.write_plots(&dir)?;
        text.push_str(&format!("## N = {nodes}\n\n{}\n", report.to_markdown()));
    }
    Ok(text)
}
