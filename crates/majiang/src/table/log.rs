//! The match log and its replay.
//!
//! A [`MatchLog`] is JSON lines, one [`LogRecord`] per line, tagged by `"kind"`:
//!
//! 1. `header`: the log format ([`LOG_FORMAT`]), the rule set's name and every option (as the
//!    rule set's own options parser reads them), the match seed, the players, the safety limit
//!    on hands (if any);
//! 2. `event` records of the seat choice (no `hand`);
//! 3. for each hand: a `hand` record (its [`HandSetup`]: dealer, wind, lao, balances, seed),
//!    its setup `event`s, then every applied `action` (hand, player, action) each followed by
//!    the `event`s it caused, and a `settlement` (payments, ledger, the next deal);
//! 4. an `end` record: hands played, why the match ended, the ledger and the standings.
//!
//! Events are the full truth (every player's dealt and drawn tiles), so a log is for the
//! record, not for a player's eyes.
//!
//! [`replay`] rebuilds the match from the header, re-applies the actions, and checks that every
//! other line is exactly what the replay produces; the first difference is reported with its
//! line number ([`ReplayError`]).
//!
//! ```
//! use majiang::table::{Ruleset, log::replay, matches::{play_match, RandomPolicy}};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(Ruleset::from_name("classic", &serde_json::Map::new()).unwrap());
//! let mut policy = RandomPolicy::new(1);
//! let (_, log) = play_match(rules, 1, |g, p, a| policy.choose(g, p, a)).unwrap();
//! let text = log.to_jsonl();
//! assert!(text.starts_with(r#"{"kind":"header","format":1,"rules":"classic""#));
//! let report = replay(&text).unwrap();
//! assert_eq!(report.hands.len(), 4);
//!
//! // A tampered line is caught and named.
//! let bad = text.replacen(r#""kind":"action","hand":1,"player":"#, r#""kind":"action","hand":2,"player":"#, 1);
//! let err = replay(&bad).unwrap_err();
//! assert!(err.to_string().starts_with("line "), "{err}");
//! ```

use super::game::HandSetup;
use super::matches::{EndReason, Match, MatchError, Settlement, Standing};
use super::ruleset::{RuleSetKind, Ruleset};
use super::{Action, ActionError, Event, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The version of the log format written by this library.
pub const LOG_FORMAT: u32 = 1;

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

/// The options of a rule set as a JSON object its options parser reads back.
pub fn options_json(kind: &RuleSetKind) -> Map<String, Value> {
    kind.options_json()
}

/// A match log: its records in order. Build it while playing (as
/// [`play_match`](super::matches::play_match) does), write it with [`MatchLog::to_jsonl`],
/// check it with [`replay`].
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
    /// player, not for [`replay`], which needs the full truth.
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

    /// Reads JSON lines (blank lines are skipped). A line that is not a record is
    /// [`ReplayError::Unreadable`], with its number.
    pub fn parse(text: &str) -> Result<MatchLog, ReplayError> {
        Ok(MatchLog {
            records: parse_lines(text)?.into_iter().map(|(_, r)| r).collect(),
        })
    }
}

fn header_of(m: &Match) -> LogHeader {
    LogHeader {
        format: LOG_FORMAT,
        rules: m.ruleset().name().to_string(),
        options: options_json(m.ruleset().kind()),
        seed: m.seed(),
        players: m.players() as u8,
        hand_limit: m.hand_limit(),
    }
}

fn record_json(r: &LogRecord) -> String {
    // Every record is plain data with string keys: serialization cannot fail.
    serde_json::to_string(r).unwrap_or_else(|e| {
        serde_json::json!({"kind": "unserializable", "error": e.to_string()}).to_string()
    })
}

fn parse_lines(text: &str) -> Result<Vec<(usize, LogRecord)>, ReplayError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(line).map_err(|e| ReplayError::Unreadable {
            line: i + 1,
            message: e.to_string(),
        })?;
        out.push((i + 1, record));
    }
    Ok(out)
}

/// Why a log does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// A line that is not a log record.
    #[error("line {line}: not a log record: {message}")]
    Unreadable {
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The header is missing or names a match that cannot be built.
    #[error("line {line}: bad header: {message}")]
    Header {
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A line differs from what the replay produces.
    #[error("line {line}: the log diverges from the replay: expected {expected}, found {found}")]
    Diverged {
        /// The line (from 1).
        line: usize,
        /// What the replay produced there (JSON, or a description).
        expected: String,
        /// What the log says (JSON).
        found: String,
    },
    /// An action the game refuses.
    #[error("line {line}: player {player} cannot play {action}: {error}")]
    Refused {
        /// The line (from 1).
        line: usize,
        /// Who.
        player: Player,
        /// The action.
        action: Action,
        /// The refusal.
        error: ActionError,
    },
    /// The log stops while the match goes on.
    #[error("the log ends after line {line} but the match goes on: expected {expected}")]
    Truncated {
        /// The last line read.
        line: usize,
        /// What should come next.
        expected: String,
    },
    /// Lines after the end of the match.
    #[error("line {line}: the match is over, yet the log goes on")]
    Trailing {
        /// The first extra line.
        line: usize,
    },
    /// The match refused a step (a log whose actions do not finish a hand, say).
    #[error("line {line}: {error}")]
    Match {
        /// The line (from 1).
        line: usize,
        /// The refusal.
        error: MatchError,
    },
}

impl ReplayError {
    /// The line the error is about (from 1).
    pub fn line(&self) -> usize {
        match self {
            ReplayError::Unreadable { line, .. }
            | ReplayError::Header { line, .. }
            | ReplayError::Diverged { line, .. }
            | ReplayError::Refused { line, .. }
            | ReplayError::Truncated { line, .. }
            | ReplayError::Trailing { line }
            | ReplayError::Match { line, .. } => *line,
        }
    }

    /// True when the input is not a log at all (a line that does not parse, a bad header),
    /// rather than a log that does not replay.
    pub fn is_unreadable(&self) -> bool {
        matches!(
            self,
            ReplayError::Unreadable { .. } | ReplayError::Header { .. }
        )
    }
}

/// What a log that replays identically says.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The header.
    pub header: LogHeader,
    /// For each entrant, the chair they sat in.
    pub chairs: Vec<Player>,
    /// Every hand's settlement.
    pub hands: Vec<Settlement>,
    /// How the match ended.
    pub summary: MatchSummary,
    /// Actions re-applied.
    pub actions: usize,
    /// Records checked.
    pub records: usize,
}

struct Cursor {
    lines: Vec<(usize, LogRecord)>,
    pos: usize,
    last_line: usize,
}

impl Cursor {
    fn next(
        &mut self,
        expected: impl FnOnce() -> String,
    ) -> Result<(usize, LogRecord), ReplayError> {
        match self.lines.get_mut(self.pos) {
            Some((line, rec)) => {
                self.pos += 1;
                self.last_line = *line;
                Ok((
                    *line,
                    std::mem::replace(rec, LogRecord::End(empty_summary())),
                ))
            }
            None => Err(ReplayError::Truncated {
                line: self.last_line,
                expected: expected(),
            }),
        }
    }

    fn expect(&mut self, want: LogRecord) -> Result<(), ReplayError> {
        let (line, found) = self.next(|| record_json(&want))?;
        if found == want {
            Ok(())
        } else {
            Err(ReplayError::Diverged {
                line,
                expected: record_json(&want),
                found: record_json(&found),
            })
        }
    }
}

fn empty_summary() -> MatchSummary {
    MatchSummary {
        hands: 0,
        reason: None,
        ledger: Vec::new(),
        uncollected: 0,
        standings: Vec::new(),
    }
}

/// Replays a log written as JSON lines: rebuilds the match from the header, re-applies every
/// action, and checks that every event, settlement and the final ledger are identical. The
/// first difference is an error naming its line.
pub fn replay(text: &str) -> Result<ReplayReport, ReplayError> {
    let lines = parse_lines(text)?;
    let records = lines.len();
    let mut cur = Cursor {
        lines,
        pos: 0,
        last_line: 0,
    };
    let bad_header = |line: usize, message: String| ReplayError::Header { line, message };
    let (line, first) = cur
        .next(String::new)
        .map_err(|_| bad_header(1, "the log is empty".into()))?;
    let LogRecord::Header(header) = first else {
        return Err(bad_header(
            line,
            format!(
                "the first record must be the header, not {}",
                record_json(&first)
            ),
        ));
    };
    if header.format != LOG_FORMAT {
        return Err(bad_header(
            line,
            format!(
                "log format {} is not the format this version reads ({LOG_FORMAT})",
                header.format
            ),
        ));
    }
    let ruleset =
        Ruleset::from_name(&header.rules, &header.options).map_err(|e| bad_header(line, e.0))?;
    if usize::from(header.players) != ruleset.players() {
        return Err(bad_header(
            line,
            format!(
                "{} players, but these rules seat {}",
                header.players,
                ruleset.players()
            ),
        ));
    }
    let (mut m, events) = Match::with_hand_limit(Arc::new(ruleset), header.seed, header.hand_limit);
    for event in events {
        cur.expect(LogRecord::Event { hand: None, event })?;
    }
    let mut actions = 0;
    while !m.is_over() {
        let (mut game, events) = m.start_hand().map_err(|error| ReplayError::Match {
            line: cur.last_line + 1,
            error,
        })?;
        let hand = game.setup().hand_number;
        cur.expect(LogRecord::Hand {
            setup: game.setup().clone(),
        })?;
        for event in events {
            cur.expect(LogRecord::Event {
                hand: Some(hand),
                event,
            })?;
        }
        while !game.is_over() {
            let waiting = || {
                let who: Vec<String> = game.to_act().map(|p| p.to_string()).collect();
                format!("an action of hand {hand} by player {}", who.join(" or "))
            };
            let (line, rec) = cur.next(waiting)?;
            match rec {
                LogRecord::Action {
                    hand: h,
                    player,
                    action,
                } if h == hand => {
                    let events =
                        game.apply(player, action)
                            .map_err(|error| ReplayError::Refused {
                                line,
                                player,
                                action,
                                error,
                            })?;
                    actions += 1;
                    for event in events {
                        cur.expect(LogRecord::Event {
                            hand: Some(hand),
                            event,
                        })?;
                    }
                }
                other => {
                    return Err(ReplayError::Diverged {
                        line,
                        expected: waiting(),
                        found: record_json(&other),
                    });
                }
            }
        }
        let settlement = m.finish_hand(&game).map_err(|error| ReplayError::Match {
            line: cur.last_line,
            error,
        })?;
        cur.expect(LogRecord::Settlement(settlement))?;
    }
    let summary = MatchSummary::of(&m);
    cur.expect(LogRecord::End(summary.clone()))?;
    if let Some((line, _)) = cur.lines.get(cur.pos) {
        return Err(ReplayError::Trailing { line: *line });
    }
    Ok(ReplayReport {
        header,
        chairs: m.chairs().to_vec(),
        hands: m.settlements().to_vec(),
        summary,
        actions,
        records,
    })
}
