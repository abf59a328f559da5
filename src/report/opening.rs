//! The opening mail of a campaign, one for each person: what they command
//! (every unit with its id, where it stands and how), the first phase and
//! its deadline, an order template to reply with, and the field as they see
//! it; the GM's names every side's units. With the commitments of the dice.

use serde_json::{Value, json};

use super::{ReportError, unit_line};
use crate::campaign::{Campaign, Person};
use crate::map::{self, MapInput};
use crate::rules::board::Location;
use crate::rules::reading::Reading;
use crate::rules::state::UnitState;
use crate::rules::{PhaseKind, Ruleset};
use crate::store::MailPart;

/// Where a unit stands and which way it faces, in words a player can find
/// on the map: inches across and up a table, or the hex as the map labels it.
pub fn place_words(unit: &UnitState) -> String {
    match unit.location {
        Location::Table { x, y } => format!(
            "at {}, {} inches, facing {} degrees",
            crate::rules::words::inches(x),
            crate::rules::words::inches(y),
            unit.facing % 360
        ),
        Location::Hex { column, row } => {
            format!(
                "in hex {column:02}{row:02}, facing hexside {}",
                unit.facing % 6
            )
        }
    }
}

/// Where a general stands, in the same words as a unit's place.
pub fn location_words(location: &Location) -> String {
    match *location {
        Location::Table { x, y } => format!(
            "at {}, {} inches",
            crate::rules::words::inches(x),
            crate::rules::words::inches(y)
        ),
        Location::Hex { column, row } => format!("in hex {column:02}{row:02}"),
    }
}

/// What one reader of the opening mail is told: the context of
/// `opening.txt`, without the person's own lines (deadline), and the map.
pub struct Opening {
    pub context: Value,
    pub png: Vec<u8>,
    pub file_name: String,
}

/// The opening of `side` (the GM's with `None`), on the state read once for
/// every reader's.
pub fn prepare(
    campaign: &Campaign,
    ruleset: &dyn Ruleset,
    state: &Reading,
    side: Option<&str>,
) -> Result<Opening, ReportError> {
    prepare_at(campaign, ruleset, state, side, "start")
}

/// The field as it stands in `state` for `side`, as the opening tells it:
/// `moment` names it in the map's title and file name (`start`, or the
/// turn of a player's request for the situation).
pub fn prepare_at(
    campaign: &Campaign,
    ruleset: &dyn Ruleset,
    state: &Reading,
    side: Option<&str>,
    moment: &str,
) -> Result<Opening, ReportError> {
    let look = ruleset.look(state);
    let visible = side.map(|s| map::with_generals(state, s, ruleset.visible_to(state, s, &[])));
    let forces: Vec<Value> = state
        .sides
        .iter()
        .filter(|s| side.is_none_or(|own| own == s.as_str()))
        .map(|s| {
            let units: Vec<Value> = state
                .units
                .iter()
                .filter(|u| &u.side == s && u.eliminated.is_none())
                .map(|u| {
                    let mut line = json!(unit_line(u, &look));
                    line["place"] = json!(place_words(u));
                    line
                })
                .collect();
            let generals: Vec<Value> = state
                .generals
                .iter()
                .filter(|g| &g.side == s && g.lost.is_none())
                .map(|g| {
                    json!({
                        "id": g.id,
                        "name": g.name,
                        "attached_to": g.attached_to,
                        "place": location_words(&g.location),
                    })
                })
                .collect();
            json!({
                "id": s,
                "name": campaign.side_name(s),
                "units": units,
                "generals": generals,
            })
        })
        .collect();
    let phase = ruleset.phase_of(state);
    let gives_orders = match (side, phase.kind) {
        (None, _) => false,
        (Some(_), PhaseKind::AllSides) => true,
        (Some(s), PhaseKind::ActiveSide) => s == state.active_side,
    };
    let reader_name = match side {
        Some(s) => campaign.side_name(s),
        None => "the GM".to_string(),
    };
    let svg = map::svg(&MapInput {
        title: &format!(
            "{}: the field at the {moment} ({reader_name})",
            campaign.title
        ),
        ruleset,
        prior: state,
        next: state,
        events: &[],
        visible: visible.as_ref(),
        // The opening tells a side its own forces alone.
        strengths: side.map_or(map::Strengths::Seen, map::Strengths::OfSide),
    });
    let png = map::png(&svg)?;
    Ok(Opening {
        context: json!({
            "reader": { "gm": side.is_none(), "side": side, "name": reader_name },
            "forces": forces,
            "gives_orders": gives_orders,
            "active_side_name": campaign
                .side(&state.active_side)
                .map_or(state.active_side.clone(), |d| d.name.clone()),
            "subject": format!("[{}] orders turn {}", campaign.id, state.turn),
            "template": side.map(|s| ruleset.order_template(state, s)).unwrap_or_default(),
        }),
        png,
        file_name: format!(
            "{}-{}-{}.png",
            campaign.id,
            moment.replace(' ', "-"),
            side.unwrap_or("gm")
        ),
    })
}

/// The map of an opening, attached to its mail.
pub fn map_part(opening: &Opening) -> MailPart {
    MailPart {
        filename: opening.file_name.clone(),
        content_type: "image/png".to_string(),
        content_id: None,
        bytes: opening.png.clone(),
    }
}

/// The side a person plays, if any.
pub fn side_of<'a>(campaign: &'a Campaign, person: &Person) -> Option<&'a str> {
    campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(&person.address))
        .map(|p| p.side.as_str())
}
