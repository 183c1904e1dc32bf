//! A room: one match, its seats and its viewers, as a state machine without I/O.
//!
//! - `state`: [`Room::handle`] takes one [`Input`] (a connection opened or closed, a client
//!   message, a timer, a store result) and the time as a value, and says what to do as
//!   [`Output`]s (messages to connections, one store write, the next wake-up, stop). Seats,
//!   bots, stand-ins and the turn, claim and away timers go through the library's
//!   [`Driver`](majiang::driver::Driver). Every action is written to the store before it is
//!   applied and acknowledged; a failed write is retried with backoff, a fenced one stops the
//!   room.
//! - `io`: the inputs and outputs; `clients`: the connections and their messages;
//!   `writes`: the one write in progress, its retries and what follows once it is stored.
//! - `outside` (with `outside_seat`): the seats of outside bots (`ext:NAME`), sans-IO. The room
//!   orders their processes started, told a line, finished or killed ([`Output::OutsideBot`]
//!   with a [`BotOrder`]), hears their lines as [`Input::OutsideBot`] ([`Heard`]), and counts
//!   their time limits on its own clock (the next [`Output::Wake`]); a bot that crashes, is
//!   late or writes nonsense is dismissed ([`Output::Dismissed`], [`RoomSummary::dismissals`])
//!   and `efficient` plays its seat on.
//! - `view`: what each viewer is sent — events and `state` as the public log shows them: while
//!   a discarded tile is on offer, only the players still asked about it hear of it; the
//!   others hear of the discard with what came of it, in one message, so nothing they get
//!   depends on who could claim.
//! - `take_back`: a late friend takes their seat back from the bot given it at the start.
//! - `restore`: a room rebuilt from its stored settings and actions.
//! - `task`: the thin tokio task that runs a room: moves bytes, timers and store calls, and
//!   feeds each store result back before it reads the next input (one write in flight); its
//!   `pipe`s run the outside bots' processes (`tokio::process`: nothing blocks a runtime
//!   thread). `expert_pool`: the app's runtime where rooms with expert seats run.

mod clients;
mod expert_pool;
mod hint_worker;
mod hints;
mod io;
mod outside;
mod outside_seat;
mod pipe;
mod restore;
mod state;
mod take_back;
mod task;
#[cfg(test)]
mod tests;
mod view;
mod work;
mod writes;

pub(crate) use expert_pool::ExpertPool;
pub use hint_worker::{HintQueue, Queued, work_out};
pub use io::{BotOrder, ConnId, Heard, HintJob, Input, Output, Write, WriteFailure};
pub use outside_seat::Dismissal;
pub use restore::RestoreError;
pub use state::Room;
pub(crate) use task::{Cmd, RoomActor, Shared, seat_for_token};
pub use task::{Outbox, RoomHandle};
pub use writes::{RETRY_FIRST_MS, RETRY_MAX_MS};

use crate::protocol::{RoomStatus, SeatInfo};
use majiang::table::Player;
use majiang::table::matches::Standing;
use serde::Serialize;

/// A viewer that is no player: sees no concealed tiles.
pub const SPECTATOR: Player = Player(u8::MAX);

/// What the lobby shows of a room.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoomSummary {
    /// Room id.
    pub id: String,
    /// Rule set.
    pub rules: String,
    /// Waiting, playing or finished.
    pub status: RoomStatus,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// The limit on hands, if any.
    pub hands: Option<u32>,
    /// The creator allowed hints.
    pub hints: bool,
    /// Current hand (from 1), once playing.
    pub hand_number: Option<u32>,
    /// Chips per chair.
    pub ledger: Vec<i64>,
    /// When the room was created (milliseconds since the Unix epoch).
    pub created: i64,
    /// When its match finished (milliseconds since the Unix epoch), once it has.
    pub finished: Option<i64>,
    /// Final standings, best first, once the match is over (else empty).
    pub standings: Vec<Standing>,
    /// The outside bots dismissed so far, in order (their seats played by `efficient` since).
    pub dismissals: Vec<Dismissal>,
}
