//! The Sound the Charge order language, syntax step: properties beyond the
//! case catalog (`tests/cases/sound-the-charge/orders/`, run by
//! `case_catalog`).
//!
//! A round-trip property over generated orders (`parse(display(o)) == o`),
//! a sweep of generated junk lines that must never panic and whose accepted
//! lines must read back as themselves, and the examples of the player's
//! reference.

mod support;

use std::fs;

use adjutant::rules::sound_the_charge::orders::{
    Approach, Facing, Formation, Place, Side, StcOrder, Step, UnitRef, Written, parse,
};
use support::seeded::SplitMix;

/// Every example order in the player's reference reads.
#[test]
fn the_examples_in_orders_md_read() {
    let text = fs::read_to_string("docs/ORDERS.md").expect("docs/ORDERS.md exists");
    let mut read = 0;
    for line in text.lines().filter(|l| l.starts_with("    ")) {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with("salt ") || line.contains(['<', '|', '[']) {
            continue;
        }
        if let Err(e) = parse(line) {
            panic!("docs/ORDERS.md example `{line}` does not read: {e}");
        }
        read += 1;
    }
    assert!(read >= 40, "only {read} examples found in docs/ORDERS.md");
}

/// Generated orders from a seeded generator, so that every run tests the
/// same orders and a failure can be replayed.
struct Gen(SplitMix);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn coin(&mut self) -> bool {
        self.below(2) == 0
    }

    fn word<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Unit references, including names with spaces, accents, brackets,
    /// digits, commas and ids that are also order words.
    fn unit(&mut self) -> UnitRef {
        let fixed = [
            "2-ligne",
            "1er régiment de ligne",
            "17e léger (voltigeurs)",
            "garde",
            "hold",
            "line",
            "12",
            "2.5",
            "l",
            "ney",
            "boat-1",
            "régiment, 2e bataillon",
            "x:y",
            "ω",
            "the",
            "6-foot",
        ];
        if self.below(3) > 0 {
            let name = self.word(&fixed);
            return UnitRef::new(name);
        }
        let letters = ['a', 'b', 'é', '1', '2', '-', 'z', 'ü', '/', 'ß'];
        let words = 1 + self.below(3);
        let mut name = Vec::new();
        for _ in 0..words {
            let len = 1 + self.below(6);
            name.push((0..len).map(|_| *self.pick(&letters)).collect::<String>());
        }
        UnitRef::new(&name.join(" "))
    }

    fn units(&mut self, at_least: usize) -> Vec<UnitRef> {
        (0..at_least + self.below(3)).map(|_| self.unit()).collect()
    }

    fn distance(&mut self) -> u32 {
        match self.below(4) {
            0 => 100 * (1 + self.below(24) as u32),
            1 => 25 * (1 + self.below(80) as u32),
            2 => 1 + self.below(99_899) as u32,
            _ => 50 + 100 * self.below(18) as u32,
        }
    }

    fn side(&mut self) -> Side {
        *self.pick(&[Side::Left, Side::Right])
    }

    fn facing(&mut self) -> Facing {
        *self.pick(&[Facing::Left, Facing::Right, Facing::About])
    }

    fn place(&mut self) -> Place<UnitRef> {
        if self.coin() {
            Place::Unit(self.unit())
        } else {
            Place::Point {
                x: self.below(99_900) as u32,
                y: self.below(99_900) as u32,
            }
        }
    }

    fn step(&mut self) -> Step {
        match self.below(5) {
            0 => Step::Forward {
                distance: self.distance(),
            },
            1 => Step::Backstep {
                distance: self.distance(),
            },
            2 => Step::Sidestep {
                side: self.side(),
                distance: self.distance(),
            },
            3 => Step::Oblique {
                side: self.side(),
                distance: self.distance(),
            },
            _ => Step::Wheel {
                side: self.side(),
                degrees: 1 + self.below(180) as u32,
                backward: self.coin(),
            },
        }
    }

    fn maybe<T>(&mut self, f: impl FnOnce(&mut Gen) -> T) -> Option<T> {
        if self.coin() { Some(f(self)) } else { None }
    }

    fn order(&mut self) -> Written {
        let unit = self.unit();
        match self.below(21) {
            0 => StcOrder::Hold { unit },
            1 => StcOrder::Move {
                unit,
                road: self.coin(),
                steps: (0..1 + self.below(5)).map(|_| self.step()).collect(),
                through: if self.coin() {
                    Vec::new()
                } else {
                    self.units(1)
                },
            },
            2 => StcOrder::Form {
                unit,
                formation: *self.pick(&[
                    Formation::Line,
                    Formation::Column,
                    Formation::Square,
                    Formation::Skirmish,
                    Formation::LLeft,
                    Formation::LRight,
                    Formation::U,
                    Formation::Masse,
                    Formation::Limbered,
                    Formation::Unlimbered,
                ]),
                facing: self.maybe(Gen::facing),
            },
            3 => StcOrder::Face {
                unit,
                facing: self.facing(),
            },
            4 => StcOrder::Manhandle {
                unit,
                to: self.place(),
                toward: self.maybe(Gen::place),
            },
            5 => StcOrder::MoveTo {
                unit,
                to: self.place(),
                toward: self.maybe(Gen::place),
            },
            6 => StcOrder::LeaveGuns {
                unit,
                to: self.maybe(Gen::place),
            },
            7 => StcOrder::ManGuns { unit },
            8 => StcOrder::Charge {
                unit,
                target: self.unit(),
                approach: match self.below(3) {
                    0 => Approach::Straight,
                    1 => Approach::Wheel(self.side()),
                    _ => Approach::Oblique(self.side()),
                },
                through: if self.coin() {
                    Vec::new()
                } else {
                    self.units(1)
                },
            },
            9 => StcOrder::Evade {
                unit,
                into: self.maybe(Gen::unit),
            },
            10 => StcOrder::Shoot {
                unit,
                target: self.unit(),
                split: self.maybe(Gen::unit),
                through_skirmishers: self.coin(),
                at_regimental_gun: self.coin(),
            },
            11 => StcOrder::SkirmishersOut { unit },
            12 => StcOrder::SkirmishersIn { unit },
            13 => StcOrder::Screen {
                unit,
                screened: self.units(1),
            },
            14 => StcOrder::Attach {
                unit,
                to: self.unit(),
            },
            15 => StcOrder::Detach { unit },
            16 => StcOrder::Reform { unit },
            17 => StcOrder::Reinforce {
                unit,
                friend: self.unit(),
            },
            18 => StcOrder::Retreat {
                unit,
                distance: self.maybe(Gen::distance),
            },
            19 => StcOrder::Embark {
                unit,
                boat: self.unit(),
            },
            _ => StcOrder::Disembark { unit },
        }
    }
}

#[test]
fn every_order_reads_back_from_its_canonical_text() {
    let mut g = Gen(SplitMix(0x5eed_0004));
    for i in 0..20_000 {
        let order = g.order();
        let text = order.to_string();
        assert_eq!(
            text,
            text.to_lowercase(),
            "order {i}: canonical text is not lower case"
        );
        match parse(&text) {
            Ok(again) => assert_eq!(again, order, "order {i}: `{text}` reads back differently"),
            Err(e) => panic!("order {i}: `{text}` ({order:?}) does not read back: {e}"),
        }
    }
}

#[test]
fn junk_lines_never_panic_and_accepted_lines_are_stable() {
    let fragments = [
        "2-ligne",
        ":",
        ",",
        ";",
        "\"",
        "\"1er régiment\"",
        "forward",
        "advance",
        "4",
        "2.5",
        "2-1/2",
        "1/2",
        "3\"",
        "3in",
        "inches",
        "wheel",
        "left",
        "right",
        "back",
        "45",
        "45°",
        "180",
        "0",
        "999",
        "99999",
        "form",
        "column",
        "face",
        "about",
        "charge",
        "shoot",
        "at",
        "split",
        "through",
        "and",
        "then",
        "by road",
        "to",
        "12,30",
        "(12,",
        "30)",
        "move",
        "evade",
        "into",
        "retreat",
        "screen",
        "attach",
        "détaché",
        "ω",
        "\u{201c}",
        "\u{201d}",
        "İ",
        "ﬀ",
        "\u{0}",
        "\t",
        "  ",
        "-",
        "/",
        ".",
        "..",
        "1e9",
        "-1",
        "one die at gun",
        "skirmishers",
        "out",
        "limber",
        "manhandle",
        "man guns",
        "leave guns",
        "hold",
    ];
    let mut g = Gen(SplitMix(0x00ba_d11e));
    let mut accepted = 0;
    for i in 0..30_000 {
        let count = 1 + g.below(12);
        let mut line = String::new();
        for _ in 0..count {
            if g.below(8) == 0 {
                line.push(char::from_u32(g.below(0x3000) as u32).unwrap_or('?'));
            } else {
                line.push_str(g.word(&fragments));
            }
            if g.below(4) > 0 {
                line.push(' ');
            }
        }
        if i % 1000 == 0 {
            line = line.repeat(200);
        }
        match parse(&line) {
            Ok(order) => {
                accepted += 1;
                let text = order.to_string();
                assert_eq!(
                    parse(&text).as_ref(),
                    Ok(&order),
                    "line {i} `{line}` reads as `{text}`, which reads back differently"
                );
            }
            Err(e) => {
                let chars = line.chars().count();
                assert!(
                    e.column >= 1 && e.column <= chars.max(1000) + 1,
                    "line {i} `{line}`: column {} out of range",
                    e.column
                );
                assert!(
                    !e.expected.is_empty() && !e.hint.is_empty(),
                    "line {i}: {e}"
                );
            }
        }
    }
    assert!(accepted > 100, "only {accepted} junk lines were orders");
}
