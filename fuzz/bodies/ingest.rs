//! One message through the whole inbound path, `ingest::ingest`, as the
//! daemon hands it the bytes of a Maildir file or an IMAP fetch: stored,
//! screened, its campaign found, its writer authenticated, its orders taken
//! or its GM commands carried out, its outcome and reply recorded.
//!
//! Each input meets a fresh copy of one store in which the first ruleset's
//! demo campaign is registered, so that the outcome is a function of the
//! input alone. The copy lives in memory (`/dev/shm`) where there is one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use adjutant::campaign::passphrase;
use adjutant::engine;
use adjutant::ingest::{IngestConfig, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::mail::dkim::StaticKeys;
use adjutant::rules::registry::RULESETS;
use adjutant::store::{DB_FILE, Store};
use chrono::{DateTime, Utc};

/// adjutant's own address, as the hostile corpus and the demo write to it.
pub const ADJUTANT: &str = "adjutant@example.org";

/// The GM's passphrase of the demo campaigns (their `campaign.toml` says it
/// in a comment; the demo itself knows the players' alone).
pub const GM_PASSPHRASE: &str = "grand-quartier-general";

/// The moment every input arrives at: the campaign was registered then.
fn clock() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("a valid time")
            .with_timezone(&Utc),
    )
}

/// Where the copies of the store are made: memory where the machine has
/// a tmpfs for it, so that SQLite's syncs cost nothing.
pub fn scratch() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// The registered store every input starts from, made once per process.
struct Template {
    _dir: tempfile::TempDir,
    data: PathBuf,
    config: IngestConfig,
}

/// Registers the campaign every message is sent to, once, before the
/// fuzzer's first input: registering draws the opening maps, which in the
/// unoptimised build takes longer than one input may.
pub fn prepare() {
    template();
}

fn template() -> &'static Template {
    static TEMPLATE: OnceLock<Template> = OnceLock::new();
    TEMPLATE.get_or_init(make_template)
}

fn make_template() -> Template {
    let ruleset = RULESETS[0];
    let demo = ruleset.demo().expect("the first ruleset ships a demo");
    let dir = tempfile::Builder::new()
        .prefix("adjutant-fuzz-")
        .tempdir_in(scratch())
        .expect("a scratch folder");
    let folder = dir.path().join("campaign");
    std::fs::create_dir_all(&folder).expect("the campaign folder");
    let mut known: Vec<&str> = demo.passphrases.iter().map(|(_, p)| *p).collect();
    known.push(GM_PASSPHRASE);
    std::fs::write(
        folder.join("campaign.toml"),
        cheapen(demo.campaign_toml, &known),
    )
    .expect("writes");
    std::fs::write(folder.join("scenario.toml"), demo.scenario_toml).expect("writes");
    let campaign = adjutant::campaign::load(&folder).expect("the demo loads");
    let data = dir.path().join("data");
    let mut store = Store::open(&data).expect("a store");
    engine::init(&mut store, &campaign, &folder, &clock()).expect("registers");
    drop(store);
    Template {
        _dir: dir,
        data,
        config: IngestConfig {
            own_addresses: vec![ADJUTANT.to_string()],
            dkim_keys: Arc::new(StaticKeys::new()),
            ..IngestConfig::default()
        },
    }
}

/// The campaign file with each passphrase hash made again at argon2id's
/// smallest cost (for fuzzing only, never for a campaign): at the default
/// cost every wrong passphrase the fuzzer writes takes a tenth of a second.
fn cheapen(campaign_toml: &str, known: &[&str]) -> String {
    use argon2::password_hash::PasswordHasher;
    let cheap = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(8, 1, 1, None).expect("argon2 parameters"),
    );
    let mut out = String::new();
    for line in campaign_toml.lines() {
        let hash = line
            .trim()
            .strip_prefix("passphrase_hash = ")
            .map(|h| h.trim_matches('"'));
        match hash.and_then(|h| known.iter().find(|p| passphrase::verify(p, h))) {
            Some(p) => {
                let hash = cheap
                    .hash_password_with_salt(p.as_bytes(), b"adjutant-fuzz-salt")
                    .expect("hashes");
                out.push_str(&format!("passphrase_hash = \"{hash}\"\n"));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

pub fn run(data: &[u8]) {
    super::let_mail_parser_panics_unwind();
    let template = template();
    let dir = tempfile::Builder::new()
        .prefix("adjutant-fuzz-")
        .tempdir_in(scratch())
        .expect("a scratch folder");
    let copy = dir.path().join("data");
    std::fs::create_dir(&copy).expect("a data folder");
    set_private(&copy);
    for suffix in ["", "-wal", "-shm"] {
        let from = template.data.join(format!("{DB_FILE}{suffix}"));
        if from.exists() {
            std::fs::copy(&from, copy.join(format!("{DB_FILE}{suffix}"))).expect("copies");
        }
    }
    let mut store = Store::open(&copy).expect("the copy opens");
    let outcome = ingest(&mut store, data, "fuzz", &template.config, &clock());
    if let Err(e) = outcome {
        panic!("a failure of ours on a message: {e}");
    }
    drop(store);

    // The message is kept as it came, byte for byte, with its outcome.
    let conn = rusqlite::Connection::open(copy.join(DB_FILE)).expect("opens");
    let mut rows = conn
        .prepare("SELECT raw, outcome FROM inbound_messages")
        .expect("prepares");
    let stored: Vec<(Vec<u8>, Option<String>)> = rows
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("queries")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(stored.len(), 1, "one message, one row");
    assert!(
        stored[0].0 == data,
        "the stored bytes differ from the message"
    );
    assert!(stored[0].1.is_some(), "no outcome recorded");
}

#[cfg(unix)]
fn set_private(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).expect("0700");
}

#[cfg(not(unix))]
fn set_private(_dir: &Path) {}
