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
    /// No inbox: orders come only through `adjutant ingest` from an MTA pipe.
    None,
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
    /// nothing is due sooner).
    pub poll_seconds: u32,
}

impl Default for Intervals {
    fn default() -> Self {
        Intervals { poll_seconds: 30 }
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
        assert_eq!(c.intervals.poll_seconds, 30);
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
