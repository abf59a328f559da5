//! The rules' procedures that more than one of checking, the turn, the
//! umpire's calls and the bot carry out: the charge, one module a step of
//! the chapter (`charge`), the Morale Check of ruling GT-3 (`morale`), and
//! a move outside a charge by ruling GT-6 (`movement`). Each is asked the
//! one way, so an order checked and the same order carried out agree.

pub mod charge;
pub mod morale;
pub mod movement;
