//! The arguments of `experiment`: one subcommand per sweep (instances drawn from a paper's
//! specification, solved, one row each) and per study (a paper's experiment, a report), and
//! their parsing into [`Cmd::Sweep`], [`Cmd::Study`] or [`Cmd::Merge`].

use super::{output, path, value, Cmd, DEFAULT_SEED};
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::path::PathBuf;

/// `experiment SWEEP --out DIR …`.
pub struct Sweep {
    pub set: String,
    pub out: PathBuf,
    pub per_spec: Option<usize>,
    pub methods: Vec<String>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
    pub shard: Option<(usize, usize)>,
    pub seed: u64,
    pub save_instances: bool,
    pub settings: Option<PathBuf>,
}

pub(super) fn sweep_command(name: &'static str, title: &'static str) -> Command {
    Command::new(name)
        .about(title)
        .arg(
            output(
                "DIR",
                "Output folder: results.csv (appended, resumable), report.md, instances/",
            )
            .required(true),
        )
        .arg(
            value(
                "instances-per-spec",
                "N",
                "Instances per specification (default: the paper's)",
            )
            .value_parser(clap::value_parser!(usize)),
        )
        .arg(
            value(
                "methods",
                "M,M,…",
                "Comma-separated methods (default: the sweep's)",
            )
            .value_delimiter(','),
        )
        .arg(
            value("time-limit", "SECONDS", "Time limit per solve")
                .allow_hyphen_values(true)
                .value_parser(clap::value_parser!(f64)),
        )
        .arg(
            value("threads", "N", "Worker threads (default: all cores)")
                .value_parser(clap::value_parser!(usize)),
        )
        .arg(
            value("shard", "K/N", "Run only shard k of n, for job arrays")
                .value_parser(parse_shard),
        )
        .arg(
            value("seed", "N", "Base seed of the instance generator")
                .default_value(DEFAULT_SEED)
                .value_parser(clap::value_parser!(u64)),
        )
        .arg(
            Arg::new("save-instances")
                .long("save-instances")
                .action(ArgAction::SetTrue)
                .help("Also write every instance to OUT/instances/ID.json"),
        )
        .arg(path(
            "settings",
            "Settings of every solve, JSON or TOML (the problem's `Settings`)",
        ))
}

pub(super) fn study_command(name: &'static str, title: &'static str) -> Command {
    Command::new(name)
        .about(title)
        .arg(output("DIR", "Output folder: report.md and plots").required(true))
        .arg(
            value("seed", "N", "Base seed")
                .default_value(DEFAULT_SEED)
                .value_parser(clap::value_parser!(u64)),
        )
        .arg(
            value(
                "time-limit",
                "SECONDS",
                "Wall-clock limit of each solve the study makes (`vcalloc methods` says which)",
            )
            .allow_hyphen_values(true)
            .value_parser(clap::value_parser!(f64)),
        )
        .arg(
            value("threads", "N", "Worker threads (default: all cores)")
                .value_parser(clap::value_parser!(usize)),
        )
        .arg(
            value(
                "instances",
                "N",
                "Tests or instances (default: the paper's)",
            )
            .value_parser(clap::value_parser!(usize)),
        )
        .arg(path("settings", "The problem's settings, JSON or TOML"))
        .arg(
            value(
                "input",
                "DIR",
                "Folder of published data the study reads (e.g. ../shared/traces)",
            )
            .value_parser(clap::value_parser!(PathBuf)),
        )
}

pub(super) fn experiment(m: &ArgMatches) -> Cmd {
    let (name, s) = m.subcommand().expect("a sweep is required");
    if vcalloc::problem::find_study(name).is_some() {
        return Cmd::Study {
            name: name.to_string(),
            args: vcalloc::problem::StudyArgs {
                out: s.get_one::<PathBuf>("out").cloned().expect("required"),
                seed: *s.get_one::<u64>("seed").expect("defaulted"),
                count: s.get_one::<usize>("instances").copied(),
                settings: s.get_one::<PathBuf>("settings").cloned(),
                input: s.get_one::<PathBuf>("input").cloned(),
                time_limit: s.get_one::<f64>("time-limit").copied(),
            },
            threads: s.get_one::<usize>("threads").copied(),
        };
    }
    if name == "merge" {
        return Cmd::Merge {
            dirs: s
                .get_many::<PathBuf>("dirs")
                .expect("required")
                .cloned()
                .collect(),
            out: s.get_one::<PathBuf>("out").cloned().expect("required"),
        };
    }
    Cmd::Sweep(Sweep {
        set: name.to_string(),
        out: s.get_one::<PathBuf>("out").cloned().expect("required"),
        per_spec: s.get_one::<usize>("instances-per-spec").copied(),
        methods: s
            .get_many::<String>("methods")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
        time_limit: s.get_one::<f64>("time-limit").copied(),
        threads: s.get_one::<usize>("threads").copied(),
        shard: s.get_one::<(usize, usize)>("shard").copied(),
        seed: *s.get_one::<u64>("seed").expect("defaulted"),
        save_instances: s.get_flag("save-instances"),
        settings: s.get_one::<PathBuf>("settings").cloned(),
    })
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}` is not k/n"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: k is not a whole number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: n is not a whole number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("`{s}`: need 1 <= k <= n"));
    }
    Ok((k, n))
}
