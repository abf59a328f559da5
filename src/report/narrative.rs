//! The despatch: the event log told as prose, sector by sector.
//!
//! Events are grouped by where their first unit stood when the action began
//! (the western third of the field, the centre, the eastern third), events
//! with no unit first; an event that names only units the event before it
//! named is a consequence of it (a unit disordered by the fire just told,
//! a retreat after a combat) and is told with it, in its sector, so that a
//! cause and its effect are never told apart. Within a sector they keep the
//! log's order, except that every unit that stood fast is named once, in
//! one sentence, at the sector's end. A move is told from the two states
//! (how far, which way, whether forward); every other class is told by the
//! text the rules wrote for it, so a kind added later reads well without a
//! change here. What a reader is told of each event is decided before
//! (`report::heard`): here it is only put into words.

use serde::Serialize;

use crate::rules::GameState;
use crate::rules::board::{Location, MapSpec};
use crate::rules::look::{EventClass, Look};
use crate::rules::ruleset::Event;
use crate::rules::state::UnitState;
use crate::rules::told::Heard;

use super::heard::Audience;

/// One sector's paragraph.
#[derive(Debug, Clone, Serialize)]
pub struct Sector {
    pub title: String,
    pub sentences: Vec<String>,
    /// The sentences as one paragraph wrapped for a plain-text mail.
    pub text: String,
}

const SECTORS: [&str; 4] = [
    "Across the field",
    "On the western flank",
    "In the centre",
    "On the eastern flank",
];

/// The sector (an index into [`SECTORS`]) of a location on a map.
fn sector_of(map: &MapSpec, location: Location) -> usize {
    let (at, across) = match (map, location) {
        (MapSpec::Table { width, .. }, Location::Table { x, .. }) => (x, *width),
        (MapSpec::Hex { columns, .. }, Location::Hex { column, .. }) => {
            (i64::from(column), i64::from(*columns))
        }
        _ => return 0,
    };
    let third = (at.clamp(0, across.max(1) - 1) * 3 / across.max(1)).clamp(0, 2);
    1 + third as usize
}

/// A length in hundredths of an inch as the players speak of it: whole
/// inches, with a half where there is one.
pub fn inches(length: i64) -> String {
    let halves = (length + 25) / 50;
    let (whole, half) = (halves / 2, halves % 2 == 1);
    match (whole, half) {
        (0, false) => "less than half an inch".to_string(),
        (0, true) => "half an inch".to_string(),
        (1, false) => "1 inch".to_string(),
        (w, false) => format!("{w} inches"),
        (w, true) => format!("{w}-1/2 inches"),
    }
}

/// The compass point of a step `dx` east and `dy` north, by integer
/// comparison with tan 22.5° (about 0.4142).
fn compass(dx: i64, dy: i64) -> &'static str {
    let (ax, ay) = (dx.abs() * 10000, dy.abs() * 10000);
    let steep = ay > dx.abs() * 24142;
    let flat = ax > dy.abs() * 24142;
    match (steep, flat, dx >= 0, dy >= 0) {
        (true, _, _, true) => "north",
        (true, _, _, false) => "south",
        (_, true, true, _) => "east",
        (_, true, false, _) => "west",
        (_, _, true, true) => "north-east",
        (_, _, true, false) => "south-east",
        (_, _, false, true) => "north-west",
        (_, _, false, false) => "south-west",
    }
}

/// "advanced", "fell back" or "moved", from the step and the facing.
fn verb(dx: i64, dy: i64, facing: u32) -> &'static str {
    let rad = f64::from(facing % 360).to_radians();
    let (fx, fy) = (libm::sin(rad), libm::cos(rad));
    let (x, y) = (dx as f64, dy as f64);
    let along = x * fx + y * fy;
    let length = libm::sqrt(x * x + y * y);
    if along >= length * std::f64::consts::FRAC_1_SQRT_2 {
        "advanced"
    } else if along <= -length * std::f64::consts::FRAC_1_SQRT_2 {
        "fell back"
    } else {
        "moved"
    }
}

/// A unit's or a general's name.
fn name(state: &GameState, id: &str) -> String {
    state
        .unit(id)
        .map(|u| u.name.clone())
        .or_else(|| {
            state
                .generals
                .iter()
                .find(|g| g.id == id)
                .map(|g| g.name.clone())
        })
        .unwrap_or_else(|| id.to_string())
}

/// A move told from the two states (and the formation each shows, where
/// the ruleset has formations), or `None` when they do not tell it.
fn told_move(
    before: &UnitState,
    after: &UnitState,
    formations: (Option<&String>, Option<&String>),
) -> Option<String> {
    let name = &after.name;
    let formed = match formations {
        (Some(was), Some(now)) if was != now => format!(", forming {now}"),
        _ => String::new(),
    };
    match (before.location, after.location) {
        (Location::Table { x: x0, y: y0 }, Location::Table { x: x1, y: y1 }) => {
            let (dx, dy) = (x1 - x0, y1 - y0);
            if dx == 0 && dy == 0 {
                if before.facing != after.facing {
                    return Some(format!(
                        "{name} turned to face {}{formed}.",
                        compass_of_facing(after.facing)
                    ));
                }
                return (!formed.is_empty()).then(|| format!("{name} stood its ground{formed}."));
            }
            let length = libm::sqrt((dx * dx + dy * dy) as f64).round() as i64;
            Some(format!(
                "{name} {} {} {}{formed}.",
                verb(dx, dy, before.facing),
                inches(length),
                compass(dx, dy)
            ))
        }
        (Location::Hex { .. }, Location::Hex { column, row }) => Some(format!(
            "{name} moved to hex {}{formed}.",
            crate::geometry::Hex::new(column, row).label()
        )),
        _ => None,
    }
}

fn compass_of_facing(facing: u32) -> &'static str {
    const POINTS: [&str; 8] = [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ];
    POINTS[(((facing % 360) + 22) / 45 % 8) as usize]
}

/// "A", "A and B", "A, B and C".
pub fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The despatch for `reader`, from the states either side of the
/// resolution and how the ruleset shows each, telling each event as much as
/// the reader `heard` of it, each by what its class means, and each side it
/// names as `side_name` gives it.
pub fn despatch(
    (prior, next): (&GameState, &GameState),
    (prior_look, next_look): (&Look, &Look),
    events: &[Event],
    heard: &[(Heard, EventClass)],
    reader: &Audience,
    side_name: &dyn Fn(&str) -> String,
) -> Vec<Sector> {
    let mut sentences: [Vec<String>; 4] = Default::default();
    let mut stood: [Vec<String>; 4] = Default::default();
    let mut previous: Option<(usize, &[String])> = None;
    for (event, (heard, class)) in events.iter().zip(heard) {
        let sector = match previous {
            Some((sector, units))
                if !event.units.is_empty() && event.units.iter().all(|u| units.contains(u)) =>
            {
                sector
            }
            _ => event
                .units
                .first()
                .and_then(|id| prior.unit(id).or_else(|| next.unit(id)))
                .map_or(0, |u| sector_of(&next.map, u.location)),
        };
        previous = Some((sector, &event.units));
        match heard {
            Heard::Told => {}
            Heard::Nothing => continue,
            Heard::OwnInAction => {
                // A unit out of the reader's sight is never named: its own
                // troops in the event hear that much.
                let own: Vec<String> = event
                    .names()
                    .filter(|id| reader.side_of(id).as_deref() == reader.who.side())
                    .map(|id| name(next, id))
                    .collect();
                if !own.is_empty() {
                    sentences[sector].push(format!(
                        "{} {} in action against troops out of sight.",
                        join_names(&own),
                        if own.len() == 1 { "was" } else { "were" }
                    ));
                }
                continue;
            }
        }
        let told = match class {
            EventClass::Hold => {
                for id in &event.units {
                    stood[sector].push(name(next, id));
                }
                continue;
            }
            EventClass::Move => event
                .units
                .first()
                .and_then(|id| Some((id, prior.unit(id)?, next.unit(id)?)))
                .and_then(|(id, b, a)| {
                    let was = prior_look.get(id).and_then(|l| l.formation.as_ref());
                    let now = next_look.get(id).and_then(|l| l.formation.as_ref());
                    told_move(b, a, (was, now))
                }),
            _ => None,
        };
        let sentence = told.unwrap_or_else(|| event.told_with(side_name).trim().to_string());
        if !sentence.is_empty() {
            sentences[sector].push(sentence);
        }
    }
    let mut out = Vec::new();
    for (i, mut list) in sentences.into_iter().enumerate() {
        if !stood[i].is_empty() {
            list.push(format!("{} stood fast.", join_names(&stood[i])));
        }
        if list.is_empty() {
            continue;
        }
        out.push(Sector {
            title: SECTORS[i].to_string(),
            text: crate::templates::wrap(&list.join(" "), 72),
            sentences: list,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_read_as_players_say_them() {
        assert_eq!(inches(400), "4 inches");
        assert_eq!(inches(450), "4-1/2 inches");
        assert_eq!(inches(100), "1 inch");
        assert_eq!(inches(60), "half an inch");
        assert_eq!(inches(10), "less than half an inch");
    }

    #[test]
    fn compass_points() {
        assert_eq!(compass(0, 100), "north");
        assert_eq!(compass(100, 100), "north-east");
        assert_eq!(compass(-100, 0), "west");
        assert_eq!(compass(-100, -300), "south");
        assert_eq!(compass(100, -90), "south-east");
        assert_eq!(verb(0, 100, 0), "advanced");
        assert_eq!(verb(0, 100, 180), "fell back");
        assert_eq!(verb(100, 0, 0), "moved");
    }

    #[test]
    fn names_are_joined_as_in_a_sentence() {
        let n = |v: &[&str]| join_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(n(&["A"]), "A");
        assert_eq!(n(&["A", "B"]), "A and B");
        assert_eq!(n(&["A", "B", "C"]), "A, B and C");
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        assert_eq!(crate::templates::wrap("aaa bbb ccc", 7), "aaa bbb\nccc");
        assert_eq!(crate::templates::wrap("Jäger Jäger", 5), "Jäger\nJäger");
    }
}
