//! The crash harness shared by `tests/kill_schedule.rs` (SIGKILL at random
//! moments) and `tests/fault_schedule.rs` (the same kills while the store is
//! read-only, a disk is full or the outbox cannot be written): the scripted
//! campaign in waves of mail, the folder a daemon runs in, the daemon
//! started and killed, and the checks that a copy that went through all
//! that ends where an uninterrupted copy ends. See docs/RELIABILITY.md.

#![allow(dead_code)]

use super::seeded::SplitMix;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use adjutant::store::DB_FILE;

pub const BIN: &str = env!("CARGO_BIN_EXE_adjutant");
pub const ID: &str = "sound-the-charge-demo";
/// The time every step that writes mail or the archive runs at, in both
/// copies: with the clock fixed, even the Date headers can be compared.
pub const NOW: &str = "2026-01-05T09:00:00Z";
pub const FRENCH: &str = "Jean Lannes <lannes@french.invalid>";
pub const AUSTRIAN: &str = "Hohenzollern <hohenzollern@austrian.invalid>";
pub const GM: &str = "The Umpire <umpire@example.org>";
/// A passphrase nobody has: a guess.
pub const WRONG: &str = "vive-le-roi-de-rome";
/// Every passphrase the script's mail carries, right or wrong.
pub const PASSPHRASES: [&str; 4] = [
    "grand-quartier-general",
    "vive-l-empereur",
    "gott-erhalte-franz",
    WRONG,
];

pub fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn mail(from: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: adjutant@example.org\r\nSubject: {subject}\r\n\
         Message-ID: <{message_id}>\r\nDate: Mon, 05 Jan 2026 08:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The script, in waves that arrive one after another: `phases` phases,
/// each of nine French mails (each replacing the one before) in three
/// waves, then the Austrian side's word that it sends none, which closes the
/// phase; in every other phase the GM extends the deadline.
pub fn script(phases: usize) -> Vec<Vec<(String, Vec<u8>)>> {
    let orders = [
        "1-ligne: hold",
        "2-ligne: hold",
        "1-ligne: hold\n2-ligne: hold",
    ];
    let mut waves = Vec::new();
    let mut n = 0;
    let mut named = |raw: Vec<u8>| {
        n += 1;
        (format!("{n:04}.eml"), raw)
    };
    for phase in 0..phases {
        for third in 0..3 {
            let mut wave = Vec::new();
            for i in third * 3..third * 3 + 3 {
                let body = format!(
                    "passphrase: vive-l-empereur\n{}\n",
                    orders[(phase + i) % orders.len()]
                );
                wave.push(named(mail(
                    FRENCH,
                    &format!("p{phase}-o{i}@french.invalid"),
                    &format!("[{ID}] orders"),
                    &body,
                )));
            }
            if phase == 0 && third == 0 {
                // A wrong passphrase: refused, and never repeated anywhere.
                wave.push(named(mail(
                    FRENCH,
                    "p0-wrong@french.invalid",
                    &format!("[{ID}] orders"),
                    &format!("passphrase: {WRONG}\n1-ligne: hold\n"),
                )));
            }
            if phase == 1 && third == 0 {
                // A corrupted message, among the orders: a player's mail
                // whose MIME breaks off, with NUL bytes in it, and bytes
                // that are no mail at all. Each is stored and answered (or,
                // having no sender, not answered) once.
                let mut broken = mail(
                    FRENCH,
                    "p1-broken@french.invalid",
                    &format!("[{ID}] orders"),
                    "",
                );
                let cut = broken.len() - 2;
                broken.truncate(cut);
                broken.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
                      --b\r\nContent-Type: text/plain\r\n\r\npassphrase: vive-l-empereur\r\n1-li\0\0ne: ho",
                );
                wave.push(named(broken));
                wave.push(named(b"\0\x01\x02 not a mail \xff\xfe\r\n\r\n\0".to_vec()));
            }
            if third == 2 && phase % 2 == 1 {
                wave.push(named(mail(
                    GM,
                    &format!("extend-{phase}@example.org"),
                    &format!("[{ID}] command"),
                    "passphrase: grand-quartier-general\ncommand: extend 1h\n",
                )));
            }
            waves.push(wave);
        }
        waves.push(vec![named(mail(
            AUSTRIAN,
            &format!("p{phase}-none@austrian.invalid"),
            &format!("[{ID}] orders"),
            "passphrase: gott-erhalte-franz\nno orders\n",
        ))]);
    }
    waves
}

/// A folder with a daemon's configuration (paths relative to it), the demo
/// campaign, a Maildir and the file transport's folder.
pub fn prepare(root: &Path) {
    adjutant::demo::bundled_campaign(&root.join("campaign")).expect("campaign");
    cheapen_passphrases(&root.join("campaign").join("campaign.toml"));
    // Room for as many phases as a long run asks for.
    let scenario = root.join("campaign").join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("reads");
    assert!(text.contains("turn_limit = 30\n"), "the demo's turn limit");
    std::fs::write(
        &scenario,
        text.replace("turn_limit = 30\n", "turn_limit = 90\n"),
    )
    .expect("writes");
    std::fs::write(
        root.join("adjutant.toml"),
        r#"
data_dir = "var"
campaigns = ["campaign"]
log_level = "debug"
[mail]
from = "adjutant <adjutant@example.org>"
# The script's French player writes some forty times at one fixed moment,
# and each message must be answered once; the hourly ration of
# acknowledgements is tested on its own (tests/players_mail.rs).
max_acknowledgements_per_hour = 100000
[inbox]
kind = "maildir"
path = "Maildir"
[transport]
kind = "file"
dir = "sent"
"#,
    )
    .expect("config");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(root.join("Maildir").join(sub)).expect("maildir");
    }
}

/// Gives every person of the campaign a hash made with argon2id's smallest
/// cost (for tests only, never for a campaign): at the default cost a debug
/// build spends seconds on the passphrases of a Maildir of mail before it
/// takes the first message, and every kill would land there.
pub fn cheapen_passphrases(file: &Path) {
    let passphrases = [
        ("umpire@example.org", "grand-quartier-general"),
        ("lannes@french.invalid", "vive-l-empereur"),
        ("hohenzollern@austrian.invalid", "gott-erhalte-franz"),
    ];
    let text = std::fs::read_to_string(file).expect("reads");
    let mut address = String::new();
    let mut out = String::new();
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("address = ") {
            address = rest.trim_matches('"').to_string();
        }
        if line.trim().starts_with("passphrase_hash = ") {
            let (_, passphrase) = passphrases
                .iter()
                .find(|(a, _)| *a == address)
                .expect("a known person");
            let hash = super::cheap_hash::cheap_hash(passphrase, b"kill-schedule-salt");
            out.push_str(&format!("passphrase_hash = \"{hash}\"\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    std::fs::write(file, out).expect("writes");
}

/// A time `seconds` after [`NOW`], as `--now` takes it.
pub fn after(seconds: i64) -> String {
    let now: chrono::DateTime<chrono::Utc> = NOW.parse().expect("a time");
    (now + chrono::Duration::seconds(seconds)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The daemon with its clock at `now`, taking what waits and stopping, its
/// log (at `debug`, the most it says) added to `daemon.log` beside its
/// configuration.
pub fn daemon_at(root: &Path, now: &str) -> Command {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(root.join("daemon.log"))
        .expect("log file");
    let mut command = Command::new(BIN);
    command
        .arg(format!("--now={now}"))
        .args(["daemon", "--once", "--config"])
        .arg(root.join("adjutant.toml"))
        .stdout(Stdio::null())
        .stderr(log);
    command
}

/// The daemon with its clock at [`NOW`].
pub fn daemon(root: &Path) -> Command {
    daemon_at(root, NOW)
}

/// The last lines of a copy's daemon log, for a failure's message.
pub fn log_tail(root: &Path, lines: usize) -> String {
    let log = std::fs::read_to_string(root.join("daemon.log")).unwrap_or_default();
    let mut tail: Vec<&str> = log.lines().rev().take(lines).collect();
    tail.reverse();
    tail.join("\n")
}

pub fn run_to_the_end(root: &Path) {
    run_to_the_end_at(root, NOW);
}

pub fn run_to_the_end_at(root: &Path, now: &str) {
    let status = daemon_at(root, now).status().expect("runs");
    if !status.success() {
        panic!("the daemon failed ({status}): {}", log_tail(root, 20));
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("dir");
    // A data directory keeps its mode: the store refuses one others can read.
    let mode = std::fs::metadata(from).expect("mode").permissions();
    std::fs::set_permissions(to, mode).expect("chmod");
    for entry in std::fs::read_dir(from).expect("reads") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copies");
        }
    }
}

/// Every file under `dir`, by its path inside it, with its bytes.
pub fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(base, &path, into);
            } else {
                let name = path.strip_prefix(base).expect("inside").to_path_buf();
                into.insert(name, std::fs::read(&path).expect("reads"));
            }
        }
    }
    let mut all = BTreeMap::new();
    walk(dir, dir, &mut all);
    all
}

/// Rows of a query on the store in the data directory `data`, each as text,
/// in the query's order.
pub fn rows(data: &Path, sql: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(data.join(DB_FILE)).expect("opens");
    let mut stmt = conn.prepare(sql).expect("prepares");
    let width = stmt.column_count();
    stmt.query_map([], |row| {
        let mut cells = Vec::with_capacity(width);
        for i in 0..width {
            let cell: rusqlite::types::Value = row.get(i)?;
            cells.push(format!("{cell:?}"));
        }
        Ok(cells.join(" | "))
    })
    .expect("queries")
    .collect::<Result<_, _>>()
    .expect("rows")
}

pub fn export(data: &Path, out: &Path) {
    let status = Command::new(BIN)
        .args(["archive", "export", "--campaign", ID, "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .status()
        .expect("runs");
    assert!(status.success(), "export");
}

/// What one killed run came to.
#[derive(Default)]
pub struct Killed {
    /// Starts that were to be killed.
    pub tried: usize,
    /// Kills that found the daemon still at work.
    pub landed: usize,
    /// Messages taken and mail written when each landed kill struck.
    pub taken_at_kills: Vec<(usize, usize)>,
}

pub fn written(root: &Path) -> usize {
    std::fs::read_dir(root.join("sent")).map_or(0, |d| d.count())
}

pub fn taken(root: &Path) -> usize {
    std::fs::read_dir(root.join("Maildir").join("cur")).map_or(0, |d| d.count())
}

/// Starts the daemon and kills it within `window` of its start, again and
/// again, until `kills` kills have found it at work or it got through the
/// work by itself.
pub fn kill_repeatedly(
    root: &Path,
    schedule: &mut SplitMix,
    kills: u64,
    window: Duration,
    into: &mut Killed,
) {
    kill_repeatedly_noting(root, schedule, kills, window, into, |root| {
        (taken(root), written(root))
    });
}

/// [`kill_repeatedly`], with `note` telling, after each kill that landed,
/// how many messages had been taken and how many written (a copy whose
/// mail is not in a Maildir and a folder counts them in its store).
pub fn kill_repeatedly_noting(
    root: &Path,
    schedule: &mut SplitMix,
    kills: u64,
    window: Duration,
    into: &mut Killed,
    mut note: impl FnMut(&Path) -> (usize, usize),
) {
    let window = (window.as_millis() as u64).max(10);
    let mut landed = 0;
    while landed < kills {
        let wait = Duration::from_millis(schedule.within(2, window));
        let mut child = daemon(root).spawn().expect("starts");
        let started = Instant::now();
        into.tried += 1;
        while started.elapsed() < wait {
            if child.try_wait().expect("waits").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if child.try_wait().expect("waits").is_some() {
            // It took the wave to the end before the kill came.
            return;
        }
        // Child::kill sends SIGKILL: no handler runs, nothing is flushed.
        child.kill().expect("kills");
        child.wait().expect("reaped");
        landed += 1;
        into.landed += 1;
        into.taken_at_kills.push(note(root));
    }
}

pub fn deliver(root: &Path, wave: &[(String, Vec<u8>)]) {
    for (name, raw) in wave {
        adjutant::inbox::maildir::deliver(&root.join("Maildir"), name, raw).expect("delivered");
    }
}

/// The three copies of a run: `base`, the store with the campaign
/// registered and its opening mail sent, from which `calm` (the
/// uninterrupted run) and `rough` (killed, faulted) start.
pub struct Copies {
    pub dir: tempfile::TempDir,
    pub calm: PathBuf,
    pub rough: PathBuf,
}

impl Copies {
    /// Both copies made from one prepared store (its chain's secret is drawn
    /// once), the campaign registered and its opening mail sent.
    pub fn new() -> Copies {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("base");
        prepare(&base);
        run_to_the_end(&base);
        let (calm, rough) = (dir.path().join("calm"), dir.path().join("rough"));
        copy_dir(&base, &calm);
        copy_dir(&base, &rough);
        Copies { dir, calm, rough }
    }
}

/// The uninterrupted copy takes `wave` to the end; returns how long that
/// took, the window the rough copy's kills fall in.
pub fn calm_wave(calm: &Path, wave: &[(String, Vec<u8>)]) -> Duration {
    deliver(calm, wave);
    let started = Instant::now();
    run_to_the_end(calm);
    started.elapsed()
}

/// Every check of the end: the rough copy (its store in `rough_data`) ends
/// where the calm one ends. `messages` is every message the script sent.
pub fn check_the_end(
    seed: u64,
    phases: usize,
    copies: &Copies,
    rough_data: &Path,
    messages: &[(String, Vec<u8>)],
) {
    let (calm, rough) = (&copies.calm, &copies.rough);
    let calm_data = calm.join("var");
    let resolutions = rows(rough_data, "SELECT COUNT(*) FROM resolutions");
    assert_eq!(
        resolutions,
        vec![format!("Integer({phases})")],
        "seed {seed}: a resolution for each phase"
    );
    // Every message taken, each with one outcome.
    assert_eq!(taken(rough), messages.len(), "seed {seed}: all taken");
    assert_eq!(
        rows(&calm_data, "SELECT COUNT(*) FROM inbound_messages"),
        vec![format!("Integer({})", messages.len())]
    );
    same_store(seed, &calm_data, rough_data);
    // The same mail, each once: one file per Message-ID, identical bytes.
    let (calm_sent, rough_sent) = (contents(&calm.join("sent")), contents(&rough.join("sent")));
    assert_eq!(
        rough_sent.keys().collect::<Vec<_>>(),
        calm_sent.keys().collect::<Vec<_>>(),
        "seed {seed}: the same messages went out"
    );
    for (name, bytes) in &calm_sent {
        assert!(
            rough_sent.get(name) == Some(bytes),
            "seed {seed}: {} differs",
            name.display()
        );
    }
    // One reply to each message, answering it by its Message-ID.
    let replies = rows(
        rough_data,
        "SELECT in_reply_to, COUNT(*) FROM outbox WHERE in_reply_to IS NOT NULL \
         GROUP BY in_reply_to ORDER BY in_reply_to",
    );
    // (The bytes that are no mail have no sender to answer.)
    let mut expected: Vec<String> = messages
        .iter()
        .filter_map(|(_, raw)| {
            let text = String::from_utf8_lossy(raw);
            let id = text
                .lines()
                .find_map(|l| l.strip_prefix("Message-ID: "))?
                .trim()
                .to_string();
            Some(format!("Text({id:?}) | Integer(1)"))
        })
        .collect();
    expected.sort();
    assert_eq!(replies, expected, "seed {seed}: one reply to each message");
    let dir = copies.dir.path();
    let rough_archive = same_archive(seed, dir, &calm_data, rough_data);
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).expect("dir");
    for (root, name) in [(calm, "calm.log"), (rough, "rough.log")] {
        std::fs::copy(root.join("daemon.log"), logs.join(name)).expect("copies");
    }
    assert!(
        std::fs::metadata(logs.join("rough.log"))
            .expect("log")
            .len()
            > 0,
        "the daemon logged"
    );
    let places = [
        rough.join("sent"),
        calm.join("sent"),
        rough_archive.clone(),
        logs,
    ];
    no_passphrase_in(seed, &places);
    no_unrevealed_secret_in(seed, rough_data, &places);
}

/// The rough copy's store (in `rough_data`) holds what the calm copy's
/// holds: every message taken with the same outcome, the same outbox, the
/// same deadline (each `extend` carried out once), GM log, submissions and
/// resolutions.
pub fn same_store(seed: u64, calm_data: &Path, rough_data: &Path) {
    for query in [
        "SELECT raw_digest, status, outcome, note FROM inbound_messages ORDER BY raw_digest",
        "SELECT message_id, status FROM outbox ORDER BY message_id",
        "SELECT id, deadline FROM campaigns",
        "SELECT COUNT(*) FROM gm_log",
        "SELECT phase_key, side, digest, status FROM submissions ORDER BY id",
        "SELECT COUNT(*) FROM resolutions",
    ] {
        assert_eq!(
            rows(rough_data, query),
            rows(calm_data, query),
            "seed {seed}: {query}"
        );
    }
}

/// Both copies' archives, exported into `dir`, are the same byte for byte,
/// and `adjutant verify` passes on the rough one; returns its folder.
pub fn same_archive(seed: u64, dir: &Path, calm_data: &Path, rough_data: &Path) -> PathBuf {
    let (calm_archive, rough_archive) = (dir.join("calm-archive"), dir.join("rough-archive"));
    export(calm_data, &calm_archive);
    export(rough_data, &rough_archive);
    assert!(
        contents(&rough_archive) == contents(&calm_archive),
        "seed {seed}: the archives differ"
    );
    let verified = Command::new(BIN)
        .arg("verify")
        .arg(&rough_archive)
        .output()
        .expect("runs");
    assert!(
        verified.status.success(),
        "seed {seed}: {}",
        String::from_utf8_lossy(&verified.stdout)
    );
    rough_archive
}

/// No passphrase, right or wrong, in anything adjutant wrote: its mail, its
/// log and the archive (the store keeps each inbound message whole, and the
/// Maildir holds what players sent).
pub fn no_passphrase_in(seed: u64, places: &[PathBuf]) {
    for place in places {
        for (name, bytes) in contents(place) {
            let text = String::from_utf8_lossy(&bytes);
            for secret in PASSPHRASES {
                assert!(
                    !text.contains(secret),
                    "seed {seed}: a passphrase in {}",
                    place.join(name).display()
                );
            }
        }
    }
}

/// No secret of either chain that no report has revealed yet is in the
/// mail, the archive or the daemon's log: only the store holds them.
pub fn no_unrevealed_secret_in(seed: u64, data: &Path, places: &[PathBuf]) {
    let store = adjutant::store::Store::open(data).expect("store");
    let secrets = super::secrets::unrevealed(&store, ID);
    assert!(!secrets.is_empty());
    for place in places {
        for (name, bytes) in contents(place) {
            let text = String::from_utf8_lossy(&bytes).to_lowercase();
            for secret in &secrets {
                assert!(
                    !text.contains(secret.as_str()),
                    "seed {seed}: an unrevealed secret in {}",
                    place.join(name).display()
                );
            }
        }
    }
}
