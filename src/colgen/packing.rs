//! What every bin-packing-like family built on the covering master shares about its answers:
//! a covering made a partition, and the check of a partition and its certificate.

use crate::problem::Certificate;
use crate::Violation;

/// A covering's columns made a partition of `items` rows: each row kept in the first column
/// that holds it, empty columns dropped (a covering may hold a row twice).
pub fn partition(items: usize, cols: &[super::Column]) -> Vec<Vec<usize>> {
    let mut placed = vec![false; items];
    let mut bins = Vec::new();
    for c in cols {
        let bin: Vec<usize> = c
            .iter()
            .map(|&(r, _)| r)
            .filter(|&r| !std::mem::replace(&mut placed[r], true))
            .collect();
        if !bin.is_empty() {
            bins.push(bin);
        }
    }
    bins
}

/// Bins of unit items as covering columns (coefficient 1 per item): the inverse of
/// [`partition`].
pub fn unit_columns(bins: &[Vec<usize>]) -> Vec<super::Column> {
    bins.iter()
        .map(|b| b.iter().map(|&i| (i, 1.0)).collect())
        .collect()
}

/// The checks every packing answer needs besides its bins' capacities: each of the `items` in
/// exactly one bin, no empty bin, the objective the bin count, the bound at most it (and, for
/// the heuristics `ffd`/`bfd`, at most the closed-form bound `closed_form` they report),
/// `optimal` only with bound = objective. `over` names a bin over capacity (`None`: it fits);
/// it sees the bin's items that are in range.
pub fn check_partition(
    items: usize,
    bins: &[Vec<usize>],
    c: &Certificate,
    closed_form: u64,
    over: impl Fn(&[usize]) -> Option<String>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = vec![0u32; items];
    for (k, bin) in bins.iter().enumerate() {
        let inside: Vec<usize> = bin.iter().copied().filter(|&i| i < items).collect();
        if inside.len() < bin.len() {
            out.push(Violation::new(
                "item",
                format!("bin {k} holds an item not in 0..{items}"),
            ));
        }
        for &i in &inside {
            seen[i] += 1;
        }
        if let Some(why) = over(&inside) {
            out.push(Violation::new("capacity", format!("bin {k}: {why}")));
        }
        if bin.is_empty() {
            out.push(Violation::new("bin", format!("bin {k} is empty")));
        }
    }
    for (i, &k) in seen.iter().enumerate() {
        if k != 1 {
            out.push(Violation::new(
                "assignment",
                format!("item {i} is in {k} bins"),
            ));
        }
    }
    let used = bins.len() as f64;
    if c.objective != Some(used) {
        out.push(Violation::new(
            "objective",
            format!("reported {:?}, {used} bins used", c.objective),
        ));
    }
    if let Some(b) = c.bound {
        if b > used {
            out.push(Violation::new(
                "bound",
                format!("bound {b} above the {used} bins used"),
            ));
        }
        if (c.method == "ffd" || c.method == "bfd") && b > closed_form as f64 {
            out.push(Violation::new(
                "bound",
                format!("bound {b} above the closed form {closed_form}"),
            ));
        }
    }
    if c.status == crate::Status::Optimal && c.bound != c.objective {
        out.push(Violation::new(
            "optimality",
            "optimal without a matching bound".to_string(),
        ));
    }
    out
}

/// Bins found by a pricing search (value, items, best first), whether the search completed,
/// and the nodes it spent.
pub type Searched = (Vec<(f64, Vec<usize>)>, bool, u64);

/// The pricing answer of a bin-packing-like oracle: `search(limit, exact)` with `quick` nodes
/// first, and the exact search (`limit` nodes) only when the quick one found no bin above
/// `floor` and no dive is on (a dive wants cheap columns, not proofs). A complete search
/// proves no bin above its best or the `aim` it pruned at.
pub fn quick_then_exact(
    mut search: impl FnMut(u64, bool) -> Searched,
    quick: u64,
    limit: u64,
    floor: f64,
    aim: f64,
    diving: bool,
) -> super::Priced {
    let (mut bins, mut complete, mut nodes) = search(quick.min(limit), false);
    if !complete && !diving && bins.first().is_none_or(|b| b.0 <= floor) {
        let (b, c, n) = search(limit, true);
        (bins, complete, nodes) = (b, c, nodes + n);
    }
    let best = bins.first().map_or(0.0, |b| b.0).max(aim);
    super::Priced {
        columns: bins_as_columns(bins),
        proven_max: complete.then_some(best),
        upper_bound: None,
        nodes,
    }
}

/// Bins (value, items) as columns (one unit of each item), each with its value.
pub fn bins_as_columns(bins: Vec<(f64, Vec<usize>)>) -> Vec<(super::Column, f64)> {
    bins.into_iter()
        .map(|(v, items)| (items.into_iter().map(|i| (i, 1.0)).collect(), v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_keeps_first_copy() {
        let cols = vec![
            vec![(0, 1.0), (2, 1.0)],
            vec![(2, 1.0)],
            vec![(1, 1.0), (0, 1.0)],
        ];
        assert_eq!(partition(3, &cols), vec![vec![0, 2], vec![1]]);
    }
}
