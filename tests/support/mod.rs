//! Helpers shared by integration tests (`mod support;`).

pub mod browser;
pub mod by_mail;
pub mod cheap_hash;
pub mod crash_harness;
pub mod faults;
pub mod mailstack;
pub mod process;
pub mod secrets;
pub mod seeded;
