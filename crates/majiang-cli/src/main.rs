//! `majiang`: the command line over the majiang library.

mod analyze;
mod hand_input;
mod play;
mod replay;
mod rules_file;
mod score;
mod serve;
mod sim;

use clap::{Parser, Subcommand};
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
    /// Analyze a hand: does it win, every decomposition, waits and shanten.
    Analyze(analyze::Args),
    /// Score a winning hand under a rule set (JSON request on stdin with --json).
    Score(Box<score::Args>),
    /// Play a match in the terminal: you against three bots.
    Play(Box<play::Args>),
    /// Check a match log: replay it and print each hand and the final standings (exit 3 if it
    /// replays but stops before the match ended, 1 if it does not replay identically, 2 if it is
    /// not a log).
    Replay(replay::ReplayArgs),
    /// Play one match with seeded bots (--bots) and write its log (for `majiang replay`).
    Selfplay(replay::SelfplayArgs),
    /// Run the game server and its browser UI.
    Serve(serve::Args),
    /// Self-play between bots: win rates, chips, score histogram (parallel, seeded).
    Sim(Box<sim::Args>),
}

/// An error for the user: the message goes to standard error and the exit code is 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl<E: std::fmt::Display> From<E> for UsageError {
    fn from(e: E) -> Self {
        UsageError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => return replay::run_replay(&args),
        Command::Selfplay(args) => replay::run_selfplay(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Sim(args) => sim::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(UsageError(msg)) => {
            eprintln!("majiang: {msg}");
            ExitCode::from(2)
        }
    }
}
