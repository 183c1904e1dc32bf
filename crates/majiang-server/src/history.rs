//! The match history: finished matches as the history page lists them, and finished rooms
//! answered from the store (`GET /api/rooms/ID` and the WebSocket: what a finished room
//! shows, kept in a cache bounded in bytes) rather than by loading each room into memory.

use crate::protocol::{RoomConfig, RoomStatus, SeatInfo, ServerMsg};
use crate::room::RoomSummary;
use crate::store::{StoredAction, StoredRoom};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// One finished match in the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedMatch {
    /// Room id (its replay is `/?replay=ID`).
    pub id: String,
    /// When the match finished (milliseconds since the Unix epoch; 0 if not recorded, for
    /// matches finished before the server kept the time).
    pub finished: i64,
    /// Rule set.
    pub rules: String,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Final standings, best first.
    pub standings: Vec<FinalStanding>,
}

/// One line of a finished match's standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalStanding {
    /// Place, from 1 (equal totals share a place).
    pub rank: u8,
    /// The seat (entrant).
    pub seat: usize,
    /// The seat's name.
    pub name: String,
    /// Chips at the end.
    pub points: i64,
}

impl FinishedMatch {
    /// The history line of a room, if its match is finished.
    pub fn of(room: &RoomSummary) -> Option<FinishedMatch> {
        if room.status != RoomStatus::Finished {
            return None;
        }
        let name = |seat: usize| {
            room.seats
                .get(seat)
                .map(|s| s.name.clone())
                .unwrap_or_default()
        };
        Some(FinishedMatch {
            id: room.id.clone(),
            finished: room.finished.unwrap_or(0),
            rules: room.rules.clone(),
            players: room.seats.iter().map(|s| s.name.clone()).collect(),
            standings: room
                .standings
                .iter()
                .map(|s| FinalStanding {
                    rank: s.rank,
                    seat: s.entrant as usize,
                    name: name(s.entrant as usize),
                    points: s.points,
                })
                .collect(),
        })
    }
}

impl FinishedMatch {
    /// The history line of a finished room read from the store: its standings found by
    /// replaying its stored actions (`None` if the room is not finished or does not replay).
    pub(crate) fn replayed(room: &StoredRoom, actions: &[StoredAction]) -> Option<FinishedMatch> {
        FinishedMatch::of(&FinishedRoom::replayed(room, actions)?.summary)
    }
}

/// What a finished room not in memory shows, read from the store: its lobby summary, and what
/// its `welcome` and `state` need (settings, seat tokens, the actions each viewer may know of).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FinishedRoom {
    /// As [`RoomSummary`] of the room in memory would be.
    pub(crate) summary: RoomSummary,
    config: RoomConfig,
    tokens: Vec<Option<String>>,
    /// Actions in the match, and of them the passes, by chair.
    actions: u64,
    passes: Vec<u64>,
}

impl FinishedRoom {
    /// The finished room `room`, its match replayed from its stored actions, then dropped.
    /// `None` if the room is not finished or does not replay.
    pub(crate) fn replayed(room: &StoredRoom, actions: &[StoredAction]) -> Option<FinishedRoom> {
        if room.status != RoomStatus::Finished {
            return None;
        }
        let mut config = room.config.clone();
        let ruleset = std::sync::Arc::new(config.validate().ok()?);
        let (mut m, _) =
            majiang::table::Session::new(ruleset, room.seed, Some(config.hand_limit())).ok()?;
        let mut passes = vec![0u64; config.seats.len()];
        for a in actions {
            if m.awaiting_deal() {
                m.deal_next().ok()?;
            }
            m.act(a.player, a.action).ok()?;
            if a.action == majiang::table::Action::Pass
                && let Some(n) = passes.get_mut(a.player.index())
            {
                *n += 1;
            }
        }
        if !m.is_over() {
            return None;
        }
        let summary = RoomSummary {
            id: room.id.clone(),
            rules: config.rules.clone(),
            status: RoomStatus::Finished,
            seats: config
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo::stored(i, &s.name, s.bot, m.chairs().get(i).copied()))
                .collect(),
            hands: config.hands,
            hints: config.hints,
            hand_number: Some(m.hand_number()),
            ledger: m.ledger().to_vec(),
            created: room.created,
            finished: room.finished,
            standings: m.standings(),
            // Not stored: a finished room read back from the store lists no dismissals.
            dismissals: Vec::new(),
        };
        Some(FinishedRoom {
            summary,
            config: room.config.clone(),
            tokens: room.tokens.clone(),
            actions: actions.len() as u64,
            passes,
        })
    }

    /// What a WebSocket opened with `token` (none: a spectator) is sent, as the room in memory
    /// would send on connecting: `welcome`, then the final `state` (no observation: the page
    /// shows the standings, with the replay and review links). `None` when the token opens no
    /// seat.
    pub(crate) fn greeting(&self, token: Option<&str>) -> Option<[ServerMsg; 2]> {
        let named = match token {
            None | Some("") => None,
            Some(t) => Some(crate::room::seat_for_token(&self.tokens, t)?),
        };
        // A person seat filled with a bot at the start is the bot's: its token watches.
        let is_bot = |s: usize| self.config.seats.get(s).is_some_and(|c| c.bot);
        let bot_holds = named.filter(|&s| is_bot(s));
        let seat = named.filter(|&s| !is_bot(s));
        let chair = seat.and_then(|s| self.summary.seats.get(s)?.player);
        // The actions this viewer may know of: all but the other players' passes.
        let others_passes: u64 = self
            .passes
            .iter()
            .enumerate()
            .filter(|&(c, _)| chair.is_none_or(|p| p.index() != c))
            .map(|(_, n)| n)
            .sum();
        let s = &self.summary;
        Some([
            ServerMsg::Welcome {
                room: s.id.clone(),
                seat,
                bot_holds,
                config: self.config.clone(),
            },
            ServerMsg::State {
                status: RoomStatus::Finished,
                seats: s.seats.clone(),
                hand_number: s.hand_number,
                hands: s.hands,
                ledger: s.ledger.clone(),
                observation: None,
                claim_deadline_ms: None,
                deadline_ms: None,
                continue_: None,
                waits: Vec::new(),
                actions: self.actions - others_passes,
            },
        ])
    }

    /// Bytes it holds, about (its summary's and settings' JSON, its tokens).
    fn size(&self) -> usize {
        fn json(v: &impl Serialize) -> usize {
            serde_json::to_vec(v).map_or(0, |v| v.len())
        }
        json(&self.summary)
            + json(&self.config)
            + self.tokens.iter().flatten().map(String::len).sum::<usize>()
            + 8 * (self.passes.len() + 1)
    }
}

/// The finished rooms lately asked for, bounded in bytes: a finished room never changes, so
/// the oldest goes first (no recency to track), and a stranger asking for every finished room
/// in turn costs replays, not memory.
#[derive(Debug)]
pub(crate) struct FinishedCache {
    cap_bytes: usize,
    state: Mutex<CacheState>,
}

#[derive(Debug, Default)]
struct CacheState {
    by_id: HashMap<String, (Arc<FinishedRoom>, usize)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl FinishedCache {
    /// A cache of at most `cap_bytes` of finished rooms.
    pub(crate) fn new(cap_bytes: usize) -> FinishedCache {
        FinishedCache {
            cap_bytes,
            state: Mutex::new(CacheState::default()),
        }
    }

    /// Finished room `id`, if kept.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<FinishedRoom>> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.by_id.get(id).map(|(s, _)| s.clone())
    }

    /// Keeps `room`, dropping the oldest kept until it fits.
    pub(crate) fn put(&self, room: Arc<FinishedRoom>) {
        let id = &room.summary.id;
        let size = room.size() + id.len();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if size > self.cap_bytes || state.by_id.contains_key(id) {
            return;
        }
        while state.bytes + size > self.cap_bytes {
            let Some(old) = state.order.pop_front() else {
                break;
            };
            if let Some((_, n)) = state.by_id.remove(&old) {
                state.bytes -= n;
            }
        }
        state.bytes += size;
        state.order.push_back(id.clone());
        state.by_id.insert(id.clone(), (room, size));
    }

    /// Bytes kept now.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(id: &str) -> Arc<FinishedRoom> {
        let summary = RoomSummary {
            id: id.into(),
            rules: "hongkong".into(),
            status: RoomStatus::Finished,
            seats: Vec::new(),
            hands: Some(1),
            hints: false,
            hand_number: Some(1),
            ledger: vec![0; 4],
            created: 0,
            finished: Some(1),
            standings: Vec::new(),
            dismissals: Vec::new(),
        };
        Arc::new(FinishedRoom {
            summary,
            config: RoomConfig::default(),
            tokens: vec![Some("0123".into()), None],
            actions: 0,
            passes: vec![0; 4],
        })
    }

    #[test]
    fn the_cache_keeps_its_bytes_under_the_cap_dropping_the_oldest() {
        let one = finished("r0000").size() + 5;
        let cache = FinishedCache::new(one * 3);
        for i in 0..10 {
            cache.put(finished(&format!("r{i:04}")));
            assert!(cache.bytes() <= one * 3);
        }
        assert_eq!(cache.bytes(), one * 3);
        assert!(cache.get("r0000").is_none() && cache.get("r0006").is_none());
        assert!(
            ["r0007", "r0008", "r0009"]
                .iter()
                .all(|id| cache.get(id).is_some())
        );
    }
}
