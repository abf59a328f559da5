//! The rules' procedures that more than one of checking, the turn, the
//! umpire's calls and the bot carry out: one fire attack, from its zone to
//! the chart (`fire`), and a move by ruling PF-3 (`moves`). Each is asked
//! the one way, so an order checked and the same order carried out agree.

pub mod fire;
pub mod moves;
