//! Helpers shared by integration tests (`mod support;`).

pub mod browser;
pub mod crash_harness;
pub mod faults;
pub mod mailstack;
