#![no_main]
//! Settings files (`--settings FILE`), JSON and TOML, read as every family's settings:
//! decoded and validated, or an error naming the file and the key.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::settings(data));
