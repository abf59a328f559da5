//! Checks `campaign.toml`: the campaign, its ruleset, sides, GM, players,
//! schedule and dice; and builds those parts of the model.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use super::Problem;
use super::keys::TableKeys;
use super::raw::{
    CampaignFile, DiceTable, GmTable, ObserverTable, PlayerTable, RulesetTable, SideTable,
};
use super::source::Source;
use super::values::{self, Ids};
use crate::campaign::model::{
    Auth, Campaign, NoOrdersPolicy, Observer, Observing, Person, Player, RulesetChoice, Scenario,
    Schedule, Side,
};
use crate::campaign::passphrase;
use crate::rules::Ruleset;
use crate::rules::registry::{known_rulesets, ruleset_for};

/// Resolutions the dice chain serves when the campaign does not say: a
/// hash chain of this length takes a few milliseconds to build, and covers
/// a long campaign of one-phase turns.
const DEFAULT_CHAIN_LENGTH: u32 = 1000;

/// The keys `[schedule]` always allows; the others name the ruleset's phases.
const SCHEDULE_KEYS: &[&str] = &[
    "time_zone",
    "deadline_time",
    "reminder",
    "last_reminder",
    "grace",
    "no_orders",
];

/// The campaign file, checked: everything but the scenario.
pub(super) struct CheckedCampaign {
    id: String,
    title: String,
    ruleset: RulesetChoice,
    sides: Vec<Side>,
    gm: Person,
    gm_copies: bool,
    players: Vec<Player>,
    observers: Vec<Observer>,
    schedule: Schedule,
    no_orders_policy: NoOrdersPolicy,
    chain_length: u32,
    beacon: Option<String>,
    drand: Option<crate::campaign::DrandChoice>,
    chronicle_url: Option<String>,
    rules: Option<&'static dyn Ruleset>,
}

/// What the scenario check needs to know of the campaign.
pub(super) struct Context<'a> {
    pub sides: &'a [Side],
    /// `None` when the campaign names a ruleset adjutant does not know;
    /// the scenario's ruleset words then go unchecked.
    pub rules: Option<&'static dyn Ruleset>,
    pub options: &'a [String],
    /// Each side's nation, by side id.
    pub nations: BTreeMap<String, String>,
    pub chain_length: u32,
    /// The campaign's parameters as the ruleset read them.
    pub params: &'a serde_json::Value,
}

impl CheckedCampaign {
    pub fn context(&self) -> Context<'_> {
        Context {
            sides: &self.sides,
            rules: self.rules,
            options: &self.ruleset.options,
            nations: self
                .sides
                .iter()
                .filter_map(|s| Some((s.id.clone(), s.nation.clone()?)))
                .collect(),
            chain_length: self.chain_length,
            params: &self.ruleset.parameters,
        }
    }

    pub fn with_scenario(self, scenario: Scenario) -> Campaign {
        Campaign {
            id: self.id,
            title: self.title,
            ruleset: self.ruleset,
            sides: self.sides,
            gm: self.gm,
            gm_copies: self.gm_copies,
            players: self.players,
            observers: self.observers,
            schedule: self.schedule,
            no_orders_policy: self.no_orders_policy,
            chain_length: self.chain_length,
            beacon: self.beacon,
            drand: self.drand,
            chronicle_url: self.chronicle_url,
            scenario,
        }
    }
}

pub(super) fn check(
    source: &Source,
    file: CampaignFile,
    problems: &mut Vec<Problem>,
) -> CheckedCampaign {
    let head = file.campaign.get_ref();
    values::id(source, &head.id, problems);
    values::text(source, &head.title, "title", problems);

    let (ruleset, rules) = check_ruleset(source, &file.ruleset, problems);
    let sides = check_sides(source, &file.sides, rules, problems);
    let (schedule, no_orders_policy) = check_schedule(source, &file.schedule, rules, problems);
    let mut addresses = BTreeMap::new();
    let gm = check_gm(
        source,
        file.gm.get_ref(),
        &schedule,
        &mut addresses,
        problems,
    );
    let players = check_players(
        source,
        &file.players,
        &file.sides,
        &schedule,
        &mut addresses,
        problems,
    );
    let observers = check_observers(
        source,
        &file.observers,
        file.chronicle.is_some(),
        &schedule,
        &mut addresses,
        problems,
    );
    let (chain_length, beacon, drand) =
        check_dice(source, file.dice.as_ref().map(Spanned::get_ref), problems);

    CheckedCampaign {
        id: head.id.get_ref().clone(),
        title: head.title.get_ref().clone(),
        ruleset,
        sides,
        gm,
        gm_copies: file.gm.get_ref().copies,
        players,
        observers,
        schedule,
        no_orders_policy,
        chain_length,
        beacon,
        drand,
        chronicle_url: check_chronicle(
            source,
            file.chronicle.as_ref().map(Spanned::get_ref),
            problems,
        ),
        rules,
    }
}

/// `[chronicle] url`: an http or https address, kept without its final `/`.
fn check_chronicle(
    source: &Source,
    table: Option<&super::raw::ChronicleTable>,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    let url = &table?.url;
    let text = url.get_ref().trim();
    let web = text.starts_with("https://") || text.starts_with("http://");
    if !web || text.chars().any(char::is_whitespace) || text.contains(['"', '<', '>']) {
        problems.push(source.at(
            url.span(),
            "the chronicle's url must be a web address, e.g. `https://example.org/chronicle`",
        ));
        return None;
    }
    Some(text.trim_end_matches('/').to_string())
}

fn check_ruleset(
    source: &Source,
    spanned: &Spanned<RulesetTable>,
    problems: &mut Vec<Problem>,
) -> (RulesetChoice, Option<&'static dyn Ruleset>) {
    let table = spanned.get_ref();
    let rules = ruleset_for(table.id.get_ref());
    if rules.is_none() {
        values::known(source, &table.id, &known_rulesets(), "ruleset", problems);
    }
    let mut seen = BTreeSet::new();
    for option in &table.options {
        if let Some(rules) = rules {
            values::known(
                source,
                option,
                rules.vocabulary().options,
                "option",
                problems,
            );
        }
        if !seen.insert(option.get_ref()) {
            problems.push(source.at(
                option.span(),
                format!("option `{}` is given twice", option.get_ref()),
            ));
        }
    }
    let parameters = match (rules, &table.parameters) {
        (Some(rules), Some(params)) => {
            let mut keys = TableKeys::new(
                source,
                params.get_ref(),
                params.span(),
                rules.id(),
                problems,
            );
            let read = rules.setup_params(&mut keys);
            keys.report_unknown(&[]);
            read.unwrap_or_default()
        }
        (Some(rules), None) => {
            let empty = super::keys::Table::new();
            // A ruleset that needs parameters says what is missing at
            // the [ruleset] table.
            let mut keys = TableKeys::new(source, &empty, spanned.span(), rules.id(), problems);
            rules.setup_params(&mut keys).unwrap_or_default()
        }
        (None, _) => serde_json::Value::Null,
    };
    let choice = RulesetChoice {
        id: table.id.get_ref().clone(),
        options: table.options.iter().map(|o| o.get_ref().clone()).collect(),
        parameters,
    };
    (choice, rules)
}

fn check_sides(
    source: &Source,
    sides: &[Spanned<SideTable>],
    rules: Option<&'static dyn Ruleset>,
    problems: &mut Vec<Problem>,
) -> Vec<Side> {
    if sides.len() < 2 {
        let span = sides.first().map_or(0..0, Spanned::span);
        problems.push(
            source
                .at(
                    span,
                    format!("a campaign needs at least two sides, not {}", sides.len()),
                )
                .with_hint("give each side a [[side]] table with an id and a name"),
        );
    }
    let mut ids = Ids::default();
    for side in sides.iter().map(Spanned::get_ref) {
        if side.id.get_ref().starts_with('@') {
            problems.push(
                source
                    .at(side.id.span(), "a side id cannot start with `@`")
                    .with_hint("ids are lower-case letters, digits and `-`, such as `french`"),
            );
        } else {
            values::id(source, &side.id, problems);
        }
        ids.claim(source, &side.id, "side", problems);
        values::text(source, &side.name, "side's name", problems);
        if let (Some(nation), Some(rules)) = (&side.nation, rules) {
            values::known(
                source,
                nation,
                rules.vocabulary().nations,
                "nation",
                problems,
            );
        }
    }
    sides
        .iter()
        .map(|s| {
            let s = s.get_ref();
            Side {
                id: s.id.get_ref().clone(),
                name: s.name.get_ref().clone(),
                nation: s.nation.as_ref().map(|n| n.get_ref().clone()),
            }
        })
        .collect()
}

/// The fields a GM and a player share.
struct PersonFields<'a> {
    name: &'a Spanned<String>,
    address: &'a Spanned<String>,
    time_zone: Option<&'a Spanned<String>>,
    passphrase_hash: &'a Spanned<String>,
    require_dkim: bool,
}

/// Who already has each address (lower-cased), for the duplicate check:
/// mail is told apart by its sender, so no two people may share one.
type Addresses = BTreeMap<String, (String, usize)>;

fn check_person(
    source: &Source,
    who: String,
    person: PersonFields<'_>,
    schedule: &Schedule,
    addresses: &mut Addresses,
    problems: &mut Vec<Problem>,
) -> Person {
    values::text(source, person.name, "name", problems);
    let address = person.address.get_ref();
    if !is_mail_address(address) {
        problems.push(
            source
                .at(
                    person.address.span(),
                    format!("`{address}` is not a mail address"),
                )
                .with_hint(
                    "give the bare address, such as `kaiser@example.org`, without a name or <>",
                ),
        );
    } else if let Some((owner, line)) = addresses.get(&address.to_lowercase()) {
        problems.push(source.at(
            person.address.span(),
            format!("address `{address}` is already used by {owner} at line {line}"),
        ));
    } else {
        let line = source.line(person.address.span().start);
        addresses.insert(address.to_lowercase(), (who, line));
    }
    if let Some(zone) = person.time_zone {
        values::time_zone(source, zone, problems);
    }
    let hash = person.passphrase_hash.get_ref();
    if !passphrase::is_phc(hash) {
        problems.push(
            source
                .at(
                    person.passphrase_hash.span(),
                    "passphrase_hash is not an argon2 hash",
                )
                .with_hint("run `adjutant passphrase` and paste the `$argon2id$...` line it prints; never the passphrase itself"),
        );
    }
    let hash = hash.clone();
    Person {
        name: person.name.get_ref().clone(),
        address: address.clone(),
        time_zone: person
            .time_zone
            .map_or_else(|| schedule.time_zone.clone(), |z| z.get_ref().clone()),
        auth: if person.require_dkim {
            Auth::PassphraseAndDkim { hash }
        } else {
            Auth::Passphrase { hash }
        },
    }
}

/// The observers: an address of their own each (mail from it is never
/// taken as orders), and what each receives; a link to the chronicle needs
/// the campaign's `[chronicle] url`.
fn check_observers(
    source: &Source,
    observers: &[Spanned<ObserverTable>],
    has_chronicle: bool,
    schedule: &Schedule,
    addresses: &mut Addresses,
    problems: &mut Vec<Problem>,
) -> Vec<Observer> {
    let mut checked = Vec::new();
    for observer in observers.iter().map(Spanned::get_ref) {
        values::text(source, &observer.name, "name", problems);
        let address = observer.address.get_ref();
        if !is_mail_address(address) {
            problems.push(
                source
                    .at(
                        observer.address.span(),
                        format!("`{address}` is not a mail address"),
                    )
                    .with_hint(
                        "give the bare address, such as `reader@example.org`, without a name or <>",
                    ),
            );
        } else if let Some((owner, line)) = addresses.get(&address.to_lowercase()) {
            problems.push(source.at(
                observer.address.span(),
                format!("address `{address}` is already used by {owner} at line {line}"),
            ));
        } else {
            let line = source.line(observer.address.span().start);
            addresses.insert(
                address.to_lowercase(),
                (format!("the observer `{}`", observer.name.get_ref()), line),
            );
        }
        if let Some(zone) = &observer.time_zone {
            values::time_zone(source, zone, problems);
        }
        let receives = match &observer.receives {
            None => Observing::Reports,
            Some(word) => match Observing::ALL
                .into_iter()
                .find(|o| o.as_str() == word.get_ref())
            {
                Some(o) => o,
                None => {
                    let names: Vec<&str> = Observing::ALL.iter().map(|o| o.as_str()).collect();
                    values::known(source, word, &names, "receives", problems);
                    Observing::Reports
                }
            },
        };
        if receives == Observing::Chronicle
            && !has_chronicle
            && let Some(word) = &observer.receives
        {
            problems.push(
                source
                    .at(word.span(), "an observer can be sent the chronicle's link only where the campaign has one")
                    .with_hint("add `[chronicle] url = \"https://...\"`, or write `receives = \"reports\"`"),
            );
        }
        checked.push(Observer {
            name: observer.name.get_ref().clone(),
            address: address.clone(),
            time_zone: observer
                .time_zone
                .as_ref()
                .map_or_else(|| schedule.time_zone.clone(), |z| z.get_ref().clone()),
            receives,
        });
    }
    checked
}

/// A bare `local@domain.tld`: what the mail edge compares senders with.
fn is_mail_address(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !address
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '<' | '>' | '"' | ',' | ';'))
}

fn check_gm(
    source: &Source,
    gm: &GmTable,
    schedule: &Schedule,
    addresses: &mut Addresses,
    problems: &mut Vec<Problem>,
) -> Person {
    let fields = PersonFields {
        name: &gm.name,
        address: &gm.address,
        time_zone: gm.time_zone.as_ref(),
        passphrase_hash: &gm.passphrase_hash,
        require_dkim: gm.require_dkim,
    };
    check_person(
        source,
        "the GM".to_string(),
        fields,
        schedule,
        addresses,
        problems,
    )
}

fn check_players(
    source: &Source,
    players: &[Spanned<PlayerTable>],
    sides: &[Spanned<SideTable>],
    schedule: &Schedule,
    addresses: &mut Addresses,
    problems: &mut Vec<Problem>,
) -> Vec<Player> {
    let side_ids: Vec<&str> = sides
        .iter()
        .map(|s| s.get_ref().id.get_ref().as_str())
        .collect();
    let mut checked = Vec::new();
    for player in players.iter().map(Spanned::get_ref) {
        let side = player.side.get_ref();
        if !side_ids.contains(&side.as_str()) {
            problems.push(
                source
                    .at(
                        player.side.span(),
                        format!("the player's side `{side}` is not a side"),
                    )
                    .with_hint(format!("the sides are {}", side_ids.join(", "))),
            );
        }
        let fields = PersonFields {
            name: &player.name,
            address: &player.address,
            time_zone: player.time_zone.as_ref(),
            passphrase_hash: &player.passphrase_hash,
            require_dkim: player.require_dkim,
        };
        let who = format!("the player `{}`", player.name.get_ref());
        let person = check_person(source, who, fields, schedule, addresses, problems);
        checked.push(Player {
            person,
            side: side.clone(),
        });
    }
    for side in sides.iter().map(Spanned::get_ref) {
        if !players
            .iter()
            .any(|p| p.get_ref().side.get_ref() == side.id.get_ref())
        {
            problems.push(
                source
                    .at(
                        side.id.span(),
                        format!("side `{}` has no player", side.id.get_ref()),
                    )
                    .with_hint(format!(
                        "add a [[player]] with side = \"{}\"",
                        side.id.get_ref()
                    )),
            );
        }
    }
    checked
}

fn check_schedule(
    source: &Source,
    table: &Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    rules: Option<&'static dyn Ruleset>,
    problems: &mut Vec<Problem>,
) -> (Schedule, NoOrdersPolicy) {
    let phases: Vec<&str> =
        rules.map_or_else(Vec::new, |r| r.phases().iter().map(|p| p.name).collect());
    let mut schedule = Schedule {
        time_zone: String::new(),
        phase_minutes: BTreeMap::new(),
        deadline_time: None,
        reminder_minutes: 0,
        last_reminder_minutes: 0,
        grace_minutes: 0,
    };
    let mut policy = NoOrdersPolicy::StandFast;
    let mut reminder = None;
    let mut last_reminder = None;
    for (key, value) in table.get_ref() {
        let Some(text) = string(source, value, problems) else {
            continue;
        };
        match key.get_ref().as_str() {
            "time_zone" => {
                values::time_zone(source, &spanned(value, text), problems);
                schedule.time_zone = text.to_string();
            }
            "deadline_time" => {
                if values::parse_time_of_day(text).is_none() {
                    problems.push(
                        source
                            .at(value.span(), format!("`{text}` is not a time of day"))
                            .with_hint("write it HH:MM on the 24-hour clock, such as \"20:00\""),
                    );
                }
                schedule.deadline_time = Some(text.to_string());
            }
            "reminder" => {
                if let Some(minutes) = duration(source, value, text, problems) {
                    schedule.reminder_minutes = minutes;
                    reminder = Some((minutes, value.span()));
                }
            }
            "last_reminder" => {
                if let Some(minutes) = duration(source, value, text, problems) {
                    schedule.last_reminder_minutes = minutes;
                    last_reminder = Some((minutes, value.span()));
                }
            }
            "grace" => {
                if let Some(minutes) = duration(source, value, text, problems) {
                    schedule.grace_minutes = minutes;
                }
            }
            "no_orders" => match NoOrdersPolicy::ALL.into_iter().find(|p| p.as_str() == text) {
                Some(p) => policy = p,
                None => {
                    let names: Vec<&str> = NoOrdersPolicy::ALL.iter().map(|p| p.as_str()).collect();
                    values::known(
                        source,
                        &spanned(value, text),
                        &names,
                        "no_orders policy",
                        problems,
                    );
                }
            },
            phase if rules.is_none() || phases.contains(&phase) => {
                if let Some(minutes) = duration(source, value, text, problems) {
                    if minutes == 0 {
                        problems.push(source.at(
                            value.span(),
                            format!("the `{phase}` phase must last longer than 0"),
                        ));
                    }
                    schedule.phase_minutes.insert(phase.to_string(), minutes);
                }
            }
            other => {
                problems.push(
                    source
                        .at(key.span(), format!("unknown key `{other}`"))
                        .with_hint(format!(
                            "the keys allowed here are {}, and a duration for each phase of the ruleset: {}",
                            SCHEDULE_KEYS.join(", "),
                            phases.join(", ")
                        )),
                );
            }
        }
    }
    check_schedule_complete(source, table, &phases, &schedule, problems);
    check_reminders(source, &schedule, reminder, last_reminder, problems);
    (schedule, policy)
}

/// The keys `[schedule]` must have: the time zone and a duration for each
/// of the ruleset's phases.
fn check_schedule_complete(
    source: &Source,
    table: &Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    phases: &[&str],
    schedule: &Schedule,
    problems: &mut Vec<Problem>,
) {
    let header = table.span();
    if !table.get_ref().keys().any(|k| k.get_ref() == "time_zone") {
        problems.push(
            source
                .at(header.clone(), "missing key `time_zone`")
                .with_hint("the campaign's IANA time zone, in which deadlines fall, such as \"Europe/Paris\""),
        );
    }
    for phase in phases {
        if !schedule.phase_minutes.contains_key(*phase)
            && !table.get_ref().keys().any(|k| k.get_ref() == phase)
        {
            problems.push(
                source
                    .at(
                        header.clone(),
                        format!("no duration for the `{phase}` phase"),
                    )
                    .with_hint(format!(
                        "add `{phase} = \"48h\"` (days d, hours h, minutes m)"
                    )),
            );
        }
    }
}

/// The reminders against the phases and each other: each must come before
/// the deadline it warns of, and the last after the first.
fn check_reminders(
    source: &Source,
    schedule: &Schedule,
    reminder: Option<(u32, std::ops::Range<usize>)>,
    last_reminder: Option<(u32, std::ops::Range<usize>)>,
    problems: &mut Vec<Problem>,
) {
    // A reminder as long as a phase would go out as the phase opens.
    if let Some((minutes, span)) = reminder
        && let Some((phase, shortest)) = schedule.phase_minutes.iter().min_by_key(|(_, m)| **m)
        && minutes > 0
        && minutes >= *shortest
    {
        problems.push(source.at(
            span,
            format!(
                "the reminder must be shorter than the `{phase}` phase ({})",
                values::duration_text(*shortest)
            ),
        ));
    }
    // The last reminder comes after the first, nearer the deadline.
    if let Some((minutes, span)) = last_reminder
        && minutes > 0
    {
        if schedule.reminder_minutes == 0 {
            problems.push(
                source
                    .at(span, "a last reminder needs a first one")
                    .with_hint("add `reminder = \"12h\"`, longer than the last reminder"),
            );
        } else if minutes >= schedule.reminder_minutes {
            problems.push(source.at(
                span,
                format!(
                    "the last reminder must come after the first: shorter than `reminder` ({})",
                    values::duration_text(schedule.reminder_minutes)
                ),
            ));
        }
    }
}

/// A `[schedule]` value as a string, or a problem.
fn string<'a>(
    source: &Source,
    value: &'a Spanned<toml::Value>,
    problems: &mut Vec<Problem>,
) -> Option<&'a str> {
    match value.get_ref() {
        toml::Value::String(s) => Some(s),
        other => {
            problems.push(source.at(
                value.span(),
                format!("wrong type: expected a string, found {}", other.type_str()),
            ));
            None
        }
    }
}

/// A string value with the span of the value it came from.
fn spanned(value: &Spanned<toml::Value>, text: &str) -> Spanned<String> {
    Spanned::new(value.span(), text.to_string())
}

fn duration(
    source: &Source,
    value: &Spanned<toml::Value>,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<u32> {
    match values::parse_duration(text) {
        Ok(minutes) => Some(minutes),
        Err(message) => {
            problems.push(
                source
                    .at(value.span(), message)
                    .with_hint("write a whole number of days d, hours h or minutes m, such as \"48h\" or \"1d12h\""),
            );
            None
        }
    }
}

fn check_dice(
    source: &Source,
    dice: Option<&DiceTable>,
    problems: &mut Vec<Problem>,
) -> (u32, Option<String>, Option<crate::campaign::DrandChoice>) {
    let Some(dice) = dice else {
        return (DEFAULT_CHAIN_LENGTH, None, None);
    };
    let chain_length = match &dice.chain_length {
        None => DEFAULT_CHAIN_LENGTH,
        Some(n) => values::count(
            source,
            n,
            "chain_length",
            1,
            i64::from(crate::audit::chain::MAX_CHAIN_LENGTH),
            problems,
        )
        .unwrap_or(0),
    };
    if let Some(beacon) = &dice.beacon {
        values::text(source, beacon, "beacon", problems);
    }
    let drand = dice.drand.as_ref().and_then(|d| {
        if let Some(beacon) = &dice.beacon {
            problems.push(source.at(
                beacon.span(),
                "a campaign takes either a fixed `beacon` text or a `drand` beacon, not both",
            ));
        }
        check_drand(source, d, problems)
    });
    (
        chain_length,
        dice.beacon.as_ref().map(|b| b.get_ref().clone()),
        drand,
    )
}

/// The drand relay used when a campaign names none.
pub const DEFAULT_DRAND_URL: &str = "https://api.drand.sh";
/// How long after a phase closes its round may first be published, when a
/// campaign does not say: a minute for the manifest mail to go out.
pub const DEFAULT_DRAND_MARGIN_SECONDS: u32 = 60;

fn check_drand(
    source: &Source,
    table: &Spanned<crate::campaign::load::raw::DrandTable>,
    problems: &mut Vec<Problem>,
) -> Option<crate::campaign::DrandChoice> {
    let d = table.get_ref();
    let info = match (&d.network, &d.info) {
        (Some(n), None) => match crate::beacon::network::known_by_name(n.get_ref()) {
            Some(network) => network.to_info_json(),
            None => {
                let known: Vec<&str> = crate::beacon::KNOWN_NETWORKS
                    .iter()
                    .map(|(name, _)| *name)
                    .collect();
                problems.push(
                    source
                        .at(
                            n.span(),
                            format!(
                                "`{}` is not a public drand network adjutant knows ({})",
                                n.get_ref(),
                                known.join(", ")
                            ),
                        )
                        .with_hint(
                            "write network = \"quicknet\", or give the network's /info JSON as info",
                        ),
                );
                return None;
            }
        },
        (None, Some(info)) => {
            let network = match crate::beacon::Network::from_info_json(info.get_ref().as_bytes()) {
                Ok(network) => network,
                Err(e) => {
                    problems.push(
                        source.at(info.span(), format!("the drand info cannot be read: {e}")),
                    );
                    return None;
                }
            };
            // A beacon protects only if nobody in the campaign holds its
            // key: a network known by its /info alone may be the game
            // master's own, which would let the game master know every
            // turn's dice before its manifest is out. Such a network is
            // taken only when the campaign says so, and then every mail and
            // report says it (docs/AUDIT.md, section 11.6).
            let untrusted = d.trusted.as_ref().is_some_and(|t| !*t.get_ref());
            if network.known_name().is_none() && !untrusted {
                problems.push(
                    source
                        .at(
                            info.span(),
                            format!(
                                "the drand network {} is not a public network adjutant knows (quicknet): whoever holds its key, the game master perhaps, can know every turn's dice before its manifest is out",
                                network.chain_hash_hex()
                            ),
                        )
                        .with_hint(
                            "write network = \"quicknet\"; or, to play with this network all the same, add trusted = false, and every mail and report will say that the game master may control it",
                        ),
                );
                return None;
            }
            info.get_ref().clone()
        }
        _ => {
            problems.push(source.at(
                table.span(),
                "[dice.drand] takes either network = \"quicknet\" or info = <the network's /info JSON>",
            ));
            return None;
        }
    };
    let url = d
        .url
        .as_ref()
        .map_or_else(|| DEFAULT_DRAND_URL.to_string(), |u| u.get_ref().clone());
    let margin_seconds = match &d.margin {
        None => DEFAULT_DRAND_MARGIN_SECONDS,
        Some(m) => match values::parse_duration(m.get_ref()) {
            Ok(minutes) => minutes.saturating_mul(60),
            Err(message) => {
                problems.push(source.at(m.span(), message));
                return None;
            }
        },
    };
    Some(crate::campaign::DrandChoice {
        url,
        info,
        margin_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::is_mail_address;

    #[test]
    fn bare_mail_addresses_only() {
        assert!(is_mail_address("kaiser@example.org"));
        assert!(is_mail_address("first.last+pbem@mail.example.co.uk"));
        for bad in [
            "kaiser",
            "@example.org",
            "kaiser@example",
            "kaiser@.org",
            "kaiser@example.org.",
            "Kaiser <kaiser@example.org>",
            "kaiser@@example.org",
            "a b@example.org",
        ] {
            assert!(!is_mail_address(bad), "{bad}");
        }
    }
}
