//! Plain-text tables of solutions.

use vcalloc::vcsched::Solution;

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

/// The header and one row per solution.
pub fn render(solutions: &[Solution]) -> String {
    let mut out = format!(
        "{:<10} {:<10} {:>9} {:>9} {:>11} {:>9} {:>9}\n",
        "method", "status", "min yield", "avg yield", "upper bound", "gap", "seconds"
    );
    for s in solutions {
        out.push_str(&format!(
            "{:<10} {:<10} {:>9} {:>9} {:>11} {:>9} {:>9.4}\n",
            s.method,
            s.status.as_str(),
            opt(s.min_yield, 4),
            opt(s.avg_yield, 4),
            opt(s.upper_bound, 4),
            s.gap
                .map_or_else(|| "-".into(), |g| format!("{:.2}%", 100.0 * g)),
            s.seconds
        ));
    }
    out
}
