//! One write to the store: its own transaction, or a part of a larger unit
//! of work.
//!
//! Each store method that changes several rows does so through a [`Write`].
//! Called alone, the write is an IMMEDIATE transaction of its own (the write
//! lock is taken before anything is read, so no other process can change
//! what it read before it commits). Called inside [`Store::atomically`], it
//! is a savepoint of that one transaction: the inbound message, the orders
//! or GM commands it carried, its outcome and its reply then commit together
//! or not at all.

use std::ops::Deref;

use rusqlite::Connection;

use super::turns::{Queue, Turn};
use super::{Result, Store, StoreError};

type Outcome<T, E> = std::result::Result<T, E>;

/// A write in progress; rolled back when dropped without [`Write::commit`].
pub(crate) struct Write<'a> {
    conn: &'a Connection,
    /// Whether it is the transaction itself rather than a savepoint in one.
    outer: bool,
    finished: bool,
    /// This process's turn to write, held until the transaction is over;
    /// dropped after it (fields drop after `Drop::drop` has rolled back).
    _turn: Option<Turn<'a>>,
}

impl<'a> Write<'a> {
    fn begin(conn: &'a Connection, writers: &'a Queue) -> Result<Write<'a>> {
        let outer = conn.is_autocommit();
        let turn = if outer { writers.wait_turn() } else { None };
        conn.execute_batch(if outer {
            "BEGIN IMMEDIATE"
        } else {
            "SAVEPOINT write_step"
        })?;
        Ok(Write {
            conn,
            outer,
            finished: false,
            _turn: turn,
        })
    }

    pub(crate) fn commit(mut self) -> Result<()> {
        self.finished = true;
        self.conn.execute_batch(if self.outer {
            "COMMIT"
        } else {
            "RELEASE write_step"
        })?;
        Ok(())
    }
}

impl Drop for Write<'_> {
    fn drop(&mut self) {
        if !self.finished {
            // Nothing to report to: the error that brought us here is on its
            // way to the caller, and an unfinished transaction is rolled back
            // by SQLite when the connection closes in any case.
            let _ = self.conn.execute_batch(if self.outer {
                "ROLLBACK"
            } else {
                "ROLLBACK TO write_step; RELEASE write_step"
            });
        }
    }
}

impl Deref for Write<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Store {
    /// A write of its own, or a savepoint of the transaction under way.
    pub(crate) fn write(&self) -> Result<Write<'_>> {
        Write::begin(&self.conn, &self.writers)
    }

    /// One statement that writes, in its own turn when it is not part of a
    /// transaction under way (see `turns`).
    pub(crate) fn execute(&self, sql: &str, args: impl rusqlite::Params) -> Result<usize> {
        let _turn = if self.conn.is_autocommit() {
            self.writers.wait_turn()
        } else {
            None
        };
        Ok(self.conn.execute(sql, args)?)
    }

    /// Runs `work` as one transaction: every write it makes through the
    /// store commits with the others when it returns `Ok`, and none does
    /// when it returns an error (or the process stops before it returns).
    pub fn atomically<T, E>(
        &mut self,
        work: impl FnOnce(&mut Store) -> Outcome<T, E>,
    ) -> Outcome<T, E>
    where
        E: From<StoreError>,
    {
        if !self.conn.is_autocommit() {
            // Already inside one: the outer unit commits or rolls back all.
            return work(self);
        }
        // The turn is held by a handle of its own to the queue, since `work`
        // takes the whole store.
        let writers = std::sync::Arc::clone(&self.writers);
        let _turn = writers.wait_turn();
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| E::from(StoreError::from(e)))?;
        // A panic inside the unit rolls it back before it goes on up: a
        // caller that catches it (ingest sets a message aside) must find the
        // connection out of the transaction, as after any failed step.
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&mut *self)));
        let done = match done {
            Ok(done) => done,
            Err(panic) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                std::panic::resume_unwind(panic);
            }
        };
        match done {
            Ok(value) => {
                self.conn
                    .execute_batch("COMMIT")
                    .map_err(|e| E::from(StoreError::from(e)))?;
                Ok(value)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}
