//! The bot protocol: the messages a bot that is not ours reads and writes, one JSON object a
//! line (JSON lines), as chess engines speak UCI or riichi bots mjai. `docs/bot-protocol.md`
//! documents every message with an example.
//!
//! These are pure types: the process that speaks them (spawning the command, the time limit,
//! the fallback to `efficient`) lives at the edge, in the `majiang-external` crate.
//!
//! To the bot ([`ToBot`], tagged by `"type"`): [`Hello`] once, then a [`Decide`] for every
//! decision of its seat (the seat's [`Observation`], nothing hidden, and the legal actions with
//! ids), a [`HandEnd`] after every hand and a [`MatchEnd`] at the end; an [`ErrorNotice`] when its
//! answer cannot be used (the seat is then played by `efficient` and the bot is dismissed).
//!
//! From the bot ([`FromBot`]): [`Ready`] after the hello, then one [`Answer`] for each decide,
//! naming a legal action by its id, by its text (`"discard 5m"`) or by its JSON form
//! (`{"discard":"5m"}`); [`Answer::resolve`] turns it into the action.
//!
//! ```
//! use majiang::bots::protocol::{Decide, FromBot};
//! use majiang::table::{Action, Game, HandSetup, TableRules};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
//! let (game, _) = Game::new(rules, HandSetup::new(1)).unwrap();
//! let p = game.to_act().next().unwrap();
//! let decide = Decide::new(1, game.observation(p));
//! let first = decide.actions[0].action;
//! let answer = FromBot::parse(r#"{"type":"action","id":0}"#).unwrap();
//! let FromBot::Action(answer) = answer else { panic!("an answer") };
//! assert_eq!(answer.resolve(&decide.observation.legal_actions).unwrap(), first);
//! let by_text = FromBot::parse(&format!(r#"{{"type":"action","action":"{first}"}}"#)).unwrap();
//! let FromBot::Action(by_text) = by_text else { panic!("an answer") };
//! assert_eq!(by_text.resolve(&decide.observation.legal_actions).unwrap(), first);
//! ```

use crate::notation::format_in_order;
use crate::table::matches::Standing;
use crate::table::{Action, HandOutcome, Observation, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The protocol's version, sent in [`Hello`]; a bot answers [`Ready`] with the version it
/// speaks, and a bot speaking another is dismissed.
pub const PROTOCOL_VERSION: u32 = 1;

/// A message to the bot: one line of JSON, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The first message: the rules and the seat.
    Hello(Hello),
    /// The seat must decide: answer with one [`Answer`].
    Decide(Decide),
    /// A hand is over.
    HandEnd(HandEnd),
    /// The match is over: nothing more follows (standard input closes).
    MatchEnd(MatchEnd),
    /// The bot's last answer (or its silence) could not be used: the seat is played by
    /// `efficient` for the rest of the match and the bot is dismissed.
    Error(ErrorNotice),
}

/// The handshake: which protocol, which rules, which seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The rule set's name (`hongkong`, `hangzhou`, `yangzhou`, `classic`).
    pub rules: String,
    /// Every house rule of the rule set, as its options parser reads them (the match log's
    /// header has the same).
    pub options: Map<String, Value>,
    /// Players at the table.
    pub players: u8,
    /// The bot's chair (0 to players − 1); its seat wind changes from hand to hand and is in
    /// every observation.
    pub seat: Player,
    /// A seed for the bot's own randomness: the same seed, the same match.
    pub seed: u64,
    /// How long the bot has for each decision, in milliseconds.
    pub time_limit_ms: u64,
}

/// One legal action with its id (its index in the list, and in the observation's
/// `legal_actions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalAction {
    /// The id to answer with.
    pub id: usize,
    /// The action as JSON (`{"discard":"5m"}`, `"pung"`, `{"chow":{"tiles":["3m","4m","5m"]}}`).
    pub action: Action,
    /// The action in words (`discard 5m`, `chow 3m4m5m`, `pass`); an answer may name it so.
    pub text: String,
}

impl LegalAction {
    /// The actions of `legal` with their ids, in order.
    pub fn list(legal: &[Action]) -> Vec<LegalAction> {
        legal
            .iter()
            .enumerate()
            .map(|(id, &action)| LegalAction {
                id,
                action,
                text: action.to_string(),
            })
            .collect()
    }
}

/// A decision for the bot's seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decide {
    /// The hand of the match (from 1).
    pub hand: u32,
    /// What the seat may see now: its own concealed tiles, everything on the table, nothing
    /// of the others' concealed tiles or of the wall.
    pub observation: Observation,
    /// The legal actions (never empty), ids from 0, in the order of the observation's
    /// `legal_actions`.
    pub actions: Vec<LegalAction>,
}

impl Decide {
    /// The decision of `observation` (its `legal_actions` are the choices) in hand `hand`.
    pub fn new(hand: u32, observation: Observation) -> Decide {
        Decide {
            hand,
            actions: LegalAction::list(&observation.legal_actions),
            observation,
        }
    }
}

/// How a hand ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandEnd {
    /// The hand of the match (from 1).
    pub hand: u32,
    /// The win (winner, how, the tile, the patterns and payments) or the exhaustive draw.
    pub outcome: HandOutcome,
    /// Net chips per chair for the hand.
    pub payments: Vec<i64>,
}

/// How the match ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchEnd {
    /// Hands played.
    pub hands: u32,
    /// The final standings, best first.
    pub standings: Vec<Standing>,
}

/// Why the bot is dismissed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorNotice {
    /// What went wrong, for a person.
    pub message: String,
}

/// A message from the bot: one line of JSON, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The answer to [`Hello`].
    Ready(Ready),
    /// The answer to [`Decide`].
    Action(Answer),
}

/// The bot is ready to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ready {
    /// The protocol version the bot speaks ([`PROTOCOL_VERSION`]).
    pub protocol: u32,
    /// The bot's name, for reports.
    #[serde(default)]
    pub name: String,
}

/// The bot's choice: an id, an action, or both (they must then agree).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The id of a legal action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    /// The action, as JSON or as its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Choice>,
}

/// An action as the bot may write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Choice {
    /// The JSON form (`{"discard":"5m"}`, `"pung"`).
    Action(Action),
    /// The text form (`"discard 5m"`, `"chow 3m4m5m"` or `"chow 345m"`).
    Text(String),
}

/// Why a line from the bot cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Not one of the messages (not JSON, no known `"type"`, a field of the wrong kind).
    #[error("not a protocol message: {0}")]
    Malformed(String),
    /// An answer with neither `id` nor `action`.
    #[error("the answer names no action (give \"id\" or \"action\")")]
    Empty,
    /// An id outside the list.
    #[error("no action has id {id} (ids are 0 to {})", .count.saturating_sub(1))]
    UnknownId {
        /// The id given.
        id: usize,
        /// How many actions were offered.
        count: usize,
    },
    /// An action that is not among the legal ones.
    #[error("{0} is not a legal action now")]
    NotLegal(String),
    /// An id and an action that name different actions.
    #[error("id {id} is {by_id}, but the action says {said}")]
    Disagree {
        /// The id given.
        id: usize,
        /// The action of that id.
        by_id: Action,
        /// The action written.
        said: String,
    },
}

impl FromBot {
    /// Reads one line from the bot.
    pub fn parse(line: &str) -> Result<FromBot, ProtocolError> {
        serde_json::from_str(line.trim()).map_err(|e| ProtocolError::Malformed(e.to_string()))
    }
}

impl Choice {
    /// The legal action this names, if any: the JSON form exactly, the text form ignoring
    /// case and runs of spaces (a chow also in compact notation, `chow 345m`).
    fn find(&self, legal: &[Action]) -> Option<Action> {
        match self {
            Choice::Action(a) => legal.contains(a).then_some(*a),
            Choice::Text(t) => {
                let want = normalise(t);
                legal.iter().copied().find(|a| {
                    normalise(&a.to_string()) == want
                        || matches!(a, Action::Chow { tiles }
                            if want == format!("chow {}", format_in_order(tiles)))
                })
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            Choice::Action(a) => a.to_string(),
            Choice::Text(t) => format!("{t:?}"),
        }
    }
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Answer {
    /// The legal action this answer names.
    pub fn resolve(&self, legal: &[Action]) -> Result<Action, ProtocolError> {
        let by_id = match self.id {
            Some(id) => Some(legal.get(id).copied().ok_or(ProtocolError::UnknownId {
                id,
                count: legal.len(),
            })?),
            None => None,
        };
        let by_action = match &self.action {
            Some(choice) => Some(
                choice
                    .find(legal)
                    .ok_or_else(|| ProtocolError::NotLegal(choice.describe()))?,
            ),
            None => None,
        };
        match (by_id, by_action) {
            (Some(a), Some(b)) if a != b => Err(ProtocolError::Disagree {
                id: self.id.unwrap_or_default(),
                by_id: a,
                said: b.to_string(),
            }),
            (Some(a), _) | (None, Some(a)) => Ok(a),
            (None, None) => Err(ProtocolError::Empty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::Tile;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn answer(line: &str) -> Answer {
        match FromBot::parse(line).unwrap() {
            FromBot::Action(a) => a,
            other => panic!("not an answer: {other:?}"),
        }
    }

    #[test]
    fn answers_name_legal_actions_by_id_text_or_json() {
        let legal = [
            Action::Pass,
            Action::Pung,
            Action::Chow {
                tiles: [t("3m"), t("4m"), t("5m")],
            },
        ];
        assert_eq!(
            answer(r#"{"type":"action","id":1}"#).resolve(&legal),
            Ok(Action::Pung)
        );
        assert_eq!(
            answer(r#"{"type":"action","action":"  Chow   345m "}"#).resolve(&legal),
            Ok(legal[2])
        );
        assert_eq!(
            answer(r#"{"type":"action","action":{"chow":{"tiles":["3m","4m","5m"]}}}"#)
                .resolve(&legal),
            Ok(legal[2])
        );
        assert_eq!(
            answer(r#"{"type":"action","action":"pass","id":0}"#).resolve(&legal),
            Ok(Action::Pass)
        );
    }

    #[test]
    fn bad_answers_say_why() {
        let legal = [Action::Pass, Action::Pung];
        assert_eq!(
            answer(r#"{"type":"action","id":2}"#).resolve(&legal),
            Err(ProtocolError::UnknownId { id: 2, count: 2 })
        );
        assert_eq!(
            answer(r#"{"type":"action","action":"win"}"#).resolve(&legal),
            Err(ProtocolError::NotLegal("win".into()))
        );
        assert_eq!(
            answer(r#"{"type":"action","action":"discard 5m"}"#).resolve(&legal),
            Err(ProtocolError::NotLegal("\"discard 5m\"".into()))
        );
        assert!(matches!(
            answer(r#"{"type":"action","id":0,"action":"pung"}"#).resolve(&legal),
            Err(ProtocolError::Disagree { id: 0, .. })
        ));
        assert_eq!(
            answer(r#"{"type":"action"}"#).resolve(&legal),
            Err(ProtocolError::Empty)
        );
        for line in [
            "",
            "pung",
            "{}",
            r#"{"type":"dance"}"#,
            r#"{"type":"action","id":"x"}"#,
        ] {
            assert!(
                matches!(FromBot::parse(line), Err(ProtocolError::Malformed(_))),
                "{line:?}"
            );
        }
    }

    #[test]
    fn messages_round_trip() {
        let hello = ToBot::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            rules: "hongkong".into(),
            options: Map::new(),
            players: 4,
            seat: Player(2),
            seed: 7,
            time_limit_ms: 5000,
        });
        let text = serde_json::to_string(&hello).unwrap();
        assert!(
            text.starts_with(r#"{"type":"hello","protocol":1,"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<ToBot>(&text).unwrap(), hello);
        let ready = FromBot::parse(r#"{"type":"ready","protocol":1,"name":"x"}"#).unwrap();
        assert_eq!(
            ready,
            FromBot::Ready(Ready {
                protocol: 1,
                name: "x".into()
            })
        );
    }
}
