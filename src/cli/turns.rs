//! Commands that move a campaign on by hand: `submit`, `tick`, `resolve`,
//! `umpire` and the game master's `gm`.

use super::*;

/// `adjutant submit`.
pub(crate) fn cmd_submit(
    data: PathBuf,
    campaign: String,
    side: String,
    reason: &str,
    orders: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let text = if orders.as_os_str() == "-" {
        let mut t = String::new();
        std::io::stdin().read_to_string(&mut t)?;
        t
    } else {
        std::fs::read_to_string(&orders).with_context(|| format!("reading {}", orders.display()))?
    };
    let mut store = open(&data)?;
    if engine::says_no_orders(text.lines()) {
        let declared =
            engine::gm::declare_none_by_operator(&mut store, &campaign, &side, reason, clock)?;
        writeln!(
            out,
            "{side} sends no orders for {}{}",
            declared.phase_key,
            if declared.withdrawn {
                " (its earlier orders for this phase are withdrawn)"
            } else {
                ""
            }
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let done = engine::gm::submit_by_operator(&mut store, &campaign, &side, &text, reason, clock)?;
    for refusal in done.sheet.refusals() {
        writeln!(out, "refused: {refusal}")?;
    }
    if let (false, Some(word)) = (done.stored, done.word) {
        // `ready` or `wait` alone: the side's orders stand as they are.
        let said = engine::ready::say(&mut store, &campaign, &side, word, clock, None)?;
        writeln!(
            out,
            "{side} is {} for {}; its orders stand: {}",
            if said.ready { "ready" } else { "not ready" },
            said.phase_key,
            said.standing.as_deref().unwrap_or("none")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if !done.stored {
        writeln!(out, "nothing accepted: no orders were stored for {side}")?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "accepted for {} ({}):", side, done.phase_key)?;
    write!(out, "{}", done.sheet.canonical_text())?;
    // Accepted, but what comes first in the phase may undo them.
    for warning in done.sheet.warned() {
        writeln!(out, "warning: {warning}")?;
    }
    writeln!(
        out,
        "digest {}{}",
        done.digest,
        if done.replaced {
            " (replaces your earlier orders for this phase)"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "{}",
        if done.ready {
            "ready: the phase may close as soon as every side is ready"
        } else {
            "not ready: the phase waits for the deadline, corrected orders, or the word `ready`"
        }
    )?;
    if !done.sheet.is_clean() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant tick`.
pub(crate) fn cmd_tick(
    data: PathBuf,
    campaign: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    let ids = match campaign {
        Some(id) => vec![id],
        None => store.campaign_ids()?,
    };
    // One campaign's trouble must not stop the others' deadlines.
    let mut failed = false;
    for id in ids {
        match engine::tick(&mut store, &id, clock) {
            Ok(done) if done.is_empty() => {
                let open = engine::OpenPhase::read(&store, &id)?;
                let why = if open.state.finished.is_some() {
                    "the game is over".to_string()
                } else if open.record.paused {
                    "the campaign is paused".to_string()
                } else {
                    format!(
                        "{} of {} sides ready, deadline {}",
                        open.ready.len(),
                        open.state.sides.len(),
                        open.record
                            .deadline
                            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                    )
                };
                writeln!(out, "{id}: nothing due ({why})")?;
            }
            Ok(done) => {
                for r in done {
                    writeln!(
                        out,
                        "{id}: resolution {}: {} ({} rolls){}",
                        r.k,
                        r.phase_label,
                        r.rolls,
                        match r.reason {
                            Some(adjutant::lifecycle::CloseReason::AllReady) =>
                                ", every side ready",
                            Some(adjutant::lifecycle::CloseReason::Deadline) => ", at its deadline",
                            None => "",
                        }
                    )?;
                }
            }
            Err(e) => {
                failed = true;
                eprintln!("adjutant: {id}: {e}");
            }
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant resolve`.
pub(crate) fn cmd_resolve(
    data: PathBuf,
    campaign: String,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    for r in engine::resolve_now(&mut store, &campaign, clock)? {
        writeln!(
            out,
            "{campaign}: resolution {}: {} ({} rolls)",
            r.k, r.phase_label, r.rolls
        )?;
        for e in &r.events {
            writeln!(out, "  {e}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant umpire`.
pub(crate) fn cmd_umpire(
    data: PathBuf,
    campaign: String,
    call: String,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    if call.trim().eq_ignore_ascii_case("help") {
        let record = store.campaign(&campaign)?;
        let ruleset =
            adjutant::rules::ruleset_for(&record.campaign.ruleset.id).context("unknown ruleset")?;
        writeln!(out, "{}", ruleset.umpire_help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (k, report) = engine::umpire(&mut store, &campaign, &call, clock)?;
    writeln!(out, "umpire call {k}\n{report}")?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant gm`.
pub(crate) fn cmd_gm(
    data: PathBuf,
    campaign: String,
    command: Vec<String>,
    reason: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    let zone = store.campaign(&campaign)?.campaign.schedule.time_zone;
    let mut parsed = engine::gm::GmCommand::parse(&command.join(" "), &zone)?;
    if let Some(reason) = reason {
        match &mut parsed {
            engine::gm::GmCommand::Correct(_, given @ None) if !reason.trim().is_empty() => {
                *given = Some(reason.trim().to_string());
            }
            engine::gm::GmCommand::Correct(..) => {
                anyhow::bail!(
                    "give the reason once: `--reason` or `because ...`, not both, and not empty"
                )
            }
            _ => anyhow::bail!("`--reason` goes with `correct` only"),
        }
    }
    let report = engine::gm::execute(
        &mut store,
        &campaign,
        &parsed,
        &engine::gm::Origin::cli(),
        clock,
    )?;
    writeln!(
        out,
        "{}: {}\n{}",
        report.command,
        if report.done { "done" } else { "refused" },
        report.outcome
    )?;
    if !report.done {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
