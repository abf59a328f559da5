//! The kill schedule of `tests/kill_schedule.rs` with real faults beneath
//! the daemon: for a few waves of mail at a time its store is read-only,
//! the disk of its store fills up (a ballast file on a small tmpfs, at a
//! seeded moment of a wave), its outbox folder cannot be written (a bind
//! mount remounted read-only), or the disk of its outbox fills up; then the
//! fault is lifted. A disk fills at the latest once the daemon has done the
//! work it was given, and the wave's last answered message comes only then,
//! so that a full disk always meets work, however fast the machine. The
//! daemon is SIGKILLed at seeded moments throughout, faults or none.
//!
//! During a fault the daemon may fail a step, but it must say in its log
//! what failed and why (the disk is full, the store or the folder is
//! read-only; wherever the copy is behind the uninterrupted one when a fault
//! ends, a step failed), acknowledge nothing it has not stored (after every
//! run, each mail written has its row in the store, and each reply its
//! message taken), write no mail twice (a file once written is never
//! replaced), stop rather
//! than spin, and put off each failed send by a wait that grows. Once the
//! fault is lifted it catches up by itself. At the end the same checks as
//! the kill schedule: the archive byte-identical to an uninterrupted run's,
//! each message answered once, the same mail byte for byte, `verify` passes.
//!
//! The clock: every run that takes mail, resolves or writes the archive runs
//! at the one fixed time of the uninterrupted run, so that both can be
//! compared byte for byte. A failed send waits for a later time, which a
//! fixed clock never reaches; when a run has done everything else, the
//! harness starts the daemon again at the time the store says the next
//! attempt is due (`next_attempt_at`), as a clock moving on would.
//!
//! Mounts need root; where they cannot be made the test says loudly that it
//! skipped, and `ADJUTANT_REQUIRE_FAULTS=1` makes that a failure.
//! `cargo test` runs one seed of two phases; the long run of
//! docs/RELIABILITY.md sets the seeds and phases:
//!
//!     ADJUTANT_FAULT_SEEDS=10 ADJUTANT_FAULT_PHASES=8 cargo test --release --test fault_schedule -- --nocapture

mod support;

use std::collections::BTreeMap;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use support::crash_harness::{
    Copies, Killed, NOW, calm_wave, check_the_end, copy_dir, daemon_at, deliver, kill_repeatedly,
    log_tail, rows, run_to_the_end, run_to_the_end_at, script, setting,
};
use support::faults::{self, Mounts};
use support::seeded::SplitMix;

/// What is done to the daemon's files for a few waves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    /// The data directory, store and all, on a bind mount remounted
    /// read-only.
    ReadOnlyStore,
    /// The store's disk (a tmpfs) filled to the last byte by a ballast file.
    FullStoreDisk,
    /// The file transport's folder on a bind mount remounted read-only.
    ReadOnlyOutbox,
    /// The outbox's disk filled to the last byte.
    FullOutboxDisk,
}

const FAULTS: [Fault; 4] = [
    Fault::ReadOnlyStore,
    Fault::FullStoreDisk,
    Fault::ReadOnlyOutbox,
    Fault::FullOutboxDisk,
];

impl Fault {
    /// What the daemon's log must say, in one of these words (in any case),
    /// while the fault lasts: what an operator looks for.
    fn said(self) -> &'static [&'static str] {
        match self {
            Fault::ReadOnlyStore => &["read-only", "readonly"],
            Fault::FullStoreDisk | Fault::FullOutboxDisk => {
                &["disk is full", "no space left on device"]
            }
            Fault::ReadOnlyOutbox => &["read-only file system"],
        }
    }
}

/// A fault over waves `first..=last`.
#[derive(Debug, Clone, Copy)]
struct Episode {
    fault: Fault,
    first: usize,
    last: usize,
}

/// The faults of a seed: every kind once in a seeded order (where there
/// are waves enough), then again, each over one to three waves, with up to
/// two waves without a fault between them; while a kind has not come yet,
/// each fault and gap leaves a wave for each kind still to come. The first
/// wave and the last are left alone.
fn plan(schedule: &mut SplitMix, waves: usize) -> Vec<Episode> {
    let mut kinds = FAULTS.to_vec();
    let mut first_round = true;
    let mut episodes = Vec::new();
    let mut wave = 1;
    while wave + 1 < waves {
        if kinds.is_empty() {
            kinds = FAULTS.to_vec();
            first_round = false;
        }
        let fault = kinds.remove(schedule.within(0, kinds.len() as u64) as usize);
        // Waves left after this one's first, and the ones the kinds still
        // to come need.
        let left = waves - 2 - wave;
        let owed = if first_round { kinds.len() } else { 0 };
        let longer = (schedule.within(0, 3) as usize).min(left.saturating_sub(owed));
        let last = wave + longer;
        episodes.push(Episode {
            fault,
            first: wave,
            last,
        });
        let gap = (schedule.within(0, 3) as usize).min((left - longer).saturating_sub(owed));
        wave = last + 1 + gap;
    }
    episodes
}

/// The rough copy with its data directory and its outbox each on a disk
/// of their own (a tmpfs), seen by the daemon through a bind mount that a
/// fault remounts read-only; the harness reads them through the disks.
struct Disks {
    mounts: Mounts,
    /// The data directory as the harness reads it (never read-only).
    data: PathBuf,
    store_disk: PathBuf,
    outbox_disk: PathBuf,
    /// Where the daemon sees them.
    var: PathBuf,
    sent: PathBuf,
}

const STORE_DISK: u64 = 96 << 20;
const OUTBOX_DISK: u64 = 32 << 20;

impl Disks {
    fn new(root: &Path) -> Result<Disks, String> {
        let mut mounts = Mounts::default();
        let (store_disk, outbox_disk) = (root.join("store-disk"), root.join("outbox-disk"));
        let (var, sent) = (root.join("var"), root.join("sent"));
        for (disk, size, view) in [
            (&store_disk, STORE_DISK, &var),
            (&outbox_disk, OUTBOX_DISK, &sent),
        ] {
            std::fs::create_dir(disk).map_err(|e| e.to_string())?;
            mounts.tmpfs(disk, size)?;
            // What the copy holds moves onto its disk.
            let inside = disk.join("files");
            if view.exists() {
                copy_dir(view, &inside);
                std::fs::remove_dir_all(view).map_err(|e| e.to_string())?;
            } else {
                // The store refuses a data directory others can read.
                std::fs::DirBuilder::new()
                    .mode(0o700)
                    .create(&inside)
                    .map_err(|e| e.to_string())?;
            }
            std::fs::create_dir(view).map_err(|e| e.to_string())?;
            mounts.bind(&inside, view)?;
        }
        Ok(Disks {
            mounts,
            data: store_disk.join("files"),
            store_disk,
            outbox_disk,
            var,
            sent,
        })
    }

    fn ballast(&self, fault: Fault) -> PathBuf {
        match fault {
            Fault::FullStoreDisk => self.store_disk.join("ballast"),
            _ => self.outbox_disk.join("ballast"),
        }
    }

    /// Makes the fault, at once.
    fn apply(&self, fault: Fault) {
        match fault {
            Fault::ReadOnlyStore => self.mounts.read_only(&self.var).expect("read-only"),
            Fault::ReadOnlyOutbox => self.mounts.read_only(&self.sent).expect("read-only"),
            Fault::FullStoreDisk | Fault::FullOutboxDisk => {
                faults::fill(&self.ballast(fault));
            }
        }
    }

    fn lift(&self, fault: Fault) {
        match fault {
            Fault::ReadOnlyStore => self.mounts.writable(&self.var).expect("writable"),
            Fault::ReadOnlyOutbox => self.mounts.writable(&self.sent).expect("writable"),
            Fault::FullStoreDisk | Fault::FullOutboxDisk => faults::free(&self.ballast(fault)),
        }
    }
}

/// Runs the daemon at `now` to its end, which during a fault may be a
/// failure; it must end, and soon: a daemon that spins on a failing step
/// would not.
fn faulted_run(root: &Path, now: &str) -> ExitStatus {
    let mut child = daemon_at(root, now).spawn().expect("starts");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().expect("kills");
            child.wait().expect("reaped");
            panic!(
                "the daemon did not stop within 120 s of a faulted run: {}",
                log_tail(root, 20)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every file the rough copy's outbox ever held, by name, with its inode:
/// a file replaced (written a second time) gets another.
#[derive(Default)]
struct Written(BTreeMap<String, u64>);

impl Written {
    fn look(&mut self, sent: &Path) {
        use std::os::unix::fs::MetadataExt;
        let Ok(entries) = std::fs::read_dir(sent) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let inode = entry.metadata().expect("metadata").ino();
            let seen = *self.0.entry(name.clone()).or_insert(inode);
            assert_eq!(seen, inode, "{name} was written a second time");
        }
    }
}

/// A copy of the store, on the test's own disk: the harness reads the
/// store while its disk is full or read-only, which SQLite could not do in
/// place once the daemon has stopped (it needs room for its shared-memory
/// index), and must not change what the daemon finds. A daemon that has
/// stopped left its files as they are, and they are copied; one at work is
/// read in one transaction (`VACUUM INTO`) beside it.
fn snapshot(data: &Path) -> tempfile::TempDir {
    let copy = tempfile::tempdir().expect("dir");
    let db = adjutant::store::DB_FILE;
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let live = data.join(format!("{db}-shm")).exists()
        && rusqlite::Connection::open_with_flags(data.join(db), flags)
            .and_then(|conn| {
                conn.execute("VACUUM INTO ?1", [copy.path().join(db).to_string_lossy()])
            })
            .is_ok();
    if !live {
        for suffix in ["", "-wal"] {
            let name = format!("{db}{suffix}");
            if data.join(&name).exists() {
                std::fs::copy(data.join(&name), copy.path().join(&name)).expect("copies");
            }
        }
    }
    copy
}

/// Nothing is acknowledged that is not stored: each mail file written has
/// its message in the store's outbox (committed), and each reply there
/// answers a message the store holds with its outcome (the two are
/// committed together).
fn acknowledged_only_what_is_stored(data: &Path, sent: &Path, when: &str) {
    // The files first, the store second: a file is written only after its
    // row is committed, so a daemon still at work cannot make this fail.
    let files: Vec<String> = std::fs::read_dir(sent)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| !name.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    let copy = snapshot(data);
    let data = copy.path();
    let stored: Vec<String> = rows(data, "SELECT message_id FROM outbox")
        .into_iter()
        .filter_map(|id| {
            let id = id.strip_prefix("Text(\"")?.strip_suffix("\")")?;
            Some(adjutant::outbound::file::file_name(id))
        })
        .collect();
    for name in files {
        assert!(
            stored.contains(&name),
            "{when}: {name} was written, and the store has no such message"
        );
    }
    let unanswered = rows(
        data,
        "SELECT o.message_id FROM outbox o WHERE o.in_reply_to IS NOT NULL AND NOT EXISTS \
         (SELECT 1 FROM inbound_messages i WHERE i.status != 'stored' \
          AND instr(i.raw, CAST('Message-ID: ' || o.in_reply_to AS BLOB)) > 0)",
    );
    assert!(
        unanswered.is_empty(),
        "{when}: replies to messages not taken: {unanswered:?}"
    );
}

/// When the next failed send is due, if any waits.
fn next_retry(data: &Path) -> Option<String> {
    let copy = snapshot(data);
    let due = rows(
        copy.path(),
        "SELECT MAX(next_attempt_at) FROM outbox WHERE status = 'queued' AND attempts > 0",
    );
    due.first()
        .and_then(|d| d.strip_prefix("Text(\"")?.strip_suffix("\")"))
        .map(str::to_string)
}

fn maildir_empty(root: &Path) -> bool {
    std::fs::read_dir(root.join("Maildir").join("new")).is_ok_and(|mut d| d.next().is_none())
}

/// What a seed came to.
#[derive(Default)]
struct Tally {
    killed: Killed,
    /// Runs made while a fault was on, and how many of them failed.
    faulted_runs: usize,
    failed_runs: usize,
    /// Kills that found the daemon at work while a fault was on.
    killed_in_faults: usize,
    /// Runs started at a later clock for a failed send's next attempt.
    retry_runs: usize,
    /// Faults that left the copy behind the uninterrupted one at their end.
    faults_met: usize,
}

/// Where the wave's held part starts: its last message with a sender, which
/// is answered (the script's last message may be bytes that are no mail).
fn last_answered(wave: &[(String, Vec<u8>)]) -> usize {
    wave.iter()
        .rposition(|(_, raw)| raw.starts_with(b"From: "))
        .expect("a wave with a message from someone")
}

/// What the rough copy has still to do that the calm one has done: mail not
/// taken, and mail the calm copy wrote that the rough one has not.
fn behind(calm: &Path, rough: &Path, sent: &Path) -> Vec<String> {
    let names = |dir: &Path| -> std::collections::BTreeSet<String> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|name| !name.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default()
    };
    let untaken = names(&rough.join("Maildir").join("new"));
    let unwritten = names(&calm.join("sent"));
    let written = names(sent);
    untaken
        .into_iter()
        .map(|name| format!("take {name}"))
        .chain(
            unwritten
                .difference(&written)
                .map(|name| format!("write {name}")),
        )
        .collect()
}

fn one_seed(seed: u64, phases: usize, kills_per_wave: u64) -> Tally {
    let copies = Copies::new();
    let (calm, rough) = (&copies.calm, &copies.rough);
    let disks = Disks::new(rough).expect("the rough copy's disks");
    let waves = script(phases);
    let messages: Vec<(String, Vec<u8>)> = waves.iter().flatten().cloned().collect();
    let mut schedule = SplitMix(seed);
    let episodes = plan(&mut schedule, waves.len());
    println!("seed {seed}: faults {episodes:?}");
    let mut tally = Tally::default();
    let mut written = Written::default();
    let log = rough.join("daemon.log");
    let mut log_at_start = 0;

    for (w, wave) in waves.iter().enumerate() {
        let window = calm_wave(calm, wave);
        let episode = episodes.iter().find(|e| e.first <= w && w <= e.last);
        let kills = schedule.within(1, kills_per_wave + 1);
        let mut filler = None;
        let mut held: &[(String, Vec<u8>)] = &[];
        if let Some(e) = episode
            && e.first == w
        {
            log_at_start = std::fs::metadata(&log).map_or(0, |m| m.len());
            match e.fault {
                // A disk fills at a seeded moment of the wave's work, or once
                // the daemon has done all it was given if that comes first:
                // the wave's last answered message arrives only when the disk
                // is full, so that the fault meets work whatever the timing.
                Fault::FullStoreDisk | Fault::FullOutboxDisk => {
                    let delay = schedule.within(0, window.as_millis() as u64 + 1);
                    held = &wave[last_answered(wave)..];
                    let (ballast, root, late) =
                        (disks.ballast(e.fault), rough.clone(), held.to_vec());
                    let (done, wait) = std::sync::mpsc::channel::<()>();
                    filler = Some((
                        done,
                        std::thread::spawn(move || {
                            let _ = wait.recv_timeout(Duration::from_millis(delay));
                            faults::fill(&ballast);
                            deliver(&root, &late);
                        }),
                    ));
                }
                fault => disks.apply(fault),
            }
        }
        deliver(rough, &wave[..wave.len() - held.len()]);
        let landed = tally.killed.landed;
        kill_repeatedly(rough, &mut schedule, kills, window, &mut tally.killed);
        if episode.is_some() {
            tally.killed_in_faults += tally.killed.landed - landed;
        }
        if let Some((done, filler)) = filler {
            // The daemon has done what it had: the disk fills now if it has
            // not yet.
            let _ = done.send(());
            filler.join().expect("filled");
        }
        let when = format!("seed {seed}, wave {w}");
        written.look(&disks.sent);
        acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
        let ok = if episode.is_some() {
            tally.faulted_runs += 1;
            let status = faulted_run(rough, NOW);
            if !status.success() {
                tally.failed_runs += 1;
            }
            status.success()
        } else {
            run_to_the_end(rough);
            true
        };
        written.look(&disks.sent);
        acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
        // Everything else done, a failed send is tried again when it is
        // due: once during a fault (it fails again, and waits longer), until
        // none waits once the fault is lifted.
        if ok && maildir_empty(rough) {
            let mut tries = 0;
            while let Some(due) = next_retry(&disks.data) {
                tries += 1;
                tally.retry_runs += 1;
                if episode.is_some() {
                    faulted_run(rough, &due);
                    break;
                }
                assert!(
                    tries <= 3,
                    "{when}: sends still waiting after {tries} tries"
                );
                run_to_the_end_at(rough, &due);
            }
            written.look(&disks.sent);
            acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
        }
        if let Some(e) = episode
            && e.last == w
        {
            // Where the copy is behind the uninterrupted one, a step failed
            // under the fault, and the log must say why. (A step may also
            // get through: SQLite may find room in pages it already has.)
            let behind = behind(calm, rough, &disks.sent);
            if !behind.is_empty() {
                tally.faults_met += 1;
                let text = std::fs::read(&log).expect("log");
                let said = String::from_utf8_lossy(&text[log_at_start as usize..]).to_lowercase();
                assert!(
                    e.fault.said().iter().any(|words| said.contains(words)),
                    "{when}: during {:?}, with {behind:?} still to do, the log never said {:?}:\n{}",
                    e.fault,
                    e.fault.said(),
                    said.lines().rev().take(30).collect::<Vec<_>>().join("\n")
                );
            }
            disks.lift(e.fault);
            // The fault lifted, the daemon catches up by itself.
            run_to_the_end(rough);
            while let Some(due) = next_retry(&disks.data) {
                tally.retry_runs += 1;
                run_to_the_end_at(rough, &due);
            }
            written.look(&disks.sent);
            acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
        }
    }
    let text = std::fs::read_to_string(&log).expect("log");
    if let Ok(keep) = std::env::var("ADJUTANT_FAULT_KEEP_LOG") {
        std::fs::write(keep, &text).expect("keeps the log");
    }
    assert!(
        !text.contains("panicked"),
        "seed {seed}: a panic in the log"
    );
    println!(
        "seed {seed}: {} waves, {} mail messages, {phases} resolutions; {} faults over {} waves, {} of them leaving work undone; {} runs during faults ({} failed), {} runs at a retry's time; {} of {} starts killed while the daemon worked, {} of them during a fault",
        waves.len(),
        messages.len(),
        episodes.len(),
        episodes.iter().map(|e| e.last + 1 - e.first).sum::<usize>(),
        tally.faults_met,
        tally.faulted_runs,
        tally.failed_runs,
        tally.retry_runs,
        tally.killed.landed,
        tally.killed.tried,
        tally.killed_in_faults,
    );
    check_the_end(seed, phases, &copies, &disks.data, &messages);
    drop(disks);
    tally
}

#[test]
fn under_faults_and_kills_the_daemon_ends_where_an_uninterrupted_run_ends() {
    let test = "fault_schedule";
    if let Err(why) = faults::possible() {
        faults::skip(test, &why);
        return;
    }
    let seeds = setting("ADJUTANT_FAULT_SEEDS", 1);
    let first = setting("ADJUTANT_FAULT_FIRST_SEED", 1);
    let phases = setting("ADJUTANT_FAULT_PHASES", 2) as usize;
    let kills_per_wave = setting("ADJUTANT_FAULT_KILLS_PER_WAVE", 2);
    for seed in first..first + seeds {
        one_seed(seed, phases, kills_per_wave);
    }
}

/// A daemon running as it runs in service (its loop, the real clock, a
/// poll every second, a failed send tried again after one second, then
/// two, up to eight), its log added to `daemon.log`.
struct Live {
    root: PathBuf,
    child: std::process::Child,
}

impl Live {
    fn start(root: &Path) -> Live {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(root.join("daemon.log"))
            .expect("log file");
        let child = std::process::Command::new(support::crash_harness::BIN)
            .args(["daemon", "--config"])
            .arg(root.join("adjutant.toml"))
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .expect("starts");
        Live {
            root: root.to_path_buf(),
            child,
        }
    }

    /// The processor time it has had, user and system.
    fn cpu(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // The fields after the command's name, which is in parentheses.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
            .sum();
        // The kernel counts in USER_HZ, 100 a second on Linux.
        Duration::from_millis(ticks * 10)
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().expect("waits").is_none()
    }

    fn kill(&mut self) {
        self.child.kill().expect("kills");
        self.child.wait().expect("reaped");
    }

    /// SIGTERM, and the daemon stops cleanly.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status();
        let started = Instant::now();
        while self.running() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the daemon did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = self.child.wait().expect("reaped");
        assert!(
            status.success(),
            "the daemon stopped with {status}: {}",
            log_tail(&self.root, 20)
        );
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Whether the daemon has caught up: no mail waiting in the Maildir, every
/// message of the outbox sent, and `resolutions` resolutions made.
/// Whether the daemon has done everything but send its mail: the Maildir
/// taken, and `resolutions` resolutions made (their reports queued with
/// them).
fn all_but_sending_done(root: &Path, data: &Path, resolutions: usize) -> bool {
    maildir_empty(root)
        && rows(
            snapshot(data).path(),
            "SELECT COUNT(*) FROM resolutions WHERE resolved_at IS NOT NULL",
        ) == vec![format!("Integer({resolutions})")]
}

fn caught_up(root: &Path, data: &Path, resolutions: usize) -> bool {
    if !maildir_empty(root) {
        return false;
    }
    let copy = snapshot(data);
    rows(
        copy.path(),
        "SELECT COUNT(*) FROM outbox WHERE status != 'sent' OR attempt_started_at IS NOT NULL",
    ) == vec!["Integer(0)".to_string()]
        && rows(
            copy.path(),
            "SELECT COUNT(*) FROM resolutions WHERE resolved_at IS NOT NULL",
        ) == vec![format!("Integer({resolutions})")]
}

/// The faults a running daemon meets, one a wave: the wave is delivered,
/// the fault made (a disk fills a moment later), and the daemon watched
/// for a few seconds while it lasts; then it is lifted, and the daemon must
/// catch up by itself. A store made read-only is not among them: a running
/// daemon keeps its store open, and a file open for writing keeps its
/// writes through a read-only remount; the read-only store is met when the
/// daemon starts (`starting_on_a_read_only_store_...`, and the fault
/// schedule's runs).
const LIVE_FAULTS: [(usize, Fault, bool); 5] = [
    (1, Fault::FullStoreDisk, false),
    (2, Fault::ReadOnlyOutbox, true),
    (4, Fault::FullOutboxDisk, false),
    (5, Fault::FullStoreDisk, true),
    (7, Fault::ReadOnlyOutbox, false),
];

/// Empties the write-ahead log of the store in `data` (the daemon may hold
/// it open, between steps), so that the next write needs new room: a full
/// disk then stops it, rather than SQLite writing into the room its log
/// already has.
fn empty_the_wal(data: &Path) {
    rusqlite::Connection::open(data.join(adjutant::store::DB_FILE))
        .and_then(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)"))
        .expect("checkpoint");
}

/// How long a running daemon is watched during a fault, once it has met it.
const WATCH: Duration = Duration::from_secs(3);

#[test]
fn a_running_daemon_rides_out_full_disks_and_an_unwritable_outbox_and_catches_up() {
    let test = "fault_schedule (a running daemon)";
    if let Err(why) = faults::possible() {
        faults::skip(test, &why);
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path().join("live");
    support::crash_harness::prepare(&root);
    let config = root.join("adjutant.toml");
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str(
        "[intervals]\npoll_seconds = 1\n[outbox]\nfirst_retry_seconds = 1\nmax_retry_seconds = 8\n",
    );
    std::fs::write(&config, text).expect("config");
    let disks = Disks::new(&root).expect("the disks");
    let log = root.join("daemon.log");
    let mut live = Live::start(&root);
    let waves = script(2);
    let messages: Vec<(String, Vec<u8>)> = waves.iter().flatten().cloned().collect();
    let mut written = Written::default();
    let mut resolutions = 0;
    let mut faults_met = std::collections::BTreeSet::new();
    for (w, wave) in waves.iter().enumerate() {
        let when = format!("live, wave {w}");
        if wave
            .iter()
            .any(|(_, raw)| String::from_utf8_lossy(raw).contains("no orders"))
        {
            resolutions += 1;
        }
        let fault = LIVE_FAULTS.iter().find(|(at, _, _)| *at == w);
        let log_at_start = std::fs::metadata(&log).map_or(0, |m| m.len());
        // The fault comes first, so that the wave's mail meets it.
        if let Some(&(_, fault, _)) = fault {
            if fault == Fault::FullStoreDisk {
                empty_the_wal(&disks.data);
            }
            disks.apply(fault);
        }
        deliver(&root, wave);
        if let Some(&(_, fault, kill)) = fault {
            // Once the daemon has met the fault (it says so), it may be
            // killed and started again into it; then it is watched while it
            // has nothing to do but wait for the fault to go.
            let said = |from: u64| -> bool {
                let text = std::fs::read(&log).expect("log");
                let text = String::from_utf8_lossy(&text[from as usize..]).to_lowercase();
                fault.said().iter().any(|words| text.contains(words))
            };
            // Met, or the wave's work done without meeting it: a disk that
            // is full still takes what fits in the space a file already
            // has (SQLite reuses its write-ahead log from the start).
            let mut meet = |from: u64, live: &mut Live| -> bool {
                let started = Instant::now();
                loop {
                    if said(from) || !live.running() {
                        return true;
                    }
                    if caught_up(&root, &disks.data, resolutions) {
                        return false;
                    }
                    assert!(
                        started.elapsed() < Duration::from_secs(120),
                        "{when}: during {fault:?} the daemon neither did the wave's work nor said {:?}: {}",
                        fault.said(),
                        log_tail(&root, 30)
                    );
                    written.look(&disks.sent);
                    std::thread::sleep(Duration::from_millis(50));
                }
            };
            let mut met = meet(log_at_start, &mut live);
            if kill {
                live.kill();
                let from = std::fs::metadata(&log).map_or(0, |m| m.len());
                live = Live::start(&root);
                met |= meet(from, &mut live);
            }
            if !met {
                println!("{when}: {fault:?}: the wave's work found room enough");
            } else {
                assert!(
                    said(log_at_start),
                    "{when}: the log says nothing of {fault:?}"
                );
                faults_met.insert(fault);
            }
            acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
            if met
                && live.running()
                && matches!(fault, Fault::ReadOnlyOutbox | Fault::FullOutboxDisk)
            {
                // The outbox is sent from a thread of its own, which meets
                // an outbox's fault with the wave's first reply, while the
                // loop still takes the wave's mail and resolves its turn:
                // work the fault does not stop. The watch for a spin starts
                // once that is done, and only the fault stands in the way.
                let started = Instant::now();
                while !all_but_sending_done(&root, &disks.data, resolutions) && live.running() {
                    assert!(
                        started.elapsed() < Duration::from_secs(120),
                        "{when}: during {fault:?} the daemon did not take the wave's mail: {}",
                        log_tail(&root, 30)
                    );
                    written.look(&disks.sent);
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            if met && live.running() {
                let (base, watched) = (live.cpu(), Instant::now());
                let from = std::fs::metadata(&log).map_or(0, |m| m.len());
                while watched.elapsed() < WATCH {
                    std::thread::sleep(Duration::from_millis(250));
                    written.look(&disks.sent);
                    acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
                }
                let (cpu, wall) = (live.cpu().saturating_sub(base), watched.elapsed());
                let text = std::fs::read(&log).expect("log");
                let lines = String::from_utf8_lossy(&text[from as usize..])
                    .lines()
                    .count();
                println!(
                    "{when}: {fault:?}, watched for {wall:?}: the daemon used {cpu:?} of processor time and wrote {lines} lines of log"
                );
                // A daemon that spins uses the whole of a core, and logs each
                // failing pass: hundreds of lines a second.
                assert!(
                    cpu < wall / 4,
                    "{when}: the daemon spun during {fault:?}: {cpu:?} of processor time in {wall:?}"
                );
                assert!(
                    (lines as f64) < 20.0 * wall.as_secs_f64(),
                    "{when}: {lines} lines of log during {fault:?} in {wall:?}: it does not back off"
                );
            } else if !live.running() {
                println!(
                    "{when}: {fault:?}: the daemon stopped: {}",
                    log_tail(&root, 1)
                );
            }
            disks.lift(fault);
            if !live.running() {
                // A daemon that could not start into the fault (it says why
                // in its log) is started again, as systemd would.
                live = Live::start(&root);
            }
        }
        // Caught up by itself.
        let started = Instant::now();
        while !caught_up(&root, &disks.data, resolutions) {
            assert!(
                live.running(),
                "{when}: the daemon stopped: {}",
                log_tail(&root, 20)
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{when}: the daemon did not catch up within 60 s: {}",
                log_tail(&root, 20)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        written.look(&disks.sent);
        acknowledged_only_what_is_stored(&disks.data, &disks.sent, &when);
    }
    live.stop();
    let kinds: std::collections::BTreeSet<Fault> = LIVE_FAULTS.iter().map(|f| f.1).collect();
    assert_eq!(faults_met, kinds, "every kind of fault met");
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(!text.contains("panicked"), "a panic in the log");
    // Each message taken once and answered once; each phase resolved once.
    let data = &disks.data;
    assert_eq!(
        rows(
            data,
            "SELECT COUNT(*) FROM inbound_messages WHERE status != 'stored'"
        ),
        vec![format!("Integer({})", messages.len())]
    );
    let answered = rows(
        data,
        "SELECT COUNT(*) FROM outbox WHERE in_reply_to IS NOT NULL GROUP BY in_reply_to",
    );
    assert_eq!(
        answered.len(),
        messages.len() - 1,
        "one reply to each message with a sender"
    );
    assert!(answered.iter().all(|n| n == "Integer(1)"), "{answered:?}");
    assert_eq!(
        rows(data, "SELECT COUNT(*) FROM resolutions"),
        vec![format!("Integer({resolutions})")]
    );
    let archive = dir.path().join("archive");
    support::crash_harness::export(data, &archive);
    let verified = std::process::Command::new(support::crash_harness::BIN)
        .arg("verify")
        .arg(&archive)
        .output()
        .expect("runs");
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
    drop(disks);
}

/// The file transport, with the disk of the store filling up the moment a
/// message has been written: the send succeeds, and the store has no room
/// to record it.
struct FillingTransport {
    inner: adjutant::outbound::FileTransport,
    ballast: PathBuf,
    armed: std::sync::atomic::AtomicBool,
}

impl adjutant::outbound::Transport for FillingTransport {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn send(
        &self,
        message: &adjutant::outbound::BuiltMessage,
    ) -> Result<(), adjutant::outbound::SendError> {
        let sent = self.inner.send(message);
        if self.armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            faults::fill(&self.ballast);
        }
        sent
    }

    fn delivered(&self, message_id: &str) -> adjutant::outbound::Delivered {
        self.inner.delivered(message_id)
    }
}

/// A daemon in this process over a store on a small tmpfs of its own
/// (`disk`, the ballast at `disk/ballast`), taking a Maildir and writing
/// through [`FillingTransport`], the demo campaign registered and its
/// opening mail sent at [`NOW`].
struct InProcess {
    // (Dropped in this order: the store closed before its disk is
    // unmounted, the disk unmounted before the folder is removed.)
    daemon: adjutant::daemon::Daemon,
    transport: std::sync::Arc<FillingTransport>,
    /// Held for its drop, which unmounts the disk.
    _mounts: Mounts,
    dir: tempfile::TempDir,
}

impl InProcess {
    fn new() -> InProcess {
        use adjutant::lifecycle::FixedClock;
        use std::sync::Arc;
        struct Shared(Arc<FillingTransport>);
        impl adjutant::outbound::Transport for Shared {
            fn describe(&self) -> String {
                self.0.describe()
            }
            fn send(
                &self,
                m: &adjutant::outbound::BuiltMessage,
            ) -> Result<(), adjutant::outbound::SendError> {
                self.0.send(m)
            }
            fn delivered(&self, id: &str) -> adjutant::outbound::Delivered {
                self.0.delivered(id)
            }
        }
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        adjutant::demo::bundled_campaign(&root.join("campaign")).expect("campaign");
        support::crash_harness::cheapen_passphrases(&root.join("campaign").join("campaign.toml"));
        let disk = root.join("disk");
        std::fs::create_dir(&disk).expect("dir");
        let mut mounts = Mounts::default();
        mounts.tmpfs(&disk, STORE_DISK).expect("tmpfs");
        let transport = Arc::new(FillingTransport {
            inner: adjutant::outbound::FileTransport::new(root.join("sent")),
            ballast: disk.join("ballast"),
            armed: std::sync::atomic::AtomicBool::new(false),
        });
        let mut daemon = adjutant::daemon::Daemon::new(
            adjutant::store::Store::open(&disk.join("data")).expect("store"),
            Some(Box::new(adjutant::daemon::MaildirSource::new(
                root.join("Maildir"),
            ))),
            Box::new(Shared(Arc::clone(&transport))),
            adjutant::outbound::DeliveryPolicy {
                from: "adjutant <adjutant@example.org>".into(),
                ..Default::default()
            },
            adjutant::ingest::IngestConfig {
                own_addresses: vec!["adjutant@example.org".into()],
                ..Default::default()
            },
            chrono::Duration::seconds(5),
        );
        let t0 = FixedClock(NOW.parse().expect("a time"));
        daemon
            .start(&[root.join("campaign").as_path()], &t0)
            .expect("starts");
        daemon
            .run_until_quiet(&t0, 20)
            .expect("the opening mail sent");
        InProcess {
            daemon,
            transport,
            _mounts: mounts,
            dir,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn data(&self) -> PathBuf {
        self.path("disk").join("data")
    }

    fn deliver(&self, name: &str, from: &str, message_id: &str, body: &str) {
        let raw =
            support::crash_harness::mail(from, message_id, "[sound-the-charge-demo] orders", body);
        adjutant::inbox::maildir::deliver(&self.path("Maildir"), name, &raw).expect("delivered");
    }

    /// Empties the write-ahead log, so that the next write needs new room.
    fn checkpoint(&self) {
        empty_the_wal(&self.data());
    }
}

#[test]
fn a_send_the_full_store_could_not_record_is_settled_once_there_is_room() {
    use adjutant::daemon::Event;
    use adjutant::lifecycle::FixedClock;
    use std::sync::atomic::Ordering;
    let test = "fault_schedule (a send not recorded)";
    if let Err(why) = faults::possible() {
        faults::skip(test, &why);
        return;
    }
    let mut p = InProcess::new();
    let t0 = FixedClock(NOW.parse().expect("a time"));
    // An order, taken and its acknowledgement queued.
    p.deliver(
        "1.eml",
        support::crash_harness::FRENCH,
        "one@french.invalid",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    p.daemon.handle(&Event::MailArrived, &t0).expect("taken");
    p.checkpoint();
    p.transport.armed.store(true, Ordering::SeqCst);
    let failed = p.daemon.handle(&Event::OutboxDue, &t0);
    let said = format!("{failed:?}");
    assert!(
        said.contains("disk is full"),
        "the send's result could not be recorded: {said}"
    );
    let mut written = Written::default();
    written.look(&p.path("sent"));
    // Room again: the daemon, still running, settles the message by itself,
    // and writes it no second time.
    faults::free(&p.path("disk").join("ballast"));
    let later = FixedClock(t0.0 + chrono::Duration::hours(1));
    p.daemon.run_until_quiet(&later, 20).expect("settles");
    written.look(&p.path("sent"));
    let unsettled = rows(
        &p.data(),
        "SELECT message_id FROM outbox WHERE status != 'sent' OR attempt_started_at IS NOT NULL",
    );
    assert!(unsettled.is_empty(), "left unsettled: {unsettled:?}");
}

/// The submissions of the store, by phase and side, in the order taken.
fn submissions(data: &Path) -> Vec<String> {
    rows(
        data,
        "SELECT phase_key, side, canonical_text, status FROM submissions ORDER BY id",
    )
}

#[test]
fn orders_that_come_while_a_full_store_cannot_close_the_phase_wait_for_the_next_phase() {
    use adjutant::daemon::Event;
    use adjutant::lifecycle::FixedClock;
    let test = "fault_schedule (a phase not closed)";
    if let Err(why) = faults::possible() {
        faults::skip(test, &why);
        return;
    }
    let t0 = FixedClock(NOW.parse().expect("a time"));
    let french = support::crash_harness::FRENCH;
    let austrian = support::crash_harness::AUSTRIAN;
    let turn_1 = "passphrase: vive-l-empereur\n1-ligne: hold\n";
    let turn_2 = "passphrase: vive-l-empereur\n2-ligne: hold\n";
    let none = "passphrase: gott-erhalte-franz\nno orders\n";
    // Uninterrupted: both sides in, the phase resolved, then the French
    // player's orders for the next turn.
    let mut calm = InProcess::new();
    calm.deliver("1.eml", french, "t1@french.invalid", turn_1);
    calm.deliver("2.eml", austrian, "t1@austrian.invalid", none);
    calm.daemon.run_until_quiet(&t0, 20).expect("settles");
    calm.deliver("3.eml", french, "t2@french.invalid", turn_2);
    calm.daemon.run_until_quiet(&t0, 20).expect("settles");
    // The same, with the store's disk full (but for the room its
    // write-ahead log has, which a message takes and a resolution does not)
    // from the moment both sides are in until after the next orders came.
    let mut rough = InProcess::new();
    rough.deliver("1.eml", french, "t1@french.invalid", turn_1);
    rough.deliver("2.eml", austrian, "t1@austrian.invalid", none);
    rough
        .daemon
        .handle(&Event::MailArrived, &t0)
        .expect("taken");
    faults::fill(&rough.path("disk").join("ballast"));
    rough.deliver("3.eml", french, "t2@french.invalid", turn_2);
    let failed = rough.daemon.run_until_quiet(&t0, 20);
    assert!(failed.is_err(), "the full store resolved the phase");
    faults::free(&rough.path("disk").join("ballast"));
    rough.daemon.run_until_quiet(&t0, 20).expect("settles");
    assert_eq!(
        submissions(&rough.data()),
        submissions(&calm.data()),
        "the orders sent after both sides were in count for the next phase"
    );
}

/// SQLite says no more than "disk I/O error" when a full disk leaves it no
/// room for its shared-memory index, and cannot open a store at all on a
/// file system made read-only: the store names the cause, in the words the
/// operator must act on, and opens again once the cause is gone.
#[test]
fn a_store_that_cannot_open_on_a_full_or_read_only_disk_names_the_cause() {
    let test = "fault_schedule (a store that cannot open)";
    if let Err(why) = faults::possible() {
        faults::skip(test, &why);
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let mut mounts = Mounts::default();
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).expect("dir");
    mounts.tmpfs(&disk, 4 << 20).expect("tmpfs");
    let inside = disk.join("var");
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&inside)
        .expect("dir");
    let view = dir.path().join("var");
    std::fs::create_dir(&view).expect("dir");
    mounts.bind(&inside, &view).expect("bind");
    // Made, and closed: its shared-memory index is gone with it.
    drop(adjutant::store::Store::open(&view).expect("opens"));

    let ballast = disk.join("ballast");
    faults::fill(&ballast);
    let e = adjutant::store::Store::open(&view)
        .err()
        .expect("no store opens on a full disk");
    let words = e.to_string();
    assert!(
        words.contains(&format!("the disk holding {} is full", view.display())),
        "{words}"
    );
    faults::free(&ballast);
    drop(adjutant::store::Store::open(&view).expect("opens once there is room"));

    mounts.read_only(&view).expect("read-only");
    let e = adjutant::store::Store::open(&view)
        .err()
        .expect("no store opens on a read-only file system");
    let words = e.to_string();
    assert!(
        words.contains(&format!(
            "the file system holding {} is read-only",
            view.display()
        )),
        "{words}"
    );
    mounts.writable(&view).expect("writable");
    drop(adjutant::store::Store::open(&view).expect("opens once writable"));
}
