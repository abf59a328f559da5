//! Campaign files: `campaign.toml` and `scenario.toml` in `campaigns/<id>/`,
//! loaded and checked once into a [`Campaign`], with every problem reported as
//! `file:line:column: message`.

pub mod model;
pub mod passphrase;

pub use model::*;
