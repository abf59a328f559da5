//! Commands that set a campaign up or look at it: `demo`, `chronicle`,
//! `check`, `passphrase`, `init`, `status`.

use super::*;

/// `adjutant demo`.
pub(crate) fn cmd_demo(
    dir: PathBuf,
    asked: Option<String>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let result = adjutant::demo::run(&dir, asked.as_deref(), out)?;
    writeln!(
        out,
        "campaign data: {}\norders mailed by the bots: {}\nreports and every other message sent: {}\narchive: {}  (check it: adjutant verify {})\nchronicle, every turn with its dice checked in the browser: {}",
        result.data_dir.display(),
        result.maildir.display(),
        result.outbox_dir.display(),
        result.archive_dir.display(),
        result.archive_dir.display(),
        result.chronicle.display()
    )?;
    if !result.verdict.ok() {
        bail!("the demo's archive did not verify");
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant chronicle`.
pub(crate) fn cmd_chronicle(
    data: PathBuf,
    campaign: String,
    dir: PathBuf,
    side: Option<String>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    use adjutant::chronicle::{self, Reader};
    let store = open(&data)?;
    let reader = side.map_or(Reader::Gm, Reader::Side);
    let written = chronicle::write(&store, &campaign, reader, &dir)?;
    writeln!(
        out,
        "chronicle of {campaign}: {} turns, {} umpire calls, {} dice{}\nopen {}",
        written.turns,
        written.calls,
        written.dice,
        if written.full {
            " (everything)".to_string()
        } else {
            format!(
                " shown, {} withheld until the game is over",
                written.withheld
            )
        },
        written.index.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant check`.
pub(crate) fn cmd_check(campaigns: Vec<PathBuf>, out: &mut impl Write) -> Result<ExitCode> {
    let mut failed = false;
    for dir in campaigns {
        match campaign::load(&dir) {
            Ok(c) => writeln!(
                out,
                "{}: ok ({}, {} sides, {} units)",
                dir.display(),
                c.ruleset.id,
                c.sides.len(),
                c.scenario.units.len()
            )?,
            Err(problems) => {
                failed = true;
                eprintln!("{problems}");
            }
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant passphrase`.
pub(crate) fn cmd_passphrase(out: &mut impl Write) -> Result<ExitCode> {
    let mut text = String::new();
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprint!("passphrase: ");
    }
    std::io::stdin().read_line(&mut text)?;
    let passphrase = text.trim_end_matches(['\n', '\r']);
    if passphrase.is_empty() {
        bail!("an empty passphrase protects nothing");
    }
    writeln!(out, "{}", campaign::passphrase::hash(passphrase)?)?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant init`.
pub(crate) fn cmd_init(
    data: PathBuf,
    dir: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let loaded = campaign::load(&dir).map_err(|p| anyhow::anyhow!("{p}"))?;
    let mut store = open(&data)?;
    let record = engine::init(&mut store, &loaded, &dir, clock)?;
    writeln!(
        out,
        "registered {} in {}\ncommitment C = {}\numpire commitment U = {}\nchain length N = {}\nfirst deadline: {}",
        loaded.id,
        data.display(),
        record.commitment,
        record.chain.umpire_chain().commitment(),
        record.chain.length(),
        record.deadline
    )?;
    // What went into the outbox: the opening mail, one to each person.
    let queued = store.queued_mail(&loaded.id)?;
    writeln!(
        out,
        "queued {} opening message(s); `adjutant send` or the daemon sends them:",
        queued.len()
    )?;
    for mail in &queued {
        writeln!(out, "  to {}: {}", mail.recipient, mail.subject)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant status`.
pub(crate) fn cmd_status(
    data: PathBuf,
    campaign: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let store = open(&data)?;
    let ids = match campaign {
        Some(id) => vec![id],
        None => store.campaign_ids()?,
    };
    if ids.is_empty() {
        writeln!(out, "no campaigns in {}", data.display())?;
    }
    for id in ids {
        writeln!(
            out,
            "{}",
            adjutant::engine::status::describe(&store, &id, clock.now())?
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
