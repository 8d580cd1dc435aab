//! The normal distribution functions the cloud generator needs ([`super::generate`]): the
//! inverse of its CDF and the moments of a truncated normal.

/// Mean, standard deviation and root mean square of `N(loc, scale²)` truncated to `[lo, hi]`
/// (`lo < hi`, `scale > 0`), by composite Simpson quadrature of the density on 4,096 panels
/// (the density is smooth and, on the generator's ranges, at most 10 scales wide: the error
/// is far below 1e-12). No `erf` is needed, and tails far from `loc` lose nothing to
/// cancellation: the weights are taken relative to the density's largest value on `[lo, hi]`.
pub fn truncated_normal(loc: f64, scale: f64, lo: f64, hi: f64) -> (f64, f64, f64) {
    const PANELS: usize = 4096;
    let h = (hi - lo) / PANELS as f64;
    let peak = loc.clamp(lo, hi) - loc;
    let points: Vec<(f64, f64)> = (0..=PANELS)
        .map(|k| {
            let x = lo + h * k as f64;
            let simpson = if k == 0 || k == PANELS {
                1.0
            } else if k % 2 == 1 {
                4.0
            } else {
                2.0
            };
            let z2 = (x - loc).powi(2) - peak * peak;
            (x, simpson * (-z2 / (2.0 * scale * scale)).exp())
        })
        .collect();
    let mass: f64 = points.iter().map(|&(_, w)| w).sum();
    let mean = points.iter().map(|&(x, w)| w * x).sum::<f64>() / mass;
    let var = points
        .iter()
        .map(|&(x, w)| w * (x - mean).powi(2))
        .sum::<f64>()
        / mass;
    let square = points.iter().map(|&(x, w)| w * x * x).sum::<f64>() / mass;
    (mean, var.sqrt(), square.sqrt())
}

/// `Φ⁻¹(p)`, the standard normal quantile, for `p ∈ (0, 1)` (±∞ at 0 and 1): Wichura's
/// algorithm AS241 (PPND16, Applied Statistics 37, 1988), relative error about 1e-16.
#[allow(clippy::excessive_precision)]
pub fn inverse_normal_cdf(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180625 - q * q;
        let num = ((((((2.5090809287301226727e3 * r + 3.3430575583588128105e4) * r
            + 6.7265770927008700853e4)
            * r
            + 4.5921953931549871457e4)
            * r
            + 1.3731693765509461125e4)
            * r
            + 1.9715909503065514427e3)
            * r
            + 1.3314166789178437745e2)
            * r
            + 3.3871328727963666080e0;
        let den = ((((((5.2264952788528545610e3 * r + 2.8729085735721942674e4) * r
            + 3.9307895800092710610e4)
            * r
            + 2.1213794301586595867e4)
            * r
            + 5.3941960214247511077e3)
            * r
            + 6.8718700749205790830e2)
            * r
            + 4.2313330701600911252e1)
            * r
            + 1.0;
        return q * num / den;
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let mut r = (-tail.ln()).sqrt();
    let (num, den) = if r <= 5.0 {
        r -= 1.6;
        (
            ((((((7.7454501427834140764e-4 * r + 2.2723844989269184583e-2) * r
                + 2.4178072517745061177e-1)
                * r
                + 1.2704582524523683826e0)
                * r
                + 3.6478483247632046050e0)
                * r
                + 5.7694972214606914055e0)
                * r
                + 4.6303378461565452959e0)
                * r
                + 1.4234371107496835773e0,
            ((((((1.0507500716444168432e-9 * r + 5.4759380849953449460e-4) * r
                + 1.5198666563616457197e-2)
                * r
                + 1.4810397642748007459e-1)
                * r
                + 6.8976733498510000455e-1)
                * r
                + 1.6763848301838038494e0)
                * r
                + 2.0531916266377588219e0)
                * r
                + 1.0,
        )
    } else {
        r -= 5.0;
        (
            ((((((2.0103343992922881327e-7 * r + 2.7115555687434875782e-5) * r
                + 1.2426609473880784386e-3)
                * r
                + 2.6532189526576123093e-2)
                * r
                + 2.9656057182850489123e-1)
                * r
                + 1.7848265399172913358e0)
                * r
                + 5.4637849111641143699e0)
                * r
                + 6.6579046435011037772e0,
            ((((((2.0442631033899397856e-15 * r + 1.4215117583164458887e-7) * r
                + 1.8463183175100546818e-5)
                * r
                + 7.8686913114561325910e-4)
                * r
                + 1.4875361290850614853e-2)
                * r
                + 1.3692988092273580531e-1)
                * r
                + 5.9983220655588793769e-1)
                * r
                + 1.0,
        )
    };
    let x = num / den;
    if q < 0.0 {
        -x
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() <= tol * y.abs().max(1.0)
    }

    #[test]
    fn inverse_normal_cdf_known_values() {
        // Reference values: the brief's, then Python's statistics.NormalDist().inv_cdf.
        for (p, x) in [
            (0.975, 1.959963984540054),
            (0.9, 1.2815515655446004),
            (0.99, 2.3263478740408408),
            (0.6, 0.2533471031357998),
            (0.7, 0.5244005127080407),
            (0.8, 0.8416212335729144),
            (0.95, 1.6448536269514715),
            (0.02425, -1.9729610513118845),
            (0.999999, 4.753424308817089),
            (1e-10, -6.361340902404056),
        ] {
            let got = inverse_normal_cdf(p);
            assert!(close(got, x, 1e-14), "Φ⁻¹({p}) = {got}, not {x}");
            // 1 − p is rounded: a tail of 1e-10 keeps about 7 digits.
            assert!(
                close(inverse_normal_cdf(1.0 - p), -x, 1e-6),
                "symmetry at {p}"
            );
        }
        assert_eq!(inverse_normal_cdf(0.5), 0.0);
        assert_eq!(inverse_normal_cdf(0.0), f64::NEG_INFINITY);
        assert_eq!(inverse_normal_cdf(1.0), f64::INFINITY);
    }

    #[test]
    fn truncated_normal_matches_closed_forms() {
        // Closed-form mean and sd (Python, math.erfc) for (loc, scale, lo, hi).
        for ((loc, scale, lo, hi), mean, sd) in [
            (
                (0.3, 0.2, 0.45, 0.85),
                0.5611643351702129,
                0.08783519726797853,
            ),
            (
                (0.1, 0.1, 0.6, 0.7),
                0.6183147090477162,
                0.017161710511643963,
            ),
            ((0.5, 0.5, 0.3, 1.0), 0.6271215137461383, 0.1947660119606376),
            (
                (0.2, 0.3, 0.35, 0.95),
                0.5319611478507801,
                0.13841953317867553,
            ),
        ] {
            let (m, s, rms) = truncated_normal(loc, scale, lo, hi);
            assert!(close(m, mean, 1e-11), "{loc} {scale} {lo} {hi}: mean {m}");
            assert!(close(s, sd, 1e-9), "{loc} {scale} {lo} {hi}: sd {s}");
            assert!(close(rms * rms, s * s + m * m, 1e-12));
        }
        // Symmetric around loc: mean loc. Half-normal (10 scales wide): σ√(2/π), σ√(1 − 2/π).
        let (m, _, _) = truncated_normal(0.5, 0.2, 0.3, 0.7);
        assert!(close(m, 0.5, 1e-14));
        let (m, s, _) = truncated_normal(0.0, 0.1, 0.0, 1.0);
        let pi = std::f64::consts::PI;
        assert!(close(m, 0.1 * (2.0 / pi).sqrt(), 1e-12), "{m}");
        assert!(close(s, 0.1 * (1.0 - 2.0 / pi).sqrt(), 1e-12), "{s}");
    }
}
