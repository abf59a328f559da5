//! Checks the forces of `scenario.toml`: each unit against the ruleset, its
//! place on the map and its footprint against every other unit's; each
//! general against its side and the unit it is attached to.

use std::ops::Range;

use toml::Spanned;

use super::Problem;
use super::campaign_file::Context;
use super::keys::{self, KeyValue, Table, TableKeys};
use super::raw::{GeneralTable, Place};
use super::scenario_file::hex_in_grid;
use super::source::Source;
use super::values::{self, Ids};
use crate::campaign::model::UnitSetup;
use crate::geometry::Point;
use crate::geometry::{Rect, is_on_table};
use crate::rules::board::{Location, MapSpec};
use crate::rules::setup::{SetupContext, UnitBasics};
use crate::rules::state::GeneralState;

pub(super) struct Forces {
    pub units: Vec<UnitSetup>,
    pub generals: Vec<GeneralState>,
}

/// What a general's check needs of a unit: enough to attach to it, even
/// when the unit has problems of its own.
struct Piece {
    id: String,
    side: Option<String>,
    location: Option<Location>,
}

/// What every check of a piece reads: the file, the map and the campaign.
#[derive(Clone, Copy)]
struct Ground<'a> {
    source: &'a Source,
    /// `None` when the map itself has problems: pieces are then not placed.
    map: Option<&'a MapSpec>,
    context: &'a Context<'a>,
}

/// A unit's footprint with where the unit was given, for the overlap check.
struct Placed {
    id: String,
    rect: Rect,
    line: usize,
    at: Range<usize>,
}

pub(super) fn check(
    source: &Source,
    units: &[Spanned<Table>],
    generals: &[Spanned<GeneralTable>],
    map: Option<&MapSpec>,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) -> Forces {
    let ground = Ground {
        source,
        map,
        context,
    };
    // Units and generals share one namespace: orders name either by id.
    let mut ids = Ids::default();
    let mut placed = Vec::new();
    let mut pieces = Vec::new();
    let units: Vec<UnitSetup> = units
        .iter()
        .filter_map(|u| check_unit(ground, u, &mut ids, &mut placed, &mut pieces, problems))
        .collect();
    check_overlaps(source, &placed, problems);
    let generals = generals
        .iter()
        .map(|g| check_general(ground, g, &mut ids, &pieces, problems))
        .collect();
    Forces { units, generals }
}

/// Checks a piece's side is one of the campaign's.
fn side(
    source: &Source,
    side: &Spanned<String>,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) {
    let sides: Vec<&str> = context.sides.iter().map(|s| s.id.as_str()).collect();
    values::known(source, side, &sides, "side", problems);
}

/// The keys of a unit every ruleset shares; the ruleset reads the others.
const UNIT_KEYS: &[&str] = &[
    "id", "name", "side", "strength", "x", "y", "column", "row", "facing",
];

/// A key every unit must have: its value, or a problem at the unit.
fn required<'a>(
    source: &Source,
    unit: &'a Spanned<Table>,
    key: &str,
    problems: &mut Vec<Problem>,
) -> Option<&'a Spanned<KeyValue>> {
    let value = unit.get_ref().get(key);
    if value.is_none() {
        problems.push(source.at(unit.span(), format!("missing key `{key}`")));
    }
    value
}

/// Reads a value with `read`, or reports why it does not read.
fn read<T>(
    source: &Source,
    value: Option<&Spanned<KeyValue>>,
    read: impl Fn(&Spanned<KeyValue>) -> Result<T, String>,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let value = value?;
    read(value)
        .map_err(|e| problems.push(source.at(value.span(), e)))
        .ok()
}

fn check_unit(
    ground: Ground<'_>,
    unit: &Spanned<Table>,
    ids: &mut Ids,
    placed: &mut Vec<Placed>,
    pieces: &mut Vec<Piece>,
    problems: &mut Vec<Problem>,
) -> Option<UnitSetup> {
    let Ground {
        source,
        map,
        context,
    } = ground;
    let start = problems.len();
    let t = unit.get_ref();
    let id = read(
        source,
        required(source, unit, "id", problems),
        keys::text,
        problems,
    );
    let name = read(
        source,
        required(source, unit, "name", problems),
        keys::text,
        problems,
    );
    let side_id = read(
        source,
        required(source, unit, "side", problems),
        keys::text,
        problems,
    );
    let strength = read(
        source,
        required(source, unit, "strength", problems),
        keys::whole,
        problems,
    );
    let facing = read(
        source,
        required(source, unit, "facing", problems),
        keys::whole,
        problems,
    );
    let (x, y) = (
        read(source, t.get("x"), keys::inches, problems),
        read(source, t.get("y"), keys::inches, problems),
    );
    let (column, row) = (
        read(source, t.get("column"), keys::whole, problems),
        read(source, t.get("row"), keys::whole, problems),
    );
    let at = Place {
        x: x.as_ref(),
        y: y.as_ref(),
        column: column.as_ref(),
        row: row.as_ref(),
    };
    if let Some(id) = &id {
        values::id(source, id, problems);
        ids.claim(source, id, "unit", problems);
    }
    if let Some(name) = &name {
        values::text(source, name, "name", problems);
    }
    if let Some(side_id) = &side_id {
        side(source, side_id, context, problems);
    }
    let strength =
        strength.and_then(|s| values::count(source, &s, "strength", 1, 100_000, problems));
    let most_facing = if matches!(map, Some(MapSpec::Hex { .. })) {
        5
    } else {
        359
    };
    let facing = facing.and_then(|f| values::count(source, &f, "facing", 0, most_facing, problems));
    let location = location(source, at, unit.span(), true, map, problems);
    if let Some(id) = &id {
        pieces.push(Piece {
            id: id.get_ref().clone(),
            side: side_id.as_ref().map(|s| s.get_ref().clone()),
            location,
        });
    }
    let rules = context.rules?;
    let (id, name, side_id) = (id?, name?, side_id?);
    let basics = UnitBasics {
        id: id.get_ref(),
        name: name.get_ref(),
        side: side_id.get_ref(),
        strength: strength.unwrap_or(1),
        location: location.unwrap_or(Location::Table { x: 0, y: 0 }),
        facing: facing.unwrap_or(0),
    };
    let setup_context = SetupContext {
        options: context.options,
        nations: &context.nations,
        map,
        params: context.params,
    };
    let mut keys = TableKeys::new(source, t, unit.span(), rules.id(), problems);
    let part = rules.setup_unit(basics, &mut keys, &setup_context);
    keys.report_unknown(UNIT_KEYS);
    let setup = UnitSetup {
        id: id.get_ref().clone(),
        name: name.get_ref().clone(),
        side: side_id.get_ref().clone(),
        location: location?,
        facing: facing?,
        strength: strength?,
        rules: part?,
    };
    // Only a unit with nothing else wrong is placed: a footprint built on a
    // bad value would only repeat that problem as an overlap.
    if problems.len() == start {
        let line = source.line(id.span().start);
        place(
            source,
            at,
            line,
            &setup,
            map,
            rules.footprint(&setup.initial()),
            placed,
            problems,
        );
    }
    Some(setup)
}

/// Checks a unit lies on the map, and keeps its footprint for the overlap
/// check.
#[allow(clippy::too_many_arguments)]
fn place(
    source: &Source,
    at: Place<'_>,
    line: usize,
    spec: &UnitSetup,
    map: Option<&MapSpec>,
    footprint: Option<Rect>,
    placed: &mut Vec<Placed>,
    problems: &mut Vec<Problem>,
) {
    let (Some(MapSpec::Table { width, depth }), Some(x)) = (map, at.x) else {
        return;
    };
    let Some(rect) = footprint else {
        // A ruleset without footprints: the unit's point must be on the table.
        if let Location::Table { x: px, y: py } = spec.location
            && !is_on_table(Point { x: px, y: py }, *width, *depth)
        {
            problems.push(
                source
                    .at(x.span(), format!("unit `{}` is off the table", spec.id))
                    .with_hint(table_extent(*width, *depth)),
            );
        }
        return;
    };
    if !rect.is_inside_table(*width, *depth) {
        let size = format!(
            "{} by {} inches",
            values::inches(rect.width),
            values::inches(rect.depth)
        );
        problems.push(
            source
                .at(
                    x.span(),
                    format!(
                        "unit `{}` ({size}, facing {}) is off the table",
                        spec.id, spec.facing
                    ),
                )
                .with_hint(format!(
                    "x and y give the unit's front centre and the unit stands behind it; {}",
                    table_extent(*width, *depth)
                )),
        );
        return;
    }
    placed.push(Placed {
        id: spec.id.clone(),
        rect,
        line,
        at: x.span(),
    });
}

/// Where a table's edges are, for the hint of an off-table problem.
fn table_extent(width: i64, depth: i64) -> String {
    format!(
        "the table runs from (0, 0) to ({}, {})",
        values::inches(width),
        values::inches(depth)
    )
}

/// Every pair of units that overlap, reported at the later of the two.
fn check_overlaps(source: &Source, placed: &[Placed], problems: &mut Vec<Problem>) {
    for (i, later) in placed.iter().enumerate() {
        for earlier in &placed[..i] {
            if later.rect.overlaps(&earlier.rect) {
                problems.push(
                    source
                        .at(
                            later.at.clone(),
                            format!(
                                "unit `{}` overlaps unit `{}` (line {})",
                                later.id, earlier.id, earlier.line
                            ),
                        )
                        .with_hint("units may stand in contact but not on each other; x and y give the front centre, and the unit stands behind it"),
                );
            }
        }
    }
}

/// Reads where a piece stands, in the keys the map's kind takes.
pub(super) fn location(
    source: &Source,
    place: Place<'_>,
    owner: Range<usize>,
    required: bool,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Option<Location> {
    let wrong = |key: &str, span: Range<usize>, kind: &str| {
        source.at(span, format!("`{key}` is not a key on a {kind} map"))
    };
    match map? {
        MapSpec::Table { .. } => {
            for (key, span) in [
                ("column", place.column.map(Spanned::span)),
                ("row", place.row.map(Spanned::span)),
            ] {
                if let Some(span) = span {
                    problems.push(
                        wrong(key, span, "table").with_hint("on a table, give x and y in inches"),
                    );
                }
            }
            if place.x.is_none() && place.y.is_none() && !required {
                return None;
            }
            let mut coordinate = |key: &str, value: Option<&Spanned<super::raw::Inches>>| {
                match value {
                    Some(v) => values::hundredths(source, v, problems),
                    None => {
                        problems.push(
                        source
                            .at(owner.clone(), format!("missing key `{key}`"))
                            .with_hint("on a table, x runs east and y north, in inches from the south-west corner"),
                    );
                        None
                    }
                }
            };
            let x = coordinate("x", place.x);
            let y = coordinate("y", place.y);
            Some(Location::Table { x: x?, y: y? })
        }
        MapSpec::Hex { columns, rows } => {
            for (key, span) in [
                ("x", place.x.map(Spanned::span)),
                ("y", place.y.map(Spanned::span)),
            ] {
                if let Some(span) = span {
                    problems.push(
                        wrong(key, span, "hex").with_hint("on a hex map, give column and row"),
                    );
                }
            }
            if place.column.is_none() && place.row.is_none() && !required {
                return None;
            }
            let (Some(column), Some(row)) = (place.column, place.row) else {
                let key = if place.column.is_none() {
                    "column"
                } else {
                    "row"
                };
                problems.push(source.at(owner, format!("missing key `{key}`")));
                return None;
            };
            let (c, r) = hex_in_grid(
                source,
                column.span(),
                *column.get_ref(),
                *row.get_ref(),
                (*columns, *rows),
                problems,
            )?;
            Some(Location::Hex { column: c, row: r })
        }
    }
}

fn check_general(
    ground: Ground<'_>,
    general: &Spanned<GeneralTable>,
    ids: &mut Ids,
    units: &[Piece],
    problems: &mut Vec<Problem>,
) -> GeneralState {
    let Ground {
        source,
        map,
        context,
    } = ground;
    let (g, span) = (general.get_ref(), general.span());
    values::id(source, &g.id, problems);
    ids.claim(source, &g.id, "general", problems);
    values::text(source, &g.name, "name", problems);
    side(source, &g.side, context, problems);
    let attached = g.attached_to.as_ref().and_then(|a| {
        let unit = units.iter().find(|u| &u.id == a.get_ref());
        match unit {
            None => problems.push(source.at(
                a.span(),
                format!("general attached to `{}`, which is not a unit", a.get_ref()),
            )),
            Some(Piece {
                side: Some(side), ..
            }) if side != g.side.get_ref() => problems.push(
                source
                    .at(
                        a.span(),
                        format!(
                            "general of side `{}` attached to unit `{}` of side `{}`",
                            g.side.get_ref(),
                            a.get_ref(),
                            side
                        ),
                    )
                    .with_hint("a general attaches only to a unit of his own side"),
            ),
            Some(_) => {}
        }
        unit
    });
    // An attached general may stand with his unit and need no place of his
    // own; one attached to a unit that is not there has had his problem.
    let required = g.attached_to.is_none();
    let location = location(source, g.place(), span.clone(), required, map, problems);
    if let (Some(Location::Table { x, y }), Some(MapSpec::Table { width, depth })) = (location, map)
        && !is_on_table(Point { x, y }, *width, *depth)
    {
        let at = g.x.as_ref().map_or(span, Spanned::span);
        problems.push(
            source
                .at(at, format!("general `{}` is off the table", g.id.get_ref()))
                .with_hint(table_extent(*width, *depth)),
        );
    }
    GeneralState {
        id: g.id.get_ref().clone(),
        name: g.name.get_ref().clone(),
        side: g.side.get_ref().clone(),
        // An attached general given no place of his own is with his unit.
        location: location
            .or(attached.and_then(|u| u.location))
            .unwrap_or(Location::Table { x: 0, y: 0 }),
        attached_to: g.attached_to.as_ref().map(|a| a.get_ref().clone()),
        lost: None,
    }
}
