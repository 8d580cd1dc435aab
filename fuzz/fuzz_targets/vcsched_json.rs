#![no_main]
//! VCSched instance JSON (`vcalloc solve vcsched jobs.json`).
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::vcsched_json(data));
