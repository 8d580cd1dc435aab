#![no_main]
//! SWF traces: the PC/EC reader (bytes, as from a file or a gzip stream) with the instance
//! built from it, and the market family's reader.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::swf(data));
