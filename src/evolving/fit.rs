//! Algorithm 2 (the base `fit`, corrected as in issue 19) and the compacting post-pass (§4.2).
//!
//! A fit places one app's steps against the reservation profile so that the sum never exceeds
//! `N`, the first step only delayed and each middle step stretched to at most `l` times its
//! duration (C1). It returns the step starts `s_1 < … < s_K`; step `k` holds its nodes over
//! `[s_k, s_{k+1})` and the last step lasts exactly `d_K`.

use super::profile::{Profile, Step};
use serde::{Deserialize, Serialize};

/// The expand limit `l` of §4.2: how many times a middle step may be stretched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpandLimit {
    /// A step may last at most `l·d` (`l ≥ 1`; 1 is noX, 2 is 2X).
    Finite(u32),
    /// No limit (infX).
    Infinite,
}

impl ExpandLimit {
    /// The longest span step `d` may be stretched to, `None` for no limit (saturating: an
    /// enormous `l·d` is as good as no limit).
    pub fn max_span(self, d: i64) -> Option<i64> {
        match self {
            ExpandLimit::Finite(l) => Some(d.saturating_mul(i64::from(l))),
            ExpandLimit::Infinite => None,
        }
    }
    /// `l = 1`.
    pub const NONE: ExpandLimit = ExpandLimit::Finite(1);
}

impl std::fmt::Display for ExpandLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandLimit::Finite(l) => write!(f, "{l}"),
            ExpandLimit::Infinite => f.write_str("∞"),
        }
    }
}

/// What one fit did, for the experiment's statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FitStats {
    /// Passes through the loop of Algorithm 2 (all levels).
    pub iterations: u64,
}

/// Algorithm 2 with the two corrections (line 17 reads `i > 1`; failure is its own
/// result), written as a loop over an explicit stack of levels so that an app with very many
/// steps cannot overflow the call stack. Level `i` keeps `t[i]`, its current candidate start,
/// and `t0[i]`, the bound it was entered with (`s_{i−1} + d_{i−1}`). A failure at level `i`
/// becomes level `i − 1`'s next candidate (the recursion's `Err(t_retry)`).
///
/// Returns the step starts (the first step delayed to end where the second starts) and the
/// completion time is `starts[K−1] + d_K`. Steps must be non-empty with `1 ≤ n ≤ cap` so that
/// the loop terminates (the profile is 0 after its horizon).
pub fn fit(
    steps: &[Step],
    res: &Profile,
    cap: i64,
    limit: ExpandLimit,
    earliest: i64,
    stats: &mut FitStats,
) -> Vec<i64> {
    let k = steps.len();
    let mut t = vec![0i64; k];
    let mut t0 = vec![0i64; k];
    if k == 0 {
        return t;
    }
    t[0] = earliest;
    t0[0] = earliest;
    let mut i = 0usize;
    while i < k {
        stats.iterations += 1;
        let Step {
            duration: d,
            nodes: n,
        } = steps[i];
        let (m, loc) = res.max_loc(t[i], t[i] + d);
        if cap - m < n {
            t[i] = loc; // lines 6–7: jump past the last maximum in the way
            continue;
        }
        if i > 0 {
            let prev = steps[i - 1];
            if let Some(span) = limit.max_span(prev.duration) {
                // Lines 9–11: the earliest start of the previous step that keeps its span ≤ l·d.
                let t_eas = t[i].saturating_sub(span);
                if t_eas > t0[i] - prev.duration {
                    i -= 1;
                    t[i] = t_eas;
                    continue;
                }
            }
            // Lines 12–13: the previous step must also hold its nodes over [t0, t).
            let (m2, loc2) = res.max_loc(t0[i], t[i]);
            if cap - m2 < prev.nodes {
                i -= 1;
                t[i] = loc2;
                continue;
            }
        }
        i += 1;
        if i < k {
            t0[i] = t[i - 1] + d;
            t[i] = t0[i];
        }
    }
    // Lines 17–20: middle steps stretch to the next start; the first is delayed instead.
    if k > 1 {
        t[0] = t[1] - steps[0].duration;
    }
    t
}

/// Completion time of a schedule: the last start plus the last duration.
pub fn completion(steps: &[Step], starts: &[i64]) -> i64 {
    match (steps.last(), starts.last()) {
        (Some(s), Some(&t)) => t + s.duration,
        _ => 0,
    }
}

/// Compacting (§4.2, described only in words; our interpretation): fit the same app on the
/// time-mirrored problem — steps reversed, reservations mirrored about the completion time `C`
/// (`[a, b) ↦ [C − b, C − a)`), and time before 0 in the mirror (after `C` originally) out of
/// reach because the mirrored fit starts at 0. The mirrored earliest completion is the latest
/// original start, so the app is pushed right against `C` and its stretched spans shrink.
/// Accepted only if it keeps `C` (and starts at or after 0); otherwise `None` — a rejection the
/// caller counts (the argument in `models/evolving.md` says there should be none).
pub fn compact(
    steps: &[Step],
    starts: &[i64],
    res: &Profile,
    cap: i64,
    limit: ExpandLimit,
    stats: &mut FitStats,
) -> Option<Vec<i64>> {
    let k = steps.len();
    if k == 0 {
        return Some(Vec::new());
    }
    let c = completion(steps, starts);
    let mirror = res.mirrored(c);
    let reversed: Vec<Step> = steps.iter().rev().copied().collect();
    let u = fit(&reversed, &mirror, cap, limit, 0, stats);
    if u[0] != 0 {
        return None;
    }
    // Original step j spans [C − u[K−j], C − u[K−1−j]), with u[K] the mirrored completion.
    let u_end = u[k - 1] + steps[0].duration;
    let s: Vec<i64> = (0..k)
        .map(|j| c - if j == 0 { u_end } else { u[k - j] })
        .collect();
    if s[0] < 0 {
        return None;
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's §3.1 example: `ep_req = {(500, 5), (3600, 10)}` against a cluster whose
    /// 10 nodes are half taken until 2000 s must wait until the second step fits.
    #[test]
    fn two_step_example_delays_then_fits() {
        let mut res = Profile::new();
        res.add(0, 2000, 5);
        let steps = [Step::new(500, 5), Step::new(3600, 10)];
        let mut st = FitStats::default();
        let s = fit(&steps, &res, 10, ExpandLimit::Infinite, 0, &mut st);
        // Step 2 needs all 10 nodes, so it starts at 2000; step 1 is delayed to end there.
        assert_eq!(s, vec![1500, 2000]);
        let s1 = fit(&steps, &res, 10, ExpandLimit::NONE, 0, &mut st);
        assert_eq!(s1, vec![1500, 2000]);
    }

    /// A middle step that must stretch: step 3 needs the whole cluster until a reservation ends.
    #[test]
    fn middle_step_stretches_within_limit() {
        let mut res = Profile::new();
        res.add(20, 45, 1);
        let steps = [Step::new(10, 1), Step::new(10, 1), Step::new(10, 2)];
        let mut st = FitStats::default();
        // infX: steps 1 and 2 at 0 and 10, step 2 stretched until 45.
        let s = fit(&steps, &res, 2, ExpandLimit::Infinite, 0, &mut st);
        assert_eq!(s, vec![0, 10, 45]);
        // 2X: step 2 may last at most 20, so it starts at 25 and step 1 is delayed to 15.
        let s = fit(&steps, &res, 2, ExpandLimit::Finite(2), 0, &mut st);
        assert_eq!(s, vec![15, 25, 45]);
        // noX: contiguous, starting at 25.
        let s = fit(&steps, &res, 2, ExpandLimit::NONE, 0, &mut st);
        assert_eq!(s, vec![25, 35, 45]);
        let c = compact(
            &steps,
            &[0, 10, 45],
            &res,
            2,
            ExpandLimit::Infinite,
            &mut st,
        );
        assert_eq!(c, Some(vec![25, 35, 45]));
    }
}
