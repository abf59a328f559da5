//! When phases open and close: deadlines in the campaign's time zone, early
//! closing once every required side has sent orders, and reminders. Time is
//! always passed in through a [`Clock`]; nothing here reads the system clock
//! except [`SystemClock`] itself.

pub use crate::campaign::duration;

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use std::collections::BTreeSet;

use crate::campaign::{Person, Schedule};
use crate::rules::ruleset::PhaseKind;
use crate::rules::{GameState, Ruleset};

/// `when` in the person's own time zone, falling back to UTC.
pub fn local_time(person: &Person, when: DateTime<Utc>) -> String {
    local_time_in(&person.time_zone, when)
}

/// `when` as the clock shows it in time zone `zone` (UTC if the zone is
/// unknown).
pub fn local_time_in(zone: &str, when: DateTime<Utc>) -> String {
    match zone.parse::<Tz>() {
        Ok(tz) => when
            .with_timezone(&tz)
            .format("%A %-d %B %Y, %H:%M %Z")
            .to_string(),
        Err(_) => when.format("%A %-d %B %Y, %H:%M UTC").to_string(),
    }
}

/// Where "now" comes from. Shared by the threads that resolve several
/// campaigns at once, so it must be `Sync`.
pub trait Clock: Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The machine's clock, for the daemon and the CLI.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that always says the same time, for tests and replays.
pub struct FixedClock(pub DateTime<Utc>);

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

/// Why a phase may close now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    /// The deadline has passed.
    Deadline,
    /// Every side is ready (see `engine::ready`).
    AllReady,
}

/// The schedule could not give a deadline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    #[error("`{0}` is not a time zone name (e.g. Europe/Paris)")]
    TimeZone(String),
    #[error("`{0}` is not a time of day HH:MM")]
    TimeOfDay(String),
    #[error("the schedule gives no duration for the `{0}` phase")]
    NoDuration(String),
}

/// The deadline of a phase of kind `phase` opened at `opened`: the phase's
/// duration later, then moved on to the schedule's time of day (in the
/// campaign's zone) if it names one.
pub fn deadline(
    schedule: &Schedule,
    phase: &str,
    opened: DateTime<Utc>,
) -> Result<DateTime<Utc>, ScheduleError> {
    let minutes = schedule
        .phase_minutes
        .get(phase)
        .ok_or_else(|| ScheduleError::NoDuration(phase.to_string()))?;
    let earliest = opened + Duration::minutes(i64::from(*minutes));
    let Some(time_of_day) = &schedule.deadline_time else {
        return Ok(earliest);
    };
    let tz: Tz = schedule
        .time_zone
        .parse()
        .map_err(|_| ScheduleError::TimeZone(schedule.time_zone.clone()))?;
    let at = NaiveTime::parse_from_str(time_of_day, "%H:%M")
        .map_err(|_| ScheduleError::TimeOfDay(time_of_day.clone()))?;
    let local_day = earliest.with_timezone(&tz).date_naive();
    // Try the earliest day and the next few: a day whose HH:MM falls in a
    // daylight-saving gap has no such time, and is skipped.
    for offset in 0..4 {
        let day = local_day + Duration::days(offset);
        let candidate = match tz.from_local_datetime(&day.and_time(at)) {
            chrono::LocalResult::Single(t) => t,
            chrono::LocalResult::Ambiguous(first, _) => first,
            chrono::LocalResult::None => continue,
        };
        let candidate = candidate.with_timezone(&Utc);
        if candidate >= earliest {
            return Ok(candidate);
        }
    }
    Ok(earliest)
}

/// The sides whose orders the phase needs: they are reminded before the
/// deadline, and a phase cannot be resolved well without them.
pub fn required_sides(ruleset: &dyn Ruleset, state: &GameState) -> Vec<String> {
    match ruleset.phase_of(state).kind {
        PhaseKind::ActiveSide => vec![state.active_side.clone()],
        PhaseKind::AllSides => state.sides.clone(),
    }
}

/// Whether the phase should close at `now`, given which sides are ready
/// for it to close (see `engine::ready`). `closes_at` is its deadline, or
/// the end of its grace while a side it needs has sent nothing
/// ([`Schedule::closes_at`]).
pub fn due(
    state: &GameState,
    closes_at: DateTime<Utc>,
    ready: &BTreeSet<String>,
    now: DateTime<Utc>,
) -> Option<CloseReason> {
    if state.finished.is_some() {
        return None;
    }
    if now >= closes_at {
        return Some(CloseReason::Deadline);
    }
    // Every side may send orders in every phase (the passive side its
    // standing orders, such as evading), so the phase closes early only once
    // each is ready: sent orders with no line refused, said it sends none,
    // or said `ready`. Else a passive side's orders sent a moment after the
    // active side's would find the phase closed, and a player could not
    // correct a typo before the deadline.
    if !state.sides.is_empty() && state.sides.iter().all(|s| ready.contains(s)) {
        return Some(CloseReason::AllReady);
    }
    None
}

/// Which of a phase's reminders is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reminder {
    /// The `reminder` lead time before the deadline.
    First,
    /// The `last_reminder` lead time before it.
    Last,
}

impl Reminder {
    /// Its word in its Message-ID, so that each is queued once.
    pub fn key(self) -> &'static str {
        match self {
            Reminder::First => "remind",
            Reminder::Last => "remind-last",
        }
    }
}

/// The reminder due at `now`, if any: inside the last reminder's lead time
/// the last (a daemon that was down through the first window sends only
/// the last), else inside the first's.
pub fn reminder_at(
    schedule: &Schedule,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Option<Reminder> {
    if now >= deadline {
        return None;
    }
    let lead = |minutes: u32| Duration::minutes(i64::from(minutes));
    if schedule.last_reminder_minutes > 0 && now >= deadline - lead(schedule.last_reminder_minutes)
    {
        Some(Reminder::Last)
    } else if schedule.reminder_minutes > 0 && now >= deadline - lead(schedule.reminder_minutes) {
        Some(Reminder::First)
    } else {
        None
    }
}

/// The sides to remind at `now`, with the reminder due: required, not
/// ready (silent, or with a refused line or a word `wait`), and within a
/// reminder's lead time of the deadline.
pub fn reminders_due(
    ruleset: &dyn Ruleset,
    state: &GameState,
    schedule: &Schedule,
    deadline: DateTime<Utc>,
    ready: &BTreeSet<String>,
    now: DateTime<Utc>,
) -> Vec<(String, Reminder)> {
    let Some(which) = reminder_at(schedule, deadline, now) else {
        return Vec::new();
    };
    required_sides(ruleset, state)
        .into_iter()
        .filter(|s| !ready.contains(s))
        .map(|s| (s, which))
        .collect()
}

/// The sides a phase needs that have sent nothing (no orders, no word that
/// they send none): late once its deadline has passed.
pub fn silent_sides(
    ruleset: &dyn Ruleset,
    state: &GameState,
    sent: &BTreeSet<String>,
) -> Vec<String> {
    required_sides(ruleset, state)
        .into_iter()
        .filter(|s| !sent.contains(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn schedule(deadline_time: Option<&str>) -> Schedule {
        Schedule {
            time_zone: "Europe/Paris".into(),
            phase_minutes: BTreeMap::from([("orders".to_string(), 48 * 60)]),
            deadline_time: deadline_time.map(str::to_string),
            reminder_minutes: 12 * 60,
            last_reminder_minutes: 0,
            grace_minutes: 0,
        }
    }

    #[test]
    fn the_last_reminder_takes_over_inside_its_own_lead_time() {
        let s = Schedule {
            last_reminder_minutes: 2 * 60,
            ..schedule(None)
        };
        let dl = at("2026-11-25T10:00:00Z");
        assert_eq!(reminder_at(&s, dl, at("2026-11-24T21:00:00Z")), None);
        assert_eq!(
            reminder_at(&s, dl, at("2026-11-24T23:00:00Z")),
            Some(Reminder::First)
        );
        assert_eq!(
            reminder_at(&s, dl, at("2026-11-25T08:00:00Z")),
            Some(Reminder::Last)
        );
        assert_eq!(
            reminder_at(&s, dl, dl),
            None,
            "past the deadline it is too late"
        );
    }

    #[test]
    fn grace_holds_a_phase_open_only_while_a_side_it_needs_is_silent() {
        let s = Schedule {
            grace_minutes: 60,
            ..schedule(None)
        };
        let dl = at("2026-11-25T10:00:00Z");
        assert_eq!(s.closes_at(dl, false), dl);
        assert_eq!(s.closes_at(dl, true), at("2026-11-25T11:00:00Z"));
    }

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .expect("valid time")
    }

    #[test]
    fn a_plain_duration_is_added_to_the_opening() {
        let d = deadline(&schedule(None), "orders", at("2026-11-23T10:00:00Z"));
        assert_eq!(d, Ok(at("2026-11-25T10:00:00Z")));
    }

    #[test]
    fn a_time_of_day_moves_the_deadline_to_that_hour_in_the_campaign_zone() {
        // 48 hours after 10:00 UTC is 11:00 in Paris (UTC+1 in November), so
        // the deadline is 20:00 Paris time that day: 19:00 UTC.
        let d = deadline(
            &schedule(Some("20:00")),
            "orders",
            at("2026-11-23T10:00:00Z"),
        );
        assert_eq!(d, Ok(at("2026-11-25T19:00:00Z")));
    }

    #[test]
    fn a_time_of_day_already_past_falls_on_the_next_day() {
        let d = deadline(
            &schedule(Some("08:00")),
            "orders",
            at("2026-11-23T10:00:00Z"),
        );
        assert_eq!(d, Ok(at("2026-11-26T07:00:00Z")));
    }

    #[test]
    fn reminders_go_to_silent_sides_within_the_lead_time_only() {
        use crate::rules::registry::RULESETS;
        // Any ruleset whose one phase is the active side's.
        let ruleset = *RULESETS
            .iter()
            .find(|r| r.phases().iter().all(|p| p.kind == PhaseKind::ActiveSide))
            .expect("a ruleset of active-side phases");
        let state = GameState {
            campaign: "c".into(),
            ruleset: ruleset.id().into(),
            turn: 1,
            phase: 0,
            active_side: "a".into(),
            sides: vec!["a".into(), "b".into()],
            map: crate::rules::board::MapSpec::Table {
                width: 7200,
                depth: 4800,
            },
            terrain: Vec::new(),
            units: Vec::new(),
            generals: Vec::new(),
            standing_orders: BTreeMap::new(),
            turn_limit: None,
            options: Vec::new(),
            nations: BTreeMap::new(),
            finished: None,
            params: serde_json::Value::Null,
            game: Default::default(),
        };
        let s = schedule(None);
        let dl = at("2026-11-25T10:00:00Z");
        let none = BTreeSet::new();
        // 13 hours before: not yet; 11 hours before: remind the active side.
        let r = |now: &str, sent: &BTreeSet<String>| {
            reminders_due(ruleset, &state, &s, dl, sent, at(now))
        };
        assert!(r("2026-11-24T21:00:00Z", &none).is_empty());
        assert_eq!(
            r("2026-11-24T23:00:00Z", &none),
            vec![("a".to_string(), Reminder::First)]
        );
        let sent = BTreeSet::from(["a".to_string()]);
        assert!(r("2026-11-24T23:00:00Z", &sent).is_empty());
        assert!(
            r("2026-11-25T10:00:00Z", &none).is_empty(),
            "past the deadline it is too late"
        );
        // The phase is due once every side is in (the passive side may
        // send standing orders, or say it sends none), or at the deadline.
        assert_eq!(due(&state, dl, &sent, at("2026-11-24T23:00:00Z")), None);
        let both = BTreeSet::from(["a".to_string(), "b".to_string()]);
        assert_eq!(
            due(&state, dl, &both, at("2026-11-24T23:00:00Z")),
            Some(CloseReason::AllReady)
        );
        assert_eq!(due(&state, dl, &none, at("2026-11-24T23:00:00Z")), None);
        assert_eq!(due(&state, dl, &none, dl), Some(CloseReason::Deadline));
    }

    #[test]
    fn a_phase_without_a_duration_is_an_error() {
        let d = deadline(&schedule(None), "rally", at("2026-11-23T10:00:00Z"));
        assert_eq!(d, Err(ScheduleError::NoDuration("rally".into())));
    }
}
