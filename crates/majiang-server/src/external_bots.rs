//! Bots that are not ours in a room, allowed by the server's administrator only:
//! `majiang serve --external-bot NAME=COMMAND` names a command speaking the bot protocol
//! (`docs/bot-protocol.md`), and a room's seat picks it with the bot kind `ext:NAME`. Room
//! creators choose among the names; they never give a command.
//!
//! The allowed bots are the app's: an [`ExternalBots`] registry given to
//! [`App::with_external_bots`](crate::App::with_external_bots) and handed to every room it runs.
//! The room speaks to its bots sans-IO (`room::outside`: what to tell a bot is an output, what
//! it wrote an input, its time limit counted on the room's clock); the room's task moves the
//! lines to and from the process (`room::pipe`). A bot that crashes, is late or answers nonsense is
//! dismissed and `efficient` plays its seat on.

use majiang_external::spec::Command;
use majiang_external::{Limits, Stderr};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The prefix of a seat's bot kind naming an allowed external bot (`ext:NAME`).
pub const PREFIX: &str = "ext:";

/// An allowed bot: the command it runs and its time limits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Allowed {
    pub(crate) command: Command,
    pub(crate) limits: Limits,
}

/// The external bots a server allows, by name (empty: none). Cheap to clone (shared).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExternalBots {
    allowed: Arc<BTreeMap<String, Allowed>>,
}

impl ExternalBots {
    /// No external bot allowed.
    pub fn none() -> ExternalBots {
        ExternalBots::default()
    }

    /// Allows the external bot `name` (letters, digits, `-` and `_`), run as `command` with
    /// `time_ms` for each decision. Allowing a name again replaces it.
    pub fn allow(&mut self, name: &str, command: Command, time_ms: u64) -> Result<(), String> {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "external bot name {name:?}: use letters, digits, - and _"
            ));
        }
        if time_ms == 0 {
            return Err("the time for a decision must be at least 1 ms".into());
        }
        let decision = Duration::from_millis(time_ms);
        let limits = Limits {
            decision,
            start: decision.max(Limits::default().start),
            stderr: Stderr::Inherit,
        };
        Arc::make_mut(&mut self.allowed).insert(name.to_string(), Allowed { command, limits });
        Ok(())
    }

    /// The bot kinds of the allowed external bots (`ext:NAME`), sorted.
    pub fn kinds(&self) -> Vec<String> {
        self.allowed
            .keys()
            .map(|k| format!("{PREFIX}{k}"))
            .collect()
    }

    /// True when `kind` is an allowed external bot.
    pub fn is_allowed(&self, kind: &str) -> bool {
        self.get(kind).is_some()
    }

    /// The allowed bot of `kind` (`ext:NAME`).
    pub(crate) fn get(&self, kind: &str) -> Option<&Allowed> {
        self.allowed.get(kind.strip_prefix(PREFIX)?)
    }
}

/// True when `kind` names an external bot (allowed or not).
pub fn is_external(kind: &str) -> bool {
    kind.starts_with(PREFIX)
}
