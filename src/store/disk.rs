//! What the disk under the data directory says when the store cannot work.
//!
//! SQLite names a disk that filled or turned read-only under it in several
//! ways, some of which do not name the cause at all: "database or disk is
//! full", "attempt to write a readonly database", or only "disk I/O error"
//! (error code 4874) when it could not give its shared-memory index the
//! room it needs. An operator reading the log needs the cause in plain
//! words, so when the store fails the daemon (and the store, when it cannot
//! open) tries to write a small file beside the database and says what the
//! file system answered.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Why nothing can be written where the store lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trouble {
    /// No room left on the disk.
    Full,
    /// The file system is mounted read-only.
    ReadOnly,
    /// Another refusal (permissions, a quota), in the system's words.
    Refused(String),
}

/// The data directory and what its disk said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskTrouble {
    pub dir: PathBuf,
    pub trouble: Trouble,
}

impl std::fmt::Display for DiskTrouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dir = self.dir.display();
        match &self.trouble {
            Trouble::Full => write!(
                f,
                "the disk holding {dir} is full (no space left on device)"
            ),
            Trouble::ReadOnly => write!(f, "the file system holding {dir} is read-only"),
            Trouble::Refused(why) => write!(f, "{dir} cannot be written: {why}"),
        }
    }
}

impl std::error::Error for DiskTrouble {}

/// Whether a database error is one a full or read-only disk, or a folder
/// that cannot be written, gives: worth asking the disk about.
pub fn may_be_the_disk(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::{CannotOpen, DiskFull, ReadOnly, SystemIoFailure};
    matches!(
        e.sqlite_error_code(),
        Some(SystemIoFailure | DiskFull | ReadOnly | CannotOpen)
    )
}

/// The file written to find out; removed at once.
const PROBE: &str = ".disk-probe";

/// One page: a file of it needs a block of its own, as the database's next
/// write would.
const PROBE_BYTES: usize = 4096;

/// Whether a page can be written in `dir` now, and if not, why.
pub fn probe(dir: &Path) -> Option<DiskTrouble> {
    let file = dir.join(PROBE);
    let written = std::fs::File::create(&file)
        .and_then(|mut f| f.write_all(&[0; PROBE_BYTES]).and_then(|()| f.sync_data()));
    let _ = std::fs::remove_file(&file);
    let e = written.err()?;
    let trouble = match e.kind() {
        std::io::ErrorKind::StorageFull => Trouble::Full,
        std::io::ErrorKind::ReadOnlyFilesystem => Trouble::ReadOnly,
        _ => Trouble::Refused(e.to_string()),
    };
    Some(DiskTrouble {
        dir: dir.to_path_buf(),
        trouble,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_with_room_has_no_trouble_and_keeps_no_probe() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(probe(dir.path()), None);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_directory_that_is_gone_is_refused_in_the_systems_words() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone");
        let trouble = probe(&gone).expect("cannot write there");
        assert!(
            matches!(trouble.trouble, Trouble::Refused(_)),
            "{trouble:?}"
        );
        assert!(
            trouble.to_string().contains("cannot be written"),
            "{trouble}"
        );
    }

    #[test]
    fn only_errors_a_disk_can_give_send_the_store_to_ask_it() {
        let failure = |code| rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
        // "disk I/O error" as a full disk gives it at open (its shared
        // memory could not grow), and "database or disk is full".
        assert!(may_be_the_disk(&failure(4874)));
        assert!(may_be_the_disk(&failure(rusqlite::ffi::SQLITE_FULL)));
        assert!(may_be_the_disk(&failure(rusqlite::ffi::SQLITE_READONLY)));
        assert!(!may_be_the_disk(&failure(rusqlite::ffi::SQLITE_CORRUPT)));
        assert!(!may_be_the_disk(&failure(rusqlite::ffi::SQLITE_BUSY)));
    }

    #[test]
    fn each_trouble_names_the_directory_and_the_cause() {
        let dir = PathBuf::from("/srv/adjutant/var");
        let full = DiskTrouble {
            dir: dir.clone(),
            trouble: Trouble::Full,
        };
        assert!(
            full.to_string()
                .starts_with("the disk holding /srv/adjutant/var is full")
        );
        let read_only = DiskTrouble {
            dir,
            trouble: Trouble::ReadOnly,
        };
        assert!(read_only.to_string().contains("is read-only"));
    }
}
