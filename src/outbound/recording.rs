//! A transport that records what it is given, for tests: it can be told to
//! fail the next sends in given ways, and to know or not know what it sent
//! (like the file transport, or like SMTP).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use super::{BuiltMessage, Delivered, SendError, Transport};

pub struct RecordingTransport {
    sent: Mutex<Vec<BuiltMessage>>,
    script: Mutex<VecDeque<Result<(), SendError>>>,
    /// Results for given Message-IDs, whatever the order of sending (for
    /// sends in parallel, where "the next send" means nothing).
    by_id: Mutex<BTreeMap<String, SendError>>,
    /// Whether [`Transport::delivered`] answers from the record (true) or
    /// says it cannot tell (false), as SMTP does.
    knows: bool,
    connections: usize,
    /// How long each send takes, and how many were under way at once at most.
    pause: Duration,
    in_flight: Mutex<(usize, usize)>,
}

impl RecordingTransport {
    /// A stub that takes everything and can say what it took.
    pub fn new() -> RecordingTransport {
        RecordingTransport {
            sent: Mutex::new(Vec::new()),
            script: Mutex::new(VecDeque::new()),
            by_id: Mutex::new(BTreeMap::new()),
            knows: true,
            connections: 1,
            pause: Duration::ZERO,
            in_flight: Mutex::new((0, 0)),
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

    /// A stub that takes `connections` messages at once, each send taking
    /// `pause`, so that sends can overlap.
    pub fn parallel(connections: usize, pause: Duration) -> RecordingTransport {
        RecordingTransport {
            connections,
            pause,
            ..RecordingTransport::new()
        }
    }

    /// The send of the message with this Message-ID fails with `error`,
    /// once.
    pub fn fail(&self, message_id: &str, error: SendError) {
        self.by_id
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(message_id.to_string(), error);
    }

    /// The most sends that were under way at the same moment.
    pub fn most_at_once(&self) -> usize {
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner()).1
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

    fn connections(&self) -> usize {
        self.connections
    }

    fn send(&self, message: &BuiltMessage) -> Result<(), SendError> {
        {
            let mut n = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            n.0 += 1;
            n.1 = n.1.max(n.0);
        }
        std::thread::sleep(self.pause);
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner()).0 -= 1;
        let failure = self
            .by_id
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&message.message_id);
        if let Some(e) = failure {
            return Err(e);
        }
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
