//! Hints at the table: the expert's suggested discard or call, for a person who turned them on
//! in a room whose creator allowed them ([`RoomConfig::hints`](crate::protocol::RoomConfig)).
//!
//! The room keeps which seats asked (`SeatHints`); `hints` from a client turns them on or off
//! (refused with a keyed message when the room does not allow them, or from a spectator).
//! After each input, every `state` about to go to such a seat's connection in which the seat
//! must act (playing, two or more legal actions, not played by the stand-in) asks for a hint
//! ([`Output::Hint`], a [`HintJob`]). The room's task hands the job to `hint_worker`: the
//! library's `review::hint` on that very observation (the review's own seed and budget, so a
//! review of the match judges the decision as the hint did), on a blocking thread, a few at a
//! time across the server, so no room waits for a hint; its
//! `hint` goes straight to the connection and carries the state's `actions`, so a client drops
//! a hint that comes after the table moved on. Bots and stand-ins get nothing: nobody asks for
//! them. The setting is the room's (stored with its settings); who turned hints on is not
//! stored: a client turns them on again when it connects.

use super::io::{ConnId, HintJob, Output};
use super::state::Room;
use crate::protocol::{RoomStatus, ServerMsg};
use crate::words::{Words, room as said};

impl Room {
    /// A client's `hints`: turns hints on or off for its seat.
    pub(super) fn set_hints(
        &mut self,
        conn: ConnId,
        seat: Option<usize>,
        on: bool,
    ) -> Result<(), Words> {
        let Some(seat) = seat else {
            return Err(said::HINTS_SEATED_ONLY.plain());
        };
        if on && !self.config.hints {
            return Err(said::HINTS_NOT_ALLOWED.plain());
        }
        self.hints.on.retain(|&s| s != seat);
        if on {
            self.hints.on.push(seat);
            // The state again, so a person who must act now gets the hint at once.
            if let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) {
                c.owed = true;
            }
        }
        Ok(())
    }

    /// Asks for a hint after each `state` (or `state_delta`) in `out` that goes to a seat with
    /// hints on and in which the seat must act.
    pub(super) fn ask_hints(&self, out: &mut Vec<Output>) {
        if !self.config.hints || self.hints.on.is_empty() || self.status != RoomStatus::Playing {
            return;
        }
        let mut asks = Vec::new();
        for (i, o) in out.iter().enumerate() {
            // A state goes to one connection (Send) or to a viewer's several (SendAll).
            let (conns, msg) = match o {
                Output::Send { conn, msg } => (std::slice::from_ref(conn), msg),
                Output::SendAll { conns, msg } => (conns.as_slice(), msg),
                _ => continue,
            };
            if !matches!(msg, ServerMsg::State { .. } | ServerMsg::StateDelta(_)) {
                continue;
            }
            for conn in conns {
                // The state the connection now holds (a delta's too).
                let Some(c) = self.conns.iter().find(|c| c.id == *conn) else {
                    continue;
                };
                let (Some(seat), Some(state)) = (c.seat, c.last_state.as_deref()) else {
                    continue;
                };
                let ServerMsg::State {
                    status: RoomStatus::Playing,
                    hand_number: Some(hand_number),
                    observation: Some(obs),
                    actions,
                    ..
                } = state
                else {
                    continue;
                };
                let stand_in = self
                    .chair(seat)
                    .zip(self.driver.as_ref())
                    .is_none_or(|(p, d)| d.automatic(p));
                if !self.hints.on.contains(&seat) || stand_in || obs.legal_actions.len() < 2 {
                    continue;
                }
                asks.push((
                    i + 1,
                    HintJob {
                        conn: *conn,
                        hand_number: *hand_number,
                        actions: *actions,
                        observation: obs.clone(),
                    },
                ));
            }
        }
        for (at, job) in asks.into_iter().rev() {
            out.insert(at, Output::Hint(Box::new(job)));
        }
    }
}
