//! The rules' procedures that the turn and the umpire's calls both carry
//! out, each as a call with its result: a shooting attack (`shooting`), a
//! round of close combat (`combat`), the Morale Test if Hit by Shooting
//! (`morale`), the Rally from Shaken Status Test (`rally`) and the dice of
//! Generals (`general`). The turn builds the call from the table; the
//! umpire reads it from the call's words; both resolve it here.

pub mod combat;
pub mod general;
pub mod morale;
pub mod rally;
pub mod shooting;
