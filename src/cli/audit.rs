//! Commands for whoever checks the dice: `archive export`, `dice`,
//! `verify`.

use super::*;

/// `adjutant archive export`.
pub(crate) fn cmd_archive(
    data: PathBuf,
    campaign: String,
    dir: PathBuf,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let store = open(&data)?;
    let done = archive::export::export(&store, &campaign, &dir)?;
    writeln!(
        out,
        "wrote {} turn resolutions and {} umpire calls to {}",
        done.turns,
        done.calls,
        dir.display()
    )?;
    if done.acts > 0 {
        writeln!(out, "with {} game master's acts", done.acts)?;
    }
    writeln!(out, "the archive follows {}", done.spec)?;
    if done.pending > 0 {
        writeln!(
            out,
            "({} closed phase(s) not yet resolved were left out)",
            done.pending
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant dice`: the dice of one resolution from its seed inputs.
pub(crate) fn cmd_dice(
    campaign: &str,
    turn: Option<u64>,
    umpire: Option<u64>,
    [secret, manifest, prior]: [&String; 3],
    beacon_field: Option<&str>,
    rolls: &[String],
    out: &mut impl Write,
) -> Result<ExitCode> {
    use adjutant::audit::{DiceStream, Die, Kind, SeedInputs};
    let (kind, k) = match (turn, umpire) {
        (Some(k), None) => (Kind::Turn, k),
        (None, Some(k)) => (Kind::Umpire, k),
        _ => anyhow::bail!("give --turn K or --umpire K"),
    };
    let hex = |what: &str, v: &str| {
        Digest32::from_hex(v).with_context(|| format!("{what} must be 64 hex digits"))
    };
    let seed = SeedInputs::seed_of_fields(
        kind,
        campaign,
        k,
        &hex("--secret", secret)?,
        &hex("--manifest", manifest)?,
        &hex("--prior", prior)?,
        &beacon_field.map_or(Ok(Digest32::ZERO), |b| hex("--beacon-field", b))?,
    );
    writeln!(out, "seed {seed}")?;
    for spec in rolls {
        let parsed = spec.split_once(':').and_then(|(i, rest)| {
            let (die, word) = rest.split_once('@')?;
            Some((
                i.parse::<u64>().ok()?,
                Die::parse(die)?,
                word.parse::<u64>().ok()?,
            ))
        });
        let Some((index, die, word)) = parsed else {
            anyhow::bail!("`{spec}` is not INDEX:DIE@FIRST_WORD, e.g. 3:2d6@7");
        };
        let mut stream = DiceStream::new(&seed);
        for _ in 0..word {
            stream.word();
        }
        use adjutant::audit::dice::Dice as _;
        let roll = stream.roll(die, "");
        let faces = stream
            .log()
            .last()
            .map(|r| r.faces.clone())
            .unwrap_or_default();
        writeln!(
            out,
            "#{index} {} = {roll} {faces:?} (stream words from {word})",
            die.label()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant verify`.
pub(crate) fn cmd_verify(
    dir: PathBuf,
    heads: &[String],
    mail: Option<&Path>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let verdict = archive::verify::verify(&dir)?;
    let mut failed_anchor = false;
    for head in heads {
        let digest = Digest32::from_hex(head).context("--head must be 64 hex digits")?;
        match verdict.position_of(&digest) {
            Some(0) => writeln!(out, "head {digest}: the record's genesis; it holds it")?,
            Some(e) => writeln!(
                out,
                "head {digest}: entry {e} of the record; the archive holds, unchanged, every entry up to it"
            )?,
            None => {
                failed_anchor = true;
                writeln!(
                    out,
                    "head {digest}: NOT in this archive: it was cut short before that head, or rewritten (or the head is of another campaign)"
                )?;
            }
        }
    }
    if let Some(mail) = mail {
        let check = archive::mail_check::check(&dir, &verdict, mail);
        writeln!(
            out,
            "mail: {} messages read, {} of the campaign; checked {} heads, {} revealed secrets, {} manifest digests, {} commitments{}",
            check.messages,
            check.of_campaign,
            check.heads,
            check.secrets,
            check.manifests,
            check.commitments,
            match check.furthest_entry {
                Some(e) => format!("; the furthest head received is entry {e}"),
                None => String::new(),
            }
        )?;
        for p in &check.problems {
            writeln!(out, "mail: {p}")?;
        }
        failed_anchor |= !check.problems.is_empty();
    }
    if failed_anchor {
        print_verdict(&verdict, out)?;
        return Ok(ExitCode::FAILURE);
    }
    print_verdict(&verdict, out)
}

pub(crate) fn print_verdict(
    verdict: &archive::verify::Verdict,
    out: &mut impl Write,
) -> Result<ExitCode> {
    for line in &verdict.resolutions {
        writeln!(out, "{line}")?;
    }
    if let Some(links) = &verdict.links {
        writeln!(
            out,
            "hash-linked record: genesis and {} entries, head {}",
            links.heads.len().saturating_sub(1),
            links.heads.last().map(|h| h.to_hex()).unwrap_or_default()
        )?;
    }
    for act in &verdict.acts {
        writeln!(out, "{act}")?;
    }
    for p in &verdict.problems {
        writeln!(out, "archive: {p}")?;
    }
    for w in &verdict.warnings {
        writeln!(out, "WARNING: {w}")?;
    }
    let failed = verdict
        .resolutions
        .iter()
        .filter(|r| !r.problems.is_empty())
        .count();
    writeln!(
        out,
        "{}: {} resolutions checked, {} failed, {} problems with the archive as a whole",
        verdict.campaign,
        verdict.resolutions.len(),
        failed,
        verdict.problems.len()
    )?;
    if !verdict.acts.is_empty() {
        let bad = verdict
            .acts
            .iter()
            .filter(|a| !a.problems.is_empty())
            .count();
        writeln!(
            out,
            "{} game master's acts checked, {bad} failed",
            verdict.acts.len()
        )?;
    }
    if !verdict.ok() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
