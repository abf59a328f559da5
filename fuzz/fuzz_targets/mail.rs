//! See `fuzz/bodies/mail.rs`.
#![no_main]

#[allow(dead_code)]
#[path = "../bodies/mod.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::mail::run(data));
