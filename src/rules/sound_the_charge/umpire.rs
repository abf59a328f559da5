//! Umpire calls for Sound the Charge.

use crate::audit::dice::Dice;
use crate::rules::umpire::{UmpireError, UmpireReport};

pub const HELP: &str = "";

pub fn call(text: &str, _dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    Err(UmpireError::UnknownCall {
        name: text.split_whitespace().next().unwrap_or("").to_string(),
        known: String::new(),
    })
}
