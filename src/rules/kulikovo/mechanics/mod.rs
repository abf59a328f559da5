//! The rules' procedures that more than one of checking, the turn, the
//! umpire's calls and the bot carry out: a walk by movement points
//! (`moves`), who may fire at or attack whom (`allowed`), one unit's missile
//! fire (`fire`) and one shock or charge (`combat`). Each is asked the one
//! way, so an order checked and the same order carried out agree.

pub mod allowed;
pub mod combat;
pub mod fire;
pub mod moves;
