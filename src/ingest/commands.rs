//! The GM's message: its command lines, carried out one by one.

use serde_json::json;

use super::letter::Letter;
use super::{Handled, IngestError, Outcome};
use crate::engine::gm::{GmCommand, Origin};
use crate::lifecycle::Clock;
use crate::store::{CampaignRecord, Store};
use crate::templates::Templates;

/// The command of a line `command: extend 24h` (or `command extend 24h`).
pub(super) fn command_line(line: &str) -> Option<&str> {
    let head = line.get(..7)?;
    if !head.eq_ignore_ascii_case("command") {
        return None;
    }
    let rest = &line[7..];
    if let Some(after) = rest.strip_prefix(':') {
        return Some(after.trim());
    }
    rest.starts_with(char::is_whitespace).then(|| rest.trim())
}

/// Carries out the GM's command lines in order and replies line by line.
pub(super) fn gm_commands(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    commands: &[(usize, String)],
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    crate::failpoint::hit("ingest:gm-commands");
    let campaign = &record.campaign;
    if commands.is_empty() {
        let reason =
            "orders come from the players; the GM's mail carries command lines".to_string();
        let hint = "Write one command a line, as in `command: status` (see docs/GM-COMMANDS.md).";
        return letter.refuse(Some(campaign), reason, Some(hint));
    }
    let mut lines = Vec::new();
    let (mut done, mut refused) = (0, 0);
    for (number, text) in commands {
        let (command, outcome, ok) = match GmCommand::parse(text, &campaign.schedule.time_zone) {
            Err(e) => (text.clone(), format!("refused: {e}"), false),
            Ok(command) => {
                let origin = Origin {
                    source: "mail".into(),
                    key: Some(format!("{}:{number}", letter.key.to_hex())),
                    by: format!("gm {}", letter.sender),
                };
                let report =
                    crate::engine::gm::execute(store, &campaign.id, &command, &origin, clock)?;
                let word = if report.done { "done" } else { "refused" };
                (
                    report.command,
                    format!("{word}: {}", report.outcome),
                    report.done,
                )
            }
        };
        if ok {
            done += 1;
        } else {
            refused += 1;
        }
        lines.push(json!({ "number": number, "command": command, "outcome": outcome }));
    }
    let templates = Templates::for_campaign(&record.source_dir)?;
    let body = templates.render(
        "gm-reply.txt",
        json!({ "campaign": campaign.id, "lines": lines }),
    )?;
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::Commands {
        campaign: campaign.id.clone(),
        done,
        refused,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}
