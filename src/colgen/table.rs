//! The 0-1 knapsack table's update by one item, shared by the pricing oracles that solve
//! knapsacks by dynamic programming (`socbp`'s grid bound, the 1-D exact pricing).

/// One item of weight `w` and value `v` added to the 0-1 knapsack table `f` in place:
/// `f[r] ← max(f[r], f[r − w] + v)` with the old `f[r − w]`, and in `taken` (when given)
/// whether the item strictly improved `f[r]`. The cells are taken from the top in blocks of
/// at most `w`, whose sources all lie below the block, so each block is one pass over two
/// disjoint slices (vectorised; the grid bound's tables are most of the SOC pricing's time).
///
/// On x86-64 processors with AVX2 the same code runs compiled for AVX2 (four doubles a
/// step instead of the baseline's two), chosen at run time, so one binary serves every
/// machine and both paths give the same bits.
pub fn relax(f: &mut [f64], w: usize, v: f64, taken: Option<&mut [bool]>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the processor supports AVX-512F, checked on the line above.
        return unsafe { relax_avx512(f, w, v, taken) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor supports AVX2, checked on the line above.
        return unsafe { relax_avx2(f, w, v, taken) };
    }
    relax_body(f, w, v, taken)
}

/// [`relax`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn relax_avx2(f: &mut [f64], w: usize, v: f64, taken: Option<&mut [bool]>) {
    relax_body(f, w, v, taken)
}

/// [`relax`] compiled for AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn relax_avx512(f: &mut [f64], w: usize, v: f64, taken: Option<&mut [bool]>) {
    relax_body(f, w, v, taken)
}

#[inline(always)]
fn relax_body(f: &mut [f64], w: usize, v: f64, mut taken: Option<&mut [bool]>) {
    if w == 0 {
        if let Some(t) = taken {
            for (t, x) in t.iter_mut().zip(f.iter()) {
                *t = *x + v > *x;
            }
        }
        f.iter_mut().for_each(|x| *x += v);
        return;
    }
    let mut hi = f.len();
    while hi > w {
        let lo = (hi - w).max(w);
        let (src, dst) = f.split_at_mut(lo);
        let (src, dst) = (&src[lo - w..hi - w], &mut dst[..hi - lo]);
        if let Some(t) = taken.as_deref_mut() {
            for ((t, d), s) in t[lo..hi].iter_mut().zip(dst.iter()).zip(src) {
                *t = *s + v > *d;
            }
        }
        for (d, s) in dst.iter_mut().zip(src) {
            *d = d.max(*s + v);
        }
        hi = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The blocked in-place update equals the textbook loop, bit for bit.
    #[test]
    fn relax_equals_the_scalar_update() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let cells = rng.random_range(0..60);
            let mut f: Vec<f64> = (0..=cells)
                .map(|c| {
                    if c > 0 && c % 7 == 0 {
                        f64::NEG_INFINITY
                    } else {
                        rng.random_range(0.0..3.0)
                    }
                })
                .collect();
            let mut g = f.clone();
            let mut baseline = f.clone();
            let w = rng.random_range(0..=cells + 1);
            let v = rng.random_range(0.0..2.0);
            let mut taken = vec![false; cells + 1];
            relax(&mut f, w, v, Some(&mut taken));
            let mut baseline_taken = vec![false; cells + 1];
            relax_body(&mut baseline, w, v, Some(&mut baseline_taken));
            let bits = |x: &[f64]| x.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&f), bits(&baseline), "dispatched vs baseline");
            assert_eq!(taken, baseline_taken);
            let mut h = f.clone();
            relax(&mut h, 0, 0.0, None);
            let mut tg = vec![false; cells + 1];
            for r in (w..=cells).rev() {
                let with = g[r - w] + v;
                if with > g[r] {
                    g[r] = with;
                    tg[r] = true;
                }
            }
            assert_eq!(f, g, "w {w}, cells {cells}");
            assert_eq!(taken, tg, "w {w}, cells {cells}");
            assert_eq!(h, f);
        }
    }
}
