//! Inbox sources as the daemon sees them: something that can say whether
//! mail may be waiting, and hand every waiting message to the ingest path,
//! letting go of each only once it is stored.
//!
//! The Maildir source is here; the IMAP source (`super::imap::ImapSource`)
//! implements [`InboxSource`] too, and [`InboxSource::wait_for_mail`] with
//! IDLE, so that the daemon wakes when mail arrives rather than at its next
//! poll.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::maildir;
use crate::ingest::{IngestConfig, Outcome};
use crate::lifecycle::Clock;
use crate::store::Store;

/// A failure to fetch mail; the messages stay where they were and are
/// tried again at the next poll.
#[derive(Debug, thiserror::Error)]
#[error("{source_name}: {message}")]
pub struct SourceError {
    pub source_name: String,
    pub message: String,
}

/// What came of waiting for mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// The source cannot be told of new mail; the daemon sleeps and polls.
    Unsupported,
    /// New mail may be waiting: look now.
    MailMayBeWaiting,
    /// The time passed without news.
    TimedOut,
}

/// Where inbound mail comes from.
pub trait InboxSource {
    /// A short name for logs: `maildir /var/mail/adjutant`.
    fn describe(&self) -> String;

    /// Whether mail may be waiting. A cheap look; when unsure, say yes.
    fn pending(&mut self) -> Result<bool, SourceError>;

    /// Ingests every waiting message, oldest first, and releases each (moves
    /// it, flags it, deletes it) only once it is stored and handled.
    /// Returns each message's name and what became of it.
    fn take(
        &mut self,
        store: &mut Store,
        config: &IngestConfig,
        clock: &dyn Clock,
    ) -> Result<Vec<(String, Outcome)>, SourceError>;

    /// Blocks until mail may have arrived, `timeout` has passed or `stop`
    /// is set (a shutdown, which must not wait for the timeout), for a
    /// source that can be told of mail (IMAP IDLE). The default cannot, and
    /// says so at once.
    fn wait_for_mail(
        &mut self,
        _timeout: Duration,
        _stop: &AtomicBool,
    ) -> Result<Waited, SourceError> {
        Ok(Waited::Unsupported)
    }
}

/// A Maildir the MTA delivers into.
pub struct MaildirSource {
    root: PathBuf,
}

impl MaildirSource {
    pub fn new(root: impl Into<PathBuf>) -> MaildirSource {
        MaildirSource { root: root.into() }
    }

    fn error(&self, message: impl ToString) -> SourceError {
        SourceError {
            source_name: self.describe(),
            message: message.to_string(),
        }
    }
}

impl InboxSource for MaildirSource {
    fn describe(&self) -> String {
        format!("maildir {}", self.root.display())
    }

    fn pending(&mut self) -> Result<bool, SourceError> {
        let new = self.root.join("new");
        match std::fs::read_dir(&new) {
            // The same test as the scan's: a file whose name does not start
            // with a dot. Anything else would be "pending" forever, and the
            // loop would never rest.
            Ok(mut entries) => Ok(entries.any(|e| {
                e.is_ok_and(|e| {
                    e.file_type().is_ok_and(|t| t.is_file())
                        && !e.file_name().to_string_lossy().starts_with('.')
                })
            })),
            // A Maildir not made yet has no mail; `take` creates it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(self.error(format!("cannot read {}: {e}", new.display()))),
        }
    }

    fn take(
        &mut self,
        store: &mut Store,
        config: &IngestConfig,
        clock: &dyn Clock,
    ) -> Result<Vec<(String, Outcome)>, SourceError> {
        maildir::scan(&self.root, store, config, clock).map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_message_files_in_new_count_as_pending() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().join("Maildir");
        let mut source = MaildirSource::new(&root);
        assert!(!source.pending().expect("no Maildir yet is no mail"));
        maildir::create(&root).expect("created");
        std::fs::create_dir(root.join("new/subfolder")).expect("dir");
        std::fs::write(root.join("new/.hidden"), b"x").expect("file");
        assert!(!source.pending().expect("reads"));
        maildir::deliver(&root, "1.m", b"Subject: x\r\n\r\nx").expect("delivered");
        assert!(source.pending().expect("reads"));
    }
}
