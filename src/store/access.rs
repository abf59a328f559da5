//! Who may read the store. It holds every campaign's unrevealed secrets (the
//! chain origins), so the data directory is the owner's alone (0700) and the
//! database file too (0600). A looser directory or file is refused at start,
//! with the command that tightens it, rather than quietly used: an operator
//! who copied a data directory with `cp -r` should learn that it became
//! readable, not find out from a leaked secret.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of the data directory.
pub const DIR_MODE: u32 = 0o700;
/// The mode of the database file (SQLite gives its -wal and -shm files the
/// mode of the database).
pub const FILE_MODE: u32 = 0o600;

/// Why the store's files were refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AccessError {
    #[error("cannot create the data directory {path}: {source}")]
    Create { path: PathBuf, source: io::Error },
    #[error("cannot read the permissions of {path}: {source}")]
    Inspect { path: PathBuf, source: io::Error },
    #[error("{path} is not a directory")]
    NotADirectory { path: PathBuf },
    /// Group or others may read, write or enter it.
    #[error(
        "{path} has mode {mode:04o}, which lets other users of this machine read the campaigns' unrevealed secrets; it must be {wanted:04o}: run `chmod {wanted:o} {path}`"
    )]
    TooOpen {
        path: PathBuf,
        mode: u32,
        wanted: u32,
    },
}

/// Makes the data directory (0700) if it is missing, creates the database
/// file (0600) if it is missing, and refuses either if group or others have
/// any access to it.
pub fn secure(data_dir: &Path, db_file: &Path) -> Result<(), AccessError> {
    if !data_dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(data_dir)
            .map_err(|source| AccessError::Create {
                path: data_dir.to_path_buf(),
                source,
            })?;
    }
    private_dir(data_dir)?;
    if !db_file.exists() {
        // Created here, not by SQLite, which would follow the umask (0644).
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(FILE_MODE)
            .open(db_file)
            .map_err(|source| AccessError::Create {
                path: db_file.to_path_buf(),
                source,
            })?;
    }
    private_files(db_file)
}

/// Checks, without making anything, that the data directory and the
/// database (with its -wal and -shm files) are still the owner's alone: the
/// daemon looks again at each pass, since a mode loosened while it runs
/// (a `chmod -R`, a backup restored) leaks what a refusal at start would
/// have kept.
pub fn check(data_dir: &Path, db_file: &Path) -> Result<(), AccessError> {
    private_dir(data_dir)?;
    private_files(db_file)
}

fn private_dir(data_dir: &Path) -> Result<(), AccessError> {
    let dir = metadata(data_dir)?;
    if !dir.is_dir() {
        return Err(AccessError::NotADirectory {
            path: data_dir.to_path_buf(),
        });
    }
    private(data_dir, &dir, DIR_MODE)
}

fn private_files(db_file: &Path) -> Result<(), AccessError> {
    private(db_file, &metadata(db_file)?, FILE_MODE)?;
    for extra in ["-wal", "-shm"] {
        let mut name = db_file.as_os_str().to_owned();
        name.push(extra);
        let path = PathBuf::from(name);
        if path.exists() {
            private(&path, &metadata(&path)?, FILE_MODE)?;
        }
    }
    Ok(())
}

fn metadata(path: &Path) -> Result<fs::Metadata, AccessError> {
    fs::metadata(path).map_err(|source| AccessError::Inspect {
        path: path.to_path_buf(),
        source,
    })
}

fn private(path: &Path, meta: &fs::Metadata, wanted: u32) -> Result<(), AccessError> {
    let mode = meta.permissions().mode() & 0o7777;
    if mode & 0o077 != 0 {
        return Err(AccessError::TooOpen {
            path: path.to_path_buf(),
            mode,
            wanted,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0)
    }

    #[test]
    fn a_new_data_directory_and_database_are_the_owners_alone() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("data");
        let db = dir.join("store.sqlite3");
        secure(&dir, &db).expect("secured");
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&db), 0o600);
        // Opening again accepts what it made.
        secure(&dir, &db).expect("secured again");
    }

    #[test]
    fn a_directory_others_can_enter_is_refused_with_the_command_that_fixes_it() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("data");
        fs::create_dir(&dir).expect("mkdir");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).expect("chmod");
        let err = secure(&dir, &dir.join("store.sqlite3")).expect_err("refused");
        let text = err.to_string();
        assert!(text.contains("mode 0755"), "{text}");
        assert!(text.contains("chmod 700"), "{text}");
        assert!(
            !dir.join("store.sqlite3").exists(),
            "nothing created in a refused directory"
        );
    }

    #[test]
    fn a_database_file_others_can_read_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("data");
        let db = dir.join("store.sqlite3");
        secure(&dir, &db).expect("secured");
        fs::set_permissions(&db, fs::Permissions::from_mode(0o644)).expect("chmod");
        let err = secure(&dir, &db).expect_err("refused");
        assert!(err.to_string().contains("chmod 600"), "{err}");
    }

    #[test]
    fn a_readable_write_ahead_log_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("data");
        let db = dir.join("store.sqlite3");
        secure(&dir, &db).expect("secured");
        let wal = dir.join("store.sqlite3-wal");
        fs::write(&wal, b"").expect("wal");
        fs::set_permissions(&wal, fs::Permissions::from_mode(0o640)).expect("chmod");
        assert!(matches!(
            secure(&dir, &db),
            Err(AccessError::TooOpen { .. })
        ));
    }
}
