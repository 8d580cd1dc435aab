//! The MILP of RR-6692 §2.5 (equations 3–11), its parallel-job form (§5.1, equations 12–21),
//! and its adaptation form (§6.1, equation 31); its rational relaxation (§3.1) is in
//! [`super::relaxation`].
//!
//! Variables: `e_t_j ∈ {0,1}` (task `t` on host `j`), `a_t_j ∈ [0,1]` (CPU fraction of task `t`
//! on host `j`), `Y ∈ [0,1]`; maximise `Y`. Tasks are named `i` for a sequential instance
//! (equations 3–11 exactly) and `i_k` (job `i`, task `k`) when some job is parallel. Rows are
//! named after the paper's equations (`c6_t_j`, `c7_t`, …, `c11_i`; `c20_i_k` ties task `k`
//! to task `k + 1`; `c31` is the migration budget). See `models/vcsched.md` for the
//! derivation and what we add (symmetry breaking between identical hosts and between the
//! interchangeable tasks of a job).

use super::instance::Instance;
use crate::solver::{self, Bounds, BuildClock, Deadline, LinearModel, Sense};

/// How the MILP is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formulation {
    /// Fix `e_t_j = 0` for `j > t`: hosts are identical, so any placement can be relabelled
    /// so that task `t` sits on one of the first `t + 1` hosts; and order the hosts of the
    /// interchangeable tasks of a job (`Σ_j j e_t_j ≤ Σ_j j e_{t+1}_j`). Valid for the
    /// integer program only; the relaxation used as the §3.1 bound is built without it. An
    /// adaptation makes hosts distinct (tasks have current hosts): host relabelling is then
    /// off, and only tasks of a job with the same current host are ordered.
    pub symmetry_breaking: bool,
}

/// Column layout of the model built by [`build`].
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    hosts: usize,
    tasks: usize,
}

impl Layout {
    /// Column of `e_t_j`.
    pub fn e(&self, t: usize, j: usize) -> usize {
        t * self.hosts + j
    }
    /// Column of `a_t_j`.
    pub fn a(&self, t: usize, j: usize) -> usize {
        self.tasks * self.hosts + t * self.hosts + j
    }
    /// Column of `Y`.
    pub fn y(&self) -> usize {
        2 * self.tasks * self.hosts
    }
}

/// Builds the MILP for `inst`: equations 3–11 for sequential jobs, 12–21 when some job is
/// parallel, plus equation 31 when the instance has current hosts and a budget.
pub fn build(inst: &Instance, f: Formulation) -> (LinearModel, Layout) {
    build_until(inst, f, &mut BuildClock::new(&Deadline::none()))
}

/// The size of [`build`]'s model, counted without building it: `(rows, columns, nonzeros)`.
pub fn size(inst: &Instance, f: Formulation) -> (u64, u64, u64) {
    let (h, n) = (inst.hosts as u64, inst.num_tasks() as u64);
    let job_of = inst.task_jobs();
    let adapting = inst.is_adaptation();
    let budget = inst.budget.is_some() && adapting;
    let pairs = |t: usize| t + 1 < job_of.len() && job_of[t + 1] == job_of[t];
    let ordered = |t: usize| {
        f.symmetry_breaking
            && pairs(t)
            && (!adapting || inst.current_host(t) == inst.current_host(t + 1))
    };
    let (mut rows, mut nonzeros) = (n * h + 2 * n + 2 * h + inst.num_jobs() as u64, 0);
    for t in 0..job_of.len() {
        let (c20, order) = (u64::from(pairs(t)), u64::from(ordered(t)));
        rows += c20 + order;
        let before = t.checked_sub(1);
        let c20_before = u64::from(before.is_some_and(pairs));
        let order_before = u64::from(before.is_some_and(ordered));
        let moves = match (budget, inst.current_host(t)) {
            (true, Some(c)) if (c as u64) < h => h - 1,
            (true, Some(_)) => h,
            _ => 0,
        };
        nonzeros += h * (3 + order + order_before + 4 + c20 + c20_before) + moves;
    }
    rows += u64::from(budget);
    (rows, 2 * n * h + 1, nonzeros + inst.num_jobs() as u64)
}

/// [`build`] under a deadline: the clock ticks once per row and column, and once it has
/// expired the build stops, leaving a partial model the caller must drop (it checks
/// [`BuildClock::expired`]).
pub fn build_until(
    inst: &Instance,
    f: Formulation,
    clock: &mut BuildClock,
) -> (LinearModel, Layout) {
    let (h, n) = (inst.hosts, inst.num_tasks());
    let job_of = inst.task_jobs();
    // Task `t` is task `k` of job `job_of[t]`: `i_k` when some job is parallel, `t` otherwise.
    let parallel = inst.is_parallel();
    let label: Vec<String> = inst
        .jobs
        .iter()
        .enumerate()
        .flat_map(|(i, job)| {
            (0..job.tasks).map(move |k| {
                if parallel {
                    format!("{i}_{k}")
                } else {
                    i.to_string()
                }
            })
        })
        .collect();
    let adapting = inst.is_adaptation();
    let mut m = LinearModel::new(Sense::Maximize);
    let layout = Layout { hosts: h, tasks: n };
    // Rows first: the model is built column-wise.
    let mut c6: Vec<Vec<_>> = Vec::with_capacity(n);
    for task in &label {
        let mut row = Vec::with_capacity(h);
        for j in 0..h {
            if clock.tick() {
                return (m, layout);
            }
            row.push(m.add_row(format!("c6_{task}_{j}"), Bounds::at_most(0.0)));
        }
        c6.push(row);
    }
    let c7: Vec<_> = (0..n)
        .map(|t| m.add_row(format!("c7_{}", label[t]), Bounds::equal(1.0)))
        .collect();
    let (mut c8, mut c9) = (Vec::with_capacity(h), Vec::with_capacity(h));
    for j in 0..h {
        if clock.tick() {
            return (m, layout);
        }
        c8.push(m.add_row(format!("c8_{j}"), Bounds::at_most(1.0)));
    }
    for j in 0..h {
        if clock.tick() {
            return (m, layout);
        }
        c9.push(m.add_row(format!("c9_{j}"), Bounds::at_most(1.0)));
    }
    let c10: Vec<_> = (0..n)
        .map(|t| {
            let cap = inst.jobs[job_of[t]].cpu;
            m.add_row(format!("c10_{}", label[t]), Bounds::at_most(cap))
        })
        .collect();
    // Eq. 20: equal CPU for the tasks of a job, chained task k = task k + 1.
    let c20: Vec<Option<_>> = (0..n)
        .map(|t| {
            (t + 1 < n && job_of[t + 1] == job_of[t])
                .then(|| m.add_row(format!("c20_{}", label[t]), Bounds::equal(0.0)))
        })
        .collect();
    // Interchangeable tasks of a job: hosts in non-decreasing order.
    let order: Vec<Option<_>> = (0..n)
        .map(|t| {
            let same_job = t + 1 < n && job_of[t + 1] == job_of[t];
            let same_current = !adapting || inst.current_host(t) == inst.current_host(t + 1);
            (f.symmetry_breaking && same_job && same_current)
                .then(|| m.add_row(format!("order_{}", label[t]), Bounds::at_most(0.0)))
        })
        .collect();
    let c11: Vec<_> = (0..inst.num_jobs())
        .map(|i| m.add_row(format!("c11_{i}"), Bounds::at_least(0.0)))
        .collect();
    let c31 = inst
        .budget
        .filter(|_| adapting)
        .map(|b| m.add_row("c31", Bounds::at_most(b)));
    for (t, job) in inst.tasks().enumerate() {
        for j in 0..h {
            if clock.tick() {
                return (m, layout);
            }
            let upper = if f.symmetry_breaking && !adapting && j > t {
                0.0
            } else {
                1.0
            };
            let mut entries = vec![(c6[t][j], -1.0), (c7[t], 1.0), (c9[j], job.mem)];
            if let Some(r) = order[t] {
                entries.push((r, j as f64));
            }
            if let Some(r) = t.checked_sub(1).and_then(|p| order[p]) {
                entries.push((r, -(j as f64)));
            }
            if let (Some(r), Some(c)) = (c31, inst.current_host(t)) {
                if c != j {
                    entries.push((r, job.mem));
                }
            }
            m.add_col(
                format!("e_{}_{j}", label[t]),
                0.0,
                Bounds::new(0.0, upper),
                true,
                entries,
            );
        }
    }
    for (t, job) in inst.tasks().enumerate() {
        let share = 1.0 / (job.cpu * f64::from(job.tasks));
        for j in 0..h {
            if clock.tick() {
                return (m, layout);
            }
            let mut entries = vec![
                (c6[t][j], 1.0),
                (c8[j], 1.0),
                (c10[t], 1.0),
                (c11[job_of[t]], share),
            ];
            if let Some(r) = c20[t] {
                entries.push((r, 1.0));
            }
            if let Some(r) = t.checked_sub(1).and_then(|p| c20[p]) {
                entries.push((r, -1.0));
            }
            m.add_col(
                format!("a_{}_{j}", label[t]),
                0.0,
                Bounds::new(0.0, 1.0),
                false,
                entries,
            );
        }
    }
    let y_entries = c11.iter().map(|&r| (r, -1.0)).collect();
    m.add_col("Y", 1.0, Bounds::new(0.0, 1.0), false, y_entries);
    (m, layout)
}

/// A feasible column vector for a placement: `a_ij = α_i Y` with `Y` its minimum yield.
pub fn start_vector(inst: &Instance, layout: &Layout, placement: &[usize], y: f64) -> Vec<f64> {
    let mut x = vec![0.0; layout.y() + 1];
    for (t, (&j, job)) in placement.iter().zip(inst.tasks()).enumerate() {
        x[layout.e(t, j)] = 1.0;
        x[layout.a(t, j)] = job.cpu * y;
    }
    x[layout.y()] = y;
    x
}

/// Reads a placement off an integer solution (the host with the largest `e_t_j`).
pub fn placement_of(layout: &Layout, x: &[f64]) -> Vec<usize> {
    (0..layout.tasks)
        .map(|i| {
            (0..layout.hosts)
                .max_by(|&p, &q| {
                    x[layout.e(i, p)]
                        .total_cmp(&x[layout.e(i, q)])
                        .then(q.cmp(&p))
                })
                .unwrap_or(0)
        })
        .collect()
}

/// The MILP of `inst` as a CPLEX LP file; `source` names the instance in the header comment.
pub fn lp_file(inst: &Instance, source: &str, symmetry_breaking: bool) -> String {
    model_file(inst, source, symmetry_breaking, solver::ModelFormat::Lp)
}

/// The MILP as [`lp_file`] writes it, in CPLEX LP or MPS.
pub fn model_file(
    inst: &Instance,
    source: &str,
    symmetry_breaking: bool,
    format: solver::ModelFormat,
) -> String {
    let (model, _) = build(inst, Formulation { symmetry_breaking });
    let equations = match (inst.is_parallel(), inst.is_adaptation()) {
        (false, false) => "VCSched MILP, RR-6692 section 2.5, equations 3-11",
        (true, false) => "VCSched MILP for parallel jobs, RR-6692 section 5.1, equations 12-21",
        (false, true) => "VCSched adaptation MILP, RR-6692 section 6.1, equations 22-31",
        (true, true) => "VCSched adaptation MILP for parallel jobs, RR-6692 equations 12-21 and 31",
    };
    let mut comment = vec![
        format!("{equations} (see models/vcsched.md)"),
        format!(
            "instance: {source}: {} hosts, {} jobs",
            inst.hosts,
            inst.num_jobs()
        ),
        format!("symmetry breaking (e_i_j = 0 for j > i): {symmetry_breaking}"),
    ];
    if inst.is_parallel() {
        comment[1] += &format!(", {} tasks (task k of job i is i_k)", inst.num_tasks());
    }
    format.write(&model, &comment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcsched::generate::{generate, Spec};
    use crate::vcsched::perturb::{adaptation, Perturbation};

    fn counted(inst: &Instance, f: Formulation) -> (u64, u64, u64) {
        let (m, _) = build(inst, f);
        let nonzeros = m.cols.iter().map(|c| c.entries.len() as u64).sum();
        (m.rows.len() as u64, m.cols.len() as u64, nonzeros)
    }

    /// The size counted before the build (the guard's) is the built model's, for sequential,
    /// parallel and budgeted adaptation instances, with and without symmetry breaking.
    #[test]
    fn the_size_counted_before_the_build_is_the_built_size() {
        let spec = |parallel| Spec {
            hosts: 5,
            jobs: 12,
            slack: 0.3,
            cv_mem: 0.5,
            cv_cpu: 0.5,
            seed: 3,
            parallel,
        };
        let adapted = adaptation(&spec(false), &Perturbation::default(), Some(1.0)).unwrap();
        assert!(adapted.is_adaptation() && adapted.budget.is_some());
        let instances = [
            generate(&spec(false)).unwrap(),
            generate(&spec(true)).unwrap(),
            adapted,
        ];
        for inst in &instances {
            for symmetry_breaking in [false, true] {
                let f = Formulation { symmetry_breaking };
                assert_eq!(size(inst, f), counted(inst, f), "{symmetry_breaking}");
            }
        }
    }

    /// A build whose deadline has passed stops at the clock's first reading.
    #[test]
    fn a_build_past_its_deadline_stops_early() {
        let spec = Spec {
            hosts: 40,
            jobs: 200,
            slack: 0.3,
            cv_mem: 0.5,
            cv_cpu: 0.5,
            seed: 1,
            parallel: false,
        };
        let inst = generate(&spec).unwrap();
        let f = Formulation {
            symmetry_breaking: true,
        };
        let mut clock = BuildClock::new(&Deadline::after(Some(0.0)));
        let (m, _) = build_until(&inst, f, &mut clock);
        assert!(clock.expired());
        assert!(m.rows.len() + m.cols.len() < BuildClock::EVERY as usize);
        // The whole model is many readings long.
        assert!(size(&inst, f).1 > 10 * BuildClock::EVERY);
    }
}
