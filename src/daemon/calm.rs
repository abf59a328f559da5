//! When each campaign next needs the daemon, as last worked out from the
//! store: the loop looks at a campaign again only once that time has come,
//! or once something may have changed it.
//!
//! Working it out reads the campaign, its state and its submissions; doing
//! that for every campaign on every pass made a pass cost a thousand
//! campaigns' reads, and a pass comes for every batch of mail sent. What is
//! held here is derived from the store alone and is dropped whenever the
//! store may say something else: when another process commits to it (its
//! `data_version` moves), and when the daemon itself acts on a campaign.
//! A restart starts with nothing held.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

#[derive(Debug, Default)]
pub struct Calm {
    /// The store's `data_version` the times were worked out under.
    version: Option<i64>,
    /// Each campaign's next time of need (nothing is due before it), and
    /// every later time it knows of (its deadline after its reminders).
    until: BTreeMap<String, (DateTime<Utc>, Vec<DateTime<Utc>>)>,
}

impl Calm {
    /// Drops every time if another connection has committed to the store
    /// since they were worked out.
    pub fn under(&mut self, version: i64) {
        if self.version != Some(version) {
            self.until.clear();
            self.version = Some(version);
        }
    }

    /// Whether `campaign` is known to need nothing at `now`.
    pub fn quiet(&self, campaign: &str, now: DateTime<Utc>) -> bool {
        self.until.get(campaign).is_some_and(|(t, _)| now < *t)
    }

    /// Holds that `campaign` needs nothing before `until`, and what it will
    /// need at each of `times` (which include `until`).
    pub fn hold(&mut self, campaign: &str, until: DateTime<Utc>, times: Vec<DateTime<Utc>>) {
        self.until.insert(campaign.to_string(), (until, times));
    }

    /// Forgets one campaign's time: the daemon acted on it.
    pub fn forget(&mut self, campaign: &str) {
        self.until.remove(campaign);
    }

    /// Forgets every time: the daemon did something that may touch any
    /// campaign (took mail, or gave the store away for writing).
    pub fn forget_all(&mut self) {
        self.until.clear();
    }

    /// The earliest time held that is after `now`, if any.
    pub fn next_after(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.until
            .values()
            .flat_map(|(_, times)| times.iter())
            .filter(|t| **t > now)
            .min()
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .expect("time")
            .with_timezone(&Utc)
    }

    #[test]
    fn a_campaign_is_quiet_until_its_time_and_not_after() {
        let mut calm = Calm::default();
        calm.under(1);
        calm.hold(
            "a",
            at("2026-01-01T12:00:00Z"),
            vec![at("2026-01-01T12:00:00Z"), at("2026-01-01T20:00:00Z")],
        );
        assert!(calm.quiet("a", at("2026-01-01T11:59:59Z")));
        assert!(!calm.quiet("a", at("2026-01-01T12:00:00Z")));
        assert!(!calm.quiet("b", at("2026-01-01T11:00:00Z")));
        assert_eq!(
            calm.next_after(at("2026-01-01T12:00:00Z")),
            Some(at("2026-01-01T20:00:00Z"))
        );
    }

    #[test]
    fn another_writer_or_an_act_forgets_the_times() {
        let mut calm = Calm::default();
        calm.under(1);
        let now = at("2026-01-01T10:00:00Z");
        calm.hold(
            "a",
            at("2026-01-01T12:00:00Z"),
            vec![at("2026-01-01T12:00:00Z")],
        );
        calm.hold(
            "b",
            at("2026-01-01T13:00:00Z"),
            vec![at("2026-01-01T13:00:00Z")],
        );
        calm.under(1);
        assert_eq!(calm.next_after(now), Some(at("2026-01-01T12:00:00Z")));
        calm.forget("a");
        assert_eq!(calm.next_after(now), Some(at("2026-01-01T13:00:00Z")));
        calm.under(2);
        assert_eq!(calm.next_after(now), None);
        assert!(!calm.quiet("b", at("2026-01-01T11:00:00Z")));
    }
}
