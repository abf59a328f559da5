//! Real faults under a daemon's feet, made with mounts: a small tmpfs that a
//! ballast file fills (a full disk), a bind mount remounted read-only (a
//! store or an outbox that cannot be written). The tests run as root, whom
//! file modes do not stop, and a mount's read-only flag stops root too.
//!
//! Mounts need root (and a kernel that lets the test's namespace mount).
//! Where they cannot be made, a test says on the terminal that it skipped
//! its mount-based faults and why, and passes; `ADJUTANT_REQUIRE_FAULTS=1`
//! (as `.ci/run` sets it) makes that a failure.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set to 1, a machine where the faults cannot be made fails the test
/// instead of skipping it.
pub const REQUIRE: &str = "ADJUTANT_REQUIRE_FAULTS";

fn mount(args: &[&str], at: &Path) -> Result<(), String> {
    let out = Command::new("mount")
        .args(args)
        .arg(at)
        .output()
        .map_err(|e| format!("cannot run mount: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "mount {} {}: {}",
            args.join(" "),
            at.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn umount(at: &Path) -> Result<(), String> {
    let out = Command::new("umount")
        .arg(at)
        .output()
        .map_err(|e| format!("cannot run umount: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "umount {}: {}",
            at.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Whether the test runs as root (the effective uid of /proc/self/status).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

/// Whether this machine lets the test make the mounts (a tmpfs, a bind
/// mount remounted read-only); if not, why.
pub fn possible() -> Result<(), String> {
    if !is_root() {
        return Err("the tests do not run as root, and only root can mount".to_string());
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (disk, view) = (dir.path().join("disk"), dir.path().join("view"));
    for d in [&disk, &view] {
        std::fs::create_dir(d).map_err(|e| e.to_string())?;
    }
    let mut mounts = Mounts::default();
    mounts.tmpfs(&disk, 1 << 20)?;
    mounts.bind(&disk, &view)?;
    mounts.read_only(&view)?;
    match std::fs::write(view.join("x"), b"x") {
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => Ok(()),
        other => Err(format!(
            "a bind mount remounted read-only still took a write: {other:?}"
        )),
    }
}

/// Says loudly that the mount-based faults are skipped and why, or fails
/// when `ADJUTANT_REQUIRE_FAULTS=1`.
pub fn skip(test: &str, why: &str) {
    let required = std::env::var(REQUIRE).is_ok_and(|v| v == "1");
    let message = format!(
        "{test}: SKIPPED its read-only store, full disks and unwritable outbox: {why}. \
         Run the tests as root on a machine that allows mounts (a tmpfs, a bind mount); \
         {REQUIRE}=1 makes this a failure."
    );
    if required {
        panic!("{message}");
    }
    eprintln!("\n*** {message}\n");
}

/// The mounts a test made, undone (last first) when dropped, however the
/// test ends.
#[derive(Default)]
pub struct Mounts {
    points: Vec<PathBuf>,
}

impl Mounts {
    /// A tmpfs of `bytes` at `at`, only its owner's (as a data directory
    /// must be).
    pub fn tmpfs(&mut self, at: &Path, bytes: u64) -> Result<(), String> {
        let options = format!("size={bytes},mode=0700");
        mount(&["-t", "tmpfs", "-o", &options, "tmpfs"], at)?;
        self.points.push(at.to_path_buf());
        Ok(())
    }

    /// `from` seen at `at` as well.
    pub fn bind(&mut self, from: &Path, at: &Path) -> Result<(), String> {
        let from = from.to_string_lossy().into_owned();
        mount(&["--bind", &from], at)?;
        self.points.push(at.to_path_buf());
        Ok(())
    }

    /// The bind mount at `at` refuses every write, root's too, with EROFS.
    /// (Only files opened after this are refused: a file already open for
    /// writing keeps its writes, as on any read-only remount.)
    pub fn read_only(&self, at: &Path) -> Result<(), String> {
        mount(&["-o", "remount,bind,ro"], at)
    }

    /// The bind mount at `at` takes writes again.
    pub fn writable(&self, at: &Path) -> Result<(), String> {
        mount(&["-o", "remount,bind,rw"], at)
    }
}

impl Drop for Mounts {
    fn drop(&mut self) {
        while let Some(at) = self.points.pop() {
            if let Err(e) = umount(&at) {
                // A process still working there: detach it anyway, so that
                // no mount outlives the test.
                eprintln!("{e}; detaching it");
                let _ = Command::new("umount").arg("-l").arg(&at).status();
            }
        }
    }
}

/// Fills the file system of `ballast`'s folder to the last byte with the
/// file `ballast`; returns its size. Writing stops at the first ENOSPC.
pub fn fill(ballast: &Path) -> u64 {
    let mut file = std::fs::File::create(ballast).expect("ballast");
    let chunk = vec![0u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        match file.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::StorageFull => break,
            Err(e) => panic!("writing the ballast {}: {e}", ballast.display()),
        }
    }
    // The last partial block: a byte at a time, to the very end.
    while let Ok(1) = file.write(&[0]) {
        written += 1;
    }
    written
}

/// Frees what [`fill`] took.
pub fn free(ballast: &Path) {
    match std::fs::remove_file(ballast) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("removing the ballast {}: {e}", ballast.display()),
    }
}

/// Bytes in use on the file system holding `dir`.
pub fn used(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                total += meta.len();
            }
        }
    }
    total
}
