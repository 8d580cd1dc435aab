#![no_main]
//! Evolving-applications instance JSON.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::evolving_json(data));
