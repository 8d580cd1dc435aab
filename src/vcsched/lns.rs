//! Large-neighbourhood search on `exact`'s incumbent (`models/vcsched.md`, "Incumbent"):
//! free the tasks of a few hosts — the most loaded one, the least loaded ones and some drawn
//! at random — and place them anew on those hosts by the exact branch-and-bound
//! ([`super::exact::Search`]) on that small instance; keep the new placement when the largest
//! load of those hosts drops. Moves, swaps and pairwise re-splits get stuck where memory is
//! tight (a task fits only where another leaves); a joint re-placement of `k` hosts' tasks
//! is a far larger neighbourhood, searched exactly.

use super::allocation::Placement;
use super::exact::{load_bound, Search};
use super::improve::max_load;
use super::instance::{Instance, Job};
use crate::solver::Deadline;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Settings of the large-neighbourhood search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LnsSettings {
    /// Run it when `exact`'s own search leaves a gap.
    pub enabled: bool,
    /// Hosts freed in one step: the most loaded one, the least loaded `⌊(hosts − 1)/2⌋`,
    /// `memory_hosts` of those with the most free memory, the rest at random.
    pub hosts: usize,
    /// Of a step's hosts, how many are those with the most free memory.
    pub memory_hosts: usize,
    /// After `patience` steps without a gain, a step frees one host more, up to this many.
    pub max_hosts: usize,
    /// Nodes of one step's branch-and-bound.
    pub max_nodes: u64,
    /// Steps at most (a count, so the result does not depend on the machine's speed).
    pub max_steps: u32,
    /// Steps in a row without a gain before it ends.
    pub patience: u32,
    /// Seconds at most (a guard; the step counts end it first on the instances measured).
    pub max_seconds: f64,
}

impl Default for LnsSettings {
    fn default() -> Self {
        LnsSettings {
            enabled: true,
            hosts: 4,
            memory_hosts: 0,
            max_hosts: 6,
            max_nodes: 5_000,
            max_steps: 50_000,
            patience: 3_000,
            max_seconds: 4.0,
        }
    }
}

impl LnsSettings {
    /// The settings' own checks.
    pub fn check(&self) -> std::result::Result<(), crate::problem::Invalid> {
        use crate::problem::Invalid;
        if !(2..=32).contains(&self.hosts) {
            return Err(Invalid::new("lns.hosts", self.hosts, "must be in 2..=32"));
        }
        if self.max_hosts > 32 {
            return Err(Invalid::new(
                "lns.max_hosts",
                self.max_hosts,
                "must be at most 32",
            ));
        }
        if self.max_seconds.is_nan() || self.max_seconds < 0.0 {
            return Err(Invalid::new(
                "lns.max_seconds",
                self.max_seconds,
                "must be >= 0",
            ));
        }
        Ok(())
    }
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Lns {
    /// Steps run.
    pub steps: u32,
    /// Steps that lowered the largest load of their hosts.
    pub gains: u32,
}

/// Improves `p` (a placement of the flattened instance `flat` within memory) in place until
/// its largest load reaches `floor`, the step counts are spent, or `deadline`; `seed` draws
/// the random hosts.
pub fn improve(
    flat: &Instance,
    p: &mut Placement,
    floor: f64,
    settings: &LnsSettings,
    seed: u64,
    deadline: &Deadline,
) -> Lns {
    let deadline = deadline.capped(settings.max_seconds);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let h = flat.hosts;
    let k = settings.hosts.min(h);
    let mut out = Lns::default();
    if k < 2 || !settings.enabled {
        return out;
    }
    let (mut cpu, mut mem) = (vec![0.0; h], vec![0.0; h]);
    for (i, &g) in p.iter().enumerate() {
        cpu[g] += flat.jobs[i].cpu;
        mem[g] += flat.jobs[i].mem;
    }
    let mut fruitless = 0;
    let mut k = k;
    while out.steps < settings.max_steps && !deadline.expired() {
        if fruitless >= settings.patience {
            // Stuck at this size: one host more, up to `max_hosts`.
            if k >= settings.max_hosts.min(h) {
                break;
            }
            k += 1;
            fruitless = 0;
        }
        let mut order: Vec<usize> = (0..h).collect();
        order.sort_by(|&x, &y| cpu[y].total_cmp(&cpu[x]).then(x.cmp(&y)));
        let top = order[0];
        if cpu[top] <= floor {
            break;
        }
        out.steps += 1;
        // The most loaded host, the least loaded ones, those with the most free memory,
        // the rest at random.
        let mut chosen = vec![top];
        let least = ((k - 1) / 2).min(k - 1);
        chosen.extend(order.iter().rev().take(least).copied());
        let roomy = settings.memory_hosts.min(k - chosen.len());
        let mut by_memory: Vec<usize> = (0..h).filter(|g| !chosen.contains(g)).collect();
        by_memory.sort_by(|&x, &y| mem[x].total_cmp(&mem[y]).then(x.cmp(&y)));
        chosen.extend(by_memory.into_iter().take(roomy));
        let mut rest: Vec<usize> = (0..h).filter(|g| !chosen.contains(g)).collect();
        rest.shuffle(&mut rng);
        let left = k - chosen.len();
        chosen.extend(rest.into_iter().take(left));
        let tasks: Vec<usize> = (0..p.len()).filter(|&i| chosen.contains(&p[i])).collect();
        let sub = Instance {
            hosts: chosen.len(),
            jobs: tasks
                .iter()
                .map(|&i| Job {
                    name: None,
                    tasks: 1,
                    ..flat.jobs[i].clone()
                })
                .collect(),
            current: None,
            budget: None,
        };
        let now: Placement = tasks
            .iter()
            .map(|&i| chosen.iter().position(|&g| g == p[i]).unwrap_or(0))
            .collect();
        let peak = cpu[top];
        let mut search = Search::new(
            &sub,
            Some((peak, now)),
            load_bound(&sub),
            settings.max_nodes,
            deadline,
        );
        search.run();
        match search.incumbent {
            Some((l, q)) if l < peak => {
                for (&i, &s) in tasks.iter().zip(&q) {
                    p[i] = chosen[s];
                }
                for &g in &chosen {
                    cpu[g] = 0.0;
                    mem[g] = 0.0;
                }
                for &i in &tasks {
                    cpu[p[i]] += flat.jobs[i].cpu;
                    mem[p[i]] += flat.jobs[i].mem;
                }
                out.gains += 1;
                fruitless = 0;
            }
            _ => fruitless += 1,
        }
    }
    debug_assert!(max_load(flat, p).is_finite());
    out
}

#[cfg(test)]
mod tests {
    use super::super::allocation::memory_feasible;
    use super::super::brute::optimal_min_yield;
    use super::super::improve::lpt;
    use super::*;
    use rand::Rng;

    fn random(rng: &mut ChaCha8Rng, hosts: usize, n: usize) -> Instance {
        let jobs = (0..n)
            .map(|_| Job::new(rng.random_range(0.05..1.0), rng.random_range(0.01..0.45)))
            .collect();
        Instance::new(hosts, jobs, std::path::Path::new("<test>")).unwrap()
    }

    #[test]
    fn lns_never_raises_the_load_keeps_memory_and_stays_above_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let settings = LnsSettings {
            hosts: 3,
            ..LnsSettings::default()
        };
        let (mut lowered, mut optimal) = (0, 0);
        for case in 0..120 {
            let (hosts, n) = (rng.random_range(2..=5), rng.random_range(4..=10));
            let inst = random(&mut rng, hosts, n);
            let Some(mut p) = lpt(&inst) else { continue };
            let before = max_load(&inst, &p);
            let got = improve(&inst, &mut p, 0.0, &settings, case, &Deadline::none());
            let after = max_load(&inst, &p);
            assert!(after <= before, "case {case}: {before} -> {after}");
            assert!(memory_feasible(&inst, &p, 1e-9), "case {case}");
            assert_eq!(got.gains > 0, after < before, "case {case}");
            // The optimum's largest load, from brute force: never beaten.
            let y = optimal_min_yield(&inst).expect("LPT's placement fits");
            if y < 1.0 {
                let best = 1.0 / y;
                assert!(
                    after >= best * (1.0 - 1e-9),
                    "case {case}: {after} < {best}"
                );
                optimal += usize::from(after <= best * (1.0 + 1e-9));
            }
            lowered += usize::from(after < before);
        }
        assert!(lowered > 10, "LNS improved LPT on only {lowered} of 120");
        assert!(optimal > 30, "LNS reached the optimum on only {optimal}");
    }

    #[test]
    fn the_same_seed_gives_the_same_placement() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let inst = random(&mut rng, 8, 30);
        let run = |seed| {
            let mut p = lpt(&inst).unwrap();
            improve(
                &inst,
                &mut p,
                0.0,
                &LnsSettings::default(),
                seed,
                &Deadline::none(),
            );
            p
        };
        assert_eq!(run(3), run(3));
    }
}
