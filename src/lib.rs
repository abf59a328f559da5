//! adjutant: a play-by-email turn adjudicator for tabletop wargames, with
//! dice that anyone can re-derive from the published seed hashes.
//!
//! The crate is a library with a thin binary on top. `rules` and `audit` are
//! the pure core (no I/O, no clock, no hash-map order); everything else is the
//! edge around it. See `docs/ARCHITECTURE.md`.
#![forbid(unsafe_code)]

pub mod audit;
pub mod campaign;
pub mod canonical;
pub mod geometry;
pub mod store;
pub mod resolution;
pub mod lifecycle;
pub mod engine;
pub mod archive;
pub mod demo;
pub mod status;
pub mod templates;
pub mod rules;
