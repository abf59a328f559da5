//! Checks `scenario.toml`: the scenario's head, its map and its terrain, then
//! hands the forces to `forces`; and builds the model's [`Scenario`].

use toml::Spanned;

use super::Problem;
use super::campaign_file::Context;
use super::forces;
use super::raw::{Inches, MapTable, ScenarioFile, ScenarioTable, TerrainTable, VictoryTable};
use super::source::Source;
use super::values::{self, Ids};
use crate::campaign::model::Scenario;
use crate::geometry::Point;
use crate::geometry::is_on_table;
use crate::rules::board::{Location, MapSpec, Terrain, TerrainShape};
use crate::rules::victory::{Objective, Victory};

pub(super) fn check(
    source: &Source,
    file: ScenarioFile,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) -> Scenario {
    let head = file.scenario.get_ref();
    let turn_limit = check_head(source, head, context, problems);
    let map = check_map(source, &file.map, context, problems);
    let terrain = file
        .terrain
        .iter()
        .scan(Ids::default(), |ids, t| {
            Some(check_terrain(
                source,
                t,
                ids,
                map.as_ref(),
                context,
                problems,
            ))
        })
        .collect();
    let forces = forces::check(
        source,
        &file.units,
        &file.generals,
        map.as_ref(),
        context,
        problems,
    );
    let victory = file
        .victory
        .as_ref()
        .map(|v| check_victory(source, v, map.as_ref(), problems));
    Scenario {
        title: head.title.get_ref().clone(),
        // A map with problems never reaches a loaded campaign; the
        // placeholder only lets the other checks go on.
        map: map.unwrap_or(MapSpec::Table { width: 0, depth: 0 }),
        terrain,
        units: forces.units,
        generals: forces.generals,
        first_active: head.first_active.get_ref().clone(),
        turn_limit,
        victory,
    }
}

/// The victory conditions: each objective on the map with a name of its
/// own and its points; counts that are whole numbers.
fn check_victory(
    source: &Source,
    table: &Spanned<VictoryTable>,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Victory {
    let v = table.get_ref();
    let count = |value: Option<&Spanned<i64>>, default: u32, problems: &mut Vec<Problem>| -> u32 {
        let Some(value) = value else {
            return default;
        };
        match u32::try_from(*value.get_ref()) {
            Ok(n) if n <= 1000 => n,
            _ => {
                problems.push(source.at(
                    value.span(),
                    format!(
                        "{} is not a number of points from 0 to 1000",
                        value.get_ref()
                    ),
                ));
                default
            }
        }
    };
    let mut names = std::collections::BTreeSet::new();
    let mut objectives = Vec::new();
    for o in &v.objectives {
        let (spec, span) = (o.get_ref(), o.span());
        values::text(source, &spec.name, "name", problems);
        if !names.insert(spec.name.get_ref().to_lowercase()) {
            problems.push(source.at(
                spec.name.span(),
                format!("two objectives are called `{}`", spec.name.get_ref()),
            ));
        }
        let points = count(Some(&spec.points), 0, problems);
        let at = super::forces::location(source, spec.place(), span.clone(), true, map, problems);
        if let (Some(Location::Table { x, y }), Some(MapSpec::Table { width, depth })) = (at, map)
            && !is_on_table(Point { x, y }, *width, *depth)
        {
            problems.push(source.at(
                span.clone(),
                format!("objective `{}` is off the table", spec.name.get_ref()),
            ));
        }
        let radius = match (&spec.radius, map) {
            (Some(r), Some(MapSpec::Hex { .. })) => {
                problems.push(
                    source
                        .at(r.span(), "`radius` is not a key on a hex map")
                        .with_hint("on a hex map a unit holds an objective by standing in its hex"),
                );
                0
            }
            (Some(r), _) => values::hundredths(source, r, problems).unwrap_or(0),
            (None, _) => DEFAULT_OBJECTIVE_RADIUS,
        };
        if let Some(at) = at {
            objectives.push(Objective {
                name: spec.name.get_ref().clone(),
                at,
                radius,
                points,
            });
        }
    }
    Victory {
        objectives,
        points_per_unit: count(v.points_per_unit.as_ref(), 1, problems),
        margin: count(v.margin.as_ref(), 1, problems).max(1),
        broken_army_loses: v.broken_army_loses.unwrap_or(true),
    }
}

/// How near a unit must stand to an objective on a table to hold it, when
/// the scenario does not say: 3 inches.
const DEFAULT_OBJECTIVE_RADIUS: crate::geometry::Hundredths = 300;

fn check_head(
    source: &Source,
    head: &ScenarioTable,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) -> Option<u32> {
    values::text(source, &head.title, "title", problems);
    let sides: Vec<&str> = context.sides.iter().map(|s| s.id.as_str()).collect();
    values::known(source, &head.first_active, &sides, "side", problems);
    let limit = head.turn_limit.as_ref()?;
    let turns = values::count(
        source,
        limit,
        "turn_limit",
        1,
        i64::from(u32::MAX),
        problems,
    )?;
    // Every phase of every turn takes one secret of the dice chain.
    if let Some(rules) = context.rules {
        let needed = u64::from(turns) * rules.phases().len() as u64;
        if needed > u64::from(context.chain_length) {
            problems.push(
                source
                    .at(
                        limit.span(),
                        format!(
                            "{turns} turns need {needed} resolutions, but the dice chain serves {}",
                            context.chain_length
                        ),
                    )
                    .with_hint(format!(
                        "raise [dice] chain_length in campaign.toml to {needed} or more"
                    )),
            );
        }
    }
    Some(turns)
}

fn check_map(
    source: &Source,
    map: &Spanned<MapTable>,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) -> Option<MapSpec> {
    let table = map.get_ref();
    let start = problems.len();
    let mut missing = |key: &str, kind: &str| {
        let keys = if kind == "table" {
            "its width and depth in inches"
        } else {
            "its columns and rows"
        };
        problems.push(
            source
                .at(map.span(), format!("missing key `{key}`"))
                .with_hint(format!("a {kind} map gives {keys}")),
        )
    };
    let spec = match table.kind.get_ref().as_str() {
        "table" => {
            if table.width.is_none() {
                missing("width", "table");
            }
            if table.depth.is_none() {
                missing("depth", "table");
            }
            refuse(
                source,
                "columns",
                table.columns.as_ref().map(Spanned::span),
                "table",
                problems,
            );
            refuse(
                source,
                "rows",
                table.rows.as_ref().map(Spanned::span),
                "table",
                problems,
            );
            let width = size(source, table.width.as_ref(), "width", problems);
            let depth = size(source, table.depth.as_ref(), "depth", problems);
            MapSpec::Table {
                width: width.unwrap_or(0),
                depth: depth.unwrap_or(0),
            }
        }
        "hex" => {
            if table.columns.is_none() {
                missing("columns", "hex");
            }
            if table.rows.is_none() {
                missing("rows", "hex");
            }
            refuse(
                source,
                "width",
                table.width.as_ref().map(Spanned::span),
                "hex",
                problems,
            );
            refuse(
                source,
                "depth",
                table.depth.as_ref().map(Spanned::span),
                "hex",
                problems,
            );
            let grid = |v: Option<&Spanned<i64>>, what, problems: &mut Vec<Problem>| {
                v.and_then(|v| values::count(source, v, what, 1, 10_000, problems))
            };
            MapSpec::Hex {
                columns: grid(table.columns.as_ref(), "columns", problems).unwrap_or(0),
                rows: grid(table.rows.as_ref(), "rows", problems).unwrap_or(0),
            }
        }
        _ => {
            values::known(source, &table.kind, &["table", "hex"], "map kind", problems);
            return None;
        }
    };
    // The pieces on a broken map cannot be placed; say so once, here.
    let readable = problems.len() == start;
    // A ruleset plays on the kind of map its rules are written for: an
    // inch measured on hexes, or a hexside on a table, means nothing.
    if let Some(rules) = context.rules {
        let plays = rules.vocabulary();
        let kind = table.kind.get_ref().as_str();
        let (allowed, other) = match kind {
            "table" => (plays.tables, "a hex map"),
            "hex" => (plays.hexes, "a table"),
            _ => (true, ""),
        };
        if !allowed {
            problems.push(
                source
                    .at(
                        table.kind.span(),
                        format!("{} is not played on a {kind} map", rules.id()),
                    )
                    .with_hint(format!("{} is played on {other}", rules.id())),
            );
        }
    }
    readable.then_some(spec)
}

/// A key that belongs to the other kind of map.
fn refuse(
    source: &Source,
    key: &str,
    span: Option<std::ops::Range<usize>>,
    kind: &str,
    problems: &mut Vec<Problem>,
) {
    if let Some(span) = span {
        problems.push(source.at(span, format!("`{key}` is not a key of a {kind} map")));
    }
}

/// A table's width or depth: more than nothing.
fn size(
    source: &Source,
    value: Option<&Spanned<Inches>>,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<i64> {
    let value = value?;
    let h = values::hundredths(source, value, problems)?;
    if h <= 0 {
        problems.push(source.at(
            value.span(),
            format!("the table's {what} must be more than 0"),
        ));
        return None;
    }
    Some(h)
}

fn check_terrain(
    source: &Source,
    feature: &Spanned<TerrainTable>,
    ids: &mut Ids,
    map: Option<&MapSpec>,
    context: &Context<'_>,
    problems: &mut Vec<Problem>,
) -> Terrain {
    let t = feature.get_ref();
    values::id(source, &t.id, problems);
    ids.claim(source, &t.id, "terrain feature", problems);
    if let Some(rules) = context.rules {
        values::known(
            source,
            &t.kind,
            rules.vocabulary().terrain_kinds,
            "terrain kind",
            problems,
        );
    }
    let given: Vec<(&str, std::ops::Range<usize>)> = [
        ("area", t.area.as_ref().map(Spanned::span)),
        ("line", t.line.as_ref().map(Spanned::span)),
        ("hexes", t.hexes.as_ref().map(Spanned::span)),
        ("hexsides", t.hexsides.as_ref().map(Spanned::span)),
    ]
    .into_iter()
    .filter_map(|(key, span)| span.map(|s| (key, s)))
    .collect();
    match given.as_slice() {
        [] => problems.push(
            source
                .at(
                    feature.span(),
                    format!("terrain `{}` has no shape", t.id.get_ref()),
                )
                .with_hint("give one of area, line (table maps), hexes or hexsides (hex maps)"),
        ),
        [_] => {}
        [(first, _), (second, span), ..] => problems.push(source.at(
            span.clone(),
            format!(
                "terrain `{}` has both {first} and {second}: give one shape",
                t.id.get_ref()
            ),
        )),
    }
    let shape = if let Some(area) = &t.area {
        TerrainShape::Area {
            points: points(source, area, 3, "an area", map, problems),
        }
    } else if let Some(line) = &t.line {
        TerrainShape::Line {
            points: points(source, line, 2, "a line", map, problems),
        }
    } else if let Some(hexes) = &t.hexes {
        TerrainShape::Hexes {
            hexes: hex_list(source, hexes, map, problems),
        }
    } else if let Some(sides) = &t.hexsides {
        TerrainShape::Hexsides {
            sides: hexside_list(source, sides, map, problems),
        }
    } else {
        TerrainShape::Area { points: Vec::new() }
    };
    Terrain {
        id: t.id.get_ref().clone(),
        kind: t.kind.get_ref().clone(),
        shape,
    }
}

/// The points of an area or a line on a table, each on the table.
fn points(
    source: &Source,
    list: &Spanned<Vec<Spanned<Vec<Inches>>>>,
    fewest: usize,
    what: &str,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Vec<Point> {
    let (width, depth) = match map {
        Some(MapSpec::Table { width, depth }) => (*width, *depth),
        Some(MapSpec::Hex { .. }) => {
            problems.push(
                source
                    .at(
                        list.span(),
                        format!("{what} is a shape for a table; this map is hexes"),
                    )
                    .with_hint("on a hex map give hexes = [[column, row], ...] or hexsides"),
            );
            return Vec::new();
        }
        None => (i64::MAX, i64::MAX),
    };
    if list.get_ref().len() < fewest {
        problems.push(source.at(
            list.span(),
            format!(
                "{what} needs at least {fewest} points, not {}",
                list.get_ref().len()
            ),
        ));
    }
    let mut points = Vec::new();
    for p in list.get_ref() {
        let Some([x, y]) = items(source, p, "a point", "[x, y]", problems) else {
            continue;
        };
        let xy = (
            values::hundredths(source, &Spanned::new(p.span(), x), problems),
            values::hundredths(source, &Spanned::new(p.span(), y), problems),
        );
        let (Some(x), Some(y)) = xy else { continue };
        let point = Point { x, y };
        if !is_on_table(point, width, depth) {
            problems.push(
                source
                    .at(
                        p.span(),
                        format!(
                            "point ({}, {}) is off the table",
                            values::inches(x),
                            values::inches(y)
                        ),
                    )
                    .with_hint(format!(
                        "the table runs from (0, 0) to ({}, {}); a feature that leaves it ends on the edge",
                        values::inches(width),
                        values::inches(depth)
                    )),
            );
        }
        points.push(point);
    }
    points
}

/// The hex grid of the map, or a problem for a hex shape on a table.
fn grid(
    source: &Source,
    span: std::ops::Range<usize>,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Option<(u32, u32)> {
    match map {
        Some(MapSpec::Hex { columns, rows }) => Some((*columns, *rows)),
        Some(MapSpec::Table { .. }) => {
            problems.push(
                source
                    .at(span, "hexes are a shape for a hex map; this map is a table")
                    .with_hint(
                        "on a table give area = [[x, y], ...] or line = [[x, y], ...] in inches",
                    ),
            );
            None
        }
        None => Some((u32::MAX, u32::MAX)),
    }
}

/// A hex `(column, row)` of the grid, or a problem at `span`.
pub(super) fn hex_in_grid(
    source: &Source,
    span: std::ops::Range<usize>,
    column: i64,
    row: i64,
    (columns, rows): (u32, u32),
    problems: &mut Vec<Problem>,
) -> Option<(u32, u32)> {
    let inside = (0..i64::from(columns)).contains(&column) && (0..i64::from(rows)).contains(&row);
    if !inside {
        problems.push(
            source
                .at(span, format!("hex ({column}, {row}) is outside the grid"))
                .with_hint(format!(
                    "columns run from 0 to {}, rows from 0 to {}",
                    i64::from(columns) - 1,
                    i64::from(rows) - 1
                )),
        );
        return None;
    }
    Some((u32::try_from(column).ok()?, u32::try_from(row).ok()?))
}

fn hex_list(
    source: &Source,
    list: &Spanned<Vec<Spanned<Vec<i64>>>>,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Vec<(u32, u32)> {
    let Some(grid) = grid(source, list.span(), map, problems) else {
        return Vec::new();
    };
    if list.get_ref().is_empty() {
        problems.push(source.at(list.span(), "hexes needs at least 1 hex"));
    }
    list.get_ref()
        .iter()
        .filter_map(|h| {
            let [column, row] = items(source, h, "a hex", "[column, row]", problems)?;
            hex_in_grid(source, h.span(), column, row, grid, problems)
        })
        .collect()
}

fn hexside_list(
    source: &Source,
    list: &Spanned<Vec<Spanned<Vec<i64>>>>,
    map: Option<&MapSpec>,
    problems: &mut Vec<Problem>,
) -> Vec<(u32, u32, u8)> {
    let Some(grid) = grid(source, list.span(), map, problems) else {
        return Vec::new();
    };
    if list.get_ref().is_empty() {
        problems.push(source.at(list.span(), "hexsides needs at least 1 hexside"));
    }
    let mut sides = Vec::new();
    for h in list.get_ref() {
        let Some([column, row, side]) =
            items(source, h, "a hexside", "[column, row, side]", problems)
        else {
            continue;
        };
        let hex = hex_in_grid(source, h.span(), column, row, grid, problems);
        let side = u8::try_from(side).ok().filter(|s| *s < 6);
        if side.is_none() {
            problems.push(
                source
                    .at(h.span(), "a hexside is 0 to 5")
                    .with_hint("0 is the north side, counting clockwise"),
            );
        }
        if let (Some((c, r)), Some(s)) = (hex, side) {
            sides.push((c, r, s));
        }
    }
    sides
}

/// The numbers of a point, hex or hexside, if there are as many as its form
/// takes.
fn items<T: Copy, const N: usize>(
    source: &Source,
    list: &Spanned<Vec<T>>,
    what: &str,
    form: &str,
    problems: &mut Vec<Problem>,
) -> Option<[T; N]> {
    let items = <[T; N]>::try_from(list.get_ref().as_slice()).ok();
    if items.is_none() {
        problems.push(source.at(
            list.span(),
            format!(
                "{what} is {form}: {N} numbers, not {}",
                list.get_ref().len()
            ),
        ));
    }
    items
}
