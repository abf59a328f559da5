//! Each unit's track across the turns: where it stood at the start and
//! after each turn, its strength, whether it was still in play, and the
//! line it drew on the field. A side's chronicle gives a point only where
//! that side saw the unit, and names no unit it never saw.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::audit::Kind;
use crate::report::{self, Audience};
use crate::rules::GameState;
use crate::rules::board::{Location, MapSpec};

use super::record::Record;
use super::view::Shown;
use super::{ChronicleError, Sight, Site};

/// A location as the pages write it: inches on a table, column and row on
/// a hex map.
pub fn place(at: Location) -> String {
    match at {
        Location::Table { x, y } => format!("({}, {})", inches(x), inches(y)),
        Location::Hex { column, row } => format!("hex {column}.{row}"),
    }
}

fn inches(hundredths: i64) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let (whole, part) = (hundredths.abs() / 100, hundredths.abs() % 100);
    match part {
        0 => format!("{sign}{whole}"),
        p if p % 10 == 0 => format!("{sign}{whole}.{}", p / 10),
        p => format!("{sign}{whole}.{p:02}"),
    }
}

/// A point of a location in the track's drawing: hundredths of an inch
/// with north up, or a hundred to a hex.
fn point(map: &MapSpec, at: Location) -> Option<(i64, i64)> {
    match (map, at) {
        (MapSpec::Table { depth, .. }, Location::Table { x, y }) => Some((x, depth - y)),
        (MapSpec::Hex { .. }, Location::Hex { column, row }) => {
            Some((i64::from(column) * 100 + 50, i64::from(row) * 100 + 50))
        }
        _ => None,
    }
}

/// A unit's track drawn over the outline of the field, in integers.
fn track_svg(map: &MapSpec, points: &[(i64, i64)]) -> String {
    let (w, h) = match map {
        MapSpec::Table { width, depth } => (*width, *depth),
        MapSpec::Hex { columns, rows } => (i64::from(*columns) * 100, i64::from(*rows) * 100),
    };
    let pen = (w.max(h) / 150).max(1);
    let line: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"track\"><rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"#b9a878\" stroke-width=\"{pen}\"/>"
    );
    if points.len() > 1 {
        svg.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#2a4f8a\" stroke-width=\"{}\"/>",
            line.join(" "),
            pen * 2
        ));
    }
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        svg.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\" stroke=\"#2a4f8a\" stroke-width=\"{pen}\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#2a4f8a\"/>",
            first.0,
            first.1,
            pen * 4,
            last.0,
            last.1,
            pen * 4
        ));
    }
    svg.push_str("</svg>");
    svg
}

pub(crate) fn write(
    site: &Site,
    record: &Record,
    shown: &[Shown],
    sight: &Sight,
) -> Result<(), ChronicleError> {
    // The field at the start, then after each turn, with what the reader saw.
    let start = report::visibility(record.ruleset, &record.initial, &sight.audience, &[]);
    let mut moments: Vec<(String, &GameState, Option<&BTreeSet<String>>)> =
        vec![("start".to_string(), record.initial.raw(), start.as_ref())];
    for s in shown.iter().filter(|s| s.r.kind == Kind::Turn) {
        moments.push((format!("r{}", s.r.k), s.r.next.raw(), s.visible.as_ref()));
    }
    // By unit: its points as the page lists them, and as the track draws them.
    type Track = (Vec<Value>, Vec<(i64, i64)>);
    let mut tracks: BTreeMap<String, Track> = BTreeMap::new();
    for (when, state, visible) in &moments {
        for u in &state.units {
            if visible.is_some_and(|v| !v.contains(&u.id)) {
                continue;
            }
            let entry = tracks.entry(u.id.clone()).or_default();
            entry.0.push(json!({
                "when": when,
                "at": place(u.location),
                "strength": format!("{}/{}", u.strength, u.original_strength),
                "out": u.eliminated,
            }));
            if let Some(p) = point(&state.map, u.location)
                && entry.1.last() != Some(&p)
            {
                entry.1.push(p);
            }
        }
    }
    let campaign = &record.campaign.campaign;
    let mut sides: Vec<&String> = record.initial.sides.iter().collect();
    if let Audience::Side(own) = &sight.audience {
        sides.sort_by_key(|s| *s != own);
    }
    let sides: Vec<Value> = sides
        .iter()
        .map(|side| {
            let units: Vec<Value> = record
                .initial
                .units
                .iter()
                .filter(|u| &&u.side == side)
                .filter_map(|u| {
                    let (points, line) = tracks.get(&u.id)?;
                    Some(json!({
                        "id": u.id,
                        "name": u.name,
                        "points": points,
                        "track": track_svg(&record.initial.map, line),
                    }))
                })
                .collect();
            json!({
                "name": campaign.side_name(side),
                "units": units,
            })
        })
        .collect();
    site.page(
        "units.html",
        "units.html",
        ("", "units"),
        json!({ "sides": sides }),
        &[],
    )
}
