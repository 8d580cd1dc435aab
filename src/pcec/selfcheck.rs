//! The family's self-check: tiny generated traces (3–7 jobs) on which the enumeration of
//! every non-delay FCFS schedule must equal a plain depth-first search, bound every policy,
//! and every schedule must verify, its fluid LP bound below the best dispatch and re-derived
//! from its duals. The unit tests take the depth-first search from here.

use super::sim::Sim;
use super::solve::mean_xf;
use super::{generate, solve, GenSpec, Instance, Method, Settings};
use crate::problem::selfcheck::CaseReport;

/// The family's `verify` and the strict check of the bound: the soak holds every answer to
/// both (issue 37).
fn verify(inst: &Instance, sol: &super::Solution) -> Vec<crate::Violation> {
    crate::problem::selfcheck::strict::<super::Pcec>(inst, sol)
}

/// Plain depth-first search over every free VM (no symmetry reduction): the oracle of the
/// oracle.
pub fn brute_best(i: &Instance, st: &Settings) -> f64 {
    let mut best = f64::INFINITY;
    let mut stack = vec![Sim::new(
        i,
        st.arrival_factor,
        st.bins,
        st.queue_episode_threshold,
    )];
    while let Some(mut s) = stack.pop() {
        if !s.next_decision() {
            best = best.min(mean_xf(&s, st.xf_threshold));
            continue;
        }
        for vm in 0..i.vm_count() {
            if s.vm_job[vm].is_none() {
                let mut c = s.clone();
                c.start_head(vm);
                stack.push(c);
            }
        }
    }
    best
}

/// One soak case: 3–7 jobs, inter-arrival 5–30 s.
pub fn case(seed: u64) -> CaseReport {
    let jobs = 3 + (seed % 5) as usize;
    let spec = GenSpec {
        jobs,
        mean_interarrival: [5.0, 15.0, 30.0][(seed / 4 % 3) as usize],
        ..GenSpec::default()
    };
    let i = generate(&spec, seed);
    let kinds = ["3 jobs", "4 jobs", "5 jobs", "6 jobs", "7 jobs"];
    let mut r = CaseReport::new(kinds[jobs - 3], &i);
    let st = Settings::default();
    let Some(best) = r.answer("enumerate", solve(&i, Method::Enumerate, &st)) else {
        return r;
    };
    let truth = brute_best(&i, &st);
    let got = best.summary.mean_xf;
    r.check((got - truth).abs() <= 1e-12 * truth, || {
        format!("enumerate: mean xf {got}, depth-first search {truth}")
    });
    for m in Method::all() {
        // As `solve` answers: the fluid LP's bound and dual proof (issue 37).
        let answer = solve(&i, m, &st).and_then(|mut s| {
            super::solve::fluid_certificate(&i, &st, &crate::solver::Deadline::none(), &mut s)?;
            Ok(s)
        });
        let Some(s) = r.answer(m.name(), answer) else {
            continue;
        };
        let b = s.certificate.bound.unwrap_or(0.0);
        r.check(b <= truth * (1.0 + 1e-12), || {
            format!("{}: bound {b} above the best dispatch {truth}", m.name())
        });
        let bad = verify(&i, &s);
        r.check(bad.is_empty(), || format!("{}: verify: {bad:?}", m.name()));
        let x = s.summary.mean_xf;
        r.check(truth <= x + 1e-12 * x.max(1.0), || {
            format!("{}: mean xf {x} below the optimum {truth}", m.name())
        });
    }
    r
}
