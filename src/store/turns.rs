//! The writers of one process take the store's write lock in the order they
//! asked for it.
//!
//! SQLite's own wait for a busy write lock is a sleep and a retry. A
//! connection that writes transaction after transaction (ingest taking a
//! batch of fifty messages) takes the lock again long before a waiting one
//! wakes, and the waiting one (the sender, with an acknowledgement to record
//! before it goes out) starves until the batch is over. So the connections
//! one process opens from one another (`Store::another`) share a queue of
//! turns: a writer waits for those who asked before it, and no longer.
//! Another process writing to the same file (the CLI beside the daemon)
//! still meets SQLite's busy wait, as before.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest a writer waits for its turn before going on to SQLite's own
/// busy wait: the same as the connection's busy timeout, so that a turn
/// never held back forever (a writer that waits, in the same thread, for
/// another connection's write) costs no more than the lock itself would.
const LONGEST_WAIT: Duration = Duration::from_secs(10);

#[derive(Debug, Default)]
pub(crate) struct Queue {
    tickets: Mutex<Tickets>,
    turn: Condvar,
}

#[derive(Debug, Default)]
struct Tickets {
    /// The ticket the next writer to ask takes.
    next: u64,
    /// The ticket whose turn it is.
    serving: u64,
    /// Tickets given up after [`LONGEST_WAIT`], skipped when their turn comes.
    abandoned: Vec<u64>,
}

/// A writer's turn, held until its transaction is over.
#[derive(Debug)]
pub(crate) struct Turn<'a> {
    queue: &'a Queue,
    ticket: u64,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, Tickets> {
        // The counters stay consistent whatever panicked while holding them.
        self.tickets.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until every writer that asked before is done; `None` if that
    /// took longer than [`LONGEST_WAIT`].
    pub(crate) fn wait_turn(&self) -> Option<Turn<'_>> {
        let until = Instant::now() + LONGEST_WAIT;
        let mut tickets = self.lock();
        let ticket = tickets.next;
        tickets.next += 1;
        while tickets.serving != ticket {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                tickets.abandoned.push(ticket);
                return None;
            }
            tickets = match self.turn.wait_timeout(tickets, left) {
                Ok((t, _)) => t,
                Err(p) => p.into_inner().0,
            };
        }
        Some(Turn {
            queue: self,
            ticket,
        })
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut tickets = self.queue.lock();
        debug_assert_eq!(tickets.serving, self.ticket);
        tickets.serving += 1;
        while let Some(i) = tickets.abandoned.iter().position(|t| *t == tickets.serving) {
            tickets.abandoned.swap_remove(i);
            tickets.serving += 1;
        }
        self.queue.turn.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A writer that asks while another writes in a tight loop gets the
    /// next turn, not the turn after the loop.
    #[test]
    fn a_waiting_writer_goes_next_however_often_the_other_writes() {
        let queue = Arc::new(Queue::default());
        let done = Arc::new(AtomicBool::new(false));
        let held = queue.wait_turn().expect("the first turn");
        let waiter = {
            let (queue, done) = (Arc::clone(&queue), Arc::clone(&done));
            std::thread::spawn(move || {
                let _turn = queue.wait_turn().expect("a turn");
                done.store(true, Ordering::SeqCst);
            })
        };
        // Let the waiter take its ticket before this thread takes more.
        while queue.lock().next < 2 {
            std::thread::yield_now();
        }
        drop(held);
        let mut after = 0;
        while !done.load(Ordering::SeqCst) {
            let _turn = queue.wait_turn().expect("a turn");
            after += 1;
            assert!(after <= 1, "the loop took {after} turns before the waiter");
        }
        waiter.join().expect("joins");
    }

    /// Two connections of one store: while one writes transaction after
    /// transaction, the other's single write goes in within a turn or two,
    /// not after the loop (SQLite's busy wait alone let the loop starve it).
    #[test]
    fn a_write_on_another_connection_is_not_starved_by_a_loop_of_writes() {
        let dir = tempfile::tempdir().expect("dir");
        let mut looping = crate::store::Store::open(&dir.path().join("data")).expect("store");
        let other = looping.another().expect("opens").expect("a file store");
        let written = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let writer = {
            let (written, stop) = (Arc::clone(&written), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) && written.load(Ordering::SeqCst) < 2000 {
                    looping
                        .atomically(|s| -> crate::store::Result<()> {
                            s.execute("UPDATE outbox SET attempts = attempts WHERE id = -1", [])?;
                            std::thread::sleep(Duration::from_millis(2));
                            Ok(())
                        })
                        .expect("writes");
                    written.fetch_add(1, Ordering::SeqCst);
                }
            })
        };
        while written.load(Ordering::SeqCst) < 5 {
            std::thread::yield_now();
        }
        let before = written.load(Ordering::SeqCst);
        other
            .execute("UPDATE outbox SET attempts = attempts WHERE id = -2", [])
            .expect("the other connection writes");
        let waited = written.load(Ordering::SeqCst) - before;
        stop.store(true, Ordering::SeqCst);
        writer.join().expect("joins");
        assert!(
            waited <= 3,
            "the write waited for {waited} of the loop's transactions"
        );
    }

    #[test]
    fn an_abandoned_ticket_is_skipped() {
        let queue = Queue::default();
        let first = queue.wait_turn().expect("first");
        {
            let mut tickets = queue.lock();
            let ticket = tickets.next;
            tickets.next += 1;
            tickets.abandoned.push(ticket);
        }
        drop(first);
        assert!(
            queue.wait_turn().is_some(),
            "the turn after the abandoned one comes"
        );
    }
}
