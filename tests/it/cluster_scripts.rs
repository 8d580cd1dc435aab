//! The cluster scripts run locally with N = 3: `scripts/slurm/submit.sh` through a stand-in
//! `sbatch` that runs each job at once (array tasks one after the other, with
//! `SLURM_ARRAY_TASK_ID` set), and the HTCondor executables with the arguments its submit
//! file gives them; both merges must equal a single-process sweep, row for row.
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const SWEEP_ARGS: &str = "--instances-per-spec 1 --methods gr,sg,mcb8,lp-bound --seed 7";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bash(script: &str, args: &[&str], env: &[(&str, &str)]) {
    let out = Command::new("bash")
        .arg(root().join(script))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The lines of `dir/results.csv` without the `seconds` column (the only timing).
fn rows(dir: &Path) -> Vec<String> {
    common::csv_without_seconds(dir)
        .lines()
        .map(String::from)
        .collect()
}

fn single_process_sweep(dir: &Path) -> Vec<String> {
    let mut args = vec![
        "experiment",
        "vcsched-small",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend(SWEEP_ARGS.split(' '));
    let s = Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(s.status.success());
    let r = rows(dir);
    assert_eq!(r.len(), 1 + 144 * 4);
    r
}

/// A stand-in `sbatch`: logs its arguments, runs the job at once (an array's tasks in turn)
/// and prints a job id as `--parsable` does.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
echo "$*" >> "$FAKE_LOG"
array="" script=""
for a in "$@"; do
    case $a in
        --array=*) array=${a#--array=} ;;
        -*) ;;
        *) script=$a ;;
    esac
done
id=$(( 4240 + $(wc -l < "$FAKE_LOG") ))
if [ -n "$array" ]; then
    n=${array#1-}
    for k in $(seq 1 "$n"); do
        SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=$n \
            SLURM_CPUS_PER_TASK=2 bash "$script" > /dev/null
    done
else
    bash "$script" > /dev/null
fi
echo "$id;cluster"
"#;

#[test]
fn slurm_array_and_dependent_merge_equal_one_sweep() {
    let d = tempfile::tempdir().unwrap();
    let want = single_process_sweep(&d.path().join("single"));

    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let log = d.path().join("sbatch.log");
    let out = d.path().join("runs");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    bash(
        "scripts/slurm/submit.sh",
        &["--partition=test"],
        &[
            ("PATH", &path),
            ("FAKE_LOG", log.to_str().unwrap()),
            ("SET", "vcsched-small"),
            ("OUT", out.to_str().unwrap()),
            ("SHARDS", "3"),
            ("VCALLOC", env!("CARGO_BIN_EXE_vcalloc")),
            ("SWEEP_ARGS", SWEEP_ARGS),
        ],
    );
    // Two submissions: the array of three tasks, then the merge after it.
    let calls: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(
        calls[0].contains("--array=1-3")
            && calls[0].contains("--partition=test")
            && calls[0].ends_with("/slurm/sweep.sbatch"),
        "{calls:?}"
    );
    assert!(
        calls[1].contains("--dependency=afterok:4241") && calls[1].ends_with("/merge.sbatch"),
        "{calls:?}"
    );
    // Each shard holds a third of the rows, none twice; merged, they are the single sweep.
    let mut shard_rows = 0;
    for k in 1..=3 {
        let r = rows(&out.join(format!("shard-{k}")));
        assert!(r.len() > 1 + 100, "shard {k}: {} rows", r.len());
        shard_rows += r.len() - 1;
    }
    assert_eq!(shard_rows, 144 * 4);
    assert_eq!(rows(&out.join("merged")), want);
    assert!(out.join("merged/report.md").exists());
}

#[test]
fn htcondor_jobs_and_merge_equal_one_sweep() {
    let d = tempfile::tempdir().unwrap();
    let want = single_process_sweep(&d.path().join("single"));
    let out = d.path().join("runs");
    let out_s = out.to_str().unwrap();
    let env = [
        ("SET", "vcsched-small"),
        ("OUT", out_s),
        ("VCALLOC", env!("CARGO_BIN_EXE_vcalloc")),
        ("THREADS", "2"),
        ("SWEEP_ARGS", SWEEP_ARGS),
    ];
    // What sweep.sub runs: `shard.sh $(Process) $(SHARDS)` for Process 0, 1, 2.
    let sub = std::fs::read_to_string(root().join("scripts/htcondor/sweep.sub")).unwrap();
    assert!(sub.contains("executable          = scripts/htcondor/shard.sh"));
    assert!(sub.contains("arguments           = $(Process) $(SHARDS)"));
    assert!(sub.contains("queue $(SHARDS)"));
    let dag = std::fs::read_to_string(root().join("scripts/htcondor/sweep.dag")).unwrap();
    assert!(dag.contains("PARENT shards CHILD merge"));
    for process in ["0", "1", "2"] {
        bash("scripts/htcondor/shard.sh", &[process, "3"], &env);
    }
    bash("scripts/htcondor/merge.sh", &["3"], &env);
    assert_eq!(rows(&out.join("merged")), want);
    // A shard that never ran is named, not silently merged away.
    let missing = tempfile::tempdir().unwrap();
    let status = Command::new("bash")
        .arg(root().join("scripts/cluster/merge.sh"))
        .arg("4")
        .env("OUT", out_s)
        .env("VCALLOC", env!("CARGO_BIN_EXE_vcalloc"))
        .current_dir(missing.path())
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&status.stderr).contains("shard-4"));
}
