//! The `vcalloc` command.

mod cli;

use cli::args::{Cmd, Verbosity};
use std::io::Write;

fn main() {
    cli::signals::quiet_on_closed_stdout();
    let (cmd, verbosity, log) = cli::args::parse();
    let file = match log.as_deref().map(std::fs::File::create).transpose() {
        Ok(f) => f,
        Err(e) => {
            let path = log.unwrap_or_default();
            eprintln!(
                "error: invalid input: <arguments>: argument `--log`: value `{}`: {e}",
                path.display()
            );
            std::process::exit(2);
        }
    };
    init_log(&cmd, verbosity, file);
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

/// Stderr and the `--log` file, line for line.
struct Tee(std::fs::File);

impl Write for Tee {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // A closed stderr must not stop the file's copy.
        let _ = std::io::stderr().write_all(buf);
        self.0.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        self.0.flush()
    }
}

fn init_log(cmd: &Cmd, verbosity: Verbosity, file: Option<std::fs::File>) {
    let solving = matches!(cmd, Cmd::Solve(_));
    let filter = match (verbosity, solving) {
        (Verbosity::Quiet, _) => "warn,highs=error",
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
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter));
    if let Some(f) = file {
        builder.target(env_logger::Target::Pipe(Box::new(Tee(f))));
    }
    builder
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
