//! A room rebuilt from the store: its settings, then its stored actions replayed in order
//! through the same path live actions take (so the viewers' hold-back and the pass counts come
//! out as they were live). Nobody is connected to a restored room: its people are away until
//! they come back.

use super::state::Room;
use crate::external_bots::ExternalBots;
use crate::protocol::RoomStatus;
use crate::store::{StoreError, StoredAction, StoredRoom};
use std::sync::Arc;

/// Why a room could not be rebuilt from the store.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored settings no longer make a rule set, or the actions do not replay.
    #[error("room {room}: {message}")]
    Replay {
        /// Room id.
        room: String,
        /// What went wrong.
        message: String,
    },
}

impl Room {
    /// Rebuilds the room `stored` with its `actions` (in order, from 0) at `now`; `wall_offset`
    /// turns `now` into Unix milliseconds. A match found over but not marked finished is
    /// marked at the first [`Room::handle`]; a room stopped between hands shows the result
    /// again and waits for `continue`.
    pub fn restore(
        stored: &StoredRoom,
        actions: &[StoredAction],
        now: u64,
        wall_offset: i64,
    ) -> Result<Room, RestoreError> {
        Room::restore_with(stored, actions, now, wall_offset, &ExternalBots::none())
    }

    /// [`Room::restore`] on a server that allows the outside bots `bots` (a seat whose
    /// `ext:NAME` it does not allow makes the match fail to start).
    pub fn restore_with(
        stored: &StoredRoom,
        actions: &[StoredAction],
        now: u64,
        wall_offset: i64,
        bots: &ExternalBots,
    ) -> Result<Room, RestoreError> {
        let replay_err = |message: String| RestoreError::Replay {
            room: stored.id.clone(),
            message,
        };
        let mut config = stored.config.clone();
        let ruleset = Arc::new(config.validate().map_err(|e| replay_err(e.to_string()))?);
        let mut room = Room::new(stored, ruleset, config, wall_offset);
        room.bots = bots.clone();
        if stored.status == RoomStatus::Waiting {
            if !actions.is_empty() {
                return Err(replay_err(format!(
                    "{} actions stored in a room that never started",
                    actions.len()
                )));
            }
            return Ok(room);
        }
        room.start_match(now).map_err(replay_err)?;
        for a in actions {
            if a.seq != room.actions {
                return Err(replay_err(format!(
                    "action {} stored where {} was expected",
                    a.seq, room.actions
                )));
            }
            room.apply(a.player, a.action, now)
                .map_err(|e| replay_err(format!("stored action {} does not replay: {e}", a.seq)))?;
        }
        let session = room.session().expect("started above");
        let (over, awaiting_deal) = (session.is_over(), session.awaiting_deal());
        if over {
            if room.status != RoomStatus::Finished {
                room.status = RoomStatus::Finished;
                room.finish_unstored = true;
                room.finished = Some(room.wall(now));
            }
        } else {
            room.status = RoomStatus::Playing;
            if awaiting_deal {
                // Stopped between hands: show the result again and wait for `continue`.
                room.enter_hand_over(now);
            }
        }
        Ok(room)
    }
}
