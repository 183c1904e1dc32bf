//! The room's state machine: [`Room::handle`] takes an [`Input`] at a time `now` (milliseconds
//! on the caller's clock) and returns the [`Output`]s to carry out. No clock, no task, no
//! store: the caller performs each [`Output::Write`] and feeds its result back as
//! [`Input::Stored`] before anything else, so at most one write is in flight.
//!
//! The order of things for an action (a person's, a bot's or a stand-in's): check it, write it
//! ([`Write::Action`]), and only when the store said yes apply it, acknowledge it and tell the
//! viewers. A write that failed is retried with backoff (the same write: the same position,
//! player and action) until it is stored; a write refused because another process holds the
//! room ([`WriteFailure::Fenced`]) stops the room at once: nothing more is applied or
//! acknowledged, and every connection is closed so its client reconnects to the new owner.

use super::SPECTATOR;
use crate::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
use crate::store::{StoredAction, StoredRoom};
use majiang::bots;
use majiang::driver::{Controller, Decision, Driver, Poll, Timers};
use majiang::table::{Action, Event, Player, Ruleset, Session};
use std::collections::VecDeque;
use std::sync::Arc;

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
}

/// Why a store write failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteFailure {
    /// Another process holds the room's lease now: stop running it.
    Fenced,
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
    /// Close a connection.
    Close {
        /// The connection.
        conn: ConnId,
    },
    /// Perform this write, then feed its result back ([`Input::Stored`]) before any other
    /// input.
    Write(Write),
    /// Feed [`Input::Timer`] at this time (`None`: no timer is needed). Each call to
    /// [`Room::handle`] ends with one, replacing the one before.
    Wake(Option<u64>),
    /// Another process runs the room now: stop running it (the connections were closed; their
    /// clients reconnect and are sent to the new owner).
    Stop,
}

/// The first retry of a failed write waits this long; each next one twice as long, up to
/// [`RETRY_MAX_MS`].
pub const RETRY_FIRST_MS: u64 = 100;
/// The longest wait between two tries of a write (a room resumes within this long after the
/// store is back).
pub const RETRY_MAX_MS: u64 = 1_000;
/// Automatic actions played in a row before the room lets other inputs in (through a timer
/// due at once): connections drain, other rooms run.
const BURST: u32 = 8;
/// Person actions that wait while an earlier write is retried, at most (beyond: refused).
const QUEUE_MAX: usize = 32;

/// A write in progress, and what to do once it is stored.
#[derive(Debug, Clone)]
enum Pending {
    Action {
        stored: StoredAction,
        /// The connection and the client's sequence number to acknowledge.
        origin: Option<(ConnId, u64)>,
        /// The automatic decision it carries out.
        decision: Option<Decision>,
    },
    /// Seats made bots; the match starts next.
    FillBots(RoomConfig),
    Start,
    Finished(i64),
}

impl Pending {
    fn write(&self) -> Write {
        match self {
            Pending::Action { stored, .. } => Write::Action(*stored),
            Pending::FillBots(c) => Write::Config(c.clone()),
            Pending::Start => Write::Status(RoomStatus::Playing),
            Pending::Finished(at) => Write::Finished(*at),
        }
    }
}

/// A person's action waiting for an earlier write.
#[derive(Debug, Clone, Copy)]
struct Queued {
    conn: ConnId,
    seq: u64,
    player: Player,
    action: Action,
}

/// One connection.
#[derive(Debug)]
pub(super) struct Conn {
    pub(super) id: ConnId,
    pub(super) seat: Option<usize>,
    /// Events of the current hand sent so far.
    pub(super) sent: usize,
    /// The last `state` sent, with deadlines as times (compared to send only what changed).
    pub(super) last_state: Option<ServerMsg>,
    /// A `state` is owed even if nothing changed (it connected, or asked with `sync`).
    pub(super) owed: bool,
}

/// A room. See the [module docs](self).
pub struct Room {
    pub(super) id: String,
    pub(super) config: RoomConfig,
    pub(super) ruleset: Arc<Ruleset>,
    pub(super) seed: u64,
    pub(super) status: RoomStatus,
    pub(super) driver: Option<Driver>,
    /// The current hand's events so far, full truth (filtered per viewer when sent).
    pub(super) hand_events: Vec<Event>,
    /// How many of them everyone may know of: while a tile is on offer, the discard and what
    /// followed it are held back from those not asked about it.
    pub(super) public_len: usize,
    /// Actions stored and applied.
    pub(super) actions: u64,
    /// Of those, the passes, by chair.
    pub(super) passes: Vec<u64>,
    /// The seats played by the stand-in as last shown: updated only while no tile is on
    /// offer (an absent person's claim timer running out must not tell who could claim).
    pub(super) shown_stand_ins: Vec<bool>,
    pub(super) conns: Vec<Conn>,
    /// While `hand_over`: the chairs that sent `continue`, and when the next hand is dealt
    /// anyway.
    pub(super) continued: Vec<Player>,
    pub(super) continue_at: Option<u64>,
    pending: Option<Pending>,
    /// The pending write was sent and its result is awaited.
    in_flight: bool,
    /// Failed tries of the pending write, and when the next try is due.
    attempts: u32,
    retry_at: Option<u64>,
    queue: VecDeque<Queued>,
    /// When the driver has an automatic decision due next.
    driver_wake: Option<u64>,
    /// Automatic actions written since the last input that was not a store result.
    burst: u32,
    pub(super) created: i64,
    pub(super) finished: Option<i64>,
    /// The match was found over when restored, and is not yet stored as finished.
    pub(super) finish_unstored: bool,
    /// Milliseconds to add to `now` for the Unix time.
    wall_offset: i64,
    /// The match could not be made (a rule set that no longer builds): never try again.
    start_failed: bool,
    stopped: bool,
}

impl std::fmt::Debug for Room {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room")
            .field("id", &self.id)
            .field("status", &self.status)
            .field("actions", &self.actions)
            .field("conns", &self.conns.len())
            .field("pending", &self.pending)
            .finish()
    }
}

impl Room {
    /// A room as stored, before its actions are replayed (see [`super::restore`]); the match
    /// is not started. `wall_offset` turns `now` into Unix milliseconds.
    pub(super) fn new(
        stored: &StoredRoom,
        ruleset: Arc<Ruleset>,
        config: RoomConfig,
        wall_offset: i64,
    ) -> Room {
        let players = ruleset.players();
        Room {
            id: stored.id.clone(),
            config,
            ruleset,
            seed: stored.seed,
            status: stored.status,
            driver: None,
            hand_events: Vec::new(),
            public_len: 0,
            actions: 0,
            passes: vec![0; players],
            shown_stand_ins: vec![false; players],
            conns: Vec::new(),
            continued: Vec::new(),
            continue_at: None,
            pending: None,
            in_flight: false,
            attempts: 0,
            retry_at: None,
            queue: VecDeque::new(),
            driver_wake: None,
            burst: 0,
            created: stored.created,
            finished: stored.finished,
            finish_unstored: false,
            wall_offset,
            start_failed: false,
            stopped: false,
        }
    }

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Where the room is.
    pub fn status(&self) -> RoomStatus {
        self.status
    }

    /// Actions stored and applied so far.
    pub fn actions(&self) -> u64 {
        self.actions
    }

    /// The match, once started.
    pub fn session(&self) -> Option<&Session> {
        self.driver.as_ref().map(|d| d.session())
    }

    /// True once a fenced write stopped the room.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Takes one input at `now`; returns what to do, in order (the last is always a
    /// [`Output::Wake`], unless the room stopped).
    pub fn handle(&mut self, input: Input, now: u64) -> Vec<Output> {
        let mut out = Vec::new();
        if self.stopped {
            return out;
        }
        if !matches!(input, Input::Stored(_)) {
            self.burst = 0;
        }
        match input {
            Input::Open { conn, seat } => self.open(conn, seat, now, &mut out),
            Input::Close { conn } => self.close(conn, now),
            Input::Client { conn, msg } => self.client(conn, msg, now, &mut out),
            Input::Timer => {}
            Input::Stored(result) => self.stored(result, now, &mut out),
        }
        if self.stopped {
            return out;
        }
        self.advance(now, &mut out);
        self.flush_states(now, &mut out);
        out.push(Output::Wake(self.wake()));
        out
    }

    /// The time the next [`Input::Timer`] is wanted.
    fn wake(&self) -> Option<u64> {
        let retry = self
            .retry_at
            .filter(|_| self.pending.is_some() && !self.in_flight);
        let deal = self
            .continue_at
            .filter(|_| self.status == RoomStatus::HandOver);
        let driver = self
            .driver_wake
            .filter(|_| self.status == RoomStatus::Playing);
        [retry, deal, driver].into_iter().flatten().min()
    }

    pub(super) fn wall(&self, now: u64) -> i64 {
        (now as i64).saturating_add(self.wall_offset)
    }

    /// The chair of `seat`, once the match has started.
    pub(super) fn chair(&self, seat: usize) -> Option<Player> {
        self.session().and_then(|s| s.chairs().get(seat).copied())
    }

    /// Makes the match: the session and a driver with a controller per chair.
    pub(super) fn start_match(&mut self, now: u64) -> Result<(), String> {
        let (session, opening) = Session::new(self.ruleset.clone(), self.seed, self.config.hands)
            .map_err(|e| e.to_string())?;
        let chairs = session.chairs().to_vec();
        let mut controllers: Vec<Option<Controller>> = (0..chairs.len()).map(|_| None).collect();
        for (seat, &chair) in chairs.iter().enumerate() {
            let s = &self.config.seats[seat];
            let seed = self.seed ^ (seat as u64 + 1);
            let c = if s.bot {
                let kind = s.bot_kind.as_deref().unwrap_or("efficient");
                Controller::Bot(
                    bots::by_name(kind, &self.ruleset, seed).map_err(|e| e.to_string())?,
                )
            } else {
                Controller::person(seed)
            };
            controllers[chair.index()] = Some(c);
        }
        let controllers = controllers
            .into_iter()
            .map(|c| c.ok_or("a chair without a seat"))
            .collect::<Result<Vec<_>, _>>()?;
        let timers = Timers {
            turn_ms: self.config.turn_timeout(),
            claim_ms: self.config.claim_timeout(),
            away_grace_ms: Some(self.config.away_grace()),
            bot_delay_ms: self.config.bot_delay_ms,
        };
        let mut driver = Driver::new(session, controllers, timers).map_err(|e| e.to_string())?;
        for (seat, &chair) in chairs.iter().enumerate() {
            if !self.config.seats[seat].bot && !self.conns.iter().any(|c| c.seat == Some(seat)) {
                driver.set_present(chair, false, now);
            }
        }
        self.driver = Some(driver);
        self.hand_events = opening.seat_choice;
        self.hand_events.extend(opening.deal);
        self.public_len = self.hand_events.len();
        Ok(())
    }

    /// Applies a stored action to the match (live, or replaying the store).
    pub(super) fn apply(
        &mut self,
        player: Player,
        action: Action,
        now: u64,
    ) -> Result<majiang::table::Step, String> {
        let Some(driver) = self.driver.as_mut() else {
            return Err("the match has not started".into());
        };
        if driver.session().awaiting_deal() {
            // A stored action after a finished hand: the next hand was dealt first.
            let deal = driver.deal_next(now).map_err(|e| e.to_string())?;
            self.new_hand(deal);
        }
        let driver = self.driver.as_mut().expect("checked above");
        let step = driver.act(player, action, now).map_err(|e| e.to_string())?;
        self.actions += 1;
        if action == Action::Pass
            && let Some(n) = self.passes.get_mut(player.index())
        {
            *n += 1;
        }
        self.hand_events.extend(step.events.iter().cloned());
        if !self.offer_open() {
            self.public_len = self.hand_events.len();
        }
        Ok(step)
    }

    pub(super) fn new_hand(&mut self, deal: Vec<Event>) {
        self.hand_events = deal;
        self.public_len = self.hand_events.len();
        for c in &mut self.conns {
            c.sent = 0;
        }
    }

    /// A discarded (or robbable) tile is on offer and some players must still answer.
    pub(super) fn offer_open(&self) -> bool {
        self.session()
            .is_some_and(|s| !s.game().is_over() && s.game().on_offer().is_some())
    }

    /// The hand has ended and the match goes on: wait for `continue`.
    pub(super) fn enter_hand_over(&mut self, now: u64) {
        self.status = RoomStatus::HandOver;
        self.continued.clear();
        self.continue_at = Some(now.saturating_add(self.config.continue_timeout()));
    }

    fn open(&mut self, conn: ConnId, seat: Option<usize>, now: u64, out: &mut Vec<Output>) {
        // A person seat filled with a bot at the start is the bot's: its old token watches.
        let seat = seat.filter(|&s| self.config.seats.get(s).is_some_and(|c| !c.bot));
        out.push(Output::Send {
            conn,
            msg: ServerMsg::Welcome {
                room: self.id.clone(),
                seat,
                config: self.config.clone(),
            },
        });
        let mut c = Conn {
            id: conn,
            seat,
            sent: 0,
            last_state: None,
            owed: true,
        };
        if let Some(d) = &self.driver {
            let viewer = self.viewer(seat);
            let upto = self.visible_len(viewer);
            out.push(Output::Send {
                conn,
                msg: ServerMsg::History {
                    hand_number: d.session().hand_number(),
                    events: self.hand_events[..upto]
                        .iter()
                        .map(|e| e.seen_by(viewer))
                        .collect(),
                },
            });
            c.sent = upto;
            if self.status == RoomStatus::HandOver
                && let Some(result) = self.hand_result()
            {
                out.push(Output::Send { conn, msg: result });
            }
        }
        self.conns.push(c);
        if let Some(chair) = seat.and_then(|s| self.chair(s))
            && let Some(d) = self.driver.as_mut()
        {
            d.set_present(chair, true, now);
        }
    }

    fn close(&mut self, conn: ConnId, now: u64) {
        let Some(i) = self.conns.iter().position(|c| c.id == conn) else {
            return;
        };
        let c = self.conns.remove(i);
        if let Some(s) = c.seat
            && !self.conns.iter().any(|o| o.seat == Some(s))
            && let Some(chair) = self.chair(s)
            && let Some(d) = self.driver.as_mut()
        {
            d.set_present(chair, false, now);
        }
    }

    fn client(&mut self, conn: ConnId, msg: ClientMsg, now: u64, out: &mut Vec<Output>) {
        let Some(seat) = self.conns.iter().find(|c| c.id == conn).map(|c| c.seat) else {
            return;
        };
        let refuse = |out: &mut Vec<Output>, seq: Option<u64>, message: String| {
            out.push(Output::Send {
                conn,
                msg: ServerMsg::Error { seq, message },
            })
        };
        match msg {
            ClientMsg::Sync {} => {
                if let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) {
                    c.owed = true;
                }
            }
            ClientMsg::Start { fill_bots } => {
                if let Err(message) = self.start_by(seat, fill_bots, out) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::Continue {} => {
                if let Err(message) = self.continue_by(seat) {
                    refuse(out, None, message);
                }
            }
            ClientMsg::Action { seq, action } => {
                let player = match (seat, seat.and_then(|s| self.chair(s))) {
                    (None, _) => Err("spectators cannot act".to_string()),
                    (Some(_), None) => Err("the match has not started".to_string()),
                    (Some(_), Some(p)) => Ok(p),
                };
                match player {
                    Err(message) => refuse(out, Some(seq), message),
                    Ok(player) => {
                        let q = Queued {
                            conn,
                            seq,
                            player,
                            action,
                        };
                        if self.pending.is_none() {
                            self.person_action(q, now, out);
                        } else if self.queue.len() < QUEUE_MAX {
                            // An earlier write is being retried: this one is checked after it.
                            self.queue.push_back(q);
                        } else {
                            refuse(out, Some(seq), "the room is busy: try again".into());
                        }
                    }
                }
            }
        }
    }

    /// Checks a person's action and, if it may be played, writes it.
    fn person_action(&mut self, q: Queued, _now: u64, out: &mut Vec<Output>) {
        let check = match (&self.driver, self.status) {
            (None, _) => Err("the match has not started".to_string()),
            (Some(_), RoomStatus::HandOver) => {
                Err("the hand is over: send continue for the next one".to_string())
            }
            (Some(d), _) if d.session().is_over() => Err("the match is over".to_string()),
            (Some(d), _) => d
                .session()
                .game()
                .check(q.player, q.action)
                .map_err(|e| e.to_string()),
        };
        match check {
            Err(message) => out.push(Output::Send {
                conn: q.conn,
                msg: ServerMsg::Error {
                    seq: Some(q.seq),
                    message,
                },
            }),
            Ok(()) => self.begin(
                Pending::Action {
                    stored: StoredAction {
                        seq: self.actions,
                        player: q.player,
                        action: q.action,
                    },
                    origin: Some((q.conn, q.seq)),
                    decision: None,
                },
                out,
            ),
        }
    }

    /// `start` from a connection on `seat`.
    fn start_by(
        &mut self,
        seat: Option<usize>,
        fill_bots: bool,
        out: &mut Vec<Output>,
    ) -> Result<(), String> {
        let Some(seat) = seat else {
            return Err("spectators cannot start the match".into());
        };
        if self.status != RoomStatus::Waiting {
            return Err("the match has already started".into());
        }
        if self.pending.is_some() {
            return Err("the match is starting".into());
        }
        let missing = self.missing_people();
        if fill_bots && !missing.is_empty() {
            if seat != 0 {
                return Err(
                    "only the room's creator (seat 0) may fill the empty seats with bots".into(),
                );
            }
            let mut config = self.config.clone();
            for &s in &missing {
                config.seats[s].bot = true;
                config.seats[s].bot_kind = Some("efficient".into());
            }
            self.begin(Pending::FillBots(config), out);
            return Ok(());
        }
        if !missing.is_empty() {
            let names: Vec<&str> = missing
                .iter()
                .map(|&s| self.config.seats[s].name.as_str())
                .collect();
            return Err(format!(
                "waiting for {} to join; the creator may start now with the empty seats played by bots",
                names.join(", ")
            ));
        }
        self.begin(Pending::Start, out);
        Ok(())
    }

    /// Person seats nobody holds a connection to.
    pub(super) fn missing_people(&self) -> Vec<usize> {
        (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot && !self.conns.iter().any(|c| c.seat == Some(s)))
            .collect()
    }

    /// `continue` from a connection on `seat`.
    fn continue_by(&mut self, seat: Option<usize>) -> Result<(), String> {
        let Some(chair) = seat.and_then(|s| self.chair(s)) else {
            return Err("only a seated player continues".into());
        };
        if self.status != RoomStatus::HandOver {
            return Err("no hand result is waiting for continue".into());
        }
        if !self.continued.contains(&chair) {
            self.continued.push(chair);
        }
        Ok(())
    }

    /// The connected people the next deal still waits for, by chair.
    pub(super) fn waiting_for(&self) -> Vec<Player> {
        let mut v: Vec<Player> = (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot && self.conns.iter().any(|c| c.seat == Some(s)))
            .filter_map(|s| self.chair(s))
            .filter(|p| !self.continued.contains(p))
            .collect();
        v.sort();
        v
    }

    /// The next hand is due: every connected person continued (at least one did, or the room
    /// has no people: bots-only rooms go on at once), or the countdown ended.
    fn deal_due(&self, now: u64) -> bool {
        let everyone = self.waiting_for().is_empty()
            && (!self.continued.is_empty() || self.config.people() == 0);
        everyone || self.continue_at.is_some_and(|t| now >= t)
    }

    /// Starts a write: it is sent now, and what it is for happens when it is stored.
    fn begin(&mut self, p: Pending, out: &mut Vec<Output>) {
        out.push(Output::Write(p.write()));
        self.pending = Some(p);
        self.in_flight = true;
        self.attempts = 0;
        self.retry_at = None;
    }

    fn stored(&mut self, result: Result<(), WriteFailure>, now: u64, out: &mut Vec<Output>) {
        if !self.in_flight {
            tracing::warn!("a store result nobody waited for");
            return;
        }
        self.in_flight = false;
        match result {
            Ok(()) => {
                self.attempts = 0;
                self.retry_at = None;
                if let Some(p) = self.pending.take() {
                    self.done(p, now, out);
                }
            }
            Err(WriteFailure::Fenced) => {
                tracing::warn!("write fenced: another process runs the room now");
                self.stopped = true;
                self.pending = None;
                for c in self.conns.drain(..) {
                    out.push(Output::Close { conn: c.id });
                }
                out.push(Output::Stop);
            }
            Err(WriteFailure::Failed(e)) => {
                self.attempts = self.attempts.saturating_add(1);
                let backoff = RETRY_FIRST_MS
                    .saturating_mul(1u64 << self.attempts.saturating_sub(1).min(16))
                    .min(RETRY_MAX_MS);
                self.retry_at = Some(now.saturating_add(backoff));
                tracing::warn!(
                    attempt = self.attempts,
                    "not stored, retrying in {backoff} ms: {e}"
                );
            }
        }
    }

    /// What a write was for, now that it is stored.
    fn done(&mut self, p: Pending, now: u64, out: &mut Vec<Output>) {
        match p {
            Pending::Action {
                stored,
                origin,
                decision,
            } => {
                if let Some((chosen, error)) = decision.as_ref().and_then(|d| d.refused.as_ref()) {
                    tracing::warn!(
                        "bot of chair {} chose {chosen:?}, refused ({error}): played the first legal action",
                        stored.player.index()
                    );
                }
                let step = match self.apply(stored.player, stored.action, now) {
                    Ok(step) => step,
                    Err(e) => {
                        // Checked before the write, so the engine must accept it; if not, the
                        // stored log no longer replays. Say so loudly.
                        tracing::error!(
                            "engine refused a checked, stored action {}: {e}",
                            stored.seq
                        );
                        if let Some((conn, seq)) = origin {
                            out.push(Output::Send {
                                conn,
                                msg: ServerMsg::Error {
                                    seq: Some(seq),
                                    message: e,
                                },
                            });
                        }
                        return;
                    }
                };
                if let Some((conn, seq)) = origin {
                    out.push(Output::Send {
                        conn,
                        msg: ServerMsg::Ack { seq },
                    });
                }
                self.release_events(out);
                if step.settlement.is_some() {
                    if let Some(result) = self.hand_result() {
                        self.broadcast(&result, out);
                    }
                    if step.match_over {
                        self.status = RoomStatus::Finished;
                        self.continue_at = None;
                        let at = self.wall(now);
                        self.finished = Some(at);
                        let (standings, ledger) = self
                            .session()
                            .map(|s| (s.standings(), s.ledger().to_vec()))
                            .unwrap_or_default();
                        self.broadcast(&ServerMsg::MatchOver { standings, ledger }, out);
                        self.begin(Pending::Finished(at), out);
                    } else {
                        self.enter_hand_over(now);
                    }
                }
            }
            Pending::FillBots(config) => {
                self.config = config;
                self.begin(Pending::Start, out);
            }
            Pending::Start => match self.start_match(now) {
                Ok(()) => {
                    self.status = RoomStatus::Playing;
                    self.release_events(out);
                }
                Err(e) => {
                    tracing::error!("cannot start: {e}");
                    self.start_failed = true;
                }
            },
            Pending::Finished(_) => self.finish_unstored = false,
        }
    }

    /// Does whatever is due at `now` until a write is in progress or nothing more is due:
    /// (re)send a write, start the match, play a queued person action, deal, let a bot or a
    /// stand-in act.
    fn advance(&mut self, now: u64, out: &mut Vec<Output>) {
        self.driver_wake = None;
        loop {
            if let Some(p) = &self.pending {
                if !self.in_flight && self.retry_at.is_none_or(|t| now >= t) {
                    out.push(Output::Write(p.write()));
                    self.in_flight = true;
                }
                return;
            }
            if self.finish_unstored {
                let at = self.finished.unwrap_or_else(|| self.wall(now));
                self.begin(Pending::Finished(at), out);
                continue;
            }
            if self.status == RoomStatus::Waiting && !self.start_failed {
                // Rooms set to start by themselves, and rooms of several people once all
                // are here.
                let people = self.config.people();
                if self.config.autostart || (people >= 2 && self.missing_people().is_empty()) {
                    self.begin(Pending::Start, out);
                    continue;
                }
                return;
            }
            if let Some(q) = self.queue.pop_front() {
                self.person_action(q, now, out);
                continue;
            }
            if self.status == RoomStatus::HandOver && self.deal_due(now) {
                self.deal(now, out);
                continue;
            }
            if self.status != RoomStatus::Playing {
                return;
            }
            let Some(driver) = self.driver.as_mut() else {
                return;
            };
            match driver.poll(now) {
                Poll::Act(_) if self.burst >= BURST => {
                    self.driver_wake = Some(now);
                    return;
                }
                Poll::Act(d) => {
                    self.burst += 1;
                    let stored = StoredAction {
                        seq: self.actions,
                        player: d.player,
                        action: d.action,
                    };
                    self.begin(
                        Pending::Action {
                            stored,
                            origin: None,
                            decision: Some(d),
                        },
                        out,
                    );
                }
                Poll::Wait(at) => {
                    self.driver_wake = at;
                    return;
                }
            }
        }
    }

    /// Deals the next hand (everyone continued, or the countdown ended).
    fn deal(&mut self, now: u64, out: &mut Vec<Output>) {
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        match d.deal_next(now) {
            Ok(events) => {
                self.status = RoomStatus::Playing;
                self.continue_at = None;
                self.continued.clear();
                self.new_hand(events);
                self.release_events(out);
            }
            Err(e) => {
                tracing::error!("cannot deal: {e}");
                self.continue_at = None;
                self.status = RoomStatus::Playing;
            }
        }
    }

    /// The viewer a connection on `seat` is.
    pub(super) fn viewer(&self, seat: Option<usize>) -> Player {
        seat.and_then(|s| self.chair(s)).unwrap_or(SPECTATOR)
    }
}
