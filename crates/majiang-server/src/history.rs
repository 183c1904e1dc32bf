//! The match history: finished matches as the history page lists them, and the summaries of
//! finished rooms answered from the store (kept in a cache bounded in bytes) rather than by
//! loading each room into memory.

use crate::protocol::{RoomStatus, SeatInfo};
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
        FinishedMatch::of(&finished_summary(room, actions)?)
    }
}

/// What the lobby shows of a finished room read from the store (as [`RoomSummary`] of the
/// room in memory would): its match replayed from its stored actions, then dropped. `None`
/// if the room is not finished or does not replay.
pub(crate) fn finished_summary(room: &StoredRoom, actions: &[StoredAction]) -> Option<RoomSummary> {
    if room.status != RoomStatus::Finished {
        return None;
    }
    let mut config = room.config.clone();
    let ruleset = std::sync::Arc::new(config.validate().ok()?);
    let (mut m, _) =
        majiang::table::Session::new(ruleset, room.seed, Some(config.hand_limit())).ok()?;
    for a in actions {
        if m.awaiting_deal() {
            m.deal_next().ok()?;
        }
        m.act(a.player, a.action).ok()?;
    }
    if !m.is_over() {
        return None;
    }
    Some(RoomSummary {
        id: room.id.clone(),
        rules: config.rules.clone(),
        status: RoomStatus::Finished,
        seats: config
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: i,
                name: s.name.clone(),
                bot: s.bot,
                connected: s.bot,
                player: m.chairs().get(i).copied(),
                stand_in: false,
                away: false,
            })
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
    })
}

/// The summaries of finished rooms lately asked for, bounded in bytes (their JSON's size):
/// a finished room never changes, so the oldest goes first (no recency to track), and a
/// stranger asking for every finished room in turn costs replays, not memory.
#[derive(Debug)]
pub(crate) struct FinishedCache {
    cap_bytes: usize,
    state: Mutex<CacheState>,
}

#[derive(Debug, Default)]
struct CacheState {
    by_id: HashMap<String, (Arc<RoomSummary>, usize)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl FinishedCache {
    /// A cache of at most `cap_bytes` of summaries.
    pub(crate) fn new(cap_bytes: usize) -> FinishedCache {
        FinishedCache {
            cap_bytes,
            state: Mutex::new(CacheState::default()),
        }
    }

    /// The summary of finished room `id`, if kept.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<RoomSummary>> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.by_id.get(id).map(|(s, _)| s.clone())
    }

    /// Keeps `summary`, dropping the oldest kept until it fits.
    pub(crate) fn put(&self, summary: Arc<RoomSummary>) {
        let size = serde_json::to_vec(&*summary).map_or(0, |v| v.len()) + summary.id.len();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if size > self.cap_bytes || state.by_id.contains_key(&summary.id) {
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
        state.order.push_back(summary.id.clone());
        state.by_id.insert(summary.id.clone(), (summary, size));
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

    fn summary(id: &str) -> Arc<RoomSummary> {
        Arc::new(RoomSummary {
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
        })
    }

    #[test]
    fn the_cache_keeps_its_bytes_under_the_cap_dropping_the_oldest() {
        let one = serde_json::to_vec(&*summary("r0000")).unwrap().len() + 5;
        let cache = FinishedCache::new(one * 3);
        for i in 0..10 {
            cache.put(summary(&format!("r{i:04}")));
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
