//! The `vcalloc` command.

mod cli;

use clap::Parser;

fn main() {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,highs=error,vcalloc::experiment=info"),
    )
    .init();
    let code = cli::run(cli::args::Cli::parse());
    std::process::exit(code);
}
