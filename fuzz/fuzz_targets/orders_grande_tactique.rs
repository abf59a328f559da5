//! The orders of the `grande-tactique` ruleset (see `fuzz/bodies/orders.rs`).
#![no_main]

#[allow(dead_code)]
#[path = "../bodies/mod.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::orders::run("grande-tactique", data));
