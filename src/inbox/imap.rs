//! An IMAP inbox: the GM's mailbox on a mail server, read over TLS (or
//! STARTTLS; plain text only to a server on this machine).
//!
//! Each unseen message is fetched without touching its flags
//! (`BODY.PEEK[]`), handed to [`crate::ingest::ingest`], and only once it is
//! stored and handled is it flagged `\Seen` (or moved to another folder).
//! A crash or a dropped connection between the two leaves the message
//! unseen, so it is fetched again, and the ingest path's duplicate check
//! keeps it from being acted on twice.
//!
//! The source is meant to be driven by a loop: [`ImapInbox::fetch_once`]
//! takes what is waiting, [`ImapInbox::idle_wait`] blocks until the server
//! reports new mail (IDLE) or the timeout passes (polling, for servers
//! without IDLE). Call `fetch_once` after every wake.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rustls_connector::rustls::pki_types::pem::PemObject;
use rustls_connector::rustls::pki_types::{CertificateDer, ServerName};
use rustls_connector::rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use crate::ingest::{IngestConfig, IngestError, Outcome, ingest_sized, precheck};
use crate::lifecycle::Clock;
use crate::store::Store;

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (IMAPS, usually port 993).
    Tls,
    /// A plain connection upgraded with STARTTLS before logging in (usually
    /// port 143). A server that does not offer it is refused, never used in
    /// plain text.
    StartTls,
    /// No encryption: allowed only to a loopback address, where the password
    /// never leaves the machine.
    Plain,
}

impl FromStr for Security {
    type Err = String;

    fn from_str(s: &str) -> Result<Security, String> {
        match s.to_ascii_lowercase().as_str() {
            "tls" | "imaps" => Ok(Security::Tls),
            "starttls" => Ok(Security::StartTls),
            "plain" | "none" => Ok(Security::Plain),
            other => Err(format!(
                "unknown security mode {other:?}: use tls, starttls or plain"
            )),
        }
    }
}

impl fmt::Display for Security {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Security::Tls => "tls",
            Security::StartTls => "starttls",
            Security::Plain => "plain",
        })
    }
}

/// What becomes of a message once it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterStore {
    /// Flag it `\Seen` and leave it where it is; only unseen messages are
    /// fetched.
    MarkSeen,
    /// Move it to this folder (created if missing); every message left in
    /// the mailbox is fetched, read or not.
    MoveTo(String),
}

/// Where and how to read the mailbox.
#[derive(Clone)]
pub struct ImapConfig {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    pub mailbox: String,
    pub security: Security,
    /// PEM certificates to trust besides the system's roots, for a server
    /// with a private certificate authority.
    pub ca_file: Option<PathBuf>,
    pub after: AfterStore,
    /// How long one network read or write may take before the connection
    /// is given up (outside IDLE, which has its own timeout).
    pub io_timeout: Duration,
}

impl ImapConfig {
    /// A configuration with the usual defaults: INBOX, TLS, flagged seen.
    pub fn new(host: &str, port: u16, user: &str, password: &str) -> ImapConfig {
        ImapConfig {
            host: host.to_string(),
            port,
            user: user.to_string(),
            password: password.to_string(),
            mailbox: "INBOX".to_string(),
            security: Security::Tls,
            ca_file: None,
            after: AfterStore::MarkSeen,
            io_timeout: Duration::from_secs(60),
        }
    }
}

// The password is left out, so that a configuration can be logged.
impl fmt::Debug for ImapConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("mailbox", &self.mailbox)
            .field("security", &self.security)
            .field("ca_file", &self.ca_file)
            .field("after", &self.after)
            .finish_non_exhaustive()
    }
}

/// Why the mailbox could not be read. Every variant but `Ingest` is about
/// the server or the network; a message not yet flagged is fetched again
/// after a reconnect.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImapError {
    #[error(
        "refusing to send the IMAP password in plain text to {host}: plain text is allowed only \
         to a loopback address (127.0.0.1, ::1, localhost); use --security tls or starttls"
    )]
    PlainNotLoopback { host: String },
    #[error("cannot resolve the IMAP host {host}: {source}")]
    Resolve {
        host: String,
        source: std::io::Error,
    },
    #[error("cannot connect to the IMAP server {host}:{port}: {source}")]
    Connect {
        host: String,
        port: u16,
        source: std::io::Error,
    },
    #[error("cannot read the CA file {path}: {reason}")]
    CaFile { path: PathBuf, reason: String },
    #[error("TLS with the IMAP server {host} failed: {reason}")]
    Tls { host: String, reason: String },
    #[error("the IMAP server {host} does not offer STARTTLS ({reply}); the password was not sent")]
    NoStartTls { host: String, reply: String },
    #[error("the IMAP server {host} does not allow LOGIN on this connection (LOGINDISABLED)")]
    LoginDisabled { host: String },
    #[error("the IMAP server refused the login for {user}: {source}")]
    Login {
        user: String,
        source: Box<imap::Error>,
    },
    #[error("IMAP {step} failed: {source}")]
    Protocol {
        step: &'static str,
        source: Box<imap::Error>,
    },
    #[error(transparent)]
    Ingest(#[from] IngestError),
}

fn protocol(step: &'static str) -> impl FnOnce(imap::Error) -> ImapError {
    move |source| ImapError::Protocol {
        step,
        source: Box::new(source),
    }
}

/// What one [`ImapInbox::fetch_once`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Each message taken, by its UID in the mailbox, with what ingest made
    /// of it, in UID order.
    pub outcomes: Vec<(u32, Outcome)>,
}

impl Summary {
    pub fn fetched(&self) -> usize {
        self.outcomes.len()
    }
}

/// Why [`ImapInbox::idle_wait`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// The server reported a change in the mailbox (new mail, most likely).
    Changed,
    /// The timeout passed without news (or the server has no IDLE and the
    /// wait was a plain pause before the next poll).
    TimedOut,
}

type Session = imap::Session<imap::Connection>;

/// A logged-in connection to the mailbox.
pub struct ImapInbox {
    session: Session,
    socket: TcpStream,
    config: ImapConfig,
    idle: bool,
    moves: bool,
}

impl fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapInbox")
            .field("config", &self.config)
            .field("idle", &self.idle)
            .finish_non_exhaustive()
    }
}

/// True when every address `host` names is on this machine.
fn all_loopback(addrs: &[SocketAddr]) -> bool {
    !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback())
}

impl ImapInbox {
    /// Connects, protects the connection as configured, logs in and selects
    /// the mailbox.
    pub fn connect(config: ImapConfig) -> Result<ImapInbox, ImapError> {
        let addrs: Vec<SocketAddr> = (config.host.as_str(), config.port)
            .to_socket_addrs()
            .map_err(|source| ImapError::Resolve {
                host: config.host.clone(),
                source,
            })?
            .collect();
        // The check is on the resolved addresses, so that a name pointing
        // elsewhere cannot pass for "localhost".
        if config.security == Security::Plain && !all_loopback(&addrs) {
            return Err(ImapError::PlainNotLoopback {
                host: config.host.clone(),
            });
        }
        let tcp = connect_any(&addrs, config.io_timeout).map_err(|source| ImapError::Connect {
            host: config.host.clone(),
            port: config.port,
            source,
        })?;
        let io_timeout = Some(config.io_timeout);
        let set_timeouts = |t: &TcpStream| -> Result<(), ImapError> {
            t.set_read_timeout(io_timeout)
                .and_then(|()| t.set_write_timeout(io_timeout))
                .map_err(|source| ImapError::Connect {
                    host: config.host.clone(),
                    port: config.port,
                    source,
                })
        };
        set_timeouts(&tcp)?;
        // A second handle on the same socket, to put the timeouts back after
        // IDLE, which clears them on the stream it holds.
        let socket = tcp.try_clone().map_err(|source| ImapError::Connect {
            host: config.host.clone(),
            port: config.port,
            source,
        })?;
        let mut client = match config.security {
            Security::Plain => {
                let mut c = imap::Client::new(Box::new(tcp) as imap::Connection);
                c.read_greeting().map_err(protocol("greeting"))?;
                c
            }
            Security::Tls => {
                let tls = tls_stream(&config, tcp)?;
                let mut c = imap::Client::new(Box::new(tls) as imap::Connection);
                c.read_greeting().map_err(protocol("greeting"))?;
                c
            }
            Security::StartTls => {
                let tcp = starttls(&config.host, tcp)?;
                let tls = tls_stream(&config, tcp)?;
                let mut c = imap::Client::new(Box::new(tls) as imap::Connection);
                // RFC 3501 6.2.1: no new greeting follows the TLS handshake.
                c.greeting_read = true;
                c
            }
        };
        let capabilities = client.capabilities().map_err(protocol("CAPABILITY"))?;
        if capabilities.has_str("LOGINDISABLED") {
            return Err(ImapError::LoginDisabled {
                host: config.host.clone(),
            });
        }
        let mut session = client
            .login(&config.user, &config.password)
            .map_err(|(source, _)| ImapError::Login {
                user: config.user.clone(),
                source: Box::new(source),
            })?;
        // Capabilities may change after login (RFC 3501 7.2.1).
        let capabilities = session
            .capabilities()
            .map_err(protocol("CAPABILITY after login"))?;
        let idle = capabilities.has_str("IDLE");
        let moves = capabilities.has_str("MOVE");
        if let AfterStore::MoveTo(folder) = &config.after {
            // Creating a folder that exists fails harmlessly; only the SELECT
            // below and the MOVE later say whether things really work.
            let _ = session.create(folder);
        }
        // A folder that a rule files order mail into may not exist yet, before
        // the first such mail: it is made, so the daemon can start.
        if session.select(&config.mailbox).is_err() {
            let _ = session.create(&config.mailbox);
            session
                .select(&config.mailbox)
                .map_err(protocol("SELECT of the configured mailbox"))?;
        }
        Ok(ImapInbox {
            session,
            socket,
            config,
            idle,
            moves,
        })
    }

    /// Whether the server offers IDLE (otherwise `idle_wait` just pauses).
    pub fn supports_idle(&self) -> bool {
        self.idle
    }

    pub fn config(&self) -> &ImapConfig {
        &self.config
    }

    /// Takes every waiting message: fetch it unchanged, ingest it (stored
    /// first), then flag it seen or move it. Returns what became of each.
    ///
    /// An error from the store stops the round with the message unflagged,
    /// so it is fetched again next time.
    pub fn fetch_once(
        &mut self,
        store: &mut Store,
        ingest_config: &IngestConfig,
        clock: &dyn Clock,
    ) -> Result<Summary, ImapError> {
        // A NOOP lets the server tell us about mail delivered since the
        // SELECT; SEARCH then sees it.
        self.session.noop().map_err(protocol("NOOP"))?;
        let query = self.search_query();
        let mut uids: Vec<u32> = self
            .session
            .uid_search(query)
            .map_err(protocol("SEARCH"))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        // Only the first bytes past the size limit are fetched: ingest turns
        // a message that long away anyway, and memory stays bounded however
        // large a message someone sends.
        let window = ingest_config.limits.max_bytes.saturating_add(1);
        let mut summary = Summary::default();
        // Fetched a batch at a time, so that the passphrases of a batch are
        // checked on other cores beside its ingest (`ingest::precheck`);
        // each message is still ingested, then let go, one after another,
        // and a stop asked for meanwhile ends the round between two.
        for batch in uids.chunks(BATCH) {
            if ingest_config.stopping() {
                // What is left stays unseen, for after the restart.
                break;
            }
            let mut fetched: Vec<(u32, Vec<u8>, Option<usize>)> = Vec::with_capacity(batch.len());
            for &uid in batch {
                let fetches = self
                    .session
                    .uid_fetch(
                        uid.to_string(),
                        format!("(UID RFC822.SIZE BODY.PEEK[]<0.{window}>)"),
                    )
                    .map_err(protocol("FETCH"))?;
                // None: expunged by someone else between SEARCH and FETCH.
                if let Some((raw, size)) = fetches
                    .iter()
                    .find(|f| f.uid == Some(uid))
                    .and_then(|f| Some((f.body()?.to_vec(), f.size)))
                {
                    fetched.push((uid, raw, size.map(|s| s as usize)));
                }
            }
            let raws: Vec<&[u8]> = fetched.iter().map(|(_, raw, _)| raw.as_slice()).collect();
            precheck(store, &raws, ingest_config);
            let mut outcome_of_batch = Ok(());
            for (uid, raw, size) in &fetched {
                if ingest_config.stopping() {
                    break;
                }
                match ingest_sized(store, raw, *size, "imap", ingest_config, clock) {
                    Ok(outcome) => {
                        // A message held for its campaign's closing phase
                        // stays unseen, to be fetched again.
                        if !outcome.is_held() {
                            self.let_go(*uid)?;
                        }
                        summary.outcomes.push((*uid, outcome));
                    }
                    Err(e) => {
                        outcome_of_batch = Err(e);
                        break;
                    }
                }
            }
            ingest_config.prechecked.clear();
            outcome_of_batch?;
        }
        Ok(summary)
    }

    /// Whether a message is waiting: one NOOP and one SEARCH, no fetch.
    pub fn pending(&mut self) -> Result<bool, ImapError> {
        self.session.noop().map_err(protocol("NOOP"))?;
        Ok(!self
            .session
            .uid_search(self.search_query())
            .map_err(protocol("SEARCH"))?
            .is_empty())
    }

    fn search_query(&self) -> &'static str {
        match self.config.after {
            AfterStore::MarkSeen => "UNSEEN UNDELETED",
            AfterStore::MoveTo(_) => "UNDELETED",
        }
    }

    /// Marks a stored message done on the server.
    fn let_go(&mut self, uid: u32) -> Result<(), ImapError> {
        let set = uid.to_string();
        match &self.config.after {
            AfterStore::MarkSeen => {
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                    .map_err(protocol("STORE \\Seen"))?;
            }
            AfterStore::MoveTo(folder) if self.moves => {
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                    .map_err(protocol("STORE \\Seen"))?;
                self.session
                    .uid_mv(&set, folder)
                    .map_err(protocol("MOVE"))?;
            }
            AfterStore::MoveTo(folder) => {
                // Without MOVE: copy, then mark the original deleted. It is
                // not expunged, which would also remove other clients'
                // deleted messages; the search skips deleted ones.
                self.session
                    .uid_copy(&set, folder)
                    .map_err(protocol("COPY"))?;
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen \\Deleted)")
                    .map_err(protocol("STORE \\Deleted"))?;
            }
        }
        Ok(())
    }

    /// Waits for the server to report a change, at most `timeout`. With a
    /// server that has no IDLE, pauses for `timeout` (the poll interval).
    pub fn idle_wait(&mut self, timeout: Duration) -> Result<Wake, ImapError> {
        self.idle_wait_or_stop(timeout, &AtomicBool::new(false))
    }

    /// [`ImapInbox::idle_wait`], broken off as soon as `stop` is set: a
    /// watcher shuts the socket down, which ends the blocking read of IDLE
    /// at once. The connection is then of no further use, which is fine for
    /// a daemon that is stopping.
    pub fn idle_wait_or_stop(
        &mut self,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Wake, ImapError> {
        // Mail that arrived while the last round ran was announced in the
        // replies to its commands; IDLE would not announce it again.
        let pending = self
            .session
            .take_all_unsolicited()
            .any(|r| matches!(r, imap::types::UnsolicitedResponse::Exists(_)));
        if pending {
            return Ok(Wake::Changed);
        }
        if !self.idle {
            std::thread::sleep(timeout);
            return Ok(Wake::TimedOut);
        }
        let watched = self.socket.try_clone().map_err(|e| ImapError::Protocol {
            step: "IDLE",
            source: Box::new(imap::Error::Io(e)),
        })?;
        let waiting = AtomicBool::new(true);
        let session = &mut self.session;
        let outcome = std::thread::scope(|scope| {
            scope.spawn(|| {
                while waiting.load(Ordering::SeqCst) {
                    if stop.load(Ordering::SeqCst) {
                        let _ = watched.shutdown(std::net::Shutdown::Both);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let outcome = session
                .idle()
                .timeout(timeout)
                .keepalive(false)
                .wait_while(|response| {
                    // Keep waiting through flag changes and the like; wake on
                    // new mail or anything we cannot name.
                    !matches!(
                        response,
                        imap::types::UnsolicitedResponse::Exists(_)
                            | imap::types::UnsolicitedResponse::Recent(_)
                            | imap::types::UnsolicitedResponse::Bye { .. }
                    )
                });
            waiting.store(false, Ordering::SeqCst);
            outcome
        });
        if stop.load(Ordering::SeqCst) {
            return Ok(Wake::TimedOut);
        }
        let outcome = outcome.map_err(protocol("IDLE"));
        // The IDLE handle leaves the socket without a read timeout; put ours
        // back so that a dead connection is noticed.
        let restored = self.socket.set_read_timeout(Some(self.config.io_timeout));
        let outcome = outcome?;
        restored.map_err(|e| ImapError::Protocol {
            step: "IDLE",
            source: Box::new(imap::Error::Io(e)),
        })?;
        Ok(match outcome {
            imap::extensions::idle::WaitOutcome::MailboxChanged => Wake::Changed,
            imap::extensions::idle::WaitOutcome::TimedOut => Wake::TimedOut,
        })
    }

    /// Logs out politely; errors are of no interest at that point.
    pub fn logout(mut self) {
        let _ = self.session.logout();
    }
}

/// How many messages are fetched and checked together (see `fetch_once`):
/// enough to keep both cores busy on a burst, few enough that memory stays
/// bounded however large each message is.
const BATCH: usize = 64;

/// The IMAP mailbox as one of the daemon's inbox sources: it connects when
/// first needed and again after any failure, so a server restart or a
/// dropped connection costs one poll, and a message is let go only once
/// stored whatever happens in between. A connection that cannot be made is
/// tried again after a wait that doubles with each failure (from 5 seconds
/// up to 10 minutes), so a server that is down or a wrong password does not
/// turn into a login attempt at every poll.
pub struct ImapSource {
    config: ImapConfig,
    inbox: Option<ImapInbox>,
    /// Failed connections in a row, and when the next may be tried.
    failures: u32,
    retry_at: Option<std::time::Instant>,
}

/// The wait after the first failed connection, and the longest.
const FIRST_RECONNECT_WAIT: Duration = Duration::from_secs(5);
const LONGEST_RECONNECT_WAIT: Duration = Duration::from_secs(600);

impl ImapSource {
    pub fn new(config: ImapConfig) -> ImapSource {
        ImapSource {
            config,
            inbox: None,
            failures: 0,
            retry_at: None,
        }
    }

    fn error(&self, e: &ImapError) -> super::source::SourceError {
        super::source::SourceError {
            source_name: super::source::InboxSource::describe(self),
            message: e.to_string(),
        }
    }

    /// The connection, made now if there is none; `None` while waiting to
    /// try again after a failed one.
    fn connected(&mut self) -> Result<Option<&mut ImapInbox>, super::source::SourceError> {
        if self.inbox.is_none() {
            if self.retry_at.is_some_and(|t| std::time::Instant::now() < t) {
                return Ok(None);
            }
            match ImapInbox::connect(self.config.clone()) {
                Ok(inbox) => {
                    self.inbox = Some(inbox);
                    self.failures = 0;
                    self.retry_at = None;
                }
                Err(e) => {
                    self.failures = self.failures.saturating_add(1);
                    let wait = FIRST_RECONNECT_WAIT
                        .saturating_mul(1 << (self.failures - 1).min(10))
                        .min(LONGEST_RECONNECT_WAIT);
                    self.retry_at = Some(std::time::Instant::now() + wait);
                    let mut error = self.error(&e);
                    error.message =
                        format!("{} (trying again in {} s)", error.message, wait.as_secs());
                    return Err(error);
                }
            }
        }
        Ok(self.inbox.as_mut())
    }

    /// Drops a connection that failed, to be made anew at the next look.
    fn broken(&mut self, e: &ImapError) -> super::source::SourceError {
        self.inbox = None;
        self.error(e)
    }
}

impl super::source::InboxSource for ImapSource {
    fn describe(&self) -> String {
        format!(
            "imap {}@{}:{}/{}",
            self.config.user, self.config.host, self.config.port, self.config.mailbox
        )
    }

    fn pending(&mut self) -> Result<bool, super::source::SourceError> {
        let Some(inbox) = self.connected()? else {
            return Ok(false);
        };
        let result = inbox.pending();
        result.map_err(|e| self.broken(&e))
    }

    fn take(
        &mut self,
        store: &mut Store,
        config: &IngestConfig,
        clock: &dyn Clock,
    ) -> Result<Vec<(String, Outcome)>, super::source::SourceError> {
        let Some(inbox) = self.connected()? else {
            return Ok(Vec::new());
        };
        let result = inbox.fetch_once(store, config, clock);
        match result {
            Ok(summary) => Ok(summary
                .outcomes
                .into_iter()
                .map(|(uid, outcome)| (format!("uid {uid}"), outcome))
                .collect()),
            Err(e) => Err(self.broken(&e)),
        }
    }

    fn wait_for_mail(
        &mut self,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<super::source::Waited, super::source::SourceError> {
        // Only an open connection is waited on: connecting is left to the
        // next look, with its waits after failures.
        let Some(inbox) = self.inbox.as_mut() else {
            return Ok(super::source::Waited::Unsupported);
        };
        let result = inbox.idle_wait_or_stop(timeout, stop);
        match result {
            Ok(Wake::Changed) => Ok(super::source::Waited::MailMayBeWaiting),
            Ok(Wake::TimedOut) => Ok(super::source::Waited::TimedOut),
            Err(e) => Err(self.broken(&e)),
        }
    }
}

fn connect_any(addrs: &[SocketAddr], timeout: Duration) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address to connect to");
    for addr in addrs {
        match TcpStream::connect_timeout(addr, timeout) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// The trust anchors: the system's roots plus those of the CA file.
fn roots(config: &ImapConfig) -> Result<RootCertStore, ImapError> {
    let mut roots = RootCertStore::empty();
    if let Ok(native) = rustls_connector::rustls_native_certs::load_native_certs() {
        // A system certificate the parser cannot take is no reason to fail:
        // the one that matters may be another.
        let _ = roots.add_parsable_certificates(native);
    }
    if let Some(path) = &config.ca_file {
        let ca_error = |reason: String| ImapError::CaFile {
            path: path.clone(),
            reason,
        };
        let pem = std::fs::read(path).map_err(|e| ca_error(e.to_string()))?;
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| ca_error(e.to_string()))?;
            roots.add(cert).map_err(|e| ca_error(e.to_string()))?;
            added += 1;
        }
        if added == 0 {
            return Err(ca_error("no PEM certificate in it".to_string()));
        }
    }
    Ok(roots)
}

type TlsStream = StreamOwned<ClientConnection, TcpStream>;

fn tls_stream(config: &ImapConfig, tcp: TcpStream) -> Result<TlsStream, ImapError> {
    let tls_error = |reason: String| ImapError::Tls {
        host: config.host.clone(),
        reason,
    };
    let client_config = ClientConfig::builder()
        .with_root_certificates(roots(config)?)
        .with_no_client_auth();
    let name = ServerName::try_from(config.host.clone())
        .map_err(|e| tls_error(format!("not a valid server name: {e}")))?;
    let mut connection = ClientConnection::new(Arc::new(client_config), name)
        .map_err(|e| tls_error(e.to_string()))?;
    let mut tcp = tcp;
    // Finish the handshake here, so that a bad certificate is reported as
    // such rather than as a failed read of the greeting.
    while connection.is_handshaking() {
        connection
            .complete_io(&mut tcp)
            .map_err(|e| tls_error(e.to_string()))?;
    }
    Ok(StreamOwned::new(connection, tcp))
}

/// Speaks the few plain-text lines before STARTTLS (RFC 3501 6.2.1): the
/// greeting, the command, its tagged reply. Nothing secret is sent.
fn starttls(host: &str, tcp: TcpStream) -> Result<TcpStream, ImapError> {
    let io_error = |source: std::io::Error| ImapError::Tls {
        host: host.to_string(),
        reason: format!("before STARTTLS: {source}"),
    };
    let mut reader = BufReader::new(tcp.try_clone().map_err(io_error)?);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(io_error)?;
    if !line.starts_with("* OK") {
        return Err(ImapError::Tls {
            host: host.to_string(),
            reason: format!("unexpected greeting {:?}", line.trim_end()),
        });
    }
    (&tcp).write_all(b"s1 STARTTLS\r\n").map_err(io_error)?;
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(io_error)? == 0 {
            return Err(io_error(std::io::ErrorKind::UnexpectedEof.into()));
        }
        if let Some(reply) = line.strip_prefix("s1 ") {
            if reply.starts_with("OK") {
                break;
            }
            return Err(ImapError::NoStartTls {
                host: host.to_string(),
                reply: reply.trim_end().to_string(),
            });
        }
    }
    // The server sends nothing more until the handshake, so the reader's
    // buffer is empty and the stream can be handed on.
    if !reader.buffer().is_empty() {
        return Err(ImapError::Tls {
            host: host.to_string(),
            reason: "the server sent data after accepting STARTTLS".to_string(),
        });
    }
    Ok(tcp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_to_another_host_is_refused_before_connecting() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never routed, never contacted,
        // because the check comes before the connection.
        let mut config = ImapConfig::new("192.0.2.1", 143, "gm", "secret");
        config.security = Security::Plain;
        let err = ImapInbox::connect(config).expect_err("refused");
        assert!(matches!(err, ImapError::PlainNotLoopback { .. }), "{err}");
        assert!(err.to_string().contains("plain text"), "{err}");
    }

    #[test]
    fn loopback_is_recognised_by_address() {
        let v4: SocketAddr = "127.0.0.1:143".parse().expect("addr");
        let v6: SocketAddr = "[::1]:143".parse().expect("addr");
        let other: SocketAddr = "10.0.0.1:143".parse().expect("addr");
        assert!(all_loopback(&[v4, v6]));
        assert!(!all_loopback(&[v4, other]));
        assert!(!all_loopback(&[]));
    }

    #[test]
    fn security_modes_parse_and_print() {
        for mode in [Security::Tls, Security::StartTls, Security::Plain] {
            assert_eq!(mode.to_string().parse::<Security>(), Ok(mode));
        }
        assert!("ssl3".parse::<Security>().is_err());
    }

    #[test]
    fn the_password_stays_out_of_debug_output() {
        let config = ImapConfig::new("imap.example.org", 993, "gm", "hunter2");
        assert!(!format!("{config:?}").contains("hunter2"));
    }

    /// A server that cannot be reached is tried again only after a wait
    /// that doubles with each failure; in between, the source says there
    /// is no mail and does not try, and waiting on it does not connect.
    #[test]
    fn a_failed_connection_is_tried_again_only_after_a_growing_wait() {
        use crate::inbox::source::{InboxSource, Waited};
        // A loopback port nothing listens on any more.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut config = ImapConfig::new("127.0.0.1", port, "gm", "pw");
        config.security = Security::Plain;
        config.io_timeout = Duration::from_secs(2);
        let mut source = ImapSource::new(config);
        let first = source.pending().expect_err("nothing listens");
        assert!(first.message.contains("trying again in 5 s"), "{first}");
        assert!(!source.pending().expect("waiting, no error"));
        assert_eq!(source.failures, 1, "no second attempt while waiting");
        assert_eq!(
            source
                .wait_for_mail(Duration::from_millis(10), &AtomicBool::new(false))
                .expect("no error"),
            Waited::Unsupported
        );
        source.retry_at = Some(std::time::Instant::now());
        let second = source.pending().expect_err("still nothing");
        assert!(second.message.contains("trying again in 10 s"), "{second}");
        assert_eq!(source.failures, 2);
    }
}
