//! The parts of a branch-and-price node ([`super::branch_and_price`]): the together groups
//! and the decision filter, the node's starting master, the pairs to branch on and the
//! strong-branching comparison.

use super::{Column, CoveringMaster, Decisions};
use crate::error::Result;
use std::collections::HashMap;

/// The together groups of `rows` items: per item, its group's representative (the least item).
pub fn together_groups(rows: usize, together: &[(usize, usize)]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..rows).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        let mut y = x;
        while p[y] != r {
            let next = p[y];
            p[y] = r;
            y = next;
        }
        r
    }
    for &(i, j) in together {
        let (a, b) = (find(&mut parent, i), find(&mut parent, j));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    (0..rows).map(|i| find(&mut parent, i)).collect()
}

/// A node's [`Decisions`] as a column filter ([`Filter::admits`]), with scratch space.
pub(super) struct Filter {
    decisions: Decisions,
    /// Scratch: per group, the column's items in it.
    count: Vec<usize>,
}

impl Filter {
    pub(super) fn new(decisions: Decisions) -> Filter {
        let count = vec![0; decisions.groups.len()];
        Filter { decisions, count }
    }

    /// Whether `col` honours the decisions: a column holding one member of a together group
    /// holds all of them, no forbidden group and no two conflicting groups.
    pub(super) fn admits(&mut self, col: &Column) -> bool {
        let d = &self.decisions;
        for &(r, _) in col {
            self.count[d.group_of[r]] += 1;
        }
        let count = &self.count;
        let ok = col.iter().all(|&(r, _)| {
            let g = d.group_of[r];
            count[g] == d.groups[g].len()
                && !d.forbidden[g]
                && d.conflicts[g].iter().all(|&h| count[h] == 0)
        });
        for &(r, _) in col {
            self.count[d.group_of[r]] = 0;
        }
        ok
    }
}

/// Per pair of rows `i < j`, `f_ij = Σ_{c ∋ i, j} λ_c` over the columns with `λ_c > 1e-9`
/// (pairs never covered together are absent).
pub(super) fn together_values(cols: &[Column], primal: &[f64]) -> HashMap<(usize, usize), f64> {
    let mut pair: HashMap<(usize, usize), f64> = HashMap::new();
    for (col, &v) in cols.iter().zip(primal).filter(|(_, &v)| v > 1e-9) {
        let items: Vec<usize> = col.iter().map(|&(r, _)| r).collect();
        for (a, &i) in items.iter().enumerate() {
            for &j in &items[a + 1..] {
                *pair.entry((i.min(j), i.max(j))).or_default() += v;
            }
        }
    }
    pair
}

pub(super) fn ranked_pairs(
    cols: &[Column],
    primal: &[f64],
    target: f64,
    max: usize,
) -> Vec<(usize, usize)> {
    let pair = together_values(cols, primal);
    let mut fractional: Vec<((usize, usize), f64)> = pair
        .into_iter()
        .filter(|(_, f)| *f > 1e-6 && *f < 1.0 - 1e-6)
        .collect();
    fractional.sort_by(|a, b| {
        (a.1 - target)
            .abs()
            .total_cmp(&(b.1 - target).abs())
            .then(a.0.cmp(&b.0))
    });
    fractional.into_iter().take(max).map(|(p, _)| p).collect()
}

/// Whether every `λ` is integral.
pub(super) fn integral(primal: &[f64]) -> bool {
    primal.iter().all(|v| (v - v.round()).abs() <= 1e-6)
}

/// One strong-branching candidate: its pair, its children's bounds (together, apart), how
/// many of them reach the incumbent, and the sum of their LP values.
pub(super) struct Trial {
    pub(super) pair: (usize, usize),
    pub(super) bounds: [u64; 2],
    pub(super) closed: usize,
    pub(super) value: f64,
}

impl Trial {
    /// More children closed, then the higher least child bound, then the higher LP sum.
    pub(super) fn beats(&self, other: &Trial) -> bool {
        let least = |t: &Trial| t.bounds[0].min(t.bounds[1]);
        (self.closed, least(self))
            .cmp(&(other.closed, least(other)))
            .then(self.value.total_cmp(&other.value))
            .is_gt()
    }
}

/// The master of a node with decisions `together` / `apart`: one column per together group
/// (feasible, since each group was formed inside a column of an ancestor's master) and the
/// compatible pool columns, at most `pool_per_row × rows` of them, those of least reduced cost
/// at `duals` (the parent's; a master of the whole pool, 8,000 columns on Hard28, made HiGHS
/// most of a node's time).
pub(super) fn node_master(
    demands: &[f64],
    pool: &[Column],
    together: &[(usize, usize)],
    apart: &[(usize, usize)],
    duals: Option<&[f64]>,
    pool_per_row: f64,
) -> Result<CoveringMaster> {
    let decisions = Decisions::new(demands.len(), together, apart);
    let mut master = CoveringMaster::new(demands);
    for members in &decisions.groups {
        master.add_column(members.iter().map(|&r| (r, 1.0)).collect())?;
    }
    let rows = demands.len();
    let mut filter = Filter::new(decisions);
    let mut fit: Vec<(f64, &Column)> = pool
        .iter()
        .filter(|c| filter.admits(c))
        .map(|c| {
            let rc = duals.map_or(0.0, |pi| {
                1.0 - c.iter().map(|&(r, a)| a * pi[r]).sum::<f64>()
            });
            (rc, c)
        })
        .collect();
    let keep = (pool_per_row * rows as f64).ceil() as usize;
    if pool_per_row > 0.0 && fit.len() > keep {
        fit.sort_by(|a, b| a.0.total_cmp(&b.0));
        fit.truncate(keep);
    }
    for (_, c) in fit {
        master.add_column(c.clone())?;
    }
    Ok(master)
}
