//! How a player's words name a unit: by its id, or by a prefix of its name
//! long enough to fit one unit alone, case and spacing aside. Every
//! ruleset's orders look units up this one way; once looked up, a unit is a
//! [`UnitId`], a type of its own, so that code working on checked orders
//! cannot be handed a name that was never looked up.

use std::fmt;

use super::state::{GeneralState, Part, UnitState};

/// A unit or general an order names, once looked up: its id in the state.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId(String);

impl UnitId {
    /// The id of a piece found in the state. Only a lookup makes one (and
    /// a ruleset's own code that takes an id from the state).
    pub fn of(id: &str) -> UnitId {
        UnitId(id.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a reference may be: written by a player, or looked up.
pub trait Named {
    fn as_str(&self) -> &str;
}

impl Named for UnitId {
    fn as_str(&self) -> &str {
        &self.0
    }
}

/// A piece that orders name: a unit or a general.
pub trait Piece {
    fn id(&self) -> &str;
    fn name(&self) -> &str;
}

impl<U: Part> Piece for UnitState<U> {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl Piece for GeneralState {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// Why a reference names no one piece.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("no unit here has the id or a name starting `{0}`")]
    NoneFits(String),
    #[error("`{reference}` fits {} units ({}); give its id", .ids.len(), .ids.join(", "))]
    Ambiguous { reference: String, ids: Vec<String> },
}

/// A text lowered letter by letter, as ids, names and references are
/// compared, without allocating for each piece looked at.
fn lowered(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(char::to_lowercase)
}

/// Finds the piece `reference` names among `pool`: the one whose id it is
/// (any case), else the one piece whose name starts with it (any case).
pub fn find<'a, P: Piece + 'a>(
    pool: impl Iterator<Item = &'a P> + Clone,
    reference: &str,
) -> Result<&'a P, NameError> {
    let wanted: String = lowered(reference).collect();
    if let Some(p) = pool.clone().find(|p| lowered(p.id()).eq(wanted.chars())) {
        return Ok(p);
    }
    let matches: Vec<&P> = pool
        .filter(|p| {
            let mut name = lowered(p.name());
            wanted.chars().all(|c| name.next() == Some(c))
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(NameError::NoneFits(reference.to_string())),
        many => Err(NameError::Ambiguous {
            reference: reference.to_string(),
            ids: many.iter().map(|p| p.id().to_string()).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Location;

    fn general(id: &str, name: &str) -> GeneralState {
        GeneralState {
            id: id.into(),
            name: name.into(),
            side: "a".into(),
            location: Location::Table { x: 0, y: 0 },
            attached_to: None,
            lost: None,
        }
    }

    #[test]
    fn an_id_then_a_name_prefix_that_fits_one_piece() {
        let pool = [
            general("lannes", "Marshal Lannes"),
            general("lasalle", "General Lasalle"),
            general("ma", "Marshal Masséna"),
        ];
        let find = |r: &str| find(pool.iter(), r).map(|g| g.id.clone());
        assert_eq!(find("LANNES"), Ok("lannes".into()));
        assert_eq!(find("general"), Ok("lasalle".into()));
        // An id wins over a name it begins.
        assert_eq!(find("ma"), Ok("ma".into()));
        assert_eq!(
            find("marshal"),
            Err(NameError::Ambiguous {
                reference: "marshal".into(),
                ids: vec!["lannes".into(), "ma".into()]
            })
        );
        assert_eq!(
            find("murat").map_err(|e| e.to_string()),
            Err("no unit here has the id or a name starting `murat`".into())
        );
    }
}
