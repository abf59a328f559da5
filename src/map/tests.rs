use std::collections::BTreeSet;

use super::*;
use crate::report::sample;
use crate::rules::board::{Location, Terrain};
use crate::rules::ruleset::Event;
use crate::rules::ruleset_for;

/// The map's input for `turn`, its states read as `read` (both sides of
/// the turn, from `SampleTurn::readings`).
fn input<'a>(
    turn: &'a sample::SampleTurn,
    read: &'a (Reading<'a>, Reading<'a>),
    visible: Option<&'a BTreeSet<String>>,
) -> MapInput<'a> {
    MapInput {
        title: "test",
        ruleset: ruleset_for(&turn.prior.ruleset).expect("known ruleset"),
        prior: &read.0,
        next: &read.1,
        events: &turn.events,
        visible,
        strengths: Strengths::Seen,
    }
}

#[test]
fn the_same_turn_gives_the_same_bytes() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    assert_eq!(
        svg(&input(
            &turn,
            &turn.readings().expect("the states read"),
            None
        )),
        svg(&input(
            &turn,
            &turn.readings().expect("the states read"),
            None
        ))
    );
}

#[test]
fn a_map_drawn_small_leaves_out_the_inch_grid_and_nothing_else() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let full = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let glance = glance_svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let inch_grid = |text: &str| {
        text.lines()
            .filter(|l| l.contains("stroke-opacity=\"0.07\""))
            .count()
    };
    assert_eq!(inch_grid(&full), 1);
    assert_eq!(inch_grid(&glance), 0);
    let rest: Vec<&str> = full
        .lines()
        .filter(|l| !l.contains("stroke-opacity=\"0.07\""))
        .collect();
    assert_eq!(rest, glance.lines().collect::<Vec<_>>());
    // The six-inch grid stays.
    assert!(glance.contains("stroke-opacity=\"0.18\""));
}

/// Every number the writer puts in a coordinate is a whole number: no float
/// formatting can differ between machines.
#[test]
fn coordinates_are_integers() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    for attr in ["points=\"", " x=\"", " y=\"", " cx=\"", " x1=\"", " d=\""] {
        for value in text.split(attr).skip(1) {
            let value = &value[..value.find('"').unwrap_or(0)];
            assert!(
                !value.contains('.'),
                "a decimal in {attr}{value}\" of the map"
            );
        }
    }
}

#[test]
fn units_out_of_sight_are_not_drawn() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let visible: BTreeSet<String> = turn
        .next
        .units
        .iter()
        .filter(|u| u.side == "french")
        .map(|u| u.id.clone())
        .collect();
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        Some(&visible),
    ));
    assert!(text.contains(">1-ligne "));
    assert!(
        !text.contains(">ir-1 "),
        "an Austrian unit drawn on a French map"
    );
    let all = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert!(all.contains(">ir-1 "));
}

#[test]
fn moves_charges_and_fire_are_drawn() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert!(text.contains("marker-end=\"url(#head-move)\""));
    assert!(text.contains("marker-end=\"url(#head-charge)\""));
    assert!(text.contains("marker-end=\"url(#head-fire)\""));
    assert!(text.contains("marker-end=\"url(#head-retreat)\""));
}

/// A unit whose event gives its route is drawn along it, bend by bend, in
/// the style of that event; one without a route gets the straight arrow.
#[test]
fn a_route_an_event_gives_is_drawn_through_every_point() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    let moved = turn
        .next
        .units
        .iter()
        .find(|u| {
            turn.prior
                .unit(&u.id)
                .is_some_and(|p| p.location != u.location)
        })
        .expect("the sample moves a unit")
        .clone();
    let from = turn.prior.unit(&moved.id).expect("it was there").location;
    let bend = Location::Table { x: 100, y: 200 };
    for event in turn.events.iter_mut() {
        event.path.clear();
    }
    turn.events.push(
        Event::naming("rout", &[&moved.id], "it fled round the wood").along(vec![
            from,
            bend,
            moved.location,
        ]),
    );
    let frame = Frame::of(&turn.next.map, 0);
    let points: Vec<String> = [from, bend, moved.location]
        .iter()
        .map(|l| {
            let (x, y) = frame.location(*l);
            format!("{x},{y}")
        })
        .collect();
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let wanted = format!("<polyline points=\"{}\" fill=\"none\"", points.join(" "));
    assert!(text.contains(&wanted), "no route {wanted} in the map");
    // Without the route, the same unit gets one straight arrow.
    turn.events.pop();
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert!(!text.contains(&wanted));
}

#[test]
fn a_hex_map_is_drawn_as_hexes_with_hexsides() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    for state in [&mut turn.prior, &mut turn.next] {
        state.map = MapSpec::Hex {
            columns: 4,
            rows: 3,
        };
        state.terrain = vec![
            Terrain {
                id: "wood".to_string(),
                kind: "light-woods".to_string(),
                shape: TerrainShape::Hexes {
                    hexes: vec![(1, 1)],
                },
            },
            Terrain {
                id: "stream".to_string(),
                kind: "river".to_string(),
                shape: TerrainShape::Hexsides {
                    sides: vec![(2, 0, 3)],
                },
            },
        ];
        state.units.truncate(2);
        state.units[0].location = Location::Hex { column: 0, row: 0 };
        state.units[1].location = Location::Hex { column: 3, row: 2 };
    }
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    // The grid: twelve hexes in one path, each with six corners.
    let grid = text
        .lines()
        .find(|l| l.starts_with("<path d=\"M") && l.contains("#8a8a7a"))
        .expect("the hex grid");
    assert_eq!(grid.matches('Z').count(), 12);
    // Hex (2, 0)'s south side (3): column 2 is even, its centre is at
    // (200 + 100 + 300, 300 + 87); the side runs from (650, 474) to (550, 474).
    assert!(text.contains("points=\"650,474 550,474\" fill=\"none\" stroke=\"#5b8fd6\""));
    assert!(text.contains(">0000<") && text.contains(">0302<"));
    png(&text).expect("the hex map renders");
}

#[test]
fn the_png_has_the_svg_size_and_text_is_drawn() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let bytes = png(&text).expect("renders");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("decodes");
    let frame = Frame::of(
        &turn.next.map,
        legend_entries(&input(
            &turn,
            &turn.readings().expect("the states read"),
            None,
        ))
        .len() as i64,
    );
    let (w, h) = frame.pixels();
    assert_eq!(
        (i64::from(pixmap.width()), i64::from(pixmap.height())),
        (w, h)
    );
    // The title is drawn in the font compiled in: pixels clearly darker than
    // the white page lie where it is written, at the top left (the light
    // face, anti-aliased, leaves few fully black ones).
    let dark = |xs: std::ops::Range<u32>| {
        (0..40)
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| {
                pixmap.pixel(x, y).is_some_and(|p| {
                    u32::from(p.red()) + u32::from(p.green()) + u32::from(p.blue()) < 450
                })
            })
            .count()
    };
    let title = dark(30..200);
    assert!(title > 50, "the title shows {title} dark pixels");
    // Where nothing is written, the page is blank.
    assert_eq!(dark(1000..1100), 0);
}

#[test]
fn text_is_escaped() {
    assert_eq!(svg::escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
}

/// A hex map with the sample's first three units in one hex and the
/// fourth alone.
fn stacked_turn() -> sample::SampleTurn {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    for state in [&mut turn.prior, &mut turn.next] {
        state.map = MapSpec::Hex {
            columns: 4,
            rows: 3,
        };
        state.terrain.clear();
        state.units.truncate(4);
        for u in state.units.iter_mut().take(3) {
            u.location = Location::Hex { column: 1, row: 1 };
        }
        state.units[3].location = Location::Hex { column: 3, row: 2 };
    }
    turn
}

/// Units that share a hex are drawn side by side across it, smaller, in
/// the state's order; a unit alone keeps the full size at the centre.
#[test]
fn a_stack_is_drawn_side_by_side() {
    let turn = stacked_turn();
    let read = turn.readings().expect("the states read");
    let input = input(&turn, &read, None);
    let frame = Frame::of(&turn.next.map, 1);
    let slots = slots(&frame, &input);
    let ids: Vec<&str> = turn.next.units.iter().map(|u| u.id.as_str()).collect();
    let stack: Vec<Slot> = ids[..3].iter().map(|id| slots[*id]).collect();
    let (cx, cy) = frame.hex_centre(1, 1);
    assert!(stack.iter().all(|s| s.stacked && s.y == stack[0].y));
    assert!(stack[0].x < stack[1].x && stack[1].x < stack[2].x);
    assert_eq!(
        stack[1].x, cx,
        "the middle counter of three is at the centre"
    );
    // Side by side: none overlaps the next.
    for w in stack.windows(2) {
        assert!(w[0].x + w[0].half <= w[1].x - w[1].half, "{w:?}");
    }
    let alone = slots[ids[3]];
    assert!(!alone.stacked && alone.half > stack[0].half);
    assert_eq!((alone.x, alone.y + 8), frame.hex_centre(3, 2));
    assert_eq!(stack[0].y + 8, cy);
    // Every counter of the stack is drawn, its id under it.
    let text = svg(&input);
    for id in &ids[..3] {
        assert!(text.contains(&format!(">{id} ")), "{id} not drawn");
    }
    png(&text).expect("the map renders");
}

/// A counter with a symbol carries it, and its facing bar points at the
/// middle of the hexside it faces.
#[test]
fn a_counter_shows_its_symbol_and_the_hexside_it_faces() {
    let turn = stacked_turn();
    let frame = Frame::of(&turn.next.map, 1);
    let mut unit = turn.next.units[3].clone();
    unit.facing = 1;
    let slot = Slot {
        x: 1000,
        y: 500,
        half: 40,
        stacked: false,
    };
    let mut s = Svg::new(2000, 1000, 200, 100);
    draw_counter(&mut s, &frame, &unit, "#2b59c3", slot, Some("H"));
    let text = s.finish();
    assert!(text.contains(">H</text>"), "{text}");
    // North-east: 60 degrees clockwise from north, so up and to the right,
    // out to the counter's edge (40 * 0.866, 40 * 0.5), from a little
    // past half way (11/20 of it, in whole units).
    assert!(
        text.contains("points=\"1018,489 1034,480\""),
        "no bar to the north-east side: {text}"
    );
}

/// A declaration is a dashed line to its target and a triangle on the unit
/// pointing at it, in whole numbers.
#[test]
fn a_declared_attack_points_at_its_target() {
    let mut s = Svg::new(1000, 1000, 100, 100);
    aim_mark(&mut s, (100, 100), (100, 500));
    let text = s.finish();
    assert!(
        text.contains("<line x1=\"100\" y1=\"100\" x2=\"100\" y2=\"500\""),
        "{text}"
    );
    assert!(text.contains("url(#head-aim)"), "{text}");
    // The triangle's tip lies 90 towards the target; its base straddles the line.
    assert!(text.contains("points=\"100,190 45,80 155,80\""), "{text}");
    // Nothing is drawn for a unit aimed at where it stands.
    let mut s = Svg::new(1000, 1000, 100, 100);
    aim_mark(&mut s, (100, 100), (100, 100));
    assert!(!s.finish().contains("polygon"));
}

/// A map with no declarations keeps its arrowheads and legend as before.
#[test]
fn no_declared_attack_no_aim_in_the_defs_or_legend() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert!(!text.contains("head-aim"));
    assert!(!text.contains("declared charge"));
}

/// Two kinds of a made-up ruleset: a volley, and fire ordered and not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fire {
    Made,
    NotMade,
}

impl crate::rules::told::EventKind for Fire {
    const ALL: &'static [Fire] = &[Fire::Made, Fire::NotMade];
    fn name(self) -> &'static str {
        "shooting"
    }
    fn class(self) -> EventClass {
        match self {
            Fire::Made => EventClass::Fire,
            Fire::NotMade => EventClass::NoShot,
        }
    }
    fn told(self) -> crate::rules::told::Told {
        crate::rules::told::Told::InSight
    }
}

/// A shot not made is no fire line (issue: a refused shot was drawn as
/// fire): it is drawn grey, crossed at its target, with its own legend
/// entry, and only where there is one.
#[test]
fn a_shot_not_made_is_not_drawn_as_fire() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    let shots: Vec<Event> = turn
        .events
        .iter()
        .filter(|e| e.kind == "shooting")
        .cloned()
        .collect();
    assert!(!shots.is_empty(), "the sample turn has fire");
    turn.events.retain(|e| e.kind != "shooting");
    let with = |kind: Fire, turn: &mut sample::SampleTurn| {
        turn.events.retain(|e| e.kind != "shooting");
        for e in &shots {
            let units: Vec<&str> = e.units.iter().map(String::as_str).collect();
            turn.events.push(Event::of(kind, &units, e.text.clone()));
        }
        svg(&input(
            turn,
            &turn.readings().expect("the states read"),
            None,
        ))
    };
    // The legend's own fire arrow is one of them.
    let fire_lines = |svg: &str| svg.matches("marker-end=\"url(#head-fire)\"").count() - 1;
    let made = with(Fire::Made, &mut turn);
    assert_eq!(fire_lines(&made), shots.len());
    assert!(!made.contains("no-shot"));
    let refused = with(Fire::NotMade, &mut turn);
    assert_eq!(fire_lines(&refused), 0);
    assert!(refused.contains("marker-end=\"url(#head-no-shot)\""));
    assert!(refused.contains(">shot not made<"));
}

/// A charge kind of a made-up ruleset that met its target, and one that
/// fell short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Charge {
    Met,
    Short,
}

impl crate::rules::told::EventKind for Charge {
    const ALL: &'static [Charge] = &[Charge::Met, Charge::Short];
    fn name(self) -> &'static str {
        "charge"
    }
    fn class(self) -> EventClass {
        match self {
            Charge::Met => EventClass::Charge,
            Charge::Short => EventClass::ChargeShort,
        }
    }
    fn told(self) -> crate::rules::told::Told {
        crate::rules::told::Told::InSight
    }
}

/// A charge that fell short is drawn as a charge (not as a move), and its
/// end is barred; one that met its target is not.
#[test]
fn a_charge_that_fell_short_is_a_charge_barred_at_its_end() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    let charge = turn
        .events
        .iter()
        .position(|e| e.kind == "charge")
        .expect("the sample turn has a charge");
    let units: Vec<String> = turn.events[charge].units.clone();
    let refs: Vec<&str> = units.iter().map(String::as_str).collect();
    let text = turn.events[charge].text.clone();
    let bars = |svg: &str| {
        svg.lines()
            .filter(|l| {
                l.starts_with("<line") && l.contains("#c0392b") && !l.contains("marker-end")
            })
            .count()
    };
    turn.events[charge] = Event::of(Charge::Met, &refs, text.clone());
    let met = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    turn.events[charge] = Event::of(Charge::Short, &refs, text);
    let short = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let charges = |svg: &str| svg.matches("marker-end=\"url(#head-charge)\"").count();
    assert_eq!(charges(&met), charges(&short));
    assert_eq!(bars(&short), bars(&met) + 1);
}

/// A charge or a shock made where the attacker stands (issue: a Kulikovo
/// attack from its hex left no mark on the map): a charge arrow from its
/// place three fifths of the way to the place it struck, across the hexside
/// between; none where the reader does not see a unit struck, and none of
/// its own for an attacker that then advanced into that place.
#[test]
fn an_attack_made_in_place_is_a_charge_arrow_across_into_the_place_struck() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    let (from, at) = (
        Location::Hex { column: 1, row: 1 },
        Location::Hex { column: 2, row: 1 },
    );
    for state in [&mut turn.prior, &mut turn.next] {
        state.map = MapSpec::Hex {
            columns: 4,
            rows: 3,
        };
        state.terrain.clear();
        state.units.truncate(2);
        state.units[0].location = from;
        state.units[1].location = at;
    }
    turn.events.clear();
    let (a, d) = (turn.next.units[0].id.clone(), turn.next.units[1].id.clone());
    let charges = |svg: &str| svg.matches("marker-end=\"url(#head-charge)\"").count();
    let without = charges(&svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    )));
    let strike = crate::rules::look::Strike {
        from,
        at,
        targets: vec![d.clone()],
    };
    turn.events
        .push(Event::of(Charge::Met, &[&a, &d], "A strikes D.").striking(strike));
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert_eq!(charges(&text), without + 1);
    let frame = Frame::of(&turn.next.map, 0);
    let (f, t) = (frame.location(from), frame.location(at));
    let to = (f.0 + (t.0 - f.0) * 3 / 5, f.1 + (t.1 - f.1) * 3 / 5);
    let wanted = format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"",
        f.0,
        f.1,
        to.0,
        to.1,
        style::CHARGE.colour
    );
    assert!(text.contains(&wanted), "no {wanted} in the map");
    // A reader who sees the attacker alone is not shown the blow.
    let only_attacker: BTreeSet<String> = [a.clone()].into();
    assert_eq!(
        charges(&svg(&input(
            &turn,
            &turn.readings().expect("the states read"),
            Some(&only_attacker)
        ))),
        without
    );
    // An attacker that advanced into the place it struck has the advance's
    // arrow, along the same way, and no other.
    turn.events
        .push(Event::of(Charge::Met, &[&a], "A advances.").along(vec![from, at]));
    let advanced = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    assert!(!advanced.contains(&wanted));
}

/// A `<text>` of the map: its baseline point, size, anchor and words.
#[derive(Debug, Clone)]
struct Written {
    x: i64,
    y: i64,
    size: i64,
    anchor: String,
    fill: String,
    body: String,
}

fn attr<'t>(tag: &'t str, name: &str) -> &'t str {
    let key = format!(" {name}=\"");
    tag.split(&key)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
}

/// Every `<text>` of a map, in the order written.
fn written(svg: &str) -> Vec<Written> {
    svg.lines()
        .filter(|l| l.starts_with("<text "))
        .map(|l| {
            let open = &l[..l.find('>').unwrap_or(0)];
            let body = l[open.len() + 1..].trim_end_matches("</text>");
            Written {
                x: attr(open, "x").parse().unwrap_or(0),
                y: attr(open, "y").parse().unwrap_or(0),
                size: attr(open, "font-size").parse().unwrap_or(0),
                anchor: attr(open, "text-anchor").to_string(),
                fill: attr(open, "fill").to_string(),
                body: body.to_string(),
            }
        })
        .collect()
}

/// The box a written text takes, measured with the map's own face.
fn box_of(t: &Written) -> labels::Boxed {
    let w = measure::width(&t.body, t.size);
    let left = match t.anchor.as_str() {
        "middle" => t.x - w / 2,
        "end" => t.x - w,
        _ => t.x,
    };
    labels::text_box(left + w / 2, t.y, t.size, &t.body)
}

/// Map titles ran off the picture for long names (issue 30, item 6): a
/// title far wider than the map is fitted, every line of it within the
/// picture, on a large table and on a small hex map alike.
#[test]
fn a_long_title_stays_within_the_picture() {
    let long = "The Battle of the Village of Mühlbach and the Heights of Aspern beyond it, \
                1809: after turn 12 orders (the Army of Italy under the Viceroy active) \
                (Feldmarschalleutnant Johann Freiherr von Hiller and his Staff)";
    let mut hexes = stacked_turn();
    hexes.next.units.truncate(1);
    for (turn, what) in [
        (
            sample::demo_turn().expect("the demo campaign loads"),
            "table",
        ),
        (hexes, "hex map"),
    ] {
        let read = turn.readings().expect("the states read");
        let mut map = input(&turn, &read, None);
        map.title = long;
        let text = svg(&map);
        let frame = Frame::of(&turn.next.map, legend_entries(&map).len() as i64);
        let (w, _) = frame.total();
        let title: Vec<Written> = written(&text)
            .into_iter()
            .filter(|t| t.y < TOP && t.anchor == "start")
            .collect();
        assert!(!title.is_empty(), "no title on the {what}");
        assert!(title[0].body.starts_with("The Battle of"), "{title:?}");
        for line in &title {
            let b = box_of(line);
            assert!(
                b.left >= 0 && b.right <= w && b.top >= 0,
                "the {what}'s title line {line:?} runs out of the picture 0..{w}: {b:?}"
            );
            assert!(line.size >= 40, "the title is too small to read: {line:?}");
        }
        png(&text).expect("renders");
    }
    // A title that fits keeps its place and size.
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let title = &written(&text)[0];
    assert_eq!((title.x, title.y, title.size), (LEFT, TOP - 120, 110));
    assert_eq!(title.body, "test");
}

/// The labels of units and generals, as written on the map: dark text
/// inside the table, not the grid's figures or the legend.
fn unit_labels(text: &str, frame: &Frame) -> Vec<Written> {
    written(text)
        .into_iter()
        .filter(|t| t.fill == "#1a1a1a" && t.y > TOP && t.y < TOP + frame.height + 20)
        .collect()
}

fn assert_apart(labels: &[Written]) {
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(
                !box_of(a).overlaps(&box_of(b)),
                "the labels {a:?} and {b:?} overlap"
            );
        }
    }
}

/// Unit and general labels overlapped where units stood close (issue 30,
/// item 6): two narrow units side by side, a general attached to one, and
/// every label clear of the others.
#[test]
fn labels_of_units_side_by_side_do_not_overlap() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    let ruleset = ruleset_for(&turn.next.ruleset).expect("known ruleset");
    let look = ruleset.look(&ruleset.read(&turn.next).expect("the state reads"));
    let across = |id: &str| {
        let Some(Shape::Footprint { rect, .. }) = look.get(id).map(|l| l.shape) else {
            return i64::MAX;
        };
        let xs: Vec<i64> = rect.corners().iter().map(|p| p.x).collect();
        xs.iter().max().unwrap_or(&0) - xs.iter().min().unwrap_or(&0)
    };
    // A narrow unit (guns): written at their first places, under each unit
    // at the same height, the labels of two of them side by side would run
    // into each other.
    let first = turn
        .next
        .units
        .iter()
        .find(|u| {
            let label = format!("{} {}/{}", u.id, u.strength, u.original_strength);
            u.eliminated.is_none() && measure::width(&label, 55) > across(&u.id) + 10
        })
        .expect("the demo has a unit narrower than its label")
        .clone();
    let across = across(&first.id);
    let Location::Table { x, y } = first.location else {
        panic!("the demo is on a table");
    };
    let other = turn
        .next
        .units
        .iter()
        .position(|u| u.id != first.id && u.side == first.side)
        .expect("a second unit");
    let mut beside = first.clone();
    beside.id = turn.next.units[other].id.clone();
    beside.location = Location::Table {
        x: x + across + 10,
        y,
    };
    turn.next.units[other] = beside;
    for g in turn.next.generals.iter_mut() {
        if g.side == first.side {
            g.attached_to = Some(first.id.clone());
            g.lost = None;
            break;
        }
    }
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let frame = Frame::of(&turn.next.map, 0);
    let labels = unit_labels(&text, &frame);
    for id in [&first.id, &turn.next.units[other].id] {
        assert!(
            labels.iter().any(|l| l.body.split(' ').next() == Some(id)),
            "no label for {id}: {labels:?}"
        );
    }
    assert_apart(&labels);
    png(&text).expect("renders");
}

/// The labels of a stack of counters in one hex stand clear of each other.
#[test]
fn labels_of_a_stack_do_not_overlap() {
    let turn = stacked_turn();
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    let frame = Frame::of(&turn.next.map, 0);
    let ids: Vec<&str> = turn.next.units.iter().map(|u| u.id.as_str()).collect();
    let labels: Vec<Written> = unit_labels(&text, &frame)
        .into_iter()
        .filter(|l| ids.contains(&l.body.split(' ').next().unwrap_or("")))
        .collect();
    assert_eq!(labels.len(), ids.len(), "{labels:?}");
    assert_apart(&labels);
}

/// Maps showed no strengths (issue 30, item 6): each unit's label gives
/// its strength of its original strength, as the report's order of battle
/// does; a side's opening map gives its own units' strengths alone.
#[test]
fn a_units_label_shows_its_strength() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let text = svg(&input(
        &turn,
        &turn.readings().expect("the states read"),
        None,
    ));
    for u in turn.next.units.iter().filter(|u| u.eliminated.is_none()) {
        let label = format!(">{} {}/{}<", u.id, u.strength, u.original_strength);
        assert!(text.contains(&label), "no {label} in the map");
    }
    let own = turn.next.units[0].side.clone();
    let read = turn.readings().expect("the states read");
    let mut map = input(&turn, &read, None);
    map.strengths = Strengths::OfSide(&own);
    let text = svg(&map);
    for u in turn.next.units.iter().filter(|u| u.eliminated.is_none()) {
        let with = format!(">{} {}/{}<", u.id, u.strength, u.original_strength);
        let bare = format!(">{}<", u.id);
        if u.side == own {
            assert!(text.contains(&with), "no {with} in the map");
        } else {
            assert!(
                text.contains(&bare) && !text.contains(&with),
                "{with} shown"
            );
        }
    }
}
