//! Bots that are not ours in a room, allowed by the server's administrator only:
//! `majiang serve --external-bot NAME=COMMAND` names a command speaking the bot protocol
//! (`docs/bot-protocol.md`), and a room's seat picks it with the bot kind `ext:NAME`. Room
//! creators choose among the names; they never give a command.
//!
//! The allowed bots are the process's: [`allow`] registers them once at start-up (the room
//! state, which is sans-IO and made in many places, looks them up by name). An external bot
//! blocks while it thinks, so the room task runs a room with one on a blocking section of the
//! runtime (`tokio::task::block_in_place`), never stalling the other rooms. A bot that
//! crashes, is late or answers nonsense is dismissed and `efficient` plays its seat on
//! (`majiang-external`).

use majiang::bots::Bot;
use majiang::table::{Player, TableRules};
use majiang_external::spec::Command;
use majiang_external::{ExternalBot, Limits, Seating, Stderr, Tally};
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// The prefix of a seat's bot kind naming an allowed external bot (`ext:NAME`).
pub const PREFIX: &str = "ext:";

struct Allowed {
    command: Command,
    limits: Limits,
    tally: Arc<Tally>,
}

static ALLOWED: RwLock<BTreeMap<String, Allowed>> = RwLock::new(BTreeMap::new());

/// Allows the external bot `name` (letters, digits, `-` and `_`), run as `command` with
/// `time_ms` for each decision. Registering a name again replaces it.
pub fn allow(name: &str, command: Command, time_ms: u64) -> Result<(), String> {
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
    let mut allowed = ALLOWED.write().map_err(|_| "the registry is poisoned")?;
    allowed.insert(
        name.to_string(),
        Allowed {
            command,
            limits,
            tally: Arc::default(),
        },
    );
    Ok(())
}

/// The bot kinds of the allowed external bots (`ext:NAME`), sorted.
pub fn kinds() -> Vec<String> {
    ALLOWED
        .read()
        .map(|a| a.keys().map(|k| format!("{PREFIX}{k}")).collect())
        .unwrap_or_default()
}

/// True when `kind` names an external bot (allowed or not).
pub fn is_external(kind: &str) -> bool {
    kind.starts_with(PREFIX)
}

/// True when `kind` is an allowed external bot.
pub fn is_allowed(kind: &str) -> bool {
    kind.strip_prefix(PREFIX)
        .is_some_and(|name| ALLOWED.read().is_ok_and(|a| a.contains_key(name)))
}

/// Decisions the allowed bot `name` answered and its dismissals so far, for the log.
pub fn tally(name: &str) -> Option<Arc<Tally>> {
    ALLOWED.read().ok()?.get(name).map(|a| a.tally.clone())
}

/// Starts the external bot of `kind` for chair `seat` of a table under `ruleset`.
pub(crate) fn start(
    kind: &str,
    ruleset: &Arc<TableRules>,
    seat: Player,
    seed: u64,
    room: &str,
) -> Result<Box<dyn Bot>, String> {
    let name = kind.strip_prefix(PREFIX).unwrap_or(kind);
    let (command, limits, tally) = {
        let allowed = ALLOWED.read().map_err(|_| "the registry is poisoned")?;
        let a = allowed
            .get(name)
            .ok_or_else(|| format!("no external bot {name:?} on this server"))?;
        (a.command.clone(), a.limits, a.tally.clone())
    };
    let seating = Seating {
        ruleset: ruleset.clone(),
        seat,
        seed,
        context: format!("room {room}"),
    };
    ExternalBot::start(&command, seating, limits, tally)
        .map(|b| Box::new(b) as Box<dyn Bot>)
        .map_err(|e| e.to_string())
}
