//! Ryan–Foster decisions as a pricing sees them: the together-groups (items that must share a
//! bin, merged into one candidate), the apart conflicts between groups, and the groups no bin
//! may take (they hold both items of an apart pair). Every bin-packing-like pricing builds the
//! same structure from [`crate::colgen::BranchPricing::restrict`]'s pairs.

use super::together_groups;

/// The groups and their conflicts under a node's decisions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decisions {
    /// Members of each group (a group is an item or a together-set), groups in order of their
    /// smallest member, members ascending.
    pub groups: Vec<Vec<usize>>,
    /// Per group, the groups it may not share a bin with.
    pub conflicts: Vec<Vec<usize>>,
    /// Groups that hold both items of an apart pair: no bin may take them.
    pub forbidden: Vec<bool>,
    /// Per item, its group.
    pub group_of: Vec<usize>,
}

impl Decisions {
    /// No decision: every group is one item and no group conflicts with another (the root).
    pub fn is_empty(&self) -> bool {
        self.groups.iter().all(|g| g.len() == 1) && self.conflicts.iter().all(Vec::is_empty)
    }

    /// The groups of `items` items under `together` and `apart` pairs.
    pub fn new(items: usize, together: &[(usize, usize)], apart: &[(usize, usize)]) -> Self {
        let rep = together_groups(items, together);
        let mut group_of = vec![usize::MAX; items];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..items {
            let r = rep[i];
            if group_of[r] == usize::MAX {
                group_of[r] = groups.len();
                groups.push(Vec::new());
            }
            group_of[i] = group_of[r];
            groups[group_of[i]].push(i);
        }
        let mut conflicts = vec![Vec::new(); groups.len()];
        let mut forbidden = vec![false; groups.len()];
        for &(i, j) in apart {
            let (a, b) = (group_of[i], group_of[j]);
            if a == b {
                forbidden[a] = true;
            } else {
                conflicts[a].push(b);
                conflicts[b].push(a);
            }
        }
        Decisions {
            groups,
            conflicts,
            forbidden,
            group_of,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_merge_together_pairs_and_apart_pairs_conflict() {
        let d = Decisions::new(5, &[(3, 1)], &[(0, 3), (2, 4)]);
        assert_eq!(d.groups, vec![vec![0], vec![1, 3], vec![2], vec![4]]);
        assert_eq!(d.conflicts[0], vec![1]);
        assert_eq!(d.conflicts[1], vec![0]);
        assert_eq!(d.conflicts[2], vec![3]);
        assert!(d.forbidden.iter().all(|&f| !f));
        let e = Decisions::new(3, &[(0, 1)], &[(1, 0)]);
        assert!(e.forbidden[0]);
    }
}
