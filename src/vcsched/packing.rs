//! VCSched as two-dimensional vector packing (issue 40; `models/vcsched.md`, "The packing
//! bound and proof").
//!
//! A placement has every host's CPU load at most `t` exactly when the tasks, with CPU
//! weight `α_j / t` and memory weight `m_j`, pack into `H` bins of capacity `(1, 1)`. The
//! decision "is `L* ≤ t`?" is therefore a vector bin-packing question, which the engine's
//! configuration LP (column generation, safe Farley bound) and branch-and-price answer in
//! decision mode ([`BpSettings::target`] = `H`):
//!
//! - **integer weights, rounded down**: `⌊S α_j / t⌋` against `S`, `⌊S m_j⌋` against
//!   `⌊S (1 + MEMORY_SLACK)⌋`, `S = 2⁴⁰`, each product first shrunk by a relative `10⁻¹²`
//!   (far above its round-off). Every placement within `t` (and the memory slack) stays
//!   feasible, so a refutation of the integer question refutes the real one;
//! - **refuted** (`⌈bound⌉ > H`): `L* > t`, up to the `10⁻¹²` shrink, which [`refuted_load`]
//!   gives back;
//! - **fits**: the packing is checked again in floats (loads and memory) before it counts.
//!
//! [`improve`] uses it where the exact method's own bounds leave a gap: the configuration LP
//! just below the incumbent's largest load (a refutation proves the incumbent optimal), a
//! bisection of the LP alone between the proven floor and there (a better floor), then
//! branch-and-price just below the incumbent (the proof the LP could not give).

use super::allocation::{memory_feasible, Placement};
use super::exact::MEMORY_SLACK;
use super::improve::max_load;
use super::instance::Instance;
use crate::colgen::vector::{fit_decreasing, BinKnapsack, PricingSettings};
use crate::colgen::{branch_and_price, partition, unit_columns, BpEnd, BpSettings, DiveSettings};
use crate::error::Result;
use crate::solver::Deadline;
use serde::{Deserialize, Serialize};

/// The integer scale of the weights.
pub const SCALE: u64 = 1 << 40;

/// Relative shrink of every scaled weight before rounding down (see the module text).
const SHRINK: f64 = 1e-12;

/// Settings of the packing bound and proof.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PackingSettings {
    /// Run them when the exact method's own search leaves a gap.
    pub enabled: bool,
    /// The proof asks for a largest load below `(1 − margin)` times the incumbent's: its
    /// yield bound is then within `margin / L` of the incumbent's yield (keep it below
    /// `gap_tolerance`).
    pub margin: f64,
    /// Share of the time left kept for the proof (branch-and-price) when the bisection of
    /// the configuration LP starts.
    pub proof_share: f64,
    /// Proofs in a row: a proof that finds a better placement is retried below it.
    pub max_proofs: u32,
    /// The bisection of the configuration LP stops when its bracket is narrower than this
    /// (relative).
    pub resolution: f64,
    /// Steps of the bisection at most.
    pub max_steps: u32,
    /// Seconds of the whole at most (also without a time limit). Where they prove (memory-
    /// bound instances of about 100 tasks on 64 hosts) the root LP does it within 10 ms; at
    /// 250 tasks and more its column generation does not converge within 10 s
    /// (models/vcsched.md, "The packing bound and proof"), so a short cap.
    pub max_seconds: f64,
    /// The LP decisions dive for a packing when they cannot refute (a better incumbent).
    pub lp_dives: bool,
    /// The knapsack pricing.
    pub pricing: PricingSettings,
    /// The branch-and-price (its `node_limit` bounds the proof).
    pub bp: BpSettings,
}

impl Default for PackingSettings {
    fn default() -> Self {
        PackingSettings {
            enabled: true,
            margin: 2.5e-7,
            proof_share: 0.7,
            max_proofs: 4,
            resolution: 1e-4,
            max_steps: 20,
            max_seconds: 2.0,
            lp_dives: false,
            pricing: PricingSettings::default(),
            // Cheap dives (3 pricing rounds per fixing, 2 retries): each exact pricing of a
            // few hundred tasks in two dimensions can take a second.
            bp: BpSettings {
                node_limit: 20_000,
                integer_seconds: 0.5,
                dive: DiveSettings {
                    pricing_rounds: 3,
                    ..DiveSettings::default()
                },
                dive_retries: 2,
                ..BpSettings::default()
            },
        }
    }
}

impl PackingSettings {
    /// The first setting out of its range, with the reason.
    pub fn check(&self) -> std::result::Result<(), crate::problem::Invalid> {
        use crate::problem::Invalid;
        if !(self.margin > 0.0 && self.margin < 1e-3) {
            return Err(Invalid::new(
                "packing.margin",
                self.margin,
                "must be in (0, 0.001)",
            ));
        }
        if !(0.0..=1.0).contains(&self.proof_share) {
            return Err(Invalid::new(
                "packing.proof_share",
                self.proof_share,
                "must be in [0, 1]",
            ));
        }
        if !(self.resolution.is_finite() && self.resolution > 0.0) {
            return Err(Invalid::new(
                "packing.resolution",
                self.resolution,
                "must be positive",
            ));
        }
        if self.max_seconds.is_nan() || self.max_seconds < 0.0 {
            return Err(Invalid::new(
                "packing.max_seconds",
                self.max_seconds,
                "must be >= 0",
            ));
        }
        Ok(())
    }
}

/// The answer to "do the tasks fit in the hosts at largest load `t`?".
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Yes: a placement, checked in floats (largest load at most about `t`).
    Fits(Placement),
    /// No, proven: `L* > t` (up to the shrink, see [`refuted_load`]).
    Refuted,
    /// Neither, within the limits.
    Unknown,
}

/// A decision and what it cost.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The answer.
    pub decision: Decision,
    /// Branch-and-price nodes.
    pub nodes: u64,
    /// The configuration LP's proven bound on the hosts needed (rounded up).
    pub hosts_bound: u64,
}

/// The largest load a refutation at `t` proves `L*` to exceed: `t` less the shrink.
pub fn refuted_load(t: f64) -> f64 {
    t * (1.0 - 4.0 * SHRINK)
}

/// The integer items of the decision at `t`: per task `[⌊S α/t⌋, ⌊S m⌋]`, and the
/// capacities; `None` when a task's CPU alone exceeds `t`.
pub fn scaled(flat: &Instance, t: f64) -> Option<(Vec<Vec<u64>>, Vec<u64>)> {
    let s = SCALE as f64;
    let down = |x: f64| (x * (1.0 - SHRINK)).floor() as u64;
    let cap = [SCALE, (s * (1.0 + MEMORY_SLACK)).floor() as u64];
    let items: Vec<Vec<u64>> = flat
        .tasks()
        .map(|j| vec![down(s * j.cpu / t), down(s * j.mem)])
        .collect();
    items
        .iter()
        .all(|w| w[0] <= cap[0] && w[1] <= cap[1])
        .then(|| (items, cap.to_vec()))
}

/// Decides whether the tasks of `flat` fit in its hosts at largest load `t`: first fit
/// decreasing, then branch-and-price in decision mode (`lp_only`: its root alone, no dive).
pub fn decide(
    flat: &Instance,
    t: f64,
    settings: &PackingSettings,
    lp_only: bool,
    deadline: &Deadline,
) -> Result<Probe> {
    let h = flat.hosts as u64;
    let mut probe = Probe {
        decision: Decision::Unknown,
        nodes: 0,
        hosts_bound: 0,
    };
    let Some((items, capacity)) = scaled(flat, t) else {
        probe.decision = Decision::Refuted;
        probe.hosts_bound = h + 1;
        return Ok(probe);
    };
    let start = fit_decreasing(&items, &capacity, true);
    if start.len() as u64 <= h {
        probe.decision = checked(flat, &start);
        return Ok(probe);
    }
    let mut bp = settings.bp.clone();
    bp.target = Some(h);
    if lp_only {
        // The master value bounds the LP optimum from above: at `H` or below, no refutation.
        bp.cg.give_up_at = Some(h as f64);
        bp.node_limit = 1;
        bp.root_dive = settings.lp_dives;
    }
    let mut pricing = BinKnapsack::new(&items, &capacity, settings.pricing.clone());
    let out = branch_and_price(
        items.len(),
        &mut pricing,
        unit_columns(&start),
        &bp,
        deadline,
    )?;
    probe.nodes = out.nodes;
    probe.hosts_bound = out.bound;
    probe.decision = if out.end == BpEnd::Target {
        checked(flat, &partition(items.len(), &out.incumbent))
    } else if out.bound > h {
        Decision::Refuted
    } else {
        Decision::Unknown
    };
    Ok(probe)
}

/// The placement of `bins` (a host per bin), if it holds in floats.
fn checked(flat: &Instance, bins: &[Vec<usize>]) -> Decision {
    let mut p: Placement = vec![0; flat.num_tasks()];
    for (host, bin) in bins.iter().enumerate() {
        for &k in bin {
            p[k] = host;
        }
    }
    if bins.len() <= flat.hosts && memory_feasible(flat, &p, MEMORY_SLACK) {
        Decision::Fits(p)
    } else {
        Decision::Unknown
    }
}

/// A decision as [`improve`] uses it: a packing's largest load, kept in [`Improved`].
enum Asked {
    Fits(f64),
    Refuted,
    Unknown,
}

/// What [`improve`] achieved.
#[derive(Debug, Clone, Default)]
pub struct Improved {
    /// A better placement than the one given, if found (with its largest load).
    pub placement: Option<(f64, Placement)>,
    /// A proven lower bound on `L*` (at least the one given).
    pub floor: f64,
    /// No placement exists (memory): proven.
    pub infeasible: bool,
    /// Decisions asked.
    pub probes: u32,
    /// Branch-and-price nodes in all.
    pub nodes: u64,
    /// The proof at the incumbent succeeded (or infeasibility was proven).
    pub proven: bool,
}

/// Closes what it can of the gap between `floor` (proven: `L* ≥ floor`) and the incumbent
/// `best` (a placement and its largest load; `None`: none known) — see the module text.
pub fn improve(
    flat: &Instance,
    floor: f64,
    best: Option<(f64, Placement)>,
    settings: &PackingSettings,
    deadline: &Deadline,
) -> Result<Improved> {
    let deadline = &deadline.capped(settings.max_seconds);
    let mut out = Improved {
        floor,
        ..Improved::default()
    };
    let best_load = best.as_ref().map(|b| b.0);
    // Asks the decision at `t`, logs it, counts it and keeps a better placement it finds;
    // `Fits` carries the placement's largest load.
    let ask = |t: f64, lp_only: bool, out: &mut Improved, dl: &Deadline| -> Result<Asked> {
        let began = std::time::Instant::now();
        let probe = decide(flat, t, settings, lp_only, dl)?;
        crate::solver::progress::line(format_args!(
            "exact: packing at largest load {t:.6} ({}): {}, hosts bound {}, {} nodes, {:.2} s",
            if lp_only { "LP" } else { "branch-and-price" },
            match probe.decision {
                Decision::Fits(_) => "fits",
                Decision::Refuted => "refuted",
                Decision::Unknown => "unknown",
            },
            probe.hosts_bound,
            probe.nodes,
            began.elapsed().as_secs_f64()
        ));
        out.probes += 1;
        out.nodes += probe.nodes;
        Ok(match probe.decision {
            Decision::Fits(p) => {
                let l = max_load(flat, &p);
                if out.placement.as_ref().is_none_or(|b| l < b.0) && best_load.is_none_or(|b| l < b)
                {
                    out.placement = Some((l, p));
                }
                Asked::Fits(l)
            }
            Decision::Refuted => Asked::Refuted,
            Decision::Unknown => Asked::Unknown,
        })
    };
    let mut top = match best_load {
        Some(l) => l,
        // No placement known: the memory question alone (CPU can go anywhere at Σα).
        None => match ask(flat.total_cpu().max(floor) * 2.0, false, &mut out, deadline)? {
            Asked::Refuted => {
                out.infeasible = true;
                out.proven = true;
                return Ok(out);
            }
            Asked::Fits(l) => l,
            Asked::Unknown => return Ok(out),
        },
    };
    // The configuration LP just below the incumbent: refuted, the incumbent is optimal.
    let mut t = top * (1.0 - settings.margin);
    if t > out.floor {
        match ask(t, true, &mut out, deadline)? {
            Asked::Refuted => {
                out.floor = out.floor.max(refuted_load(t));
                out.proven = true;
                return Ok(out);
            }
            Asked::Fits(l) => top = l,
            Asked::Unknown => top = t,
        }
    }
    // The LP alone, bisected between the floor and there: refuted raises the floor; a
    // packing lowers the incumbent; neither means no LP refutation above that point (the LP
    // value falls as `t` grows), so the bracket's top comes down.
    let bisection = deadline.keeping(|left| left * settings.proof_share);
    let mut steps = 0;
    while steps < settings.max_steps
        && top - out.floor > settings.resolution * top
        && !bisection.expired()
    {
        steps += 1;
        let t = 0.5 * (out.floor + top);
        match ask(t, true, &mut out, &bisection)? {
            Asked::Refuted => out.floor = out.floor.max(refuted_load(t)),
            Asked::Fits(l) => top = top.min(l),
            Asked::Unknown => top = t,
        }
    }
    // Branch-and-price just below the incumbent, again below each better placement found.
    for _ in 0..settings.max_proofs {
        let Some(l) = out.placement.as_ref().map(|b| b.0).or(best_load) else {
            break;
        };
        t = l * (1.0 - settings.margin);
        if t <= out.floor || deadline.expired() {
            break;
        }
        match ask(t, false, &mut out, deadline)? {
            Asked::Refuted => {
                out.floor = out.floor.max(refuted_load(t));
                out.proven = true;
                break;
            }
            Asked::Fits(_) => {}
            Asked::Unknown => break,
        }
    }
    Ok(out)
}
