//! Running one resolution from its recorded inputs. The daemon and `verify`
//! both call [`run`], so a verified archive is checked by the very code that
//! produced it, from nothing but what the archive holds.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use crate::audit::dice::Roll;
use crate::audit::dice::{Dice, DiceStream, PlaceholderDice};
use crate::audit::manifest::UMPIRE;
use crate::audit::{Digest32, Manifest, SeedInputs, SideOrders};
use crate::campaign::NoOrdersPolicy;
use crate::canonical;
use crate::rules::reading::Reading;
use crate::rules::ruleset::{Event, ResolveError, SideText};
use crate::rules::state::PartError;
use crate::rules::{GameState, Ruleset, UmpireError, UmpireReport};

pub use crate::audit::Kind;

/// The prior state of one resolution and the ruleset that reads it, read
/// into the ruleset's types once, the first time it is asked for. [`run`]
/// asks where it first needs the typed state, after the checks of the raw
/// state, so that a state damaged in more than one way is named as it
/// always was; what else the same request asks of it (an umpire call's
/// trial before it is resolved, a turn's reports after) is given the same
/// reading (docs/ARCHITECTURE.md, "A state is read once per request").
pub struct Prior<'a> {
    ruleset: &'a dyn Ruleset,
    state: &'a GameState,
    read: OnceCell<Result<Reading<'a>, PartError>>,
}

impl<'a> Prior<'a> {
    /// `state`, to be read by `ruleset` when it is first asked for.
    pub fn new(ruleset: &'a dyn Ruleset, state: &'a GameState) -> Prior<'a> {
        Prior {
            ruleset,
            state,
            read: OnceCell::new(),
        }
    }

    /// A state `ruleset` has read already (the chronicle reads each state
    /// of a campaign once for all its pages).
    pub fn already_read(ruleset: &'a dyn Ruleset, read: &'a Reading<'_>) -> Prior<'a> {
        Prior {
            ruleset,
            state: read.raw(),
            read: OnceCell::from(Ok(read.borrowed())),
        }
    }

    /// The ruleset that reads the state and resolves from it.
    pub fn ruleset(&self) -> &'a dyn Ruleset {
        self.ruleset
    }

    /// The raw state, as stored.
    pub fn state(&self) -> &'a GameState {
        self.state
    }

    /// The state read into its ruleset's types: read the first time it is
    /// asked for, the same reading (or the same error, for a state whose
    /// parts do not read as its ruleset's) every time after.
    pub fn read(&self) -> Result<&Reading<'a>, PartError> {
        self.read
            .get_or_init(|| self.ruleset.read(self.state))
            .as_ref()
            .map_err(PartError::clone)
    }
}

/// Everything a resolution depends on.
pub struct Inputs<'a, 'p> {
    /// The state it resolves from, with the ruleset that resolves it.
    pub prior: &'a Prior<'p>,
    pub kind: Kind,
    pub campaign: &'a str,
    pub k: u64,
    pub secret: Digest32,
    pub manifest_digest: Digest32,
    /// SHA-256 of the prior state's stored bytes, which the seed takes; the
    /// state must serialise back to exactly those bytes.
    pub prior_state_digest: Digest32,
    pub beacon: Option<&'a str>,
    /// A beacon value drawn after the manifest (see [`SeedInputs::drawn`]).
    pub drawn: Option<Digest32>,
    pub policy: NoOrdersPolicy,
    /// Canonical orders text by side (`@umpire` for a call).
    pub orders: &'a BTreeMap<String, String>,
}

/// What a resolution produced, in the exact bytes that are stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub seed: Digest32,
    pub next_state: GameState,
    pub next_state_json: String,
    pub events: Vec<String>,
    pub rolls: Vec<String>,
    /// The same events and rolls as values, for the reports; a call's one
    /// event (its report) is not an [`Event`] and is left out.
    pub event_values: Vec<Event>,
    pub roll_values: Vec<Roll>,
    /// The umpire call's report, for a call.
    pub umpire: Option<UmpireReport>,
}

/// Why recorded inputs could not be resolved. Only damaged or forged inputs
/// cause these: orders were checked when they were accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    #[error("the orders of {side} no longer check against the prior state: {problems}")]
    Orders { side: String, problems: String },
    #[error("orders from {0}, which is not a side of this game")]
    UnknownSide(String),
    #[error("an umpire resolution needs exactly one `{UMPIRE}` call")]
    NoCall,
    #[error("umpire call refused: {0}")]
    Call(UmpireError),
    #[error(transparent)]
    State(PartError),
    #[error("the call is recorded as `{recorded}`, but its canonical form is `{canonical}`")]
    CallNotCanonical { recorded: String, canonical: String },
    #[error(
        "the prior state's bytes hash to {stored}, but the state they hold serialises to {reserialised}: not canonical"
    )]
    StateNotCanonical {
        stored: Digest32,
        reserialised: Digest32,
    },
}

/// The manifest of a turn: one line per side of the state.
pub fn turn_manifest(
    campaign: &str,
    k: u64,
    phase_label: &str,
    state: &GameState,
    orders: &BTreeMap<String, String>,
) -> Manifest {
    Manifest {
        beacon_round: None,
        kind: Kind::Turn,
        campaign: campaign.to_string(),
        resolution: k,
        phase: phase_label.to_string(),
        sides: state
            .sides
            .iter()
            .map(|side| SideOrders {
                side: side.clone(),
                digest: orders.get(side).map(|t| Digest32::of(t.as_bytes())),
            })
            .collect(),
    }
}

/// The manifest of an umpire call.
pub fn umpire_manifest(campaign: &str, k: u64, call_text: &str) -> Manifest {
    Manifest {
        beacon_round: None,
        kind: Kind::Umpire,
        campaign: campaign.to_string(),
        resolution: k,
        phase: "umpire".to_string(),
        sides: vec![SideOrders {
            side: UMPIRE.to_string(),
            digest: Some(Digest32::of(call_text.as_bytes())),
        }],
    }
}

/// The label of the phase a state is in, as manifests and reports show it.
pub fn phase_label(ruleset: &dyn Ruleset, state: &GameState) -> String {
    format!(
        "turn {} {} ({} active)",
        state.turn,
        ruleset.phase_of(state).name,
        state.active_side
    )
}

/// The key submissions for the current phase are filed under.
pub fn phase_key(ruleset: &dyn Ruleset, state: &GameState) -> String {
    format!("turn-{}-{}", state.turn, ruleset.phase_of(state).name)
}

/// Runs the resolution. Pure: the same inputs give the same bytes.
pub fn run(inputs: &Inputs<'_, '_>) -> Result<Output, RunError> {
    let reserialised = canonical::digest(inputs.prior.state());
    if reserialised != inputs.prior_state_digest {
        return Err(RunError::StateNotCanonical {
            stored: inputs.prior_state_digest,
            reserialised,
        });
    }
    let seed = SeedInputs {
        drawn: inputs.drawn,
        kind: inputs.kind,
        campaign: inputs.campaign.to_string(),
        resolution: inputs.k,
        secret: inputs.secret,
        manifest_digest: inputs.manifest_digest,
        prior_state_digest: inputs.prior_state_digest,
        beacon: inputs.beacon.map(str::to_string),
    }
    .seed();
    let mut dice = DiceStream::new(&seed);
    let (next_state, event_values, events, umpire) = match inputs.kind {
        Kind::Turn => {
            let (state, events) = run_turn(inputs, &mut dice)?;
            let bytes = events.iter().map(canonical::to_string).collect();
            (state, events, bytes, None)
        }
        Kind::Umpire => {
            let recorded = match inputs.orders.get(UMPIRE) {
                Some(text) if inputs.orders.len() == 1 => text,
                _ => return Err(RunError::NoCall),
            };
            let prior = inputs
                .prior
                .read()
                .map_err(|e| RunError::Call(UmpireError::State(e.to_string())))?;
            let report = inputs
                .prior
                .ruleset()
                .umpire(
                    prior,
                    recorded.strip_suffix('\n').unwrap_or(recorded),
                    &mut dice,
                )
                .map_err(RunError::Call)?;
            // One call, one text: any other spelling would be another seed.
            if format!("{}\n", report.call) != *recorded {
                return Err(RunError::CallNotCanonical {
                    recorded: recorded.clone(),
                    canonical: report.call,
                });
            }
            let event = serde_json::json!({ "kind": "umpire", "report": report });
            (
                inputs.prior.state().clone(),
                Vec::new(),
                vec![canonical::to_string(&event)],
                Some(report),
            )
        }
    };
    let rolls = dice.log().iter().map(canonical::to_string).collect();
    Ok(Output {
        seed,
        next_state_json: canonical::to_string(&next_state),
        next_state,
        events,
        rolls,
        event_values,
        roll_values: dice.log().to_vec(),
        umpire,
    })
}

/// A turn resolved again from its prior state, its orders and the seed it
/// was resolved with: its events and rolls with what each shows and to whom
/// (`rules::told`), which the archive does not keep, for what is told from
/// an archive (the chronicle). `None` unless the bytes come out as
/// `archived` (events, then rolls, as stored): a turn that does not replay
/// is told from what was stored.
pub fn typed_again(
    ruleset: &dyn Ruleset,
    prior: &Reading,
    orders: &BTreeMap<String, String>,
    policy: NoOrdersPolicy,
    seed: &Digest32,
    archived: (&[String], &[String]),
) -> Option<(Vec<Event>, Vec<Roll>)> {
    let inputs = Inputs {
        prior: &Prior::already_read(ruleset, prior),
        kind: Kind::Turn,
        campaign: "",
        k: 0,
        secret: Digest32::ZERO,
        manifest_digest: Digest32::ZERO,
        prior_state_digest: Digest32::ZERO,
        beacon: None,
        drawn: None,
        policy,
        orders,
    };
    let mut dice = DiceStream::new(seed);
    let (_, events) = run_turn(&inputs, &mut dice).ok()?;
    let rolls = dice.log().to_vec();
    let same = events
        .iter()
        .map(canonical::to_string)
        .eq(archived.0.iter().cloned())
        && rolls
            .iter()
            .map(canonical::to_string)
            .eq(archived.1.iter().cloned());
    same.then_some((events, rolls))
}

/// What the open phase would come to with `orders`, every die a placeholder
/// (see [`PlaceholderDice`]): the game master's preview. Not a resolution:
/// it draws no die of the turn's seed, and nothing of it is kept.
pub fn preview(
    ruleset: &dyn Ruleset,
    prior_state: &GameState,
    orders: &BTreeMap<String, String>,
    policy: NoOrdersPolicy,
) -> Result<(GameState, Vec<Event>, Vec<Roll>), RunError> {
    let inputs = Inputs {
        prior: &Prior::new(ruleset, prior_state),
        kind: Kind::Turn,
        campaign: "",
        k: 0,
        secret: Digest32::ZERO,
        manifest_digest: Digest32::ZERO,
        prior_state_digest: Digest32::ZERO,
        beacon: None,
        drawn: None,
        policy,
        orders,
    };
    let mut dice = PlaceholderDice::default();
    let (state, events) = run_turn(&inputs, &mut dice)?;
    Ok((state, events, dice.log().to_vec()))
}

fn run_turn(
    inputs: &Inputs<'_, '_>,
    dice: &mut dyn Dice,
) -> Result<(GameState, Vec<Event>), RunError> {
    let state = inputs.prior.state();
    if let Some(side) = inputs.orders.keys().find(|s| !state.sides.contains(s)) {
        return Err(RunError::UnknownSide(side.clone()));
    }
    let standing: BTreeMap<&String, String> = state
        .standing_orders
        .iter()
        .filter(|(_, lines)| !lines.is_empty())
        .map(|(side, lines)| (side, lines.iter().map(|l| format!("{l}\n")).collect()))
        .collect();
    let mut orders = BTreeMap::new();
    for side in &state.sides {
        let text = match (inputs.orders.get(side), inputs.policy, standing.get(side)) {
            (Some(text), _, _) => SideText::Sent(text),
            (None, NoOrdersPolicy::StandingOrders, Some(lines)) => SideText::Standing(lines),
            _ => continue,
        };
        orders.insert(side.clone(), text);
    }
    let read = inputs.prior.read().map_err(RunError::State)?;
    let resolution = inputs
        .prior
        .ruleset()
        .resolve(read, &orders, dice)
        .map_err(|e| match e {
            ResolveError::Orders { side, problems } => RunError::Orders { side, problems },
        })?;
    Ok((resolution.state, resolution.events))
}
