//! Finished matches: the stored log, and the replay frames the UI steps through.

use crate::protocol::{RoomConfig, RoomStatus};
use crate::room::SPECTATOR;
use crate::store::{Store, StoreError, StoredAction};
use crate::words::api;
use majiang::table::log::RULES_REVISION;
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
    /// [`RULES_REVISION`]) and met a rule brought since: it does not replay under the rules
    /// played now. (The server accepted every stored action when it was played, so an action
    /// the rules played now refuse for a rule brought after the room's revision was recorded
    /// before that rule.)
    #[error("{}", earlier_rules_words(*seq, *rule, *revision))]
    EarlierRules {
        /// The action's position in the match.
        seq: u64,
        /// The rule it met.
        rule: ChangedRule,
        /// The rules revision the match was recorded under ([`StoredLog::rules_revision`];
        /// for a room stored without one, the revision before `rule`'s).
        revision: u32,
    },
}

/// What a person is told of a match recorded under rules `revision` whose action `seq` met
/// `rule`, brought since (catalogue key and values; the CLI's `replay` says the same of a
/// log).
pub fn earlier_rules_words(seq: u64, rule: ChangedRule, revision: u32) -> Words {
    let def = match rule {
        ChangedRule::LastDiscard => &api::REPLAY_EARLIER_LAST_DISCARD,
        ChangedRule::MissedWin => &api::REPLAY_EARLIER_MISSED_WIN,
    };
    def.with([seq.into(), revision.into(), RULES_REVISION.into()])
}

/// A session's refusal of logged action `a` of a match recorded under rules revision
/// `recorded` as a [`ReplayError`]. Under the rules played now a refusal is a broken log: the
/// server accepted the action under those very rules. Under an earlier revision, it is the
/// rule brought since that it met ([`ChangedRule::behind`]), if any, else a broken log.
///
/// A room stored without its revision (`None`: stored before the stores kept it, under
/// revision 1 or 2) is judged as before they did: a refusal that a changed rule explains was
/// recorded before that rule, under the revision before it (exact while every changed rule
/// came in revision 2, as all do).
fn refused(m: &Session, a: &LoggedAction, e: MatchError, recorded: Option<u32>) -> ReplayError {
    let broken = |e: MatchError| ReplayError::Broken(format!("action {}: {e}", a.seq));
    if recorded.is_some_and(|r| r >= RULES_REVISION) {
        return broken(e);
    }
    let refusal = match &e {
        MatchError::Action { error, .. } => Some(error),
        _ => None,
    };
    match ChangedRule::behind(m.game(), a.player, a.action, refusal) {
        Some(rule) if recorded.is_none_or(|r| rule.revision() > r) => ReplayError::EarlierRules {
            seq: a.seq,
            rule,
            revision: recorded.unwrap_or(rule.revision() - 1),
        },
        _ => broken(e),
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
    /// The rules revision the room was created under ([`crate::store::StoredRoom::rules_revision`]);
    /// `None` (`null`) for a room stored before the server kept it.
    #[serde(default)]
    pub rules_revision: Option<u32>,
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
        rules_revision: room.rules_revision,
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
            .map_err(|e| refused(&m, a, e, log.rules_revision))?;
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
            .map_err(|e| refused(&m, a, e, log.rules_revision))?;
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
    use super::{LoggedAction, ReplayError, StoredLog, earlier_rules_words, frames, jsonl};
    use crate::protocol::RoomConfig;
    use majiang::table::log::RULES_REVISION;
    use majiang::table::{Action, ChangedRule, Player, TableRules};
    use majiang_testkit::scenario;
    use serde_json::json;
    use std::sync::{Arc, OnceLock};

    #[test]
    fn the_earlier_rules_words_name_the_rule_the_action_and_both_revisions() {
        for (rule, names) in [
            (ChangedRule::LastDiscard, "before the last-discard rule"),
            (ChangedRule::MissedWin, "before Hong Kong's missed win"),
        ] {
            let told = earlier_rules_words(57, rule, 7).to_string();
            assert!(
                told.starts_with("action 57: this match was recorded under rules revision 7"),
                "{told}"
            );
            assert!(told.contains(names), "{told}");
            assert!(
                told.ends_with(&format!("(revision {RULES_REVISION})")),
                "{told}"
            );
        }
    }

    #[test]
    fn every_changed_rule_came_in_a_revision_after_the_first_and_not_after_the_current() {
        for rule in [ChangedRule::LastDiscard, ChangedRule::MissedWin] {
            assert!((2..=RULES_REVISION).contains(&rule.revision()), "{rule:?}");
        }
    }

    /// A Hong Kong match (no flowers, no minimum) in which a seat passed a win, then took it
    /// on the same tile, as a server before the missed win accepted: its log (the barred win
    /// last) with every field but the rules revision, and the barred win's position.
    fn barred_win() -> &'static (StoredLog, u64) {
        static FOUND: OnceLock<(StoredLog, u64)> = OnceLock::new();
        FOUND.get_or_init(|| {
            let seats: Vec<_> = (0..4).map(|k| json!({"name": format!("P{k}")})).collect();
            let mut config: RoomConfig = serde_json::from_value(json!({
                "rules": "hongkong", "options": {"flowers": false, "min_fan": 0},
                "seats": seats, "hands": 4
            }))
            .unwrap();
            let rules = Arc::new(TableRules::from_name(&config.rules, &config.options).unwrap());
            config.validate().unwrap();
            let found = scenario::missed_win(&rules, 0..300, Some(config.hand_limit())).unwrap();
            let mut actions: Vec<LoggedAction> = found
                .actions
                .iter()
                .enumerate()
                .map(|(seq, &(player, action))| LoggedAction {
                    seq: seq as u64,
                    player,
                    action,
                })
                .collect();
            let win = actions.len() as u64;
            actions.push(LoggedAction {
                seq: win,
                player: found.player,
                action: Action::Win,
            });
            let log = StoredLog {
                room: "r".into(),
                config,
                seed: found.seed,
                actions,
                rules_revision: None,
            };
            (log, win)
        })
    }

    /// The barred win's log as stored under `revision`, replayed both ways (frames, JSON
    /// lines): the two answers, which must agree.
    fn replayed(log: &StoredLog, revision: Option<u32>) -> ReplayError {
        let log = StoredLog {
            rules_revision: revision,
            ..log.clone()
        };
        let by_frames = frames(&log).unwrap_err();
        let by_jsonl = jsonl(&log).unwrap_err();
        assert_eq!(by_frames.to_string(), by_jsonl.to_string());
        by_frames
    }

    #[test]
    fn a_room_of_the_rules_played_now_whose_action_is_refused_is_a_broken_log() {
        let (log, win) = barred_win();
        let e = replayed(log, Some(RULES_REVISION));
        assert!(
            matches!(&e, ReplayError::Broken(why) if why.starts_with(&format!("action {win}: "))),
            "{e:?}"
        );
    }

    /// `e` says action `win` met Hong Kong's missed win, a rule brought after revision 1.
    fn assert_missed_win_under_revision_1(e: &ReplayError, win: u64) {
        assert!(
            matches!(
                e,
                ReplayError::EarlierRules {
                    seq,
                    rule: ChangedRule::MissedWin,
                    revision: 1
                } if *seq == win
            ),
            "{e:?}"
        );
    }

    #[test]
    fn a_room_of_an_earlier_revision_that_met_a_rule_brought_since_is_told_under_its_revision() {
        let (log, win) = barred_win();
        let e = replayed(log, Some(1));
        assert_missed_win_under_revision_1(&e, *win);
        assert!(
            e.to_string().starts_with(&format!(
                "action {win}: this match was recorded under rules revision 1, before Hong Kong's missed win"
            )),
            "{e}"
        );
    }

    #[test]
    fn a_room_stored_without_its_revision_is_judged_by_the_rule_it_met() {
        let (log, win) = barred_win();
        let e = replayed(log, None);
        assert_missed_win_under_revision_1(&e, *win);
        // A refusal no changed rule explains is a broken log, whatever the revision: a seat
        // discarding while a win is on offer.
        let mut odd = log.clone();
        let last = odd.actions.last_mut().unwrap();
        last.player = Player((last.player.0 + 1) % 4);
        last.action = Action::Discard("1m".parse().unwrap());
        for revision in [None, Some(1)] {
            let e = replayed(&odd, revision);
            assert!(matches!(e, ReplayError::Broken(_)), "{revision:?}: {e:?}");
        }
    }
}
