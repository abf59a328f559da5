//! Checks the forces of `scenario.toml`: each unit against the ruleset, its
//! place on the map and its footprint against every other unit's; each
//! general against its side and the unit it is attached to.

use std::ops::Range;

use toml::Spanned;

use super::Problem;
use super::campaign_file::Context;
use super::raw::{GeneralTable, Place, UnitTable};
use super::scenario_file::hex_in_grid;
use super::source::Source;
use super::values::{self, Ids};
use crate::campaign::model::{GeneralSpec, UnitSpec};
use crate::geometry::Point;
use crate::geometry::{Rect, is_on_table};
use crate::rules::board::{Location, MapSpec};
use crate::rules::ruleset::UnitField;

pub(super) struct Forces {
    pub units: Vec<UnitSpec>,
    pub generals: Vec<GeneralSpec>,
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
    units: &[Spanned<UnitTable>],
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
    let units: Vec<UnitSpec> = units
        .iter()
        .map(|u| check_unit(ground, u, &mut ids, &mut placed, problems))
        .collect();
    check_overlaps(source, &placed, problems);
    let generals = generals
        .iter()
        .map(|g| check_general(ground, g, &mut ids, &units, problems))
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

fn check_unit(
    ground: Ground<'_>,
    unit: &Spanned<UnitTable>,
    ids: &mut Ids,
    placed: &mut Vec<Placed>,
    problems: &mut Vec<Problem>,
) -> UnitSpec {
    let Ground {
        source,
        map,
        context,
    } = ground;
    let start = problems.len();
    let u = unit.get_ref();
    values::id(source, &u.id, problems);
    ids.claim(source, &u.id, "unit", problems);
    values::text(source, &u.name, "name", problems);
    side(source, &u.side, context, problems);
    let mut words_known = true;
    if let Some(rules) = context.rules {
        words_known &= values::known(
            source,
            &u.troop_type,
            rules.troop_types(),
            "troop type",
            problems,
        );
        words_known &= values::known(source, &u.grade, rules.grades(), "grade", problems);
        words_known &= values::known(
            source,
            &u.formation,
            rules.formations(),
            "formation",
            problems,
        );
        for (i, mark) in u.marks.iter().enumerate() {
            values::known(source, mark, rules.marks(), "mark", problems);
            if u.marks[..i].iter().any(|m| m.get_ref() == mark.get_ref()) {
                problems.push(source.at(
                    mark.span(),
                    format!("mark `{}` is given twice", mark.get_ref()),
                ));
            }
        }
    }
    let strength = values::count(source, &u.strength, "strength", 1, 100_000, problems);
    let gunners = match &u.gunners {
        Some(g) => values::count(source, g, "gunners", 0, 100_000, problems),
        None => Some(0),
    };
    let ranks = match &u.ranks {
        Some(r) => values::count(source, r, "ranks", 1, 100, problems),
        None => Some(1),
    };
    let most_facing = if matches!(map, Some(MapSpec::Hex { .. })) {
        5
    } else {
        359
    };
    let facing = values::count(source, &u.facing, "facing", 0, most_facing, problems);
    let location = location(source, u.place(), unit.span(), true, map, problems);

    let mut spec = UnitSpec {
        id: u.id.get_ref().clone(),
        name: u.name.get_ref().clone(),
        side: u.side.get_ref().clone(),
        troop_type: u.troop_type.get_ref().clone(),
        grade: u.grade.get_ref().clone(),
        strength: strength.unwrap_or(0),
        gunners: gunners.unwrap_or(0),
        formation: u.formation.get_ref().clone(),
        ranks: ranks.unwrap_or(1),
        figure_frontage: None,
        location: location.unwrap_or(Location::Table { x: 0, y: 0 }),
        facing: facing.unwrap_or(0),
        marks: u.marks.iter().map(|m| m.get_ref().clone()).collect(),
    };
    let Some(rules) = context.rules else {
        return spec;
    };
    rules.apply_options(context.options, &mut spec);
    if words_known && strength.is_some() && gunners.is_some() && ranks.is_some() {
        for p in rules.unit_problems(&spec) {
            let span = match p.field {
                UnitField::TroopType => u.troop_type.span(),
                UnitField::Grade => u.grade.span(),
                UnitField::Strength => u.strength.span(),
                UnitField::Gunners => u.gunners.as_ref().map_or(unit.span(), Spanned::span),
                UnitField::Formation => u.formation.span(),
                UnitField::Ranks => u.ranks.as_ref().map_or(u.formation.span(), Spanned::span),
            };
            let mut problem = source.at(span, p.problem);
            problem.hint = p.clause.map(|c| format!("{}, {c}", rules.id()));
            problems.push(problem);
        }
    }
    // Only a unit with nothing else wrong is placed: a footprint built on a
    // bad value would only repeat that problem as an overlap.
    if problems.len() == start {
        place(
            source,
            u,
            &spec,
            map,
            rules.footprint(&spec),
            placed,
            problems,
        );
    }
    spec
}

/// Checks a unit lies on the map, and keeps its footprint for the overlap
/// check.
fn place(
    source: &Source,
    u: &UnitTable,
    spec: &UnitSpec,
    map: Option<&MapSpec>,
    footprint: Option<Rect>,
    placed: &mut Vec<Placed>,
    problems: &mut Vec<Problem>,
) {
    let (Some(MapSpec::Table { width, depth }), Some(x)) = (map, u.x.as_ref()) else {
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
        line: source.line(u.id.span().start),
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
fn location(
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
    units: &[UnitSpec],
    problems: &mut Vec<Problem>,
) -> GeneralSpec {
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
            Some(u) if u.side != *g.side.get_ref() => problems.push(
                source
                    .at(
                        a.span(),
                        format!(
                            "general of side `{}` attached to unit `{}` of side `{}`",
                            g.side.get_ref(),
                            u.id,
                            u.side
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
    GeneralSpec {
        id: g.id.get_ref().clone(),
        name: g.name.get_ref().clone(),
        side: g.side.get_ref().clone(),
        // An attached general given no place of his own is with his unit.
        location: location
            .or(attached.map(|u| u.location))
            .unwrap_or(Location::Table { x: 0, y: 0 }),
        attached_to: g.attached_to.as_ref().map(|a| a.get_ref().clone()),
    }
}
