//! `vcalloc-fuzz-stable TARGET SECONDS CORPUS ARTIFACTS [TIMEOUT_S]`: mutates the corpus at
//! random (bit flips, byte edits, cut and repeated ranges, splices, and tokens that parsers
//! mishandle: `-1`, `NaN`, `1e309`, 2⁶⁴, empty containers…) and runs the target on each input.
//! A panic saves the input to ARTIFACTS (`crash-HASH`) and the run goes on; an input running
//! longer than TIMEOUT_S (10) saves it (`timeout-HASH`) and ends the run. Prints the
//! executions and the crashes.

#[path = "../../src/targets.rs"]
mod targets;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKENS: &[&str] = &[
    "-1",
    "0",
    "-0",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "1e-320",
    "18446744073709551616",
    "9223372036854775807",
    "4294967296",
    "999999999999",
    "0.0",
    "null",
    "[]",
    "{}",
    "\"\"",
    "\n",
    ",",
    " ",
    "#",
    "\t",
    "true",
    "[[]]",
    "{\"\":0}",
    "1.5",
    "-7",
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn mutate(rng: &mut Rng, pool: &[Vec<u8>], input: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let n = input.len();
        match rng.below(9) {
            0 if n > 0 => {
                let i = rng.below(n);
                input[i] ^= 1 << rng.below(8);
            }
            1 if n > 0 => {
                let i = rng.below(n);
                input[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(n + 1);
                input.insert(i, b"0123456789-.,e:[]{}\"\n "[rng.below(21)]);
            }
            3 if n > 0 => {
                let i = rng.below(n);
                let j = (i + 1 + rng.below(16)).min(n);
                input.drain(i..j);
            }
            4 if n > 0 => {
                let i = rng.below(n);
                let j = (i + 1 + rng.below(64)).min(n);
                let piece = input[i..j].to_vec();
                let at = rng.below(n + 1);
                input.splice(at..at, piece);
            }
            5 | 6 => {
                // Replace a number (or insert at random) with a token.
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let digits: Vec<usize> = (0..n).filter(|&i| input[i].is_ascii_digit()).collect();
                if digits.is_empty() {
                    let at = rng.below(n + 1);
                    input.splice(at..at, t.iter().copied());
                } else {
                    let i = digits[rng.below(digits.len())];
                    let mut a = i;
                    while a > 0
                        && (input[a - 1].is_ascii_digit() || b".-+eE".contains(&input[a - 1]))
                    {
                        a -= 1;
                    }
                    let mut b = i;
                    while b < n && (input[b].is_ascii_digit() || b".-+eE".contains(&input[b])) {
                        b += 1;
                    }
                    input.splice(a..b, t.iter().copied());
                }
            }
            7 if !pool.is_empty() => {
                let other = &pool[rng.below(pool.len())];
                let cut = rng.below(n + 1);
                let from = rng.below(other.len() + 1);
                input.truncate(cut);
                input.extend_from_slice(&other[from..]);
            }
            _ if n > 1 => input.truncate(rng.below(n)),
            _ => {}
        }
    }
    input.truncate(1 << 16);
}

fn save(dir: &Path, kind: &str, data: &[u8]) -> PathBuf {
    std::fs::create_dir_all(dir).expect("the artifacts folder");
    let p = dir.join(format!("{kind}-{:016x}", hash(data)));
    std::fs::write(&p, data).expect("an artifact");
    p
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("usage: vcalloc-fuzz-stable TARGET SECONDS CORPUS ARTIFACTS [TIMEOUT_S]");
        std::process::exit(2);
    }
    let Some(&(name, target)) = targets::ALL.iter().find(|(n, _)| *n == a[1]) else {
        let names: Vec<&str> = targets::ALL.iter().map(|t| t.0).collect();
        eprintln!("unknown target {}; one of {}", a[1], names.join(", "));
        std::process::exit(2);
    };
    let seconds: f64 = a[2].parse().expect("SECONDS");
    let artifacts = PathBuf::from(&a[4]);
    let timeout: u64 = a.get(5).map_or(10, |t| t.parse().expect("TIMEOUT_S"));
    let mut pool: Vec<Vec<u8>> = std::fs::read_dir(&a[3])
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    if pool.is_empty() {
        pool.push(Vec::new());
    }
    std::panic::set_hook(Box::new(|_| {}));
    // The watchdog: an input running past the timeout is saved and ends the run.
    let began = Instant::now();
    let started = Arc::new(AtomicU64::new(u64::MAX));
    let current = Arc::new(Mutex::new(Vec::new()));
    {
        let (started, current, artifacts) = (started.clone(), current.clone(), artifacts.clone());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let s = started.load(Ordering::Relaxed);
            let now = began.elapsed().as_millis() as u64;
            if s != u64::MAX && now.saturating_sub(s) > timeout * 1000 {
                let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                let p = save(&artifacts, "timeout", &input);
                println!("{name}: an input ran over {timeout} s: {}", p.display());
                std::process::exit(1);
            }
        });
    }
    let seeds = pool.len();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ hash(name.as_bytes()));
    let (mut execs, mut crashes) = (0u64, Vec::new());
    let mut seen = std::collections::HashSet::new();
    let mut k = 0;
    while began.elapsed().as_secs_f64() < seconds {
        // Every seed once as it is, then mutants: half of a seed, half of any kept input.
        let from = if k < seeds || rng.below(2) == 0 {
            k % seeds
        } else {
            rng.below(pool.len())
        };
        let mut input = pool[from].clone();
        if k >= seeds {
            mutate(&mut rng, &pool, &mut input);
        }
        k += 1;
        if let Ok(mut c) = current.lock() {
            c.clone_from(&input);
        }
        started.store(began.elapsed().as_millis() as u64, Ordering::Relaxed);
        let result = std::panic::catch_unwind(|| target(&input));
        started.store(u64::MAX, Ordering::Relaxed);
        execs += 1;
        match result {
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let key: String = msg.chars().take(80).collect();
                if seen.insert(key) {
                    let p = save(&artifacts, "crash", &input);
                    println!("{name}: panic `{msg}`: {}", p.display());
                    crashes.push(p);
                }
            }
            Ok(()) if execs % 997 == 0 && input.len() > 8 && pool.len() < 4096 => pool.push(input),
            Ok(()) => {}
        }
    }
    println!(
        "{name}: {execs} executions in {:.0} s, {} distinct crash(es)",
        began.elapsed().as_secs_f64(),
        crashes.len()
    );
    std::process::exit(i32::from(!crashes.is_empty()));
}
