//! Unix signals: a closed stdout ends the process quietly, and Ctrl-C (SIGINT) or a batch
//! scheduler's stop (SIGTERM) stops a solve as at its time limit.

/// Puts SIGPIPE back to its default action. Rust ignores it, so a write to a closed pipe
/// (`vcalloc … | head -5`) returns `BrokenPipe` and `println!` panics; with the default the
/// kernel ends the process at that write, silently, as it ends `cat` or `grep` (the shell
/// reports 141). One call covers every writer: the CLI's prints, the tools', HiGHS's own.
pub fn quiet_on_closed_stdout() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default has no memory-safety conditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The SIGINT and SIGTERM handler: one atomic store (async-signal-safe), then the default
/// action back for that signal, so a second Ctrl-C (or a second SIGTERM) ends the process at
/// once.
#[cfg(unix)]
extern "C" fn on_stop(signal: libc::c_int) {
    vcalloc::solver::interrupt();
    // SAFETY: `signal` is async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
    }
}

/// From now on, Ctrl-C and SIGTERM make every deadline expire: the running search returns its
/// incumbent and bound as at a time limit, and the solution is written. Only `solve` asks for
/// it: a sweep keeps the defaults (its CSV survives a kill, and rows cut short must not be
/// recorded as done).
pub fn stop_solves_on_ctrl_c() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: `on_stop` only stores an atomic and calls `signal`, both async-signal-safe.
        unsafe {
            libc::signal(
                signal,
                on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
}
