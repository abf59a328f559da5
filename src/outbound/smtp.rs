//! Sending over SMTP with lettre: STARTTLS on the submission port, or
//! implicit TLS on the submissions port, with AUTH when credentials are
//! given. Plain text is refused unless the server is on this machine
//! (a loopback address), where nothing crosses a network.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use lettre::Transport as _;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use serde::Deserialize;

use super::{BuiltMessage, Delivered, SendError, Transport};

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Connect in plain text and upgrade with STARTTLS, refusing to go on
    /// if the server cannot (port 587 by default).
    Starttls,
    /// TLS from the first byte (port 465 by default).
    Tls,
    /// No encryption: only to a loopback host (port 25 by default).
    Plain,
}

/// The SMTP server to send through.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    pub port: Option<u16>,
    pub security: SmtpSecurity,
    /// The AUTH user name; no AUTH without it.
    pub username: Option<String>,
    /// A file holding the password (its first line), kept out of the config
    /// file so that the config can be shared.
    pub password_file: Option<PathBuf>,
    /// A PEM file of extra CA certificates to trust (a private CA).
    pub ca_file: Option<PathBuf>,
    /// Seconds before a silent server counts as a failure.
    pub timeout_seconds: Option<u64>,
    /// How many messages go out at once, each over its own connection
    /// (kept open for the next); 4 unless given.
    pub connections: Option<usize>,
}

/// Messages sent at once unless the configuration says otherwise. A reply
/// takes some 40 ms however small (the server's acknowledgement of the
/// message's last segment is delayed), so fifty acknowledgements in a row
/// would take two seconds; eight at a time take a quarter of a second, and
/// a burst of resolutions' mail goes out faster than over four
/// (docs/PERFORMANCE.md). A mail server takes eight connections from one
/// client without complaint (Postfix's default allows fifty).
pub const DEFAULT_CONNECTIONS: usize = 8;

/// The SMTP settings cannot make a transport.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SmtpSetupError {
    #[error(
        "plain-text SMTP is allowed only to a loopback host (localhost, 127.0.0.1, ::1), not `{0}`; use security = \"starttls\" or \"tls\""
    )]
    PlainToRemote(String),
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("a username needs a password_file, and a password_file a username")]
    HalfCredentials,
    #[error("TLS settings for `{host}`: {message}")]
    Tls { host: String, message: String },
}

/// Whether `host` names this machine's loopback interface.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

pub struct SmtpTransport {
    describe: String,
    inner: lettre::SmtpTransport,
    connections: usize,
}

impl SmtpTransport {
    pub fn new(config: &SmtpConfig) -> Result<SmtpTransport, SmtpSetupError> {
        let host = config.host.as_str();
        let tls_error = |e: lettre::transport::smtp::Error| SmtpSetupError::Tls {
            host: host.to_string(),
            message: e.to_string(),
        };
        let tls = || -> Result<TlsParameters, SmtpSetupError> {
            let mut builder = TlsParameters::builder(host.to_string());
            if let Some(path) = &config.ca_file {
                let pem = std::fs::read(path).map_err(|source| SmtpSetupError::Read {
                    path: path.clone(),
                    source,
                })?;
                builder =
                    builder.add_root_certificate(Certificate::from_pem(&pem).map_err(tls_error)?);
            }
            builder.build_rustls().map_err(tls_error)
        };
        let (tls, default_port) = match config.security {
            SmtpSecurity::Plain => {
                if !is_loopback(host) {
                    return Err(SmtpSetupError::PlainToRemote(host.to_string()));
                }
                (Tls::None, 25)
            }
            SmtpSecurity::Starttls => (Tls::Required(tls()?), 587),
            SmtpSecurity::Tls => (Tls::Wrapper(tls()?), 465),
        };
        let port = config.port.unwrap_or(default_port);
        let connections = config.connections.unwrap_or(DEFAULT_CONNECTIONS).max(1);
        let mut builder = lettre::SmtpTransport::builder_dangerous(host)
            .port(port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(
                config.timeout_seconds.unwrap_or(60),
            )))
            .pool_config(
                lettre::transport::smtp::PoolConfig::new()
                    .min_idle(0)
                    .max_size(connections as u32),
            );
        match (&config.username, &config.password_file) {
            (Some(user), Some(path)) => {
                let text =
                    std::fs::read_to_string(path).map_err(|source| SmtpSetupError::Read {
                        path: path.clone(),
                        source,
                    })?;
                let password = text.lines().next().unwrap_or_default().to_string();
                builder = builder.credentials(Credentials::new(user.clone(), password));
            }
            (None, None) => {}
            _ => return Err(SmtpSetupError::HalfCredentials),
        }
        let security = match config.security {
            SmtpSecurity::Plain => "plain",
            SmtpSecurity::Starttls => "starttls",
            SmtpSecurity::Tls => "tls",
        };
        Ok(SmtpTransport {
            describe: format!("smtp {host}:{port} ({security})"),
            inner: builder.build(),
            connections,
        })
    }
}

/// Whether an SMTP failure is worth retrying: a 5xx reply is permanent
/// (RFC 5321 section 4.2.1), and so is a message the client itself refuses;
/// a 4xx reply, a dropped or refused connection, a timeout, a TLS failure
/// (often a certificate being renewed) are transient.
fn classify(e: &lettre::transport::smtp::Error) -> SendError {
    let text = format!("smtp: {e}");
    if e.is_permanent() || e.is_client() {
        SendError::permanent(text)
    } else {
        SendError::transient(text)
    }
}

impl Transport for SmtpTransport {
    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn connections(&self) -> usize {
        self.connections
    }

    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        self.inner
            .send_raw(&message.envelope, &message.bytes)
            .map(|_| ())
            .map_err(|e| classify(&e))
    }

    fn delivered(&self, _message_id: &str) -> Delivered {
        // SMTP has no way to ask a server whether it took a message: a
        // server that accepted the data and then lost the connection before
        // we recorded it looks exactly like one that never saw it.
        Delivered::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(host: &str, security: SmtpSecurity) -> SmtpConfig {
        SmtpConfig {
            host: host.into(),
            port: None,
            security,
            username: None,
            password_file: None,
            ca_file: None,
            timeout_seconds: Some(5),
            connections: None,
        }
    }

    #[test]
    fn plain_text_is_only_for_loopback() {
        for host in ["localhost", "127.0.0.1", "::1", "[::1]", "127.0.0.2"] {
            assert!(
                SmtpTransport::new(&config(host, SmtpSecurity::Plain)).is_ok(),
                "{host}"
            );
        }
        for host in ["mail.example.org", "192.168.1.1", "10.0.0.1"] {
            assert!(
                matches!(
                    SmtpTransport::new(&config(host, SmtpSecurity::Plain)),
                    Err(SmtpSetupError::PlainToRemote(_))
                ),
                "{host}"
            );
        }
    }

    #[test]
    fn tls_and_starttls_take_their_default_ports() {
        let t = SmtpTransport::new(&config("mail.example.org", SmtpSecurity::Tls)).expect("tls");
        assert_eq!(t.describe(), "smtp mail.example.org:465 (tls)");
        let t = SmtpTransport::new(&config("mail.example.org", SmtpSecurity::Starttls))
            .expect("starttls");
        assert_eq!(t.describe(), "smtp mail.example.org:587 (starttls)");
    }

    #[test]
    fn a_user_without_a_password_is_refused() {
        let mut c = config("mail.example.org", SmtpSecurity::Starttls);
        c.username = Some("gm".into());
        assert!(matches!(
            SmtpTransport::new(&c),
            Err(SmtpSetupError::HalfCredentials)
        ));
    }
}
