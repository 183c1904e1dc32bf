//! The bot protocol's conversation without the process: the messages a seat sends and how the
//! bot's lines are read, with the [`Failure`] each wrong line is. [`ExternalBot`] speaks it over
//! pipes it waits on; the server's rooms speak it sans-IO (their task moves the lines, the room
//! keeps the time), so both dismiss a bot for the same reasons, in the same words.
//!
//! [`ExternalBot`]: crate::ExternalBot

use majiang::bots::protocol::{
    ErrorNotice, FromBot, Hello, PROTOCOL_VERSION, ProtocolError, ToBot,
};
use majiang::table::{Action, Player, TableRules};
use std::sync::Arc;
use std::time::Duration;

/// The longest line a bot may write (a longer one is malformed).
pub const MAX_LINE: usize = 1 << 20;

/// A seat at the table: what it is told to start with.
#[derive(Debug, Clone)]
pub struct Seating {
    /// The rules of the table.
    pub ruleset: Arc<TableRules>,
    /// The bot's chair.
    pub seat: Player,
    /// The seed of its randomness (sent in the hello; the fallback uses it too).
    pub seed: u64,
    /// For reports: which match or hand this is ("match 3").
    pub context: String,
}

/// Why an external bot was dismissed (its seat then played by `efficient`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The process exited, closed its output or its input.
    #[error("the bot stopped: {0}")]
    Crashed(String),
    /// No answer within the time limit.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// A line that is not the message expected.
    #[error("{0}")]
    Malformed(String),
    /// An answer naming no legal action.
    #[error("illegal answer: {0}")]
    Illegal(ProtocolError),
    /// A bot speaking another version of the protocol.
    #[error("the bot speaks protocol {0}, not {PROTOCOL_VERSION}")]
    Version(u32),
}

/// The hello that opens the conversation: the rules, the seat, the seed and the time for each
/// decision.
pub fn hello(seating: &Seating, decision: Duration) -> ToBot {
    let ruleset = &seating.ruleset;
    ToBot::Hello(Hello {
        protocol: PROTOCOL_VERSION,
        rules: ruleset.name().to_string(),
        options: ruleset.options_json(),
        players: ruleset.players() as u8,
        seat: seating.seat,
        seed: seating.seed,
        time_limit_ms: decision.as_millis() as u64,
    })
}

/// Reads the answer to the hello: the name the bot gives in its `ready`.
pub fn read_ready(line: &str) -> Result<String, Failure> {
    match FromBot::parse(line) {
        Ok(FromBot::Ready(ready)) if ready.protocol == PROTOCOL_VERSION => Ok(ready.name),
        Ok(FromBot::Ready(ready)) => Err(Failure::Version(ready.protocol)),
        Ok(FromBot::Action(_)) => Err(Failure::Malformed(
            "an action before \"ready\" (the hello is answered with ready)".into(),
        )),
        Err(e) => Err(Failure::Malformed(format!("{e}: {}", shorten(line)))),
    }
}

/// Reads the answer to a decision whose legal actions were `legal`.
pub fn read_action(line: &str, legal: &[Action]) -> Result<Action, Failure> {
    match FromBot::parse(line) {
        Ok(FromBot::Action(answer)) => answer.resolve(legal).map_err(Failure::Illegal),
        Ok(FromBot::Ready(_)) => Err(Failure::Malformed(
            "\"ready\" where an action was expected".into(),
        )),
        Err(e) => Err(Failure::Malformed(format!("{e}: {}", shorten(line)))),
    }
}

/// What a dismissed bot is told before it is ended.
pub fn dismissal(failure: &Failure) -> ToBot {
    ToBot::Error(ErrorNotice {
        message: format!("{failure}; the seat is played by efficient from now on"),
    })
}

/// A line longer than [`MAX_LINE`], as a failure.
pub fn too_long() -> Failure {
    Failure::Malformed("a line longer than 1 MiB".into())
}

/// The start of a long line, for a message.
fn shorten(line: &str) -> String {
    let line = line.trim();
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{:?}…", &line[..i]),
        None => format!("{line:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_protocol_says() {
        assert_eq!(
            read_ready(r#"{"type":"ready","protocol":1,"name":"x"}"#),
            Ok("x".into())
        );
        assert_eq!(
            read_ready(r#"{"type":"ready","protocol":9,"name":"x"}"#),
            Err(Failure::Version(9))
        );
        let err = read_action("nonsense", &[Action::Pass]).unwrap_err();
        assert!(
            matches!(&err, Failure::Malformed(m) if m.contains("\"nonsense\"")),
            "{err}"
        );
        assert_eq!(too_long().to_string(), "a line longer than 1 MiB");
    }
}
