//! The map of a resolution, as SVG and as PNG.
//!
//! The SVG is written here by hand, in integers only: coordinates are the
//! table's own hundredths of an inch (y turned to run down the page), so the
//! same state gives the same bytes on every machine and a golden file can pin
//! them. The PNG is rendered from that SVG by resvg, with a font compiled into
//! the program, never the machine's, so it too looks the same everywhere.
//!
//! What is drawn: the table (or hex grid) with an inch grid and a scale bar,
//! terrain by kind, every unit the reader may see to scale from its
//! footprint (formation, facing, side colour, id), markers for shaken,
//! disordered and blown units, arrows for this turn's moves, charges and
//! retreats (where each unit stood before and stands now), lines for fire
//! (events that name a firer and its targets), attacks declared and not yet
//! carried out (a triangle pointing at the target), generals, and a legend. A
//! table too large for a picture of a million pixels at 15 pixels to the
//! inch is drawn smaller, and then without the units' ids once they would
//! be under 6 pixels high.
//!
//! A unit's label gives its id and, where the reader is told it
//! ([`Strengths`]), its strength of its original strength. The labels are
//! written last, over everything but the legend, each where it overlaps no
//! other if one of its places allows ([`labels`]); text is measured in the
//! face the PNG is drawn in ([`measure`]), so that a title too long for the
//! picture is fitted to it.

mod labels;
mod measure;
mod png;
pub mod style;
mod svg;

pub use png::{MapError, png, png_at_most};

use std::collections::{BTreeMap, BTreeSet};

use crate::geometry::{Hex, HexGrid, HexLayout, Rect};
use crate::rules::board::{Location, MapSpec, TerrainShape};
use crate::rules::look::{Aim, EventClass, Look, Marker, Outline, Shape, TerrainStyle};
use crate::rules::reading::Reading;
use crate::rules::ruleset::Event;
use crate::rules::state::{GeneralState, UnitState};
use crate::rules::{GameState, Ruleset};
use labels::{Boxed, Layout, Wanted};
use svg::Svg;

/// Pixels per inch of table in the PNG (the SVG's width and height).
pub const PX_PER_INCH: i64 = 15;
/// The widest picture drawn, in pixels; a larger table is drawn smaller.
const MAX_PX_WIDTH: i64 = 1800;
/// The most pixels a map picture has; a larger one is drawn smaller.
const MAX_PIXELS: i64 = 1_000_000;
/// Pixels per hex across, on a hex map.
const PX_PER_HEX: i64 = 40;

/// Margins around the table, in hundredths of an inch: room for the title
/// above, the grid's figures at the side, the scale bar and legend below.
const LEFT: i64 = 200;
const RIGHT: i64 = 150;
const TOP: i64 = 300;
const BOTTOM: i64 = 550;
/// The width of one entry of the legend.
const LEGEND_STEP: i64 = 520;

/// Hex size on a hex map, in the SVG's units: 100 from centre to corner,
/// 174 flat side to flat side (100 * sqrt 3, rounded to an even number so
/// that half of it is whole).
const HEXES: HexLayout = HexLayout {
    radius: 100,
    height: 174,
};

/// What one map shows.
pub struct MapInput<'a> {
    pub title: &'a str,
    pub ruleset: &'a dyn Ruleset,
    /// The state before the resolution, for where units stood.
    pub prior: &'a Reading<'a>,
    /// The state after it: the map shows this.
    pub next: &'a Reading<'a>,
    pub events: &'a [Event],
    /// The units the reader may see, by id; `None` shows every unit (the GM's
    /// map).
    pub visible: Option<&'a BTreeSet<String>>,
    /// Whose strengths the labels give.
    pub strengths: Strengths<'a>,
}

/// Whose strengths a map writes beside their units: never more than the
/// text it goes with tells its reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strengths<'a> {
    /// Every unit drawn: a report's order of battle gives the strength of
    /// every unit its reader sees, and the GM sees them all.
    Seen,
    /// This side's units alone: the opening mail and the acknowledgement
    /// tell a side its own forces, not the enemy's.
    OfSide(&'a str),
}

impl MapInput<'_> {
    /// The declarations the map shows: both ends in sight.
    fn aims(&self) -> Vec<Aim> {
        self.ruleset
            .aims(self.next)
            .into_iter()
            .filter(|a| self.sees(&a.from) && self.sees(&a.at))
            .collect()
    }

    fn sees(&self, id: &str) -> bool {
        self.visible.is_none_or(|v| v.contains(id))
    }

    /// A unit's label: its id, and its strength of its original strength
    /// where the reader is told it.
    fn label(&self, unit: &UnitState) -> String {
        let told = match self.strengths {
            Strengths::Seen => true,
            Strengths::OfSide(side) => unit.side == side,
        };
        if told {
            format!("{} {}/{}", unit.id, unit.strength, unit.original_strength)
        } else {
            unit.id.clone()
        }
    }

    fn terrain_style(&self, kind: &str) -> TerrainStyle {
        self.ruleset
            .terrain_style(kind)
            .unwrap_or(style::UNKNOWN_TERRAIN)
    }

    fn class(&self, event: &Event) -> EventClass {
        event.class(|k| self.ruleset.event_class(k))
    }
}

/// Where the map's pieces go: table coordinates to SVG coordinates.
struct Frame {
    /// The map's own width and height in SVG units.
    width: i64,
    height: i64,
    hex: bool,
    /// The margin under the map, tall enough for the legend.
    bottom: i64,
}

impl Frame {
    fn of(map: &MapSpec, legend_items: i64) -> Frame {
        let mut frame = match *map {
            MapSpec::Table { width, depth } => Frame {
                width,
                height: depth,
                hex: false,
                bottom: BOTTOM,
            },
            MapSpec::Hex { columns, rows } => {
                let (width, height) = HEXES.extent(HexGrid { columns, rows });
                Frame {
                    width,
                    height,
                    hex: true,
                    bottom: BOTTOM,
                }
            }
        };
        let (_, last_y) = frame.legend_slot(legend_items.max(1) - 1);
        frame.bottom = frame.bottom.max(last_y - TOP - frame.height + 80);
        frame
    }

    /// Where the legend's entry `i` goes: rows of entries under the map,
    /// beside the scale bar on a table.
    fn legend_slot(&self, i: i64) -> (i64, i64) {
        let start = if self.hex { LEFT } else { LEFT + 1600 };
        let room = LEFT + self.width + RIGHT - start;
        let per_row = (room / LEGEND_STEP).max(1);
        (
            start + (i % per_row) * LEGEND_STEP,
            TOP + self.height + 130 + (i / per_row) * 90,
        )
    }

    /// A table point (y north) as an SVG point (y down), inside the margins.
    fn table(&self, x: i64, y: i64) -> (i64, i64) {
        (LEFT + x, TOP + self.height - y)
    }

    /// The centre of a hex, inside the margins.
    fn hex_centre(&self, column: u32, row: u32) -> (i64, i64) {
        let (x, y) = HEXES.centre(Hex::new(column, row));
        (LEFT + x, TOP + y)
    }

    /// The six corners of a hex, inside the margins: hexside `s` (0 north,
    /// clockwise) runs from corner `s` to `s + 1`.
    fn hex_corners(&self, column: u32, row: u32) -> [(i64, i64); 6] {
        HEXES
            .corners(Hex::new(column, row))
            .map(|(x, y)| (LEFT + x, TOP + y))
    }

    fn location(&self, location: Location) -> (i64, i64) {
        match location {
            Location::Table { x, y } => self.table(x, y),
            Location::Hex { column, row } => self.hex_centre(column, row),
        }
    }

    fn total(&self) -> (i64, i64) {
        (LEFT + self.width + RIGHT, TOP + self.height + self.bottom)
    }

    /// Whether a unit's id (55 units high) comes out at least 6 pixels
    /// high. A table so large that the picture is drawn smaller than that
    /// leaves the ids out: they could not be read, and a thousand of them
    /// would only blot the field.
    fn labels_readable(&self) -> bool {
        let (w, _) = self.total();
        let (pw, _) = self.pixels();
        55 * pw >= 6 * w
    }

    /// The picture's size in pixels.
    fn pixels(&self) -> (i64, i64) {
        let (w, h) = self.total();
        let (pw, ph) = if self.hex {
            // One hex across is 150 units of width between centres; keep
            // the same scale for the whole picture.
            (w * PX_PER_HEX / 150, h * PX_PER_HEX / 150)
        } else {
            (w * PX_PER_INCH / 100, h * PX_PER_INCH / 100)
        };
        // A large table is drawn smaller rather than wider than a screen
        // or bigger than a mail should carry.
        let (pw, ph) = if pw > MAX_PX_WIDTH {
            (MAX_PX_WIDTH, ph * MAX_PX_WIDTH / pw)
        } else {
            (pw, ph)
        };
        if pw * ph > MAX_PIXELS {
            // Scale both sides by the largest k/1000 that brings the area
            // under the bound, in integers.
            let mut k = 1000;
            while k > 1 && pw * ph * k * k > MAX_PIXELS * 1_000_000 {
                k -= 1;
            }
            (pw * k / 1000, ph * k / 1000)
        } else {
            (pw, ph)
        }
    }
}

/// How much of the table's furniture a map draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Everything, for the report's map, which is read closely.
    Full,
    /// No inch grid: drawn small (the acknowledgement's picture), its lines
    /// would fall a fraction of a pixel wide and near white, and would cost
    /// a third of the drawing for nothing seen. The six-inch grid stays.
    Glance,
}

/// The SVG of the map.
pub fn svg(input: &MapInput) -> String {
    draw(input, Detail::Full)
}

/// The SVG of the map to be drawn small: as [`svg`], without the inch grid.
pub fn glance_svg(input: &MapInput) -> String {
    draw(input, Detail::Glance)
}

fn draw(input: &MapInput, detail: Detail) -> String {
    let frame = Frame::of(&input.next.map, legend_entries(input).len() as i64);
    let look = input.ruleset.look(input.next);
    let (w, h) = frame.total();
    let (pw, ph) = frame.pixels();
    let mut s = Svg::new(w, h, pw, ph);
    let aims = input.aims();
    // The declarations' and the shots not made's styles join the others
    // only where there are some, so that a map without any keeps its bytes.
    let mut heads = vec![style::MOVE, style::CHARGE, style::RETREAT, style::FIRE];
    if !aims.is_empty() {
        heads.push(style::AIM);
    }
    if draws_no_shot(input) {
        heads.push(style::NO_SHOT);
    }
    s.defs_arrows(&heads);
    s.raw(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"
    ));
    let mut marks = Marks::default();
    marks.bodies.push(title(&mut s, w, input.title));
    if frame.hex {
        hex_ground(&mut s, &frame, input, &mut marks);
    } else {
        table_ground(&mut s, &frame, input, detail);
    }
    let slots = slots(&frame, input);
    for unit in input.next.units.iter() {
        if let Some(slot) = slots.get(&unit.id) {
            draw_unit(&mut s, &frame, input, &look, unit, *slot, &mut marks);
        }
    }
    // Arrows and fire over the units, so that their heads show where a
    // unit came to stand.
    fire_lines(&mut s, &frame, input, &look, &slots);
    arrows(&mut s, &frame, input);
    strikes(&mut s, &frame, input);
    for aim in &aims {
        let from = anchor(&frame, input, &look, &slots, &aim.from, false);
        let to = anchor(&frame, input, &look, &slots, &aim.at, true);
        if let (Some(from), Some(to)) = (from, to) {
            aim_mark(&mut s, from, to);
        }
    }
    generals(&mut s, &frame, input, &slots, &mut marks);
    // The labels last, over the arrows, each where it overlaps no other.
    if frame.labels_readable() {
        let mut layout = Layout::new(w, h);
        for b in marks.bodies {
            layout.body(b);
        }
        for label in &marks.labels {
            let (x, y) = layout.place(label);
            let size = u32::try_from(label.size).unwrap_or(55);
            s.text(x, y, size, "middle", "#1a1a1a", &label.text);
        }
    }

    legend(&mut s, &frame, input);
    s.finish()
}

/// The title's font size, and the smallest it is shrunk to before it is
/// broken over two lines.
const TITLE_SIZE: i64 = 110;
const TITLE_LEAST: i64 = 66;

/// The title over the map, fitted to a picture `width` wide: at its full
/// size where it fits; else shrunk as far as a size still easily read;
/// else at that size over two lines, broken between words, the second cut
/// at a word with an ellipsis if it is still too long. It never runs out
/// of the picture, whatever the campaign's and the phase's names. Returns
/// the box it takes, which labels leave clear.
fn title(s: &mut Svg, width: i64, title: &str) -> Boxed {
    let room = width - LEFT - 50;
    let (x, y) = (LEFT, TOP - 120);
    let full = measure::width(title, TITLE_SIZE);
    let (up, down) = measure::extent(TITLE_SIZE);
    let taken = Boxed {
        left: x,
        top: y - up,
        right: x + room,
        bottom: y + down,
    };
    if full <= room {
        s.text(x, y, TITLE_SIZE as u32, "start", "#1a1a1a", title);
        return taken;
    }
    let mut size = TITLE_SIZE * room / full.max(1);
    while size >= TITLE_LEAST && measure::width(title, size) > room {
        size -= 1;
    }
    if size >= TITLE_LEAST {
        s.text(x, y, size as u32, "start", "#1a1a1a", title);
        return taken;
    }
    let fits = |line: &str| measure::width(line, TITLE_LEAST) <= room;
    let (first, rest) = first_line(title, &fits);
    let second = if fits(rest) {
        rest.to_string()
    } else {
        cut(rest, &fits)
    };
    let lines: Vec<&str> = [first.as_str(), second.as_str()]
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    let step = TITLE_LEAST * 6 / 5;
    let top = y - step * (lines.len() as i64 - 1);
    for (i, line) in lines.iter().enumerate() {
        s.text(
            x,
            top + step * i as i64,
            TITLE_LEAST as u32,
            "start",
            "#1a1a1a",
            line,
        );
    }
    Boxed {
        top: top - measure::extent(TITLE_LEAST).0,
        ..taken
    }
}

/// As many of `text`'s first words as fit, and the rest; a first word too
/// long alone is cut with an ellipsis, and the rest is what follows it.
fn first_line<'t>(text: &'t str, fits: &dyn Fn(&str) -> bool) -> (String, &'t str) {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            if fits(&text[..i]) {
                end = i;
            } else {
                break;
            }
        }
    }
    if end == 0 {
        let word_end = text.find(' ').unwrap_or(text.len());
        return (cut(&text[..word_end], fits), text[word_end..].trim_start());
    }
    (text[..end].to_string(), text[end..].trim_start())
}

/// `text` cut with an ellipsis where it fits: after a word if one fits,
/// else after as many letters as fit.
fn cut(text: &str, fits: &dyn Fn(&str) -> bool) -> String {
    let with = |end: usize| format!("{}\u{2026}", text[..end].trim_end());
    let words = text
        .char_indices()
        .filter(|&(_, c)| c == ' ')
        .map(|(i, _)| i)
        .filter(|&i| fits(&with(i)))
        .last();
    if let Some(end) = words {
        return with(end);
    }
    let letters = text
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| fits(&with(i)))
        .last()
        .unwrap_or(0);
    with(letters)
}

/// The table: its cloth, the inch grid, terrain, the scale bar.
fn table_ground(s: &mut Svg, frame: &Frame, input: &MapInput, detail: Detail) {
    let (w, h) = (frame.width, frame.height);
    s.raw(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{w}\" height=\"{h}\" fill=\"#f3f1e4\" stroke=\"#555555\" stroke-width=\"6\"/>\n"
    ));
    for terrain in &input.next.terrain {
        let st = input.terrain_style(&terrain.kind);
        match &terrain.shape {
            TerrainShape::Area { points } => {
                let pts: Vec<(i64, i64)> = points.iter().map(|p| frame.table(p.x, p.y)).collect();
                s.polygon(&pts, st.fill, st.stroke, st.width, st.dash, "");
            }
            TerrainShape::Line { points } => {
                let pts: Vec<(i64, i64)> = points.iter().map(|p| frame.table(p.x, p.y)).collect();
                s.polyline(&pts, st.stroke, st.width, st.dash);
            }
            // Hexes on a table have no place; the campaign check refuses them.
            TerrainShape::Hexes { .. } | TerrainShape::Hexsides { .. } => {}
        }
    }
    // The grid is drawn over the terrain, faint, so that distances can be
    // read anywhere: a line every inch, a stronger one every six, numbered.
    let mut grid = String::new();
    let mut major = String::new();
    for x in (0..=w).step_by(100) {
        let (sx, top) = frame.table(x, h);
        let (_, bottom) = frame.table(x, 0);
        let line = format!("M{sx} {top}V{bottom}");
        (if x % 600 == 0 { &mut major } else { &mut grid }).push_str(&line);
    }
    for y in (0..=h).step_by(100) {
        let (left, sy) = frame.table(0, y);
        let (right, _) = frame.table(w, y);
        let line = format!("M{left} {sy}H{right}");
        (if y % 600 == 0 { &mut major } else { &mut grid }).push_str(&line);
    }
    if detail == Detail::Full {
        s.raw(&format!(
            "<path d=\"{grid}\" fill=\"none\" stroke=\"#000000\" stroke-opacity=\"0.07\" stroke-width=\"2\"/>\n"
        ));
    }
    s.raw(&format!(
        "<path d=\"{major}\" fill=\"none\" stroke=\"#000000\" stroke-opacity=\"0.18\" stroke-width=\"3\"/>\n"
    ));
    for x in (0..=w).step_by(600) {
        let (sx, sy) = frame.table(x, 0);
        s.text(sx, sy + 75, 55, "middle", "#555555", &(x / 100).to_string());
    }
    for y in (0..=h).step_by(600) {
        let (sx, sy) = frame.table(0, y);
        s.text(
            sx - 30,
            sy + 20,
            55,
            "end",
            "#555555",
            &(y / 100).to_string(),
        );
    }
    scale_bar(s, frame);
}

/// A bar of twelve inches, marked every two, under the table's west end.
fn scale_bar(s: &mut Svg, frame: &Frame) {
    let x0 = LEFT;
    let y0 = TOP + frame.height + 170;
    for i in 0..6 {
        let fill = if i % 2 == 0 { "#1a1a1a" } else { "#ffffff" };
        s.raw(&format!(
            "<rect x=\"{}\" y=\"{y0}\" width=\"200\" height=\"30\" fill=\"{fill}\" stroke=\"#1a1a1a\" stroke-width=\"3\"/>\n",
            x0 + i * 200
        ));
    }
    for i in 0..=6 {
        s.text(
            x0 + i * 200,
            y0 - 15,
            50,
            "middle",
            "#1a1a1a",
            &(i * 2).to_string(),
        );
    }
    s.text(x0 + 1250, y0 + 28, 55, "start", "#1a1a1a", "inches");
}

/// The hex grid with its terrain: hexes filled, hexsides drawn thick.
fn hex_ground(s: &mut Svg, frame: &Frame, input: &MapInput, marks: &mut Marks) {
    let MapSpec::Hex { columns, rows } = input.next.map else {
        return;
    };
    let mut grid = String::new();
    for c in 0..columns {
        for r in 0..rows {
            grid.push_str(&svg::closed_path(&frame.hex_corners(c, r)));
        }
    }
    s.raw(&format!(
        "<path d=\"{grid}\" fill=\"#f3f1e4\" stroke=\"#8a8a7a\" stroke-width=\"3\"/>\n"
    ));
    for terrain in &input.next.terrain {
        let st = input.terrain_style(&terrain.kind);
        match &terrain.shape {
            TerrainShape::Hexes { hexes } => {
                for &(c, r) in hexes {
                    s.polygon(&frame.hex_corners(c, r), st.fill, st.stroke, 3, "", "");
                }
            }
            TerrainShape::Hexsides { sides } => {
                for &(c, r, side) in sides {
                    let corners = frame.hex_corners(c, r);
                    let i = usize::from(side % 6);
                    let (a, b) = (corners[i], corners[(i + 1) % 6]);
                    let width = st.width.clamp(12, 24);
                    s.polyline(&[a, b], st.stroke, width, st.dash);
                }
            }
            TerrainShape::Area { .. } | TerrainShape::Line { .. } => {}
        }
    }
    // Hex numbers, small, at the top of each hex, so that orders can name them.
    for c in 0..columns {
        for r in 0..rows {
            let (x, y) = frame.hex_centre(c, r);
            let (y, label) = (y - HEXES.height / 2 + 30, Hex::new(c, r).label());
            s.text(x, y, 24, "middle", "#7a7a6a", &label);
            // Labels leave the hex numbers clear where they can.
            marks.bodies.push(labels::text_box(x, y, 24, &label));
        }
    }
}

/// Where a unit without a footprint is drawn: the centre of its counter
/// and half its side, and whether it shares its hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    x: i64,
    y: i64,
    half: i64,
    stacked: bool,
}

/// Every unit in play the reader sees, and where its counter goes. On a
/// hex map the units in one hex are drawn side by side across it, in the
/// order of the state, each the smaller the more there are, so that a stack
/// shows every counter in it; on a table a counter stands at its location.
fn slots(frame: &Frame, input: &MapInput) -> BTreeMap<String, Slot> {
    let mut out = BTreeMap::new();
    let shown = input
        .next
        .units
        .iter()
        .filter(|u| u.eliminated.is_none() && input.sees(&u.id));
    if !frame.hex {
        for u in shown {
            let (x, y) = frame.location(u.location);
            out.insert(
                u.id.clone(),
                Slot {
                    x,
                    y,
                    half: 60,
                    stacked: false,
                },
            );
        }
        return out;
    }
    let mut by_hex: BTreeMap<(i64, i64), Vec<&str>> = BTreeMap::new();
    for u in shown {
        by_hex
            .entry(frame.location(u.location))
            .or_default()
            .push(&u.id);
    }
    for ((x, y), ids) in by_hex {
        let k = ids.len() as i64;
        // Across 150 of the hex's 200 units of width at its middle.
        let pitch = (150 / k).min(100);
        let half = (pitch * 45 / 100).max(8);
        for (i, id) in ids.into_iter().enumerate() {
            out.insert(
                id.to_string(),
                Slot {
                    x: x - pitch * (k - 1) / 2 + i as i64 * pitch,
                    y: y - 8,
                    half,
                    stacked: k > 1,
                },
            );
        }
    }
    out
}

/// Dashed lines from each firer to each of its targets, both in sight; a
/// shot not made (which only its own side and the GM are told of) as a
/// grey line crossed at its end.
fn fire_lines(
    s: &mut Svg,
    frame: &Frame,
    input: &MapInput,
    look: &Look,
    slots: &BTreeMap<String, Slot>,
) {
    for event in input.events {
        let st = match input.class(event) {
            EventClass::Fire => &style::FIRE,
            EventClass::NoShot => &style::NO_SHOT,
            _ => continue,
        };
        let Some((firer, targets)) = event.units.split_first() else {
            continue;
        };
        let Some(from) = anchor(frame, input, look, slots, firer, false) else {
            continue;
        };
        for target in targets {
            if let Some(to) = anchor(frame, input, look, slots, target, true) {
                s.arrow(from, to, st);
                if st.id == style::NO_SHOT.id {
                    s.cross_mark(to, st);
                }
            }
        }
    }
}

/// Whether the map draws a shot not made, for its legend and its arrowheads.
fn draws_no_shot(input: &MapInput) -> bool {
    input
        .events
        .iter()
        .any(|e| input.class(e) == EventClass::NoShot)
}

/// Where a line to or from a unit starts: its front centre, or the centre of
/// its footprint; `None` for a unit the reader cannot see.
fn anchor(
    frame: &Frame,
    input: &MapInput,
    look: &Look,
    slots: &BTreeMap<String, Slot>,
    id: &str,
    centre: bool,
) -> Option<(i64, i64)> {
    if !input.sees(id) {
        return None;
    }
    if frame.hex
        && let Some(slot) = slots.get(id)
    {
        return Some((slot.x, slot.y));
    }
    let unit = input.next.unit(id).or_else(|| input.prior.unit(id))?;
    if centre && let Some(Shape::Footprint { rect, .. }) = look.get(id).map(|l| l.shape) {
        let c = rect.centre();
        return Some(frame.table(c.x, c.y));
    }
    Some(frame.location(unit.location))
}

/// An arrow for each unit in sight that stands elsewhere than before,
/// styled by what moved it: along the route an event gives it, else
/// straight from where it stood to where it stands.
fn arrows(s: &mut Svg, frame: &Frame, input: &MapInput) {
    // Where each unit stood, the routes each unit's events give it and the
    // classes of the events that name it first, gathered once: asked unit
    // by unit of every unit and every event, a turn of a thousand units
    // and as many events spent most of its map here.
    // The first unit of each id, as `GameState::unit` finds it.
    let mut before_of: BTreeMap<&str, &UnitState> = BTreeMap::new();
    for u in &input.prior.units {
        before_of.entry(u.id.as_str()).or_insert(u);
    }
    let mut routes_of: BTreeMap<&str, Vec<&crate::rules::ruleset::Event>> = BTreeMap::new();
    let mut first_in: BTreeMap<&str, Vec<EventClass>> = BTreeMap::new();
    for e in input.events {
        let Some(first) = e.units.first() else {
            continue;
        };
        if e.path.len() >= 2 {
            routes_of.entry(first.as_str()).or_default().push(e);
        }
        first_in
            .entry(first.as_str())
            .or_default()
            .push(input.class(e));
    }
    for unit in &input.next.units {
        let id = &unit.id;
        if !input.sees(id) {
            continue;
        }
        let Some(&before) = before_of.get(id.as_str()) else {
            continue;
        };
        let style_of = |class: EventClass| match class {
            EventClass::Charge | EventClass::ChargeShort => &style::CHARGE,
            EventClass::Retreat => &style::RETREAT,
            _ => &style::MOVE,
        };
        // A unit may have gone several ways in one resolution (a charge,
        // then a pursuit): each route is drawn, styled by its own event.
        let routes = routes_of.get(id.as_str()).map_or(&[][..], Vec::as_slice);
        if !routes.is_empty() {
            for &event in routes {
                let points: Vec<(i64, i64)> =
                    event.path.iter().map(|l| frame.location(*l)).collect();
                let class = input.class(event);
                s.route_arrow(&points, style_of(class));
                if class == EventClass::ChargeShort
                    && let [.., from, to] = points[..]
                {
                    s.halt_mark(from, to, &style::CHARGE);
                }
            }
            continue;
        }
        if before.location == unit.location {
            continue;
        }
        let named_first = |class: EventClass| {
            first_in
                .get(id.as_str())
                .is_some_and(|classes| classes.contains(&class))
        };
        let class = [
            EventClass::Charge,
            EventClass::ChargeShort,
            EventClass::Retreat,
        ]
        .into_iter()
        .find(|c| named_first(*c))
        .unwrap_or(EventClass::Other);
        let from = frame.location(before.location);
        let to = frame.location(unit.location);
        s.arrow(from, to, style_of(class));
        if class == EventClass::ChargeShort {
            s.halt_mark(from, to, &style::CHARGE);
        }
    }
}

/// How far towards the place it struck an attack made in place is drawn,
/// as a fraction: past the middle, so that its head crosses the hexside
/// (or the edge) between the two and stops short of the defenders.
const STRIKE_REACH: (i64, i64) = (3, 5);

/// An attack made where the attacker stands ([`crate::rules::look::Strike`]):
/// a charge arrow from its place into the place it struck, drawn where the
/// reader sees the attacker and one of the units struck. An attacker that
/// then advanced into that place has the advance's arrow along the same way
/// and gets none of its own.
fn strikes(s: &mut Svg, frame: &Frame, input: &MapInput) {
    for event in input.events {
        let Some(strike) = event.shows.as_ref().and_then(|x| x.strike.as_ref()) else {
            continue;
        };
        let Some(attacker) = event.units.first() else {
            continue;
        };
        if !input.sees(attacker) || !strike.targets.iter().any(|t| input.sees(t)) {
            continue;
        }
        let advanced = input.events.iter().any(|e| {
            e.units.first() == Some(attacker)
                && e.path.first() == Some(&strike.from)
                && e.path.last() == Some(&strike.at)
        });
        if advanced {
            continue;
        }
        let from = frame.location(strike.from);
        let at = frame.location(strike.at);
        let (n, d) = STRIKE_REACH;
        let to = (
            from.0 + (at.0 - from.0) * n / d,
            from.1 + (at.1 - from.1) * n / d,
        );
        s.arrow(from, to, &style::CHARGE);
    }
}

/// A declaration: a dashed line from the unit to its target and a triangle
/// on the unit pointing at it.
fn aim_mark(s: &mut Svg, from: (i64, i64), to: (i64, i64)) {
    let (dx, dy) = ((to.0 - from.0) as f64, (to.1 - from.1) as f64);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return;
    }
    s.arrow(from, to, &style::AIM);
    // `f64::sqrt` and the products are correctly rounded, so the corners
    // come out the same on every machine.
    let (ux, uy) = (dx / len, dy / len);
    let at = |ahead: f64, aside: f64| {
        (
            from.0 + (ux * ahead - uy * aside).round() as i64,
            from.1 + (uy * ahead + ux * aside).round() as i64,
        )
    };
    s.polygon(
        &[at(90.0, 0.0), at(-20.0, 55.0), at(-20.0, -55.0)],
        style::AIM.colour,
        "#ffffff",
        5,
        "",
        "",
    );
}

fn side_index(state: &GameState, side: &str) -> usize {
    state.sides.iter().position(|s| s == side).unwrap_or(0)
}

/// What the units and generals leave for the labels: the boxes of what
/// was drawn, which labels should leave clear, and the labels wanted, in
/// the order they are placed.
#[derive(Default)]
struct Marks {
    bodies: Vec<Boxed>,
    labels: Vec<Wanted>,
}

/// The box of a square or disc of half-side `r` centred on `(x, y)`.
fn square(x: i64, y: i64, r: i64) -> Boxed {
    Boxed {
        left: x - r,
        top: y - r,
        right: x + r,
        bottom: y + r,
    }
}

fn draw_unit(
    s: &mut Svg,
    frame: &Frame,
    input: &MapInput,
    look: &Look,
    unit: &UnitState,
    slot: Slot,
    marks: &mut Marks,
) {
    let colour = style::side_colour(side_index(input.next, &unit.side));
    let unit_look = look.get(&unit.id);
    let markers: &[Marker] = unit_look.map_or(&[], |l| l.markers.as_slice());
    let symbol = match unit_look.map(|l| l.shape) {
        Some(Shape::Footprint {
            rect,
            outline,
            stripe,
            wheel,
        }) if !frame.hex => {
            let (label, body) = draw_footprint(s, frame, &rect, (outline, stripe, wheel), colour);
            marks.bodies.push(body);
            marks
                .labels
                .push(Wanted::around(input.label(unit), 55, label, body));
            let mid_y = (body.top + body.bottom) / 2;
            for (i, m) in markers.iter().enumerate() {
                let x = body.right + 45 + 80 * i as i64;
                s.marker(x, mid_y, m);
                marks.bodies.push(square(x, mid_y, 34));
            }
            return;
        }
        Some(Shape::CounterWith { symbol }) => Some(symbol),
        _ => None,
    };
    draw_counter(s, frame, unit, colour, slot, symbol);
    let body = square(slot.x, slot.y, slot.half);
    marks.bodies.push(body);
    let size = match (frame.hex, slot.stacked) {
        (false, _) => 55,
        (true, false) => 28,
        (true, true) => 20,
    };
    marks.labels.push(Wanted::around(
        input.label(unit),
        size,
        (slot.x, slot.y + slot.half + size),
        body,
    ));
    if frame.hex {
        // On its top edge, right to left, sized to the counter, so that a
        // stack's markers stay on their own counters.
        let r = (slot.half / 3).max(9);
        for (i, m) in markers.iter().enumerate() {
            let x = slot.x + slot.half - r - 2 * r * i as i64;
            s.marker_sized(x, slot.y - slot.half, r, m);
            marks.bodies.push(square(x, slot.y - slot.half, r));
        }
    } else {
        for (i, m) in markers.iter().enumerate() {
            let x = slot.x + slot.half + 45 + 80 * i as i64;
            s.marker(x, slot.y, m);
            marks.bodies.push(square(x, slot.y, 34));
        }
    }
}

/// Draws a unit to scale; returns where its label goes first and the box
/// the unit takes on the page.
fn draw_footprint(
    s: &mut Svg,
    frame: &Frame,
    rect: &Rect,
    (outline, stripe, wheel): (Outline, bool, bool),
    colour: &str,
) -> ((i64, i64), Boxed) {
    let corners: Vec<(i64, i64)> = rect
        .corners()
        .iter()
        .map(|p| frame.table(p.x, p.y))
        .collect();
    let front = (corners[0], corners[1]);
    let mid = |a: (i64, i64), b: (i64, i64)| ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
    let front_mid = mid(corners[0], corners[1]);
    let rear_mid = mid(corners[2], corners[3]);
    let centre = mid(front_mid, rear_mid);
    match outline {
        // A loose cloud: pale, with a broken outline.
        Outline::Loose => s.polygon(&corners, colour, "#1a1a1a", 3, "10 8", "0.45"),
        // Facing every way: a heavy edge all round.
        Outline::AllRound => s.polygon(&corners, colour, "#1a1a1a", 14, "", ""),
        Outline::Solid => s.polygon(&corners, colour, "#1a1a1a", 3, "", ""),
    }
    // The front is the heavy edge, so facing reads at a glance.
    s.polyline(&[front.0, front.1], "#1a1a1a", 12, "");
    if stripe {
        // A column: a line down its length.
        s.polyline(&[front_mid, rear_mid], "#ffffff", 6, "");
    }
    if wheel {
        // Guns: a wheel at the centre.
        s.raw(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"18\" fill=\"#1a1a1a\"/>\n",
            centre.0, centre.1
        ));
    }
    let min_y = corners.iter().map(|c| c.1).min().unwrap_or(centre.1);
    let max_y = corners.iter().map(|c| c.1).max().unwrap_or(centre.1);
    let max_x = corners.iter().map(|c| c.0).max().unwrap_or(centre.0);
    let min_x = corners.iter().map(|c| c.0).min().unwrap_or(centre.0);
    // The id goes below the unit on the page, or above for a unit whose
    // rear is towards the bottom edge of the page.
    let label_y = if rear_mid.1 >= front_mid.1 {
        max_y + 60
    } else {
        min_y - 25
    };
    (
        (centre.0, label_y),
        Boxed {
            left: min_x,
            top: min_y,
            right: max_x,
            bottom: max_y,
        },
    )
}

/// A unit with no footprint (a hex map, or a troop type the ruleset does
/// not size): a counter in its slot, its symbol on it, a bar at the edge
/// towards its facing: on a hex map the hexside it faces, on a table the
/// nearest of eight directions.
fn draw_counter(
    s: &mut Svg,
    frame: &Frame,
    unit: &UnitState,
    colour: &str,
    slot: Slot,
    symbol: Option<&str>,
) {
    let Slot { x, y, half, .. } = slot;
    s.polygon(
        &[
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ],
        colour,
        "#1a1a1a",
        4,
        "",
        "",
    );
    if let Some(symbol) = symbol {
        let size = u32::try_from(half).unwrap_or(45);
        s.text(x, y + half * 2 / 5, size, "middle", "#ffffff", symbol);
    }
    let (dx, dy) = if frame.hex {
        hexside_step(unit.facing % 6, half)
    } else {
        compass_step((unit.facing % 360 + 22) / 45 % 8, half)
    };
    let width = u32::try_from((half / 5).max(4)).unwrap_or(10);
    s.polyline(
        &[(x + dx * 11 / 20, y + dy * 11 / 20), (x + dx, y + dy)],
        "#1a1a1a",
        width,
        "",
    );
}

/// A step of `len` from a hex's centre towards the middle of hexside
/// `side` (0 north, clockwise), in SVG directions (y down): the sides lie
/// at multiples of 60 degrees from north.
fn hexside_step(side: u32, len: i64) -> (i64, i64) {
    let (sx, sy) = match side {
        0 => (0, -1000),
        1 => (866, -500),
        2 => (866, 500),
        3 => (0, 1000),
        4 => (-866, 500),
        _ => (-866, -500),
    };
    (sx * len / 1000, sy * len / 1000)
}

/// A step of `len` towards one of the eight compass points (0 north,
/// clockwise), in SVG directions (y down).
fn compass_step(point: u32, len: i64) -> (i64, i64) {
    match point {
        0 => (0, -len),
        1 => (len, -len),
        2 => (len, 0),
        3 => (len, len),
        4 => (0, len),
        5 => (-len, len),
        6 => (-len, 0),
        _ => (-len, -len),
    }
}

/// Whether the reader sees a general: its id in the set of what the reader
/// sees (see [`with_generals`]), or everyone for the GM.
pub fn general_seen(visible: Option<&BTreeSet<String>>, general: &GeneralState) -> bool {
    visible.is_none_or(|v| v.contains(&general.id))
}

/// What `side` sees, with the generals it sees added: its own, and an enemy
/// general attached to a unit it sees. An unattached enemy general is named
/// only to the GM (REP-1).
pub fn with_generals(
    state: &GameState,
    side: &str,
    mut visible: BTreeSet<String>,
) -> BTreeSet<String> {
    let seen: Vec<String> = state
        .generals
        .iter()
        .filter(|g| {
            g.side == side
                || g.attached_to
                    .as_deref()
                    .is_some_and(|u| visible.contains(u))
        })
        .map(|g| g.id.clone())
        .collect();
    visible.extend(seen);
    visible
}

/// Generals: a diamond with the general's id, beside the unit he is
/// attached to (at its counter's corner, on a hex map) or where he stands.
fn generals(
    s: &mut Svg,
    frame: &Frame,
    input: &MapInput,
    slots: &BTreeMap<String, Slot>,
    marks: &mut Marks,
) {
    for general in input.next.generals.iter().filter(|g| g.lost.is_none()) {
        if !general_seen(input.visible, general) {
            continue;
        }
        let attached = general
            .attached_to
            .as_deref()
            .and_then(|id| input.next.unit(id));
        let slot = attached.and_then(|u| slots.get(&u.id));
        let (x, y, size) = match (attached, slot) {
            (Some(_), Some(slot)) if frame.hex => (
                slot.x - slot.half,
                slot.y - slot.half,
                (slot.half / 2).max(12),
            ),
            (Some(u), _) => {
                let (x, y) = frame.location(u.location);
                (x - 70, y, 45)
            }
            (None, _) => {
                let (x, y) = frame.location(general.location);
                (x, y, if frame.hex { 25 } else { 45 })
            }
        };
        let colour = style::side_colour(side_index(input.next, &general.side));
        s.polygon(
            &[(x, y - size), (x + size, y), (x, y + size), (x - size, y)],
            "#ffd700",
            colour,
            if frame.hex {
                u32::try_from(size / 4).unwrap_or(10).max(3)
            } else {
                10
            },
            "",
            "",
        );
        let body = square(x, y, size);
        marks.bodies.push(body);
        let above = if frame.hex { size + 10 } else { 60 };
        marks.labels.push(Wanted::around(
            general.id.clone(),
            size,
            (x, y - above),
            body,
        ));
    }
}

/// One entry of the legend.
enum Entry<'a> {
    Side(usize, &'a str),
    Terrain(&'a str),
    Marker(&'static Marker),
    Arrow(&'static style::ArrowStyle),
}

/// The legend's entries: the sides, the terrain kinds on the map, the
/// ruleset's markers and the arrows.
fn legend_entries<'a>(input: &MapInput<'a>) -> Vec<Entry<'a>> {
    let state = input.next;
    let mut entries: Vec<Entry> = state
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| Entry::Side(i, side))
        .collect();
    let mut kinds_seen: Vec<&str> = Vec::new();
    for t in &state.terrain {
        if !kinds_seen.contains(&t.kind.as_str()) {
            kinds_seen.push(&t.kind);
        }
    }
    entries.extend(kinds_seen.into_iter().map(Entry::Terrain));
    entries.extend(input.ruleset.markers().iter().map(Entry::Marker));
    entries.extend([&style::MOVE, &style::CHARGE, &style::RETREAT, &style::FIRE].map(Entry::Arrow));
    if !input.aims().is_empty() {
        entries.push(Entry::Arrow(&style::AIM));
    }
    if draws_no_shot(input) {
        entries.push(Entry::Arrow(&style::NO_SHOT));
    }
    entries
}

/// The key under the map.
fn legend(s: &mut Svg, frame: &Frame, input: &MapInput) {
    let swatch = |x: i64, y: i64| [(x, y - 40), (x + 60, y - 40), (x + 60, y + 10), (x, y + 10)];
    for (i, entry) in legend_entries(input).into_iter().enumerate() {
        let (x, y) = frame.legend_slot(i as i64);
        let label = match entry {
            Entry::Side(index, side) => {
                s.polygon(
                    &swatch(x, y),
                    style::side_colour(index),
                    "#1a1a1a",
                    3,
                    "",
                    "",
                );
                side
            }
            Entry::Terrain(kind) => {
                let st = input.terrain_style(kind);
                if st.fill == "none" {
                    s.polyline(
                        &[(x, y - 15), (x + 60, y - 15)],
                        st.stroke,
                        st.width.min(20),
                        st.dash,
                    );
                } else {
                    s.polygon(&swatch(x, y), st.fill, st.stroke, 3, "", "");
                }
                st.label
            }
            Entry::Marker(m) => {
                s.marker(x + 30, y - 15, m);
                m.label
            }
            Entry::Arrow(a) => {
                s.arrow((x, y - 15), (x + 65, y - 15), a);
                a.label
            }
        };
        s.text(x + 80, y, 50, "start", "#1a1a1a", label);
    }
}

#[cfg(test)]
mod tests;
