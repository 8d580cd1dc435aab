//! The `vcalloc` command.

mod cli;

fn main() {
    cli::signals::quiet_on_closed_stdout();
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,highs=error,vcalloc::experiment=info"),
    )
    .init();
    let code = cli::run(cli::args::parse());
    std::process::exit(code);
}
