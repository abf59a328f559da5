//! drand beacon rounds: public randomness published at fixed times, which
//! adjutant mixes into a turn's seed so that nobody, the game master
//! included, can know a turn's dice before its manifest is out.
//!
//! The parts, one job each:
//! - [`network`]: a chain's public parameters and the chain hash naming them;
//!   [`QUICKNET`], drand's mainnet chain.
//! - [`schedule`]: which round is published when ([`round_at`],
//!   [`first_round_after`], [`round_time`]).
//! - [`verify`](mod@verify): a round's BLS signature checked offline, and its
//!   [`Randomness`].
//! - `wire`: drand's JSON for a chain's info and a round.
//! - [`fetch`](mod@fetch): a round or a chain's info from an HTTP(S) relay,
//!   checked, over the small HTTP client in `http`.
//! - [`test_beacon`] and [`serve`]: a chain of one's own and a loopback relay
//!   serving it, for tests and the offline demo.
//!
//! Everything but `fetch` and `serve` is pure: no clock, no I/O.

mod error;
pub mod fetch;
mod http;
pub mod network;
pub mod schedule;
pub mod serve;
pub mod test_beacon;
mod url;
pub mod verify;
mod wire;

#[cfg(test)]
mod canned;

pub use error::BeaconError;
pub use fetch::{fetch, fetch_info};
pub use network::{KNOWN_NETWORKS, Network, PUBLIC_KEY_LEN, QUICKNET, Scheme, known_name};
pub use schedule::{first_round_after, round_at, round_time};
pub use serve::{Behaviour, TestServer, serve_for_tests};
pub use test_beacon::{TEST_BEACON_ID, TestBeacon};
pub use verify::{DST_G1, Randomness, SIGNATURE_LEN, SignedRound, round_message, verify};
