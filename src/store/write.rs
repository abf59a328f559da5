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

use super::{Result, Store, StoreError};

type Outcome<T, E> = std::result::Result<T, E>;

/// A write in progress; rolled back when dropped without [`Write::commit`].
pub(crate) struct Write<'a> {
    conn: &'a Connection,
    /// Whether it is the transaction itself rather than a savepoint in one.
    outer: bool,
    finished: bool,
}

impl<'a> Write<'a> {
    pub(crate) fn begin(conn: &'a Connection) -> Result<Write<'a>> {
        let outer = conn.is_autocommit();
        conn.execute_batch(if outer {
            "BEGIN IMMEDIATE"
        } else {
            "SAVEPOINT write_step"
        })?;
        Ok(Write {
            conn,
            outer,
            finished: false,
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
