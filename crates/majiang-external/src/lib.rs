//! Bots that are not ours: a program in any language takes a seat by speaking the bot
//! protocol (JSON lines on its standard input and output, `docs/bot-protocol.md`; the message
//! types are the library's [`majiang::bots::protocol`]).
//!
//! - [`spec`]: naming bots on a command line (`efficient,cmd:python3 bot.py,…`).
//! - [`ExternalBot`]: the process behind a [`Bot`](majiang::bots::Bot): spawned, told the
//!   rules and its seat, asked every decision with a time limit; when it crashes, is late,
//!   answers nonsense or an illegal action, the `efficient` bot plays its seat for the rest of
//!   the match and a [`Tally`] records why.
//!
//! The library does no I/O; this crate is the edge that does (processes, pipes, a reader
//! thread per bot, clocks for the time limit). The CLI's `sim`, `selfplay` and `play` use it, and
//! the server's rooms for the bots its administrator allows.

mod bot;
mod process;
pub mod spec;

pub use bot::{ExternalBot, Failure, Fallback, Limits, Seating, Tally, bot_name};
pub use process::Stderr;
