//! The `dual` proof of the VCSched LP bound (issue 37; models/proofs.md, models/vcsched.md
//! "The LP bound's dual proof"): weak duality of the rational relaxation (§3.1, with the
//! migration budget's row 31 for a budgeted adaptation), rebuilt from the instance alone.
//!
//! The relaxation is [`milp::build`] without symmetry breaking and without integrality:
//! maximise `Y` under the rows `c6_t_j` (`a_tj − e_tj ≤ 0`, `T·H` of them), `c7`, `c8`, `c9`,
//! `c10`, `c20`, `c11` and `c31`, every column in `[0, 1]`. The proof stores the multipliers
//! of every row but the `T·H` rows `c6` (so `O(T + H + J)` numbers, not `O(T·H)`), in the
//! model's row order. Each `c6_t_j` appears only in the columns `e_tj` and `a_tj`, so its
//! best multiplier given the others is a one-variable choice, made here the same way by the
//! solve and by `verify`: with `r_e`, `r_a` the two columns' reduced costs of the
//! minimisation without that row, the multiplier `s = max(0, min(r_e, −r_a))` maximises
//! `min(0, r_e − s) + min(0, r_a + s)` (its two terms in the bound). Any vector gives a valid
//! upper bound ([`weak_duality`]: outward rounding, bounded columns by their reduced costs);
//! a doctored one gives a weaker bound, which `verify` refuses against the claim.

use super::instance::Instance;
use super::milp::{self, Formulation};
use crate::solver::weak_duality::{self, Refused};
use crate::solver::{LinearModel, Sense};

/// The relaxation's name in a `dual` proof.
pub const LP_NAME: &str = "vcsched-lp";

/// The relaxation of `inst` (its budget included when it is an adaptation): the model whose
/// weak-duality bound the proof gives, and the number of leading `c6` rows left out of the
/// proof.
pub fn model(inst: &Instance) -> (LinearModel, usize) {
    let (m, _) = milp::build(
        inst,
        Formulation {
            symmetry_breaking: false,
        },
    );
    (m.relaxed(), inst.num_tasks() * inst.hosts)
}

/// The full multiplier vector of `m` (model's sense) from the proof's `compact` one: the
/// given rows moved to their dual-feasible signs ([`weak_duality::clip`]), then each `c6`
/// row's multiplier chosen as the module text says. `Err` when `compact` does not hold one
/// finite value per row after the `skip` leading `c6` rows.
pub fn expand(m: &LinearModel, skip: usize, compact: &[f64]) -> Result<Vec<f64>, Refused> {
    let mut y = vec![0.0; skip];
    y.extend_from_slice(compact);
    weak_duality::fits(m, &y).map_err(|e| match e {
        Refused::Length { given, rows } => Refused::Length {
            given: given - skip,
            rows: rows - skip,
        },
        Refused::NotFinite(i) => Refused::NotFinite(i - skip),
    })?;
    let mut y = weak_duality::clip(m, &y);
    // The minimisation's multipliers are `sign · y`, its costs `sign · c`.
    let sign = match m.sense {
        Sense::Minimize => 1.0,
        Sense::Maximize => -1.0,
    };
    // The reduced cost of every column, the `c6` rows (multiplier 0 so far) aside.
    let reduced: Vec<f64> = m
        .cols
        .iter()
        .map(|c| {
            c.entries
                .iter()
                .fold(sign * c.cost, |d, &(r, a)| d - a * sign * y[r.0])
        })
        .collect();
    // Row `k < skip` is `c6_t_j`: coefficient −1 in `e_tj` (column k), +1 in `a_tj` (column
    // skip + k); in the minimisation its multiplier is `−s`, `s ≥ 0`.
    for (k, yk) in y.iter_mut().enumerate().take(skip) {
        let (r_e, r_a) = (reduced[k], reduced[skip + k]);
        let s = r_e.min(-r_a).max(0.0);
        *yk = sign * -s;
    }
    Ok(y)
}

/// The upper bound on the relaxation's `Y` (hence on every yield of the instance) given by
/// the proof's multipliers `compact`, rounded outward.
pub fn bound(m: &LinearModel, skip: usize, compact: &[f64]) -> Result<f64, Refused> {
    weak_duality::bound(m, &expand(m, skip, compact)?)
}

/// Re-derives the bound of a `vcsched-lp` proof from the instance (with the budget the
/// answer names) and the multipliers alone; `Err` names what does not fit.
pub fn check(inst: &Instance, compact: &[f64]) -> Result<f64, String> {
    let (m, skip) = model(inst);
    bound(&m, skip, compact).map_err(|e| format!("the {LP_NAME} proof: {e} (the rows after c6)"))
}

/// HiGHS's row duals of `m` made into the proof: both sign conventions tried, the one with
/// the lower bound kept, with that bound. `None` when neither is finite or `duals` does not
/// fit.
pub fn certify(m: &LinearModel, skip: usize, duals: &[f64]) -> Option<(Vec<f64>, f64)> {
    weak_duality::better_of_signs(m.sense, duals.get(skip..)?, |c| {
        // Store the clipped vector: verify's clip leaves it as it is.
        let full = weak_duality::clip(m, &[vec![0.0; skip], c].concat());
        let compact = full[skip..].to_vec();
        let b = bound(m, skip, &compact).ok()?;
        b.is_finite().then_some((compact, b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{self, Deadline, HighsSettings, LinearStatus};
    use crate::vcsched::{brute, selfcheck};

    /// HiGHS's value and duals of the relaxation.
    fn solved(m: &LinearModel) -> Option<(f64, Vec<f64>)> {
        let out = solver::solve(m, &HighsSettings::default(), &Deadline::none(), None).unwrap();
        match (out.status, out.objective, out.row_duals) {
            (LinearStatus::Optimal, Some(v), Some(d)) => Some((v, d)),
            _ => None,
        }
    }

    /// On tiny budgeted adaptations: the proof's bound is re-derived bit for bit, lies within
    /// 10⁻⁶ of HiGHS's LP value and never below it, and never below the brute-force optimum;
    /// doctored vectors (scaled, sign flipped) give bounds no lower than it, a short one is
    /// refused.
    #[test]
    fn the_budgeted_lp_bound_is_re_derived_and_above_the_optimum() {
        let (mut cases, mut below_closed_form) = (0, 0);
        for seed in 0..60 {
            let mut inst = selfcheck::tiny_adaptation(seed, 3, 6);
            // A third of the cases with a tight budget (a tenth of the drawn one, or none).
            match seed % 3 {
                1 => inst.budget = inst.budget.map(|b| b / 10.0),
                2 => inst.budget = Some(0.0),
                _ => {}
            }
            let (m, skip) = model(&inst);
            let Some((lp, duals)) = solved(&m) else {
                continue;
            };
            cases += 1;
            let (compact, b) = certify(&m, skip, &duals).expect("a finite bound");
            assert_eq!(compact.len(), m.rows.len() - skip);
            assert_eq!(check(&inst, &compact).unwrap().to_bits(), b.to_bits());
            assert!(b >= lp - 1e-7, "seed {seed}: {b} below the LP's {lp}");
            assert!(b <= lp + 1e-6, "seed {seed}: {b} far above the LP's {lp}");
            if let Some(opt) = brute::adapted_min_yield(&inst) {
                assert!(b >= opt - 1e-7, "seed {seed}: {b} below the optimum {opt}");
            }
            let closed = crate::vcsched::relaxation::closed_form_bound(&inst).unwrap();
            below_closed_form += usize::from(b < closed - 1e-6);
            for scale in [0.5, 2.0, -1.0, 0.0] {
                let z: Vec<f64> = compact.iter().map(|v| v * scale).collect();
                let t = check(&inst, &z).unwrap();
                assert!(t >= lp - 1e-7, "seed {seed} ×{scale}: {t} below {lp}");
            }
            assert!(check(&inst, &compact[1..]).is_err());
            let mut nan = compact.clone();
            nan[0] = f64::NAN;
            assert!(check(&inst, &nan).is_err());
        }
        assert!(cases >= 40, "{cases} LPs solved");
        // The budget binds on some: the proof matters there.
        assert!(
            below_closed_form >= 5,
            "{below_closed_form} below the closed form"
        );
    }
}
