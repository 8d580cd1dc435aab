#![no_main]
//! VCSched instance CSV (`vcalloc solve vcsched jobs.csv --hosts H`), with 0 to 3 hosts.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::vcsched_csv(data));
