//! Whom a roll concerns, as the dice record it: the units it is for and
//! who besides the GM may be told of it. The rules say it as they roll
//! (`rules::told` decides from it what each side hears); the audit keeps it
//! beside the roll, below the rules that fill it in.

/// Who may be told of an event or a roll besides the GM, who is told
/// everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Told {
    /// Every side that sees every unit it names once the resolution is
    /// over: what happened in sight (a volley, a move, a charge met, a
    /// rout).
    InSight,
    /// The side of the unit it names first alone: what only the acting side
    /// knows (an order's target when nothing came of it, why an order
    /// failed, a standing order, a test its own troops passed unseen).
    ActingSide,
    /// Every side: what the whole field knows (the weather, a turn's end,
    /// the end of the game).
    Everyone,
}

/// Whom one roll concerns (see [`super::dice::Roll::about`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct About {
    /// Every unit and general the roll is for or its purpose names, by id.
    pub ids: Vec<String>,
    pub told: Told,
}

impl About {
    /// A roll for these units, told to whoever sees them all.
    pub fn units(ids: &[&str]) -> About {
        About {
            ids: ids.iter().map(|id| id.to_string()).collect(),
            told: Told::InSight,
        }
    }

    /// A roll only the side of the first unit named learns of.
    pub fn own(ids: &[&str]) -> About {
        About {
            told: Told::ActingSide,
            ..About::units(ids)
        }
    }

    /// A roll the whole field learns of.
    pub fn everyone() -> About {
        About {
            ids: Vec::new(),
            told: Told::Everyone,
        }
    }
}
