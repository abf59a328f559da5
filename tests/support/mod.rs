//! Helpers shared by integration tests (`mod support;`).

pub mod browser;
pub mod mailstack;
pub mod process;
pub mod seeded;
