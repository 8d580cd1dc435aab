//! Columns behind the dual-optimal inequalities (Ben Amor, Desrosiers, Valério de Carvalho,
//! Operations Research 2006): a master solution that uses an exchange column
//! `e_light (+ e_light') − e_heavy` stands for bins of the solution with `heavy` swapped for
//! the light rows. Before the exchanges leave the master ([`crate::colgen::run`]), those bins
//! join it as columns, so the plain master starts near the value it had with the exchanges
//! instead of jumping back up and earning it again over many rounds.

use std::collections::HashSet;

use super::engine::settled;
use super::{CgSettings, Column, CoveringMaster, MasterSolution};
use crate::error::Result;
use crate::solver::Deadline;

/// Drops the exchanges from `master` and re-solves it (even past the deadline, for
/// `first_master_seconds`), with the bins behind the exchanges of `last` when
/// `recover_columns` says so: before the re-solve when time is up (one solve, and the last
/// point must be a cover), else only when the plain master jumps above `with_exchanges` and
/// its integer bound is not settled at `bound`. The plain master (`None` when its re-solve did
/// not finish) and the columns added.
pub(super) fn drop_exchanges(
    master: &mut CoveringMaster,
    last: &MasterSolution,
    settings: &CgSettings,
    deadline: &Deadline,
    bound: f64,
    with_exchanges: f64,
) -> Result<(Option<MasterSolution>, usize)> {
    let recovered = if settings.recover_columns {
        recovered_columns(master, &last.primal, 4 * master.demands().len())
    } else {
        Vec::new()
    };
    let mut added = 0;
    let late = deadline.expired();
    if late {
        added = recovered.len();
        for c in recovered.iter().cloned() {
            master.add_column(c)?;
        }
    }
    master.drop_exchanges()?;
    let extra = deadline.at_least(settings.first_master_seconds);
    let Some(plain) = master.solve(&extra)? else {
        return Ok((None, added));
    };
    if late
        || recovered.is_empty()
        || plain.value <= with_exchanges * (1.0 + 1e-7)
        || settled(bound, plain.value)
    {
        return Ok((Some(plain), added));
    }
    log::debug!(
        "cg: master {:.6} without exchanges, {} columns recovered",
        plain.value,
        recovered.len()
    );
    added += recovered.len();
    for c in recovered {
        master.add_column(c)?;
    }
    // Out of time: the plain point, with the new columns at 0, is still the master's.
    let again = master.solve(&extra)?.unwrap_or_else(|| {
        let mut plain = plain;
        plain.primal.resize(master.len(), 0.0);
        plain
    });
    Ok((Some(again), added))
}

/// Bits of a column, to tell columns apart exactly.
fn key(col: &Column) -> Vec<(usize, u64)> {
    col.iter().map(|&(r, a)| (r, a.to_bits())).collect()
}

/// `col` with one unit of the exchange's heavy row replaced by one of each light row, capped
/// at the demands (what a swap covers beyond them is dropped: the pricing's exchanges are
/// valid on those terms, [`crate::colgen::Pricing::dominance`]). `None` when `col` does not
/// hold the heavy row.
fn swapped(col: &Column, exchange: &Column, demands: &[f64]) -> Option<Column> {
    let (heavy, _) = *exchange.iter().find(|&&(_, a)| a < 0.0)?;
    if !col.iter().any(|&(r, a)| r == heavy && a >= 1.0) {
        return None;
    }
    let mut out: Vec<(usize, f64)> = col
        .iter()
        .map(|&(r, a)| (r, if r == heavy { a - 1.0 } else { a }))
        .collect();
    for &(light, a) in exchange.iter().filter(|&&(_, a)| a > 0.0) {
        match out.iter_mut().find(|(r, _)| *r == light) {
            Some(entry) => entry.1 = (entry.1 + a).min(demands[light]),
            None => out.push((light, a.min(demands[light]))),
        }
    }
    out.retain(|&(_, a)| a > 0.0);
    out.sort_by_key(|&(r, _)| r);
    (!out.is_empty()).then_some(out)
}

/// The bins that the master's used exchanges stand for, by splitting the solution's
/// columns: the exchanges in an order where an exchange that brings a row comes before those
/// that take it away (heavy rows first: a topological order of the rows, heavy before light),
/// each takes its value `y` from columns of positive weight that hold its heavy row, a part
/// `t` of such a column's weight going to the column with the swap. The weights then make a
/// cover of the same value as the master with the exchanges (a row's coverage by columns is
/// at least its demand plus what the exchanges take from it). At most `limit` new columns,
/// none already in the master.
pub fn recovered_columns(master: &CoveringMaster, primal: &[f64], limit: usize) -> Vec<Column> {
    const EPS: f64 = 1e-9;
    let mut used = master.used_exchanges();
    if used.is_empty() || limit == 0 {
        return Vec::new();
    }
    let demands = master.demands();
    let rank = heavy_first(&used, demands.len());
    used.sort_by_key(|(e, _)| heavy_row(e).map_or(usize::MAX, |h| rank[h]));
    let mut seen: HashSet<Vec<(usize, u64)>> = master.columns().iter().map(key).collect();
    let mut pool: Vec<(Column, f64)> = master
        .columns()
        .iter()
        .zip(primal)
        .filter(|(_, &v)| v > EPS)
        .map(|(c, &v)| (c.clone(), v))
        .collect();
    let mut out = Vec::new();
    for (exchange, y) in &used {
        let mut left = *y;
        // First the columns where the swap's light rows all count (below their demands),
        // then any.
        for wasteful in [false, true] {
            let mut i = 0;
            while left > EPS && i < pool.len() {
                if pool[i].1 > EPS && (wasteful || !wastes(&pool[i].0, exchange, demands)) {
                    if let Some(new) = swapped(&pool[i].0, exchange, demands) {
                        let t = pool[i].1.min(left);
                        pool[i].1 -= t;
                        left -= t;
                        if seen.insert(key(&new)) {
                            out.push(new.clone());
                            if out.len() >= limit {
                                return out;
                            }
                        }
                        pool.push((new, t));
                    }
                }
                i += 1;
            }
        }
    }
    out
}

/// Some light row of the exchange is already at its demand in `col`.
fn wastes(col: &Column, exchange: &Column, demands: &[f64]) -> bool {
    exchange.iter().filter(|&&(_, a)| a > 0.0).any(|&(l, a)| {
        col.iter()
            .any(|&(r, c)| r == l && c + a > demands[l] + 1e-9)
    })
}

fn heavy_row(exchange: &Column) -> Option<usize> {
    exchange.iter().find(|&&(_, a)| a < 0.0).map(|&(r, _)| r)
}

/// Each row's place in an order where every used exchange's heavy row comes before its light
/// rows (Kahn's algorithm; rows on a cycle, which valid exchanges do not make, last).
fn heavy_first(used: &[(&Column, f64)], rows: usize) -> Vec<usize> {
    let mut into = vec![0usize; rows];
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for (e, _) in used {
        if let Some(h) = heavy_row(e) {
            for &(l, a) in e.iter() {
                if a > 0.0 {
                    next[h].push(l);
                    into[l] += 1;
                }
            }
        }
    }
    let mut rank = vec![usize::MAX; rows];
    let mut ready: Vec<usize> = (0..rows).filter(|&r| into[r] == 0).collect();
    let mut k = 0;
    while let Some(r) = ready.pop() {
        rank[r] = k;
        k += 1;
        for &l in &next[r] {
            into[l] -= 1;
            if into[l] == 0 {
                ready.push(l);
            }
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A swap takes one unit of the heavy row and adds the light ones, capped at the demands;
    /// a column without the heavy row is left alone.
    #[test]
    fn a_swap_replaces_the_heavy_row_within_the_demands() {
        let demands = [1.0, 1.0, 1.0, 2.0];
        let pair = vec![(1, 1.0), (2, 1.0), (0, -1.0)];
        assert_eq!(
            swapped(&vec![(0, 1.0), (3, 1.0)], &pair, &demands),
            Some(vec![(1, 1.0), (2, 1.0), (3, 1.0)])
        );
        // Row 1 already at its demand: it stays at 1.
        assert_eq!(
            swapped(&vec![(0, 1.0), (1, 1.0)], &pair, &demands),
            Some(vec![(1, 1.0), (2, 1.0)])
        );
        assert!(wastes(&vec![(0, 1.0), (1, 1.0)], &pair, &demands));
        assert!(!wastes(&vec![(0, 1.0), (3, 1.0)], &pair, &demands));
        assert_eq!(swapped(&vec![(1, 1.0)], &pair, &demands), None);
        // Multiplicities: one unit of 3 for one of 0 (demand 2 leaves room).
        let single = vec![(3, 1.0), (0, -1.0)];
        assert_eq!(
            swapped(&vec![(0, 2.0), (3, 1.0)], &single, &demands),
            Some(vec![(0, 1.0), (3, 2.0)])
        );
    }

    /// Heavy rows come before the rows they feed, along chains.
    #[test]
    fn heavy_rows_come_first() {
        let e1 = vec![(1, 1.0), (0, -1.0)];
        let e2 = vec![(2, 1.0), (3, 1.0), (1, -1.0)];
        let e3 = vec![(0, 1.0), (4, -1.0)];
        let used = vec![(&e1, 1.0), (&e2, 1.0), (&e3, 1.0)];
        let rank = heavy_first(&used, 5);
        assert!(rank[4] < rank[0] && rank[0] < rank[1] && rank[1] < rank[2] && rank[1] < rank[3]);
    }
}
