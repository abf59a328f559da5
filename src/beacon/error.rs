//! What can go wrong when a beacon round is fetched, parsed or checked.

use thiserror::Error;

/// Every failure of the beacon module. The variants say what the caller can
/// do about it: wait ([`BeaconError::NotYetPublished`]), try again or try
/// another relay (`Unreachable`, `HttpStatus`), or stop trusting the answer
/// (`BadAnswer`, `BadSignature`, `BadNetwork`).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BeaconError {
    /// The relay has no such round yet (drand answers 425 Too Early, some
    /// relays 404). A 404 also comes back for a chain the relay does not
    /// serve: [`crate::beacon::fetch_info`] tells the two apart.
    #[error("round {round} is not published yet (HTTP {status})")]
    NotYetPublished { round: u64, status: u16 },

    /// No answer: the name did not resolve, the connection or the TLS
    /// handshake failed, or the time ran out.
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },

    /// The relay answered with an HTTP status other than success, 404 or 425.
    #[error("{url} answered HTTP {status}")]
    HttpStatus { url: String, status: u16 },

    /// The relay answered, but not with a well-formed round or chain info:
    /// broken HTTP, a body over the size limit, JSON that does not parse, a
    /// round other than the one asked for, or a randomness field that is not
    /// the hash of the signature.
    #[error("bad answer from {url}: {reason}")]
    BadAnswer { url: String, reason: String },

    /// The round's signature does not verify against the network's public key.
    #[error("round {round} has a bad signature: {reason}")]
    BadSignature { round: u64, reason: String },

    /// A network's parameters are unusable: an unknown scheme, a public key
    /// that is not a valid point, a zero period, or a chain hash that does not
    /// match the parameters it stands for.
    #[error("bad beacon network: {reason}")]
    BadNetwork { reason: String },

    /// The relay's base URL is not one this client can use.
    #[error("bad beacon URL {url:?}: {reason}")]
    BadUrl { url: String, reason: String },
}

impl BeaconError {
    /// True when asking again later, or another relay, may succeed; false
    /// when the answer itself (or the configuration) is wrong.
    pub fn is_transient(&self) -> bool {
        match self {
            BeaconError::NotYetPublished { .. } | BeaconError::Unreachable { .. } => true,
            // 429 Too Many Requests and server-side failures pass; a 4xx
            // says the request itself is wrong.
            BeaconError::HttpStatus { status, .. } => *status == 429 || *status >= 500,
            BeaconError::BadAnswer { .. }
            | BeaconError::BadSignature { .. }
            | BeaconError::BadNetwork { .. }
            | BeaconError::BadUrl { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_and_outages_are_transient_forgeries_are_not() {
        let url = || "http://127.0.0.1:1".to_string();
        assert!(
            BeaconError::NotYetPublished {
                round: 9,
                status: 425
            }
            .is_transient()
        );
        assert!(
            BeaconError::Unreachable {
                url: url(),
                reason: "refused".into()
            }
            .is_transient()
        );
        assert!(
            BeaconError::HttpStatus {
                url: url(),
                status: 503
            }
            .is_transient()
        );
        assert!(
            BeaconError::HttpStatus {
                url: url(),
                status: 429
            }
            .is_transient()
        );
        assert!(
            !BeaconError::HttpStatus {
                url: url(),
                status: 400
            }
            .is_transient()
        );
        assert!(
            !BeaconError::BadAnswer {
                url: url(),
                reason: "x".into()
            }
            .is_transient()
        );
        assert!(
            !BeaconError::BadSignature {
                round: 1,
                reason: "x".into()
            }
            .is_transient()
        );
        assert!(!BeaconError::BadNetwork { reason: "x".into() }.is_transient());
        assert!(
            !BeaconError::BadUrl {
                url: url(),
                reason: "x".into()
            }
            .is_transient()
        );
    }

    #[test]
    fn messages_name_the_round_and_the_status() {
        let e = BeaconError::NotYetPublished {
            round: 42,
            status: 425,
        };
        assert_eq!(e.to_string(), "round 42 is not published yet (HTTP 425)");
    }
}
