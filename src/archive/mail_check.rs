//! Checks an archive against the mail a player received (`adjutant verify
//! ARCHIVE --mail DIR`): the archive anchors only to what was sent before
//! it was published, so every head, commitment, revealed secret and
//! manifest digest a message of the campaign carried must be in it. A head
//! the archive does not hold means it was cut short or rewritten.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use super::verify::Verdict;
use super::{CampaignFile, ResolutionFile, resolution_dir};
use crate::audit::{Digest32, Kind};

/// What the mail showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailCheck {
    /// Files read as mail, and those that concern the campaign.
    pub messages: usize,
    pub of_campaign: usize,
    /// Values found in the mail and checked against the archive.
    pub heads: usize,
    pub secrets: usize,
    pub manifests: usize,
    pub commitments: usize,
    /// The furthest entry a received head reaches (0: the genesis).
    pub furthest_entry: Option<usize>,
    pub problems: Vec<String>,
}

/// The hex after `prefix` on a line of the form `<prefix><64 hex>...`:
/// exactly 64 hex digits, so 65 or more in a row are no value.
fn value_after(line: &str, prefix: &str) -> Option<Digest32> {
    let rest = line.trim_start().strip_prefix(prefix)?;
    let hex = rest.get(..64)?;
    let more = rest[64..].starts_with(|c: char| c.is_ascii_hexdigit());
    if !more && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        Digest32::from_hex(hex).ok()
    } else {
        None
    }
}

/// The prefixes a value is read after (a revealed secret's line has its
/// number between, see [`revealed_after`]).
const VALUE_PREFIXES: [&str; 6] = [
    "archive head = ",
    "commitment C = ",
    "umpire commitment U = ",
    "manifest digest = ",
    "manifest digest: ",
    "Manifest digest: ",
];

/// The number and value of a line `<prefix><k> = <64 hex>`.
fn revealed_after(line: &str, prefix: &str) -> Option<(u64, Digest32)> {
    let rest = line.trim_start().strip_prefix(prefix)?;
    let (k, value) = rest.split_once(" = ")?;
    Some((k.parse().ok()?, Digest32::from_hex(value.trim()).ok()?))
}

/// Whether `line` begins (after its indent) with one of the prefixes a
/// value is read after.
fn has_prefix(line: &str, prefix: &str) -> bool {
    line.trim_start().starts_with(prefix)
}

/// Whether `text` names campaign `id`: the id with no character of an id
/// (`[a-z0-9-]`, and letters or `_` of a word) right before or after it,
/// so that `blue-river-2` does not name `blue-river`.
fn names(text: &str, id: &str) -> bool {
    let of_id = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    !id.is_empty()
        && text.match_indices(id).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(of_id)
                && !text[i + id.len()..].chars().next().is_some_and(of_id)
        })
}

/// What a message says and how it is marked: its subject, its Message-ID
/// and its text.
struct Received {
    subject: String,
    message_id: String,
    text: String,
}

impl Received {
    /// Whether the message is of campaign `id`, as AUDIT.md section 11.5
    /// says: its subject carries the campaign's tag (`[id] ...`, as every
    /// message adjutant sends does, the game master's act announcements
    /// included, whose text never names the campaign), its Message-ID was
    /// made for the campaign (an acknowledgement's subject is the player's
    /// own), or its text names it. A message taken for the campaign's that
    /// is not only adds checks that can fail.
    fn concerns(&self, id: &str) -> bool {
        self.subject.contains(&format!("[{id}]"))
            || self
                .message_id
                .trim_start_matches('<')
                .starts_with(&format!("{id}."))
            || names(&self.text, id)
    }
}

fn read_message(raw: &[u8]) -> Option<Received> {
    let message = mail_parser::MessageParser::default().parse(raw)?;
    let mut text = String::new();
    for i in 0..message.text_body_count() {
        if let Some(t) = message.body_text(i) {
            text.push_str(&t);
            text.push('\n');
        }
    }
    Some(Received {
        subject: message.subject().unwrap_or_default().to_string(),
        message_id: message.message_id().unwrap_or_default().to_string(),
        text,
    })
}

fn files_in(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    if let Ok(read) = fs::read_dir(dir) {
        for entry in read.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files_in(&path, out);
            } else {
                out.push(path);
            }
        }
    }
}

/// Checks the archive in `archive` (already verified into `verdict`)
/// against every message under `mail_dir`.
pub fn check(archive: &Path, verdict: &Verdict, mail_dir: &Path) -> MailCheck {
    let mut out = MailCheck::default();
    let head: Option<CampaignFile> = fs::read(archive.join("campaign.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let Some(head) = head else {
        out.problems
            .push("campaign.json cannot be read".to_string());
        return out;
    };
    let secret_of = |kind: Kind, k: u64| -> Option<Digest32> {
        let bytes = fs::read(
            archive
                .join(resolution_dir(kind, k))
                .join("resolution.json"),
        )
        .ok()?;
        let file: ResolutionFile = serde_json::from_slice(&bytes).ok()?;
        Digest32::from_hex(&file.secret).ok()
    };
    let mut manifests = BTreeSet::new();
    for (kind, count) in [(Kind::Turn, head.turns), (Kind::Umpire, head.calls)] {
        for k in 1..=count {
            if let Ok(bytes) = fs::read(archive.join(resolution_dir(kind, k)).join("manifest.txt"))
            {
                manifests.insert(Digest32::of(&bytes));
            }
        }
    }
    let mut files = Vec::new();
    files_in(mail_dir, &mut files);
    files.sort();
    for path in files {
        let Ok(raw) = fs::read(&path) else { continue };
        let Some(message) = read_message(&raw) else {
            continue;
        };
        out.messages += 1;
        // Every message that carries a head is read, the act
        // announcements included: an archive cut after the last act, or
        // with that act rewritten, no longer holds the head they gave.
        if !message.concerns(&head.campaign) {
            continue;
        }
        let text = message.text;
        out.of_campaign += 1;
        let name = path.display();
        for line in text.lines() {
            // A line that gives a value with none readable cannot be
            // checked, and every value of the campaign's mail is checked.
            let secret = ["revealed secret r_", "revealed secret q_"]
                .into_iter()
                .find(|p| has_prefix(line, p) && revealed_after(line, p).is_none());
            for prefix in VALUE_PREFIXES.into_iter().chain(secret) {
                if has_prefix(line, prefix) && value_after(line, prefix).is_none() {
                    out.problems.push(format!(
                        "{name}: a line begins `{prefix}` but gives no value of 64 hex digits, so it cannot be checked against the archive"
                    ));
                }
            }
            if let Some(h) = value_after(line, "archive head = ") {
                out.heads += 1;
                match verdict.position_of(&h) {
                    Some(e) => out.furthest_entry = out.furthest_entry.max(Some(e)),
                    None => out.problems.push(format!(
                        "{name}: the head {h} is not in the archive: it was cut short before it, or rewritten"
                    )),
                }
            }
            for (prefix, expected) in [
                ("commitment C = ", &head.commitment),
                ("umpire commitment U = ", &head.umpire_commitment),
            ] {
                if let Some(v) = value_after(line, prefix) {
                    out.commitments += 1;
                    if v.to_hex() != *expected {
                        out.problems
                            .push(format!("{name}: {prefix}{v}, the archive's is {expected}"));
                    }
                }
            }
            for prefix in [
                "manifest digest = ",
                "manifest digest: ",
                "Manifest digest: ",
            ] {
                if let Some(m) = value_after(line, prefix) {
                    out.manifests += 1;
                    // A manifest mailed for a phase not yet resolved is not
                    // in the archive yet; only a resolved one must be.
                    if !manifests.contains(&m) && text.contains("revealed secret") {
                        out.problems.push(format!(
                            "{name}: the manifest {m} is in no resolution of the archive"
                        ));
                    }
                }
            }
            for (prefix, kind) in [
                ("revealed secret r_", Kind::Turn),
                ("revealed secret q_", Kind::Umpire),
            ] {
                let Some((k, v)) = revealed_after(line, prefix) else {
                    continue;
                };
                out.secrets += 1;
                match secret_of(kind, k) {
                    Some(s) if s == v => {}
                    Some(s) => out.problems.push(format!(
                        "{name}: {kind} {k} revealed {v}, the archive says {s}"
                    )),
                    None => out.problems.push(format!(
                        "{name}: {kind} {k} was reported, the archive does not hold it"
                    )),
                }
            }
        }
    }
    if out.of_campaign == 0 {
        out.problems.push(format!(
            "no message under {} concerns campaign {}",
            mail_dir.display(),
            head.campaign
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "6c8fde539d123a1f308fd2da3437d160f035dd4f806c78c6791605bcb5c627e8";

    fn received(subject: &str, message_id: &str, text: &str) -> Received {
        let raw = format!(
            "From: adjutant@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n\r\n{text}\r\n"
        );
        read_message(raw.as_bytes()).expect("a message")
    }

    #[test]
    fn a_value_is_exactly_64_hex_digits() {
        let prefix = "archive head = ";
        let head = Digest32::from_hex(HEX).ok();
        assert_eq!(value_after(&format!("{prefix}{HEX}"), prefix), head);
        assert_eq!(
            value_after(&format!("{prefix}{HEX}  (keep it)"), prefix),
            head
        );
        // 65 hex digits in a row are not a value: not the first 64 of them.
        assert_eq!(value_after(&format!("{prefix}{HEX}0"), prefix), None);
        assert_eq!(value_after(&format!("{prefix}{}", &HEX[1..]), prefix), None);
    }

    /// AUDIT.md section 11.5: a message is the campaign's when its subject
    /// carries the tag `[<campaign id>]`, its Message-ID begins with the
    /// id and a dot, or its text names the campaign.
    #[test]
    fn a_message_is_the_campaigns_by_its_tag_its_message_id_or_its_text_naming_it() {
        assert!(received("[blue-river] Turn 3", "", "").concerns("blue-river"));
        assert!(received("Turn 3", "", "Campaign blue-river, turn 3.").concerns("blue-river"));
        // An acknowledgement: the player's own subject, adjutant's Message-ID.
        assert!(
            received("Re: my orders", "<blue-river.r3.reply.x@example.org>", "")
                .concerns("blue-river")
        );
        assert!(
            !received("Re: my orders", "<blue-river-2.r3.reply.x@example.org>", "")
                .concerns("blue-river")
        );
        // Another campaign whose id begins or ends with this one's.
        assert!(
            !received(
                "[blue-river-2] Turn 3",
                "",
                "Campaign blue-river-2, turn 3."
            )
            .concerns("blue-river")
        );
        assert!(!received("[old-blue-river] Turn 3", "", "old-blue-river").concerns("blue-river"));
    }
}
