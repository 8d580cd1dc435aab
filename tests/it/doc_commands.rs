//! Every command printed in README.md and docs/guide.md runs against the shipped files: no
//! documented command that does not run.
//!
//! A command is a line of a fenced code block that starts (after a `$ ` prompt) with `$B ` or
//! `vcalloc `; output lines in the same blocks (`vcalloc demo: …`) are told apart by their
//! second word, which must be a command. Each document's commands run in order, in one fresh
//! folder holding a link to `data/` (so `data/…` paths resolve and one command's output is the
//! next one's input), through `bash -c` with `$B` and `vcalloc` both naming the binary.
//!
//! Two changes keep the run short, and neither changes what is checked (that the command is
//! accepted, reads its files and writes its answer): every `solve` runs with
//! `--time-limit 2` (documented limits of 10–600 s are lowered; the answer on a limit is still
//! written and verified), and the skip list below, each with its reason.

use std::path::Path;
use std::process::Command;

/// Seconds every documented `solve` is given.
const SOLVE_SECONDS: &str = "2";

/// The commands' first words after the binary.
const COMMANDS: &[&str] = &[
    "solve",
    "verify",
    "generate",
    "export-lp",
    "demo",
    "methods",
    "settings",
    "experiment",
    "simulate",
    "capacity",
    "selfcheck",
    "help",
];

/// Why a command is not run, by a substring of it.
const SKIPPED: &[(&str, &str)] = &[
    (
        "../shared/",
        "reads the published traces or benchmark sets, which live outside the repository",
    ),
    (
        "experiment ",
        "a paper-sized study or sweep (minutes to hours); tests/it/experiment.rs runs sweeps, \
         shards and merges on small sets",
    ),
    (
        "scripts/",
        "a shell script generating a 400-item benchmark set (the CloudSmall study's input)",
    ),
];

/// The documented commands of `doc`, with their line numbers.
fn commands(doc: &str) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(doc).unwrap();
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            continue;
        }
        if !inside {
            continue;
        }
        let line = line.trim_start().trim_start_matches("$ ");
        let rest = ["$B ", "vcalloc "]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        let Some(rest) = rest else { continue };
        let first = rest.split_whitespace().next().unwrap_or("");
        if COMMANDS.contains(&first) {
            out.push((i + 1, line.to_string()));
        }
    }
    out
}

/// The command as the test runs it: every `solve` with a short time limit.
fn shortened(line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for k in 0..words.len() {
        if words[k] == "--time-limit" && k + 1 < words.len() {
            words[k + 1] = SOLVE_SECONDS.to_string();
        }
    }
    let mut line = words.join(" ");
    if line.contains("solve ") && !line.contains("--time-limit") {
        let mut out = String::new();
        let mut rest = line.as_str();
        while let Some(at) = rest.find("--method ") {
            let after = &rest[at + "--method ".len()..];
            let end = after.find(' ').unwrap_or(after.len());
            out.push_str(&rest[..at + "--method ".len() + end]);
            out.push_str(" --time-limit ");
            out.push_str(SOLVE_SECONDS);
            rest = &after[end..];
        }
        out.push_str(rest);
        line = out;
    }
    line
}

fn run_document(doc: &str) -> usize {
    let found = commands(doc);
    assert!(
        found.len() >= 5,
        "{doc}: only {} commands found",
        found.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let root = std::env::current_dir().unwrap();
    std::os::unix::fs::symlink(root.join("data"), dir.path().join("data")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_vcalloc"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for (line_no, line) in found {
        if let Some((_, why)) = SKIPPED.iter().find(|(s, _)| line.contains(s)) {
            eprintln!("{doc}:{line_no}: skipped ({why}): {line}");
            continue;
        }
        let command = shortened(&line);
        let out = Command::new("bash")
            .arg("-c")
            .arg(&command)
            .current_dir(dir.path())
            .env("B", bin)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{doc}:{line_no}: `{command}` exited {:?}\nstdout: {}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    ran
}

#[test]
fn every_readme_command_runs() {
    let ran = run_document("README.md");
    assert!(ran >= 25, "only {ran} README commands ran");
}

#[test]
fn every_guide_command_runs() {
    let ran = run_document("docs/guide.md");
    assert!(ran >= 8, "only {ran} guide commands ran");
}

#[test]
fn the_extraction_finds_commands_and_shortens_solves() {
    let readme = commands("README.md");
    assert!(readme
        .iter()
        .any(|(_, c)| c.starts_with("$B solve vcsched inst.json --method milp")));
    assert!(!readme.iter().any(|(_, c)| c.starts_with("vcalloc demo:")));
    assert_eq!(
        shortened("$B solve x.json --method cg --time-limit 60 --output a.json"),
        "$B solve x.json --method cg --time-limit 2 --output a.json"
    );
    assert_eq!(
        shortened("$B solve x.json --method bp && $B solve y --method ffd | head"),
        "$B solve x.json --method bp --time-limit 2 && $B solve y --method ffd --time-limit 2 | head"
    );
}
