//! Columns behind the dual-optimal inequalities (Ben Amor, Desrosiers, Valério de Carvalho,
//! Operations Research 2006): a master solution that uses an exchange column
//! `e_light (+ e_light') − e_heavy` stands for bins of the solution with `heavy` swapped for
//! the light rows. Before the exchanges leave the master ([`crate::colgen::run`]), those bins
//! join it as columns, so the plain master starts near the value it had with the exchanges
//! instead of jumping back up and earning it again over many rounds.

use std::collections::HashMap;

use super::stopping::settled;
use super::{CgSettings, Column, CoveringMaster, MasterSolution};
use crate::error::Result;
use crate::solver::Deadline;

/// Drops the exchanges from `master` and re-solves it, with the bins behind the exchanges of
/// `last` when `recover_columns` says so: added at once when time is up or the re-solve does
/// not finish, else only when the plain master jumps above `with_exchanges` and its integer
/// bound is not settled at `bound`. When time is up, or runs out within the re-solve, the
/// answer is the cover those bins make with `last`'s weights (its value `with_exchanges`,
/// `last`'s duals, no solve: a master of thousands of rows takes seconds to re-solve, 1.3 s
/// past a 20-s limit on 3,000 SOC items); there is no re-solve once time is up, and no split
/// either unless `last` is whole. Without that cover a re-solve begun in time gets
/// `first_master_seconds` past the deadline. The plain master (`None` when there is none)
/// and the columns added.
pub(super) fn drop_exchanges(
    master: &mut CoveringMaster,
    last: &MasterSolution,
    settings: &CgSettings,
    deadline: &Deadline,
    bound: f64,
    with_exchanges: f64,
) -> Result<(Option<MasterSolution>, usize)> {
    let whole = |v: f64| (v - v.round()).abs() <= 1e-6;
    if deadline.expired()
        && !(last.primal.iter().all(|&v| whole(v))
            && master.used_exchanges().iter().all(|&(_, y)| whole(y)))
    {
        // Past the deadline only a whole point is worth its cover (the caller takes it as
        // a packing); a fractional one would be left unused.
        master.drop_exchanges()?;
        return Ok((None, 0));
    }
    let limit = if settings.recover_columns {
        4 * master.demands().len()
    } else {
        0
    };
    let Recovered { columns, cover } = recovered_columns(master, &last.primal, limit);
    log::debug!(
        "cg: {} exchanges used, {} bins behind them, cover {}",
        master.used_exchanges().len(),
        columns.len(),
        if cover.is_some() { "complete" } else { "short" }
    );
    let as_solution = |cover: Vec<f64>| MasterSolution {
        value: cover.iter().sum(),
        primal: cover,
        duals: last.duals.clone(),
        iterations: 0,
    };
    let extra = deadline.at_least(settings.first_master_seconds);
    if deadline.expired() {
        let added = columns.len();
        for c in columns {
            master.add_column(c)?;
        }
        master.drop_exchanges()?;
        return Ok((cover.map(as_solution), added));
    }
    master.drop_exchanges()?;
    let solved = master.solve(if cover.is_some() { deadline } else { &extra })?;
    let Some(plain) = solved else {
        let Some(cover) = cover else {
            return Ok((None, 0));
        };
        let added = columns.len();
        for c in columns {
            master.add_column(c)?;
        }
        return Ok((Some(as_solution(cover)), added));
    };
    if columns.is_empty()
        || plain.value <= with_exchanges * (1.0 + 1e-7)
        || settled(bound, plain.value)
    {
        return Ok((Some(plain), 0));
    }
    log::debug!(
        "cg: master {:.6} without exchanges, {} columns recovered",
        plain.value,
        columns.len()
    );
    let added = columns.len();
    for c in columns {
        master.add_column(c)?;
    }
    // Out of time: the plain point, with the new columns at 0, is still the master's.
    let again = master.solve(deadline)?.unwrap_or_else(|| {
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

/// What [`recovered_columns`] finds behind the used exchanges.
#[derive(Debug, Clone, Default)]
pub struct Recovered {
    /// The new bins, none already in the master.
    pub columns: Vec<Column>,
    /// A weight per column of the master with `columns` appended, covering every row at
    /// its demand with no exchange, of the value the master had with the exchanges: the
    /// plain master's point without a solve. `None` when the split was cut at the limit, an
    /// exchange found no column to take its value from, or a swap lost a row's coverage.
    pub cover: Option<Vec<f64>>,
}

/// The bins that the master's used exchanges stand for, by splitting the solution's
/// columns: the exchanges in an order where an exchange that brings a row comes before those
/// that take it away (heavy rows first: a topological order of the rows, heavy before light),
/// each takes its value `y` from columns of positive weight that hold its heavy row, a part
/// `t` of such a column's weight going to the column with the swap. The weights then make a
/// cover of the same value as the master with the exchanges (a row's coverage by columns is
/// at least its demand plus what the exchanges take from it). At most `limit` new columns,
/// none already in the master.
pub fn recovered_columns(master: &CoveringMaster, primal: &[f64], limit: usize) -> Recovered {
    const EPS: f64 = 1e-9;
    let mut used = master.used_exchanges();
    let known = master.columns();
    if used.is_empty() {
        // The point is a cover as it stands.
        let cover = (primal.len() == known.len()).then(|| primal.to_vec());
        return Recovered {
            columns: Vec::new(),
            cover,
        };
    }
    if limit == 0 {
        return Recovered::default();
    }
    let demands = master.demands();
    let rank = heavy_first(&used, demands.len());
    used.sort_by_key(|(e, _)| heavy_row(e).map_or(usize::MAX, |h| rank[h]));
    // Every column, the master's and the new ones, by its bits: its index in the cover.
    let mut index: HashMap<Vec<(usize, u64)>, usize> =
        known.iter().enumerate().map(|(k, c)| (key(c), k)).collect();
    let mut weights: Vec<f64> = (0..known.len())
        .map(|k| primal.get(k).copied().unwrap_or(0.0))
        .collect();
    // The weighted columns the exchanges may split, (column, its index in `weights`), and
    // per row the places in `pool` of those that hold it (an exchange only looks at the
    // columns that hold its heavy row: 14,000 exchanges over 15,000 columns on 3,000 SOC
    // items).
    let mut pool: Vec<(Column, usize)> = Vec::new();
    let mut holding: Vec<Vec<usize>> = vec![Vec::new(); demands.len()];
    let mut pooled: Vec<bool> = vec![false; weights.len()];
    let push = |pool: &mut Vec<(Column, usize)>, holding: &mut Vec<Vec<usize>>, c: Column, k| {
        for &(r, a) in &c {
            if a >= 1.0 {
                holding[r].push(pool.len());
            }
        }
        pool.push((c, k));
    };
    for (k, c) in known.iter().enumerate() {
        if weights[k] > EPS {
            pooled[k] = true;
            push(&mut pool, &mut holding, c.clone(), k);
        }
    }
    let mut out = Vec::new();
    let mut complete = true;
    for (exchange, y) in &used {
        let Some(heavy) = heavy_row(exchange) else {
            complete = false;
            continue;
        };
        let mut left = *y;
        // First the columns where the swap's light rows all count (below their demands),
        // then any.
        for wasteful in [false, true] {
            let mut i = 0;
            while left > EPS && i < holding[heavy].len() {
                let (col, from) = {
                    let (c, k) = &pool[holding[heavy][i]];
                    (c.clone(), *k)
                };
                i += 1;
                if weights[from] <= EPS || (!wasteful && wastes(&col, exchange, demands)) {
                    continue;
                }
                let Some(new) = swapped(&col, exchange, demands) else {
                    continue;
                };
                let t = weights[from].min(left);
                let to = match index.get(&key(&new)) {
                    Some(&k) => {
                        if !pooled[k] {
                            pooled[k] = true;
                            push(&mut pool, &mut holding, new, k);
                        }
                        k
                    }
                    None => {
                        if out.len() >= limit {
                            return Recovered {
                                columns: out,
                                cover: None,
                            };
                        }
                        let k = weights.len();
                        index.insert(key(&new), k);
                        weights.push(0.0);
                        pooled.push(true);
                        out.push(new.clone());
                        push(&mut pool, &mut holding, new, k);
                        k
                    }
                };
                weights[from] -= t;
                weights[to] += t;
                left -= t;
            }
        }
        complete &= left <= 1e-7;
    }
    // A swap into a column that holds a light row at its demand already loses that row's
    // share: the weights are a cover only when every row is still covered.
    let mut covered = vec![0.0; demands.len()];
    for (c, &w) in known.iter().chain(&out).zip(&weights) {
        for &(r, a) in c {
            covered[r] += a * w;
        }
    }
    let complete = complete
        && covered
            .iter()
            .zip(demands)
            .all(|(&c, &n)| c >= n - 1e-9 * n.max(1.0));
    Recovered {
        columns: out,
        cover: complete.then_some(weights),
    }
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
