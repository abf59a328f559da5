//! The canonical text of an order: lower case, single spaces, fixed word
//! order, canonical words, distances in inches with at most two decimals.
//! Reading the canonical text back gives the same order.

use std::fmt;

use super::parse::{needs_quotes, subject_needs_quotes};
use super::{Approach, Facing, Formation, Named, Place, Side, StcOrder, Step};

/// Hundredths of an inch as inches: `4`, `2.5`, `0.25`.
pub fn inches(hundredths: u32) -> String {
    crate::rules::words::inches(i64::from(hundredths))
}

/// A unit after the verb: bare if it reads back as itself, else quoted.
struct Ref<'a, U>(&'a U);

impl<U: Named> fmt::Display for Ref<'_, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if needs_quotes(self.0.as_str()) {
            write!(f, "\"{}\"", self.0.as_str())
        } else {
            f.write_str(self.0.as_str())
        }
    }
}

fn list<U: Named>(units: &[U]) -> String {
    units
        .iter()
        .map(|u| Ref(u).to_string())
        .collect::<Vec<_>>()
        .join(" and ")
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Facing::Left => "left",
            Facing::Right => "right",
            Facing::About => "about",
        })
    }
}

impl Formation {
    /// The formation a word names, as the state and a scenario write it.
    pub fn from_word(word: &str) -> Option<Formation> {
        use Formation as F;
        [
            F::Line,
            F::Column,
            F::Square,
            F::Skirmish,
            F::LLeft,
            F::LRight,
            F::U,
            F::Masse,
            F::Limbered,
            F::Unlimbered,
        ]
        .into_iter()
        .find(|f| f.word() == word)
    }

    /// The formation's canonical word.
    pub fn word(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Skirmish => "skirmish",
            Formation::LLeft => "l-left",
            Formation::LRight => "l-right",
            Formation::U => "u",
            Formation::Masse => "masse",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Forward { distance } => write!(f, "forward {}", inches(*distance)),
            Step::Backstep { distance } => write!(f, "backstep {}", inches(*distance)),
            Step::Sidestep { side, distance } => {
                write!(f, "sidestep {side} {}", inches(*distance))
            }
            Step::Oblique { side, distance } => write!(f, "oblique {side} {}", inches(*distance)),
            Step::Wheel {
                side,
                degrees,
                backward,
            } => {
                let back = if *backward { "back " } else { "" };
                write!(f, "wheel {back}{side} {degrees}")
            }
        }
    }
}

impl<U: Named> fmt::Display for Place<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Point { x, y } => write!(f, "{},{}", inches(*x), inches(*y)),
            Place::Unit(u) => write!(f, "{}", Ref(u)),
        }
    }
}

impl<U: Named> fmt::Display for StcOrder<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = self.unit().as_str();
        if subject_needs_quotes(unit) {
            write!(f, "\"{unit}\": ")?;
        } else {
            write!(f, "{unit}: ")?;
        }
        match self {
            StcOrder::Hold { .. } => f.write_str("hold"),
            StcOrder::Move {
                road,
                steps,
                through,
                ..
            } => {
                if *road {
                    f.write_str("by road ")?;
                }
                let path: Vec<String> = steps.iter().map(ToString::to_string).collect();
                f.write_str(&path.join(", "))?;
                if !through.is_empty() {
                    write!(f, " through {}", list(through))?;
                }
                Ok(())
            }
            StcOrder::Form {
                formation, facing, ..
            } => {
                match formation {
                    Formation::Limbered => f.write_str("limber")?,
                    Formation::Unlimbered => f.write_str("unlimber")?,
                    other => write!(f, "form {other}")?,
                }
                if let Some(facing) = facing {
                    write!(f, " face {facing}")?;
                }
                Ok(())
            }
            StcOrder::Face { facing, .. } => write!(f, "face {facing}"),
            StcOrder::Manhandle { to, toward, .. } | StcOrder::MoveTo { to, toward, .. } => {
                let verb = if matches!(self, StcOrder::Manhandle { .. }) {
                    "manhandle"
                } else {
                    "move"
                };
                write!(f, "{verb} to {to}")?;
                if let Some(toward) = toward {
                    write!(f, " facing {toward}")?;
                }
                Ok(())
            }
            StcOrder::LeaveGuns { to, .. } => {
                f.write_str("leave guns")?;
                if let Some(to) = to {
                    write!(f, " to {to}")?;
                }
                Ok(())
            }
            StcOrder::ManGuns { .. } => f.write_str("man guns"),
            StcOrder::Charge {
                target,
                approach,
                through,
                ..
            } => {
                write!(f, "charge {}", Ref(target))?;
                match approach {
                    Approach::Straight => {}
                    Approach::Wheel(side) => write!(f, " wheel {side}")?,
                    Approach::Oblique(side) => write!(f, " oblique {side}")?,
                }
                if !through.is_empty() {
                    write!(f, " through {}", list(through))?;
                }
                Ok(())
            }
            StcOrder::Evade { into, .. } => {
                f.write_str("evade")?;
                if let Some(into) = into {
                    write!(f, " into {}", Ref(into))?;
                }
                Ok(())
            }
            StcOrder::Shoot {
                target,
                split,
                through_skirmishers,
                at_regimental_gun,
                ..
            } => {
                write!(f, "shoot {}", Ref(target))?;
                if let Some(split) = split {
                    write!(f, " split {}", Ref(split))?;
                }
                if *through_skirmishers {
                    f.write_str(" through skirmishers")?;
                }
                if *at_regimental_gun {
                    f.write_str(" one die at gun")?;
                }
                Ok(())
            }
            StcOrder::SkirmishersOut { .. } => f.write_str("skirmishers out"),
            StcOrder::SkirmishersIn { .. } => f.write_str("skirmishers in"),
            StcOrder::Screen { screened, .. } => write!(f, "screen {}", list(screened)),
            StcOrder::Attach { to, .. } => write!(f, "attach to {}", Ref(to)),
            StcOrder::Detach { .. } => f.write_str("detach"),
            StcOrder::Reform { .. } => f.write_str("reform"),
            StcOrder::Reinforce { friend, .. } => write!(f, "reinforce {}", Ref(friend)),
            StcOrder::Retreat { distance, .. } => match distance {
                Some(d) => write!(f, "retreat {}", inches(*d)),
                None => f.write_str("retreat"),
            },
            StcOrder::Embark { boat, .. } => write!(f, "embark {}", Ref(boat)),
            StcOrder::Disembark { .. } => f.write_str("disembark"),
        }
    }
}
