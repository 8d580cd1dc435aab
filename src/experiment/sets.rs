//! Instance sets enumerated deterministically: an instance is identified by (set,
//! specification, index) and its seed derives from its workload group, index and the base
//! seed, so any shard, rerun or other tool regenerates the same instance. The problems list
//! their specifications; [`expand`] turns them into instances.

use crate::problem::SweepInstance;

/// SplitMix64: a seed per (base, ordinal of the specification, index) with no collisions in
/// practice and no dependence on the order of the run.
pub fn derive_seed(base: u64, spec: usize, index: usize) -> u64 {
    let mut z = base
        ^ (spec as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (index as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One specification of a set before expansion.
#[derive(Debug, Clone)]
pub struct SpecEntry<S> {
    /// Identifier prefix (`-i<index>` is appended).
    pub id: String,
    /// Workload group: specifications of one group share their seeds (the budgets of one
    /// adapted workload), otherwise each its own.
    pub group: usize,
    /// Parameters recorded in the CSV.
    pub params: Vec<(&'static str, String)>,
    /// The generator specification (its seed is set per instance).
    pub spec: S,
}

/// `per_spec` instances of every specification, in order, each with the seed derived from
/// its group and index, written into its specification by `with_seed`.
pub fn expand<S>(
    specs: Vec<SpecEntry<S>>,
    per_spec: usize,
    base_seed: u64,
    with_seed: impl Fn(&S, u64) -> S,
) -> Vec<SweepInstance<S>> {
    let mut out = Vec::with_capacity(specs.len() * per_spec);
    for e in specs {
        for index in 0..per_spec {
            let seed = derive_seed(base_seed, e.group, index);
            out.push(SweepInstance {
                id: format!("{}-i{index}", e.id),
                index,
                seed,
                params: e.params.clone(),
                spec: with_seed(&e.spec, seed),
            });
        }
    }
    out
}
