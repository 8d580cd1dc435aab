//! Helpers shared by the integration tests: seeded random tiny instances.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use vcalloc::vcsched::{generate, Instance, Job, Spec};

/// A tiny random instance (1–`max_hosts` hosts, 1–`max_jobs` jobs) from `seed`: half of the
/// time drawn by the §4.1 generator with random parameters, half uniform in (0, 1].
pub fn tiny_instance(seed: u64, max_hosts: usize, max_jobs: usize) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hosts = rng.random_range(1..=max_hosts);
    let jobs = rng.random_range(1..=max_jobs);
    if rng.random_bool(0.5) {
        let spec = Spec {
            hosts,
            jobs,
            slack: rng.random_range(0.1..0.9),
            cv_mem: [0.25, 0.75][rng.random_range(0..2)],
            cv_cpu: [0.25, 0.75][rng.random_range(0..2)],
            seed: rng.random(),
        };
        if let Ok(inst) = generate(&spec) {
            return inst;
        }
    }
    let jobs = (0..jobs)
        .map(|_| Job {
            cpu: 1.0 - rng.random::<f64>(),
            mem: (1.0 - rng.random::<f64>()) * rng.random_range(0.2..1.0),
            name: None,
        })
        .collect();
    Instance::new(hosts, jobs, Path::new("<test>")).expect("valid by construction")
}

/// Runs the `vcalloc` binary.
pub fn vcalloc(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_vcalloc"))
        .args(args)
        .output()
        .unwrap()
}

/// Writes `text` to `name` in `dir`.
pub fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `args` and checks the bad-input contract: exit code 2, no panic, and every fragment
/// (file, field or line, value, reason) in the message.
pub fn expect_input_error(args: &[&str], fragments: &[&str]) {
    let out = vcalloc(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for f in fragments {
        assert!(err.contains(f), "`{f}` missing from: {err}");
    }
}
