#![no_main]
//! PC/EC: the instance JSON and the PM description of `vcalloc capacity pcec`.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::pcec_json(data));
