//! Campaign files: `campaign.toml` and `scenario.toml` in `campaigns/<id>/`,
//! loaded and checked once into a [`Campaign`], with every problem reported as
//! `file:line:column: message`.

pub mod duration;
pub mod load;
pub mod model;
pub mod passphrase;

pub use load::{Problem, Problems, load, load_texts};
pub use model::*;
