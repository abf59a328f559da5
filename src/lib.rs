//! adjutant: a play-by-email turn adjudicator for tabletop wargames, with
//! dice that anyone can re-derive from the published seed hashes.
//!
//! The crate is a library with a thin binary on top. `rules` and `audit` are
//! the pure core (no I/O, no clock, no hash-map order); everything else is the
//! edge around it. See `docs/ARCHITECTURE.md`.
#![forbid(unsafe_code)]

pub mod archive;
pub mod audit;
pub mod beacon;
pub mod campaign;
pub mod canonical;
pub mod chronicle;
pub mod daemon;
pub mod demo;
pub mod engine;
pub mod failpoint;
pub mod geometry;
pub mod inbox;
pub mod ingest;
pub mod ledger;
pub mod lifecycle;
pub mod mail;
pub mod map;
pub mod outbound;
pub mod report;
pub mod resolution;
pub mod rules;
pub mod store;
pub mod templates;
