//! The vector-packing view of VCSched (`src/vcsched/packing.rs`, models/vcsched.md "The
//! packing bound and proof") against brute force on tiny memory-bound instances: the decision
//! "every load at most `t`?" by the configuration LP and by branch-and-price, and the
//! improvement of a floor and an incumbent.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use vcalloc::solver::Deadline;
use vcalloc::vcsched::packing::{decide, improve, Decision, PackingSettings};
use vcalloc::vcsched::{exact, improve::max_load, memory_feasible, Instance, Job};

/// The least largest CPU load over the placements that fit in memory (`None`: none fits),
/// by enumeration up to relabelling of the hosts — independent of the methods.
fn least_load(inst: &Instance) -> Option<f64> {
    fn go(inst: &Instance, i: usize, used: usize, cpu: &mut [f64], mem: &mut [f64]) -> f64 {
        if i == inst.jobs.len() {
            return cpu.iter().copied().fold(0.0, f64::max);
        }
        let j = &inst.jobs[i];
        let mut best = f64::INFINITY;
        for h in 0..(used + 1).min(inst.hosts) {
            if mem[h] + j.mem > 1.0 {
                continue;
            }
            cpu[h] += j.cpu;
            mem[h] += j.mem;
            best = best.min(go(inst, i + 1, used.max(h + 1), cpu, mem));
            cpu[h] -= j.cpu;
            mem[h] -= j.mem;
        }
        best
    }
    let l = go(
        inst,
        0,
        0,
        &mut vec![0.0; inst.hosts],
        &mut vec![0.0; inst.hosts],
    );
    l.is_finite().then_some(l)
}

/// A tiny instance whose memory binds: 2–3 hosts, 5–12 jobs, memory needs up to 0.7.
fn tiny(rng: &mut ChaCha8Rng) -> Instance {
    let hosts = rng.random_range(2..=3);
    let n = rng.random_range(5..=12);
    let jobs = (0..n)
        .map(|_| Job::new(rng.random_range(0.05..1.0), rng.random_range(0.05..0.7)))
        .collect();
    Instance::new(hosts, jobs, Path::new("<test>")).unwrap()
}

fn settings() -> PackingSettings {
    PackingSettings {
        enabled: true,
        ..PackingSettings::default()
    }
}

#[test]
fn decisions_agree_with_brute_force_on_both_sides_of_the_least_load() {
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let (mut refuted, mut fits, mut lp_refuted, mut branched) = (0, 0, 0, 0);
    let mut cases = 0;
    while cases < 60 {
        let inst = tiny(&mut rng);
        let Some(l) = least_load(&inst) else { continue };
        cases += 1;
        for factor in [0.7, 0.95, 0.999, 1.0 - 1e-6, 1.0 + 1e-6, 1.001, 1.05, 1.3] {
            let t = l * factor;
            if t < inst.jobs.iter().map(|j| j.cpu).fold(0.0, f64::max) {
                continue;
            }
            let what = format!("case {cases}, t = {factor} L* ({inst:?})");
            let full = decide(&inst, t, &settings(), false, &Deadline::none()).unwrap();
            let lp = decide(&inst, t, &settings(), true, &Deadline::none()).unwrap();
            if factor < 1.0 {
                // Nothing fits below the least load; the complete search proves it.
                assert_eq!(full.decision, Decision::Refuted, "{what}");
                assert!(!matches!(lp.decision, Decision::Fits(_)), "{what}");
                refuted += 1;
                lp_refuted += usize::from(lp.decision == Decision::Refuted);
                branched += usize::from(full.nodes > 1);
            } else {
                // At or above it something fits, and the complete search finds it.
                assert_ne!(lp.decision, Decision::Refuted, "{what}: the LP refuted");
                let Decision::Fits(p) = &full.decision else {
                    panic!("{what}: {:?}", full.decision);
                };
                assert!(memory_feasible(&inst, p, 1e-9), "{what}");
                assert!(max_load(&inst, p) <= t * (1.0 + 1e-9), "{what}");
                fits += 1;
            }
        }
    }
    // Both sides are exercised. (On instances this small the configuration LP refuted every
    // infeasible `t` in our runs — no branching needed; the tree's decision mode is tested by
    // the packings it must find above `L*`.)
    assert!(refuted > 50 && fits > 50, "{refuted} refuted, {fits} fits");
    assert!(lp_refuted > 0, "the LP never refuted");
    eprintln!("{refuted} refuted ({lp_refuted} by the LP, {branched} branched), {fits} fit");
}

#[test]
fn improvement_never_passes_the_least_load_and_proves_tiny_incumbents() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut cases = 0;
    let mut proven = 0;
    while cases < 40 {
        let inst = tiny(&mut rng);
        let Some(l) = least_load(&inst) else { continue };
        cases += 1;
        let floor = exact::load_bound(&inst).max(1.0);
        if l <= floor {
            continue;
        }
        // A poor incumbent: first fit decreasing on memory.
        let start = vcalloc::vcsched::improve::memory_ffd(&inst).map(|p| (max_load(&inst, &p), p));
        let got = improve(&inst, floor, start.clone(), &settings(), &Deadline::none()).unwrap();
        let what = format!("case {cases} ({inst:?})");
        assert!(got.floor >= floor, "{what}: floor went down");
        assert!(
            got.floor <= l * (1.0 + 1e-12),
            "{what}: floor {} above the least load {l}",
            got.floor
        );
        assert!(!got.infeasible, "{what}: a placement exists");
        let best = got.placement.clone().or(start).expect("a placement");
        assert!(memory_feasible(&inst, &best.1, 1e-9), "{what}");
        assert!((best.0 - max_load(&inst, &best.1)).abs() <= 1e-12, "{what}");
        assert!(best.0 >= l * (1.0 - 1e-9), "{what}: below the least load");
        if got.proven {
            // The proof is just below the incumbent, which is then optimal.
            assert!(
                best.0 <= l * (1.0 + 1e-6),
                "{what}: proven at {} > {l}",
                best.0
            );
            assert!(got.floor >= best.0 * (1.0 - 1e-6), "{what}");
            proven += 1;
        }
    }
    assert!(proven > 20, "only {proven} of {cases} proven");
}

#[test]
fn memory_that_cannot_fit_is_proven_infeasible_without_an_incumbent() {
    // Three jobs of memory 0.6 on two hosts: no placement.
    let jobs = vec![Job::new(0.3, 0.6), Job::new(0.2, 0.6), Job::new(0.4, 0.6)];
    let inst = Instance::new(2, jobs, Path::new("<test>")).unwrap();
    assert_eq!(least_load(&inst), None);
    let got = improve(&inst, 1.0, None, &settings(), &Deadline::none()).unwrap();
    assert!(got.infeasible && got.proven && got.placement.is_none());
}

#[test]
fn exact_with_its_own_search_cut_short_is_finished_by_the_packing_and_verifies() {
    use vcalloc::vcsched::{brute, solve, verify, Method, Settings};
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut settings = Settings::default();
    settings.packing = self::settings();
    // One node: the probes and the search leave the gap to the packing.
    settings.exact_max_nodes = 1;
    let (mut cases, mut ran) = (0, 0);
    while cases < 150 {
        let inst = tiny(&mut rng);
        if inst.jobs.len() > brute::MAX_JOBS {
            continue;
        }
        cases += 1;
        let truth = brute::optimal_min_yield(&inst);
        let sol = solve(&inst, Method::Exact, &settings).unwrap();
        let what = format!("case {cases} ({inst:?})");
        assert!(
            verify(&inst, &sol).is_empty(),
            "{what}: {:?}",
            verify(&inst, &sol)
        );
        ran += usize::from(sol.certificate.stats.contains_key("packing_probes"));
        match truth {
            None => assert!(sol.min_yield().is_none(), "{what}"),
            Some(y) => {
                let got = sol.min_yield().expect("a placement");
                assert!(got <= y + 1e-9, "{what}: {got} above the optimum {y}");
                let ub = sol.upper_bound().unwrap();
                assert!(ub >= y - 1e-9, "{what}: bound {ub} below the optimum {y}");
                // Tiny instances are always proven: the packing closes what the search left.
                assert!((got - y).abs() <= 1e-6, "{what}: {got} vs {y}");
            }
        }
    }
    assert!(ran >= 10, "the packing ran on only {ran} of {cases}");
}
