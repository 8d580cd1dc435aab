//! Column management ([`crate::colgen::CgSettings::live_columns_per_row`]): the master's LP
//! is kept small by retiring columns of high reduced cost; they stay in its column list.

use super::CoveringMaster;
use crate::error::Result;

/// [`crate::colgen::CgSettings::live_columns_per_row`]: once the LP holds more than `per_row` columns a
/// row, the live columns of highest reduced cost at `duals` (the last solve's, at which they
/// are nonbasic: reduced cost above `1e-7`) leave it, down to half that many, each row
/// keeping at least one live column that covers it.
pub(super) fn retire_columns(
    master: &mut CoveringMaster,
    duals: &[f64],
    per_row: f64,
) -> Result<()> {
    let most = (per_row * duals.len() as f64).ceil() as usize;
    if master.live() <= most.max(1) {
        return Ok(());
    }
    let excess = master.live() - most / 2;
    let mut scored: Vec<(f64, usize)> = master
        .columns()
        .iter()
        .enumerate()
        .filter(|&(k, _)| master.may_retire(k))
        .map(|(k, c)| (1.0 - c.iter().map(|&(r, a)| a * duals[r]).sum::<f64>(), k))
        .filter(|&(rc, _)| rc > 1e-7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    // Every row keeps a live column that covers it: the LP stays feasible whatever happens
    // next (the exchange columns dropped, a dive's demands or trims), since one column per
    // row makes a cover of any demands.
    let mut cover = vec![0usize; duals.len()];
    for (k, c) in master.columns().iter().enumerate() {
        if master.is_enabled(k) {
            for &(r, a) in c {
                if a > 0.0 {
                    cover[r] += 1;
                }
            }
        }
    }
    let mut which = Vec::new();
    for &(_, k) in &scored {
        if which.len() == excess {
            break;
        }
        let col = &master.columns()[k];
        if col.iter().any(|&(r, a)| a > 0.0 && cover[r] <= 1) {
            continue;
        }
        for &(r, a) in col {
            if a > 0.0 {
                cover[r] -= 1;
            }
        }
        which.push(k);
    }
    log::debug!(
        "cg: {} of {} live columns leave the master",
        which.len(),
        master.live()
    );
    master.retire(&which)
}
