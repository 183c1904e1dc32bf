//! Finished matches: the stored log, and the replay frames the UI steps through.

use crate::protocol::{RoomConfig, RoomStatus};
use crate::room::SPECTATOR;
use crate::store::{Store, StoreError, StoredAction};
use majiang::table::{Action, Event, Observation, Player, Session};
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
        let step = m
            .act(a.player, a.action)
            .map_err(|e| ReplayError::Broken(format!("action {}: {e}", a.seq)))?;
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
        m.act(a.player, a.action)
            .map_err(|e| ReplayError::Broken(format!("action {}: {e}", a.seq)))?;
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
