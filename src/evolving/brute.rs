//! Brute-force oracles on tiny instances: the earliest-completion fit of one app against a
//! reservation profile, and the exact optimum of a whole instance (best makespan or sum of
//! completion times over all start times respecting C1/C2, hence over every order). They are
//! deliberately naive — integer time slots, full enumeration — so they share no logic with the
//! fit, and they are the oracle the time-indexed MILP (`exact`, to come) must match.

use super::fit::ExpandLimit;
use super::instance::Instance;
use super::profile::{Profile, Step};
use serde::{Deserialize, Serialize};

/// Every schedule of `steps` with `s_1 ≥ earliest` and completion `≤ horizon`, as step starts
/// with their completion: the first step exactly `d_1`, middle steps `[d, l·d]`, the last `d_K`.
pub fn all_schedules(
    steps: &[Step],
    limit: ExpandLimit,
    earliest: i64,
    horizon: i64,
) -> Vec<(Vec<i64>, i64)> {
    let mut out = Vec::new();
    let total: i64 = steps.iter().map(|s| s.duration).sum();
    for s1 in earliest..=horizon - total {
        let mut cur = vec![s1];
        extend(steps, limit, horizon, &mut cur, &mut out);
    }
    out
}

fn extend(
    steps: &[Step],
    limit: ExpandLimit,
    horizon: i64,
    cur: &mut Vec<i64>,
    out: &mut Vec<(Vec<i64>, i64)>,
) {
    let k = cur.len(); // steps placed so far; the last one starts at cur[k-1]
    let t = cur[k - 1];
    if k == steps.len() {
        let c = t + steps[k - 1].duration;
        if c <= horizon {
            out.push((cur.clone(), c));
        }
        return;
    }
    let d = steps[k - 1].duration;
    let rest: i64 = steps[k..].iter().map(|s| s.duration).sum();
    let max_span = if k == 1 { Some(d) } else { limit.max_span(d) };
    let hi = max_span
        .map_or(horizon, |m| m.min(horizon))
        .min(horizon - t - rest);
    for span in d..=hi {
        cur.push(t + span);
        extend(steps, limit, horizon, cur, out);
        cur.pop();
    }
}

/// Whether a schedule fits beside `res` under `cap`, checked slot by slot.
fn fits(steps: &[Step], starts: &[i64], res: &Profile, cap: i64) -> bool {
    (0..steps.len()).all(|k| {
        let end = starts
            .get(k + 1)
            .copied()
            .unwrap_or(starts[k] + steps[k].duration);
        (starts[k]..end).all(|t| res.at(t) + steps[k].nodes <= cap)
    })
}

/// The earliest completion time of `steps` against `res` by enumeration (the fit must equal
/// it). The search horizon is `max(res horizon, earliest) + Σ d`, where a contiguous
/// placement after the last reservation always fits.
pub fn earliest_fit(
    steps: &[Step],
    res: &Profile,
    cap: i64,
    limit: ExpandLimit,
    earliest: i64,
) -> Option<(Vec<i64>, i64)> {
    let total: i64 = steps.iter().map(|s| s.duration).sum();
    let horizon = res.horizon().max(earliest) + total;
    all_schedules(steps, limit, earliest, horizon)
        .into_iter()
        .filter(|(s, _)| fits(steps, s, res, cap))
        .min_by_key(|(_, c)| *c)
}

/// What the exact search minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// The latest completion.
    Makespan,
    /// `Σ_i C_i` (equivalently the average completion time).
    SumCompletion,
}

/// An optimum found by [`exact`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exact {
    /// The optimal objective value.
    pub value: i64,
    /// Per app, the step starts of one optimal schedule.
    pub starts: Vec<Vec<i64>>,
    /// Search nodes visited.
    pub nodes: u64,
}

/// One app's candidates: (starts, completion, allocation segments), by completion.
type Cands = Vec<(Vec<i64>, i64, Vec<(i64, i64, i64)>)>;

struct Search<'a> {
    cands: &'a [Cands],
    usage: Vec<i64>,
    cap: i64,
    objective: Objective,
    best: i64,
    best_starts: Option<Vec<Vec<i64>>>,
    cur: Vec<Vec<i64>>,
    visited: u64,
    budget: u64,
    min_rest: Vec<i64>,
}

impl Search<'_> {
    fn place(&mut self, segs: &[(i64, i64, i64)], sign: i64) {
        for &(a, b, n) in segs {
            for t in a..b {
                self.usage[t as usize] += sign * n;
            }
        }
    }
    fn room(&self, segs: &[(i64, i64, i64)]) -> bool {
        segs.iter()
            .all(|&(a, b, n)| (a..b).all(|t| self.usage[t as usize] + n <= self.cap))
    }
    /// Depth-first over apps; `acc` is the objective of the apps placed so far.
    fn dfs(&mut self, i: usize, acc: i64) -> bool {
        self.visited += 1;
        if self.visited > self.budget {
            return false;
        }
        if i == self.cands.len() {
            if acc < self.best {
                self.best = acc;
                self.best_starts = Some(self.cur.clone());
            }
            return true;
        }
        for c in 0..self.cands[i].len() {
            let (starts, comp, segs) = &self.cands[i][c];
            let next = match self.objective {
                Objective::Makespan => acc.max(*comp),
                Objective::SumCompletion => acc + comp,
            };
            let bound = match self.objective {
                Objective::Makespan => next,
                Objective::SumCompletion => next + self.min_rest[i + 1],
            };
            if bound >= self.best {
                break; // candidates are sorted by completion
            }
            if !self.room(segs) {
                continue;
            }
            self.place(segs, 1);
            self.cur.push(starts.clone());
            let ok = self.dfs(i + 1, next);
            self.cur.pop();
            self.place(segs, -1);
            if !ok {
                return false;
            }
        }
        true
    }
}

/// The exact optimum over all schedules completing by `horizon` (default: the total duration,
/// which running the apps one after another reaches, so for the makespan the horizon loses
/// nothing). `None` if the search exceeds `budget` nodes or the instance is too large for
/// slot arrays (`horizon > max_horizon`).
pub fn exact(
    inst: &Instance,
    limit: ExpandLimit,
    objective: Objective,
    horizon: Option<i64>,
    max_horizon: i64,
    budget: u64,
) -> Option<Exact> {
    let h = horizon.unwrap_or_else(|| inst.total_duration());
    if h > max_horizon || h < 0 {
        return None;
    }
    let cands: Vec<Cands> = inst
        .apps
        .iter()
        .map(|app| {
            let mut v: Cands = all_schedules(&app.steps, limit, 0, h)
                .into_iter()
                .map(|(s, c)| {
                    let segs = (0..s.len())
                        .map(|k| (s[k], s.get(k + 1).copied().unwrap_or(c), app.steps[k].nodes))
                        .collect();
                    (s, c, segs)
                })
                .collect();
            v.sort_by_key(|x| x.1);
            v
        })
        .collect();
    let mut min_rest = vec![0i64; inst.apps.len() + 1];
    for i in (0..inst.apps.len()).rev() {
        min_rest[i] = min_rest[i + 1] + inst.apps[i].total_duration();
    }
    let mut s = Search {
        cands: &cands,
        usage: vec![0; h.max(0) as usize + 1],
        cap: inst.nodes,
        objective,
        best: i64::MAX,
        best_starts: None,
        cur: Vec::new(),
        visited: 0,
        budget,
        min_rest,
    };
    if !s.dfs(0, 0) {
        return None;
    }
    let visited = s.visited;
    s.best_starts.map(|starts| Exact {
        value: s.best,
        starts,
        nodes: visited,
    })
}
