//! A private mail stack for end-to-end tests: a Postfix and a Dovecot of our
//! own, with their own configuration, queue and mail folders in one short
//! directory under /tmp, listening on free high ports of 127.0.0.1 and on no
//! other address.
//!
//! Postfix takes mail over SMTP for the test domains and hands it to
//! Dovecot's LMTP service; Dovecot keeps each virtual user's Maildir and
//! serves it over IMAP (plain and STARTTLS on one port, TLS on another, with
//! a certificate from a throwaway authority whose certificate is `ca_file`).
//! Both are stopped by the pids they wrote when the stack is dropped.
//!
//! The binaries come from Debian's packages, which `.ci/run` installs. Where
//! they are missing (or the tests do not run as root, which the private
//! Postfix needs), each test says on the terminal that it was skipped and
//! why, and passes: `cargo test` passes on a fresh machine. `.ci/run` sets
//! `ADJUTANT_REQUIRE_MAILSTACK=1`, which makes a missing stack a failure, so
//! CI never skips them.

#![allow(dead_code)]

/// Set to 1 (as `.ci/run` does), a mail stack that cannot run fails the test
/// instead of skipping it.
const REQUIRE: &str = "ADJUTANT_REQUIRE_MAILSTACK";

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The uid and gid the mail is stored under: `nobody`, an unprivileged
/// account every Debian system has (Dovecot refuses root for mail).
const VMAIL_UID: u32 = 65534;
const VMAIL_GID: u32 = 65534;

const POSTFIX: &str = "/usr/sbin/postfix";
const DOVECOT: &str = "/usr/sbin/dovecot";

/// One virtual mail user: address (also the login) and password.
#[derive(Debug, Clone)]
pub struct User {
    pub address: String,
    pub password: String,
}

pub struct MailStack {
    dir: tempfile::TempDir,
    pub smtp_port: u16,
    /// IMAP with STARTTLS offered; plain login allowed (loopback).
    pub imap_port: u16,
    /// IMAP over TLS from the first byte.
    pub imaps_port: u16,
    pub lmtp_port: u16,
    /// The PEM certificate of the authority that signed the server's.
    pub ca_file: PathBuf,
    pub users: Vec<User>,
    postfix_pid: Option<u32>,
    dovecot_pid: Option<u32>,
}

/// Four free ports of 127.0.0.1, all different, none handed out before by
/// this process. The kernel may give a port it has just freed to the next
/// bind, so ports taken one after another can repeat (Dovecot then refuses
/// its configuration: "duplicate listener"); holding the four listeners at
/// once rules that out within a stack, and the set of ports already given
/// rules it out between stacks started by parallel tests.
fn free_ports() -> [u16; 4] {
    static GIVEN: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut given = GIVEN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut held = Vec::new();
    while held.len() < 4 {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port on 127.0.0.1");
        let port = listener.local_addr().expect("local address").port();
        if given.insert(port) {
            held.push((port, listener));
        }
    }
    [held[0].0, held[1].0, held[2].0, held[3].0]
}

fn write(path: &Path, text: &str) {
    fs::write(path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Starts a daemon that forks into the background. Its output goes to a
/// file: a pipe would stay open in the daemon and never reach its end.
fn start_daemon(cmd: &mut Command, what: &str, output: &Path) {
    let file = fs::File::create(output).expect("daemon output file");
    let status = cmd
        .stdin(std::process::Stdio::null())
        .stdout(file.try_clone().expect("clone file"))
        .stderr(file)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        status.success(),
        "{what} failed ({status}):\n{}",
        fs::read_to_string(output).unwrap_or_default()
    );
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl MailStack {
    /// Starts the stack with these `(address, password)` users, or returns
    /// `None` when it cannot run here (the binaries missing, or not root),
    /// having said so; with `ADJUTANT_REQUIRE_MAILSTACK=1` it panics with
    /// the reason instead.
    pub fn start(users: &[(&str, &str)]) -> Option<MailStack> {
        let missing: Vec<&str> = [
            POSTFIX,
            DOVECOT,
            "/usr/lib/dovecot/lmtp",
            "/usr/lib/dovecot/imap",
            "/usr/bin/openssl",
        ]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
        let why = if !missing.is_empty() {
            Some(format!("{} not installed", missing.join(", ")))
        } else if !is_root() {
            Some("not running as root, which the private Postfix's master needs".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            if std::env::var(REQUIRE).as_deref() == Ok("1") {
                panic!(
                    "the end-to-end mail tests need Postfix and Dovecot, run as root: {why}; \
                     `.ci/run --install-only` (as root) installs them"
                );
            }
            // Straight to the terminal: the test harness keeps what a passing
            // test prints with eprintln!, and a skip must be seen.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED an end-to-end mail test: {why}. `.ci/run --install-only` (as root) \
                 installs Postfix and Dovecot; {REQUIRE}=1 makes this a failure."
            );
            return None;
        }
        Some(MailStack::start_installed(users))
    }

    fn start_installed(users: &[(&str, &str)]) -> MailStack {
        // Short, because Unix socket paths under it must stay within 108
        // bytes; world-searchable, because Postfix and Dovecot drop to their
        // own users and must reach their files through it.
        let dir = tempfile::Builder::new()
            .prefix("adjms-")
            .tempdir_in("/tmp")
            .expect("temporary directory under /tmp");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
        let [smtp_port, imap_port, imaps_port, lmtp_port] = free_ports();
        let mut stack = MailStack {
            smtp_port,
            imap_port,
            imaps_port,
            lmtp_port,
            ca_file: dir.path().join("tls/ca.pem"),
            users: users
                .iter()
                .map(|(a, p)| User {
                    address: a.to_ascii_lowercase(),
                    password: p.to_string(),
                })
                .collect(),
            dir,
            postfix_pid: None,
            dovecot_pid: None,
        };
        stack.make_certificates();
        stack.start_dovecot();
        stack.start_postfix();
        stack
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    fn make_certificates(&self) {
        let tls = self.dir().join("tls");
        fs::create_dir_all(&tls).expect("tls dir");
        let p = |name: &str| tls.join(name).to_string_lossy().into_owned();
        run(
            Command::new("openssl").args([
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout",
                &p("ca.key"),
                "-out",
                &p("ca.pem"),
                "-days",
                "2",
                "-subj",
                "/CN=adjutant test authority",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign",
            ]),
            "openssl (test authority)",
        );
        run(
            Command::new("openssl").args([
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout",
                &p("server.key"),
                "-out",
                &p("server.csr"),
                "-subj",
                "/CN=localhost",
            ]),
            "openssl (server key)",
        );
        write(
            &tls.join("ext.cnf"),
            "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
        );
        run(
            Command::new("openssl").args([
                "x509",
                "-req",
                "-in",
                &p("server.csr"),
                "-CA",
                &p("ca.pem"),
                "-CAkey",
                &p("ca.key"),
                "-CAcreateserial",
                "-out",
                &p("server.pem"),
                "-days",
                "2",
                "-extfile",
                &p("ext.cnf"),
            ]),
            "openssl (server certificate)",
        );
        // Dovecot reads the key as root before dropping privileges.
        fs::set_permissions(tls.join("server.key"), fs::Permissions::from_mode(0o600))
            .expect("chmod key");
    }

    fn start_dovecot(&mut self) {
        let d = self.dir().to_path_buf();
        let run_dir = d.join("dr");
        let mail = d.join("mail");
        for sub in [&run_dir, &d.join("ds"), &mail] {
            fs::create_dir_all(sub).expect("dovecot dirs");
            fs::set_permissions(sub, fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        std::os::unix::fs::chown(&mail, Some(VMAIL_UID), Some(VMAIL_GID)).expect("chown mail");
        let passwd: String = self
            .users
            .iter()
            .map(|u| {
                format!(
                    "{}:{{PLAIN}}{}:{VMAIL_UID}:{VMAIL_GID}::{}::\n",
                    u.address,
                    u.password,
                    mail.join(&u.address).display()
                )
            })
            .collect();
        write(&d.join("passwd"), &passwd);
        let instance = d
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "adjms".to_string());
        let conf = format!(
            r#"# A private Dovecot for adjutant's end-to-end tests.
instance_name = {instance}
base_dir = {base}
state_dir = {state}
log_path = {dir}/dovecot.log
info_log_path = {dir}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <{dir}/tls/server.pem
ssl_key = <{dir}/tls/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 100
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {dir}/passwd
}}
userdb {{
  driver = passwd-file
  args = {dir}/passwd
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}
}}
service pop3-login {{
  chroot =
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp}
  }}
}}
service anvil {{
  chroot =
}}
"#,
            base = run_dir.display(),
            state = d.join("ds").display(),
            dir = d.display(),
            imap = self.imap_port,
            imaps = self.imaps_port,
            lmtp = self.lmtp_port,
        );
        let conf_path = d.join("dovecot.conf");
        write(&conf_path, &conf);
        start_daemon(
            Command::new(DOVECOT).arg("-c").arg(&conf_path),
            "dovecot",
            &d.join("dovecot.out"),
        );
        self.dovecot_pid = Some(wait_for_pid(
            &run_dir.join("master.pid"),
            &self.log("dovecot.log"),
        ));
        for port in [self.imap_port, self.imaps_port, self.lmtp_port] {
            wait_for_port(port, || self.logs());
        }
    }

    fn start_postfix(&mut self) {
        let d = self.dir().to_path_buf();
        let conf = d.join("pf");
        let queue = d.join("pq");
        let data = d.join("pd");
        for sub in [&conf, &queue] {
            fs::create_dir_all(sub).expect("postfix dirs");
            fs::set_permissions(sub, fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        fs::create_dir_all(&data).expect("postfix data dir");
        std::os::unix::fs::chown(&data, Some(postfix_uid()), None).expect("chown data dir");
        let mut domains: Vec<&str> = self
            .users
            .iter()
            .filter_map(|u| u.address.split_once('@').map(|(_, d)| d))
            .collect();
        domains.sort_unstable();
        domains.dedup();
        let mailboxes: String = self
            .users
            .iter()
            .map(|u| format!("{} {}\n", u.address, u.address))
            .collect();
        write(&conf.join("vmailbox"), &mailboxes);
        let main = format!(
            r#"# A private Postfix for adjutant's end-to-end tests.
compatibility_level = 3.6
queue_directory = {queue}
data_directory = {data}
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
myhostname = mx.adjutant.test
mydomain = adjutant.test
myorigin = adjutant.test
mydestination =
relay_domains =
alias_maps =
alias_database =
local_recipient_maps =
virtual_mailbox_domains = {domains}
virtual_mailbox_maps = texthash:{conf}/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:{lmtp}
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_peername_lookup = no
smtp_dns_support_level = disabled
disable_dns_lookups = yes
biff = no
smtputf8_enable = no
maillog_file = {dir}/postfix.log
maillog_file_prefixes = {dir}
message_size_limit = 10240000
"#,
            queue = queue.display(),
            data = data.display(),
            domains = domains.join(" "),
            conf = conf.display(),
            lmtp = self.lmtp_port,
            dir = d.display(),
        );
        write(&conf.join("main.cf"), &main);
        let master = format!(
            "# service type private unpriv chroot wakeup maxproc command\n\
             127.0.0.1:{smtp} inet n - n - - smtpd\n\
             pickup    unix n - n 60 1 pickup\n\
             cleanup   unix n - n - 0 cleanup\n\
             qmgr      unix n - n 300 1 qmgr\n\
             rewrite   unix - - n - - trivial-rewrite\n\
             bounce    unix - - n - 0 bounce\n\
             defer     unix - - n - 0 bounce\n\
             trace     unix - - n - 0 bounce\n\
             verify    unix - - n - 1 verify\n\
             flush     unix n - n 1000? 0 flush\n\
             proxymap  unix - - n - - proxymap\n\
             smtp      unix - - n - - smtp\n\
             relay     unix - - n - - smtp\n\
             showq     unix n - n - - showq\n\
             error     unix - - n - - error\n\
             retry     unix - - n - - error\n\
             discard   unix - - n - - discard\n\
             lmtp      unix - - n - - lmtp\n\
             anvil     unix - - n - 1 anvil\n\
             scache    unix - - n - 1 scache\n\
             postlog   unix-dgram n - n - 1 postlogd\n",
            smtp = self.smtp_port
        );
        write(&conf.join("master.cf"), &master);
        start_daemon(
            Command::new(POSTFIX).arg("-c").arg(&conf).arg("start"),
            "postfix start",
            &d.join("postfix.out"),
        );
        self.postfix_pid = Some(wait_for_pid(
            &queue.join("pid/master.pid"),
            &self.log("postfix.log"),
        ));
        wait_for_port(self.smtp_port, || self.logs());
    }

    fn log(&self, name: &str) -> PathBuf {
        self.dir().join(name)
    }

    /// Both servers' logs, for a failing test's message.
    pub fn logs(&self) -> String {
        let mut text = String::new();
        for name in ["postfix.out", "postfix.log", "dovecot.out", "dovecot.log"] {
            let body = fs::read_to_string(self.log(name)).unwrap_or_default();
            text.push_str(&format!("==== {name}\n{body}\n"));
        }
        text
    }

    /// Sends one message over SMTP to the private Postfix, as a mail client
    /// would: EHLO, MAIL, RCPT, DATA with dot-stuffing. Returns Postfix's
    /// reply to the DATA (with its queue id), or the first refusal.
    pub fn send(&self, from: &str, to: &[&str], raw: &[u8]) -> Result<String, String> {
        smtp_send(self.smtp_port, from, to, raw)
    }

    pub fn password(&self, user: &str) -> String {
        self.users
            .iter()
            .find(|u| u.address == user.to_ascii_lowercase())
            .map(|u| u.password.clone())
            .unwrap_or_else(|| panic!("no user {user} in the stack"))
    }

    /// A plain-text IMAP session (loopback) logged in as `user`, for
    /// looking at a mailbox from the outside.
    pub fn session(&self, user: &str) -> imap::Session<TcpStream> {
        let tcp = TcpStream::connect(("127.0.0.1", self.imap_port)).expect("connect to Dovecot");
        tcp.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let mut client = imap::Client::new(tcp);
        client.read_greeting().expect("greeting");
        client
            .login(user, self.password(user))
            .map_err(|(e, _)| e)
            .expect("login")
    }

    /// How many messages of `user`'s `mailbox` match an IMAP search such as
    /// `UNSEEN` or `ALL`.
    pub fn count(&self, user: &str, mailbox: &str, query: &str) -> usize {
        let mut session = self.session(user);
        session.examine(mailbox).expect("EXAMINE");
        let n = session.search(query).expect("SEARCH").len();
        let _ = session.logout();
        n
    }

    /// How many messages Dovecot has delivered into `user`'s INBOX, counted
    /// from its Maildir's files without a word to the server: cheap enough
    /// to look many times a second while a measurement runs.
    pub fn delivered_count(&self, user: &str) -> usize {
        let maildir = self.dir().join("mail").join(user).join("Maildir");
        ["new", "cur"]
            .iter()
            .map(|sub| fs::read_dir(maildir.join(sub)).map_or(0, |d| d.count()))
            .sum()
    }

    /// Every message in `user`'s INBOX, fetched over IMAP without changing
    /// their flags.
    pub fn read_mailbox(&self, user: &str) -> Vec<Vec<u8>> {
        let mut session = self.session(user);
        let mailbox = session.examine("INBOX").expect("EXAMINE INBOX");
        let mut messages = Vec::new();
        if mailbox.exists > 0 {
            let fetches = session.fetch("1:*", "BODY.PEEK[]").expect("FETCH");
            let mut all: Vec<(u32, Vec<u8>)> = fetches
                .iter()
                .filter_map(|f| f.body().map(|b| (f.message, b.to_vec())))
                .collect();
            all.sort_by_key(|(n, _)| *n);
            messages = all.into_iter().map(|(_, b)| b).collect();
        }
        let _ = session.logout();
        messages
    }

    /// The `[inbox]` and `[transport]` sections of a daemon's configuration
    /// that takes `user`'s mail from this stack over IMAP and sends through
    /// its Postfix, both in plain text on loopback. Writes `user`'s password
    /// into `password_file`, which the inbox section names.
    pub fn daemon_mail_config(&self, user: &str, password_file: &Path) -> String {
        write(password_file, &self.password(user));
        format!(
            r#"[inbox]
kind = "imap"
host = "127.0.0.1"
port = {imap}
security = "plain"
user = "{user}"
password_file = "{password_file}"
timeout_seconds = 30
{transport}"#,
            imap = self.imap_port,
            password_file = password_file.display(),
            transport = self.daemon_transport_config(),
        )
    }

    /// The `[transport]` section of a daemon's configuration alone: SMTP
    /// through this stack's Postfix.
    pub fn daemon_transport_config(&self) -> String {
        format!(
            r#"[transport]
kind = "smtp"
host = "127.0.0.1"
port = {smtp}
security = "plain"
timeout_seconds = 30
"#,
            smtp = self.smtp_port,
        )
    }

    /// How many messages Postfix holds in its queue, not yet delivered (or
    /// deferred): the files under its queue folders.
    pub fn queued(&self) -> usize {
        fn files(dir: &Path) -> usize {
            fs::read_dir(dir).map_or(0, |entries| {
                entries
                    .flatten()
                    .map(|e| match e.file_type() {
                        Ok(t) if t.is_dir() => files(&e.path()),
                        Ok(_) => 1,
                        Err(_) => 0,
                    })
                    .sum()
            })
        }
        ["maildrop", "incoming", "active", "deferred", "hold"]
            .iter()
            .map(|q| files(&self.dir().join("pq").join(q)))
            .sum()
    }

    /// Waits until Postfix has handed on every message it took; panics with
    /// the servers' logs after `timeout`.
    pub fn wait_until_queue_is_empty(&self, timeout: Duration) {
        let start = Instant::now();
        while self.queued() > 0 {
            if start.elapsed() > timeout {
                panic!(
                    "Postfix still holds {} message(s) after {timeout:?}\n{}",
                    self.queued(),
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until `user`'s INBOX holds at least `n` messages, and returns
    /// them; panics with the servers' logs after `timeout`.
    pub fn wait_for_mail(&self, user: &str, n: usize, timeout: Duration) -> Vec<Vec<u8>> {
        let start = Instant::now();
        loop {
            let messages = self.read_mailbox(user);
            if messages.len() >= n {
                return messages;
            }
            if start.elapsed() > timeout {
                panic!(
                    "{user} has {} message(s), expected {n} within {timeout:?}\n{}",
                    messages.len(),
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

fn postfix_uid() -> u32 {
    let out = Command::new("id")
        .args(["-u", "postfix"])
        .output()
        .expect("id postfix");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("the postfix user exists (installed with the package)")
}

fn wait_for_pid(path: &Path, log: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Ok(text) = fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        if start.elapsed() > Duration::from_secs(15) {
            panic!(
                "no pid in {} after 15 s; log:\n{}",
                path.display(),
                fs::read_to_string(log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_for_port(port: u16, logs: impl Fn() -> String) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(15) {
            panic!("nothing listens on 127.0.0.1:{port} after 15 s\n{}", logs());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a process is still running: not gone, and not a zombie left for
/// a parent that may never reap it (a container's init often does not).
fn alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            // The state follows the command name, which is in parentheses.
            stat.rsplit_once(')')
                .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
                .unwrap_or(false)
        })
        .unwrap_or(false)
}

fn stop(pid: u32) {
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    // Wait for it to go, so that the next stack's ports and files are free.
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl Drop for MailStack {
    fn drop(&mut self) {
        if let Some(pid) = self.postfix_pid.take() {
            stop(pid);
        }
        if let Some(pid) = self.dovecot_pid.take() {
            stop(pid);
        }
        if std::thread::panicking() {
            eprintln!("{}", self.logs());
        }
    }
}

/// One SMTP conversation (RFC 5321) in plain text on loopback.
pub fn smtp_send(port: u16, from: &str, to: &[&str], raw: &[u8]) -> Result<String, String> {
    let tcp = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    tcp.set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(tcp.try_clone().map_err(|e| e.to_string())?);
    let mut writer = tcp;
    let mut reply = |expect: &str| -> Result<String, String> {
        let mut all = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err(format!("connection closed; so far: {all}"));
            }
            all.push_str(&line);
            // A multi-line reply continues with "250-"; the last has "250 ".
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                break;
            }
        }
        if all.starts_with(expect) {
            Ok(all)
        } else {
            Err(all)
        }
    };
    let say = |w: &mut TcpStream, line: &str| -> Result<(), String> {
        w.write_all(line.as_bytes())
            .and_then(|()| w.write_all(b"\r\n"))
            .map_err(|e| e.to_string())
    };
    reply("220")?;
    say(&mut writer, "EHLO client.adjutant.test")?;
    reply("250")?;
    say(&mut writer, &format!("MAIL FROM:<{from}>"))?;
    reply("250")?;
    for rcpt in to {
        say(&mut writer, &format!("RCPT TO:<{rcpt}>"))?;
        reply("250")?;
    }
    say(&mut writer, "DATA")?;
    reply("354")?;
    let mut data = Vec::with_capacity(raw.len() + 16);
    // Bytes, not text: hostile mail may carry any octet, and it must reach
    // the server as it was written (bare LFs become CRLF, as SMTP requires).
    let body = raw.strip_suffix(b"\n").unwrap_or(raw);
    for line in body.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.starts_with(b".") {
            data.push(b'.');
        }
        data.extend_from_slice(line);
        data.extend_from_slice(b"\r\n");
    }
    data.extend_from_slice(b".\r\n");
    writer.write_all(&data).map_err(|e| e.to_string())?;
    let done = reply("250")?;
    say(&mut writer, "QUIT")?;
    let _ = reply("221");
    Ok(done)
}
