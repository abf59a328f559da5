//! See `fuzz/bodies/campaign.rs`.
#![no_main]

#[allow(dead_code)]
#[path = "../bodies/mod.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::campaign::run(data));
