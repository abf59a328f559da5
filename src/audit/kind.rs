//! The two kinds of resolution. Each has its own hash chain and its own
//! numbering: turns follow the game, umpire calls follow the GM's asking, and
//! neither can move the other onto a different secret.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A phase of the game, resolved from every side's orders.
    Turn,
    /// One umpire call asked by the GM.
    Umpire,
}

impl Kind {
    /// The word used in the store, the archive and `resolution.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Turn => "turn",
            Kind::Umpire => "umpire",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "turn" => Some(Kind::Turn),
            "umpire" => Some(Kind::Umpire),
            _ => None,
        }
    }

    /// The archive folder of this kind's resolutions.
    pub fn folder(self) -> &'static str {
        match self {
            Kind::Turn => "turns",
            Kind::Umpire => "calls",
        }
    }

    /// The word that numbers it in a manifest: `resolution 3`, `call 2`.
    pub fn manifest_word(self) -> &'static str {
        match self {
            Kind::Turn => "resolution",
            Kind::Umpire => "call",
        }
    }

    /// The 16-byte domain tag that starts its seed's preimage.
    pub fn seed_tag(self) -> &'static [u8; 16] {
        match self {
            Kind::Turn => b"adjutant-seed-v1",
            Kind::Umpire => b"adjutant-call-v1",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
