//! Named points where a test can stop the process, to prove that a crash
//! there loses nothing and repeats nothing.
//!
//! The environment variable `ADJUTANT_FAILPOINT` names one point; when the
//! process reaches it, it aborts on the spot, as a power cut or `kill -9`
//! would stop it: no destructor runs, no transaction is committed. Unset (as
//! it always is outside the crash tests), every point is a no-op. Only the
//! edges with I/O (ingest, the engine's steps, the outbox) have points; the
//! rules core has none.

use std::sync::OnceLock;

/// The variable that names the point to stop at.
pub const VARIABLE: &str = "ADJUTANT_FAILPOINT";

fn armed() -> Option<&'static str> {
    static ARMED: OnceLock<Option<String>> = OnceLock::new();
    ARMED
        .get_or_init(|| std::env::var(VARIABLE).ok().filter(|v| !v.is_empty()))
        .as_deref()
}

/// Stops the process here if the test asked for `name`; panics here if it
/// asked for `panic:name` (a fault in adjutant's own code, which the step
/// around the point must contain).
pub fn hit(name: &str) {
    let Some(asked) = armed() else {
        return;
    };
    if asked == name {
        eprintln!("adjutant: stopped at failpoint {name}");
        std::process::abort();
    }
    if asked.strip_prefix("panic:") == Some(name) {
        panic!("failpoint {name}");
    }
}
