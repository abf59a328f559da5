//! The report of a resolution: one for each side, showing only what that
//! side can see, and one for the GM with everything. Each is a plain-text
//! body and an HTML body from the templates `report.txt` and `report.html`
//! (the map's caption from `map-caption.txt`), with the map as SVG and PNG.
//!
//! [`prepare`] does the work that depends on the reader (what they see, the
//! despatch, the map); [`render`] fills the templates for one person, whose
//! time zone the deadline is given in.

pub mod audit_footer;
pub mod heard;
pub mod narrative;
pub mod opening;
pub mod outcome;
pub mod sample;

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};

use crate::audit::dice::Roll;
use crate::audit::manifest::orders_digest;
use crate::campaign::{Campaign, Person};
use crate::map::{self, MapError, MapInput};
use crate::rules::look::{EventClass, Look};
use crate::rules::reading::Reading;
use crate::rules::ruleset::Event;
use crate::rules::state::UnitState;
use crate::rules::told::Heard;
use crate::rules::{PhaseKind, Ruleset};
use crate::store::MailPart;
use crate::templates::{TemplateError, Templates};

/// A report could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    #[error(transparent)]
    Map(#[from] MapError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error("the state does not read: {0}")]
    State(#[from] crate::rules::state::PartError),
}

/// Everything a resolution's reports are made from.
pub struct ReportInput<'a> {
    pub campaign: &'a Campaign,
    pub ruleset: &'a dyn Ruleset,
    /// The resolution's number.
    pub k: u64,
    /// The phase that was resolved, e.g. `turn 1 orders (french active)`.
    pub phase: &'a str,
    pub prior: &'a Reading<'a>,
    pub next: &'a Reading<'a>,
    pub events: &'a [Event],
    pub rolls: &'a [Roll],
    /// Each side's canonical orders, by side id; a side that sent none is
    /// absent.
    pub orders: &'a BTreeMap<String, String>,
    pub manifest_digest: String,
    /// The secret it revealed, both commitments, the other seed inputs and
    /// the record's head: what lets a reader check its dice.
    pub audit: audit_footer::AuditFooter,
    /// The next phase's deadline, if the game goes on.
    pub deadline: Option<DateTime<Utc>>,
    /// Where each audience reads this resolution in the campaign's chronicle
    /// on the web (`chronicle::publish`), where the campaign has one.
    pub chronicle: BTreeMap<Audience, String>,
}

/// Who a report is for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    Side(String),
    Gm,
    /// A campaign's observers: what every side sees, and nothing that any
    /// side alone knows (ruling REP-4).
    Public,
}

impl Audience {
    /// Who reads, as the rules' telling takes it.
    pub fn who(&self) -> crate::rules::told::Who<'_> {
        match self {
            Audience::Side(s) => crate::rules::told::Who::Side(s),
            Audience::Gm => crate::rules::told::Who::Gm,
            Audience::Public => crate::rules::told::Who::Public,
        }
    }

    /// The word for the audience in file and folder names: the side's id,
    /// `gm` or `public`.
    pub fn word(&self) -> &str {
        match self {
            Audience::Side(s) => s,
            Audience::Gm => "gm",
            Audience::Public => "public",
        }
    }
}

/// What one audience is shown of a resolution, before any picture is
/// drawn: what it sees, the template context and the map as SVG. The
/// reports and the chronicle both start from it, so that they show the same.
pub struct View {
    pub audience: Audience,
    /// The units and generals the audience sees, by id; `None` for all.
    pub visible: Option<BTreeSet<String>>,
    pub context: Value,
    pub svg: String,
}

/// A report made for one audience, before it is written for one person.
pub struct Prepared {
    pub audience: Audience,
    /// The template context, without the person's own lines.
    context: Value,
    pub svg: String,
    pub png: Vec<u8>,
}

/// One person's report.
#[derive(Debug, Clone)]
pub struct Report {
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The inline map PNG (with a content id) and the PNG and SVG attached.
    pub parts: Vec<MailPart>,
}

#[derive(Serialize)]
struct UnitLine {
    id: String,
    name: String,
    /// What it is, in the ruleset's words: `line-infantry, grade B`.
    kind: String,
    /// How it stands, where the ruleset has formations: `column`.
    formation: Option<String>,
    strength: u32,
    original_strength: u32,
    /// "shaken, disordered", or empty.
    states: String,
    /// Why it left play, if it did.
    eliminated: Option<String>,
}

fn unit_line(u: &UnitState, look: &Look) -> UnitLine {
    let unit_look = look.get(&u.id);
    UnitLine {
        id: u.id.clone(),
        name: u.name.clone(),
        kind: unit_look.map(|l| l.kind.clone()).unwrap_or_default(),
        formation: unit_look.and_then(|l| l.formation.clone()),
        strength: u.strength,
        original_strength: u.original_strength,
        states: unit_look
            .map(|l| {
                l.markers
                    .iter()
                    .map(|m| m.label)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default(),
        eliminated: u.eliminated.clone(),
    }
}

fn roll_line(r: &Roll) -> Value {
    let faces = if r.faces.len() > 1 {
        format!(
            " ({})",
            r.faces
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("+")
        )
    } else {
        String::new()
    };
    json!({
        "index": r.index,
        "purpose": r.purpose,
        "die": r.die.label(),
        "value": r.value,
        "faces": faces,
    })
}

/// What `audience` sees of `state` once `events` are over: the ids of the
/// units and generals in its sight, `None` (everything) for the GM. The one
/// place a report, its map and the chronicle learn it.
pub fn visibility(
    ruleset: &dyn Ruleset,
    state: &Reading,
    audience: &Audience,
    events: &[Event],
) -> Option<BTreeSet<String>> {
    match audience {
        Audience::Side(s) => Some(map::with_generals(
            state,
            s,
            ruleset.visible_to(state, s, events),
        )),
        Audience::Gm => None,
        // What every side sees: a unit out of any side's sight is out of
        // the public's.
        Audience::Public => state.sides.iter().fold(None, |common, s| {
            let seen = map::with_generals(state, s, ruleset.visible_to(state, s, events));
            Some(match common {
                None => seen,
                Some(common) => common.intersection(&seen).cloned().collect(),
            })
        }),
    }
}

/// The work of one audience's report: what it sees, its despatch, its map.
pub fn prepare(input: &ReportInput, audience: Audience) -> Result<Prepared, ReportError> {
    let view = view(input, audience);
    let png = map::png(&view.svg)?;
    Ok(Prepared {
        audience: view.audience,
        context: view.context,
        svg: view.svg,
        png,
    })
}

/// One audience's share of a resolution: what it sees, its despatch, its
/// order of battle, its dice, its map as SVG.
pub fn view(input: &ReportInput, audience: Audience) -> View {
    let next = input.next;
    let side = audience.who().side();
    let visible = visibility(input.ruleset, next, &audience, input.events);
    let look = input.ruleset.look(next);
    let hearer = heard::Audience::new(audience.who(), visible.as_ref(), input.prior, next);
    let heard: Vec<(Heard, EventClass)> = input
        .events
        .iter()
        .map(|e| {
            let class = e.class(|k| input.ruleset.event_class(k));
            (hearer.event(e), class)
        })
        .collect();
    let prior_look = input.ruleset.look(input.prior);
    let sectors = narrative::despatch(
        (input.prior, next),
        (&prior_look, &look),
        input.events,
        &heard,
        &hearer,
        &|id| input.campaign.side_name(id),
    );

    let forces = order_of_battle(input, &audience, visible.as_ref(), &look);

    let (shown, withheld): (Vec<&Roll>, Vec<&Roll>) =
        input.rolls.iter().partition(|r| hearer.roll(r));
    let dice: Vec<Value> = shown.iter().copied().map(roll_line).collect();
    let shown_rolls = shown;

    let orders = orders_shown(input, &audience);

    let phase = input.ruleset.phase_of(next);
    let gives_orders = match (side, phase.kind) {
        (None, _) => false,
        (Some(_), PhaseKind::AllSides) => true,
        (Some(s), PhaseKind::ActiveSide) => s == next.active_side,
    };
    let template: Vec<String> = side
        .map(|s| input.ruleset.order_template(next, s))
        .unwrap_or_default();
    let reader_name = match &audience {
        Audience::Side(s) => input.campaign.side_name(s),
        Audience::Gm => "the GM".to_string(),
        Audience::Public => "observers".to_string(),
    };
    let file_stem = format!("{}-r{}-{}", input.campaign.id, input.k, audience.word());
    // The map draws what the reader learnt of, even only that its own
    // troops were in action: their arrows keep their style.
    let drawn: Vec<Event> = input
        .events
        .iter()
        .zip(&heard)
        .filter(|(_, (h, _))| *h != Heard::Nothing)
        .map(|(e, _)| e.clone())
        .collect();
    let svg = map::svg(&MapInput {
        title: &format!(
            "{}: after {} ({})",
            input.campaign.title, input.phase, reader_name
        ),
        ruleset: input.ruleset,
        prior: input.prior,
        next,
        events: &drawn,
        visible: visible.as_ref(),
        strengths: map::Strengths::Seen,
    });
    let context = json!({
        "campaign": {
            "id": input.campaign.id,
            "title": input.campaign.title,
            "ruleset": input.campaign.ruleset.id,
        },
        "k": input.k,
        "phase": input.phase,
        "reader": {
            "gm": audience == Audience::Gm,
            "observer": audience == Audience::Public,
            "side": side,
            "name": reader_name,
        },
        "sectors": sectors,
        "forces": forces,
        "dice": dice,
        "dice_withheld": withheld.len(),
        "orders": orders,
        "manifest_digest": input.manifest_digest,
        "finished": outcome::ending(input.campaign, input.ruleset, next),
        "victory": outcome::context(input.campaign, input.ruleset, next),
        "next": {
            "phase": crate::resolution::phase_label(input.ruleset, next),
            "summary": phase.summary,
            "active_side": next.active_side,
            "active_side_name": input.campaign.side_name(&next.active_side),
            "gives_orders": gives_orders,
            "subject": format!("[{}] orders turn {}", input.campaign.id, next.turn),
            "template": template,
        },
        "secret": input.audit.secret,
        "commitment": input.audit.commitment,
        "audit": input.audit,
        "dice_command": input.audit.dice_command(&shown_rolls),
        "map": {
            "cid": format!("{file_stem}.png@adjutant"),
            "png": format!("{file_stem}.png"),
            "svg": format!("{file_stem}.svg"),
        },
        "chronicle": input.chronicle.get(&audience),
    });
    View {
        audience,
        visible,
        context,
        svg,
    }
}

/// The order of battle as `side` (`None`: the GM) sees it: its own side
/// first, then the others as far as they are seen.
fn order_of_battle(
    input: &ReportInput,
    audience: &Audience,
    visible: Option<&BTreeSet<String>>,
    look: &Look,
) -> Vec<Value> {
    let side = audience.who().side();
    let next = input.next;
    let sees = |id: &str| visible.is_none_or(|v| v.contains(id));
    let mut sides: Vec<&String> = next.sides.iter().collect();
    if let Some(own) = side {
        sides.sort_by_key(|s| s.as_str() != own);
    }
    sides
        .iter()
        .map(|s| {
            let units: Vec<UnitLine> = next
                .units
                .iter()
                .filter(|u| &u.side == *s && sees(&u.id))
                .map(|u| unit_line(u, look))
                .collect();
            let generals: Vec<Value> = next
                .generals
                .iter()
                .filter(|g| &g.side == *s)
                .filter(|g| map::general_seen(visible, g))
                .map(|g| {
                    json!({
                        "id": g.id,
                        "name": g.name,
                        "attached_to": g.attached_to.as_deref().map(|u| next.unit(u).map_or(u.to_string(), |u| u.name.clone())),
                        "lost": g.lost,
                    })
                })
                .collect();
            json!({
                "id": s,
                "name": input.campaign.side_name(s),
                "own": match audience {
                Audience::Gm => true,
                Audience::Side(own) => own == *s,
                Audience::Public => false,
            },
                "units": units,
                "generals": generals,
            })
        })
        .collect()
}

/// Each side's orders with their digest; their lines only to their own
/// side and the GM.
fn orders_shown(input: &ReportInput, audience: &Audience) -> Vec<Value> {
    input
        .next
        .sides
        .iter()
        .map(|s| {
            let text = input.orders.get(s);
            let lines: Vec<&str> = match text {
                Some(t)
                    if match audience {
                        Audience::Gm => true,
                        Audience::Side(own) => own == s,
                        Audience::Public => false,
                    } =>
                {
                    t.lines().collect()
                }
                _ => Vec::new(),
            };
            json!({
                "side": s,
                "name": input.campaign.side_name(s),
                "digest": text.map(|t| orders_digest(t).to_hex()),
                "lines": lines,
            })
        })
        .collect()
}

/// The reports of several audiences, each made on its own thread: they
/// share nothing but the input, and the map of each is the larger part of
/// the work.
pub fn prepare_all(
    input: &ReportInput,
    audiences: Vec<Audience>,
) -> Result<Vec<Prepared>, ReportError> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = audiences
            .into_iter()
            .map(|a| scope.spawn(move || prepare(input, a)))
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(result) => result,
                // A panic in one report is the program's fault, not the
                // input's; it is passed on as it is.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// What the map's markers mean, as the caption says it: `S, D and B mark
/// shaken, disordered and blown units`; empty for a ruleset without any.
fn markers_sentence(markers: &[crate::rules::look::Marker]) -> String {
    let letters: Vec<String> = markers.iter().map(|m| m.letter.to_string()).collect();
    let labels: Vec<String> = markers.iter().map(|m| m.label.to_string()).collect();
    match markers.len() {
        0 => String::new(),
        1 => format!("{} marks {} units", letters[0], labels[0]),
        _ => format!(
            "{} mark {} units",
            narrative::join_names(&letters),
            narrative::join_names(&labels)
        ),
    }
}

/// Who a report is written for: a player, the game master or an observer.
#[derive(Debug, Clone, Copy)]
pub struct Addressee<'a> {
    pub name: &'a str,
    pub address: &'a str,
    /// For the times the report gives.
    pub time_zone: &'a str,
}

impl<'a> From<&'a Person> for Addressee<'a> {
    fn from(p: &'a Person) -> Self {
        Addressee {
            name: &p.name,
            address: &p.address,
            time_zone: &p.time_zone,
        }
    }
}

impl<'a> From<&'a crate::campaign::Observer> for Addressee<'a> {
    fn from(o: &'a crate::campaign::Observer) -> Self {
        Addressee {
            name: &o.name,
            address: &o.address,
            time_zone: &o.time_zone,
        }
    }
}

/// The report of `prepared` written for `person`.
pub fn render(
    input: &ReportInput,
    prepared: &Prepared,
    person: Addressee<'_>,
    templates: &Templates,
) -> Result<Report, ReportError> {
    let mut context = prepared.context.clone();
    context["person"] = json!({ "name": person.name, "address": person.address });
    context["next"]["deadline"] = json!(
        input
            .deadline
            .map(|d| crate::lifecycle::local_time_in(person.time_zone, d))
    );
    context["map"]["markers"] = json!(markers_sentence(input.ruleset.markers()));
    context["map"]["grid"] = json!(match input.next.map {
        crate::rules::board::MapSpec::Table { .. } => "the grid is in inches",
        crate::rules::board::MapSpec::Hex { .. } =>
            "each hex is numbered by its column then its row",
    });
    let caption = templates.render("map-caption.txt", &context)?;
    context["map"]["caption"] = json!(caption.trim_end());
    let text = templates.render("report.txt", &context)?;
    let html = templates.render("report.html", &context)?;
    let names = &context["map"];
    let name = |key: &str| names[key].as_str().unwrap_or_default().to_string();
    let parts = vec![
        // Once: shown in the HTML, and an attachment to a reader of the
        // text (see `outbound::message`).
        MailPart {
            filename: name("png"),
            content_type: "image/png".to_string(),
            content_id: Some(name("cid")),
            bytes: prepared.png.clone(),
        },
        MailPart {
            filename: name("svg"),
            content_type: "image/svg+xml".to_string(),
            content_id: None,
            bytes: prepared.svg.clone().into_bytes(),
        },
    ];
    Ok(Report {
        subject: format!("resolution {}: {}", input.k, input.phase),
        text,
        html,
        parts,
    })
}

#[cfg(test)]
mod tests;
