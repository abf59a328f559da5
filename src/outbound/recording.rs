//! A transport that records what it is given, for tests: it can be told to
//! fail the next sends in given ways, and to know or not know what it sent
//! (like the file transport, or like SMTP).

use std::collections::VecDeque;
use std::sync::Mutex;

use super::{BuiltMessage, Delivered, SendError, Transport};

pub struct RecordingTransport {
    sent: Mutex<Vec<BuiltMessage>>,
    script: Mutex<VecDeque<Result<(), SendError>>>,
    /// Whether [`Transport::delivered`] answers from the record (true) or
    /// says it cannot tell (false), as SMTP does.
    knows: bool,
}

impl RecordingTransport {
    /// A stub that takes everything and can say what it took.
    pub fn new() -> RecordingTransport {
        RecordingTransport {
            sent: Mutex::new(Vec::new()),
            script: Mutex::new(VecDeque::new()),
            knows: true,
        }
    }

    /// A stub that, like SMTP, cannot say what it took before.
    pub fn forgetful() -> RecordingTransport {
        RecordingTransport {
            knows: false,
            ..RecordingTransport::new()
        }
    }

    /// The next sends return these results in turn (an `Ok` is recorded as
    /// sent); after them every send succeeds.
    pub fn script(&self, results: impl IntoIterator<Item = Result<(), SendError>>) {
        self.script
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(results);
    }

    /// Pretends a message was handed over before the process stopped.
    pub fn record(&self, message: BuiltMessage) {
        self.sent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message);
    }

    /// What was sent, in order.
    pub fn sent(&self) -> Vec<BuiltMessage> {
        self.sent.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Default for RecordingTransport {
    fn default() -> Self {
        RecordingTransport::new()
    }
}

impl Transport for RecordingTransport {
    fn describe(&self) -> String {
        "recording stub".to_string()
    }

    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        let next = self
            .script
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        match next {
            Some(Err(e)) => Err(e),
            _ => {
                self.record(message.clone());
                Ok(())
            }
        }
    }

    fn delivered(&self, message_id: &str) -> Delivered {
        if !self.knows {
            return Delivered::Unknown;
        }
        if self.sent().iter().any(|m| m.message_id == message_id) {
            Delivered::Yes
        } else {
            Delivered::No
        }
    }
}
