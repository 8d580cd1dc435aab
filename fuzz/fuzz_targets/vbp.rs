#![no_main]
//! VPSolver `.vbp` (`vcalloc solve binpacking CL_1_25_1.vbp`).
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::vbp(data));
