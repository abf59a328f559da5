//! See `fuzz/bodies/ingest.rs`.
#![no_main]

#[allow(dead_code)]
#[path = "../bodies/mod.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(init: bodies::ingest::prepare(), |data: &[u8]| {
    bodies::ingest::run(data)
});
