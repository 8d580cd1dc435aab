//! Timing helpers shared by the benches that print medians (harness = false).
#![allow(dead_code)]

use std::time::Instant;

/// The median (upper middle) of `v`.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `f` `reps` times: (median, min, max) seconds.
pub fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, f64, f64) {
    let v: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64()
        })
        .collect();
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(0.0, f64::max);
    (median(v), lo, hi)
}
