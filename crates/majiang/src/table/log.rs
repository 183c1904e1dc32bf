//! The match log: its records, read and written as JSON lines.
//!
//! A [`MatchLog`] is JSON lines, one [`LogRecord`] per line, tagged by `"kind"`:
//!
//! 1. `header`: the log format ([`LOG_FORMAT`]), the rule set's name and every option (as the
//!    rule set's own options parser reads them), the match seed, the players, the safety limit
//!    on hands (if any), the names shown (if given) and the rules revision the engine played
//!    ([`RULES_REVISION`]);
//! 2. `event` records of the seat choice (no `hand`);
//! 3. for each hand: a `hand` record (its [`HandSetup`]: dealer, wind, lao, balances, seed),
//!    its setup `event`s, then every applied `action` (hand, player, action) each followed by
//!    the `event`s it caused, and a `settlement` (payments, ledger, the next deal);
//! 4. an `end` record: hands played, why the match ended, the ledger and the standings.
//!
//! Events are the full truth (every player's dealt and drawn tiles), so a log is for the
//! record, not for a player's eyes.
//!
//! This module holds the records and reads and writes them; a [`Session`](super::Session)
//! writes a log as a match is played, and [`replay`](super::replay::replay) checks one.
//!
//! ```
//! use majiang::table::log::{LogRecord, MatchLog};
//! use majiang::table::{TableRules, Session};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("classic", &serde_json::Map::new()).unwrap());
//! let (session, _) = Session::new(rules, 1, None).unwrap();
//! let text = session.log().to_jsonl();
//! assert!(text.starts_with(r#"{"kind":"header","format":1,"rules":"classic""#));
//! let log = MatchLog::parse(&text).unwrap();
//! assert_eq!(log.to_jsonl(), text);
//! assert!(matches!(log.records.last(), Some(LogRecord::Event { hand: Some(1), .. })));
//! assert!(MatchLog::parse("hello").is_err());
//! ```

use super::game::HandSetup;
use super::matches::{EndReason, Match, Settlement, Standing};
use super::{Action, Event, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The version of the log format written by this library.
pub const LOG_FORMAT: u32 = 1;

/// The revision of the rules of play this library plays, written in every log's header: a
/// change to what players may do that an older log may have met (and then does not replay)
/// raises it. Logs without one were written under revision 1.
///
/// - 1: the rules up to the last discard and the missed win.
/// - 2: the last discard (after the live wall's last tile is drawn) may be claimed only to win
///   (RULES.md §1); Hong Kong's missed win, house rule `missed_win` (RULES.md §4).
pub const RULES_REVISION: u32 = 2;

/// The rules revision of a log written before revisions were recorded.
fn first_revision() -> u32 {
    1
}

/// The first line of a log: what is needed to rebuild the match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogHeader {
    /// The log format ([`LOG_FORMAT`]).
    pub format: u32,
    /// The rule set's name (`hongkong`, `hangzhou`, `yangzhou`, `classic`).
    pub rules: String,
    /// Every option of the rule set, as its options parser reads them.
    pub options: Map<String, Value>,
    /// The match seed.
    pub seed: u64,
    /// Players at the table.
    pub players: u8,
    /// The safety limit on hands, if the match had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_limit: Option<u32>,
    /// The names the players saw in play, by entrant ("You", "Bot 1"), when the driver gave
    /// them ([`Session::name_entrants`](crate::table::Session::name_entrants)); a replay shows
    /// them. Absent in logs written without names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// The rules revision the match was played under ([`RULES_REVISION`]; 1 in logs written
    /// before revisions were recorded).
    #[serde(default = "first_revision")]
    pub rules_revision: u32,
}

/// The last line of a log: how the match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Hands played.
    pub hands: u32,
    /// Why the match ended.
    pub reason: Option<EndReason>,
    /// Chips per player, by chair.
    pub ledger: Vec<i64>,
    /// The payments' imbalance over the match ([`Match::uncollected`]).
    pub uncollected: i64,
    /// Chips the zero floor kept back from winners ([`Match::withheld`]); not written when 0.
    #[serde(default, skip_serializing_if = "crate::table::log::is_zero")]
    pub withheld: i64,
    /// The standings, best first.
    pub standings: Vec<Standing>,
}

impl MatchSummary {
    /// The summary of `m` as it stands.
    pub fn of(m: &Match) -> MatchSummary {
        MatchSummary {
            hands: m.hands_played(),
            reason: m.end_reason(),
            ledger: m.ledger().to_vec(),
            uncollected: m.uncollected(),
            withheld: m.withheld(),
            standings: m.standings(),
        }
    }
}

/// One line of a match log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogRecord {
    /// The header (first line).
    Header(LogHeader),
    /// An event: of the seat choice (`hand` absent) or of a hand.
    Event {
        /// The hand, if the event belongs to one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u32>,
        /// The event.
        event: Event,
    },
    /// A hand starts with this setup.
    Hand {
        /// The setup.
        setup: HandSetup,
    },
    /// A player's action, as applied.
    Action {
        /// The hand.
        hand: u32,
        /// Who acted.
        player: Player,
        /// What they did.
        action: Action,
    },
    /// A hand's settlement.
    Settlement(Settlement),
    /// The end of the match (last line).
    End(MatchSummary),
}

/// A match log: its records in order. A [`Session`](super::Session) builds it while playing;
/// write it with [`MatchLog::to_jsonl`], check it with [`replay`](super::replay::replay).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatchLog {
    /// The records, header first.
    pub records: Vec<LogRecord>,
}

impl MatchLog {
    /// A log holding the header of `m` (call before the first hand).
    pub fn new(m: &Match) -> MatchLog {
        MatchLog {
            records: vec![LogRecord::Header(header_of(m))],
        }
    }

    /// Appends events (`hand` `None` for the seat choice).
    pub fn push_events(&mut self, hand: Option<u32>, events: impl IntoIterator<Item = Event>) {
        self.records.extend(
            events
                .into_iter()
                .map(|event| LogRecord::Event { hand, event }),
        );
    }

    /// Appends the start of a hand.
    pub fn push_hand(&mut self, setup: &HandSetup) {
        self.records.push(LogRecord::Hand {
            setup: setup.clone(),
        });
    }

    /// Appends an applied action.
    pub fn push_action(&mut self, hand: u32, player: Player, action: Action) {
        self.records.push(LogRecord::Action {
            hand,
            player,
            action,
        });
    }

    /// Appends a settlement.
    pub fn push_settlement(&mut self, settlement: Settlement) {
        self.records.push(LogRecord::Settlement(settlement));
    }

    /// Appends the end of the match.
    pub fn push_end(&mut self, m: &Match) {
        self.records.push(LogRecord::End(MatchSummary::of(m)));
    }

    /// The log as `viewer` (a chair) may see it: the tiles dealt to and drawn by other players
    /// are hidden ([`Event::seen_by`]) and other players' passes are left out (being asked
    /// would tell that they could claim). The rest is public. Such a log is for showing a
    /// player, not for [`replay`](super::replay::replay), which needs the full truth.
    pub fn seen_by(&self, viewer: Player) -> MatchLog {
        let records = self
            .records
            .iter()
            .filter(|r| {
                !matches!(r, LogRecord::Action { player, action: Action::Pass, .. }
                    if *player != viewer)
            })
            .map(|r| match r {
                LogRecord::Event {
                    hand: Some(h),
                    event,
                } => LogRecord::Event {
                    hand: Some(*h),
                    event: event.seen_by(viewer),
                },
                other => other.clone(),
            })
            .collect();
        MatchLog { records }
    }

    /// The log as JSON lines (each record on one line, a newline after each).
    pub fn to_jsonl(&self) -> String {
        let mut out = String::with_capacity(self.records.len() * 96);
        for r in &self.records {
            out.push_str(&record_json(r));
            out.push('\n');
        }
        out
    }

    /// Reads JSON lines (blank lines are skipped). A line that is not a record is a
    /// [`ParseError`] naming it.
    pub fn parse(text: &str) -> Result<MatchLog, ParseError> {
        Ok(MatchLog {
            records: parse_lines(text)?.into_iter().map(|(_, r)| r).collect(),
        })
    }
}

fn header_of(m: &Match) -> LogHeader {
    LogHeader {
        format: LOG_FORMAT,
        rules: m.ruleset().name().to_string(),
        options: m.ruleset().options_json(),
        seed: m.seed(),
        players: m.players() as u8,
        hand_limit: m.hand_limit(),
        names: Vec::new(),
        rules_revision: RULES_REVISION,
    }
}

/// The record as one line of JSON.
pub(crate) fn record_json(r: &LogRecord) -> String {
    // Every record is plain data with string keys: serialization cannot fail.
    serde_json::to_string(r).unwrap_or_else(|e| {
        serde_json::json!({"kind": "unserializable", "error": e.to_string()}).to_string()
    })
}

/// A line of text that is not a log record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: not a log record: {message}")]
pub struct ParseError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The records of JSON lines, each with its line number (from 1); blank lines are skipped.
pub(crate) fn parse_lines(text: &str) -> Result<Vec<(usize, LogRecord)>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(line).map_err(|e| ParseError {
            line: i + 1,
            message: e.to_string(),
        })?;
        out.push((i + 1, record));
    }
    Ok(out)
}

/// For serde: a zero count is not written.
pub(crate) fn is_zero(x: &i64) -> bool {
    *x == 0
}
