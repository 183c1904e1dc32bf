//! Checking a match log: [`replay`] rebuilds the match from the header, re-drives a
//! [`Session`] with the logged actions, and compares every record the session writes with the
//! logged one; the first difference is reported with its line number ([`ReplayError`]).
//!
//! A log that stops early (a match left unfinished, a file cut short) but agrees with the
//! replay as far as it goes is not an error: the report says it is incomplete and in which
//! hand it stops ([`ReplayReport::complete`], [`ReplayReport::stops_in`]).
//!
//! A log written under an earlier revision of the rules of play (its header's
//! `rules_revision`, [`RULES_REVISION`]) replays as long as it never meets what changed; where
//! it does, the replay stops with [`ReplayError::EarlierRules`] naming the rule, never
//! re-scoring the hand under the new one.
//!
//! ```
//! use majiang::bots::{self, Bot};
//! use majiang::table::{TableRules, replay};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("classic", &serde_json::Map::new()).unwrap());
//! let mut players: Vec<Box<dyn Bot>> = (0..4)
//!     .map(|i| bots::by_name("random", &rules, i).unwrap())
//!     .collect();
//! let (_, log) = majiang::driver::play_match(rules, 1, None, &mut players).unwrap();
//! let text = log.to_jsonl();
//! let report = replay(&text).unwrap();
//! assert!(report.complete);
//! assert_eq!(report.hands.len(), 4);
//!
//! // A tampered line is caught and named.
//! let bad = text.replacen(r#""kind":"action","hand":1,"player":"#, r#""kind":"action","hand":2,"player":"#, 1);
//! let err = replay(&bad).unwrap_err();
//! assert!(err.to_string().starts_with("line "), "{err}");
//!
//! // A log cut short replays as far as it goes.
//! let cut: String = text.lines().take(200).map(|l| format!("{l}\n")).collect();
//! let partial = replay(&cut).unwrap();
//! assert!(!partial.complete);
//! assert!(partial.stops_in.is_some());
//! ```

use super::log::{
    LOG_FORMAT, LogHeader, LogRecord, MatchLog, MatchSummary, ParseError, RULES_REVISION,
    parse_lines, record_json,
};
use super::matches::{MatchError, Settlement};
use super::session::Session;
use super::table_rules::TableRules;
use super::{Action, ActionError, Event, ExtraWinds, Game, HandOutcome, IllegalReason, Player};
use std::sync::Arc;

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
    /// Lines after the end of the match.
    #[error("line {line}: the match is over, yet the log goes on")]
    Trailing {
        /// The first extra line.
        line: usize,
    },
    /// The match refused a step.
    #[error("line {line}: {error}")]
    Match {
        /// The line (from 1).
        line: usize,
        /// The refusal.
        error: MatchError,
    },
    /// A log written under an earlier revision of the rules meets a rule that has changed
    /// since: it does not replay under the rules played now.
    #[error(
        "line {line}: this log was recorded under rules revision {revision}, before {rule}; \
         here the match met that rule, so it does not replay under the rules played now \
         (revision {current})",
        current = RULES_REVISION
    )]
    EarlierRules {
        /// The line (from 1).
        line: usize,
        /// The log's rules revision.
        revision: u32,
        /// The rule it met.
        rule: ChangedRule,
    },
}

/// A rule of play changed since an earlier rules revision ([`RULES_REVISION`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ChangedRule {
    /// Revision 2: the last discard may be claimed only to win (RULES.md §1).
    #[error(
        "the last-discard rule (after the live wall's last tile is drawn, its discard may be \
         claimed only to win: no chow, pung or kong)"
    )]
    LastDiscard,
    /// Revision 2: Hong Kong's missed win (RULES.md §4).
    #[error(
        "Hong Kong's missed win (house rule missed_win: a player who passes a win may not win \
         on that tile until their next draw from the live wall; a header option \
         \"missed_win\": false replays the log without it)"
    )]
    MissedWin,
}

impl From<ParseError> for ReplayError {
    fn from(e: ParseError) -> ReplayError {
        ReplayError::Unreadable {
            line: e.line,
            message: e.message,
        }
    }
}

impl ReplayError {
    /// The line the error is about (from 1).
    pub fn line(&self) -> usize {
        match self {
            ReplayError::Unreadable { line, .. }
            | ReplayError::Header { line, .. }
            | ReplayError::Diverged { line, .. }
            | ReplayError::Refused { line, .. }
            | ReplayError::Trailing { line }
            | ReplayError::Match { line, .. }
            | ReplayError::EarlierRules { line, .. } => *line,
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

/// What a log that agrees with its replay says.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The header.
    pub header: LogHeader,
    /// For each entrant, the chair they sat in.
    pub chairs: Vec<Player>,
    /// Every finished hand's settlement.
    pub hands: Vec<Settlement>,
    /// The match as the log leaves it (for a complete log: how it ended).
    pub summary: MatchSummary,
    /// Actions re-applied.
    pub actions: usize,
    /// Records checked.
    pub records: usize,
    /// True when the log runs to the end of the match; false when it stops early (every line
    /// it has agreeing with the replay).
    pub complete: bool,
    /// For a log that stops early, the hand it stops in (from 1; the hand after the last
    /// finished one when it stops between hands).
    pub stops_in: Option<u32>,
    /// True when a log that stops early stops between hands: after a hand's settlement,
    /// before the next hand was dealt (a player who left at the end of a hand).
    pub between_hands: bool,
}

/// The logged records, compared in order with the records a session writes.
struct Checker {
    lines: std::iter::Peekable<std::vec::IntoIter<(usize, LogRecord)>>,
    /// Records of the session's log already compared.
    checked: usize,
    /// The last line read.
    last_line: usize,
}

impl Checker {
    fn next(&mut self) -> Option<(usize, LogRecord)> {
        let next = self.lines.next();
        if let Some((line, _)) = &next {
            self.last_line = *line;
        }
        next
    }

    /// Compares the records `log` has written since the last call with the next logged ones:
    /// `Ok(false)` when the logged lines run out first.
    fn compare(&mut self, log: &MatchLog) -> Result<bool, ReplayError> {
        while let Some(want) = log.records.get(self.checked) {
            let Some((line, found)) = self.next() else {
                return Ok(false);
            };
            if !agrees(&found, want) {
                return Err(ReplayError::Diverged {
                    line,
                    expected: record_json(want),
                    found: record_json(&found),
                });
            }
            self.checked += 1;
        }
        Ok(true)
    }
}

/// Whether the logged record `found` is the record `want` the session wrote. A log written
/// before wins carried their itemised payments (`scored.itemised` absent from won events and
/// settlements) and before extra-wind melds named their tiles (`extra_winds` absent from a
/// claimed meld) agrees with the same records as written now: such logs keep replaying, and a
/// log that has those fields is checked on them.
fn agrees(found: &LogRecord, want: &LogRecord) -> bool {
    if found == want {
        return true;
    }
    let mut want = want.clone();
    // Logs from before the zero floor's withheld chips were recorded have none.
    if forget_withheld(&mut want) && *found == want {
        return true;
    }
    let mut plain = want.clone();
    if !forget_additions(&mut plain) {
        return false;
    }
    let mut logged = found.clone();
    !forget_additions(&mut logged) && *found == plain
}

/// Zeroes the withheld chips of a settlement or the end record; true if there were any.
fn forget_withheld(record: &mut LogRecord) -> bool {
    let withheld = match record {
        LogRecord::Settlement(s) => &mut s.withheld,
        LogRecord::End(summary) => &mut summary.withheld,
        _ => return false,
    };
    std::mem::take(withheld) != 0
}

/// Empties what older logs did not record: the itemised payments of a won event or a won
/// hand's settlement, the extra winds of a claimed meld. True if anything was there.
fn forget_additions(record: &mut LogRecord) -> bool {
    match record {
        LogRecord::Event {
            event: Event::Won { scored, .. },
            ..
        }
        | LogRecord::Settlement(Settlement {
            outcome: HandOutcome::Win { scored, .. },
            ..
        }) => {
            let had = !scored.itemised.is_empty();
            scored.itemised.clear();
            had
        }
        LogRecord::Event {
            event: Event::Claimed { meld, .. },
            ..
        } => {
            let had = !meld.extra_winds.is_empty();
            meld.extra_winds = ExtraWinds::EMPTY;
            had
        }
        _ => false,
    }
}

/// The action of a logged record written as JSON, if it is one.
fn logged_action(json: &str) -> Option<(Player, Action)> {
    match serde_json::from_str(json) {
        Ok(LogRecord::Action { player, action, .. }) => Some((player, action)),
        _ => None,
    }
}

/// The rule changed since the log's rules revision that explains why its replay failed with
/// `e` at the logged action `logged` (if the failing record is one), `game` being the hand as
/// the replay has it; `None` for a log of the current revision, or a failure the changes do
/// not explain.
fn changed_rule(
    header: &LogHeader,
    game: &Game,
    e: &ReplayError,
    logged: Option<(Player, Action)>,
) -> Option<ChangedRule> {
    if header.rules_revision >= RULES_REVISION {
        return None;
    }
    let refusal = match e {
        ReplayError::Refused { error, .. } => Some(error),
        _ => None,
    };
    match (logged, refusal) {
        (Some((player, action)), _) => ChangedRule::behind(game, player, action, refusal),
        (None, Some(error)) => ChangedRule::behind_refusal(error),
        (None, None) => None,
    }
    // Only a rule brought after the log's revision explains it.
    .filter(|rule| rule.revision() > header.rules_revision)
}

impl ChangedRule {
    /// The rules revision that brought this rule: a match recorded under an earlier revision
    /// may have met it, one recorded under this revision or a later one may not.
    pub fn revision(self) -> u32 {
        match self {
            ChangedRule::LastDiscard | ChangedRule::MissedWin => 2,
        }
    }

    /// The rule changed since rules revision 1 that explains why `game` (a hand replayed under
    /// the rules played now) does not take `player`'s `action`, recorded under an earlier
    /// revision, `refusal` being the engine's answer to it if it was asked; `None` when the
    /// changes do not explain it. A match log's replay says so ([`ReplayError::EarlierRules`]);
    /// so does the game server's replay of a match it stored before the change.
    pub fn behind(
        game: &Game,
        player: Player,
        action: Action,
        refusal: Option<&ActionError>,
    ) -> Option<ChangedRule> {
        if let Some(rule) = refusal.and_then(ChangedRule::behind_refusal) {
            return Some(rule);
        }
        // The last discard made, the live wall empty: it is still on offer (to a winner only)
        // or nobody could win on it and the hand is drawn.
        let at_last_discard = game.live_remaining() == 0
            && game.last_discard().is_some()
            && (game.on_offer().is_some()
                || matches!(game.outcome(), Some(HandOutcome::ExhaustiveDraw)));
        let barred = !game.missed_wins(player).is_empty();
        match action {
            // A win is never refused on the last discard: a win the replay did not offer was
            // barred.
            Action::Win if barred => Some(ChangedRule::MissedWin),
            Action::Chow { .. } | Action::Pung | Action::Kong | Action::Pass if at_last_discard => {
                Some(ChangedRule::LastDiscard)
            }
            Action::Pass if barred => Some(ChangedRule::MissedWin),
            _ => None,
        }
    }

    /// The changed rule an engine's refusal names, if it names one.
    fn behind_refusal(error: &ActionError) -> Option<ChangedRule> {
        match error {
            ActionError::Illegal {
                reason: IllegalReason::MissedWin,
                ..
            } => Some(ChangedRule::MissedWin),
            ActionError::Illegal {
                reason: IllegalReason::LastDiscard,
                ..
            } => Some(ChangedRule::LastDiscard),
            _ => None,
        }
    }
}

/// Replays a log written as JSON lines: rebuilds the match from the header, re-drives a
/// [`Session`] with every logged action, and checks that every record the session writes
/// (events, settlements, the end) is the logged one. The first difference is an error naming
/// its line; a log that stops early but agrees as far as it goes is an incomplete report.
pub fn replay(text: &str) -> Result<ReplayReport, ReplayError> {
    let lines = parse_lines(text)?;
    let records = lines.len();
    let mut lines = lines.into_iter();
    let bad_header = |line: usize, message: String| ReplayError::Header { line, message };
    let (line, first) = lines
        .next()
        .ok_or_else(|| bad_header(1, "the log is empty".into()))?;
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
    let ruleset = TableRules::from_name(&header.rules, &header.options)
        .map_err(|e| bad_header(line, e.to_string()))?;
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
    let (mut session, _) = Session::new(Arc::new(ruleset), header.seed, header.hand_limit)
        .map_err(|error| ReplayError::Match {
            line: line + 1,
            error,
        })?;
    let mut check = Checker {
        lines: lines.collect::<Vec<_>>().into_iter().peekable(),
        // The header was read above.
        checked: 1,
        last_line: line,
    };
    let mut actions = 0;
    // The session's records before the last deal the replay made (none of that hand's records
    // logged yet: a log ending there stops between hands).
    let mut before_deal = None;
    let earlier =
        |session: &Session, e: ReplayError, logged: Option<(Player, Action)>| match changed_rule(
            &header,
            session.game(),
            &e,
            logged,
        ) {
            Some(rule) => ReplayError::EarlierRules {
                line: e.line(),
                revision: header.rules_revision,
                rule,
            },
            None => e,
        };
    let complete = loop {
        if !check.compare(session.log()).map_err(|e| {
            let logged = match &e {
                ReplayError::Diverged { found, .. } => logged_action(found),
                _ => None,
            };
            earlier(&session, e, logged)
        })? {
            break false;
        }
        if session.is_over() {
            break true;
        }
        if session.awaiting_deal() {
            before_deal = Some(session.log().records.len());
            session.deal_next().map_err(|error| ReplayError::Match {
                line: check.last_line + 1,
                error,
            })?;
            continue;
        }
        let hand = session.hand_number();
        let Some((line, record)) = check.next() else {
            break false;
        };
        match record {
            LogRecord::Action {
                hand: h,
                player,
                action,
            } if h == hand => {
                session.act(player, action).map_err(|e| {
                    earlier(
                        &session,
                        match e {
                            MatchError::Action { error, .. } => ReplayError::Refused {
                                line,
                                player,
                                action,
                                error,
                            },
                            error => ReplayError::Match { line, error },
                        },
                        Some((player, action)),
                    )
                })?;
                // The action record the session wrote is the line just read.
                check.checked += 1;
                actions += 1;
            }
            other => {
                let who: Vec<String> = session.game().to_act().map(|p| p.to_string()).collect();
                let logged = match &other {
                    LogRecord::Action { player, action, .. } => Some((*player, *action)),
                    _ => None,
                };
                let e = ReplayError::Diverged {
                    line,
                    expected: format!("an action of hand {hand} by player {}", who.join(" or ")),
                    found: record_json(&other),
                };
                return Err(earlier(&session, e, logged));
            }
        }
    };
    if complete {
        if let Some((line, _)) = check.lines.peek() {
            return Err(ReplayError::Trailing { line: *line });
        }
    }
    let m = session.matches();
    Ok(ReplayReport {
        header,
        chairs: m.chairs().to_vec(),
        hands: m.settlements().to_vec(),
        summary: MatchSummary::of(m),
        actions,
        records,
        complete,
        between_hands: !complete
            && (session.awaiting_deal() || before_deal.is_some_and(|n| check.checked <= n)),
        stops_in: (!complete).then(|| {
            if session.awaiting_deal() || before_deal.is_some_and(|n| check.checked <= n) {
                m.hands_played() + 1
            } else {
                session.hand_number()
            }
        }),
    })
}
