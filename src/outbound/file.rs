//! The file transport: one `.eml` file per message in a folder, for the demo,
//! for tests, and for a GM who would rather hand mail on by other means.
//!
//! A file is named after the message's Message-ID, so writing the same
//! message twice leaves one file with the same bytes, and
//! [`Transport::delivered`] can say for certain whether a message went out:
//! the file is written in full under a temporary name and then renamed, so
//! it exists only once complete.
//!
//! lettre's own file transport names each file after a fresh random id,
//! which cannot be asked afterwards; this one keeps lettre's message bytes
//! and names the file itself.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{BuiltMessage, Delivered, SendError, Transport};
use crate::audit::Digest32;

/// The mode of the folders the transport makes.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every message it writes.
pub const FILE_MODE: u32 = 0o600;

pub struct FileTransport {
    dir: PathBuf,
}

impl FileTransport {
    pub fn new(dir: impl Into<PathBuf>) -> FileTransport {
        FileTransport { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file a message with this Message-ID is written to.
    pub fn path_for(&self, message_id: &str) -> PathBuf {
        self.dir.join(file_name(message_id))
    }
}

/// A file name made from a Message-ID: its safe characters as they are, and
/// a digest of the whole ID when anything had to be replaced, so that two
/// IDs never share a file.
pub fn file_name(message_id: &str) -> String {
    let inner = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let safe: String = inner
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@' | '+') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    if safe == inner && !safe.is_empty() {
        format!("{safe}.eml")
    } else {
        let digest = Digest32::of(message_id.as_bytes()).to_hex();
        format!("{safe}-{}.eml", &digest[..12])
    }
}

impl Transport for FileTransport {
    fn describe(&self) -> String {
        format!("file {}", self.dir.display())
    }

    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        // A full disk or a missing permission may be fixed; nothing about
        // the message itself stops it being written.
        let fail = |what: &str, path: &Path, e: std::io::Error| {
            SendError::transient(format!("cannot {what} {}: {e}", path.display()))
        };
        // The reports tell units a side keeps from the other (the GM's tells
        // all of them): the folders made for them and every message are the
        // owner's alone, whatever the umask.
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(&self.dir)
            .map_err(|e| fail("create", &self.dir, e))?;
        let target = self.path_for(&message.message_id);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = self.dir.join(format!(".tmp-{name}"));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(FILE_MODE)
            .open(&tmp)
            .map_err(|e| fail("create", &tmp, e))?;
        // A file left by an earlier attempt keeps the mode it was made with
        // (only a plain file is ours to change).
        if file.metadata().is_ok_and(|m| m.is_file()) {
            file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))
                .map_err(|e| fail("protect", &tmp, e))?;
        }
        if let Err(e) = file
            .write_all(&message.bytes)
            .and_then(|()| file.sync_all())
        {
            // A part written to a full disk is of no use, and holds room the
            // next attempt needs; if the message is given up, it would stay.
            drop(file);
            let _ = std::fs::remove_file(&tmp);
            return Err(fail("write", &tmp, e));
        }
        drop(file);
        std::fs::rename(&tmp, &target).map_err(|e| fail("rename", &target, e))?;
        Ok(())
    }

    fn delivered(&self, message_id: &str) -> Delivered {
        if self.path_for(message_id).is_file() {
            Delivered::Yes
        } else {
            Delivered::No
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_the_message_id_or_carry_a_digest() {
        assert_eq!(
            file_name("<c.r1.result@example.org>"),
            "c.r1.result@example.org.eml"
        );
        let odd = file_name("<a/b@example.org>");
        assert!(
            odd.starts_with("a_b@example.org-") && odd.ends_with(".eml"),
            "{odd}"
        );
        assert_ne!(file_name("<a/b@x>"), file_name("<a_b@x>"));
        assert!(!file_name("<../x@y>").starts_with('.'));
    }

    /// A write that fails (a full disk; here /dev/full, which fails every
    /// write with ENOSPC) leaves no partial file behind.
    #[test]
    fn a_failed_write_leaves_no_partial_file() {
        let dir = tempfile::tempdir().expect("dir");
        let transport = FileTransport::new(dir.path());
        let id = "<c.r1.result@example.org>";
        let tmp = dir.path().join(format!(".tmp-{}", file_name(id)));
        std::os::unix::fs::symlink("/dev/full", &tmp).expect("link");
        let message = BuiltMessage {
            message_id: id.to_string(),
            envelope: lettre::address::Envelope::new(
                Some("a@example.org".parse().expect("address")),
                vec!["b@example.org".parse().expect("address")],
            )
            .expect("envelope"),
            bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
        };
        let e = transport.send(&message).expect_err("the disk is full");
        assert!(e.to_string().contains("cannot write"), "{e}");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("reads")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    /// Issue 31, item 8: the GM's report tells every unit of both sides, and
    /// a player's every unit of its own: a folder of them was written with
    /// the umask's modes (0755 and 0644), readable by every user of the
    /// machine. The folders the transport makes are its owner's alone, and
    /// so is every message it writes.
    #[test]
    fn messages_and_the_folders_made_for_them_are_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("dir");
        let dir = root.path().join("out").join("mail");
        let transport = FileTransport::new(&dir);
        let message = BuiltMessage {
            message_id: "<c.r1.result@example.org>".to_string(),
            envelope: lettre::address::Envelope::new(
                Some("a@example.org".parse().expect("address")),
                vec!["b@example.org".parse().expect("address")],
            )
            .expect("envelope"),
            bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
        };
        transport.send(&message).expect("written");
        let mode = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0)
        };
        assert_eq!(mode(&transport.path_for(&message.message_id)), 0o600);
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&root.path().join("out")), 0o700);
    }
}
