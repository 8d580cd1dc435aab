//! The parts of a branch-and-price node ([`super::branch_and_price`]): the together groups
//! and the decision filter, the node's starting master, the pairs to branch on and the
//! strong-branching comparison.

use super::{Column, CoveringMaster};
use crate::error::Result;

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

/// The decisions of a node in the form [`Filter::admits`] checks fast: per item its
/// together group (representative) and the group's size, and its apart partners.
pub(super) struct Filter {
    group: Vec<usize>,
    size: Vec<u32>,
    apart_of: Vec<Vec<usize>>,
    /// Scratch: per group, the column's items in it; per item, whether the column holds it.
    count: Vec<u32>,
    held: Vec<bool>,
}

impl Filter {
    pub(super) fn new(group: &[usize], apart: &[(usize, usize)]) -> Filter {
        let rows = group.len();
        let mut size = vec![0u32; rows];
        for &g in group {
            size[g] += 1;
        }
        let mut apart_of = vec![Vec::new(); rows];
        for &(i, j) in apart {
            apart_of[i].push(j);
            apart_of[j].push(i);
        }
        Filter {
            group: group.to_vec(),
            size,
            apart_of,
            count: vec![0; rows],
            held: vec![false; rows],
        }
    }

    /// Whether `col` honours the decisions: a column holding one member of a together group
    /// holds all of them, and no apart pair.
    pub(super) fn admits(&mut self, col: &Column) -> bool {
        for &(r, _) in col {
            self.held[r] = true;
            self.count[self.group[r]] += 1;
        }
        let ok = col.iter().all(|&(r, _)| {
            self.count[self.group[r]] == self.size[self.group[r]]
                && self.apart_of[r].iter().all(|&j| !self.held[j])
        });
        for &(r, _) in col {
            self.held[r] = false;
            self.count[self.group[r]] = 0;
        }
        ok
    }
}

/// The fractional pairs to branch on, at most `max`, best first: `f_ij = Σ_{c ∋ i, j} λ_c`
/// strictly between 0 and 1, closest to `target` (by default ½; ties: the smallest pair). A
/// partitioning solution that is fractional always has one; a covering one that over-covers
/// may not, and its node is then reported stuck.
pub(super) fn ranked_pairs(
    cols: &[Column],
    primal: &[f64],
    target: f64,
    max: usize,
) -> Vec<(usize, usize)> {
    let support: Vec<(usize, f64)> = primal
        .iter()
        .enumerate()
        .filter(|(_, &v)| v > 1e-9)
        .map(|(c, &v)| (c, v))
        .collect();
    let mut pair: std::collections::HashMap<(usize, usize), f64> = Default::default();
    for &(c, v) in &support {
        let items: Vec<usize> = cols[c].iter().map(|&(r, _)| r).collect();
        for (a, &i) in items.iter().enumerate() {
            for &j in &items[a + 1..] {
                *pair.entry((i.min(j), i.max(j))).or_default() += v;
            }
        }
    }
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
    let rows = demands.len();
    let group = together_groups(rows, together);
    let mut master = CoveringMaster::new(demands);
    let mut reps: Vec<usize> = group.clone();
    reps.sort_unstable();
    reps.dedup();
    for g in reps {
        master.add_column(
            (0..rows)
                .filter(|&r| group[r] == g)
                .map(|r| (r, 1.0))
                .collect(),
        )?;
    }
    let mut filter = Filter::new(&group, apart);
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
