//! A Maildir inbox: messages arrive in `new/`; each is ingested (stored,
//! handled) and only then moved to `cur/` with the seen flag, so a crash
//! leaves it in `new/` to be taken again, and the ingest path's duplicate
//! check keeps it from being acted on twice.

use std::fs;
use std::path::{Path, PathBuf};

use crate::ingest::{IngestConfig, IngestError, Outcome, ingest, precheck};
use crate::lifecycle::Clock;
use crate::store::Store;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MaildirError {
    #[error("cannot read the Maildir {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Ingest(#[from] IngestError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MaildirError + '_ {
    move |source| MaildirError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Creates `new/`, `cur/` and `tmp/` under `root` if missing.
pub fn create(root: &Path) -> Result<(), MaildirError> {
    for sub in ["new", "cur", "tmp"] {
        let dir = root.join(sub);
        fs::create_dir_all(&dir).map_err(io(&dir))?;
    }
    Ok(())
}

/// Delivers `raw` into the Maildir the way an MDA does: written in `tmp/`,
/// then renamed into `new/`, so a reader never sees half a message.
pub fn deliver(root: &Path, unique: &str, raw: &[u8]) -> Result<PathBuf, MaildirError> {
    create(root)?;
    let tmp = root.join("tmp").join(unique);
    fs::write(&tmp, raw).map_err(io(&tmp))?;
    let new = root.join("new").join(unique);
    fs::rename(&tmp, &new).map_err(io(&new))?;
    Ok(new)
}

/// Ingests every message in `new/`, oldest name first, and moves each to
/// `cur/` once it is stored and handled. Returns the outcomes in order.
pub fn scan(
    root: &Path,
    store: &mut Store,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Vec<(String, Outcome)>, MaildirError> {
    create(root)?;
    let new = root.join("new");
    let mut names: Vec<String> = fs::read_dir(&new)
        .map_err(io(&new))?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let mut outcomes = Vec::with_capacity(names.len());
    // Read a batch at a time, so that the passphrases of a batch are checked
    // on other cores beside its ingest (`ingest::precheck`); each message is
    // still ingested, then moved, one after another, and a stop asked for
    // meanwhile ends the scan between two messages.
    for batch in names.chunks(BATCH) {
        if config.stopping() {
            // What is left stays in new/, for after the restart.
            break;
        }
        let mut read = Vec::with_capacity(batch.len());
        for name in batch {
            let path = new.join(name);
            read.push((name, fs::read(&path).map_err(io(&path))?));
        }
        let raws: Vec<&[u8]> = read.iter().map(|(_, raw)| raw.as_slice()).collect();
        precheck(store, &raws, config);
        let taken = take_batch(root, &new, &read, store, config, clock, &mut outcomes);
        config.prechecked.clear();
        taken?;
    }
    Ok(outcomes)
}

/// How many messages are read and checked together.
const BATCH: usize = 64;

/// Ingests the messages of a batch in order, moving each to `cur/` once it
/// is stored and handled (a message held for its campaign's closing phase
/// stays in `new/`).
fn take_batch(
    root: &Path,
    new: &Path,
    read: &[(&String, Vec<u8>)],
    store: &mut Store,
    config: &IngestConfig,
    clock: &dyn Clock,
    outcomes: &mut Vec<(String, Outcome)>,
) -> Result<(), MaildirError> {
    for (name, raw) in read {
        if config.stopping() {
            break;
        }
        let path = new.join(name);
        let outcome = ingest(store, raw, "maildir", config, clock)?;
        if outcome.is_held() {
            // Left in new/, to be taken once its campaign's phase is closed.
            outcomes.push(((*name).clone(), outcome));
            continue;
        }
        // Maildir's info suffix ":2,S" marks the message seen.
        let target = root.join("cur").join(format!("{name}:2,S"));
        fs::rename(&path, &target).map_err(io(&target))?;
        outcomes.push(((*name).clone(), outcome));
    }
    Ok(())
}
