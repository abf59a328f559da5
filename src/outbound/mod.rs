//! The outbound mail edge: messages from the outbox are built into RFC 5322
//! bytes (`message`), handed to a [`Transport`] (SMTP, sendmail, a folder of
//! `.eml` files, or a recording stub for tests), and the outcome is recorded
//! in the durable outbox (`delivery`).
//!
//! A transport says whether a failure is worth retrying
//! ([`SendError::is_transient`]) and, where it can, whether a message it was
//! given before a crash actually went out ([`Transport::delivered`]), which
//! is how a restart avoids sending a message twice.

pub mod delivery;
pub mod doorbell;
pub mod file;
pub mod message;
pub mod recording;
pub mod sendmail;
pub mod smtp;

pub use delivery::{DeliveryPolicy, DeliveryReport, InDoubt, deliver_due, reconcile};
pub use doorbell::Doorbell;
pub use file::FileTransport;
pub use message::{BuiltMessage, build};
pub use recording::RecordingTransport;
pub use sendmail::SendmailTransport;
pub use smtp::{SmtpConfig, SmtpSecurity, SmtpTransport};

/// Whether a failed send may succeed if tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Try again later: a 4xx reply, a refused or dropped connection, a
    /// timeout, a full disk.
    Transient,
    /// Trying again will fail the same way: a 5xx reply, an address that is
    /// not an address, a message that cannot be built.
    Permanent,
}

/// A send that failed, with whether to retry it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    pub retry: Retry,
    pub message: String,
}

impl SendError {
    pub fn transient(message: impl Into<String>) -> SendError {
        SendError {
            retry: Retry::Transient,
            message: message.into(),
        }
    }

    pub fn permanent(message: impl Into<String>) -> SendError {
        SendError {
            retry: Retry::Permanent,
            message: message.into(),
        }
    }

    pub fn is_transient(&self) -> bool {
        self.retry == Retry::Transient
    }

    pub fn is_permanent(&self) -> bool {
        self.retry == Retry::Permanent
    }
}

/// What a transport knows of an earlier attempt to send a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivered {
    /// The message went out (the file transport finds its file).
    Yes,
    /// It did not.
    No,
    /// The transport cannot tell (SMTP and sendmail keep no record we can
    /// ask).
    Unknown,
}

/// Somewhere messages can be sent.
pub trait Transport: Send + Sync {
    /// A short name for logs: `smtp mail.example.org:587`, `file ./out`.
    fn describe(&self) -> String;

    /// How many messages may be handed over at once, each on its own
    /// connection. One unless the transport says otherwise.
    fn connections(&self) -> usize {
        1
    }

    /// Sends one built message. The message's bytes and envelope are final:
    /// the transport adds no header and generates no Message-ID.
    fn send(&self, message: &BuiltMessage) -> Result<(), SendError>;

    /// Whether a message with this Message-ID went out in an earlier attempt
    /// whose result was never recorded.
    fn delivered(&self, message_id: &str) -> Delivered;
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn describe(&self) -> String {
        (**self).describe()
    }
    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        (**self).send(message)
    }
    fn delivered(&self, message_id: &str) -> Delivered {
        (**self).delivered(message_id)
    }
}
