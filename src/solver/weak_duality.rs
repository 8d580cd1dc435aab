//! Weak duality for any row multipliers, evaluated with outward rounding (issue 37's `dual`
//! proofs; models/proofs.md, "Dual proofs").
//!
//! For a minimisation `min cᵀx` s.t. `L ≤ Ax ≤ U`, `l ≤ x ≤ u`, and *any* multipliers `y`,
//! every feasible `x` satisfies
//!
//! ```text
//! cᵀx = yᵀ(Ax) + dᵀx ≥ Σ_i min(y_i L_i, y_i U_i) + Σ_k min(d_k l_k, d_k u_k),   d = c − Aᵀy.
//! ```
//!
//! So the right-hand side is a lower bound on the LP optimum (and on any integer programme
//! the LP relaxes) whatever `y` is: a doctored vector gives a weaker bound, never a false
//! one. A term that multiplies an infinite side is `−∞` (no bound); [`clip`] first moves `y`
//! to where it is not: a row with `L = −∞` keeps `y ≤ 0`, one with `U = +∞` keeps `y ≥ 0`,
//! and a column unbounded in one direction that lies in a single row has that row's
//! multiplier clipped so that its reduced cost keeps the right sign.
//!
//! The evaluation is outward-rounded for the floating-point model: each reduced cost is
//! computed with a bound on its summation error (`(k + 2)·2⁻⁵²·(|c| + Σ|a y|)` over `k`
//! entries), and the term is the least over that interval (a concave function of `d`, so an
//! endpoint); every product and partial sum is rounded down (`colgen::safe`). The model's
//! coefficients are themselves roundings of the exact relaxation's data (relative
//! `2⁻⁵³` each); [`DATA_MARGIN`] (relative to `Σ|terms|`) covers them.
//!
//! A maximisation is the minimisation of `−cᵀx` with multipliers `−y`: the bound returned is
//! then an upper bound.

use super::linear::{LinearModel, Sense};
use crate::colgen::safe::sum_down;

/// Relative margin (of `Σ|terms|`) for the rounding of the model's own data.
pub const DATA_MARGIN: f64 = 1e-9;

/// The unit roundoff's double, `2⁻⁵²`.
const EPS: f64 = f64::EPSILON;

/// Why multipliers were refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// Not one multiplier per row.
    Length {
        /// Multipliers given.
        given: usize,
        /// Rows of the model.
        rows: usize,
    },
    /// A multiplier that is not a finite number.
    NotFinite(usize),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Length { given, rows } => {
                write!(f, "{given} dual values for {rows} rows")
            }
            Refused::NotFinite(i) => write!(f, "dual value {i} is not a finite number"),
        }
    }
}

/// `Err` unless `y` holds one finite multiplier per row of `m`.
pub fn fits(m: &LinearModel, y: &[f64]) -> Result<(), Refused> {
    if y.len() != m.rows.len() {
        return Err(Refused::Length {
            given: y.len(),
            rows: m.rows.len(),
        });
    }
    if let Some(i) = y.iter().position(|v| !v.is_finite()) {
        return Err(Refused::NotFinite(i));
    }
    Ok(())
}

/// `y` of the minimisation (for a maximisation, `−y`), checked.
fn as_min(m: &LinearModel, y: &[f64]) -> Result<Vec<f64>, Refused> {
    fits(m, y)?;
    Ok(match m.sense {
        Sense::Minimize => y.to_vec(),
        Sense::Maximize => y.iter().map(|v| -v).collect(),
    })
}

/// The cost of column `k` in the minimisation.
fn cost(m: &LinearModel, k: usize) -> f64 {
    match m.sense {
        Sense::Minimize => m.cols[k].cost,
        Sense::Maximize => -m.cols[k].cost,
    }
}

/// Moves `y` (in the model's own sense) to where no term of the bound is infinite by
/// construction: the sign a row's infinite side needs, and, for a column unbounded in one
/// direction with a single entry, the side of that row's multiplier that keeps its reduced
/// cost's sign (with a relative margin of 10⁻¹² so that round-off cannot flip it). The result
/// gives a finite bound whenever every column unbounded in some direction is such a column.
pub fn clip(m: &LinearModel, y: &[f64]) -> Vec<f64> {
    let sign = match m.sense {
        Sense::Minimize => 1.0,
        Sense::Maximize => -1.0,
    };
    let mut z: Vec<f64> = y
        .iter()
        .map(|v| if v.is_finite() { sign * v } else { 0.0 })
        .collect();
    z.resize(m.rows.len(), 0.0);
    for (zi, row) in z.iter_mut().zip(&m.rows) {
        if row.bounds.lower == f64::NEG_INFINITY {
            *zi = zi.min(0.0);
        }
        if row.bounds.upper == f64::INFINITY {
            *zi = zi.max(0.0);
        }
    }
    for (k, col) in m.cols.iter().enumerate() {
        let [(r, a)] = col.entries[..] else {
            continue;
        };
        if a == 0.0 {
            continue;
        }
        let c = cost(m, k);
        // `d = c − a z` must be ≥ 0 (unbounded above) or ≤ 0 (unbounded below).
        let limit = c / a;
        let shrink = |t: f64| t - 1e-12 * t.abs();
        let grow = |t: f64| t + 1e-12 * t.abs();
        if col.bounds.upper == f64::INFINITY {
            // a z ≤ c.
            if a > 0.0 {
                z[r.0] = z[r.0].min(shrink(limit));
            } else {
                z[r.0] = z[r.0].max(grow(limit));
            }
        }
        if col.bounds.lower == f64::NEG_INFINITY {
            // a z ≥ c.
            if a > 0.0 {
                z[r.0] = z[r.0].max(grow(limit));
            } else {
                z[r.0] = z[r.0].min(shrink(limit));
            }
        }
    }
    z.iter().map(|v| sign * v).collect()
}

/// `x·y` rounded down, with `0·∞ = 0` (a zero multiplier of an infinite side adds nothing).
fn mul_down(x: f64, y: f64) -> f64 {
    if x == 0.0 || y == 0.0 {
        0.0
    } else {
        crate::colgen::safe::mul_down(x, y)
    }
}

/// `min(d·l, d·u)` rounded down.
fn least(d: f64, l: f64, u: f64) -> f64 {
    mul_down(d, l).min(mul_down(d, u))
}

/// The weak-duality bound of `m` (its LP relaxation: integrality is ignored) at multipliers
/// `y` (one per row, in the model's sense: HiGHS's row duals of a minimisation): a lower
/// bound on the minimum (an upper bound on the maximum), `−∞` (`+∞`) when some term is
/// unbounded. `Err` when `y` does not fit the model; no other vector is refused.
pub fn bound(m: &LinearModel, y: &[f64]) -> Result<f64, Refused> {
    let z = as_min(m, y)?;
    let mut terms: Vec<f64> = Vec::with_capacity(m.rows.len() + m.cols.len());
    for (zi, row) in z.iter().zip(&m.rows) {
        let t = if *zi > 0.0 {
            mul_down(*zi, row.bounds.lower)
        } else if *zi < 0.0 {
            mul_down(*zi, row.bounds.upper)
        } else {
            0.0
        };
        terms.push(t);
    }
    for (k, col) in m.cols.iter().enumerate() {
        let c = cost(m, k);
        let mut d = c;
        let mut size = c.abs();
        for &(r, a) in &col.entries {
            let p = a * z[r.0];
            d -= p;
            size += p.abs();
        }
        let err = (col.entries.len() as f64 + 2.0) * EPS * size;
        let (l, u) = (col.bounds.lower, col.bounds.upper);
        let t = least(d - err, l, u).min(least(d + err, l, u));
        terms.push(t);
    }
    if terms.iter().any(|t| t.is_nan() || *t == f64::NEG_INFINITY) {
        return Ok(match m.sense {
            Sense::Minimize => f64::NEG_INFINITY,
            Sense::Maximize => f64::INFINITY,
        });
    }
    let magnitude: f64 = terms.iter().map(|t| t.abs()).sum();
    let low = sum_down(terms.iter().copied());
    let low = (low - (DATA_MARGIN * magnitude).next_up()).next_down();
    Ok(match m.sense {
        Sense::Minimize => low,
        Sense::Maximize => -low,
    })
}

/// A solver's row duals made into the best certificate of the two sign conventions: each of
/// `duals` and `−duals` is [`clip`]ped and bounded; the better is returned with its bound.
/// `None` when neither gives a finite bound.
pub fn certify(m: &LinearModel, duals: &[f64]) -> Option<(Vec<f64>, f64)> {
    better_of_signs(m.sense, duals, |y| {
        let y = clip(m, &y);
        let b = bound(m, &y).ok()?;
        b.is_finite().then_some((y, b))
    })
}

/// A solver's duals under both sign conventions (`duals`, `−duals`), each made into a proof
/// and its bound by `prove`; the stronger for `sense` (the higher lower bound of a
/// minimisation, the lower upper bound of a maximisation) is returned.
pub fn better_of_signs<T>(
    sense: Sense,
    duals: &[f64],
    prove: impl Fn(Vec<f64>) -> Option<(T, f64)>,
) -> Option<(T, f64)> {
    let flipped: Vec<f64> = duals.iter().map(|v| -v).collect();
    [duals.to_vec(), flipped]
        .into_iter()
        .filter_map(prove)
        .max_by(|a, b| match sense {
            Sense::Minimize => a.1.total_cmp(&b.1),
            Sense::Maximize => b.1.total_cmp(&a.1),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{self, Bounds, Deadline, HighsSettings};
    use rand::{Rng, SeedableRng};

    /// A random bounded LP: `min cᵀx`, mixed rows, `0 ≤ x ≤ u`, one column unbounded above in
    /// a single `≥` row.
    fn random_lp(rng: &mut rand_chacha::ChaCha8Rng, sense: Sense) -> LinearModel {
        let mut m = LinearModel::new(sense);
        let rows = rng.random_range(1..6);
        let ids: Vec<_> = (0..rows)
            .map(|i| {
                let b = match rng.random_range(0..3) {
                    0 => Bounds::at_most(rng.random_range(1.0..10.0)),
                    1 => Bounds::at_least(rng.random_range(-3.0..2.0)),
                    _ => Bounds::new(-1.0, rng.random_range(1.0..5.0)),
                };
                m.add_row(format!("r{i}"), b)
            })
            .collect();
        for k in 0..rng.random_range(1..8) {
            let mut entries = Vec::new();
            for &r in &ids {
                if rng.random_bool(0.6) {
                    entries.push((r, rng.random_range(-2.0..3.0)));
                }
            }
            let c = rng.random_range(-1.0..2.0);
            m.add_col(
                format!("x{k}"),
                c,
                Bounds::new(0.0, rng.random_range(0.5..4.0)),
                false,
                entries,
            );
        }
        let extra = m.add_row("tail", Bounds::at_least(1.0));
        m.add_col(
            "f",
            if sense == Sense::Minimize { 0.5 } else { -0.5 },
            Bounds::at_least(0.0),
            false,
            vec![(extra, 1.0)],
        );
        m
    }

    #[test]
    fn any_multipliers_bound_the_optimum_and_the_solvers_reach_it() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut solved, mut tight) = (0, 0);
        for case in 0..300 {
            let sense = if case % 3 == 0 {
                Sense::Maximize
            } else {
                Sense::Minimize
            };
            let m = random_lp(&mut rng, sense);
            let out =
                solver::solve(&m, &HighsSettings::default(), &Deadline::after(None), None).unwrap();
            let Some(opt) = out.objective.filter(|_| out.row_duals.is_some()) else {
                continue;
            };
            solved += 1;
            let below = |b: f64| match sense {
                Sense::Minimize => b <= opt + 1e-9 * (1.0 + opt.abs()),
                Sense::Maximize => b >= opt - 1e-9 * (1.0 + opt.abs()),
            };
            let (y, b) = certify(&m, out.row_duals.as_ref().unwrap()).expect("finite");
            assert!(below(b), "case {case}: {b} vs {opt}");
            tight += usize::from((b - opt).abs() <= 1e-6 * (1.0 + opt.abs()));
            // Any vector: random, scaled, zero.
            for scale in [0.0, -1.0, 3.0, 1e6] {
                let z: Vec<f64> = y.iter().map(|v| v * scale).collect();
                let b = bound(&m, &clip(&m, &z)).unwrap();
                assert!(below(b), "case {case} scale {scale}: {b} vs {opt}");
                let b = bound(&m, &z).unwrap();
                assert!(below(b) || b.is_infinite(), "case {case} unclipped: {b}");
            }
            let r: Vec<f64> = (0..m.rows.len())
                .map(|_| rng.random_range(-5.0..5.0))
                .collect();
            assert!(
                below(bound(&m, &clip(&m, &r)).unwrap()),
                "case {case} random"
            );
        }
        assert!(solved > 100, "{solved}");
        assert!(tight * 10 >= solved * 9, "{tight} of {solved} tight");
    }

    #[test]
    fn vectors_that_do_not_fit_are_refused() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let m = random_lp(&mut rng, Sense::Minimize);
        let n = m.rows.len();
        assert!(matches!(
            bound(&m, &vec![0.0; n + 1]),
            Err(Refused::Length { .. })
        ));
        let mut y = vec![0.0; n];
        y[0] = f64::NAN;
        assert_eq!(bound(&m, &y), Err(Refused::NotFinite(0)));
        y[0] = f64::INFINITY;
        assert!(bound(&m, &y).is_err());
    }
}
