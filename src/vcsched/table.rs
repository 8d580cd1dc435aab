//! Plain-text tables of solutions.

use super::Solution;

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

/// The header and one row per solution; adaptations get a column of memory moved / budget.
pub fn render(solutions: &[&Solution]) -> String {
    let adapting = solutions
        .iter()
        .any(|s| s.budget.is_some() || s.migration.is_some());
    let mut out = format!(
        "{:<10} {:<10} {:>9} {:>9} {:>11} {:>9} {:>9}",
        "method", "status", "min yield", "avg yield", "upper bound", "gap", "seconds"
    );
    if adapting {
        out.push_str(&format!(" {:>17}", "moved / budget"));
    }
    out.push('\n');
    for s in solutions {
        out.push_str(&format!(
            "{:<10} {:<10} {:>9} {:>9} {:>11} {:>9} {:>9.4}",
            s.method,
            s.status.as_str(),
            opt(s.min_yield(), 4),
            opt(s.avg_yield, 4),
            opt(s.upper_bound(), 4),
            s.gap
                .map_or_else(|| "-".into(), |g| format!("{:.2}%", 100.0 * g)),
            s.seconds
        ));
        if adapting {
            let budget = s
                .budget
                .map_or_else(|| "none".into(), |b| format!("{b:.4}"));
            out.push_str(&format!(" {:>8} / {budget:<6}", opt(s.migration, 4)));
        }
        out.push('\n');
    }
    out
}
