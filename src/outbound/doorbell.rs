//! A bell rung whenever mail is queued, so that whoever sends the outbox
//! (the daemon's sending thread) sends it at once rather than at its next
//! look. Ringing with nobody waiting is harmless; a ring is kept until the
//! next wait takes it, so none is missed between two waits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
pub struct Doorbell {
    rung: Mutex<bool>,
    bell: Condvar,
}

/// How often a wait looks at the stop flag, which a signal handler sets
/// without ringing.
const STOP_LOOK: Duration = Duration::from_millis(100);

impl Doorbell {
    /// Says that mail may be waiting.
    pub fn ring(&self) {
        if let Ok(mut rung) = self.rung.lock() {
            *rung = true;
            self.bell.notify_all();
        }
    }

    /// Waits until the bell rings (or rang since the last wait), `timeout`
    /// passes, or `stop` is set. Returns whether it rang.
    pub fn wait(&self, timeout: Duration, stop: &AtomicBool) -> bool {
        let until = Instant::now() + timeout;
        let Ok(mut rung) = self.rung.lock() else {
            return false;
        };
        loop {
            if *rung {
                *rung = false;
                return true;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || stop.load(Ordering::SeqCst) {
                return false;
            }
            rung = match self.bell.wait_timeout(rung, left.min(STOP_LOOK)) {
                Ok((rung, _)) => rung,
                Err(_) => return false,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_before_the_wait_is_not_missed_and_is_taken_once() {
        let bell = Doorbell::default();
        let stop = AtomicBool::new(false);
        bell.ring();
        assert!(bell.wait(Duration::from_secs(5), &stop));
        assert!(!bell.wait(Duration::from_millis(10), &stop));
    }

    #[test]
    fn a_ring_from_another_thread_ends_the_wait_and_a_stop_does_too() {
        let bell = std::sync::Arc::new(Doorbell::default());
        let stop = AtomicBool::new(false);
        let ringer = {
            let bell = std::sync::Arc::clone(&bell);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                bell.ring();
            })
        };
        let started = Instant::now();
        assert!(bell.wait(Duration::from_secs(30), &stop));
        assert!(started.elapsed() < Duration::from_secs(10));
        ringer.join().expect("rings");
        stop.store(true, Ordering::SeqCst);
        let started = Instant::now();
        assert!(!bell.wait(Duration::from_secs(30), &stop));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
