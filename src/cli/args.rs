//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use vcalloc::periodic;
use vcalloc::vcsched::relaxation::Route;
use vcalloc::vcsched::Method;

/// Optimal and certified near-optimal resource allocation for virtualized clusters.
#[derive(Debug, Parser)]
#[command(name = "vcalloc", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve an instance with one method; prints the solution JSON.
    Solve {
        #[command(subcommand)]
        problem: SolveProblem,
    },
    /// Re-check a solution file against its instance (exit 1 on a violation).
    Verify {
        /// Instance file (JSON, or CSV with --hosts).
        instance: PathBuf,
        /// Solution file written by `vcalloc solve`.
        solution: PathBuf,
        /// Number of hosts, for a CSV instance.
        #[arg(long)]
        hosts: Option<usize>,
        /// Format of a periodic instance (guessed from the content when absent).
        #[arg(long, value_parser = parse_format)]
        format: Option<periodic::Format>,
    },
    /// Generate a random instance.
    Generate {
        #[command(subcommand)]
        problem: GenerateProblem,
    },
    /// Write the MILP of an instance in CPLEX LP format, for any other solver.
    ExportLp {
        /// Instance file (JSON, or CSV with --hosts).
        instance: PathBuf,
        /// Output LP file.
        #[arg(long)]
        out: PathBuf,
        /// Number of hosts, for a CSV instance.
        #[arg(long)]
        hosts: Option<usize>,
        /// Leave out the symmetry-breaking bounds (the paper's equations 3–11 only).
        #[arg(long)]
        no_symmetry_breaking: bool,
    },
    /// Solve the embedded demo instance with the MILP, MCB8 and GR and print a table.
    Demo,
    /// Run a sweep of the papers' instance sets, merge shards, write reports.
    Experiment {
        #[command(subcommand)]
        which: ExperimentCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// RR-6692 §4.1 small set: 4 hosts, 6/8/10/12 jobs, 144 specifications.
    VcschedSmall(ExperimentArgs),
    /// RR-6692 §4.1 large set: 64 hosts, 100/250/500 jobs, 108 specifications.
    VcschedLarge(ExperimentArgs),
    /// Belaid 2015 §5.3: six scenarios of 100 jobs.
    PeriodicSynthetic(ExperimentArgs),
    /// RR-6692 §5.2: the large set with parallel jobs (Lublin–Feitelson task counts),
    /// 100/250/500 tasks; SG and MCB8 beside the LP bound.
    VcschedParallel(ExperimentArgs),
    /// RR-6692 §6.1: optima of 6-host, 12-job instances adapted to a changed workload under
    /// 7 migration budgets (0 to 100% of the staying memory); MILP, adapt, MCB8, SG.
    VcschedAdapt(ExperimentArgs),
    /// Join the results of shard folders into one folder (and its report).
    Merge {
        /// Shard folders, each holding a results.csv.
        dirs: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Output folder: results.csv (appended, resumable), report.md, instances/.
    #[arg(long)]
    pub out: PathBuf,
    /// Instances per specification (default: the paper's 10 / 100 / 20).
    #[arg(long)]
    pub instances_per_spec: Option<usize>,
    /// Comma-separated methods (default: the set's).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Time limit per solve, seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only shard k of n (e.g. 3/10), for job arrays.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Base seed of the instance generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also write every instance to OUT/instances/ID.json.
    #[arg(long)]
    pub save_instances: bool,
    /// VCSched `lp-bound`, RRND, RRNZ: the LP that gives the relaxation's point, `face`
    /// (the optimal face, fast) or `full` (the whole relaxation).
    #[arg(long, default_value = "face", value_parser = parse_route)]
    pub relaxation: Route,
}

#[derive(Debug, Subcommand)]
pub enum SolveProblem {
    /// VCSched: maximise the minimum yield of jobs on identical hosts (RR-6692).
    Vcsched(SolveVcsched),
    /// Periodic packing: tasks with sinusoidal demand on the fewest machines (Belaid 2015).
    Periodic(SolvePeriodic),
}

#[derive(Debug, Args)]
pub struct SolvePeriodic {
    /// Instance file (JSON, or BPPLIB 1-D bin packing).
    pub file: PathBuf,
    /// Method: cg, bfd, mm, mmm, lower-bound.
    #[arg(long, value_parser = parse_periodic_method)]
    pub method: periodic::Method,
    /// Wall-clock limit in seconds for the whole method.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Cap in seconds on the integer finish of `cg` (default 10).
    #[arg(long)]
    pub integer_time_limit: Option<f64>,
    /// Input format (guessed from the content when absent).
    #[arg(long, value_parser = parse_format)]
    pub format: Option<periodic::Format>,
    /// Every setting of the method as JSON (the `Settings` of `docs/guide.md`; fields left out
    /// keep their defaults); the options below override it.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Wentges dual smoothing weight in [0, 1) (default 0: off).
    #[arg(long)]
    pub smoothing: Option<f64>,
    /// Run the exact pricing at every iteration (a Lagrangian bound each time).
    #[arg(long)]
    pub exact_pricing: bool,
    /// Node relaxation of the pricing branch-and-bound: directional (default) or clarabel.
    #[arg(long)]
    pub node_relaxation: Option<vcalloc::periodic::knapsack_bnb::NodeSolver>,
    /// Bound of the knapsack along a direction in the pricing: integer (Martello–Toth,
    /// default) or fractional (Dantzig; its minimum over directions is the SOCP value).
    #[arg(long)]
    pub node_bound: Option<vcalloc::periodic::knapsack_relax::Bound>,
    /// Write the solution JSON here instead of standard output.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SolveVcsched {
    /// Instance file (JSON, or CSV with --hosts).
    pub file: PathBuf,
    /// Method: milp, lp-bound, gr, sg, gb, sgb, mcb1 … mcb8, rrnd, rrnz, adapt.
    #[arg(long, value_parser = parse_method)]
    pub method: Method,
    /// Adaptation: migration budget in memory units (overrides the instance's `budget`).
    #[arg(long)]
    pub budget: Option<f64>,
    /// Wall-clock limit in seconds; the MILP then returns its incumbent, bound and gap.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Seed of the randomised methods.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the solution JSON here instead of standard output.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Skip the average-yield phase (§3.5).
    #[arg(long)]
    pub no_avg_phase: bool,
    /// Number of hosts, for a CSV instance.
    #[arg(long)]
    pub hosts: Option<usize>,
    /// GB/SGB: cap on job placement attempts.
    #[arg(long, default_value_t = 500_000)]
    pub max_attempts: u64,
    /// MCB: width of the yield bracket at which the binary search stops.
    #[arg(long, default_value_t = 1e-4)]
    pub mcb_tolerance: f64,
    /// Threads HiGHS may use.
    #[arg(long, default_value_t = 1)]
    pub threads: u32,
    /// MILP: leave out the symmetry-breaking bounds.
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// MILP: do not seed HiGHS with the MCB8 placement.
    #[arg(long)]
    pub no_warm_start: bool,
    /// `lp-bound`, RRND, RRNZ: the LP that gives the relaxation's point, `face` (the optimal
    /// face `Y = Y*`, fast) or `full` (the whole relaxation; budgeted adaptations always).
    #[arg(long, default_value = "face", value_parser = parse_route)]
    pub relaxation: Route,
}

#[derive(Debug, Subcommand)]
pub enum GenerateProblem {
    /// A §4.1 VCSched instance.
    Vcsched(GenerateVcsched),
    /// A §5.3 periodic instance (capacity 20).
    Periodic(GeneratePeriodic),
}

#[derive(Debug, Args)]
pub struct GeneratePeriodic {
    /// Task size: large (means in (0,10], 50 tasks/job), medium ((0,5], 100), small ((0,1], 500).
    #[arg(long)]
    pub tasks: periodic::TaskSize,
    /// Amplitude: large (in [0, C_j]) or small ([0, C_j/2]).
    #[arg(long)]
    pub amplitude: periodic::Amplitude,
    /// Number of jobs.
    #[arg(long, default_value_t = 100)]
    pub jobs: usize,
    /// Seed of the random stream.
    #[arg(long)]
    pub seed: u64,
    /// Write the instance here instead of standard output.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct GenerateVcsched {
    /// Hosts H.
    #[arg(long)]
    pub hosts: usize,
    /// Jobs J (with --parallel: tasks, jobs being drawn until their tasks total J).
    #[arg(long)]
    pub jobs: usize,
    /// Parallel jobs with Lublin–Feitelson task counts, 1 to 64 (RR-6692 §5.2).
    #[arg(long)]
    pub parallel: bool,
    /// An adaptation instance (§6) with budget FRACTION × the memory of the staying tasks:
    /// the generated instance is solved to optimality (MILP), then 20% of the jobs leave, 20%
    /// arrive and 30% change CPU need; staying tasks keep their hosts as `current`.
    #[arg(long, value_name = "FRACTION")]
    pub adaptation: Option<f64>,
    /// Memory slack in [0, 1): mean memory need is H (1 − slack) / J.
    #[arg(long)]
    pub slack: f64,
    /// Coefficient of variation of memory needs.
    #[arg(long)]
    pub cv_mem: f64,
    /// Coefficient of variation of CPU needs (mean 0.5).
    #[arg(long)]
    pub cv_cpu: f64,
    /// Seed of the random stream.
    #[arg(long)]
    pub seed: u64,
    /// Write the instance here instead of standard output.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse()
}

fn parse_route(s: &str) -> Result<Route, String> {
    s.parse()
}

fn parse_periodic_method(s: &str) -> Result<periodic::Method, String> {
    s.parse()
}

fn parse_format(s: &str) -> Result<periodic::Format, String> {
    s.parse()
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
