//! Algorithm 1 (list scheduling over the fit) and the rigid baseline through a second,
//! independent code path (conservative backfilling over a job list).

use super::fit::{compact, fit, ExpandLimit, FitStats};
use super::instance::Instance;
use super::profile::{Profile, Step};

/// What Algorithm 1 produced: per app its step starts, plus counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListSchedule {
    /// Per app, the start of each scheduled step (for rigid runs, the single block's start).
    pub starts: Vec<Vec<i64>>,
    /// Compacting passes rejected because they would not keep the completion time.
    pub compaction_rejections: u64,
    /// Loop passes of the fit, summed over apps (work measure).
    pub fit_iterations: u64,
}

/// Algorithm 1: reservations start empty; each app in list order is fitted (Algorithm 2),
/// optionally compacted, and added. With `rigid`, each app is first turned into the one-step
/// EP `(Σ d, max n)` (the baseline); its one start is returned.
pub fn list_schedule(
    inst: &Instance,
    limit: ExpandLimit,
    compacting: bool,
    rigid: bool,
) -> ListSchedule {
    let mut res = Profile::new();
    let mut stats = FitStats::default();
    let mut rejections = 0u64;
    let mut starts = Vec::with_capacity(inst.apps.len());
    for app in &inst.apps {
        let steps: Vec<Step> = if rigid {
            app.rigid_steps()
        } else {
            app.steps.clone()
        };
        let mut s = fit(&steps, &res, inst.nodes, limit, 0, &mut stats);
        if compacting {
            match compact(&steps, &s, &res, inst.nodes, limit, &mut stats) {
                Some(c) => s = c,
                None => rejections += 1,
            }
        }
        add_schedule(&mut res, &steps, &s);
        starts.push(s);
    }
    log::debug!(
        "algorithm 1 (l = {limit}, compacting = {compacting}, rigid = {rigid}): {} fit passes, \
         {} breakpoints, {rejections} rejected compactions",
        stats.iterations,
        res.len()
    );
    ListSchedule {
        starts,
        compaction_rejections: rejections,
        fit_iterations: stats.iterations,
    }
}

/// Adds a scheduled app to the reservations: step `k` over `[s_k, s_{k+1})`, the last over
/// `[s_K, s_K + d_K)`.
pub fn add_schedule(res: &mut Profile, steps: &[Step], starts: &[i64]) {
    for (k, st) in steps.iter().enumerate() {
        let end = starts
            .get(k + 1)
            .copied()
            .unwrap_or(starts[k] + st.duration);
        res.add(starts[k], end, st.nodes);
    }
}

/// The rigid baseline by conservative backfilling written from scratch: jobs `(Σ d, max n)`
/// all arrive at 0 with exact run times and are given, in list order, the earliest start at
/// which they fit beside every job already placed. Candidate starts are 0 and the ends of
/// placed jobs (the free capacity only rises there); a candidate is checked at its own time
/// and at every placed start inside the window. Quadratic per job, which is fine for a check.
pub fn rigid_backfill(inst: &Instance) -> Vec<i64> {
    let mut placed: Vec<(i64, i64, i64)> = Vec::new(); // (start, end, nodes)
    let mut out = Vec::with_capacity(inst.apps.len());
    for app in &inst.apps {
        let (d, n) = (app.total_duration(), app.peak_nodes());
        let mut cands: Vec<i64> = placed.iter().map(|p| p.1).collect();
        cands.push(0);
        cands.sort_unstable();
        cands.dedup();
        let usage = |t: i64| -> i64 {
            placed
                .iter()
                .filter(|p| p.0 <= t && t < p.1)
                .map(|p| p.2)
                .sum()
        };
        // The end of the last placed job always fits a valid app (n ≤ N); on an invalid one
        // the fallback keeps this function total instead of panicking.
        let fallback = placed.iter().map(|p| p.1).max().unwrap_or(0);
        let start = cands
            .into_iter()
            .find(|&t| {
                let mut points = vec![t];
                points.extend(placed.iter().map(|p| p.0).filter(|&s| s > t && s < t + d));
                points.into_iter().all(|p| usage(p) + n <= inst.nodes)
            })
            .unwrap_or(fallback);
        placed.push((start, start + d, n));
        out.push(start);
    }
    out
}
