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
use super::io::{ConnId, Input, Output};
use super::outside_seat::{self, Dismissal, OutsideSeat, Turn};
use super::work::{Pending, Queued};
use crate::external_bots::{self, ExternalBots};
use crate::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
use crate::store::{StoredAction, StoredRoom};
use crate::waits::HintCache;
use majiang::bots;
use majiang::driver::{Controller, Driver, Poll, Timers};
use majiang::table::{Action, Event, Game, Player, Session, TableRules};
use std::collections::VecDeque;
use std::sync::Arc;

/// Automatic actions played in a row before the room lets other inputs in (through a timer
/// due at once): connections drain, other rooms run.
const BURST: u32 = 8;
/// One connection.
#[derive(Debug)]
pub(super) struct Conn {
    pub(super) id: ConnId,
    pub(super) seat: Option<usize>,
    /// Events of the current hand sent so far.
    pub(super) sent: usize,
    /// The last `state` sent (whole or as a delta), with deadlines as times: a state is sent
    /// when it differs (a delta: what changed). Shared by the viewer's connections that were
    /// sent it.
    pub(super) last_state: Option<Arc<ServerMsg>>,
    /// It asked for `state_delta`s; otherwise each state goes whole.
    pub(super) deltas: bool,
    /// A `state` is owed even if nothing changed (it connected, or asked with `sync`).
    pub(super) owed: bool,
    /// Its client's device id, if it gave one.
    pub(super) device: Option<String>,
    /// The seat its key names when a bot holds it (it watches, and may take it back).
    pub(super) bot_holds: Option<usize>,
}

/// A room. See the [module docs](super).
pub struct Room {
    pub(super) id: String,
    pub(super) config: RoomConfig,
    pub(super) ruleset: Arc<TableRules>,
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
    pub(super) pending: Option<Pending>,
    /// The pending write was sent and its result is awaited.
    pub(super) in_flight: bool,
    /// Failed tries of the pending write, and when the next try is due.
    pub(super) attempts: u32,
    pub(super) retry_at: Option<u64>,
    pub(super) queue: VecDeque<Queued>,
    /// When the driver has an automatic decision due next.
    pub(super) driver_wake: Option<u64>,
    /// While the claim window of the last discard or kong is open: when it ends (what
    /// followed the discard is held back from everyone not asked about it until then).
    pub(super) window_end: Option<u64>,
    /// While a tile is on offer (or its claim window open): the table as it was before the
    /// discard (or kong) that opened it, with the actions and passes counted by then. A
    /// connection that opens meanwhile, not asked about the tile, is shown this (it must not
    /// hear of the discard yet, and a page with no state at all is blank).
    pub(super) before_offer: Option<BeforeOffer>,
    /// A hand that ended inside a claim window ends for the viewers when the window does (the
    /// match too, when set).
    pub(super) hand_end_held: Option<bool>,
    /// Automatic actions written since the last input that was not a store result.
    pub(super) burst: u32,
    pub(super) created: i64,
    pub(super) finished: Option<i64>,
    /// The match was found over when restored, and is not yet stored as finished.
    pub(super) finish_unstored: bool,
    /// Milliseconds to add to `now` for the Unix time.
    pub(super) wall_offset: i64,
    /// The match could not be made (a rule set that no longer builds): never try again.
    pub(super) start_failed: bool,
    pub(super) stopped: bool,
    /// The seats whose person turned hints on.
    pub(super) hints: SeatHints,
    /// Seats a bot was given at the start whose person asked for them back (see `take_back`).
    pub(super) take_backs: Vec<usize>,
    /// Each chair's last ready hint, keyed by its hand.
    pub(super) ready_hints: HintCache,
    /// The outside bots this server allows (a seat's `ext:NAME` runs one).
    pub(super) bots: ExternalBots,
    /// The seats played by outside bots, and where each conversation is.
    pub(super) outside: Vec<OutsideSeat>,
    /// The outside bots dismissed so far.
    pub(super) dismissals: Vec<Dismissal>,
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
        ruleset: Arc<TableRules>,
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
            window_end: None,
            before_offer: None,
            hand_end_held: None,
            burst: 0,
            created: stored.created,
            finished: stored.finished,
            finish_unstored: false,
            wall_offset,
            start_failed: false,
            stopped: false,
            hints: Default::default(),
            take_backs: Vec::new(),
            ready_hints: HintCache::default(),
            bots: ExternalBots::none(),
            outside: Vec::new(),
            dismissals: Vec::new(),
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
        // A person's action or a timer that only began a write changed no view: its result is
        // the next input, and the states are sent after it (not built twice per step).
        let may_wait = matches!(
            input,
            Input::Timer
                | Input::Client {
                    msg: ClientMsg::Action { .. },
                    ..
                }
        );
        let before = (self.actions, self.status);
        match input {
            Input::Open {
                conn,
                seat,
                deltas,
                device,
            } => self.open(conn, seat, deltas, device, now, &mut out),
            Input::Close { conn } => self.close(conn, now),
            Input::Client { conn, msg } => self.client(conn, msg, now, &mut out),
            Input::Timer => {}
            Input::Stored(result) => self.stored(result, now, &mut out),
            Input::OutsideBot { seat, heard } => self.outside_heard(seat, heard, &mut out),
        }
        if self.stopped {
            return out;
        }
        self.outside_timeouts(now, &mut out);
        self.advance(now, &mut out);
        self.start_outside_bots(now, &mut out);
        if !(may_wait && self.in_flight && before == (self.actions, self.status)) {
            self.flush_states(now, &mut out);
        }
        self.ask_hints(&mut out);
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
        let outside = self
            .outside_wake()
            .filter(|_| self.status != RoomStatus::Finished);
        [retry, deal, driver, self.window_end, outside]
            .into_iter()
            .flatten()
            .min()
    }

    pub(super) fn wall(&self, now: u64) -> i64 {
        (now as i64).saturating_add(self.wall_offset)
    }

    /// True when a seat is played by the expert bot (its decisions search for tens to hundreds
    /// of milliseconds: the room takes turns at the server's bounded searches).
    pub(super) fn has_expert_bots(&self) -> bool {
        self.config.seats.iter().any(|s| {
            s.bot
                && s.bot_kind.as_deref().is_some_and(|k| {
                    let name = k.split(':').next().unwrap_or(k);
                    name == "expert" || name == "hard"
                })
        })
    }

    /// The chair of `seat`, once the match has started.
    pub(super) fn chair(&self, seat: usize) -> Option<Player> {
        self.session().and_then(|s| s.chairs().get(seat).copied())
    }

    /// Makes the match: the session and a driver with a controller per chair (an outside
    /// bot's chair is the room's to answer for: see `outside`).
    pub(super) fn start_match(&mut self, now: u64) -> Result<(), String> {
        let (session, opening) = Session::new(
            self.ruleset.clone(),
            self.seed,
            Some(self.config.hand_limit()),
        )
        .map_err(|e| e.to_string())?;
        let chairs = session.chairs().to_vec();
        let mut controllers: Vec<Option<Controller>> = (0..chairs.len()).map(|_| None).collect();
        for (seat, &chair) in chairs.iter().enumerate() {
            let s = &self.config.seats[seat];
            let seed = self.seed ^ (seat as u64 + 1);
            let c = if s.bot {
                let kind = s.bot_kind.as_deref().unwrap_or("efficient");
                if external_bots::is_external(kind) {
                    outside_seat::controller()
                } else {
                    Controller::Bot(
                        bots::by_name(kind, &self.ruleset, seed).map_err(|e| e.to_string())?,
                    )
                }
            } else {
                Controller::person(seed)
            };
            controllers[chair.index()] = Some(c);
        }
        self.outside = outside_seat::seats_of(&self.config, self.seed, &self.bots, &chairs)?;
        let controllers = controllers
            .into_iter()
            .map(|c| c.ok_or("a chair without a seat"))
            .collect::<Result<Vec<_>, _>>()?;
        let mut driver =
            Driver::new(session, controllers, self.timers()).map_err(|e| e.to_string())?;
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

    /// The driver's timers under the room's settings as they are now: they follow who plays
    /// the seats (the defaults differ with the number of people), so a seat taken back from
    /// its bot changes them (see `take_back`).
    pub(super) fn timers(&self) -> Timers {
        Timers {
            turn_ms: self.config.turn_timeout(),
            claim_ms: self.config.claim_timeout(),
            away_grace_ms: Some(self.config.away_grace()),
            bot_delay_ms: self.config.bot_delay_ms,
            claim_window_ms: self.config.claim_window(),
        }
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
        // The table before this action, kept if it opens an offer (one hand's game cloned
        // per action taken while no tile is on offer: a discard, a kong, a win).
        let before = (!self.offer_open()).then(|| BeforeOffer {
            game: Box::new(self.session().expect("started").game().clone()),
            actions: self.actions,
            passes: self.passes.clone(),
        });
        let driver = self.driver.as_mut().expect("checked above");
        let step = driver.act(player, action, now).map_err(|e| e.to_string())?;
        self.actions += 1;
        if action == Action::Pass
            && let Some(n) = self.passes.get_mut(player.index())
        {
            *n += 1;
        }
        self.hand_events.extend(step.events.iter().cloned());
        self.window_end = self.driver.as_ref().and_then(|d| d.window_open_until(now));
        if !self.offer_open() {
            self.public_len = self.hand_events.len();
            self.before_offer = None;
        } else if before.is_some() {
            self.before_offer = before;
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

    /// A discarded (or robbable) tile is on offer and some players must still answer, or the
    /// claim window of the last discard or kong is still open: what follows the discard is held
    /// back from everybody not asked about it.
    pub(super) fn offer_open(&self) -> bool {
        self.window_end.is_some() || self.tile_on_offer()
    }

    /// A discarded (or robbable) tile is on offer and some players must still answer.
    pub(super) fn tile_on_offer(&self) -> bool {
        self.session()
            .is_some_and(|s| !s.game().is_over() && s.game().on_offer().is_some())
    }

    /// Closes the claim window once its time has come: what it held back is released to
    /// everyone.
    fn close_window(&mut self, now: u64, out: &mut Vec<Output>) {
        if self.window_end.is_some_and(|end| now >= end) {
            self.window_end = None;
            if !self.tile_on_offer() {
                self.public_len = self.hand_events.len();
            }
            self.release_events(out);
            // And the states they make, now: a bot due at the window's end acts within this
            // same call and opens the next window, which would hold them back again (a person
            // watching bots play would see nothing until asked).
            self.flush_states(now, out);
            if let Some(match_over) = self.hand_end_held.take() {
                self.end_hand(match_over, now, out);
            }
        }
    }

    /// The hand has ended and the match goes on: wait for `continue`.
    pub(super) fn enter_hand_over(&mut self, now: u64) {
        self.status = RoomStatus::HandOver;
        self.continued.clear();
        self.continue_at = Some(now.saturating_add(self.config.continue_timeout()));
    }

    /// Does whatever is due at `now` until a write is in progress or nothing more is due:
    /// (re)send a write, start the match, play a queued person action, give a seat back to
    /// its person, deal, let a bot or a stand-in act.
    pub(super) fn advance(&mut self, now: u64, out: &mut Vec<Output>) {
        self.driver_wake = None;
        self.close_window(now, out);
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
            if let Some((config, seats)) = self.take_back_due() {
                self.begin(Pending::TakeBack(config, seats), out);
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
                Poll::Act(mut d) => {
                    match self.outside_turn(d.player, now, out) {
                        Turn::NotOutside => {}
                        Turn::Play(action) => d.action = action,
                        Turn::Wait(at) => {
                            self.driver_wake = at;
                            return;
                        }
                        Turn::Dismissed => continue,
                    }
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
    pub(super) fn deal(&mut self, now: u64, out: &mut Vec<Output>) {
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        match d.deal_next(now) {
            Ok(events) => {
                self.window_end = None;
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

/// The table before the discard that opened the offer now open (see [`Room::before_offer`]).
#[derive(Debug)]
pub(super) struct BeforeOffer {
    pub(super) game: Box<Game>,
    pub(super) actions: u64,
    pub(super) passes: Vec<u64>,
}

/// The seats whose person turned hints on.
#[derive(Debug, Default)]
pub(super) struct SeatHints {
    pub(super) on: Vec<usize>,
}
