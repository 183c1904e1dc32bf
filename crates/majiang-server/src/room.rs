//! A room: one task owning one match. Connections talk to it through a channel; it checks each
//! action, writes it to the store, applies it, acknowledges it and sends every connection what
//! its seat may see. Bots and the claim timer act through the same path.

use crate::play::{MatchState, Step};
use crate::protocol::{ClientMsg, RoomConfig, RoomStatus, SeatInfo, ServerMsg};
use crate::store::{Store, StoreError, StoredAction, StoredRoom};
use majiang::bots::{self, Bot};
use majiang::table::{Action, Event, Player, Ruleset};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio::time::{Duration, Instant, sleep_until};

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
    store: Arc<Store>,
    status: RoomStatus,
    game: Option<MatchState>,
    actions: u64,
    conns: Vec<Conn>,
    next_conn: u64,
    /// The server's players, by seat (`None` for people).
    bots: Vec<Option<Box<dyn Bot>>>,
    claim_deadline: Option<Instant>,
    bot_due: Option<Instant>,
    summary: watch::Sender<RoomSummary>,
}

impl RoomActor {
    /// Builds the actor for a stored room, replaying its actions; spawns it and returns the
    /// handle.
    pub(crate) fn spawn(stored: StoredRoom, store: Arc<Store>) -> Result<RoomHandle, RestoreError> {
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
        });
        let mut actor = RoomActor {
            id: stored.id.clone(),
            ruleset,
            seed: stored.seed,
            store: store.clone(),
            status: stored.status,
            game: None,
            actions: 0,
            conns: Vec::new(),
            next_conn: 0,
            bots: Vec::new(),
            claim_deadline: None,
            bot_due: None,
            summary,
            config,
        };
        actor.bots = bots;
        if stored.status != RoomStatus::Waiting {
            let (m, _) = MatchState::start(actor.ruleset.clone(), actor.seed, actor.config.hands)
                .map_err(|e| replay_err(e.to_string()))?;
            actor.game = Some(m);
            for a in store.actions(&stored.id)? {
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
                store.set_status(&actor.id, RoomStatus::Finished)?;
            }
        }
        actor.publish_summary();
        let (tx, rx) = mpsc::channel(1024);
        let handle = RoomHandle {
            tx,
            tokens: Arc::new(stored.tokens),
            summary: summary_rx,
        };
        tokio::spawn(actor.run(rx));
        Ok(handle)
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        if self.config.autostart && self.status == RoomStatus::Waiting {
            if let Err(e) = self.start() {
                eprintln!("majiang-server: room {}: cannot start: {e}", self.id);
            }
        }
        self.after_change();
        loop {
            let timer = match (self.bot_due, self.claim_deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd),
                    None => break,
                },
                _ = sleep_until(timer.unwrap_or_else(Instant::now)), if timer.is_some() => {
                    self.on_timer();
                }
            }
        }
    }

    fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Connect {
                seat,
                out,
                kick,
                reply,
            } => {
                let id = self.next_conn;
                self.next_conn += 1;
                let welcome = ServerMsg::Welcome {
                    room: self.id.clone(),
                    seat,
                    config: self.config.clone(),
                };
                let conn = Conn {
                    id,
                    seat,
                    out,
                    kick,
                };
                send(&conn, &welcome);
                self.conns.push(conn);
                let _ = reply.send(id);
                self.broadcast_state();
            }
            Cmd::Disconnect { conn } => {
                self.conns.retain(|c| c.id != conn);
                self.broadcast_state();
            }
            Cmd::Client { conn, msg } => {
                let Some(c) = self.conns.iter().find(|c| c.id == conn) else {
                    return;
                };
                let seat = c.seat;
                match msg {
                    ClientMsg::Sync {} => self.send_state(conn),
                    ClientMsg::Start {} => {
                        let result = match seat {
                            None => Err("spectators cannot start the match".to_string()),
                            Some(_) if self.status != RoomStatus::Waiting => {
                                Err("the match has already started".to_string())
                            }
                            Some(_) => self.start(),
                        };
                        if let Err(message) = result {
                            self.send_to(conn, &ServerMsg::Error { seq: None, message });
                        }
                        self.after_change();
                    }
                    ClientMsg::Action { seq, action } => {
                        let result = match (seat, &self.game) {
                            (None, _) => Err("spectators cannot act".to_string()),
                            (Some(_), None) => Err("the match has not started".to_string()),
                            (Some(s), Some(m)) => {
                                let player = m.chairs()[s];
                                self.commit(player, action, Some((conn, seq)))
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
                        self.after_change();
                    }
                }
            }
        }
    }

    fn start(&mut self) -> Result<(), String> {
        let (m, events) = MatchState::start(self.ruleset.clone(), self.seed, self.config.hands)
            .map_err(|e| e.to_string())?;
        self.store
            .set_status(&self.id, RoomStatus::Playing)
            .map_err(|e| e.to_string())?;
        self.status = RoomStatus::Playing;
        self.game = Some(m);
        self.broadcast_events(m_hand(&self.game), &events);
        self.broadcast_state();
        Ok(())
    }

    /// Checks, stores, applies and announces one action. On error nothing changed.
    fn commit(
        &mut self,
        player: Player,
        action: Action,
        origin: Option<(u64, u64)>,
    ) -> Result<(), String> {
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
            .append_action(&self.id, &stored)
            .map_err(|e| format!("not stored, try again: {e}"))?;
        let step = match m.apply(player, action) {
            Ok(step) => step,
            Err(e) => {
                // `check` passed, so the engine must accept it; if not, the stored log no
                // longer replays. Say so loudly.
                eprintln!(
                    "majiang-server: room {}: engine refused a checked action: {e}",
                    self.id
                );
                return Err(e.to_string());
            }
        };
        self.actions += 1;
        if let Some((conn, seq)) = origin {
            self.send_to(conn, &ServerMsg::Ack { seq });
        }
        self.announce(step);
        Ok(())
    }

    fn announce(&mut self, step: Step) {
        self.broadcast_events(step.hand_number, &step.events);
        if let Some(settlement) = step.settlement {
            self.broadcast(&ServerMsg::HandResult {
                settlement: Box::new(settlement),
            });
        }
        if let Some((hand, events)) = &step.next_hand {
            self.broadcast_events(*hand, events);
        }
        if self.game.as_ref().is_some_and(|m| m.is_finished()) {
            self.status = RoomStatus::Finished;
            if let Err(e) = self.store.set_status(&self.id, RoomStatus::Finished) {
                eprintln!("majiang-server: room {}: {e}", self.id);
            }
            let (standings, ledger) = self
                .game
                .as_ref()
                .map(|m| (m.standings(), m.ledger().to_vec()))
                .unwrap_or_default();
            self.broadcast(&ServerMsg::MatchOver { standings, ledger });
        }
        self.broadcast_state();
    }

    /// After any change: let bots act (now, or after the bot delay), and run the claim timer.
    fn after_change(&mut self) {
        // Without a bot delay, bots act at once, but at most a few in a row before the room
        // task yields (through an immediate timer): connections drain, other rooms run.
        let mut burst = 0;
        while let Some(m) = &self.game {
            if m.is_finished() {
                self.bot_due = None;
                self.claim_deadline = None;
                break;
            }
            let g = m.game();
            let bot = g.to_act().find(|p| self.is_bot(*p));
            // Claim timer: runs while a person must answer a tile on offer.
            let person_claiming = g.on_offer().is_some() && g.to_act().any(|p| !self.is_bot(p));
            match (self.config.claim_timeout_ms, person_claiming) {
                (Some(ms), true) => {
                    if self.claim_deadline.is_none() {
                        self.claim_deadline = Some(Instant::now() + Duration::from_millis(ms));
                        self.broadcast_state();
                    }
                }
                _ => self.claim_deadline = None,
            }
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
            if !self.bot_act(bot) {
                break;
            }
        }
        self.publish_summary();
    }

    fn bot_act(&mut self, bot: Player) -> bool {
        let Some(m) = &self.game else { return false };
        let Some(seat) = self.seat_of_chair(bot) else {
            return false;
        };
        let legal = m.game().legal_actions(bot);
        let Some(Some(brain)) = self.bots.get_mut(seat) else {
            return false;
        };
        if legal.is_empty() {
            return false;
        }
        let obs = m.game().observation(bot);
        let action = brain.act(&obs, &legal);
        match self.commit(bot, action, None) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("majiang-server: room {}: bot action refused: {e}", self.id);
                false
            }
        }
    }

    fn on_timer(&mut self) {
        let now = Instant::now();
        if self.claim_deadline.is_some_and(|d| d <= now) {
            self.claim_deadline = None;
            let pending: Vec<Player> = match &self.game {
                Some(m) if m.game().on_offer().is_some() => {
                    m.game().to_act().filter(|p| !self.is_bot(*p)).collect()
                }
                _ => Vec::new(),
            };
            for p in pending {
                let still = self
                    .game
                    .as_ref()
                    .is_some_and(|m| m.game().legal_actions(p).contains(&Action::Pass));
                if still && let Err(e) = self.commit(p, Action::Pass, None) {
                    eprintln!("majiang-server: room {}: timer pass refused: {e}", self.id);
                }
            }
        }
        if self.bot_due.is_some_and(|d| d <= now) {
            self.bot_due = None;
            let bot = self
                .game
                .as_ref()
                .and_then(|m| m.game().to_act().find(|p| self.is_bot(*p)));
            if let Some(bot) = bot {
                self.bot_act(bot);
            }
        }
        self.after_change();
    }

    fn seat_of_chair(&self, p: Player) -> Option<usize> {
        let m = self.game.as_ref()?;
        m.chairs().iter().position(|&c| c == p)
    }

    fn is_bot(&self, p: Player) -> bool {
        self.seat_of_chair(p)
            .is_some_and(|s| self.config.seats[s].bot)
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
            })
            .collect()
    }

    fn state_for(&self, seat: Option<usize>) -> ServerMsg {
        let viewer = self.viewer(seat);
        let observation = self
            .game
            .as_ref()
            .map(|m| Box::new(m.game().observation(viewer)));
        let claim_deadline_ms = match (self.claim_deadline, &self.game) {
            (Some(d), Some(m)) if m.game().to_act().contains(viewer) => {
                Some(d.saturating_duration_since(Instant::now()).as_millis() as u64)
            }
            _ => None,
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
