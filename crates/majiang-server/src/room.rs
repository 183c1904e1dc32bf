//! A room: one task owning one match. Connections talk to it through a channel; it checks each
//! action, writes it to the store, applies it, acknowledges it and sends every connection what
//! its seat may see. Bots and the turn and claim timers act through the same path. After each
//! hand the room waits (`hand_over`) for every connected person's `continue`, or its countdown.

use crate::play::{MatchState, Step};
use crate::protocol::{ClientMsg, ContinueState, RoomConfig, RoomStatus, SeatInfo, ServerMsg};
use crate::reveal;
use crate::store::{Fence, Store, StoreError, StoredAction, StoredRoom};
use majiang::bots::{self, Bot};
use majiang::table::matches::Standing;
use majiang::table::{Action, Event, Player, Ruleset};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio::time::{Duration, Instant, sleep_until};
use tracing::Instrument;

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
}

/// A message for one connection: JSON text, or an order to close.
pub type Outbox = mpsc::Sender<Arc<str>>;

pub(crate) enum Cmd {
    Connect {
        seat: Option<usize>,
        out: Outbox,
        /// Notified when the room drops the connection (its outbox overflowed).
        kick: Arc<Notify>,
        reply: oneshot::Sender<u64>,
    },
    Disconnect {
        conn: u64,
    },
    Client {
        conn: u64,
        msg: ClientMsg,
    },
}

/// The handle the server keeps for a room.
#[derive(Clone)]
pub struct RoomHandle {
    pub(crate) tx: mpsc::Sender<Cmd>,
    tokens: Arc<Vec<Option<String>>>,
    summary: watch::Receiver<RoomSummary>,
    /// Stops the room's task (another process took the room over).
    stop: Arc<Notify>,
}

impl RoomHandle {
    /// The seat whose token this is (compared in constant time).
    pub fn seat_for_token(&self, token: &str) -> Option<usize> {
        let mut found = None;
        for (i, t) in self.tokens.iter().enumerate() {
            if let Some(t) = t
                && constant_time_eq(t.as_bytes(), token.as_bytes())
            {
                found = Some(i);
            }
        }
        found
    }

    /// The lobby view now.
    pub fn summary(&self) -> RoomSummary {
        self.summary.borrow().clone()
    }

    /// Ends the room's task and with it every connection to it (they reconnect, and are sent
    /// to the room's new owner).
    pub(crate) fn stop(&self) {
        self.stop.notify_one();
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

struct Conn {
    id: u64,
    seat: Option<usize>,
    out: Outbox,
    kick: Arc<Notify>,
}

/// Why a room could not be rebuilt from the store.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored settings no longer make a rule set.
    #[error("room {room}: {message}")]
    Replay {
        /// Room id.
        room: String,
        /// What went wrong.
        message: String,
    },
}

pub(crate) struct RoomActor {
    id: String,
    config: RoomConfig,
    ruleset: Arc<Ruleset>,
    seed: u64,
    store: Arc<dyn Store>,
    /// The lease this process runs the room under (in a cluster): every action write carries
    /// it, and is refused once another process took the room over.
    fence: Option<Fence>,
    status: RoomStatus,
    game: Option<MatchState>,
    actions: u64,
    conns: Vec<Conn>,
    next_conn: u64,
    /// The server's players, by seat (`None` for people).
    bots: Vec<Option<Box<dyn Bot>>>,
    /// The efficient bot that plays for a person at a time-out, by seat (made when first
    /// needed).
    stand_ins: Vec<Option<Box<dyn Bot>>>,
    /// Person seats the server plays for now: away when their timer ran out, until they
    /// reconnect.
    standing_in: Vec<bool>,
    /// The timer of the people who must act now (their turn, or their answer to a tile on
    /// offer).
    deadline: Option<Deadline>,
    /// While `hand_over`: the chairs that sent `continue`, and when the next hand is dealt
    /// anyway.
    continued: Vec<Player>,
    continue_deadline: Option<Instant>,
    bot_due: Option<Instant>,
    created: i64,
    finished: Option<i64>,
    summary: watch::Sender<RoomSummary>,
}

/// A running turn or claim timer, for one decision point of the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Deadline {
    at: Instant,
    /// The decision it times: hand, whose turn, the tile on offer, the live wall's count.
    point: DecisionPoint,
}

type DecisionPoint = (u32, Option<Player>, Option<(Player, majiang::Tile)>, usize);

impl RoomActor {
    /// Builds the actor for a stored room, replaying its actions; spawns it and returns the
    /// handle. `fence` is the lease the room runs under in a cluster (`None` alone).
    pub(crate) async fn spawn(
        stored: StoredRoom,
        store: Arc<dyn Store>,
        fence: Option<Fence>,
    ) -> Result<RoomHandle, RestoreError> {
        let replay_err = |message: String| RestoreError::Replay {
            room: stored.id.clone(),
            message,
        };
        let mut config = stored.config.clone();
        let ruleset = Arc::new(config.validate().map_err(|e| replay_err(e.0))?);
        let bots = config
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.bot
                    .then(|| {
                        let kind = s.bot_kind.as_deref().unwrap_or("efficient");
                        bots::by_name(kind, &ruleset, stored.seed ^ (i as u64 + 1))
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| replay_err(e.to_string()))?;
        let (summary, summary_rx) = watch::channel(RoomSummary {
            id: stored.id.clone(),
            rules: config.rules.clone(),
            status: stored.status,
            seats: Vec::new(),
            hands: config.hands,
            hand_number: None,
            ledger: Vec::new(),
            created: stored.created,
            finished: stored.finished,
            standings: Vec::new(),
        });
        let seats = config.seats.len();
        let mut actor = RoomActor {
            id: stored.id.clone(),
            ruleset,
            seed: stored.seed,
            store: store.clone(),
            fence,
            status: stored.status,
            game: None,
            actions: 0,
            conns: Vec::new(),
            next_conn: 0,
            bots,
            stand_ins: (0..seats).map(|_| None).collect(),
            standing_in: vec![false; seats],
            deadline: None,
            continued: Vec::new(),
            continue_deadline: None,
            bot_due: None,
            created: stored.created,
            finished: stored.finished,
            summary,
            config,
        };
        if stored.status != RoomStatus::Waiting {
            let (m, _) = MatchState::start(actor.ruleset.clone(), actor.seed, actor.config.hands)
                .map_err(|e| replay_err(e.to_string()))?;
            actor.game = Some(m);
            for a in store.actions(&stored.id).await? {
                if a.seq != actor.actions {
                    return Err(replay_err(format!(
                        "action {} stored where {} was expected",
                        a.seq, actor.actions
                    )));
                }
                let m = actor.game.as_mut().expect("started above");
                m.apply(a.player, a.action).map_err(|e| {
                    replay_err(format!("stored action {} does not replay: {e}", a.seq))
                })?;
                actor.actions += 1;
            }
            let finished = actor.game.as_ref().is_some_and(|m| m.is_finished());
            if finished && actor.status != RoomStatus::Finished {
                actor.status = RoomStatus::Finished;
                let at = crate::now_ms();
                store.set_finished(&actor.id, at).await?;
                actor.finished = Some(at);
            }
            if actor.game.as_ref().is_some_and(|m| m.awaiting_deal()) {
                // Stopped between hands: show the result again and wait for `continue`.
                actor.enter_hand_over();
            }
        }
        actor.publish_summary();
        let (tx, rx) = mpsc::channel(1024);
        let handle = RoomHandle {
            tx,
            tokens: Arc::new(stored.tokens),
            summary: summary_rx,
            stop: Arc::new(Notify::new()),
        };
        let span = tracing::info_span!("room", room = %actor.id);
        tokio::spawn(actor.run(rx, handle.stop.clone()).instrument(span));
        Ok(handle)
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, stop: Arc<Notify>) {
        if self.config.autostart && self.status == RoomStatus::Waiting {
            if let Err(e) = self.start().await {
                tracing::warn!("cannot start: {e}");
            }
        }
        self.after_change().await;
        loop {
            let timer = [
                self.bot_due,
                self.deadline.map(|d| d.at),
                self.continue_deadline,
            ]
            .into_iter()
            .flatten()
            .min();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = stop.notified() => break,
                _ = sleep_until(timer.unwrap_or_else(Instant::now)), if timer.is_some() => {
                    self.on_timer().await;
                }
            }
        }
        // Stopped: close every connection (its client reconnects wherever the room is now).
        for c in self.conns.drain(..) {
            c.kick.notify_one();
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Connect {
                seat,
                out,
                kick,
                reply,
            } => self.connect(seat, out, kick, reply).await,
            Cmd::Disconnect { conn } => {
                self.conns.retain(|c| c.id != conn);
                self.broadcast_state();
                // The next deal may have waited for this person only.
                self.after_change().await;
            }
            Cmd::Client { conn, msg } => {
                let Some(c) = self.conns.iter().find(|c| c.id == conn) else {
                    return;
                };
                let seat = c.seat;
                match msg {
                    ClientMsg::Sync {} => self.send_state(conn),
                    ClientMsg::Start { fill_bots } => {
                        if let Err(message) = self.start_by(seat, fill_bots).await {
                            self.send_to(conn, &ServerMsg::Error { seq: None, message });
                        }
                        self.after_change().await;
                    }
                    ClientMsg::Continue {} => {
                        match self.continue_by(seat) {
                            Ok(()) => self.broadcast_state(),
                            Err(message) => {
                                self.send_to(conn, &ServerMsg::Error { seq: None, message })
                            }
                        }
                        self.after_change().await;
                    }
                    ClientMsg::Action { seq, action } => {
                        let result = match (seat, &self.game) {
                            (None, _) => Err("spectators cannot act".to_string()),
                            (Some(_), None) => Err("the match has not started".to_string()),
                            (Some(_), Some(_)) if self.status == RoomStatus::HandOver => {
                                Err("the hand is over: send continue for the next one".to_string())
                            }
                            (Some(s), Some(m)) => {
                                let player = m.chairs()[s];
                                self.commit(player, action, Some((conn, seq))).await
                            }
                        };
                        if let Err(message) = result {
                            self.send_to(
                                conn,
                                &ServerMsg::Error {
                                    seq: Some(seq),
                                    message,
                                },
                            );
                        }
                        self.after_change().await;
                    }
                }
            }
        }
    }

    /// A new connection: `welcome`, then the current hand's history (and, between hands, its
    /// result again), then the state to everyone. A person taking their seat back ends the
    /// bot's stand-in; the last person of a room of several to arrive starts it.
    async fn connect(
        &mut self,
        seat: Option<usize>,
        out: Outbox,
        kick: Arc<Notify>,
        reply: oneshot::Sender<u64>,
    ) {
        let id = self.next_conn;
        self.next_conn += 1;
        // A person seat filled with a bot at the start is the bot's: its old token watches.
        let seat = seat.filter(|&s| !self.config.seats[s].bot);
        let conn = Conn {
            id,
            seat,
            out,
            kick,
        };
        send(
            &conn,
            &ServerMsg::Welcome {
                room: self.id.clone(),
                seat,
                config: self.config.clone(),
            },
        );
        if let Some(m) = &self.game {
            let viewer = self.viewer(seat);
            send(
                &conn,
                &ServerMsg::History {
                    hand_number: m.hand_number(),
                    events: m.hand_events().iter().map(|e| e.seen_by(viewer)).collect(),
                },
            );
            if self.status == RoomStatus::HandOver {
                if let Some(result) = self.hand_result() {
                    send(&conn, &result);
                }
            }
        }
        self.conns.push(conn);
        let _ = reply.send(id);
        if let Some(s) = seat {
            self.standing_in[s] = false;
        }
        if self.status == RoomStatus::Waiting
            && self.config.people() >= 2
            && self.missing_people().is_empty()
        {
            if let Err(e) = self.start().await {
                tracing::warn!("cannot start: {e}");
            }
        }
        self.broadcast_state();
        self.after_change().await;
    }

    /// Person seats nobody holds a connection to.
    fn missing_people(&self) -> Vec<usize> {
        (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot && !self.conns.iter().any(|c| c.seat == Some(s)))
            .collect()
    }

    /// `start` from a connection on `seat`.
    async fn start_by(&mut self, seat: Option<usize>, fill_bots: bool) -> Result<(), String> {
        let Some(seat) = seat else {
            return Err("spectators cannot start the match".into());
        };
        if self.status != RoomStatus::Waiting {
            return Err("the match has already started".into());
        }
        let missing = self.missing_people();
        if fill_bots {
            if seat != 0 {
                return Err(
                    "only the room's creator (seat 0) may fill the empty seats with bots".into(),
                );
            }
            self.fill_with_bots(&missing).await?;
        } else if !missing.is_empty() {
            let names: Vec<&str> = missing
                .iter()
                .map(|&s| self.config.seats[s].name.as_str())
                .collect();
            return Err(format!(
                "waiting for {} to join; the creator may start now with the empty seats played by bots",
                names.join(", ")
            ));
        }
        self.start().await
    }

    /// Makes the person seats in `seats` efficient bots, in the stored settings too.
    async fn fill_with_bots(&mut self, seats: &[usize]) -> Result<(), String> {
        if seats.is_empty() {
            return Ok(());
        }
        let mut config = self.config.clone();
        let mut bots = Vec::new();
        for &s in seats {
            config.seats[s].bot = true;
            config.seats[s].bot_kind = Some("efficient".into());
            let bot = bots::by_name("efficient", &self.ruleset, self.seed ^ (s as u64 + 1))
                .map_err(|e| e.to_string())?;
            bots.push((s, bot));
        }
        self.store
            .set_config(&self.id, &config)
            .await
            .map_err(|e| format!("not stored, try again: {e}"))?;
        self.config = config;
        for (s, bot) in bots {
            self.bots[s] = Some(bot);
        }
        Ok(())
    }

    async fn start(&mut self) -> Result<(), String> {
        let (m, events) = MatchState::start(self.ruleset.clone(), self.seed, self.config.hands)
            .map_err(|e| e.to_string())?;
        self.store
            .set_status(&self.id, RoomStatus::Playing)
            .await
            .map_err(|e| e.to_string())?;
        self.status = RoomStatus::Playing;
        self.game = Some(m);
        self.broadcast_events(m_hand(&self.game), &events);
        self.broadcast_state();
        Ok(())
    }

    /// `continue` from a connection on `seat`.
    fn continue_by(&mut self, seat: Option<usize>) -> Result<(), String> {
        let (Some(seat), Some(m)) = (seat, &self.game) else {
            return Err("only a seated player continues".into());
        };
        if self.status != RoomStatus::HandOver {
            return Err("no hand result is waiting for continue".into());
        }
        let chair = m.chairs()[seat];
        if !self.continued.contains(&chair) {
            self.continued.push(chair);
        }
        Ok(())
    }

    /// The hand has ended and the match goes on: wait for `continue`.
    fn enter_hand_over(&mut self) {
        self.status = RoomStatus::HandOver;
        self.continued.clear();
        self.deadline = None;
        self.continue_deadline =
            Some(Instant::now() + Duration::from_millis(self.config.continue_timeout()));
    }

    /// The connected people the next deal still waits for, by chair.
    fn waiting_for(&self) -> Vec<Player> {
        let Some(m) = &self.game else {
            return Vec::new();
        };
        let mut v: Vec<Player> = (0..self.config.seats.len())
            .filter(|&s| !self.config.seats[s].bot)
            .filter(|&s| self.conns.iter().any(|c| c.seat == Some(s)))
            .map(|s| m.chairs()[s])
            .filter(|p| !self.continued.contains(p))
            .collect();
        v.sort();
        v
    }

    /// Every connected person has sent `continue`: at least one did, or the room has no
    /// people. With nobody connected (a restart, everyone reloading) the countdown decides.
    fn everyone_continued(&self) -> bool {
        self.waiting_for().is_empty() && (!self.continued.is_empty() || self.config.people() == 0)
    }

    /// Deals the next hand (everyone continued, or the countdown ended).
    fn deal_next(&mut self) {
        let Some(m) = self.game.as_mut() else { return };
        match m.deal_next() {
            Ok((hand, events)) => {
                self.status = RoomStatus::Playing;
                self.continue_deadline = None;
                self.continued.clear();
                self.broadcast_events(hand, &events);
                self.broadcast_state();
            }
            Err(e) => tracing::error!("cannot deal: {e}"),
        }
    }

    /// Checks, stores, applies and announces one action. On error nothing changed.
    async fn commit(
        &mut self,
        player: Player,
        action: Action,
        origin: Option<(u64, u64)>,
    ) -> Result<(), String> {
        let started = Instant::now();
        let m = self.game.as_mut().ok_or("the match has not started")?;
        if m.is_finished() {
            return Err("the match is over".into());
        }
        m.game().check(player, action).map_err(|e| e.to_string())?;
        let stored = StoredAction {
            seq: self.actions,
            player,
            action,
        };
        self.store
            .append_action(&self.id, &stored, self.fence.as_ref())
            .await
            .map_err(|e| {
                crate::metrics::METRICS.store_error();
                crate::incident::report(&format!("action {} not stored, try again", stored.seq), &e)
            })?;
        let step = match m.act(player, action) {
            Ok(step) => step,
            Err(e) => {
                // `check` passed, so the engine must accept it; if not, the stored log no
                // longer replays. Say so loudly.
                tracing::error!("engine refused a checked action: {e}");
                return Err(e.to_string());
            }
        };
        self.actions += 1;
        crate::metrics::METRICS.action_stored();
        if let Some((conn, seq)) = origin {
            self.send_to(conn, &ServerMsg::Ack { seq });
            crate::metrics::METRICS.acked(started.elapsed());
        }
        self.announce(step).await;
        Ok(())
    }

    /// The result of the hand just finished, with every hand face up and each payment
    /// explained; `None` while a hand is in play.
    fn hand_result(&self) -> Option<ServerMsg> {
        let m = self.game.as_ref()?;
        let g = m.game();
        if !g.is_over() {
            return None;
        }
        let settlement = m.matches().settlements().last()?.clone();
        Some(ServerMsg::HandResult {
            settlement: Box::new(settlement),
            reveal: reveal::reveal(g),
            payments_explained: reveal::payments_explained(g),
        })
    }

    async fn announce(&mut self, step: Step) {
        self.broadcast_events(step.hand_number, &step.events);
        if step.settlement.is_some() {
            if let Some(result) = self.hand_result() {
                self.broadcast(&result);
            }
            if self.game.as_ref().is_some_and(|m| m.awaiting_deal()) {
                self.enter_hand_over();
            }
        }
        if self.game.as_ref().is_some_and(|m| m.is_finished()) {
            self.status = RoomStatus::Finished;
            self.continue_deadline = None;
            let at = crate::now_ms();
            if let Err(e) = self.store.set_finished(&self.id, at).await {
                tracing::error!("not stored as finished: {e}");
            }
            self.finished = Some(at);
            let (standings, ledger) = self
                .game
                .as_ref()
                .map(|m| (m.standings(), m.ledger().to_vec()))
                .unwrap_or_default();
            self.broadcast(&ServerMsg::MatchOver { standings, ledger });
        }
        self.broadcast_state();
    }

    /// After any change: deal when every connected person continued, let bots (and the bot
    /// standing in for an away person) act, now or after the bot delay, and run the turn and
    /// claim timers.
    async fn after_change(&mut self) {
        if self.status == RoomStatus::HandOver && self.everyone_continued() {
            self.deal_next();
        }
        // Without a bot delay, bots act at once, but at most a few in a row before the room
        // task yields (through an immediate timer): connections drain, other rooms run.
        let mut burst = 0;
        while let Some(m) = &self.game {
            if m.is_finished() || m.game().is_over() {
                self.bot_due = None;
                self.deadline = None;
                break;
            }
            self.run_deadline();
            let bot = self
                .game
                .as_ref()
                .and_then(|m| m.game().to_act().find(|p| self.server_plays(*p)));
            let Some(bot) = bot else {
                self.bot_due = None;
                break;
            };
            if self.config.bot_delay_ms > 0 {
                if self.bot_due.is_none() {
                    self.bot_due =
                        Some(Instant::now() + Duration::from_millis(self.config.bot_delay_ms));
                }
                break;
            }
            if burst == 8 {
                self.bot_due = Some(Instant::now());
                break;
            }
            burst += 1;
            if !self.bot_act(bot).await {
                break;
            }
        }
        self.publish_summary();
    }

    /// Starts the turn or claim timer when people must decide at a new point of the hand (and
    /// tells them), stops it when nobody must.
    fn run_deadline(&mut self) {
        let Some(m) = &self.game else { return };
        let g = m.game();
        let people = g.to_act().any(|p| !self.server_plays(p));
        let timeout = if g.on_offer().is_some() {
            self.config.claim_timeout()
        } else {
            self.config.turn_timeout()
        };
        let point: DecisionPoint = (m.hand_number(), g.turn(), g.on_offer(), g.live_remaining());
        match timeout {
            Some(ms) if people => {
                if self.deadline.is_none_or(|d| d.point != point) {
                    self.deadline = Some(Deadline {
                        at: Instant::now() + Duration::from_millis(ms),
                        point,
                    });
                    self.broadcast_state();
                }
            }
            _ => self.deadline = None,
        }
    }

    /// `p` acts with its bot: the room's own bot, or the efficient bot standing in for a person.
    async fn bot_act(&mut self, p: Player) -> bool {
        let Some(m) = &self.game else { return false };
        let Some(seat) = self.seat_of_chair(p) else {
            return false;
        };
        let legal = m.game().legal_actions(p);
        if legal.is_empty() {
            return false;
        }
        let obs = m.game().observation(p);
        let brain = if self.config.seats[seat].bot {
            self.bots.get_mut(seat).and_then(|b| b.as_mut())
        } else {
            if self.stand_ins[seat].is_none() {
                match bots::by_name("efficient", &self.ruleset, self.seed ^ (seat as u64 + 1)) {
                    Ok(b) => self.stand_ins[seat] = Some(b),
                    Err(e) => {
                        tracing::error!("no stand-in bot: {e}");
                        return false;
                    }
                }
            }
            self.stand_ins[seat].as_mut()
        };
        let Some(brain) = brain else { return false };
        let action = brain.act(&obs, &legal);
        match self.commit(p, action, None).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("bot action refused: {e}");
                false
            }
        }
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.continue_deadline.is_some_and(|d| d <= now) {
            self.continue_deadline = None;
            if self.status == RoomStatus::HandOver {
                self.deal_next();
            }
        }
        if self.deadline.is_some_and(|d| d.at <= now) {
            self.deadline = None;
            self.time_out().await;
        }
        if self.bot_due.is_some_and(|d| d <= now) {
            self.bot_due = None;
            let bot = self
                .game
                .as_ref()
                .and_then(|m| m.game().to_act().find(|p| self.server_plays(*p)));
            if let Some(bot) = bot {
                self.bot_act(bot).await;
            }
        }
        self.after_change().await;
    }

    /// The timer ran out: the efficient bot plays for each person who has not acted; one who
    /// is not connected stays played by it until they come back.
    async fn time_out(&mut self) {
        let pending: Vec<Player> = match &self.game {
            Some(m) => m
                .game()
                .to_act()
                .filter(|p| !self.server_plays(*p))
                .collect(),
            None => Vec::new(),
        };
        for p in pending {
            let Some(seat) = self.seat_of_chair(p) else {
                continue;
            };
            let still = self
                .game
                .as_ref()
                .is_some_and(|m| m.game().to_act().contains(p));
            if !still {
                continue;
            }
            if !self.conns.iter().any(|c| c.seat == Some(seat)) {
                self.standing_in[seat] = true;
            }
            self.bot_act(p).await;
        }
    }

    fn seat_of_chair(&self, p: Player) -> Option<usize> {
        let m = self.game.as_ref()?;
        m.chairs().iter().position(|&c| c == p)
    }

    /// The server decides for `p`: a bot seat, or a person away past their timer.
    fn server_plays(&self, p: Player) -> bool {
        self.seat_of_chair(p)
            .is_some_and(|s| self.config.seats[s].bot || self.standing_in[s])
    }

    fn viewer(&self, seat: Option<usize>) -> Player {
        match (seat, &self.game) {
            (Some(s), Some(m)) => m.chairs()[s],
            _ => SPECTATOR,
        }
    }

    fn seats(&self) -> Vec<SeatInfo> {
        self.config
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: i,
                name: s.name.clone(),
                bot: s.bot,
                connected: s.bot || self.conns.iter().any(|c| c.seat == Some(i)),
                player: self.game.as_ref().map(|m| m.chairs()[i]),
                stand_in: self.standing_in[i],
            })
            .collect()
    }

    fn state_for(&self, seat: Option<usize>) -> ServerMsg {
        let viewer = self.viewer(seat);
        let observation = self
            .game
            .as_ref()
            .map(|m| Box::new(m.game().observation(viewer)));
        let now = Instant::now();
        let left = |at: Instant| at.saturating_duration_since(now).as_millis() as u64;
        let (deadline_ms, claim_deadline_ms) = match (self.deadline, &self.game) {
            (Some(d), Some(m)) if m.game().to_act().contains(viewer) => {
                let ms = left(d.at);
                (Some(ms), m.game().on_offer().is_some().then_some(ms))
            }
            _ => (None, None),
        };
        let continue_ = match (self.status, self.continue_deadline) {
            (RoomStatus::HandOver, Some(at)) => Some(ContinueState {
                waiting_for: self.waiting_for(),
                deadline_ms: left(at),
            }),
            _ => None,
        };
        let waits = match (&observation, &self.game) {
            (Some(obs), Some(m)) if seat.is_some() && !m.game().is_over() => {
                crate::waits::waits(obs, m.game().ruleset())
            }
            _ => Vec::new(),
        };
        ServerMsg::State {
            status: self.status,
            seats: self.seats(),
            hand_number: self.game.as_ref().map(|m| m.hand_number()),
            hands: self.config.hands,
            ledger: self
                .game
                .as_ref()
                .map(|m| m.ledger().to_vec())
                .unwrap_or_else(|| vec![0; self.ruleset.players()]),
            observation,
            claim_deadline_ms,
            deadline_ms,
            continue_,
            waits,
            actions: self.actions,
        }
    }

    fn send_state(&self, conn: u64) {
        if let Some(c) = self.conns.iter().find(|c| c.id == conn) {
            send(c, &self.state_for(c.seat));
        }
    }

    fn broadcast_state(&mut self) {
        for c in &self.conns {
            send(c, &self.state_for(c.seat));
        }
        self.prune();
        self.publish_summary();
    }

    fn broadcast_events(&mut self, hand_number: u32, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        for c in &self.conns {
            let viewer = self.viewer(c.seat);
            let events = events.iter().map(|e| e.seen_by(viewer)).collect();
            send(
                c,
                &ServerMsg::Events {
                    hand_number,
                    events,
                },
            );
        }
        self.prune();
    }

    fn broadcast(&mut self, msg: &ServerMsg) {
        let text: Arc<str> = to_text(msg);
        for c in &self.conns {
            let _ = c.out.try_send(text.clone());
        }
        self.prune();
    }

    fn send_to(&self, conn: u64, msg: &ServerMsg) {
        if let Some(c) = self.conns.iter().find(|c| c.id == conn) {
            send(c, msg);
        }
    }

    /// Drops connections whose outbox is closed or full (a client too slow to keep up gets
    /// disconnected and can reconnect for a fresh state).
    fn prune(&mut self) {
        self.conns.retain(|c| {
            let keep = !c.out.is_closed() && c.out.capacity() > 0;
            if !keep {
                // Tell the connection to close: the client reconnects for a fresh state
                // rather than silently missing messages.
                c.kick.notify_one();
            }
            keep
        });
    }

    fn publish_summary(&self) {
        let s = RoomSummary {
            id: self.id.clone(),
            rules: self.config.rules.clone(),
            status: self.status,
            seats: self.seats(),
            hands: self.config.hands,
            hand_number: self.game.as_ref().map(|m| m.hand_number()),
            ledger: self
                .game
                .as_ref()
                .map(|m| m.ledger().to_vec())
                .unwrap_or_default(),
            created: self.created,
            finished: self.finished,
            standings: match &self.game {
                Some(m) if m.is_finished() => m.standings(),
                _ => Vec::new(),
            },
        };
        self.summary.send_if_modified(|old| {
            if *old != s {
                *old = s;
                true
            } else {
                false
            }
        });
    }
}

fn m_hand(m: &Option<MatchState>) -> u32 {
    m.as_ref().map_or(0, |m| m.hand_number())
}

fn to_text(msg: &ServerMsg) -> Arc<str> {
    // Our own types always serialize.
    serde_json::to_string(msg)
        .unwrap_or_else(|e| format!(r#"{{"type":"error","seq":null,"message":"{e}"}}"#))
        .into()
}

fn send(c: &Conn, msg: &ServerMsg) {
    let _ = c.out.try_send(to_text(msg));
}
