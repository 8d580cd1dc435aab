//! The 0-1 knapsack table's update by one item, shared by the pricing oracles that solve
//! knapsacks by dynamic programming (`socbp`'s grid bound, the 1-D exact pricing).

/// Per item and per cell of a knapsack table, one bit: whether the item strictly improved
/// the cell ([`relax`]). One row of 64-bit words per item; a fresh table is all zeros.
/// A bit a cell instead of a byte: the 1-D exact pricing keeps `items × (capacity + 1)` of
/// them (600 items × 20,001 cells on BPPLIB AI 600), and writing bytes made the dynamic
/// programme 1.6× slower than the same programme without them (3.2 against 2.0 ms a pricing
/// with bits; 1.4 ms with none).
#[derive(Debug, Clone, Default)]
pub struct Taken {
    words: usize,
    bits: Vec<u64>,
}

impl Taken {
    /// `items` rows of `cells` bits, all clear.
    pub fn new(items: usize, cells: usize) -> Taken {
        let mut t = Taken::default();
        t.reset(items, cells);
        t
    }

    /// Cleared and resized to `items` rows of `cells` bits (the storage is reused).
    pub fn reset(&mut self, items: usize, cells: usize) {
        self.words = cells.div_ceil(64);
        self.bits.clear();
        self.bits.resize(items * self.words, 0);
    }

    /// Item `k`'s row, for [`relax`].
    pub fn row(&mut self, k: usize) -> &mut [u64] {
        &mut self.bits[k * self.words..(k + 1) * self.words]
    }

    /// Whether item `k` improved cell `r`.
    pub fn get(&self, k: usize, r: usize) -> bool {
        self.bits[k * self.words + r / 64] >> (r % 64) & 1 == 1
    }
}

/// One item of weight `w` and value `v` added to the 0-1 knapsack table `f` in place:
/// `f[r] ← max(f[r], f[r − w] + v)` with the old `f[r − w]`, and, when `taken` (a row of
/// [`Taken`], at least `⌈f.len() / 64⌉` words) is given, the bit of every cell the item
/// strictly improved set (the other bits are left as they are). The cells are taken from the
/// top in blocks of at most `w`, whose sources all lie below the block, so each block is one
/// pass over two disjoint slices (vectorised; the grid bound's tables are most of the SOC
/// pricing's time, the 1-D exact pricing's most of an AI/ANI root's).
///
/// On x86-64 processors with AVX-512F or AVX2 the update runs compiled for them (eight or
/// four doubles a vector instead of the baseline's two), chosen at run time, so one binary
/// serves every machine; every path gives the same bits (tested). Four vectors a step, their
/// masks put into the bit row at once: on an AVX2-only AMD EPYC the BPPLIB AI/ANI 600 roots
/// took 9% less time than with one vector a step (docs/results.md).
pub fn relax(f: &mut [f64], w: usize, v: f64, taken: Option<&mut [u64]>) {
    if let Some(t) = &taken {
        assert!(t.len() * 64 >= f.len(), "a taken row too short");
    }
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
    relax_scalar(f, w, v, taken)
}

/// The blocks of [`relax`]: `(lo, hi)` from the top, each cell's source `w` below it and
/// below the block.
#[inline(always)]
fn blocks(len: usize, w: usize) -> impl Iterator<Item = (usize, usize)> {
    let mut hi = len;
    std::iter::from_fn(move || {
        (w > 0 && hi > w).then(|| {
            let lo = (hi - w).max(w);
            let block = (lo, hi);
            hi = lo;
            block
        })
    })
}

/// The update of cell `r` (its source `r − w`), setting its bit when it improves.
#[inline(always)]
fn relax_cell(f: &mut [f64], r: usize, w: usize, v: f64, taken: &mut Option<&mut [u64]>) {
    let with = f[r - w] + v;
    if with > f[r] {
        f[r] = with;
        if let Some(t) = taken.as_deref_mut() {
            t[r / 64] |= 1 << (r % 64);
        }
    }
}

/// `w = 0`: every cell gains `v` (a bit where that is an increase).
#[inline(always)]
fn relax_weightless(f: &mut [f64], v: f64, mut taken: Option<&mut [u64]>) {
    for r in 0..f.len() {
        if f[r] + v > f[r] {
            if let Some(t) = taken.as_deref_mut() {
                t[r / 64] |= 1 << (r % 64);
            }
        }
        f[r] += v;
    }
}

/// [`relax`] without SIMD intrinsics (autovectorised when no bit is wanted).
#[inline(always)]
fn relax_scalar(f: &mut [f64], w: usize, v: f64, mut taken: Option<&mut [u64]>) {
    if w == 0 {
        return relax_weightless(f, v, taken);
    }
    for (lo, hi) in blocks(f.len(), w) {
        if taken.is_some() {
            for r in lo..hi {
                relax_cell(f, r, w, v, &mut taken);
            }
        } else {
            let (src, dst) = f.split_at_mut(lo);
            for (d, s) in dst[..hi - lo].iter_mut().zip(&src[lo - w..hi - w]) {
                *d = d.max(*s + v);
            }
        }
    }
}

/// ORs the mask `m` of the `lanes` cells from `pos` into the bit row `t`.
#[inline(always)]
fn put_mask(t: &mut [u64], pos: usize, m: u64, lanes: usize) {
    if m != 0 {
        let (word, shift) = (pos / 64, pos % 64);
        t[word] |= m << shift;
        if shift + lanes > 64 {
            t[word + 1] |= m >> (64 - shift);
        }
    }
}

/// The flagged update with SIMD intrinsics, four vectors of `$lanes` cells a step, then one
/// vector a step: the function `$name` compiled for `$feature`, loading, adding, comparing
/// (the mask of cells improved, ORed into the bit row) and storing the maximum; the cells
/// past the last full step one by one.
/// Without flags it is [`relax_scalar`], inlined here so that it is vectorised for the feature.
macro_rules! relax_simd {
    ($(#[$doc:meta])* $name:ident, $feature:literal, $lanes:literal,
     $set1:ident, $load:ident, $add:ident, $max:ident, $store:ident, $mask:expr) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        fn $name(f: &mut [f64], w: usize, v: f64, taken: Option<&mut [u64]>) {
            use std::arch::x86_64::*;
            let Some(t) = taken else {
                return relax_scalar(f, w, v, None);
            };
            if w == 0 {
                return relax_weightless(f, v, Some(t));
            }
            let vv = $set1(v);
            for (lo, hi) in blocks(f.len(), w) {
                let mut r = lo;
                // Four vectors a step, their masks put into the bit row at once.
                while r + 4 * $lanes <= hi {
                    // SAFETY: as below, for the four vectors from `r` (all below `hi`).
                    unsafe {
                        let p = f.as_mut_ptr();
                        let mut m: u64 = 0;
                        for q in 0..4 {
                            let at = r + q * $lanes;
                            let s = $add($load(p.add(at - w)), vv);
                            let d = $load(p.add(at));
                            m |= ($mask(s, d)) << (q * $lanes);
                            $store(p.add(at), $max(s, d));
                        }
                        put_mask(t, r, m, 4 * $lanes);
                    }
                    r += 4 * $lanes;
                }
                while r + $lanes <= hi {
                    // SAFETY: `r + lanes − 1 < hi ≤ f.len()` and `r − w ≥ 0` (r ≥ lo ≥ w); the
                    // source and the destination lanes do not overlap (the source block ends
                    // at `hi − w ≤ lo`).
                    unsafe {
                        let p = f.as_mut_ptr();
                        let s = $add($load(p.add(r - w)), vv);
                        let d = $load(p.add(r));
                        let m: u64 = $mask(s, d);
                        $store(p.add(r), $max(s, d));
                        put_mask(t, r, m, $lanes);
                    }
                    r += $lanes;
                }
                let mut rest = Some(&mut *t);
                for r in r..hi {
                    relax_cell(f, r, w, v, &mut rest);
                }
            }
        }
    };
}

relax_simd!(
    /// [`relax`] compiled for AVX2, four cells a step.
    relax_avx2, "avx2", 4,
    _mm256_set1_pd, _mm256_loadu_pd, _mm256_add_pd, _mm256_max_pd, _mm256_storeu_pd,
    |s, d| _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(s, d)) as u64
);

relax_simd!(
    /// [`relax`] compiled for AVX-512F, eight cells a step.
    relax_avx512, "avx512f", 8,
    _mm512_set1_pd, _mm512_loadu_pd, _mm512_add_pd, _mm512_max_pd, _mm512_storeu_pd,
    |s, d| u64::from(_mm512_cmp_pd_mask::<_CMP_GT_OQ>(s, d))
);

/// The suffix table of a 0-1 knapsack over items in a fixed order: `best(k, r)` = the best
/// value of items `k..` (negative values as 0) within capacity `r`, for `k ≤ n`. The exact
/// searches that branch on a few items first (those in cuts, or in conflicts) bound every node
/// by it, and once those are decided read the rest back from it ([`SuffixTable::fill`]): it is
/// exact for the items left, an upper bound once penalties or conflicts apply to them.
pub struct SuffixTable {
    weights: Vec<u64>,
    values: Vec<f64>,
    width: usize,
    g: Vec<f64>,
}

impl SuffixTable {
    /// The table of items with `weights` and `values`, in that order, up to capacity `cap`.
    pub fn new(weights: Vec<u64>, values: Vec<f64>, cap: usize) -> SuffixTable {
        let n = weights.len();
        let width = cap + 1;
        let mut g = vec![0.0f64; (n + 1) * width];
        for k in (0..n).rev() {
            let (w, v) = (weights[k] as usize, values[k].max(0.0));
            let (head, tail) = g.split_at_mut((k + 1) * width);
            let (row, next) = (&mut head[k * width..], &tail[..width]);
            for r in 0..width {
                row[r] = if w <= r {
                    next[r].max(v + next[r - w])
                } else {
                    next[r]
                };
            }
        }
        SuffixTable {
            weights,
            values,
            width,
            g,
        }
    }

    /// The largest capacity it holds.
    pub fn cap(&self) -> usize {
        self.width - 1
    }

    /// The best value of items `k..` within capacity `r`.
    pub fn best(&self, k: usize, r: usize) -> f64 {
        self.g[k * self.width + r]
    }

    /// The positions of items `k..` of one bin worth [`SuffixTable::best`]`(k, r)`.
    pub fn fill(&self, k: usize, mut r: usize) -> Vec<usize> {
        let mut taken = Vec::new();
        for j in k..self.weights.len() {
            let w = self.weights[j] as usize;
            if w <= r && self.best(j, r) == self.values[j].max(0.0) + self.best(j + 1, r - w) {
                taken.push(j);
                r -= w;
            }
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The textbook update: every cell from the top, each bit where the item improves it.
    fn textbook(f: &mut [f64], w: usize, v: f64, t: &mut [bool]) {
        for r in (w..f.len()).rev() {
            let with = f[r - w] + v;
            if with > f[r] {
                f[r] = with;
                t[r] = true;
            }
        }
    }

    /// Every path (dispatched, AVX-512, AVX2, scalar; with and without bits) equals the
    /// textbook loop, bit for bit, on tables long enough for the vector steps and with
    /// blocks crossing the words of the bit rows.
    #[test]
    fn relax_equals_the_textbook_update() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        type Path = fn(&mut [f64], usize, f64, Option<&mut [u64]>);
        let mut paths: Vec<(&str, Path)> = vec![("dispatched", relax), ("scalar", relax_scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                paths.push(("avx512", |f, w, v, t| unsafe { relax_avx512(f, w, v, t) }));
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                paths.push(("avx2", |f, w, v, t| unsafe { relax_avx2(f, w, v, t) }));
            }
        }
        for case in 0..600 {
            let cells = if case % 2 == 0 {
                rng.random_range(0..60)
            } else {
                rng.random_range(60..400)
            };
            let f0: Vec<f64> = (0..=cells)
                .map(|c| {
                    if c > 0 && c % 7 == 0 {
                        f64::NEG_INFINITY
                    } else {
                        rng.random_range(0.0..3.0)
                    }
                })
                .collect();
            let w = if case % 5 == 0 {
                0
            } else {
                rng.random_range(0..=cells + 1)
            };
            let v = rng.random_range(0.0..2.0);
            let mut g = f0.clone();
            let mut tg = vec![false; cells + 1];
            if w == 0 {
                for (x, t) in g.iter_mut().zip(tg.iter_mut()) {
                    *t = *x + v > *x;
                    *x += v;
                }
            } else {
                textbook(&mut g, w, v, &mut tg);
            }
            let bits = |x: &[f64]| x.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
            for (name, path) in &paths {
                let mut f = f0.clone();
                let mut taken = Taken::new(2, cells + 1);
                path(&mut f, w, v, Some(taken.row(1)));
                assert_eq!(bits(&f), bits(&g), "{name}: w {w}, cells {cells}");
                let t: Vec<bool> = (0..=cells).map(|r| taken.get(1, r)).collect();
                assert_eq!(t, tg, "{name}: w {w}, cells {cells}");
                assert!(
                    (0..=cells).all(|r| !taken.get(0, r)),
                    "{name}: row 0 touched"
                );
                let mut h = f0.clone();
                path(&mut h, w, v, None);
                assert_eq!(bits(&h), bits(&g), "{name} without bits: w {w}");
            }
        }
    }

    #[test]
    fn suffix_table_is_the_best_value_of_every_suffix_by_enumeration() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..200 {
            let n = rng.random_range(0..=8usize);
            let cap = rng.random_range(0..=30usize);
            let w: Vec<u64> = (0..n).map(|_| rng.random_range(1..=20u64)).collect();
            let v: Vec<f64> = (0..n).map(|_| rng.random_range(-0.2..1.0)).collect();
            let g = SuffixTable::new(w.clone(), v.clone(), cap);
            for k in 0..=n {
                for r in 0..=cap {
                    let mut best = 0.0f64;
                    for mask in 0u32..(1 << (n - k)) {
                        let items = (0..n - k).filter(|b| mask >> b & 1 == 1).map(|b| k + b);
                        let (ww, vv) =
                            items.fold((0, 0.0), |(a, b), i| (a + w[i], b + v[i].max(0.0)));
                        if ww as usize <= r {
                            best = best.max(vv);
                        }
                    }
                    assert!(
                        (g.best(k, r) - best).abs() < 1e-12,
                        "case {case}: k {k} r {r}"
                    );
                    let fill = g.fill(k, r);
                    let weight: u64 = fill.iter().map(|&j| w[j]).sum();
                    let value: f64 = fill.iter().map(|&j| v[j].max(0.0)).sum();
                    assert!(
                        weight as usize <= r && fill.iter().all(|&j| j >= k),
                        "case {case}"
                    );
                    assert!(
                        (value - best).abs() < 1e-12,
                        "case {case}: fill {value} vs {best}"
                    );
                }
            }
        }
    }
}
