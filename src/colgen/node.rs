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

/// What a node's master is made from: the decisions `together` / `apart`, the pool, and for a
/// fresh master at most `pool_per_row × rows` pool columns, those of least reduced cost at
/// `duals` (the parent's).
pub(super) struct NodeStart<'a> {
    pub(super) demands: &'a [f64],
    pub(super) pool: &'a [Column],
    pub(super) together: &'a [(usize, usize)],
    pub(super) apart: &'a [(usize, usize)],
    pub(super) duals: Option<&'a [f64]>,
    pub(super) pool_per_row: f64,
}

/// The fresh master of a node: one column per together group (feasible, since each group was
/// formed inside a column of an ancestor's master) and the compatible pool columns, at most
/// `pool_per_row × rows` of them, those of least reduced cost at `duals` (a master of the
/// whole pool, 8,000 columns on Hard28, made HiGHS most of a node's time).
fn node_master(start: &NodeStart) -> Result<CoveringMaster> {
    let NodeStart {
        demands,
        pool,
        together,
        apart,
        duals,
        pool_per_row,
    } = *start;
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

/// The tree's master kept alive from node to node ([`super::BpSettings::warm_nodes`]): every
/// pool column is in it, and a node holds at 0 those its decisions do not admit
/// ([`CoveringMaster::set_enabled`]), so that its first solve is a dual simplex from the last
/// node's basis instead of a fresh LP over the whole pool (on ANI 201 a fresh master took
/// 3,400 primal simplex iterations and most of a node's time). Any subset of admitted
/// columns is a correct start (the pricing is exact under the decisions and the bound is
/// Farley's), so this changes a node's cost and its path, never its bound's validity.
pub(super) struct TreeMaster {
    master: CoveringMaster,
    /// Pool columns looked at so far (the pool only grows).
    synced: usize,
    /// Master columns indexed so far.
    indexed: usize,
    /// The master's column of each key (its rows), the latest if there are copies.
    index: HashMap<Vec<usize>, usize>,
}

impl TreeMaster {
    /// A master over the pool for the node `start`.
    fn new(start: &NodeStart) -> Result<TreeMaster> {
        let mut tree = TreeMaster {
            master: CoveringMaster::new(start.demands),
            synced: 0,
            indexed: 0,
            index: HashMap::new(),
        };
        tree.prepare(start)?;
        Ok(tree)
    }

    /// Makes the master the node's: the pool's new columns join it, the node's group columns
    /// (one per together group) are in it, and exactly the admitted columns are free.
    fn prepare(&mut self, start: &NodeStart) -> Result<()> {
        self.absorb();
        let decisions = Decisions::new(start.demands.len(), start.together, start.apart);
        let groups: Vec<Column> = decisions
            .groups
            .iter()
            .map(|members| members.iter().map(|&r| (r, 1.0)).collect())
            .collect();
        let mut filter = Filter::new(decisions);
        let pool = start.pool;
        for col in pool[self.synced.min(pool.len())..].iter().chain(&groups) {
            let present = self
                .index
                .get(&key(col))
                .is_some_and(|&k| self.master.is_live(k));
            if !present {
                let on = filter.admits(col);
                self.master.add_column_enabled(col.clone(), on)?;
                self.absorb();
            }
        }
        self.synced = pool.len();
        for k in 0..self.master.len() {
            if self.master.is_live(k) {
                let on = filter.admits(&self.master.columns()[k]);
                self.master.set_enabled(k, on)?;
            }
        }
        Ok(())
    }

    /// Indexes the columns the master gained since the last call (by column generation).
    fn absorb(&mut self) {
        for k in self.indexed..self.master.len() {
            self.index.insert(key(&self.master.columns()[k]), k);
        }
        self.indexed = self.master.len();
    }
}

/// A unit column's rows in order: equal bins share it.
pub(super) fn key(col: &Column) -> Vec<usize> {
    let mut rows: Vec<usize> = col.iter().map(|&(r, _)| r).collect();
    rows.sort_unstable();
    rows
}

/// The master a node (or a strong-branching child) starts from: the tree's, prepared for
/// the node, when `warm`, else a fresh one ([`node_master`]) in `fresh`.
pub(super) fn node_lp<'a>(
    tree: &'a mut Option<TreeMaster>,
    fresh: &'a mut Option<CoveringMaster>,
    warm: bool,
    start: &NodeStart,
) -> Result<&'a mut CoveringMaster> {
    if warm {
        match tree {
            Some(t) => t.prepare(start)?,
            None => *tree = Some(TreeMaster::new(start)?),
        }
        Ok(&mut tree.as_mut().expect("made above").master)
    } else {
        Ok(fresh.insert(node_master(start)?))
    }
}
