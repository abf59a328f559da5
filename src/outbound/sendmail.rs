//! Sending through the local MTA's `sendmail` command (Postfix, Exim, msmtp
//! and others all provide one), with lettre's sendmail transport.

use std::ffi::OsString;

use lettre::Transport as _;

use super::{BuiltMessage, Delivered, SendError, Transport};

pub struct SendmailTransport {
    command: OsString,
    inner: lettre::SendmailTransport,
}

impl SendmailTransport {
    /// `command` is the path of the sendmail program, usually
    /// `/usr/sbin/sendmail`.
    pub fn new(command: impl Into<OsString>) -> SendmailTransport {
        let command = command.into();
        SendmailTransport {
            inner: lettre::SendmailTransport::new_with_command(command.clone()),
            command,
        }
    }
}

impl Transport for SendmailTransport {
    fn describe(&self) -> String {
        format!("sendmail {}", self.command.to_string_lossy())
    }

    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        // sendmail queues the message locally; when it fails, the reason is
        // on our side of the MTA (the program is missing, its queue is full
        // or unwritable), which a GM can fix, so every failure is retried
        // until the attempts run out. lettre does not pass on the exit
        // status that would tell a temporary failure (75) from others.
        self.inner
            .send_raw(&message.envelope, &message.bytes)
            .map_err(|e| SendError::transient(format!("sendmail: {e}")))
    }

    fn delivered(&self, _message_id: &str) -> Delivered {
        // The MTA's queue cannot be asked whether it holds a message.
        Delivered::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_sendmail_is_a_transient_failure() {
        let t = SendmailTransport::new("/nonexistent/adjutant-test-sendmail");
        let mail = crate::store::OutgoingMail::text(
            "<x.y@example.org>".into(),
            "a@example.org".into(),
            "s".into(),
            "b\n".into(),
        );
        let built =
            crate::outbound::build(&mail, "adjutant@example.org", chrono::DateTime::UNIX_EPOCH)
                .expect("builds");
        let e = t.send(&built).expect_err("no such program");
        assert!(e.is_transient(), "{e}");
    }
}
