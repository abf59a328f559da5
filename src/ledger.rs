//! The format of a campaign's hash-linked record (spec adjutant-audit-v3,
//! docs/AUDIT.md section 11): its genesis, the link of each entry, a sealed
//! entry, the lines of `submissions.txt`, the folders entries live in and
//! the JSON and log forms their files take. Every resolution and every game
//! master's act is an *entry*, numbered in the order it was recorded; its
//! `link.txt` names the digest of every file of its folder and the digest
//! of the entry before it, back to the campaign's *genesis*. The digest of
//! the last link is the *head*: every report and acknowledgement carries
//! the head of its moment, so a player who kept one can prove that an
//! archive still holds, unchanged, everything up to it.
//!
//! Pure, and below everything that keeps or writes a record: the store
//! seals entries with it, the archive exports and verifies them, the engine
//! makes them.

use crate::audit::{Digest32, Kind};

/// The first line of `genesis.txt`.
pub const GENESIS_HEADER: &str = "adjutant-genesis-v3";
/// The first line of every `link.txt`.
pub const LINK_HEADER: &str = "adjutant-link-v3";
/// The name of an entry's link file inside its folder.
pub const LINK_FILE: &str = "link.txt";
/// The files of a resolution that a campaign may publish late (fog of war):
/// listed in its link, absent from the folder until then.
pub const LATE_FILES: [&str; 2] = ["events.jsonl", "rolls.jsonl"];

/// What the campaign fixed before its first order: the text whose digest
/// the first entry links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Genesis {
    pub campaign: String,
    pub ruleset: String,
    /// Sorted.
    pub sides: Vec<String>,
    pub chain_length: u32,
    pub commitment: Digest32,
    pub umpire_commitment: Digest32,
    /// The beacon line's words after `beacon`: `none`, or `text <SHA-256 of
    /// the text>`.
    pub beacon: String,
    pub no_orders_policy: String,
    pub initial_state_digest: Digest32,
}

impl Genesis {
    /// The beacon words: `none`, `text <SHA-256 of the text>`, or `drand
    /// <chain hash>` (the chain hash commits to the network's public key,
    /// period, genesis time, group hash and id).
    pub fn beacon_words(text: Option<&str>, drand_chain: Option<&str>) -> String {
        match (drand_chain, text) {
            (Some(chain), _) => format!("drand {chain}"),
            (None, None) => "none".to_string(),
            (None, Some(t)) => format!("text {}", Digest32::of(t.as_bytes())),
        }
    }

    /// `genesis.txt`, every line ending with LF.
    pub fn text(&self) -> String {
        let lines = [
            GENESIS_HEADER.to_string(),
            format!("campaign {}", self.campaign),
            format!("ruleset {}", self.ruleset),
            format!("sides {}", self.sides.join(" ")),
            format!("chain_length {}", self.chain_length),
            format!("commitment {}", self.commitment),
            format!("umpire_commitment {}", self.umpire_commitment),
            format!("beacon {}", self.beacon),
            format!("no_orders_policy {}", self.no_orders_policy),
            format!("initial_state {}", self.initial_state_digest),
        ];
        joined_lines(&lines)
    }

    /// The head of a campaign with no entry yet.
    pub fn digest(&self) -> Digest32 {
        Digest32::of(self.text().as_bytes())
    }
}

/// One entry's link: what `link.txt` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub campaign: String,
    /// Its number among the campaign's entries, from 1.
    pub entry: u64,
    /// The digest of the entry before (of `genesis.txt` for entry 1).
    pub previous: Digest32,
    /// Its folder in the archive: `turns/0003`, `calls/0001`, `gm/0002`.
    pub folder: String,
    /// Every file of the folder but `link.txt`, by its path inside the
    /// folder, sorted by the bytes of the path.
    pub files: Vec<(String, Digest32)>,
}

/// Why a `link.txt` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("link.txt line {line}: {problem}")]
pub struct LinkParseError {
    pub line: usize,
    pub problem: String,
}

impl Link {
    /// Makes the link of `files` (path inside the folder, bytes).
    pub fn of(
        campaign: &str,
        entry: u64,
        previous: Digest32,
        folder: &str,
        files: &[(String, Vec<u8>)],
    ) -> Link {
        let mut listed: Vec<(String, Digest32)> = files
            .iter()
            .map(|(name, bytes)| (name.clone(), Digest32::of(bytes)))
            .collect();
        listed.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        Link {
            campaign: campaign.to_string(),
            entry,
            previous,
            folder: folder.to_string(),
            files: listed,
        }
    }

    /// `link.txt`, every line ending with LF.
    pub fn text(&self) -> String {
        let mut lines = vec![
            LINK_HEADER.to_string(),
            format!("campaign {}", self.campaign),
            format!("entry {}", self.entry),
            format!("previous {}", self.previous),
            format!("record {}", self.folder),
        ];
        lines.extend(
            self.files
                .iter()
                .map(|(name, digest)| format!("file {name} {digest}")),
        );
        joined_lines(&lines)
    }

    /// The entry's digest: the head once it is the last.
    pub fn digest(&self) -> Digest32 {
        Digest32::of(self.text().as_bytes())
    }

    /// Reads a `link.txt`. The text must be exactly what [`Link::text`]
    /// writes: the caller compares it again byte for byte.
    pub fn parse(text: &str) -> Result<Link, LinkParseError> {
        let fail = |line: usize, problem: &str| LinkParseError {
            line,
            problem: problem.to_string(),
        };
        let Some(body) = text.strip_suffix('\n') else {
            return Err(fail(0, "the file must end with LF"));
        };
        let lines: Vec<&str> = body.split('\n').collect();
        let field = |i: usize, key: &str| -> Result<&str, LinkParseError> {
            lines
                .get(i)
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix(' '))
                .ok_or_else(|| fail(i + 1, &format!("expected `{key} ...`")))
        };
        if lines.first() != Some(&LINK_HEADER) {
            return Err(fail(1, &format!("expected `{LINK_HEADER}`")));
        }
        let campaign = field(1, "campaign")?.to_string();
        let entry = field(2, "entry")?
            .parse::<u64>()
            .map_err(|_| fail(3, "the entry is not a number"))?;
        let previous = Digest32::from_hex(field(3, "previous")?)
            .map_err(|_| fail(4, "previous is not 64 hex digits"))?;
        let folder = field(4, "record")?.to_string();
        let mut files = Vec::new();
        for (i, _) in lines.iter().enumerate().skip(5) {
            let rest = field(i, "file")?;
            let (name, digest) = rest
                .rsplit_once(' ')
                .ok_or_else(|| fail(i + 1, "expected `file <path> <digest>`"))?;
            let digest = Digest32::from_hex(digest)
                .map_err(|_| fail(i + 1, "the file's digest is not 64 hex digits"))?;
            // Canonical: sorted by the bytes of the path, each path once
            // (AUDIT.md section 11.5, step 2). `text` writes the lines in
            // the order read, so reading back as itself does not show it.
            if files
                .last()
                .is_some_and(|(last, _): &(String, Digest32)| last.as_bytes() >= name.as_bytes())
            {
                return Err(fail(
                    i + 1,
                    "the file lines are not sorted by path, each path once",
                ));
            }
            files.push((name.to_string(), digest));
        }
        Ok(Link {
            campaign,
            entry,
            previous,
            folder,
            files,
        })
    }
}

/// An entry ready to be stored: its link and, for a game master's act, the
/// bytes of its `act.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub link: Link,
    pub act_json: Option<String>,
}

impl Sealed {
    pub fn digest(&self) -> Digest32 {
        self.link.digest()
    }
}

/// A submission of orders as a resolution's `submissions.txt` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionLine {
    pub at: String,
    pub side: String,
    pub digest: Digest32,
    /// `accepted` (in the manifest) or `superseded` (replaced, withdrawn or
    /// set aside before the phase closed).
    pub status: String,
    /// `mail` (from the player's own message) or `gm` (given by the game
    /// master with `adjutant submit`; the act that did so says why).
    pub via: String,
}

/// `submissions.txt`: every submission of orders made for the phase, in
/// the order made: `<time> <side> <digest> <status> <via>`.
pub fn submissions_text(lines: &[SubmissionLine]) -> String {
    let lines: Vec<String> = lines
        .iter()
        .map(|s| format!("{} {} {} {} {}", s.at, s.side, s.digest, s.status, s.via))
        .collect();
    joined_lines(&lines)
}

/// The pretty-printed JSON the archive's own files use, ending with LF.
pub fn pretty<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
}

/// The beacon value a turn's seed took (spec v3, a campaign with a drand
/// beacon).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BeaconRecord {
    pub round: u64,
    /// The round's signature, hex.
    pub signature: String,
}

/// The files of one game master's act's folder (spec v3): `act.json`, and
/// for an act that changed the state, the states before and after it.
pub fn act_files(act_json: &str, states: Option<(&str, &str)>) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![("act.json".to_string(), act_json.as_bytes().to_vec())];
    if let Some((prior, next)) = states {
        files.push(("prior-state.json".to_string(), prior.as_bytes().to_vec()));
        files.push(("next-state.json".to_string(), next.as_bytes().to_vec()));
    }
    files
}

/// The folder of act n: `gm/0001`.
pub fn act_dir(n: u64) -> String {
    format!("gm/{n:04}")
}

/// The folder of resolution k of `kind`: `turns/0001`, `calls/0002`.
pub fn resolution_dir(kind: Kind, k: u64) -> String {
    format!("{}/{k:04}", kind.folder())
}

/// The lines of a log, each ending with LF.
pub fn joined_lines(items: &[String]) -> String {
    items.iter().map(|l| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> Link {
        Link::of(
            "example",
            2,
            Digest32::of(b"before"),
            "turns/0001",
            &[
                ("rolls.jsonl".into(), b"".to_vec()),
                ("orders/b.txt".into(), b"hold x\n".to_vec()),
                ("manifest.txt".into(), b"m\n".to_vec()),
            ],
        )
    }

    #[test]
    fn a_link_lists_its_files_in_byte_order_and_reads_back() {
        let l = link();
        let text = l.text();
        assert!(text.starts_with("adjutant-link-v3\ncampaign example\nentry 2\nprevious "));
        let names: Vec<&str> = l.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["manifest.txt", "orders/b.txt", "rolls.jsonl"]);
        assert_eq!(Link::parse(&text), Ok(l));
    }

    #[test]
    fn any_change_to_a_file_changes_the_link_digest() {
        let a = link();
        let b = Link::of(
            "example",
            2,
            Digest32::of(b"before"),
            "turns/0001",
            &[
                ("rolls.jsonl".into(), b"".to_vec()),
                ("orders/b.txt".into(), b"hold y\n".to_vec()),
                ("manifest.txt".into(), b"m\n".to_vec()),
            ],
        );
        assert_ne!(a.digest(), b.digest());
    }

    #[test]
    fn a_link_without_its_last_line_feed_or_with_a_bad_digest_is_refused() {
        let text = link().text();
        assert!(Link::parse(text.trim_end()).is_err());
        assert!(Link::parse(&text.replace("previous ", "previous zz")).is_err());
    }

    /// AUDIT.md section 11.5, step 2: the `file` lines of a canonical link
    /// are sorted by the bytes of the path, each path once. Link::text writes
    /// them in the order it holds them, so reading back as itself is not
    /// enough.
    #[test]
    fn a_link_with_its_file_lines_unsorted_or_repeated_is_refused() {
        let text = link().text();
        let lines: Vec<&str> = text.lines().collect();
        let (head, files) = lines.split_at(5);
        let with = |files: &[&str]| -> String {
            head.iter()
                .chain(files.iter())
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let unsorted = with(&[files[1], files[0], files[2]]);
        assert!(Link::parse(&unsorted).is_err(), "{unsorted}");
        let repeated = with(&[files[0], files[1], files[1], files[2]]);
        assert!(Link::parse(&repeated).is_err(), "{repeated}");
        assert_eq!(Link::parse(&with(files)), Ok(link()));
    }

    #[test]
    fn genesis_text_has_every_fixed_fact_on_its_own_line() {
        let g = Genesis {
            campaign: "example".into(),
            ruleset: "some-ruleset".into(),
            sides: vec!["alpha".into(), "beta".into()],
            chain_length: 3,
            commitment: Digest32::ZERO,
            umpire_commitment: Digest32::ZERO,
            beacon: Genesis::beacon_words(None, None),
            no_orders_policy: "stand-fast".into(),
            initial_state_digest: Digest32::ZERO,
        };
        let text = g.text();
        assert_eq!(text.lines().count(), 10);
        assert!(text.contains("\nsides alpha beta\n"));
        assert!(text.contains("\nbeacon none\n"));
    }
}
