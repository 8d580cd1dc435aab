#![no_main]
//! Periodic-demand instance JSON (`vcalloc solve periodic inst.json`).
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::periodic_json(data));
