//! Multi-capacity bin packing heuristics MCB1–MCB8 (RR-6692 §3.4), after Leinberger et al.
//!
//! For a trial yield `Y`, job `i` needs CPU `c_i = α_i Y` and memory `m_i`. Jobs are split
//! into a CPU-heavy list (`c_i > m_i`) and a memory-heavy list (the rest), each sorted by the
//! variant's key. Hosts are filled one at a time: the first job comes from the CPU-heavy list
//! (or the other if none fits), and each next job from the list that goes against the host's
//! current imbalance — CPU-heavy jobs when more memory than CPU is used, memory-heavy jobs
//! otherwise — falling back to the other list. A binary search on `Y` keeps the best yield
//! at which every job is packed.

use super::allocation::Placement;
use super::instance::Instance;

/// Sorting key of each MCB variant, applied to `(c, m)` = (CPU need at `Y`, memory need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McbKey {
    /// `c + m`.
    Sum,
    /// `max − min`.
    Difference,
    /// `max / min`.
    Ratio,
    /// `max`.
    Max,
}

/// MCB variant `k` (1–8): keys in the paper's order, ascending for 1–4, descending for 5–8.
pub fn variant(k: u8) -> (McbKey, bool) {
    let key = match (k - 1) % 4 {
        0 => McbKey::Sum,
        1 => McbKey::Difference,
        2 => McbKey::Ratio,
        _ => McbKey::Max,
    };
    (key, k >= 5)
}

fn key_value(key: McbKey, c: f64, m: f64) -> f64 {
    let (hi, lo) = if c >= m { (c, m) } else { (m, c) };
    match key {
        McbKey::Sum => c + m,
        McbKey::Difference => hi - lo,
        McbKey::Ratio => hi / lo,
        McbKey::Max => hi,
    }
}

/// One packing attempt at yield `y`; `None` when some job is left over.
pub fn pack(inst: &Instance, key: McbKey, descending: bool, y: f64) -> Option<Placement> {
    let mut cpu_heavy: Vec<(f64, usize)> = Vec::new();
    let mut mem_heavy: Vec<(f64, usize)> = Vec::new();
    for (i, j) in inst.jobs.iter().enumerate() {
        let c = j.cpu * y;
        let entry = (key_value(key, c, j.mem), i);
        if c > j.mem {
            cpu_heavy.push(entry);
        } else {
            mem_heavy.push(entry);
        }
    }
    let cmp = |a: &(f64, usize), b: &(f64, usize)| {
        let k = if descending {
            b.0.total_cmp(&a.0)
        } else {
            a.0.total_cmp(&b.0)
        };
        k.then(a.1.cmp(&b.1))
    };
    cpu_heavy.sort_by(cmp);
    mem_heavy.sort_by(cmp);
    let mut lists = [
        cpu_heavy.into_iter().map(|e| e.1).collect::<Vec<_>>(),
        mem_heavy.into_iter().map(|e| e.1).collect::<Vec<_>>(),
    ];
    let mut placement = vec![usize::MAX; inst.num_jobs()];
    let mut left = inst.num_jobs();
    for host in 0..inst.hosts {
        let (mut used_c, mut used_m) = (0.0_f64, 0.0_f64);
        loop {
            // Against the imbalance: more memory used than CPU → look for a CPU-heavy job.
            let first = if used_m >= used_c { 0 } else { 1 };
            let mut placed = false;
            for l in [first, 1 - first] {
                let found = lists[l].iter().position(|&i| {
                    used_c + inst.jobs[i].cpu * y <= 1.0 && used_m + inst.jobs[i].mem <= 1.0
                });
                if let Some(pos) = found {
                    let i = lists[l].remove(pos);
                    used_c += inst.jobs[i].cpu * y;
                    used_m += inst.jobs[i].mem;
                    placement[i] = host;
                    left -= 1;
                    placed = true;
                    break;
                }
            }
            if !placed || left == 0 {
                break;
            }
        }
        if left == 0 {
            return Some(placement);
        }
    }
    None
}

/// Result of the binary search.
#[derive(Debug, Clone, PartialEq)]
pub struct McbResult {
    /// The placement of the best successful trial yield.
    pub placement: Option<Placement>,
    /// Packing attempts made.
    pub trials: u32,
    /// The yield of the binary search: the largest trial yield at which every job was
    /// packed (`upper` when the upper end packs; 0 when nothing packed). RR-6692 §3.4 scores
    /// the placement by this value; the placement's own optimal minimum yield
    /// (`min_j min(1, 1/L_j)`) is at least it.
    pub search_yield: f64,
}

/// MCB variant `k` with a binary search on the yield over `[0, upper]`, stopping when the
/// bracket is narrower than `tolerance`. The upper end is tried first: if it packs, the
/// placement meets the bound and the search is over.
pub fn mcb(inst: &Instance, k: u8, upper: f64, tolerance: f64) -> McbResult {
    let (key, desc) = variant(k);
    let mut trials = 1;
    if let Some(p) = pack(inst, key, desc, upper) {
        return McbResult {
            placement: Some(p),
            trials,
            search_yield: upper,
        };
    }
    let (mut lo, mut hi) = (0.0, upper);
    let mut best = None;
    while hi - lo > tolerance {
        let mid = 0.5 * (lo + hi);
        trials += 1;
        match pack(inst, key, desc, mid) {
            Some(p) => {
                lo = mid;
                best = Some(p);
            }
            None => hi = mid,
        }
    }
    McbResult {
        search_yield: if best.is_some() { lo } else { 0.0 },
        placement: best,
        trials,
    }
}

/// How an MCB placement is scored (`Settings::mcb_score`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum McbScore {
    /// The placement's optimal minimum yield `min_j min(1, 1/L_j)` (ours, the default): every
    /// job gets `α_i Y` at that `Y` before the average-yield phase.
    #[default]
    Placement,
    /// The binary search's yield (RR-6692 §3.4, as the paper scores MCB): every job gets
    /// `α_i Y_s` at the search's `Y_s` before the average-yield phase, which then starts from
    /// that floor. Without the phase the reported minimum yield is `Y_s` exactly.
    Search,
}
