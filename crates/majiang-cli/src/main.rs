//! `majiang`: the command line over the majiang library.
//!
//! Exit status, every subcommand: 0 success (also when the reader of standard output goes away
//! early, as `majiang … | head -1` does); 1 when a batch (`analyze --batch`, `score --json` with
//! JSON lines) had lines it could not answer, or `replay` found a log that does not replay; 2
//! for bad arguments or input (the message is on standard error); 130 when `play` is
//! interrupted with Ctrl-C.

mod analyze;
mod bot_choice;
mod exit;
mod lines;
mod output;
mod play;
mod replay;
mod review;
mod rules_file;
mod score;
mod serve;
mod sim;

use clap::{Parser, Subcommand};
use exit::{Finished, UsageError};
use std::process::ExitCode;

/// Mahjong for the Hangzhou, Yangzhou, Hong Kong and classic Chinese rule sets.
#[derive(Parser)]
#[command(name = "majiang", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze a hand (does it win, every decomposition, waits and shanten), or many hands, one
    /// a line, with --batch.
    Analyze(analyze::Args),
    /// Score a winning hand under a rule set (JSON request, or JSON lines, on stdin with
    /// --json).
    Score(Box<score::Args>),
    /// Play a match in the terminal: you against the bots, two to five as the table seats (exit
    /// 130 on Ctrl-C).
    Play(Box<play::Args>),
    /// Check a match log: replay it and print each hand and the final standings (exit 3 if it
    /// replays but stops before the match ended, 1 if it does not replay identically, 2 if it is
    /// not a log).
    Replay(replay::ReplayArgs),
    /// The expert reviews one seat's decisions in a match log: agreement, the value lost, the
    /// costliest decisions (--json for tools).
    Review(Box<review::Args>),
    /// Play one match with seeded bots (--bots) and write its log (for `majiang replay`).
    Selfplay(replay::SelfplayArgs),
    /// Run the game server and its browser UI.
    Serve(serve::Args),
    /// Self-play between bots: win rates, chips, score histogram (parallel, seeded).
    Sim(Box<sim::Args>),
}

fn main() -> ExitCode {
    output::exit_quietly_when_stdout_closes();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => return replay::run_replay(&args),
        Command::Review(args) => review::run(&args).map(|()| Finished::Done),
        Command::Selfplay(args) => replay::run_selfplay(&args).map(|()| Finished::Done),
        Command::Serve(args) => serve::run(&args).map(|()| Finished::Done),
        Command::Sim(args) => sim::run(&args).map(|()| Finished::Done),
    };
    match result {
        Ok(finished) => finished.into(),
        Err(UsageError(msg)) => {
            eprintln!("majiang: {msg}");
            ExitCode::from(2)
        }
    }
}
