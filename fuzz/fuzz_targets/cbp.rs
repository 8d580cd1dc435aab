#![no_main]
//! SOC bin packing `.cbp` (`vcalloc solve socbp d_72_100_0.6_a.cbp`).
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::cbp(data));
