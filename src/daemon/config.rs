//! The daemon's configuration file (TOML), checked once on load: relative
//! paths are taken from the file's own folder, and every problem names the
//! file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::outbound::{DeliveryPolicy, InDoubt, SmtpConfig};

/// The checked configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DaemonConfig {
    /// Where the store lives.
    pub data_dir: PathBuf,
    /// Campaign folders to register when the daemon starts, if they are not
    /// registered yet.
    pub campaigns: Vec<PathBuf>,
    pub log_level: tracing::Level,
    pub mail: MailConfig,
    pub inbox: InboxConfig,
    pub transport: TransportConfig,
    pub intervals: Intervals,
    pub outbox: DeliveryPolicy,
    /// Where the daemon keeps each campaign's chronicle current
    /// (`[chronicle] dir`), for a web server to serve; none without it.
    pub chronicle_dir: Option<PathBuf>,
}

/// `[chronicle]`, as the file gives it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChronicle {
    dir: PathBuf,
}

/// Who adjutant is on the mail side.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// The sender of every message, e.g. `adjutant <adjutant@example.org>`.
    pub from: String,
    /// Further addresses of adjutant's own, never answered (the `from`
    /// address always is), so that no mail loop can start.
    #[serde(default)]
    pub own_addresses: Vec<String>,
    /// The domain of Message-IDs of replies that belong to no campaign.
    #[serde(default = "default_reply_domain")]
    pub reply_domain: String,
    /// The largest message taken, in KiB; a larger one is answered with the
    /// limit and not read.
    #[serde(default = "default_max_message_kb")]
    pub max_message_kb: u32,
    /// The most order lines one message may carry.
    #[serde(default = "default_max_order_lines")]
    pub max_order_lines: u32,
    /// The most refusals one registered address gets in an hour, before
    /// adjutant stays silent to it and tells the GM.
    #[serde(default = "default_max_refusals_per_hour")]
    pub max_refusals_per_hour: u32,
    /// The most acknowledgements one address gets in an hour; past it its
    /// orders are still taken, unanswered, and the GM is told.
    #[serde(default = "default_max_acknowledgements_per_hour")]
    pub max_acknowledgements_per_hour: u32,
}

impl MailConfig {
    /// The limits ingest applies.
    pub fn limits(&self) -> crate::mail::Limits {
        crate::mail::Limits {
            max_bytes: self.max_message_kb as usize * 1024,
            max_lines: self.max_order_lines as usize,
            max_refusals_per_hour: self.max_refusals_per_hour as usize,
            max_acknowledgements_per_hour: self.max_acknowledgements_per_hour as usize,
            ..crate::mail::Limits::default()
        }
    }
}

fn default_max_message_kb() -> u32 {
    (crate::mail::Limits::default().max_bytes / 1024) as u32
}

fn default_max_order_lines() -> u32 {
    crate::mail::Limits::default().max_lines as u32
}

fn default_max_refusals_per_hour() -> u32 {
    crate::mail::Limits::default().max_refusals_per_hour as u32
}

fn default_max_acknowledgements_per_hour() -> u32 {
    crate::mail::Limits::default().max_acknowledgements_per_hour as u32
}

fn default_reply_domain() -> String {
    "adjutant.invalid".to_string()
}

/// Where orders arrive.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
#[non_exhaustive]
pub enum InboxConfig {
    /// A Maildir that the MTA delivers into.
    Maildir { path: PathBuf },
    /// An IMAP mailbox.
    Imap(ImapInbox),
    /// No inbox: orders come only through `adjutant ingest` from an MTA pipe.
    None,
}

/// An IMAP mailbox as the file gives it; [`ImapInbox::connection`] makes
/// the settings the IMAP client takes, reading the password file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapInbox {
    pub host: String,
    /// 993 for "tls", 143 for "starttls" and "plain", unless given.
    pub port: Option<u16>,
    /// "tls", "starttls", or "plain" (refused unless `host` is a loopback
    /// address).
    #[serde(default = "default_imap_security")]
    pub security: String,
    pub user: String,
    /// A file holding the password (its first line), kept out of the config
    /// file so that the config can be shared.
    pub password_file: PathBuf,
    #[serde(default = "default_mailbox")]
    pub mailbox: String,
    /// Move each message here once it is stored; without it, a stored
    /// message is flagged seen and left where it is.
    pub move_to: Option<String>,
    /// A PEM file of extra CA certificates to trust (a private CA).
    pub ca_file: Option<PathBuf>,
    /// Seconds one network read or write may take.
    pub timeout_seconds: Option<u64>,
}

fn default_imap_security() -> String {
    "tls".to_string()
}

fn default_mailbox() -> String {
    "INBOX".to_string()
}

impl ImapInbox {
    fn security(&self) -> Result<crate::inbox::imap::Security, String> {
        self.security
            .parse()
            .map_err(|e| format!("inbox.security: {e}"))
    }

    /// The client's settings, with the password read from its file.
    pub fn connection(&self) -> Result<crate::inbox::imap::ImapConfig, String> {
        use crate::inbox::imap::{AfterStore, ImapConfig, Security};
        let security = self.security()?;
        let text = std::fs::read_to_string(&self.password_file)
            .map_err(|e| format!("cannot read {}: {e}", self.password_file.display()))?;
        let password = text.lines().next().unwrap_or_default().trim_end();
        let port = self.port.unwrap_or(match security {
            Security::Tls => 993,
            Security::StartTls | Security::Plain => 143,
        });
        let mut config = ImapConfig::new(&self.host, port, &self.user, password);
        config.security = security;
        config.mailbox = self.mailbox.clone();
        config.ca_file = self.ca_file.clone();
        if let Some(folder) = &self.move_to {
            config.after = AfterStore::MoveTo(folder.clone());
        }
        if let Some(seconds) = self.timeout_seconds {
            config.io_timeout = std::time::Duration::from_secs(seconds.max(1));
        }
        Ok(config)
    }
}

/// Where mail goes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
#[non_exhaustive]
pub enum TransportConfig {
    Smtp(SmtpConfig),
    Sendmail {
        #[serde(default = "default_sendmail")]
        command: PathBuf,
    },
    /// One `.eml` file per message in a folder.
    File {
        dir: PathBuf,
    },
}

fn default_sendmail() -> PathBuf {
    PathBuf::from("/usr/sbin/sendmail")
}

/// How often the daemon looks without being woken.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Intervals {
    /// Seconds between two looks at the inbox (and at everything else, if
    /// nothing is due sooner). Short, so that orders delivered to a Maildir
    /// are acknowledged within seconds: a look is a directory listing and a
    /// few reads of the store. An IMAP inbox with IDLE wakes the daemon
    /// sooner still.
    pub poll_seconds: u32,
}

impl Default for Intervals {
    fn default() -> Self {
        Intervals { poll_seconds: 5 }
    }
}

/// The outbox settings, as the file gives them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutbox {
    first_retry_seconds: Option<u32>,
    max_retry_seconds: Option<u32>,
    max_attempts: Option<u32>,
    batch: Option<usize>,
    in_doubt: Option<InDoubt>,
    keep_sent_attachments_days: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    data_dir: PathBuf,
    #[serde(default)]
    campaigns: Vec<PathBuf>,
    #[serde(default = "default_log_level")]
    log_level: String,
    mail: MailConfig,
    inbox: InboxConfig,
    transport: TransportConfig,
    #[serde(default)]
    intervals: Intervals,
    outbox: Option<RawOutbox>,
    chronicle: Option<RawChronicle>,
}

fn default_log_level() -> String {
    "info".to_string()
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl DaemonConfig {
    /// Reads and checks the configuration file at `path`.
    pub fn load(path: &Path) -> Result<DaemonConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        DaemonConfig::parse(&text, base).map_err(|message| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Checks configuration text; relative paths are taken from `base`.
    pub fn parse(text: &str, base: &Path) -> Result<DaemonConfig, String> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        let log_level: tracing::Level = raw.log_level.parse().map_err(|_| {
            format!(
                "log_level `{}` is not one of error, warn, info, debug, trace",
                raw.log_level
            )
        })?;
        if raw.mail.from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(format!(
                "mail.from `{}` is not a mail address",
                raw.mail.from
            ));
        }
        if raw.intervals.poll_seconds == 0 {
            return Err("intervals.poll_seconds must be at least 1".to_string());
        }
        let at = |p: &Path| base.join(p);
        let inbox = match raw.inbox {
            InboxConfig::Maildir { path } => InboxConfig::Maildir { path: at(&path) },
            InboxConfig::Imap(mut imap) => {
                let security = imap.security()?;
                if security == crate::inbox::imap::Security::Plain
                    && !crate::outbound::smtp::is_loopback(&imap.host)
                {
                    return Err(format!(
                        "inbox: plain-text IMAP is allowed only to a loopback host, not `{}`; use security = \"tls\" or \"starttls\"",
                        imap.host
                    ));
                }
                imap.password_file = at(&imap.password_file);
                imap.ca_file = imap.ca_file.as_deref().map(at);
                InboxConfig::Imap(imap)
            }
            other => other,
        };
        let transport = match raw.transport {
            TransportConfig::File { dir } => TransportConfig::File { dir: at(&dir) },
            TransportConfig::Smtp(mut smtp) => {
                smtp.password_file = smtp.password_file.as_deref().map(at);
                smtp.ca_file = smtp.ca_file.as_deref().map(at);
                TransportConfig::Smtp(smtp)
            }
            other => other,
        };
        let defaults = DeliveryPolicy::default();
        let o = raw.outbox.unwrap_or(RawOutbox {
            first_retry_seconds: None,
            max_retry_seconds: None,
            max_attempts: None,
            batch: None,
            in_doubt: None,
            keep_sent_attachments_days: None,
        });
        let outbox = DeliveryPolicy {
            from: raw.mail.from.clone(),
            first_retry_seconds: o
                .first_retry_seconds
                .unwrap_or(defaults.first_retry_seconds),
            max_retry_seconds: o.max_retry_seconds.unwrap_or(defaults.max_retry_seconds),
            max_attempts: o.max_attempts.unwrap_or(defaults.max_attempts).max(1),
            batch: o.batch.unwrap_or(defaults.batch).max(1),
            in_doubt: o.in_doubt.unwrap_or(defaults.in_doubt),
            keep_sent_attachments_days: o
                .keep_sent_attachments_days
                .unwrap_or(defaults.keep_sent_attachments_days),
        };
        Ok(DaemonConfig {
            data_dir: at(&raw.data_dir),
            campaigns: raw.campaigns.iter().map(|p| at(p)).collect(),
            log_level,
            mail: raw.mail,
            inbox,
            transport,
            intervals: raw.intervals,
            outbox,
            chronicle_dir: raw.chronicle.map(|c| at(&c.dir)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
        data_dir = "var"
        [mail]
        from = "adjutant@example.org"
        [inbox]
        kind = "maildir"
        path = "Maildir"
        [transport]
        kind = "file"
        dir = "out"
    "#;

    #[test]
    fn relative_paths_are_taken_from_the_config_folder() {
        let c = DaemonConfig::parse(MINIMAL, Path::new("/etc/adjutant")).expect("loads");
        assert_eq!(c.data_dir, Path::new("/etc/adjutant/var"));
        assert_eq!(
            c.inbox,
            InboxConfig::Maildir {
                path: "/etc/adjutant/Maildir".into()
            }
        );
        assert_eq!(
            c.transport,
            TransportConfig::File {
                dir: "/etc/adjutant/out".into()
            }
        );
        assert_eq!(c.log_level, tracing::Level::INFO);
        assert_eq!(c.outbox.from, "adjutant@example.org");
        assert_eq!(c.intervals.poll_seconds, 5);
    }

    #[test]
    fn an_imap_inbox_reads_its_password_file_and_takes_the_usual_port() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("imap.pw"), "s3cret\nignored\n").expect("pw");
        let text = MINIMAL.replace(
            "kind = \"maildir\"\n        path = \"Maildir\"",
            "kind = \"imap\"\n        host = \"imap.example.org\"\n        user = \"gm\"\n        password_file = \"imap.pw\"\n        move_to = \"Done\"",
        );
        let c = DaemonConfig::parse(&text, dir.path()).expect("loads");
        let InboxConfig::Imap(imap) = &c.inbox else {
            panic!("not imap: {:?}", c.inbox)
        };
        let conn = imap.connection().expect("connection");
        assert_eq!(conn.port, 993);
        assert_eq!(conn.password, "s3cret");
        assert_eq!(conn.mailbox, "INBOX");
        assert_eq!(conn.security, crate::inbox::imap::Security::Tls);
        assert_eq!(
            conn.after,
            crate::inbox::imap::AfterStore::MoveTo("Done".into())
        );
        let starttls = text.replace("move_to = \"Done\"", "security = \"starttls\"");
        let c = DaemonConfig::parse(&starttls, dir.path()).expect("loads");
        let InboxConfig::Imap(imap) = &c.inbox else {
            panic!("not imap")
        };
        assert_eq!(imap.connection().expect("connection").port, 143);
    }

    #[test]
    fn plain_imap_is_refused_to_a_remote_host() {
        let text = MINIMAL.replace(
            "kind = \"maildir\"\n        path = \"Maildir\"",
            "kind = \"imap\"\n        host = \"imap.example.org\"\n        security = \"plain\"\n        user = \"gm\"\n        password_file = \"pw\"",
        );
        let e = DaemonConfig::parse(&text, Path::new(".")).expect_err("plain to a remote host");
        assert!(e.contains("loopback"), "{e}");
        let local = text.replace("imap.example.org", "127.0.0.1");
        DaemonConfig::parse(&local, Path::new(".")).expect("plain to loopback is fine");
        let e = DaemonConfig::parse(&text.replace("\"plain\"", "\"ssl3\""), Path::new("."))
            .expect_err("unknown security");
        assert!(e.contains("ssl3"), "{e}");
    }

    #[test]
    fn mistakes_are_named() {
        let e = DaemonConfig::parse(&MINIMAL.replace("maildir", "mbox"), Path::new("."))
            .expect_err("unknown kind");
        assert!(e.contains("mbox"), "{e}");
        let e = DaemonConfig::parse(&format!("log_level = \"loud\"\n{MINIMAL}"), Path::new("."))
            .expect_err("bad level");
        assert!(e.contains("loud"), "{e}");
        let e = DaemonConfig::parse(
            &MINIMAL.replace("adjutant@example.org", "nobody"),
            Path::new("."),
        )
        .expect_err("bad from");
        assert!(e.contains("nobody"), "{e}");
        let e = DaemonConfig::parse(&format!("surprise = 1\n{MINIMAL}"), Path::new("."))
            .expect_err("unknown key");
        assert!(e.contains("surprise"), "{e}");
        let e = DaemonConfig::parse(&format!("{MINIMAL}\ndirectory = 1\n"), Path::new("."))
            .expect_err("unknown key of the transport");
        assert!(e.contains("directory"), "{e}");
    }

    #[test]
    fn smtp_settings_are_checked_for_unknown_keys() {
        let text = MINIMAL.replace(
            "kind = \"file\"\n        dir = \"out\"",
            "kind = \"smtp\"\n        host = \"mail.example.org\"\n        security = \"starttls\"\n        pasword_file = \"x\"",
        );
        let e = DaemonConfig::parse(&text, Path::new(".")).expect_err("typo");
        assert!(e.contains("pasword_file"), "{e}");
    }
}
