//! The match history: finished matches as the history page lists them.

use crate::protocol::RoomStatus;
use crate::room::RoomSummary;
use crate::store::{StoredAction, StoredRoom};
use serde::{Deserialize, Serialize};

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
        if room.status != RoomStatus::Finished {
            return None;
        }
        let mut config = room.config.clone();
        let ruleset = std::sync::Arc::new(config.validate().ok()?);
        let (mut m, _) = majiang::table::Session::new(ruleset, room.seed, config.hands).ok()?;
        for a in actions {
            if m.awaiting_deal() {
                m.deal_next().ok()?;
            }
            m.act(a.player, a.action).ok()?;
        }
        if !m.is_over() {
            return None;
        }
        let name = |seat: usize| {
            config
                .seats
                .get(seat)
                .map(|s| s.name.clone())
                .unwrap_or_default()
        };
        Some(FinishedMatch {
            id: room.id.clone(),
            finished: room.finished.unwrap_or(0),
            rules: config.rules.clone(),
            players: config.seats.iter().map(|s| s.name.clone()).collect(),
            standings: m
                .standings()
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
