//! The family's self-check: tiny random SOC packings whose optimum brute force finds;
//! branch-and-price must reach it, `cg`'s bound and the heuristics must sit on the right side
//! of it, every answer must verify. The unit tests draw from here.

use super::{solve, Instance, Method, Settings, Solution};
use crate::colgen::BpSettings;
use crate::problem::selfcheck::CaseReport;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::SocPacking>(inst, sol)
}

/// The least number of bins over every assignment in canonical order (item `i` into a bin
/// opened so far or a new one).
pub fn brute(inst: &Instance) -> usize {
    fn rec(inst: &Instance, i: usize, bins: &mut Vec<Vec<usize>>, best: &mut usize) {
        if bins.len() >= *best {
            return;
        }
        if i == inst.len() {
            *best = bins.len();
            return;
        }
        for k in 0..bins.len() {
            bins[k].push(i);
            let (a, b) = inst.sums(&bins[k]);
            if inst.fits(a, b) {
                rec(inst, i + 1, bins, best);
            }
            bins[k].pop();
        }
        bins.push(vec![i]);
        rec(inst, i + 1, bins, best);
        bins.pop();
    }
    let mut best = inst.len() + 1;
    rec(inst, 0, &mut Vec::new(), &mut best);
    best
}

/// 3–10 items; the root term large enough to matter (D up to 3), a repeated item; every
/// other case with `a` in `(c/5, c/2)` and a small root term (the LP is often fractional).
pub fn random(rng: &mut ChaCha8Rng) -> Instance {
    random_case(rng, 0)
}

/// The shape of case `case`: odd cases have `a` in `(c/5, c/2)`.
pub fn random_case(rng: &mut ChaCha8Rng, case: usize) -> Instance {
    let capacity = rng.random_range(10.0..30.0);
    let d = rng.random_range(0.0..3.0);
    let n = rng.random_range(3..=10usize);
    let mut inst = Instance {
        capacity,
        d,
        a: Vec::new(),
        b: Vec::new(),
    };
    for _ in 0..n {
        let (a, share): (f64, f64) = if case % 2 == 1 {
            (rng.random_range(capacity / 5.0..capacity / 2.0), 0.01)
        } else {
            (rng.random_range(0.5..capacity / 2.0), 0.3)
        };
        let b: f64 = rng.random_range(0.0..((capacity - a) / d.max(0.1)).powi(2) * share);
        inst.a.push(a);
        inst.b.push(b);
    }
    inst.a.push(inst.a[0]);
    inst.b.push(inst.b[0]);
    inst.validate(Path::new("random")).unwrap();
    inst
}

/// Settings under which branch-and-price itself must prove the optimum.
pub fn branching_settings() -> Settings {
    Settings {
        bp: BpSettings::branching_only(),
        // The tree must find the optimum: no local search before it.
        improve: super::improve::ImproveSettings {
            moves: 0,
            ..Default::default()
        },
        ..Settings::default()
    }
}

/// Every method on `inst` held against the brute-force optimum; returns `bp`'s answer.
pub fn check(r: &mut CaseReport, inst: &Instance, settings: &Settings) -> Option<Solution> {
    let answers = r.methods(
        Method::all(),
        |m| m == Method::Bp,
        Some(brute(inst) as f64),
        |m| solve(inst, m, settings, &Deadline::none()),
        |s| verify(inst, s),
    );
    answers.into_iter().find(|a| a.0 == Method::Bp).map(|a| a.1)
}

/// One soak case: a shape by the seed, default settings or the branching ones.
pub fn case(seed: u64) -> CaseReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = rng.random_range(0..2usize);
    let inst = random_case(&mut rng, shape);
    let mut r = CaseReport::new(["root term", "fractional"][shape], &inst);
    let settings = if rng.random_bool(0.5) {
        branching_settings()
    } else {
        Settings::default()
    };
    check(&mut r, &inst, &settings);
    r
}
