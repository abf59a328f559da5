//! The audited-dice scheme of `docs/AUDIT.md`: the hash chain that commits the
//! campaign's secrets, the manifest of every side's orders, the seed of each
//! resolution and the stream of dice drawn from it.
//!
//! Everything here is pure: bytes in, bytes out. The one place that draws a
//! fresh secret from the operating system is [`chain::HashChain::generate`],
//! and it is called only by the store when a campaign is registered.

pub mod about;
pub mod chain;
pub mod dice;
pub mod digest;
pub mod kind;
pub mod manifest;
pub mod seed;

pub use chain::{ChainError, Commitment, HashChain, Secret};
pub use dice::{DiceStream, Die, Roll};
pub use digest::Digest32;
pub use kind::Kind;
pub use manifest::{Manifest, SideOrders};
pub use seed::SeedInputs;
