//! Bots that are not ours: a program in any language takes a seat by speaking the bot
//! protocol (JSON lines on its standard input and output, `docs/bot-protocol.md`; the message
//! types are the library's [`majiang::bots::protocol`]).
//!
//! - [`spec`]: naming bots on a command line (`efficient,cmd:python3 bot.py,…`).
//! - [`ExternalBot`]: the process behind a [`Bot`](majiang::bots::Bot): spawned, told the
//!   rules and its seat, asked every decision with a time limit; when it crashes, is late,
//!   answers nonsense or an illegal action, the `efficient` bot plays its seat for the rest of
//!   the match and a [`Tally`] records why.
//! - [`conversation`]: the protocol's messages and how a bot's lines are read, without the
//!   process (the server's rooms speak it sans-IO).
//!
//! The library does no I/O; this crate is the edge that does (processes, pipes, a reader
//! thread per bot, clocks for the time limit). The CLI's `sim`, `selfplay` and `play` use it, and
//! the server's rooms for the bots its administrator allows.

mod bot;
pub mod conversation;
mod process;
pub mod spec;

pub use bot::{ExternalBot, Fallback, Limits, Tally, bot_name};
pub use conversation::{Failure, Seating};
pub use process::Stderr;
