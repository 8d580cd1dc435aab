//! The `vcalloc` command.

mod cli;

use cli::args::{Cmd, Verbosity};
use std::io::Write;

fn main() {
    cli::signals::quiet_on_closed_stdout();
    let (cmd, verbosity) = cli::args::parse();
    init_log(&cmd, verbosity);
    let code = cli::run(cmd);
    std::process::exit(code);
}

/// The log on stderr. `RUST_LOG`, when set, decides alone (developers); otherwise warnings,
/// the sweeps' progress, and for `solve` the live log of the solver's loops — HiGHS (through
/// its callbacks) and column generation every 5 s, the branch-and-price tree every
/// `bp.progress_seconds` (1 s) — every second and with the methods' `info` lines under `-v`,
/// none under `-q`. Progress lines carry the seconds since the start, no level or target.
/// Seconds between two column-generation lines of the default live log.
const CG_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

fn init_log(cmd: &Cmd, verbosity: Verbosity) {
    let solving = matches!(cmd, Cmd::Solve(_));
    let filter = match (verbosity, solving) {
        (Verbosity::Quiet, _) => "error",
        (Verbosity::Normal, true) => {
            "warn,highs=error,vcalloc::progress=info,vcalloc::colgen::bp=info,vcalloc::colgen::engine=info"
        }
        (Verbosity::Normal, false) => "warn,highs=error,vcalloc::experiment=info",
        (Verbosity::Verbose, _) => "warn,highs=error,vcalloc=info",
    };
    if verbosity == Verbosity::Verbose {
        vcalloc::solver::progress::set_interval(1.0);
    }
    let began = std::time::Instant::now();
    let shown = std::sync::Mutex::new(None);
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter))
        .format(move |buf, record| {
            let target = record.target();
            let info = record.level() == log::Level::Info;
            // Column generation logs every iteration: by default one line in five seconds.
            if info && target == "vcalloc::colgen::engine" && verbosity == Verbosity::Normal {
                let mut last = shown.lock().unwrap_or_else(|e| e.into_inner());
                if last.is_some_and(|t: std::time::Instant| t.elapsed() < CG_EVERY) {
                    return Ok(());
                }
                *last = Some(std::time::Instant::now());
            }
            let tree = info && target.starts_with("vcalloc::colgen::");
            if target == vcalloc::solver::progress::TARGET || tree {
                // A progress line (the tree's own too): the seconds since the start, the line.
                let t = began.elapsed().as_secs_f64();
                writeln!(buf, "{t:>7.1} s  {}", record.args())
            } else {
                writeln!(
                    buf,
                    "[{} {}] {}",
                    record.level(),
                    record.target(),
                    record.args()
                )
            }
        })
        .init();
}
