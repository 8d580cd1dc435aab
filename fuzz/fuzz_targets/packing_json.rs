#![no_main]
//! The JSON instances of bin packing and SOC bin packing.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::packing_json(data));
