//! Dual smoothing of the column-generation loop ([`super::CgSettings::smoothing`],
//! `smoothing_auto`, `directional_smoothing`): the pricing point between the stability center
//! and the master's duals, and the subgradient that steers it (Pessoa, Sadykov, Uchoa,
//! Vanderbeck, INFORMS JoC 2018).

/// The self-adjusted smoothing weight (see [`CgSettings::smoothing_auto`]) after a pricing at
/// `at` that found `columns`; `pi_out` the master's duals, `center` the stability center,
/// `upper` an upper bound on the columns of an optimal LP solution (the master value).
pub(super) fn adjusted(
    alpha: f64,
    columns: &[(super::Column, f64)],
    at: &[f64],
    pi_out: &[f64],
    center: &[f64],
    demands: &[f64],
    upper: f64,
) -> f64 {
    let step: Vec<f64> = pi_out.iter().zip(center).map(|(o, c)| o - c).collect();
    if dot(&subgradient(columns, at, demands, upper), &step) > 0.0 {
        (alpha - 0.1).max(0.0)
    } else {
        (alpha + 0.1 * (1.0 - alpha)).min(0.99)
    }
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The subgradient `g = N − U·a*` of the Lagrangian function at `at`, `a*` the best of
/// `columns` there when it prices out (`π·a* > 1`), else `N`; `upper` bounds the columns of an
/// optimal LP solution (the master value).
pub(super) fn subgradient(
    columns: &[(super::Column, f64)],
    at: &[f64],
    demands: &[f64],
    upper: f64,
) -> Vec<f64> {
    let mut g = demands.to_vec();
    let value = |c: &super::Column| c.iter().map(|&(r, a)| a * at[r]).sum::<f64>();
    if let Some((v, col)) = columns
        .iter()
        .map(|(c, _)| (value(c), c))
        .max_by(|x, y| x.0.total_cmp(&y.0))
    {
        if v > 1.0 {
            for &(r, a) in col {
                g[r] -= upper * a;
            }
        }
    }
    g
}

/// The pricing point: Wentges's `α π_center + (1 − α) π_out`, turned towards the subgradient
/// `g` at the center when given (see [`CgSettings::directional_smoothing`]).
pub(super) fn separation_point(
    center: &[f64],
    out: &[f64],
    alpha: f64,
    g: Option<&[f64]>,
) -> Vec<f64> {
    let wentges = || {
        center
            .iter()
            .zip(out)
            .map(|(c, p)| alpha * c + (1.0 - alpha) * p)
            .collect::<Vec<f64>>()
    };
    let Some(g) = g else {
        return wentges();
    };
    let d: Vec<f64> = out.iter().zip(center).map(|(o, c)| o - c).collect();
    let (nd, ng) = (dot(&d, &d).sqrt(), dot(g, g).sqrt());
    if !(nd > 0.0 && ng > 0.0) {
        return wentges();
    }
    let beta = (dot(&d, g) / (nd * ng)).max(0.0);
    if beta <= 0.0 {
        return wentges();
    }
    // ρ − π_center = β (‖d‖/‖g‖) g + (1 − β) d.
    let r: Vec<f64> = d
        .iter()
        .zip(g)
        .map(|(di, gi)| beta * nd / ng * gi + (1.0 - beta) * di)
        .collect();
    let nr = dot(&r, &r).sqrt();
    if nr.is_nan() || nr <= 0.0 {
        return wentges();
    }
    let step = (1.0 - alpha) * nd / nr;
    center
        .iter()
        .zip(&r)
        .map(|(c, ri)| (c + step * ri).max(0.0))
        .collect()
}

/// The smoothing weight of the `k`-th extra pricing point of an iteration priced at weight
/// `alpha` (see `CgSettings::extra_points`): `1 − (1 − α)/2^l` for even `k` and
/// `max(0, 1 − (1 − α)·2^l)` for odd `k`, with `l = ⌊k/2⌋ + 1`.
pub(super) fn extra_weight(alpha: f64, k: usize) -> f64 {
    let scale = f64::from(1u32 << (k / 2 + 1).min(20));
    if k.is_multiple_of(2) {
        1.0 - (1.0 - alpha) / scale
    } else {
        (1.0 - (1.0 - alpha) * scale).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::{extra_weight, separation_point};

    /// The extra points lie on the segment, nearer the center (even `k`, each nearer than the
    /// last) or farther from it (odd `k`, each farther, never past the master's duals).
    #[test]
    fn extra_points_alternate_nearer_and_farther() {
        for alpha in [0.0, 0.3, 0.5, 0.9, 0.99] {
            let (mut near, mut far) = (alpha, alpha);
            for k in 0..12 {
                let w = extra_weight(alpha, k);
                assert!((0.0..1.0).contains(&w), "α {alpha}, k {k}: {w}");
                if k % 2 == 0 {
                    assert!(w > near, "α {alpha}, k {k}: {w} ≤ {near}");
                    near = w;
                } else {
                    assert!(w < far || w == 0.0, "α {alpha}, k {k}: {w} ≥ {far}");
                    far = w;
                }
            }
        }
    }

    fn dist(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    /// Directional smoothing keeps Wentges's point when the subgradient agrees with the
    /// in-out direction or is at a right angle or more to it; otherwise it turns the point
    /// towards the subgradient, at Wentges's distance from the center, never below 0.
    #[test]
    fn the_directional_point_turns_towards_the_subgradient() {
        let center = [1.0, 1.0, 0.0];
        let out = [3.0, 1.0, 0.0];
        let alpha = 0.5;
        let wentges = separation_point(&center, &out, alpha, None);
        assert_eq!(wentges, vec![2.0, 1.0, 0.0]);
        for g in [[4.0, 0.0, 0.0], [0.0, 5.0, 0.0], [-1.0, 1.0, 0.0]] {
            let p = separation_point(&center, &out, alpha, Some(&g));
            assert!(dist(&p, &wentges) < 1e-12, "{g:?}: {p:?}");
        }
        let g = [1.0, 1.0, 0.0];
        let p = separation_point(&center, &out, alpha, Some(&g));
        assert!((dist(&p, &center) - 1.0).abs() < 1e-12, "{p:?}");
        assert!(p[1] > 1.0 && p[0] > 1.0 && p[0] < 2.0, "{p:?}");
        // A subgradient that points below 0 on a row: that row clamps at 0.
        let p = separation_point(&center, &out, alpha, Some(&[1.0, 0.0, -1.0]));
        assert!(p.iter().all(|&x| x >= 0.0) && p[2] == 0.0, "{p:?}");
    }
}
