#![no_main]
//! Market: the rebalance instance JSON and the scenario of `vcalloc simulate rebalance`.
#[path = "../src/targets.rs"]
mod targets;
libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::market_json(data));
