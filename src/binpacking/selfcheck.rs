//! The family's self-check: tiny random packings (1-D, 1-D with a fractional LP, 2-D) whose
//! optimum brute force finds; branch-and-price must reach it, `cg`'s bound and the heuristics
//! must sit on the right side of it, every answer must verify. The unit tests draw from here.

use super::{solve, Instance, Method, Settings, Solution};
use crate::colgen::BpSettings;
use crate::problem::selfcheck::CaseReport;
use crate::solver::Deadline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::BinPacking>(inst, sol)
}

/// The least number of bins, by trying every assignment of items to bins in canonical order
/// (item `i` goes to one of the bins opened so far or a new one).
pub fn brute(inst: &Instance) -> usize {
    fn rec(inst: &Instance, i: usize, loads: &mut Vec<Vec<u64>>, best: &mut usize) {
        if loads.len() >= *best {
            return;
        }
        if i == inst.len() {
            *best = loads.len();
            return;
        }
        let w = &inst.items[i];
        for b in 0..loads.len() {
            let fits = (0..inst.dims()).all(|d| loads[b][d] + w[d] <= inst.capacity[d]);
            if fits {
                (0..inst.dims()).for_each(|d| loads[b][d] += w[d]);
                rec(inst, i + 1, loads, best);
                (0..inst.dims()).for_each(|d| loads[b][d] -= w[d]);
            }
        }
        loads.push(w.clone());
        rec(inst, i + 1, loads, best);
        loads.pop();
    }
    let mut best = inst.len() + 1;
    rec(inst, 0, &mut Vec::new(), &mut best);
    best
}

/// Cases cycle through three shapes: one dimension with weights anywhere, one dimension with
/// weights in `(C/5, C/2]` (the LP is often fractional), and two dimensions (a `.vbp`-like
/// instance with a repeated item type).
pub fn random(rng: &mut ChaCha8Rng, case: usize) -> Instance {
    let capacity: u64 = rng.random_range(10..=40);
    let n = rng.random_range(3..=10);
    match case % 3 {
        0 => Instance::one_dimensional(
            capacity,
            (0..n).map(|_| rng.random_range(2..=capacity)).collect(),
        ),
        1 => Instance::one_dimensional(
            capacity,
            (0..n)
                .map(|_| rng.random_range(capacity / 5 + 1..=capacity / 2))
                .collect(),
        ),
        _ => {
            let c2: u64 = rng.random_range(10..=40);
            let mut items: Vec<Vec<u64>> = (0..n)
                .map(|_| {
                    vec![
                        rng.random_range(1..=capacity / 2),
                        rng.random_range(1..=c2 / 2),
                    ]
                })
                .collect();
            items.push(items[0].clone());
            Instance {
                capacity: vec![capacity, c2],
                items,
            }
        }
    }
}

/// Settings under which branch-and-price itself must prove the optimum.
pub fn branching_settings() -> Settings {
    let d = Settings::default();
    let mut s = Settings {
        bp: BpSettings {
            strong_candidates: d.bp.strong_candidates,
            strong_depth: d.bp.strong_depth,
            warm_nodes: d.bp.warm_nodes,
            ..BpSettings::branching_only()
        },
        ..d
    };
    // The local search would find the optimum before the tree.
    s.local.enabled = false;
    s
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
    let shape = rng.random_range(0..3usize);
    let inst = random(&mut rng, shape);
    let kind = ["1-D", "1-D fractional", "2-D"][shape];
    let mut r = CaseReport::new(kind, &inst);
    let settings = if rng.random_bool(0.5) {
        branching_settings()
    } else {
        Settings::default()
    };
    check(&mut r, &inst, &settings);
    r
}
