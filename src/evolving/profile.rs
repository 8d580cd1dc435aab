//! Evolution profiles (§3.1) and the reservation profile the fit runs against.
//!
//! Every interval in this module is half-open, `[t0, t1)`: a step of duration `d` started at
//! `s` holds its nodes over `[s, s + d)`, and a step that ends at `t` frees them at `t`. All
//! times are integer seconds (`i64`), so every comparison is exact.

use serde::{Deserialize, Serialize};

/// One step of an evolution profile: `duration` seconds on `nodes` nodes (the paper's
/// `(d_k, n_k)`). Written `[duration, nodes]` in files, as in the instance format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "(i64, i64)", into = "(i64, i64)")]
pub struct Step {
    /// `d_k`, seconds (≥ 1 in a valid instance).
    pub duration: i64,
    /// `n_k`, nodes (1..=N in a valid instance).
    pub nodes: i64,
}

impl Step {
    /// A step of `duration` seconds on `nodes` nodes.
    pub fn new(duration: i64, nodes: i64) -> Self {
        Step { duration, nodes }
    }
}

impl From<(i64, i64)> for Step {
    fn from((duration, nodes): (i64, i64)) -> Self {
        Step { duration, nodes }
    }
}

impl From<Step> for (i64, i64) {
    fn from(s: Step) -> Self {
        (s.duration, s.nodes)
    }
}

/// An evolution profile `{(d_1, n_1), …, (d_K, n_K)}` read as a step function of time starting
/// at 0: `ep(t) = n_k` on the k-th step's interval, 0 before 0 and after the last step. The
/// paper uses the same object for requests, reservations and schedules (a delayed EP is one
/// whose first step holds 0 nodes), so node counts of 0 are allowed here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Ep {
    /// The steps in time order.
    pub steps: Vec<Step>,
}

impl Ep {
    /// The profile with these steps.
    pub fn new(steps: Vec<Step>) -> Self {
        Ep { steps }
    }

    /// `ep(t)`: right-continuous, so at a step boundary the later step's count holds.
    pub fn at(&self, t: i64) -> i64 {
        if t < 0 {
            return 0;
        }
        let mut start = 0i64;
        for s in &self.steps {
            if t < start + s.duration {
                return s.nodes;
            }
            start += s.duration;
        }
        0
    }

    /// Total duration `Σ d_k`.
    pub fn duration(&self) -> i64 {
        self.steps.iter().map(|s| s.duration).sum()
    }

    /// `max(ep, t0, t1)` over `[t0, t1)`; 0 when the interval is empty, as in the paper.
    pub fn max(&self, t0: i64, t1: i64) -> i64 {
        self.to_profile().max_loc(t0, t1).0
    }

    /// `loc(ep, t0, t1)`: the end of the last segment of `[t0, t1)` reaching the maximum,
    /// clipped to `t1` (the paper's "restricted to the interval"); `t1` if the interval is empty.
    pub fn loc(&self, t0: i64, t1: i64) -> i64 {
        self.to_profile().max_loc(t0, t1).1
    }

    /// `delay(ep, t0)`: the same profile started `t0 ≥ 0` later (a leading step of 0 nodes).
    pub fn delay(&self, t0: i64) -> Ep {
        let mut steps = Vec::with_capacity(self.steps.len() + 1);
        if t0 > 0 {
            steps.push(Step::new(t0, 0));
        }
        steps.extend_from_slice(&self.steps);
        Ep { steps }
    }

    /// `ep_1 + ep_2`, pointwise, as an EP again (one step per constant piece).
    pub fn sum(&self, other: &Ep) -> Ep {
        let mut p = self.to_profile();
        p.add_profile(&other.to_profile());
        p.to_ep()
    }

    /// The same function as a [`Profile`] (breakpoints), the form the fit searches.
    pub fn to_profile(&self) -> Profile {
        let mut p = Profile::new();
        self.add_to(&mut p, 0);
        p
    }

    /// Adds this profile, started at `start`, to `p`.
    pub fn add_to(&self, p: &mut Profile, start: i64) {
        let mut t = start;
        for s in &self.steps {
            p.add(t, t + s.duration, s.nodes);
            t += s.duration;
        }
    }
}

/// A step function of time held as breakpoints: `values[j]` holds on `[times[j], times[j+1])`,
/// 0 before `times[0]`, and the last value (always 0) holds to +∞. This is the reservation EP
/// `ep_r` of Algorithm 1; `max`/`loc` cost a binary search plus the segments they cover, an
/// insertion costs at most two `Vec` inserts, which is ample for a few hundred breakpoints.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Profile {
    times: Vec<i64>,
    values: Vec<i64>,
}

impl Profile {
    /// The empty reservation (0 everywhere).
    pub fn new() -> Self {
        Profile::default()
    }

    /// Number of breakpoints (a measure of the work `max`/`loc` do).
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether the profile is 0 everywhere with no breakpoints.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The breakpoints and the value from each on, in time order.
    pub fn segments(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.times.iter().copied().zip(self.values.iter().copied())
    }

    /// Index of the segment containing `t`, `None` before the first breakpoint.
    fn segment_of(&self, t: i64) -> Option<usize> {
        self.times.partition_point(|&x| x <= t).checked_sub(1)
    }

    /// The value at `t`.
    pub fn at(&self, t: i64) -> i64 {
        self.segment_of(t).map_or(0, |j| self.values[j])
    }

    /// The last time the profile changes (0 everywhere from there on); `i64::MIN` if empty.
    pub fn horizon(&self) -> i64 {
        self.times.last().copied().unwrap_or(i64::MIN)
    }

    /// `(max, loc)` over `[t0, t1)`: the maximum, and the end of the last segment reaching it
    /// clipped to `t1`. An empty interval gives `(0, t1)`. Whenever the maximum is positive,
    /// `loc > t0`, which is what makes every jump of the fit move forward.
    pub fn max_loc(&self, t0: i64, t1: i64) -> (i64, i64) {
        if t0 >= t1 {
            return (0, t1);
        }
        let (mut best, mut loc) = (i64::MIN, t1);
        let mut j = match self.segment_of(t0) {
            Some(j) => j,
            None => {
                // Before the first breakpoint the value is 0.
                let end = self.times.first().copied().unwrap_or(t1).min(t1);
                best = 0;
                loc = end;
                if end >= t1 {
                    return (best, loc);
                }
                0
            }
        };
        while j < self.times.len() && self.times[j] < t1 {
            let v = self.values[j];
            if v >= best {
                best = v;
                loc = self.times.get(j + 1).map_or(t1, |&e| e.min(t1));
            }
            j += 1;
        }
        (best, loc)
    }

    /// Ensures a breakpoint at `t` and returns its index.
    fn split(&mut self, t: i64) -> usize {
        let k = self.times.partition_point(|&x| x < t);
        if k < self.times.len() && self.times[k] == t {
            return k;
        }
        let v = if k == 0 { 0 } else { self.values[k - 1] };
        self.times.insert(k, t);
        self.values.insert(k, v);
        k
    }

    /// Adds `n` over `[t0, t1)` (nothing if the interval is empty).
    pub fn add(&mut self, t0: i64, t1: i64, n: i64) {
        if t0 >= t1 || n == 0 {
            return;
        }
        let a = self.split(t0);
        let b = self.split(t1);
        for v in &mut self.values[a..b] {
            *v += n;
        }
    }

    /// Pointwise sum with another profile.
    pub fn add_profile(&mut self, other: &Profile) {
        let segs: Vec<(i64, i64)> = other.segments().collect();
        for w in segs.windows(2) {
            self.add(w[0].0, w[1].0, w[0].1);
        }
    }

    /// The profile mirrored about `c` and cut at 0: `m(u) = p(c − 1 − u)` for `u ≥ 0`, so a
    /// segment `[a, b)` becomes `[c − b, c − a)`. Compacting fits the reversed app against it.
    pub fn mirrored(&self, c: i64) -> Profile {
        let mut m = Profile::new();
        let segs: Vec<(i64, i64)> = self.segments().collect();
        for w in segs.windows(2).rev() {
            let (a, b, v) = (w[0].0, w[1].0.min(c), w[0].1);
            if a < b && v != 0 {
                m.add(c - b, c - a, v);
            }
        }
        m
    }

    /// The same function as an EP from time 0 (values before 0 are dropped).
    pub fn to_ep(&self) -> Ep {
        let mut steps = Vec::new();
        let mut t = 0i64;
        let segs: Vec<(i64, i64)> = self.segments().collect();
        for w in segs.windows(2) {
            let (a, b) = (w[0].0.max(0), w[1].0.max(0));
            if b > a {
                if a > t {
                    steps.push(Step::new(a - t, 0));
                }
                steps.push(Step::new(b - a, w[0].1));
                t = b;
            }
        }
        Ep { steps }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_ep(rng: &mut ChaCha8Rng) -> Ep {
        let k = rng.random_range(0..6);
        Ep::new(
            (0..k)
                .map(|_| Step::new(rng.random_range(1..5), rng.random_range(0..5)))
                .collect(),
        )
    }

    /// The helpers against their pointwise definitions, by enumeration of integer times.
    #[test]
    fn helpers_match_pointwise_definitions() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..500 {
            let (a, b) = (random_ep(&mut rng), random_ep(&mut rng));
            let t0 = rng.random_range(-2..20);
            let t1 = t0 + rng.random_range(0..12);
            let naive_max = (t0..t1).map(|t| a.at(t)).max().unwrap_or(0);
            assert_eq!(a.max(t0, t1), naive_max);
            if t1 > t0 {
                // loc: max over [t0, loc) is the max, max over [loc, t1) is smaller.
                let l = a.loc(t0, t1);
                assert!(l > t0 && l <= t1);
                assert_eq!((t0..l).map(|t| a.at(t)).max().unwrap(), naive_max);
                assert!((l..t1).all(|t| a.at(t) < naive_max));
            }
            let s = a.sum(&b);
            let d = rng.random_range(0..5);
            let dl = a.delay(d);
            for t in -2..40 {
                assert_eq!(s.at(t), a.at(t) + b.at(t));
                assert_eq!(dl.at(t), if t < d { 0 } else { a.at(t - d) });
            }
        }
    }

    #[test]
    fn mirror_reflects_about_c() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for _ in 0..300 {
            let p = random_ep(&mut rng).to_profile();
            let c = rng.random_range(0..25);
            let m = p.mirrored(c);
            for u in -3..40 {
                let want = if u < 0 { 0 } else { p.at(c - 1 - u) };
                assert_eq!(m.at(u), want, "u={u} c={c}");
            }
        }
    }
}
