//! The umpire's fire call: one fire attack set up in words, as an umpire
//! measuring a real table would give it ("6 x 12pdr, class B, roundshot,
//! massed target, 8 inches"), resolved by the Fire Routine with every
//! lookup, modifier and die shown.

use serde::Serialize;

use super::words;
use crate::audit::dice::Dice;
use crate::geometry::Hundredths;
use crate::rules::percentile_fire::ground::TerrainKind;
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::mechanics::fire::factors::{
    self, Circumstances, Occasion, ScreenReading,
};
use crate::rules::percentile_fire::mechanics::fire::routine::{
    self, Against, FireAttack, FireResult, Readings, Routine,
};
use crate::rules::percentile_fire::mechanics::fire::zone::{self, FiringLine, Zoned};
use crate::rules::percentile_fire::params::{Category, Params, WeaponKind};
use crate::rules::percentile_fire::state::{Class, Shot, Word};
use crate::rules::umpire::{Called, Trace, UmpireError, unread};
use crate::rules::words::{Cursor, MAX_NUMBER, ReadError, Token, inches, inches_in};

/// A fire call as written, checked for its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireCall {
    /// Figures or cannon firing; for a square, all its figures (11.24a).
    pub count: u32,
    pub weapon: String,
    pub class: Class,
    pub shot: Option<Shot>,
    pub line: Option<FiringLine>,
    pub category: Category,
    pub range: Hundredths,
    pub against: Against,
    /// The target battery stands in a square (11.78).
    pub target_in_square: bool,
    /// Artillery placed within a square (11.24a).
    pub in_square: bool,
    pub disordered: bool,
    pub in_building: bool,
    pub occasion: Option<Occasion>,
    pub charging: bool,
    pub attack: u32,
    pub screened: bool,
    pub indirect: bool,
    pub militia: bool,
    pub officers: u32,
    pub artillery_officer: bool,
    pub cover: Option<TerrainKind>,
    pub named: Vec<String>,
}

const FORM: &str = "fire <n> x <weapon> class <A|B|C> [<shot>|<line>] <massed|linear> <range>";

fn syntax(call: &str, problem: impl Into<String>) -> UmpireError {
    UmpireError::Syntax {
        call: call.to_string(),
        problem: format!("{}; write {FORM}", problem.into()),
    }
}

fn forbidden(f: Refusal) -> UmpireError {
    UmpireError::Forbidden {
        problem: f.problem,
        clause: f.clause.unwrap_or_default(),
    }
}

/// What a call must give, as read so far: the firing class, the target's
/// category and the range.
#[derive(Default)]
struct Given {
    class: Option<Class>,
    category: Option<Category>,
    range: Option<Hundredths>,
}

impl FireCall {
    /// Reads a fire call; the weapons are the campaign's: the number and
    /// the weapon first, then its words in any order, then what they give
    /// checked together.
    pub fn parse(text: &str, params: &Params) -> Result<FireCall, UmpireError> {
        FireCall::read(&mut words::cursor(text), params)
            .map_err(|e| unread(text, &e, FORM))?
            .checked(text, params)
    }

    fn read(w: &mut Cursor, params: &Params) -> Result<FireCall, ReadError> {
        w.expect("fire")?;
        let count = w.number("the number firing", 0..=MAX_NUMBER)?;
        w.eat("x");
        let weapons = || {
            let names: Vec<&str> = params.weapons.keys().map(String::as_str).collect();
            format!("a weapon of the campaign ({})", names.join(", "))
        };
        let weapon = w.word(&weapons())?;
        if !params.weapons.contains_key(&weapon.text) {
            return Err(ReadError::at(&weapon, weapons()));
        }
        let mut call = FireCall::plain(count, weapon.text);
        let mut given = Given::default();
        while let Some(word) = w.next() {
            call.read_word(w, &word, &mut given, params)?;
        }
        let end = w.end_column();
        call.class = given
            .class
            .ok_or_else(|| ReadError::end(end, "the firing class: class A, B or C"))?;
        call.category = given
            .category
            .ok_or_else(|| ReadError::end(end, "the target: massed or linear"))?;
        call.range = given
            .range
            .ok_or_else(|| ReadError::end(end, "the range in inches, as 8\""))?;
        Ok(call)
    }

    /// Checks what the words give together, once they read.
    fn checked(mut self, text: &str, params: &Params) -> Result<FireCall, UmpireError> {
        self.check_line(text, params)?;
        self.named.sort();
        self.named.dedup();
        Ok(self)
    }

    /// A call of `count` x `weapon` before its words are read.
    fn plain(count: u32, weapon: String) -> FireCall {
        FireCall {
            count,
            weapon,
            class: Class::B,
            shot: None,
            line: None,
            category: Category::Linear,
            range: 0,
            against: Against::Figures,
            target_in_square: false,
            in_square: false,
            disordered: false,
            in_building: false,
            occasion: None,
            charging: false,
            attack: 1,
            screened: false,
            indirect: false,
            militia: false,
            officers: 0,
            artillery_officer: false,
            cover: None,
            named: Vec::new(),
        }
    }

    /// One word of the call (with the words it takes after it).
    fn read_word(
        &mut self,
        w: &mut Cursor,
        word: &Token,
        given: &mut Given,
        params: &Params,
    ) -> Result<(), ReadError> {
        match word.text.as_str() {
            "class" => {
                const CLASS: &str = "the firing class, A, B or C";
                let c = w.word(CLASS)?;
                given.class = Some(
                    Class::from_word(&c.text.to_uppercase())
                        .ok_or_else(|| ReadError::at(&c, CLASS))?,
                );
            }
            "massed" | "linear" => {
                given.category = Some(if word.text == "massed" {
                    Category::Massed
                } else {
                    Category::Linear
                });
                w.eat("target");
            }
            "against" => {
                (self.against, self.target_in_square) = w.expect_any(
                    &[
                        ("battery", (Against::Battery, false)),
                        ("battery-in-square", (Against::Battery, true)),
                        ("train", (Against::Train, false)),
                        ("figures", (Against::Figures, false)),
                    ],
                    "battery, battery-in-square or train",
                )?;
            }
            "in-square" => self.in_square = true,
            "disordered" => self.disordered = true,
            "in-building" => self.in_building = true,
            "charging" => self.charging = true,
            "screened" => self.screened = true,
            "indirect" => self.indirect = true,
            "militia" => self.militia = true,
            "artillery-officer" => self.artillery_officer = true,
            "officer" => self.officers = self.officers.max(1),
            "officers" => self.officers = w.number("the officers attached", 0..=MAX_NUMBER)?,
            "attack" => {
                self.attack = w.number("which fire attack of the phase", 1..=MAX_NUMBER)?;
            }
            "cover" => {
                let kinds = || format!("a kind of cover: {}", TerrainKind::KINDS.join(", "));
                let kind = w.word(&kinds())?;
                self.cover = Some(
                    TerrainKind::parse(&kind.text).ok_or_else(|| ReadError::at(&kind, kinds()))?,
                );
            }
            "with" => {
                let name = w.word("a modifier")?;
                self.named.push(name.text);
                while w.eat("and") || w.peek().is_some_and(|n| params.modifiers.contains_key(n)) {
                    if let Some(n) = w.next() {
                        self.named.push(n.text);
                    }
                }
            }
            _ => self.read_value(w, word, given)?,
        }
        Ok(())
    }

    /// A word that is a value of its own: an occasion, a shot, a small
    /// arms line or a range.
    fn read_value(
        &mut self,
        w: &mut Cursor,
        word: &Token,
        given: &mut Given,
    ) -> Result<(), ReadError> {
        let other = word.text.as_str();
        if let Some(o) = Occasion::from_word(other) {
            self.occasion = Some(o);
        } else if let Some(s) = Shot::from_word(other) {
            self.shot = Some(s);
        } else if let Some(l) = FiringLine::from_word(other) {
            self.line = Some(l);
        } else if let Some(h) = inches_in(other) {
            given.range = Some(i64::from(h));
            w.eat_inch_word();
        } else {
            return Err(ReadError::at(word, "a word of the call"));
        }
        Ok(())
    }

    /// Small arms fire by a line and no artillery shot (11.16); artillery
    /// by its shot and no line (11.15).
    fn check_line(&mut self, text: &str, params: &Params) -> Result<(), UmpireError> {
        let kind = params.weapons.get(&self.weapon).map(|w| w.kind);
        if kind == Some(WeaponKind::SmallArms) {
            if self.shot.is_some_and(|s| s != Shot::Ball) {
                return Err(syntax(text, "small arms fire no shot of artillery"));
            }
            self.shot = None;
            if self.line.is_none() {
                return Err(syntax(
                    text,
                    format!("give the firer's line: {}", FiringLine::WORDS.join(", ")),
                ));
            }
        } else if self.line.is_some() {
            return Err(syntax(text, "artillery fires no small arms line"));
        }
        Ok(())
    }

    /// The call's one canonical form.
    pub fn canonical(&self) -> String {
        let mut out = format!("fire {} x {} class {}", self.count, self.weapon, self.class);
        if let Some(s) = self.shot {
            out.push_str(&format!(" {s}"));
        }
        if let Some(l) = self.line {
            out.push_str(&format!(" {}", l.word()));
        }
        out.push_str(&format!(
            " {} {}\"",
            self.category.word(),
            inches(self.range)
        ));
        let mut words: Vec<String> = Vec::new();
        let mut flag = |on: bool, word: &str| {
            if on {
                words.push(word.to_string());
            }
        };
        flag(
            self.against == Against::Battery && !self.target_in_square,
            "against battery",
        );
        flag(self.target_in_square, "against battery-in-square");
        flag(self.against == Against::Train, "against train");
        flag(self.in_square, "in-square");
        flag(self.disordered, "disordered");
        flag(self.in_building, "in-building");
        flag(self.militia, "militia");
        if let Some(o) = self.occasion {
            words.push(o.word().to_string());
        }
        if self.charging {
            words.push("charging".into());
        }
        if self.attack > 1 {
            words.push(format!("attack {}", self.attack));
        }
        for (on, word) in [
            (self.screened, "screened"),
            (self.indirect, "indirect"),
            (self.artillery_officer, "artillery-officer"),
        ] {
            if on {
                words.push(word.to_string());
            }
        }
        if self.officers > 0 {
            words.push(format!("officers {}", self.officers));
        }
        if let Some(c) = &self.cover {
            words.push(format!("cover {c}"));
        }
        for n in &self.named {
            words.push(format!("with {n}"));
        }
        for w in words {
            out.push(' ');
            out.push_str(&w);
        }
        out
    }
}

/// What a fire call gives: the routine's result, and how many fired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FireCallResult {
    #[serde(flatten)]
    pub fire: FireResult,
    pub routine_name: &'static str,
}

/// Sets the call's attack up and runs the routine.
pub fn resolve(
    call: &FireCall,
    params: &Params,
    readings: Readings,
    screen: ScreenReading,
    dice: &mut dyn Dice,
) -> Result<Called<FireCallResult>, UmpireError> {
    let attack = set_up(call, params, screen).map_err(forbidden)?;
    let mut trace = Trace::default();
    let fire = routine::resolve(&attack, params, readings, dice, &mut trace).map_err(|g| {
        UmpireError::Forbidden {
            problem: g.0,
            clause: "11.15 step 5: \"Determine the correct Fire Chart row to use\"".to_string(),
        }
    })?;
    trace.outcome = format!(
        "{}% to hit; roll {}: {}",
        fire.percent,
        routine::d100_text(fire.roll),
        if fire.lost == 0 {
            "no loss".to_string()
        } else {
            format!(
                "{} {} lost{}{}",
                fire.lost,
                match (call.against, attack.routine) {
                    (Against::Battery, Routine::Artillery) => "cannon",
                    (Against::Train, Routine::Artillery) => "train material",
                    (Against::Figures, _) => {
                        if fire.lost == 1 { "figure" } else { "figures" }
                    }
                    _ => {
                        if fire.lost == 1 {
                            "crew figure"
                        } else {
                            "crew figures"
                        }
                    }
                },
                fire.officers
                    .iter()
                    .filter_map(|o| o.effect.map(|e| format!("; {} {}", o.officer, e.word())))
                    .collect::<String>(),
                fire.critical
                    .as_ref()
                    .map(|c| format!("; critical hit: {}", c.effect.word()))
                    .unwrap_or_default()
            )
        }
    );
    let routine_name = match attack.routine {
        Routine::Artillery => "11.15 Fire Routine for Artillery",
        Routine::SmallArms => "11.16 Fire Routine for Infantry or Cavalry units",
    };
    Ok(trace.finish(call.canonical(), FireCallResult { fire, routine_name }))
}

/// The call's fire attack: its zone and row, its count, its modifiers.
fn set_up(call: &FireCall, params: &Params, screen: ScreenReading) -> Result<FireAttack, Refusal> {
    let kind = params
        .weapons
        .get(&call.weapon)
        .map(|w| w.kind)
        .ok_or_else(|| Refusal::new(format!("no weapon `{}`", call.weapon), "11.32"))?;
    let routine = if kind == WeaponKind::SmallArms {
        Routine::SmallArms
    } else {
        Routine::Artillery
    };
    may_fire(call, kind)?;
    let mut notes = Vec::new();
    let zoned = zoned(call, params, routine, &mut notes)?;
    notes.insert(0, zoned.note.clone());
    let firing = firing(call, routine, &mut notes);
    let mut category = call.category;
    if routine == Routine::SmallArms && call.range <= 100 && category == Category::Linear {
        category = Category::Massed;
        notes.push(
            "at 1\" or less infantry and cavalry fire uses the Massed target line (11.66)".into(),
        );
    }
    let circumstances = circumstances(call, params);
    if let Some(why) = factors::not_doubled(routine, &circumstances) {
        notes.push(why.to_string());
    }
    if call.screened && routine != Routine::Artillery {
        return Err(Refusal::new(
            "only artillery may engage a unit behind a skirmish screen",
            "11.46: \"Artillery batteries may engage enemy units behind a open order skirmisher formation\"",
        ));
    }
    let factors = factors::factors(routine, &zoned.factors, &circumstances, params, screen)?;
    Ok(FireAttack {
        routine,
        row: zoned.row,
        shot: call.shot.unwrap_or(if routine == Routine::SmallArms {
            Shot::Ball
        } else {
            zone::default_shot(params, &call.weapon)
        }),
        firing,
        class: call.class,
        category,
        range: call.range,
        factors,
        against: call.against,
        officers: (1..=call.officers)
            .map(|i| {
                if call.officers == 1 {
                    "the officer".to_string()
                } else {
                    format!("officer {i}")
                }
            })
            .collect(),
        officer_ids: Vec::new(),
        notes,
        label: format!("{} x {}", call.count, call.weapon),
        concerns: Vec::new(),
    })
}

/// Whether the call's firer may make the attack at all: siege artillery's
/// limits (11.89), one attack a Reciprocal Fire Phase (11.25), no fire
/// from disordered cavalry (11.23), indirect fire only from howitzers and
/// mortars, not rockets nor militia (11.50, 11.56, 11.57), and something
/// firing (11.27).
fn may_fire(call: &FireCall, kind: WeaponKind) -> Result<(), Refusal> {
    if kind == WeaponKind::Siege {
        if call.occasion.is_some() {
            return Err(Refusal::new(
                "siege artillery gives no opportunity, passby, final shock or supportive fire",
                "11.89: \"Siege artillery in any form cannot perform Opportunity, Passby Fire, final Shock Combat Fire, Supportive Fire or'multiple Fire attacks\"",
            ));
        }
        if call.attack > 1 {
            return Err(Refusal::new(
                "siege artillery makes no multiple fire attacks",
                "11.89: \"Siege artillery may only Fire attack once in the Reciprocal Artillery Fire Phase\"",
            ));
        }
    }
    if call.occasion.is_none() && call.attack > 1 {
        return Err(Refusal::new(
            "a unit fires once in a Reciprocal Fire Phase: a second attack is opportunity, passby, final shock or supportive fire",
            "11.25: \"A unit may only fire once during the Reciprocal Fire Phases\"",
        ));
    }
    if call.line == Some(FiringLine::Mounted) && call.disordered {
        return Err(Refusal::new(
            "morale disordered cavalry may never fire",
            "11.23: \"2) Morale disordered Cavalry units\"",
        ));
    }
    if call.indirect {
        if !kind.fires_indirect() {
            return Err(Refusal::new(
                format!(
                    "a {} fires no indirect fire: only howitzers and mortars",
                    call.weapon
                ),
                if kind == WeaponKind::Rocket {
                    "11.56: \"Rocket Fire attacks cannot use indirect Fire\""
                } else {
                    "11.50: \"Only artillery batteries with howitzers or mortars have a indirect fire capabilities\""
                },
            ));
        }
        if call.militia {
            return Err(Refusal::new(
                "militia rated crews use no indirect fire",
                "11.57: \"Militia rated artillery crews cannot use indirect Fire\"",
            ));
        }
    }
    if call.count == 0 {
        return Err(Refusal::new(
            "nothing fires",
            "11.27: \"A unit's current figure or cannon strength is always used for Fire Combat purposes\"",
        ));
    }
    Ok(())
}

/// The fire zone and chart row (11.32-11.37); artillery's shot, the
/// default where none is named (11.15 step 2).
fn zoned(
    call: &FireCall,
    params: &Params,
    routine: Routine,
    notes: &mut Vec<String>,
) -> Result<Zoned, Refusal> {
    match routine {
        Routine::Artillery => {
            let shot = call
                .shot
                .unwrap_or_else(|| zone::default_shot(params, &call.weapon));
            if call.shot.is_none() {
                notes.push(format!("no shot named: {shot}, the default (11.15 step 2)"));
            }
            zone::artillery(params, &call.weapon, shot, call.range, call.indirect)
        }
        Routine::SmallArms => zone::small_arms(
            params,
            &call.weapon,
            call.line.unwrap_or(FiringLine::TwoRank),
            call.range,
            call.disordered || call.in_building,
        ),
    }
}

/// The figures or cannon firing: in a square, a third of them, rounded up
/// (11.24a).
fn firing(call: &FireCall, routine: Routine, notes: &mut Vec<String>) -> u32 {
    if !(call.in_square || call.line == Some(FiringLine::Square)) {
        return call.count;
    }
    let n = call.count.div_ceil(3);
    notes.push(format!(
        "in square: {} {} divided by three, rounded up: {n} (11.24a)",
        call.count,
        if routine == Routine::Artillery {
            "cannon"
        } else {
            "figures"
        }
    ));
    n
}

/// The circumstances the call's words give the factors.
fn circumstances(call: &FireCall, params: &Params) -> Circumstances {
    Circumstances {
        occasion: call.occasion,
        attack: call.attack,
        target_charging: call.charging,
        screened: call.screened,
        artillery_officer: call.artillery_officer,
        target_battery_dispersed: call.against == Against::Battery && !call.target_in_square,
        cover: match call.cover {
            Some(kind) => params
                .terrain_effect(kind)
                .and_then(|t| t.cover)
                .map(|r| (kind, r)),
            None => None,
        },
        named: call.named.clone(),
    }
}
