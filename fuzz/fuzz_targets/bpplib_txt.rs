#![no_main]
//! BPPLIB `.txt`, as bin packing reads it and as the periodic family reads it (equal weights
//! merged into jobs).
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::bpplib_txt(data));
