//! A program the test started, and what `/proc` says of it.

#![allow(dead_code)]

use std::process::Child;

/// A child process killed and reaped when the test ends, however it ends.
pub struct Running(pub Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A value in kB from `/proc/<pid>/status` (0 if it cannot be read).
pub fn proc_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
