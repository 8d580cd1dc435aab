//! Column generation end to end: BPPLIB instances with known optima and root LPs, tiny random
//! periodic instances against brute-force partitioning, bounds against solutions, and every
//! method's output through `verify`.

use std::path::Path;
use vcalloc::periodic::selfcheck::{self, brute_force, random_instance};
use vcalloc::periodic::{self, peak, solve, verify, Instance, Machine, Method, Settings};
use vcalloc::problem::selfcheck::CaseReport;
use vcalloc::{ceil_with_tolerance, Status};

fn optima() -> Vec<(String, u64, f64)> {
    std::fs::read_to_string("data/bpplib/optima.tsv")
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (
                c[0].to_string(),
                c[1].parse().unwrap(),
                c[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn bpplib_root_lp_and_optimum() {
    for (name, optimum, lp_bound) in optima() {
        let inst = Instance::load(&Path::new("data/bpplib").join(&name), None).unwrap();
        let mut settings = Settings::default();
        settings.cg.stop_when_bound_closes = false;
        let sol = solve(&inst, Method::Cg, &settings).unwrap();
        assert!(
            verify(&inst, &sol).is_empty(),
            "{name}: {:?}",
            verify(&inst, &sol)
        );
        let z = sol.lp_bound.unwrap();
        assert!(
            (z - lp_bound).abs() <= 0.006,
            "{name}: root LP {z} vs published {lp_bound}"
        );
        assert!(
            sol.machines().unwrap() >= optimum,
            "{name}: {} bins below the optimum {optimum}",
            sol.machines().unwrap()
        );
        assert!(
            sol.lower_bound() <= optimum,
            "{name}: bound {} above the optimum",
            sol.lower_bound()
        );
        assert_eq!(sol.stats["converged"], 1.0);
    }
}

fn tiny(seed: u64) -> Instance {
    random_instance(seed, 1..=4, 1..=2)
}

#[test]
fn tiny_instances_against_brute_force() {
    let settings = Settings::default();
    for seed in 0..150 {
        let inst = tiny(seed);
        inst.validate(Path::new("t")).unwrap();
        let mut r = CaseReport::new("test", &inst);
        selfcheck::check(&mut r, &inst, &settings);
        assert!(
            r.disagreements.is_empty(),
            "seed {seed}: {:?}",
            r.disagreements
        );
        assert!(
            r.checks >= 3 * Method::all().len(),
            "seed {seed}: too few checks"
        );
    }
}

#[test]
fn lp_bound_dominates_the_peak_bound_on_synthetic_instances() {
    let settings = Settings::default();
    for seed in 0..2 {
        let inst = periodic::generate(
            periodic::TaskSize::Large,
            periodic::Amplitude::Small,
            12,
            seed,
        )
        .unwrap();
        let mut s = settings.clone();
        s.cg.stop_when_bound_closes = false;
        let sol = solve(&inst, Method::Cg, &s).unwrap();
        assert!(verify(&inst, &sol).is_empty());
        if sol.stats["converged"] == 1.0 {
            // W/C relaxes the LP further (it lets all tasks share one giant machine).
            let mut all = peak::Load::default();
            for (j, job) in inst.jobs.iter().enumerate() {
                all.add(&inst, j, f64::from(job.tasks));
            }
            assert!(sol.lp_bound.unwrap() >= all.peak() / inst.capacity - 1e-6);
        }
        let m = sol.machines().unwrap();
        assert!(m >= sol.lower_bound() && sol.lower_bound() >= peak::total_demand_bound(&inst));
    }
}

#[test]
fn over_coverage_removal_places_each_task_once_and_keeps_peaks() {
    let inst =
        periodic::generate(periodic::TaskSize::Medium, periodic::Amplitude::Large, 6, 3).unwrap();
    // Over-cover: every job's tasks twice, two per machine when they fit.
    let mut machines = Vec::new();
    for (j, job) in inst.jobs.iter().enumerate() {
        for _ in 0..2 * job.tasks {
            let mut m = Machine::default();
            m.push(&inst, j);
            machines.push(m);
        }
    }
    let before: Vec<f64> = machines.iter().map(|m| m.load.peak()).collect();
    periodic::remove_over_coverage(&inst, &mut machines);
    let mut placed = vec![0u32; inst.jobs.len()];
    for m in &machines {
        assert!(m.load.peak() <= before.iter().cloned().fold(0.0, f64::max) + 1e-12);
        for &(j, n) in &m.tasks {
            placed[j] += n;
        }
    }
    for (j, job) in inst.jobs.iter().enumerate() {
        assert_eq!(placed[j], job.tasks);
    }
}

#[test]
fn generator_is_reproducible() {
    use periodic::{Amplitude, TaskSize};
    let a = periodic::generate(TaskSize::Small, Amplitude::Large, 100, 9).unwrap();
    let b = periodic::generate(TaskSize::Small, Amplitude::Large, 100, 9).unwrap();
    let c = periodic::generate(TaskSize::Small, Amplitude::Large, 100, 10).unwrap();
    assert_eq!(a.to_json(), b.to_json());
    assert_ne!(a, c);
    assert!(a
        .jobs
        .iter()
        .all(|j| j.mean > 0.0 && j.mean <= 1.0 && j.amplitude <= j.mean && j.tasks == 500));
}

/// The search on `M` of MM: with a packer that succeeds exactly from some count on, it returns
/// that count (or the §5.1 bound when the packer succeeds there), in a logarithmic number of
/// packings.
#[test]
fn machine_count_search_finds_the_threshold_of_a_monotone_packer() {
    use std::cell::Cell;
    use vcalloc::periodic::heuristics::dichotomic;
    for seed in 0..40 {
        let mut inst = tiny(seed);
        for j in &mut inst.jobs {
            j.tasks = 40;
        }
        let total = inst.num_tasks() as usize;
        let bound = peak::total_demand_bound(&inst) as usize;
        for target in [1, bound, bound + 1, bound + 2, bound + 5, bound + 37, total] {
            let calls = Cell::new(0u32);
            let packer = |m: usize| {
                calls.set(calls.get() + 1);
                (m >= target).then(|| {
                    (0..m)
                        .map(|_| {
                            let mut one = Machine::default();
                            one.push(&inst, 0);
                            one
                        })
                        .collect::<Vec<_>>()
                })
            };
            let got = dichotomic(&inst, packer).len();
            if target <= total {
                assert_eq!(got, target.max(bound), "seed {seed} target {target}");
            } else {
                // No count up to one machine a task packs (no real packer fails there): the
                // next-fit fallback, between the bound and one machine a task.
                assert!(
                    (bound..=total).contains(&got),
                    "seed {seed} target {target}: {got}"
                );
            }
            let gap = (target.saturating_sub(bound) + 2) as f64;
            assert!(
                f64::from(calls.get()) <= 2.0 * gap.log2().ceil() + 2.0,
                "seed {seed} target {target}: {} packings",
                calls.get()
            );
        }
    }
}

/// Stopping on tailing-off once the integer bound is settled leaves every answer honest: a
/// valid packing, a bound no larger than the machines, "optimal" only when they meet.
#[test]
fn tailing_off_stops_early_and_stays_honest() {
    let mut settings = Settings::default();
    // Stop as soon as the bound is settled: any later movement counts as too little.
    settings.cg.tail_iterations = 1;
    settings.cg.tail_gap = 1.0;
    settings.cg.closure_gap = 0.0;
    let mut tailed = 0;
    for seed in 0..8 {
        let inst = periodic::generate(
            periodic::TaskSize::Medium,
            periodic::Amplitude::Large,
            10,
            seed,
        )
        .unwrap();
        let sol = solve(&inst, Method::Cg, &settings).unwrap();
        assert!(verify(&inst, &sol).is_empty());
        let m = sol.machines().unwrap();
        assert!(m >= sol.lower_bound() && sol.lower_bound() >= peak::total_demand_bound(&inst));
        assert_eq!(sol.status == Status::Optimal, m == sol.lower_bound());
        tailed += sol.stats["tailing_off"] as u32;
    }
    assert!(tailed > 0, "no run stopped on tailing-off");
}

/// The dive on its own: from the converged master of a small random instance it returns an
/// integer covering over the master's columns (every column a valid machine), never below the
/// brute-force optimum nor the LP bound, by residual rounding and one column a step
/// (`max_fixed_columns = 1`); with the dive switched off the method still verifies.
#[test]
fn dive_returns_a_valid_covering_never_below_the_optimum() {
    use vcalloc::colgen::{self, CgSettings, CoveringMaster, DiveSettings};
    use vcalloc::periodic::{PeriodicPricing, PricingSettings};
    use vcalloc::solver::Deadline;
    let mut dived = 0;
    for seed in 0..60 {
        let inst = random_instance(500 + seed, 2..=4, 1..=3);
        inst.validate(Path::new("t")).unwrap();
        let opt = brute_force(&inst);
        let demands: Vec<f64> = inst.jobs.iter().map(|j| f64::from(j.tasks)).collect();
        let mut master = CoveringMaster::new(&demands);
        // One task per column: a feasible start that leaves all the work to the pricing.
        for j in 0..inst.jobs.len() {
            master.add_column(vec![(j, 1.0)]).unwrap();
        }
        let mut pricing = PeriodicPricing::new(&inst, PricingSettings::default());
        let cg = colgen::run(
            &mut master,
            &mut pricing,
            &CgSettings::default(),
            0.0,
            &Deadline::none(),
        )
        .unwrap();
        // Residual rounding on even seeds, one column a step on odd ones.
        let dive_settings = DiveSettings {
            max_fixed_columns: (seed % 2) as usize,
            ..DiveSettings::default()
        };
        let out =
            colgen::dive(&mut master, &mut pricing, &dive_settings, &Deadline::none()).unwrap();
        if seed % 2 == 1 {
            // One column a step: each step fixed exactly one column.
            assert_eq!(out.chosen.len(), out.steps as usize, "seed {seed}");
        }
        assert!(out.complete, "seed {seed}: no deadline, yet incomplete");
        let columns = master.columns();
        assert_eq!(out.counts.len(), columns.len());
        let mut covered = vec![0.0; demands.len()];
        for (c, &n) in columns.iter().zip(&out.counts) {
            let tasks: Vec<(usize, u32)> = c.iter().map(|&(j, a)| (j, a as u32)).collect();
            assert!(
                peak::fits(&inst, &peak::load_of(&inst, &tasks)),
                "seed {seed}"
            );
            for &(j, a) in c {
                covered[j] += a * n as f64;
            }
        }
        for (j, (&c, &d)) in covered.iter().zip(&demands).enumerate() {
            assert!(c >= d, "seed {seed}: job {j} covered {c} of {d}");
        }
        let machines: u64 = out.counts.iter().sum();
        assert!(
            machines >= opt,
            "seed {seed}: {machines} below the optimum {opt}"
        );
        assert!(machines >= ceil_with_tolerance(cg.bound), "seed {seed}");
        dived += u32::from(out.steps > 0);
        let mut off = Settings::default();
        off.dive.enabled = false;
        let sol = solve(&inst, Method::Cg, &off).unwrap();
        assert!(verify(&inst, &sol).is_empty(), "seed {seed}");
        assert!(sol.machines().unwrap() >= opt);
    }
    assert!(dived > 10, "only {dived} dives fixed anything");
}

/// A dive stopped by its deadline leaves its fixed machines, and BFD packs the rest: the
/// answer still verifies, with bounds below it.
#[test]
fn a_dive_cut_short_still_gives_a_valid_packing() {
    let inst = periodic::generate(
        periodic::TaskSize::Medium,
        periodic::Amplitude::Large,
        12,
        3,
    )
    .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for budget in [1e-4, 0.02, 0.5] {
        let settings = Settings {
            integer_time_limit: budget,
            ..Settings::default()
        };
        let sol = solve(&inst, Method::Cg, &settings).unwrap();
        assert!(verify(&inst, &sol).is_empty(), "budget {budget}");
        assert!(sol.machines().unwrap() >= sol.lower_bound());
        if let Some(&c) = sol.stats.get("dive_complete") {
            seen.insert(c as u8);
        }
    }
    assert_eq!(seen.len(), 2, "both a cut and a whole dive: {seen:?}");
}

/// Stabilised column generation (self-adjusting Wentges smoothing; the dual-optimal
/// inequalities of the jobs' dominance) and the plain loop reach the same root LP value on
/// seeded random instances and on BPPLIB files, all converged.
#[test]
fn stabilised_and_plain_column_generation_agree() {
    let mut cases: Vec<(String, Instance)> = (0..25)
        .map(|seed| {
            (
                format!("random {seed}"),
                random_instance(seed, 2..=8, 1..=6),
            )
        })
        .collect();
    for (name, _, _) in optima().into_iter().take(3) {
        let inst = Instance::load(&Path::new("data/bpplib").join(&name), None).unwrap();
        cases.push((name, inst));
    }
    for (name, inst) in cases {
        let mut values = Vec::new();
        for (auto, doi) in [(false, false), (true, false), (false, true)] {
            let mut settings = Settings::default();
            settings.cg.stop_when_bound_closes = false;
            settings.cg.tail_iterations = 0;
            settings.cg.smoothing_auto = auto;
            settings.cg.dual_optimal_inequalities = doi;
            let sol = solve(&inst, Method::Cg, &settings).unwrap();
            assert_eq!(sol.stats["converged"], 1.0, "{name}, auto {auto}");
            assert_eq!(sol.stats["root_converged"], 1.0, "{name}, auto {auto}");
            let bound = sol.stats["root_bound"];
            let master = sol.stats["root_master"];
            // Converged means `v ≤ 1 + tol + 1e-8` (tol = 1e-7): the Farley bound may sit
            // that far below the master value.
            assert!(
                bound <= master + 1e-9 && bound >= master * (1.0 - 2e-7) - 1e-9,
                "{name}: {bound} {master}"
            );
            values.push(master);
        }
        for v in &values[1..] {
            assert!(
                (values[0] - v).abs() <= 1e-6,
                "{name}: plain {} vs stabilised {v}",
                values[0],
            );
        }
    }
}

/// Every dominance pair `(light, heavy)` of the periodic pricing is one: the light job's
/// load is at most the heavy one's at every sampled instant, so a task of `heavy` on a
/// machine may be replaced by one of `light` and the machine's peak does not rise; no job
/// is light in two pairs, and pairs are found where profiles allow (small amplitudes).
#[test]
fn dominance_pairs_replace_a_heavy_task_by_a_light_one_safely() {
    use vcalloc::colgen::Pricing;
    use vcalloc::periodic::{PeriodicPricing, PricingSettings};
    let mut found = 0;
    for seed in 0..40 {
        let inst = random_instance(seed, 4..=12, 1..=3);
        let pricing = PeriodicPricing::new(&inst, PricingSettings::default());
        let pairs = pricing.dominance();
        found += pairs.len();
        let mut lights: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        lights.sort_unstable();
        lights.dedup();
        assert_eq!(lights.len(), pairs.len(), "seed {seed}: {pairs:?}");
        for &(l, h) in &pairs {
            assert_ne!(l, h);
            let (jl, jh) = (&inst.jobs[l], &inst.jobs[h]);
            for k in 0..720 {
                let t = f64::from(k) * std::f64::consts::TAU / 720.0;
                let load = |j: &periodic::Job| j.mean + j.amplitude * (t + j.phase).cos();
                assert!(
                    load(jl) <= load(jh) + 1e-12,
                    "seed {seed}: {l} vs {h} at {t}"
                );
            }
            // On a machine: one task of `h` replaced by one of `l` (the same other tasks).
            let with = |j: usize| -> peak::Load {
                let mut tasks = vec![(j, 1)];
                tasks.extend(
                    (0..inst.jobs.len())
                        .filter(|&o| o != l && o != h)
                        .map(|o| (o, 1)),
                );
                peak::load_of(&inst, &tasks)
            };
            assert!(
                with(l).peak() <= with(h).peak() + 1e-9,
                "seed {seed}: {l} vs {h}"
            );
        }
    }
    assert!(found > 20, "only {found} pairs in 40 instances");
}
