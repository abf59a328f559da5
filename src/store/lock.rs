//! One process at a time in a data directory. Two daemons on one store
//! would each resolve due phases and each send the outbox; the store's
//! transactions keep the data whole, but mail could go out twice. The
//! daemon, `adjutant send` and the commands that read an inbox hold an
//! exclusive lock on `adjutant.lock` for as long as they run; a second one
//! is refused, told who holds it. Commands that only add to the store in one
//! transaction (an MTA's `adjutant ingest`, the GM's commands) need no lock.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

/// The lock file's name inside the data directory.
pub const LOCK_FILE: &str = "adjutant.lock";

/// Why the lock could not be taken.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    #[error(
        "the data directory {dir} is in use by another adjutant ({holder}); stop it first, or give this one another data directory"
    )]
    Held { dir: PathBuf, holder: String },
    #[error("cannot lock the data directory {dir}: {source}")]
    Io {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// The lock, held until dropped (or the process ends, however it ends: the
/// operating system releases it).
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

impl DataDirLock {
    /// Takes the lock of `data_dir` for `what` (`adjutant daemon`), writing
    /// who holds it into the lock file for the next one to read.
    pub fn acquire(
        data_dir: &Path,
        what: &str,
        now: DateTime<Utc>,
    ) -> Result<DataDirLock, LockError> {
        let io = |source| LockError::Io {
            dir: data_dir.to_path_buf(),
            source,
        };
        // Made as the store makes it, the owner's alone (see `access`).
        if !data_dir.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(super::access::DIR_MODE)
                .create(data_dir)
                .map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(data_dir.join(LOCK_FILE))
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(LockError::Held {
                    dir: data_dir.to_path_buf(),
                    holder: if holder.is_empty() {
                        "it did not say who it is".to_string()
                    } else {
                        holder.to_string()
                    },
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(
            file,
            "{what}, process {}, since {}",
            std::process::id(),
            now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        )
        .map_err(io)?;
        file.flush().map_err(io)?;
        Ok(DataDirLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_told_who_holds_it() {
        let dir = tempfile::tempdir().expect("dir");
        let now = DateTime::<Utc>::UNIX_EPOCH;
        let first = DataDirLock::acquire(dir.path(), "adjutant daemon", now).expect("first");
        let second = DataDirLock::acquire(dir.path(), "adjutant send", now).expect_err("held");
        let said = second.to_string();
        assert!(said.contains("in use by another adjutant"), "{said}");
        assert!(said.contains("adjutant daemon, process"), "{said}");
        drop(first);
        DataDirLock::acquire(dir.path(), "adjutant send", now).expect("free again");
    }
}
