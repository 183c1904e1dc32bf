//! The tokio task that runs a [`Room`]: it only moves bytes, timers and store calls. It reads
//! one input (a connection's command, the room's timer), hands it to [`Room::handle`] with the
//! time, sends the messages, sets the timer, and performs the write the room asked for —
//! feeding its result back to the room before it reads the next input, so at most one write is
//! in flight and every action is stored before it is applied and acknowledged.

use super::expert_pool::ExpertPool;
use super::hint_worker::HintQueue;
use super::io::{BotOrder, ConnId, Heard, Input, Output, Write, WriteFailure};
use super::outside_seat::Dismissal;
use super::pipe::Pipe;
use super::state::Room;
use super::{RestoreError, RoomSummary};
use crate::external_bots::ExternalBots;
use crate::metrics::METRICS;
use crate::protocol::{ClientMsg, RoomStatus, ServerMsg};
use crate::store::{Fence, Store, StoreError, StoredRoom};
use axum::extract::ws::Utf8Bytes;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio::time::{Duration, Instant, sleep_until};
use tracing::Instrument;

/// A message for one connection: JSON text, shared (not copied) by every connection it goes to.
pub type Outbox = mpsc::Sender<Utf8Bytes>;

/// A store call taking longer than this counts as failed (and is retried).
const STORE_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) enum Cmd {
    Connect {
        seat: Option<usize>,
        /// It asked for `state_delta`s.
        deltas: bool,
        /// Its client's device id, if it gave one.
        device: Option<String>,
        out: Outbox,
        /// Notified when the room drops the connection (its outbox overflowed, the room
        /// stopped).
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
    /// Set when the task has ended.
    stopped: Arc<AtomicBool>,
}

impl RoomHandle {
    /// The seat whose token this is (compared in constant time).
    pub fn seat_for_token(&self, token: &str) -> Option<usize> {
        seat_for_token(&self.tokens, token)
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

    /// True once the room's task has ended (stopped, or its write was fenced).
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// The seat whose token, of a room's `tokens` by seat, `token` is (compared in constant time,
/// every seat's: the time tells nothing of a token).
pub(crate) fn seat_for_token(tokens: &[Option<String>], token: &str) -> Option<usize> {
    let mut found = None;
    for (i, t) in tokens.iter().enumerate() {
        if let Some(t) = t
            && constant_time_eq(t.as_bytes(), token.as_bytes())
        {
            found = Some(i);
        }
    }
    found
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What every room of an app shares: the learners' hint queue, the outside bots the server
/// allows, the expert seats' pool.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) hints: Arc<HintQueue>,
    pub(crate) bots: ExternalBots,
    pub(crate) experts: Arc<ExpertPool>,
}

/// Starts rooms' tasks.
pub(crate) struct RoomActor;

impl RoomActor {
    /// Rebuilds `stored` from the store and runs it; every write carries `fence` (the
    /// lease this process holds on the room, in a cluster; `None` alone); its learners' hints
    /// go to the app's queue, its outside bots are the app's, its expert seats search on the
    /// app's pool (`shared`).
    pub(crate) async fn spawn(
        stored: StoredRoom,
        store: Arc<dyn Store>,
        fence: Option<Fence>,
        shared: &Shared,
    ) -> Result<RoomHandle, RestoreError> {
        let actions = if stored.status == RoomStatus::Waiting {
            Vec::new()
        } else {
            store.actions(&stored.id).await?
        };
        let clock = Clock::new();
        let room = Room::restore_with(
            &stored,
            &actions,
            clock.now(),
            clock.wall_offset,
            &shared.bots,
        )?;
        let expert = room.has_expert_bots();
        let (heard_tx, heard) = mpsc::channel(64);
        let (summary_tx, summary_rx) = watch::channel(room.summary());
        let (tx, rx) = mpsc::channel(1024);
        let handle = RoomHandle {
            tx,
            tokens: Arc::new(stored.tokens),
            summary: summary_rx,
            stop: Arc::new(Notify::new()),
            stopped: Arc::new(AtomicBool::new(false)),
        };
        let span = tracing::info_span!("room", room = %stored.id);
        let task = Task {
            room,
            store,
            fence,
            clock,
            conns: HashMap::new(),
            next_conn: 0,
            wake: None,
            summary: summary_tx,
            acks: HashMap::new(),
            hints: shared.hints.clone(),
            id: stored.id.as_str().into(),
            pipes: HashMap::new(),
            heard_tx,
        };
        let (stop, stopped) = (handle.stop.clone(), handle.stopped.clone());
        let run = async move {
            task.run(rx, heard, stop).await;
            stopped.store(true, Ordering::Release);
        }
        .instrument(span);
        if expert {
            // On the expert pool's threads; stopped when the runtime that made it ends.
            shared.experts.spawn(run, handle.stop.clone());
        } else {
            tokio::spawn(run);
        }
        Ok(handle)
    }
}

/// The room's clock: milliseconds since the task began (monotonic), and the offset that
/// makes them Unix milliseconds.
struct Clock {
    origin: Instant,
    wall_offset: i64,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            origin: Instant::now(),
            wall_offset: crate::stamp::now_ms(),
        }
    }

    fn now(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    fn instant(&self, at: u64) -> Instant {
        self.origin + Duration::from_millis(at)
    }
}

struct Task {
    room: Room,
    store: Arc<dyn Store>,
    fence: Option<Fence>,
    clock: Clock,
    conns: HashMap<ConnId, (Outbox, Arc<Notify>)>,
    next_conn: ConnId,
    wake: Option<u64>,
    summary: watch::Sender<RoomSummary>,
    /// When each action awaiting its `ack` arrived (for the latency metric).
    acks: HashMap<(ConnId, u64), Instant>,
    /// The server's hint queue, and this room's id as its jobs' key.
    hints: Arc<HintQueue>,
    id: Arc<str>,
    /// The processes of the room's outside bots, by seat, and where they send what they write.
    pipes: HashMap<usize, Pipe>,
    heard_tx: mpsc::Sender<(usize, Heard)>,
}

impl Task {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut heard: mpsc::Receiver<(usize, Heard)>,
        stop: Arc<Notify>,
    ) {
        let mut go = self.step(Input::Timer).await;
        while go {
            let input = tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.input_of(cmd),
                    None => break,
                },
                _ = stop.notified() => break,
                Some((seat, heard)) = heard.recv() => Some(Input::OutsideBot { seat, heard }),
                _ = sleep_until(self.clock.instant(self.wake.unwrap_or(0))), if self.wake.is_some() => {
                    Some(Input::Timer)
                }
            };
            if let Some(input) = input {
                go = self.step(input).await;
            }
        }
        // Stopped: close every connection (its client reconnects wherever the room is now).
        for (_, (_, kick)) in self.conns.drain() {
            kick.notify_one();
        }
    }

    fn input_of(&mut self, cmd: Cmd) -> Option<Input> {
        match cmd {
            Cmd::Connect {
                seat,
                deltas,
                device,
                out,
                kick,
                reply,
            } => {
                let conn = self.next_conn;
                self.next_conn += 1;
                if reply.send(conn).is_err() {
                    return None;
                }
                self.conns.insert(conn, (out, kick));
                Some(Input::Open {
                    conn,
                    seat,
                    deltas,
                    device,
                })
            }
            Cmd::Disconnect { conn } => {
                self.conns.remove(&conn)?;
                Some(Input::Close { conn })
            }
            Cmd::Client { conn, msg } => {
                if let ClientMsg::Action { seq, .. } = &msg {
                    if self.acks.len() > 256 {
                        self.acks.clear();
                    }
                    self.acks.insert((conn, *seq), Instant::now());
                }
                Some(Input::Client { conn, msg })
            }
        }
    }

    /// Hands `input` to the room and carries out what it says, store writes included (each
    /// result fed back at once). False once the room stopped.
    async fn step(&mut self, input: Input) -> bool {
        let mut inputs = VecDeque::from([input]);
        while let Some(input) = inputs.pop_front() {
            let now = self.clock.now();
            // Nothing in here waits: an outside bot's question is an output, its answer a later
            // input. (An expert's search does take its time, on its room's thread of the
            // expert pool, where that is the point.)
            let outputs = self.room.handle(input, now);
            // A new status is told at once (the sweeper reads it: a room that started must not
            // look like one still waiting while its first writes are made).
            if self.room.status() != self.summary.borrow().status {
                self.publish();
            }
            let mut write = None;
            for o in outputs {
                match o {
                    Output::Send { conn, msg } => {
                        self.acked(conn, &msg);
                        let text = text_of(&msg);
                        self.send(conn, text, &mut inputs);
                    }
                    Output::SendAll { conns, msg } => {
                        let text = text_of(&msg);
                        for conn in conns {
                            self.send(conn, text.clone(), &mut inputs);
                        }
                    }
                    Output::Close { conn } => {
                        if let Some((_, kick)) = self.conns.remove(&conn) {
                            kick.notify_one();
                        }
                    }
                    Output::Hint(job) => {
                        if let Some((out, _)) = self.conns.get(&job.conn) {
                            self.hints.push(
                                self.id.clone(),
                                *job,
                                self.room.ruleset.clone(),
                                out.clone(),
                            );
                        }
                    }
                    Output::Write(w) => write = Some(w),
                    Output::OutsideBot { seat, order } => self.bot_order(seat, order),
                    Output::Dismissed(d) => dismissed(&self.id, &d),
                    Output::Wake(at) => self.wake = at,
                    Output::Stop => {
                        self.publish();
                        return false;
                    }
                }
            }
            if let Some(w) = write {
                // The result goes back to the room before anything else.
                let (store, id, fence) = (
                    self.store.clone(),
                    self.room.id().to_string(),
                    self.fence.clone(),
                );
                inputs.push_front(Input::Stored(perform(store, &id, fence.as_ref(), w).await));
            }
        }
        self.publish();
        true
    }

    /// Carries out the room's order for seat `seat`'s outside bot.
    fn bot_order(&mut self, seat: usize, order: BotOrder) {
        match order {
            BotOrder::Start(command) => {
                let pipe = Pipe::start(seat, &command, self.heard_tx.clone());
                self.pipes.insert(seat, pipe);
            }
            BotOrder::Finish | BotOrder::Kill => {
                if let Some(pipe) = self.pipes.remove(&seat) {
                    pipe.order(order);
                }
            }
            order => {
                if let Some(pipe) = self.pipes.get(&seat) {
                    pipe.order(order);
                }
            }
        }
    }

    /// Counts the latency of an action's `ack`.
    fn acked(&mut self, conn: ConnId, msg: &ServerMsg) {
        if let ServerMsg::Ack { seq } | ServerMsg::Error { seq: Some(seq), .. } = msg
            && let Some(t) = self.acks.remove(&(conn, *seq))
            && matches!(msg, ServerMsg::Ack { .. })
        {
            METRICS.acked(t.elapsed());
        }
    }

    /// Queues `text` for `conn`. A client too slow to keep up (its outbox full or closed) is
    /// disconnected: it reconnects for a fresh state rather than silently missing messages.
    fn send(&mut self, conn: ConnId, text: Utf8Bytes, inputs: &mut VecDeque<Input>) {
        let Some((out, _)) = self.conns.get(&conn) else {
            return;
        };
        if out.try_send(text).is_err()
            && let Some((_, kick)) = self.conns.remove(&conn)
        {
            kick.notify_one();
            inputs.push_back(Input::Close { conn });
        }
    }
}

/// An outside bot's dismissal, in the server's log and metrics.
fn dismissed(room: &str, d: &Dismissal) {
    tracing::warn!(
        room,
        seat = d.seat,
        reason = %d.reason,
        "{} was dismissed in hand {}: {}; efficient plays its seat on",
        d.bot,
        d.hand,
        d.message
    );
    METRICS.outside_bot_dismissed(&d.reason);
}

/// A message as JSON text (our own types always serialise).
fn text_of(msg: &ServerMsg) -> Utf8Bytes {
    serde_json::to_string(msg)
        .unwrap_or_else(|e| format!(r#"{{"type":"error","seq":null,"message":"{e}"}}"#))
        .into()
}

/// Performs one write, within [`STORE_TIMEOUT`].
async fn perform(
    store: Arc<dyn Store>,
    id: &str,
    fence: Option<&Fence>,
    w: Write,
) -> Result<(), WriteFailure> {
    {
        let call = async {
            match &w {
                Write::Action(a) => store.append_action(id, a, fence).await,
                Write::Config(c) => store.set_config(id, c, fence).await,
                Write::Status(s) => store.set_status(id, *s, fence).await,
                Write::Finished(at) => store.set_finished(id, *at, fence).await,
            }
        };
        let result = match tokio::time::timeout(STORE_TIMEOUT, call).await {
            Ok(Ok(())) => Ok(()),
            // Fenced, or a position another writer already took: this process no longer runs the
            // room; it stops, and the room is loaded afresh from the store where it runs now.
            Ok(Err(StoreError::Fenced { .. } | StoreError::Conflict { .. })) => {
                Err(WriteFailure::Fenced)
            }
            // A lease that only ran out (the database was away) is renewed by the lease task:
            // the write is tried again soon.
            Ok(Err(StoreError::LeaseLapsed { .. })) => Err(WriteFailure::LeaseLapsed),
            Ok(Err(e)) => Err(WriteFailure::Failed(e.to_string())),
            Err(_) => Err(WriteFailure::Failed("timed out".into())),
        };
        match (&result, &w) {
            (Ok(()), Write::Action(_)) => METRICS.action_stored(),
            (Ok(()), _) => {}
            (Err(WriteFailure::Fenced), _) => METRICS.write_fenced(),
            (Err(_), _) => METRICS.store_error(),
        }
        result
    }
}

impl Task {
    fn publish(&self) {
        let s = self.room.summary();
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
