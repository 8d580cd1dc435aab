#![no_main]
//! Solution JSON for `vcalloc verify`: read as every family's solution and, when it reads,
//! re-checked against that family's fixture instance. `verify` must report violations, not
//! panic, whatever the numbers.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::solution_json(data));
