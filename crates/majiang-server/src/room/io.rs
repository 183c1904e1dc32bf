//! What goes into a room ([`Input`]) and what comes out ([`Output`]).

use crate::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
use crate::store::StoredAction;
use majiang::bots::protocol::ToBot;
use majiang::table::Observation;
use majiang_external::spec::Command;

/// A connection's number, given by the caller when it opens.
pub type ConnId = u64;

/// Something that happened to a room.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A connection opened, on a seat (its token's) or as a spectator.
    Open {
        /// Its number (unique in the room).
        conn: ConnId,
        /// The seat its token opens, if any.
        seat: Option<usize>,
        /// It asked for `state_delta`s (`?deltas=1`): after its first whole `state`, it is sent
        /// what changed; otherwise every state whole.
        deltas: bool,
        /// Its client's device id (`?device=`), if it gave one: a seat opened with one takes
        /// the seat from the connections with another (told [`ServerMsg::TakenOver`], then
        /// closed); connections without one share the seat, as do those of one device.
        device: Option<String>,
    },
    /// A connection closed.
    Close {
        /// Its number.
        conn: ConnId,
    },
    /// A message from a client.
    Client {
        /// The connection it came on.
        conn: ConnId,
        /// The message.
        msg: ClientMsg,
    },
    /// The time asked for by the last [`Output::Wake`] has come (or any time: the room looks
    /// at what is due).
    Timer,
    /// The result of the last [`Output::Write`].
    Stored(Result<(), WriteFailure>),
    /// What the outside bot of a seat (`ext:NAME`, started by [`BotOrder::Start`]) wrote, or
    /// that it is gone. Its time limits are the room's to keep: a bot that is late hears
    /// nothing more (an [`Input::Timer`] dismisses it).
    OutsideBot {
        /// The seat (index in the room's settings).
        seat: usize,
        /// What was heard.
        heard: Heard,
    },
}

/// What the room's task heard from an outside bot's process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A line it wrote (not blank), without checking what it says.
    Line(String),
    /// A line longer than the protocol allows (`majiang_external::conversation::MAX_LINE`):
    /// nothing more is read.
    TooLong,
    /// It could not be started, exited, closed its output, or could not be written to: what
    /// happened, with its exit status when known.
    Gone(String),
}

/// What the room's task is to do with an outside bot's process.
#[derive(Debug, Clone, PartialEq)]
pub enum BotOrder {
    /// Start the process (its standard input and output piped; its standard error the
    /// server's), and feed back each line it writes as [`Input::OutsideBot`].
    Start(Command),
    /// Write this message to it (one line of JSON).
    Say(Box<ToBot>),
    /// The match is over: close its input, give it a moment to exit, then end it.
    Finish,
    /// It was dismissed: end it now.
    Kill,
}

/// Why a store write failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteFailure {
    /// Another process holds the room's lease now: stop running it.
    Fenced,
    /// The room's lease ran out while the database was away, and nobody took the room over:
    /// the database answers again, so try again soon (the lease task renews the lease).
    LeaseLapsed,
    /// Anything else (the database is down, a time-out): try again.
    Failed(String),
}

/// A write to the store.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    /// Append an action to the match log.
    Action(StoredAction),
    /// Replace the room's settings (seats filled with bots at the start).
    Config(RoomConfig),
    /// Set the room's status.
    Status(RoomStatus),
    /// Mark the match finished at this time (milliseconds since the Unix epoch).
    Finished(i64),
}

/// Something for the caller to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// Send a message to one connection.
    Send {
        /// The connection.
        conn: ConnId,
        /// The message.
        msg: ServerMsg,
    },
    /// Send one message to several connections (serialised once).
    SendAll {
        /// The connections, in order.
        conns: Vec<ConnId>,
        /// The message.
        msg: ServerMsg,
    },
    /// Close a connection.
    Close {
        /// The connection.
        conn: ConnId,
    },
    /// Perform this write, then feed its result back ([`Input::Stored`]) before any other
    /// input.
    Write(Write),
    /// Work out a hint off the room's task and send it to its connection (see `hints`).
    Hint(Box<HintJob>),
    /// Do this with the process of a seat's outside bot (the room asks it a decision with a
    /// [`BotOrder::Say`] and awaits its line as an input, until the time limit it counts).
    OutsideBot {
        /// The seat (index in the room's settings).
        seat: usize,
        /// What to do.
        order: BotOrder,
    },
    /// An outside bot was dismissed (its process is told and ended by the outputs before):
    /// for the server's log and metrics; the room's summary lists it too.
    Dismissed(Box<super::outside_seat::Dismissal>),
    /// Feed [`Input::Timer`] at this time (`None`: no timer is needed). Each call to
    /// [`Room::handle`](super::Room::handle) ends with one, replacing the one before.
    Wake(Option<u64>),
    /// Another process runs the room now: stop running it (the connections were closed; their
    /// clients reconnect and are sent to the new owner).
    Stop,
}

impl Output {
    /// `msg` for `conns`: a [`Output::Send`] for one, a [`Output::SendAll`] for several.
    pub(super) fn send_to(mut conns: Vec<ConnId>, msg: ServerMsg) -> Output {
        if conns.len() == 1 {
            Output::Send {
                conn: conns.remove(0),
                msg,
            }
        } else {
            Output::SendAll { conns, msg }
        }
    }
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
}
