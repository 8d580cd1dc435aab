//! Every command that prints, with its standard output a pipe whose reader has already gone
//! (what `vcalloc … | head -1` does once `head` has its line): it must end quietly, as Unix
//! tools do — exit 0 or killed by SIGPIPE (the shell's 141), no panic, no backtrace.
#![cfg(unix)]

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// Runs `args` with stdout a pipe closed at the reading end before the process starts (so
/// every write to it fails, whatever the timing), and checks the quiet-exit contract.
fn quiet_on_closed_pipe(args: &[&str]) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
        "{args:?}: {:?}\n{err}",
        out.status
    );
    for bad in ["panicked", "Broken pipe", "backtrace", "error"] {
        assert!(!err.contains(bad), "{args:?}: `{bad}` in stderr:\n{err}");
    }
}

#[test]
fn solve_of_every_problem_and_method_family_ends_quietly_on_a_closed_pipe() {
    let d = tempfile::tempdir().unwrap();
    let path = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (ev, rb) = (path("ev.json"), path("rb.json"));
    common::small_evolving_instance(&ev);
    common::small_rebalance_instance(&rb);
    // The issue's own example: a CSV instance, 2 hosts, sgb.
    let csv = path("jobs.csv");
    std::fs::write(&csv, "cpu,mem\n0.5,0.3\n0.4,0.6\n0.9,0.2\n").unwrap();
    quiet_on_closed_pipe(&["solve", "vcsched", &csv, "--hosts", "2", "--method", "sgb"]);
    let pcec = [
        "--pms",
        "2",
        "--vms-per-pm",
        "2",
        "--jobs",
        "40",
        "--arrival-factor",
        "40",
    ];
    let cases: Vec<(&str, &str, Vec<&str>, &[&str])> = vec![
        (
            "vcsched",
            "data/vcsched-demo.json",
            vec![],
            &["exact", "milp", "lp-bound", "gr", "sgb", "mcb8", "rrnd"],
        ),
        (
            "periodic",
            "data/bpplib/Falkenauer_t60_00.txt",
            vec![],
            &["bfd", "mm", "mmm", "cg", "lower-bound"],
        ),
        (
            "evolving",
            &ev,
            vec![],
            &["rigid", "nox", "infx+c", "exact"],
        ),
        (
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            pcec.to_vec(),
            &["ec", "pc", "ec-lb"],
        ),
        ("rebalance", &rb, vec![], &["keep", "tabu", "milp", "exact"]),
        (
            "socbp",
            "data/cbp/d_72_100_0.6_a.cbp",
            vec![],
            &["ffd", "bfd", "cg", "bp"],
        ),
        (
            "binpacking",
            "data/bpplib/Falkenauer_t60_00.txt",
            vec![],
            &["ffd", "bfd", "cg", "bp"],
        ),
    ];
    for (problem, file, extra, methods) in &cases {
        for m in *methods {
            let mut args = vec!["solve", problem, file, "--method", m];
            args.extend(extra.iter().copied());
            quiet_on_closed_pipe(&args);
        }
    }
    // `--output` writes the JSON to a file and prints the table.
    let sol = path("sol.json");
    quiet_on_closed_pipe(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb8",
        "--output",
        &sol,
    ]);
    quiet_on_closed_pipe(&["verify", "data/vcsched-demo.json", &sol]);
}

#[test]
fn every_other_printing_command_ends_quietly_on_a_closed_pipe() {
    let d = tempfile::tempdir().unwrap();
    let path = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let pms = path("pms.json");
    std::fs::write(
        &pms,
        r#"{"pms":[{"vms":[{"name":"A","min":0.25,"max":0.67,"share":4,"demand":0.2},{"name":"B","min":0.1,"max":1,"share":8}]}]}"#,
    )
    .unwrap();
    let sc = path("sc.json");
    std::fs::write(
        &sc,
        r#"{"period_s": 40, "duration_s": 3600, "nodes": [{"cpu": 8, "mem": 16384}], "apps": [{"name": "a", "kind": "deadline", "arrival_s": 0, "vms": 2, "work": 1800, "deadline_s": 2400, "budget": 5000}]}"#,
    )
    .unwrap();
    let (sweep, merged, lp) = (path("sweep"), path("merged"), path("demo.lp"));
    let commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["help", "solve"],
        vec!["methods"],
        vec!["methods", "binpacking"],
        vec!["demo"],
        vec![
            "generate", "vcsched", "--seed", "3", "--hosts", "8", "--jobs", "200", "--slack",
            "0.3", "--cv-mem", "0.25", "--cv-cpu", "0.25",
        ],
        vec!["generate", "binpacking", "--seed", "3", "--items", "300"],
        vec![
            "export-lp",
            "vcsched",
            "data/vcsched-demo.json",
            "--out",
            &lp,
        ],
        vec!["experiment", "--help"],
        vec!["experiment", "vcsched-small", "--help"],
        vec![
            "experiment",
            "vcsched-small",
            "--out",
            &sweep,
            "--instances-per-spec",
            "1",
            "--methods",
            "gr",
            "--threads",
            "1",
        ],
        vec!["experiment", "merge", "--out", &merged, &sweep],
        vec!["capacity", "pcec", &pms],
        vec![
            "simulate",
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            "--policy",
            "pc",
            "--pms",
            "4",
            "--vms-per-pm",
            "4",
        ],
        vec!["simulate", "rebalance", &sc],
    ];
    for args in &commands {
        quiet_on_closed_pipe(args);
    }
    // The sweep's rows are on disk whatever became of its summary line.
    assert!(
        std::fs::read_to_string(d.path().join("sweep/results.csv"))
            .unwrap()
            .lines()
            .count()
            > 100
    );
}

/// Runs `args` with `input` on standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// The certificate of a solution on stdout, failing with stderr when the run failed.
fn certificate(args: &[&str], out: &std::process::Output) -> serde_json::Value {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not one JSON document ({e}): {err}"));
    v["certificate"].clone()
}

#[test]
fn every_text_format_reads_from_standard_input_by_its_content() {
    // (problem, file, extra options, method): the same answer through a pipe as from the file.
    let cases: [(&str, &str, &[&str], &str); 7] = [
        ("vcsched", "data/vcsched-demo.json", &[], "mcb8"),
        (
            "binpacking",
            "data/bpplib/Falkenauer_t60_00.txt",
            &[],
            "ffd",
        ),
        ("binpacking", "data/vbp/CL_1_25_1.vbp", &[], "ffd"),
        ("socbp", "data/cbp/d_72_100_0.6_a.cbp", &[], "ffd"),
        ("periodic", "data/bpplib/Falkenauer_t60_00.txt", &[], "bfd"),
        (
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            &["--pms", "2", "--vms-per-pm", "2", "--jobs", "40"],
            "pc",
        ),
        (
            "pcec",
            "data/pcec/lcg-head-300.swf.gz",
            &[
                "--pms",
                "2",
                "--vms-per-pm",
                "2",
                "--jobs",
                "40",
                "--format",
                "swf",
            ],
            "ec",
        ),
    ];
    for (problem, file, extra, method) in cases {
        let mut from_file = vec!["solve", problem, file, "--method", method];
        from_file.extend_from_slice(extra);
        let expected = certificate(&from_file, &common::vcalloc(&from_file));
        let mut piped = vec!["solve", problem, "-", "--method", method];
        piped.extend_from_slice(extra);
        let got = certificate(&piped, &with_stdin(&piped, &std::fs::read(file).unwrap()));
        assert_eq!(
            got["objective"], expected["objective"],
            "{piped:?} < {file}"
        );
        assert_eq!(got["bound"], expected["bound"], "{piped:?} < {file}");
    }
    // CSV has no extension to go by: read as CSV because it is not JSON; `--format` forces.
    let csv = b"cpu,mem\n0.5,0.3\n0.4,0.6\n0.9,0.2\n";
    let args = ["solve", "vcsched", "-", "--hosts", "2", "--method", "sgb"];
    let c = certificate(&args, &with_stdin(&args, csv));
    assert_eq!(c["status"], "feasible", "{c}");
    let args = [
        "solve", "vcsched", "-", "--hosts", "2", "--format", "json", "--method", "sgb",
    ];
    let out = with_stdin(&args, csv);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("<stdin>") && err.contains("malformed JSON"),
        "{err}"
    );
}

#[test]
fn output_dash_puts_the_json_alone_on_stdout_and_the_table_on_stderr() {
    let args = [
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "mcb8",
        "--output",
        "-",
    ];
    let out = common::vcalloc(&args);
    let c = certificate(&args, &out);
    assert_eq!(c["method"], "mcb8");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("min yield") && err.contains("mcb8"), "{err}");
    // /dev/stdout is standard output too: the table does not follow the JSON.
    let args = [
        "solve",
        "binpacking",
        "data/vbp/CL_1_25_1.vbp",
        "--method",
        "ffd",
        "--output",
        "/dev/stdout",
    ];
    let out = common::vcalloc(&args);
    certificate(&args, &out);
    // A solution through a pipe into verify.
    let sol = common::vcalloc_ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "gr",
    ]);
    let args = ["verify", "data/vcsched-demo.json", "-"];
    let out = with_stdin(&args, &sol.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.starts_with("ok:"), "{text}");
    // A generator into a solve.
    let inst = common::vcalloc_ok(&[
        "generate",
        "binpacking",
        "--seed",
        "2",
        "--items",
        "20",
        "--output",
        "-",
    ]);
    let args = ["solve", "binpacking", "-", "--method", "bfd"];
    let c = certificate(&args, &with_stdin(&args, &inst.stdout));
    assert!(c["objective"].as_f64().unwrap() >= 1.0, "{c}");
    // A tool's file to stdout, its summary to stderr.
    let args = [
        "simulate",
        "pcec",
        "data/pcec/lcg-head-300.swf.gz",
        "--policy",
        "pc",
        "--pms",
        "2",
        "--vms-per-pm",
        "2",
        "--jobs",
        "30",
        "--output",
        "-",
    ];
    let out = common::vcalloc_ok(&args);
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.starts_with("id,submit,start") && csv.lines().count() == 31,
        "{csv}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("mean XF"));
}

#[test]
fn the_format_a_file_s_content_shows_is_the_one_its_extension_names() {
    use vcalloc::binpacking::Format;
    let mut seen = 0;
    for dir in ["data/bpplib", "data/vbp", "data/hard28"] {
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            let want = match p.extension().and_then(|e| e.to_str()) {
                Some("txt") if !p.ends_with("README.txt") => Format::Bpplib,
                Some("vbp") => Format::Vbp,
                _ => continue,
            };
            let text = std::fs::read_to_string(&p).unwrap();
            assert_eq!(Format::of_content(&text), want, "{}", p.display());
            seen += 1;
        }
    }
    assert!(seen >= 5, "{seen} files");
}

/// A JSON instance under a text format's name (`generate … > x.cbp`: `generate` writes JSON to
/// standard output) is read as JSON, with a warning that the name disagrees; `--format`
/// still decides when given (and then the text parser's error names the file, exit 2).
#[test]
fn json_content_under_a_text_format_s_name_is_read_as_json() {
    let d = tempfile::tempdir().unwrap();
    for (problem, name, format) in [
        ("socbp", "x.cbp", "cbp"),
        ("binpacking", "x.txt", "bpplib"),
        ("binpacking", "x.vbp", "vbp"),
    ] {
        let inst = common::vcalloc_ok(&["generate", problem, "--seed", "3", "--items", "12"]);
        assert!(inst.stdout.starts_with(b"{"), "{problem}");
        let file = d.path().join(name);
        std::fs::write(&file, &inst.stdout).unwrap();
        let path = file.to_str().unwrap();
        let out = common::vcalloc_ok(&["solve", problem, path, "--method", "ffd"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("holds JSON"), "{problem}: {err}");
        let sol = file.with_extension("sol.json");
        std::fs::write(&sol, &out.stdout).unwrap();
        common::vcalloc_ok(&["verify", path, sol.to_str().unwrap()]);
        let forced = common::vcalloc(&[
            "solve", problem, path, "--method", "ffd", "--format", format,
        ]);
        assert_eq!(forced.status.code(), Some(2), "{problem} --format {format}");
        assert!(
            String::from_utf8_lossy(&forced.stderr).contains(name),
            "{problem}: {}",
            String::from_utf8_lossy(&forced.stderr)
        );
    }
}

// The command line's vocabulary: one spelling of each option, and the defaults printable.

#[test]
fn settings_prints_defaults_that_settings_reads_back_for_every_problem() {
    let d = tempfile::tempdir().unwrap();
    for e in vcalloc::problem::registry() {
        let name = e.name();
        let out = common::vcalloc_ok(&["settings", name]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().count() >= 3, "{name}: {text}");
        let file = d.path().join(format!("{name}.toml"));
        std::fs::write(&file, &text).unwrap();
        // Read back (decoded and validated as `solve --settings` does) it prints the same.
        let again = common::vcalloc_ok(&["settings", name, "--settings", file.to_str().unwrap()]);
        assert_eq!(String::from_utf8(again.stdout).unwrap(), text, "{name}");
    }
    // A file merged over the defaults shows its value; `solve` takes the printed file.
    let file = d.path().join("mine.toml");
    std::fs::write(&file, "mcb_tolerance = 0.001\n").unwrap();
    let out = common::vcalloc_ok(&["settings", "vcsched", "--settings", file.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("mcb_tolerance = 0.001\n"), "{text}");
    let printed = d.path().join("vcsched.toml");
    common::vcalloc_ok(&[
        "solve",
        "vcsched",
        "data/vcsched-demo.json",
        "--method",
        "milp",
        "--settings",
        printed.to_str().unwrap(),
    ]);
}

#[test]
fn one_vocabulary_across_commands() {
    let d = tempfile::tempdir().unwrap();
    // `--output` everywhere, `--out` kept as an alias.
    for flag in ["--output", "--out"] {
        let lp = d.path().join(format!("m{flag}.lp"));
        common::vcalloc_ok(&[
            "export-lp",
            "vcsched",
            "data/vcsched-demo.json",
            flag,
            lp.to_str().unwrap(),
        ]);
        assert!(std::fs::read_to_string(&lp).unwrap().contains("Subject To"));
    }
    // Studies take --time-limit and --threads; a simulation refuses a time limit.
    let help = common::vcalloc_ok(&["experiment", "market-rebalance", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for opt in [
        "--time-limit",
        "--threads",
        "--seed",
        "--output",
        "[default: 1]",
    ] {
        assert!(help.contains(opt), "{opt} missing: {help}");
    }
    let out = d.path().join("paper");
    common::expect_input_error(
        &[
            "experiment",
            "evolving-paper",
            "--time-limit",
            "5",
            "--output",
            out.to_str().unwrap(),
        ],
        &["--time-limit", "takes no time limit"],
    );
    common::expect_input_error(
        &[
            "experiment",
            "vcsched-small",
            "--time-limit",
            "0",
            "--output",
            out.to_str().unwrap(),
        ],
        &["--time-limit", "positive"],
    );
    // Sweeps, studies and selfcheck share one default seed.
    for cmd in [
        &["experiment", "vcsched-small", "--help"][..],
        &["selfcheck", "--help"],
    ] {
        let help = common::vcalloc_ok(cmd);
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("[default: 1]"), "{cmd:?}: {help}");
    }
    // `methods` lists the common options and describes every method.
    let m = common::vcalloc_ok(&["methods"]);
    let m = String::from_utf8_lossy(&m.stdout);
    assert!(
        m.contains("options of every `solve`") && m.contains("--time-limit S"),
        "{m}"
    );
    assert!(
        !m.contains("variant k") && m.contains("largest need, descending"),
        "{m}"
    );
    assert!(
        m.contains("study market-rebalance: --time-limit limits each exact search"),
        "{m}"
    );
}

// The live log: progress lines on stderr while a solve runs, never on stdout.

/// Runs `args` with `RUST_LOG` removed (or set to `rust_log`); returns stdout's JSON
/// certificate and stderr.
fn logged(args: &[&str], rust_log: Option<&str>) -> (serde_json::Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vcalloc"));
    cmd.args(args).env_remove("RUST_LOG");
    if let Some(v) = rust_log {
        cmd.env("RUST_LOG", v);
    }
    let out = cmd.output().unwrap();
    (
        certificate(args, &out),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_milp_solve_logs_its_progress_on_stderr_unless_quiet() {
    let args = [
        "solve",
        "vcsched",
        "data/vcsched-64x500.json",
        "--method",
        "milp",
        "--time-limit",
        "6",
    ];
    // -v: a line every second, from inside HiGHS (its root LP included). 6 s: on a loaded
    // 2-core VM (a fresh-clone `.ci/run`, the unit tests beside) HiGHS's presolve and root LP
    // took the whole of 3 s once, with no incumbent reported yet.
    let mut verbose = args.to_vec();
    verbose.push("-v");
    let (c, err) = logged(&verbose, None);
    assert_eq!(c["method"], "milp");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(" s  HiGHS MIP"))
        .collect();
    assert!(lines.len() >= 2, "{err}");
    // The MCB8 warm start is HiGHS's incumbent from its first report on.
    assert!(lines.iter().any(|l| l.contains("incumbent 0.")), "{err}");
    // -q: none.
    let mut quiet = args.to_vec();
    quiet[6] = "2";
    quiet.insert(0, "-q");
    let (_, err) = logged(&quiet, None);
    assert!(!err.contains("HiGHS"), "{err}");
}

/// `solve periodic … -v` over 2 million tasks with `method` under `limit` seconds: the
/// solution's method and the heartbeat's lines of that method.
fn heartbeats_over_two_million_tasks(method: &str, limit: &str) -> (String, Vec<String>) {
    let d = tempfile::tempdir().unwrap();
    let inst = &common::two_million_periodic_tasks(d.path(), "p.json");
    let args = [
        "solve",
        "periodic",
        inst,
        "--method",
        method,
        "--time-limit",
        limit,
        "-v",
        "--output",
        "-",
    ];
    let (c, err) = logged(&args, None);
    let beat = format!(" s  periodic {method}: ");
    let lines = err
        .lines()
        .filter(|l| l.contains(&beat))
        .map(str::to_string)
        .collect();
    (c["method"].as_str().unwrap_or_default().to_string(), lines)
}

#[test]
fn a_method_with_no_log_of_its_own_gets_a_heartbeat() {
    // Best fit over 2 million tasks (about 6 s unbounded): nothing in it reports.
    let (method, beats) = heartbeats_over_two_million_tasks("bfd", "2.5");
    assert_eq!(method, "bfd");
    let running = beats.iter().filter(|l| l.ends_with(": running")).count();
    assert!(running >= 1, "{beats:?}");
}

#[test]
fn the_heartbeat_names_the_phase_that_runs() {
    // Branch-and-price over 2 million tasks: the aligned fill, the heuristics and the root
    // each take seconds, and each names itself in the heartbeat instead of "running".
    let (method, beats) = heartbeats_over_two_million_tasks("bp", "3");
    assert_eq!(method, "bp");
    let phases: Vec<&String> = beats.iter().filter(|l| !l.ends_with(": running")).collect();
    assert!(!phases.is_empty(), "{beats:?}");
    // Each names what runs and for how long: `… bp: LABEL (N s)`.
    assert!(phases.iter().all(|l| l.ends_with(" s)")), "{phases:?}");
}

#[test]
fn branch_and_price_logs_its_tree_by_default_and_rust_log_still_works() {
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("tree.toml");
    std::fs::write(
        &settings,
        "[local]\nenabled = false\n[bp.enumeration]\nenabled = false\n[cuts]\nenabled = false\n",
    )
    .unwrap();
    let args = [
        "solve",
        "binpacking",
        "data/hard28/Hard28_BPP359.txt",
        "--method",
        "bp",
        "--settings",
        settings.to_str().unwrap(),
        // Room for the root under load (a loaded 2-core machine spent 6 s there).
        "--time-limit",
        "20",
    ];
    // The tree's first progress line is all this checks: the solve is stopped there (it ran
    // its 20 s before, the longest test of the crate after the time limits).
    let mut child = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let found = std::io::BufRead::lines(stderr)
        .map_while(Result::ok)
        .any(|l| {
            err.push_str(&l);
            err.push('\n');
            l.contains(" s  branch-and-price: ") && l.contains("open")
        });
    child.kill().ok();
    child.wait().unwrap();
    assert!(found, "{err}");
    // RUST_LOG decides alone when set: here every column-generation iteration, at debug too.
    let small = [
        "solve",
        "periodic",
        "data/bpplib/Falkenauer_t60_00.txt",
        "--method",
        "cg",
    ];
    let (_, err) = logged(&small, Some("vcalloc=debug"));
    assert!(err.contains("[DEBUG "), "{err}");
}

#[test]
fn verify_reads_the_instance_as_the_solve_did() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    // A CSV instance needs --hosts once, at the solve.
    let csv = p("jobs.csv");
    std::fs::write(&csv, "cpu,mem\n0.5,0.3\n0.4,0.6\n0.9,0.2\n").unwrap();
    let sol = p("sol.json");
    common::vcalloc_ok(&[
        "solve", "vcsched", &csv, "--hosts", "2", "--method", "sgb", "--output", &sol,
    ]);
    let out = common::vcalloc_ok(&["verify", &csv, &sol]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok:"));
    // A trace cut with --jobs: verify keeps the same jobs; an option given again overrides.
    let trace = "data/pcec/lcg-head-300.swf.gz";
    let pc = p("pc.json");
    common::vcalloc_ok(&[
        "solve",
        "pcec",
        trace,
        "--method",
        "pc",
        "--pms",
        "2",
        "--vms-per-pm",
        "2",
        "--jobs",
        "40",
        "--output",
        &pc,
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pc).unwrap()).unwrap();
    assert_eq!(v["certificate"]["load"]["jobs"], 40, "{}", v["certificate"]);
    let out = common::vcalloc_ok(&["verify", trace, &pc]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok:"));
    let out = common::vcalloc(&["verify", trace, &pc, "--jobs", "30"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("40 records for 30 jobs"));
}

#[test]
fn simulate_takes_a_time_limit_for_its_bound() {
    let base = [
        "simulate",
        "pcec",
        "data/pcec/lcg-head-300.swf.gz",
        "--policy",
        "pc",
        "--pms",
        "2",
        "--vms-per-pm",
        "2",
        "--fluid-bound",
    ];
    let full = common::vcalloc_ok(&base);
    assert!(String::from_utf8_lossy(&full.stdout).contains("0 fallbacks"));
    let mut limited = base.to_vec();
    limited.extend(["--time-limit", "0.001"]);
    let out = common::vcalloc_ok(&limited);
    // The window HiGHS could not finish falls back to the trivial bound.
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 fallbacks"));
    limited[11] = "0";
    common::expect_input_error(&limited, &["--time-limit", "positive"]);
}

/// `--log FILE`: the log stderr shows goes to the file too, line for line; an unwritable path
/// is an argument error (exit 2) before anything runs.
#[test]
fn log_file_gets_what_stderr_gets() {
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("run.log");
    let out = common::vcalloc(&[
        "solve",
        "binpacking",
        "data/hard28/Hard28_BPP359.txt",
        "--method",
        "bp",
        "--time-limit",
        "3",
        "--log",
        log.to_str().unwrap(),
        "--output",
        d.path().join("s.json").to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let file = std::fs::read_to_string(&log).unwrap();
    assert!(file.contains(" s  cg it "), "{file}");
    for line in file.lines() {
        assert!(err.contains(line), "{line} not on stderr: {err}");
    }
    let bad = common::vcalloc(&[
        "demo",
        "--log",
        d.path().join("no/such/dir.log").to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--log"));
}
