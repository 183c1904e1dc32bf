//! The work a room has in hand besides its match: the store write in flight ([`Pending`],
//! what to do once it is stored) and the people's actions queued behind it ([`Queued`]).

use super::io::{ConnId, Write};
use crate::protocol::{RoomConfig, RoomStatus};
use crate::store::StoredAction;
use majiang::driver::Decision;
use majiang::table::{Action, Player};

/// A person's action waiting for an earlier write.
#[derive(Debug, Clone, Copy)]
pub(super) struct Queued {
    pub(super) conn: ConnId,
    pub(super) seq: u64,
    pub(super) player: Player,
    pub(super) action: Action,
}

/// A write in progress, and what to do once it is stored.
#[derive(Debug, Clone)]
pub(super) enum Pending {
    Action {
        stored: StoredAction,
        /// The connection and the client's sequence number to acknowledge.
        origin: Option<(ConnId, u64)>,
        /// The automatic decision it carries out.
        decision: Option<Decision>,
    },
    /// Seats made bots; the match starts next.
    FillBots(RoomConfig),
    /// Seats given back to their people (these), from the bots given them at the start.
    TakeBack(RoomConfig, Vec<usize>),
    Start,
    Finished(i64),
}

impl Pending {
    pub(super) fn write(&self) -> Write {
        match self {
            Pending::Action { stored, .. } => Write::Action(*stored),
            Pending::FillBots(c) | Pending::TakeBack(c, _) => Write::Config(c.clone()),
            Pending::Start => Write::Status(RoomStatus::Playing),
            Pending::Finished(at) => Write::Finished(*at),
        }
    }
}
