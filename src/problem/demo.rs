//! `vcalloc demo`: every family's small instance solved by an exact method and a heuristic,
//! each answer verified, in one table. A newcomer's first run shows all seven families.
//!
//! The instances are the files of `data/examples/`, embedded in the binary, so the demo runs
//! from any directory; the table names the file so the same solve can be repeated by hand.

use super::registry::registry;
use super::Certificate;
use crate::error::{Error, Result};
use std::fmt::Write;
use std::time::Instant;

/// A family's part of the demo.
#[derive(Debug, Clone, Copy)]
pub struct Demo {
    /// The instance's file in the repository, e.g. `data/examples/periodic.json`.
    pub file: &'static str,
    /// Its text (`include_str!` of that file).
    pub text: &'static str,
    /// The exact method.
    pub exact: &'static str,
    /// The heuristic shown beside it.
    pub heuristic: &'static str,
    /// A line under the table when the rows need one (empty: none).
    pub note: &'static str,
}

impl Demo {
    /// The demo of `file` (its `text`) by `exact` and `heuristic`, with no note.
    pub const fn of(
        file: &'static str,
        text: &'static str,
        exact: &'static str,
        heuristic: &'static str,
    ) -> Demo {
        Demo {
            file,
            text,
            exact,
            heuristic,
            note: "",
        }
    }
}

/// Seconds each demo solve may take: the seven families' fourteen solves stay within 30 s on
/// a slow machine even if one ran to its limit (they take well under a second each).
pub const DEMO_SECONDS: f64 = 10.0;

/// One solve of the demo: the family, the instance's summary and the verified certificate.
#[derive(Debug, Clone)]
pub struct DemoRun {
    /// The family's registry name.
    pub problem: &'static str,
    /// The instance file.
    pub file: &'static str,
    /// The certificate (already re-checked by the family's `verify`).
    pub certificate: Certificate,
    /// [`Demo::note`].
    pub note: &'static str,
}

/// Solves every family's demo and returns the text `vcalloc demo` prints.
pub fn run() -> Result<String> {
    let start = Instant::now();
    let mut runs = Vec::new();
    for entry in registry() {
        if let Some(r) = entry.demo(DEMO_SECONDS) {
            runs.extend(r?);
        }
    }
    if runs.is_empty() {
        return Err(Error::Consistency("no family has a demo".into()));
    }
    Ok(render(&runs, start.elapsed().as_secs_f64()))
}

fn render(runs: &[DemoRun], seconds: f64) -> String {
    let mut out = String::from(
        "vcalloc demo: every family's small instance (data/examples/), an exact method and a heuristic\n\n",
    );
    let _ = writeln!(
        out,
        "{:<11} {:<30} {}",
        "problem",
        "instance",
        super::TABLE_HEADER
    );
    for r in runs {
        let cells = super::certificate_cells(&r.certificate);
        let _ = writeln!(out, "{:<11} {:<30} {cells}", r.problem, r.file);
    }
    out.push('\n');
    for r in runs.iter().filter(|r| !r.note.is_empty()).step_by(2) {
        let _ = writeln!(out, "{}: {}", r.problem, r.note);
    }
    let _ = writeln!(
        out,
        "{} answers, each re-checked by the family's verify (as `vcalloc verify` does); {seconds:.1} s in all.\n\
         The bound is a proven lower bound when minimising, upper when maximising; the gap is to it.\n\
         Repeat one: vcalloc solve PROBLEM FILE --method METHOD (from the repository's root).",
        runs.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_a_demo_whose_exact_method_beats_its_heuristic() {
        let runs: Vec<DemoRun> = registry()
            .iter()
            .map(|e| e.demo(DEMO_SECONDS).expect("every family has a demo"))
            .collect::<Result<Vec<_>>>()
            .expect("the demos solve")
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(runs.len(), 2 * registry().len());
        for pair in runs.chunks(2) {
            let (exact, heuristic) = (&pair[0].certificate, &pair[1].certificate);
            assert!(
                exact.status != crate::Status::Unknown
                    && heuristic.status != crate::Status::Unknown,
                "{}: {exact:?} {heuristic:?}",
                pair[0].problem
            );
            assert!(
                exact.gap.unwrap() <= heuristic.gap.unwrap() + 1e-9,
                "{}: {exact:?} {heuristic:?}",
                pair[0].problem
            );
            let (e, h) = (exact.objective.unwrap(), heuristic.objective.unwrap());
            let worse_by = match exact.sense {
                super::super::Sense::Maximize => h - e,
                super::super::Sense::Minimize => e - h,
            };
            assert!(
                worse_by <= 1e-6,
                "{}: the exact answer {exact:?} is worse than the heuristic's {heuristic:?}",
                pair[0].problem
            );
        }
        let text = render(&runs, 0.0);
        for e in registry() {
            assert!(text.contains(e.name()), "{text}");
        }
    }
}
