//! Finished matches: the stored log, and the replay frames the UI steps through.

use crate::protocol::{RoomConfig, RoomStatus};
use crate::room::SPECTATOR;
use crate::store::{Store, StoreError, StoredAction};
use crate::words::api;
use majiang::table::{Action, ChangedRule, Event, MatchError, Observation, Player, Session};
use majiang::words::Words;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Why a log or replay cannot be given.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// No room by that id.
    #[error("no such room")]
    NoSuchRoom,
    /// The match is not over: its log would reveal the wall.
    #[error("the match is not finished: its log is kept secret until the end")]
    NotFinished,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log does not replay.
    #[error("the stored log does not replay: {0}")]
    Broken(String),
    /// The match was stored under an earlier revision of the rules of play (before
    /// [`majiang::table::log::RULES_REVISION`]) and met a rule changed since: it does not replay under the rules
    /// played now. (The server accepted every stored action when it was played, so an action
    /// the rules played now refuse for a changed rule was recorded before the change.)
    #[error("{}", earlier_rules_words(*seq, *rule))]
    EarlierRules {
        /// The action's position in the match.
        seq: u64,
        /// The rule it met.
        rule: ChangedRule,
    },
}

/// What a person is told of a match stored before rules revision 2 whose action `seq` met
/// `rule` (catalogue key and values; the CLI's `replay` says the same of a log).
pub fn earlier_rules_words(seq: u64, rule: ChangedRule) -> Words {
    let def = match rule {
        ChangedRule::LastDiscard => &api::REPLAY_EARLIER_LAST_DISCARD,
        ChangedRule::MissedWin => &api::REPLAY_EARLIER_MISSED_WIN,
    };
    def.with([seq.into()])
}

/// A session's refusal of logged action `a` as a [`ReplayError`]: the changed rule it met
/// ([`ChangedRule::behind`]) if any, else a broken log.
fn refused(m: &Session, a: &LoggedAction, e: MatchError) -> ReplayError {
    let refusal = match &e {
        MatchError::Action { error, .. } => Some(error),
        _ => None,
    };
    match ChangedRule::behind(m.game(), a.player, a.action, refusal) {
        Some(rule) => ReplayError::EarlierRules { seq: a.seq, rule },
        None => ReplayError::Broken(format!("action {}: {e}", a.seq)),
    }
}

/// One action of a match log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedAction {
    /// Position in the match.
    pub seq: u64,
    /// The chair.
    pub player: Player,
    /// The action.
    pub action: Action,
}

/// A finished match's log: enough to replay it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredLog {
    /// Room id.
    pub room: String,
    /// The room's settings (rule set, options, seats, hands).
    pub config: RoomConfig,
    /// The match seed.
    pub seed: u64,
    /// Every accepted action, in order.
    pub actions: Vec<LoggedAction>,
}

/// One step of a replay: what happened and the table after it, every hand open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The action that led here (`None` for a deal).
    pub action: Option<LoggedAction>,
    /// The hand shown.
    pub hand_number: u32,
    /// What happened (full truth: the match is over).
    pub events: Vec<Event>,
    /// The table as a spectator sees it.
    pub view: Observation,
    /// Everyone's concealed tiles, by chair, in notation.
    pub concealed: Vec<String>,
    /// Chips per chair after this step.
    pub ledger: Vec<i64>,
    /// On the frame that ends a hand: every hand face up, as the live `hand_result` shows it
    /// (the winner's wildcards with what they stood for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<Vec<crate::reveal::RevealedHand>>,
    /// On the frame that ends a hand: each payment with its reason, as live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments_explained: Option<Vec<crate::reveal::PaymentExplained>>,
}

/// The log of a finished match.
pub async fn finished_log(store: &dyn Store, id: &str) -> Result<StoredLog, ReplayError> {
    let room = store.room(id).await?.ok_or(ReplayError::NoSuchRoom)?;
    if room.status != RoomStatus::Finished {
        return Err(ReplayError::NotFinished);
    }
    let actions = store
        .actions(id)
        .await?
        .into_iter()
        .map(
            |StoredAction {
                 seq,
                 player,
                 action,
             }| LoggedAction {
                seq,
                player,
                action,
            },
        )
        .collect();
    Ok(StoredLog {
        room: room.id,
        config: room.config,
        seed: room.seed,
        actions,
    })
}

/// Replays a log into frames: the first deal, then one frame per action (and one for each new
/// deal).
pub fn frames(log: &StoredLog) -> Result<Vec<Frame>, ReplayError> {
    let mut config = log.config.clone();
    let ruleset = Arc::new(
        config
            .validate()
            .map_err(|e| ReplayError::Broken(e.to_string()))?,
    );
    let (mut m, opening) = Session::new(ruleset, log.seed, Some(config.hand_limit()))
        .map_err(|e| ReplayError::Broken(e.to_string()))?;
    let mut events = opening.seat_choice;
    events.extend(opening.deal);
    let first = m.hand_number();
    let mut out = vec![frame(&m, None, first, events)];
    for a in &log.actions {
        if m.awaiting_deal() {
            // Show the end of the hand (the frame before) until the next deal.
            let deal = m
                .deal_next()
                .map_err(|e| ReplayError::Broken(format!("deal before action {}: {e}", a.seq)))?;
            out.push(frame(&m, None, m.hand_number(), deal));
        }
        let step = m.act(a.player, a.action).map_err(|e| refused(&m, a, e))?;
        out.push(frame(&m, Some(a.clone()), step.hand_number, step.events));
    }
    Ok(out)
}

/// Replays a log into the library's JSON-lines match log (`majiang::table::log`): the header,
/// every event, action and settlement, the end.
pub fn jsonl(log: &StoredLog) -> Result<String, ReplayError> {
    let mut config = log.config.clone();
    let ruleset = Arc::new(
        config
            .validate()
            .map_err(|e| ReplayError::Broken(e.to_string()))?,
    );
    let (mut m, _) = Session::new(ruleset, log.seed, Some(config.hand_limit()))
        .map_err(|e| ReplayError::Broken(e.to_string()))?;
    for a in &log.actions {
        if m.awaiting_deal() {
            m.deal_next()
                .map_err(|e| ReplayError::Broken(format!("deal before action {}: {e}", a.seq)))?;
        }
        m.act(a.player, a.action).map_err(|e| refused(&m, a, e))?;
    }
    Ok(m.log().to_jsonl())
}

fn frame(m: &Session, action: Option<LoggedAction>, hand: u32, events: Vec<Event>) -> Frame {
    let g = m.game();
    let ended = events.iter().any(|e| matches!(e, Event::HandEnded { .. })) && g.is_over();
    Frame {
        reveal: ended.then(|| crate::reveal::reveal(g)),
        payments_explained: ended.then(|| crate::reveal::payments_explained(g)),
        action,
        hand_number: hand,
        events,
        view: g.observation(SPECTATOR),
        concealed: (0..g.players())
            .map(|i| g.concealed(Player(i as u8)).to_string())
            .collect(),
        ledger: m.ledger().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::earlier_rules_words;
    use majiang::table::ChangedRule;
    use majiang::table::log::RULES_REVISION;

    #[test]
    fn the_earlier_rules_words_name_the_rule_the_action_and_the_revision() {
        for (rule, names) in [
            (ChangedRule::LastDiscard, "before the last-discard rule"),
            (ChangedRule::MissedWin, "before Hong Kong's missed win"),
        ] {
            let told = earlier_rules_words(57, rule).to_string();
            assert!(
                told.starts_with("action 57: this match was recorded under rules revision 1"),
                "{told}"
            );
            assert!(told.contains(names), "{told}");
            assert!(
                told.ends_with(&format!("(revision {RULES_REVISION})")),
                "{told}"
            );
        }
    }
}
