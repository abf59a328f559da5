//! The `adjutant` command: argument parsing and printing only; the library
//! does the work. Each group of commands is a module of `cli`; here they
//! are dispatched.

mod cli;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use adjutant::lifecycle::{Clock, FixedClock, SystemClock};
use cli::args::{ArchiveCommand, Cli, Command};
use cli::audit::*;
use cli::in_words;
use cli::mail::*;
use cli::memory::hold_allocator_to_two_arenas;
use cli::setup::*;
use cli::turns::*;

fn main() -> ExitCode {
    hold_allocator_to_two_arenas();
    let cli = Cli::parse();
    let clock: Box<dyn Clock> = match cli.now {
        Some(t) => Box::new(FixedClock(t)),
        None => Box::new(SystemClock),
    };
    match run(cli.command, clock.as_ref()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("adjutant: {}", in_words(&e));
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command, clock: &dyn Clock) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match command {
        Command::Demo {
            out: dir,
            campaign,
            ruleset,
        } => cmd_demo(dir, campaign.or(ruleset), &mut out),
        Command::Check { campaigns } => cmd_check(campaigns, &mut out),
        Command::Passphrase => cmd_passphrase(&mut out),
        Command::Init {
            data,
            campaign: dir,
        } => cmd_init(data, dir, clock, &mut out),
        Command::Status { data, campaign } => cmd_status(data, campaign, clock, &mut out),
        Command::Submit {
            data,
            campaign,
            side,
            reason,
            orders,
        } => cmd_submit(data, campaign, side, &reason, orders, clock, &mut out),
        Command::Tick { data, campaign } => cmd_tick(data, campaign, clock, &mut out),
        Command::Resolve { data, campaign } => cmd_resolve(data, campaign, clock, &mut out),
        Command::Umpire {
            data,
            campaign,
            call,
        } => cmd_umpire(data, campaign, call, clock, &mut out),
        Command::Ingest {
            data,
            own_addresses,
        } => cmd_ingest(data, own_addresses, clock, &mut out),
        Command::Maildir {
            data,
            own_addresses,
            maildir,
        } => cmd_maildir(data, own_addresses, maildir, clock, &mut out),
        Command::Imap(args) => {
            imap(args, clock, &mut out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Daemon { config, once } => cmd_daemon(config, once, clock, &mut out),
        Command::Send { config } => cmd_send(config, clock, &mut out),
        Command::Outbox {
            data,
            campaign,
            requeue,
        } => cmd_outbox(data, campaign, requeue, clock, &mut out),
        Command::Gm {
            data,
            campaign,
            reason,
            command,
        } => cmd_gm(data, campaign, command, reason, clock, &mut out),
        Command::Archive {
            command:
                ArchiveCommand::Export {
                    data,
                    campaign,
                    out: dir,
                },
        } => cmd_archive(data, campaign, dir, &mut out),
        Command::Verify {
            archive: dir,
            head,
            mail,
        } => cmd_verify(dir, &head, mail.as_deref(), &mut out),
        Command::Dice {
            campaign,
            turn,
            umpire,
            secret,
            manifest,
            prior,
            beacon_field,
            rolls,
        } => cmd_dice(
            &campaign,
            turn,
            umpire,
            [&secret, &manifest, &prior],
            beacon_field.as_deref(),
            &rolls,
            &mut out,
        ),
        Command::Chronicle {
            data,
            campaign,
            out: dir,
            side,
        } => cmd_chronicle(data, campaign, dir, side, &mut out),
    }
}
