//! Hints at the table: the expert's suggested discard or call, for a person who turned them on
//! in a room whose creator allowed them ([`RoomConfig::hints`](crate::protocol::RoomConfig)).
//!
//! The room keeps which seats asked ([`SeatHints`]); `hints` from a client turns them on or off
//! (refused with a keyed message when the room does not allow them, or from a spectator).
//! After each input, every `state` about to go to such a seat's connection in which the seat
//! must act (playing, two or more legal actions, not played by the stand-in) asks for a hint
//! ([`Output::Hint`], a [`HintJob`]). The room's task hands the job to [`spawn`]: the
//! library's [`suggest`] on that very observation, with a bounded budget ([`HINT_BUDGET`]), on
//! a blocking thread, a few at a time across the server, so no room waits for a hint; its
//! `hint` goes straight to the connection and carries the state's `actions`, so a client drops
//! a hint that comes after the table moved on. Bots and stand-ins get nothing: nobody asks for
//! them. The setting is the room's (stored with its settings); who turned hints on is not
//! stored: a client turns them on again when it connects.

use super::io::{ConnId, Output};
use super::state::Room;
use super::task::Outbox;
use crate::protocol::{RoomStatus, ServerMsg};
use crate::words::{Words, room as said};
use majiang::bots::expert::Budget;
use majiang::review::suggest;
use majiang::table::{Observation, Ruleset};
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// The expert's budget for a hint: a quarter of its playing budget's worlds and one close
/// round, so a hint comes in tens of milliseconds.
pub const HINT_BUDGET: Budget = Budget {
    rollouts: 16,
    close_rounds: 1,
    ..Budget::DEFAULT
};

/// The expert's seed for the hint at a moment of a match: the room's seed and the actions
/// its `state` counts (the seat's view of the actions so far), so the same moment of the same
/// match gets the same hint.
pub fn hint_seed(room_seed: u64, actions: u64) -> u64 {
    room_seed ^ actions.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Hints worked out at once across the server, at most.
const AT_ONCE: usize = 2;

/// The seats whose person turned hints on.
#[derive(Debug, Default)]
pub(super) struct SeatHints {
    on: Vec<usize>,
}

/// One hint to work out: the observation a connection was just sent, and what its `state`
/// said (the hand and the actions), so the hint can name the state it answers.
#[derive(Debug, Clone, PartialEq)]
pub struct HintJob {
    /// The connection to send the hint to.
    pub conn: ConnId,
    /// The hand.
    pub hand_number: u32,
    /// The `actions` of the state.
    pub actions: u64,
    /// What the seat sees, its legal actions with it.
    pub observation: Box<Observation>,
    /// The expert's seed ([`hint_seed`]).
    pub seed: u64,
}

impl HintJob {
    /// The `hint` message for this job under `ruleset` (`None`: nothing to decide).
    pub fn run(&self, ruleset: &Arc<Ruleset>) -> Option<ServerMsg> {
        let obs = &self.observation;
        let s = suggest(obs, &obs.legal_actions, ruleset, self.seed, HINT_BUDGET)?;
        Some(ServerMsg::Hint {
            hand_number: self.hand_number,
            actions: self.actions,
            action: s.action,
            facts: s.facts,
            value: s.value,
            text: s.text,
        })
    }
}

fn gate() -> &'static Semaphore {
    static GATE: OnceLock<Semaphore> = OnceLock::new();
    GATE.get_or_init(|| Semaphore::new(AT_ONCE))
}

/// Works out `job` off the room's task and sends its hint to `out` (dropped if the outbox is
/// full or closed: a hint is advice, never owed).
pub(super) fn spawn(job: HintJob, ruleset: Arc<Ruleset>, out: Outbox) {
    tokio::spawn(async move {
        let Ok(_permit) = gate().acquire().await else {
            return;
        };
        if out.is_closed() {
            return;
        }
        let msg = tokio::task::spawn_blocking(move || job.run(&ruleset)).await;
        if let Ok(Some(msg)) = msg
            && let Ok(text) = serde_json::to_string(&msg)
        {
            let _ = out.try_send(text.into());
        }
    });
}

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

    /// Asks for a hint after each `state` in `out` that goes to a seat with hints on and in
    /// which the seat must act.
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
            let ServerMsg::State {
                status: RoomStatus::Playing,
                hand_number: Some(hand_number),
                observation: Some(obs),
                actions,
                ..
            } = msg
            else {
                continue;
            };
            for conn in conns {
                let Some(seat) = self
                    .conns
                    .iter()
                    .find(|c| c.id == *conn)
                    .and_then(|c| c.seat)
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
                        seed: hint_seed(self.seed, *actions),
                    },
                ));
            }
        }
        for (at, job) in asks.into_iter().rev() {
            out.insert(at, Output::Hint(Box::new(job)));
        }
    }
}
