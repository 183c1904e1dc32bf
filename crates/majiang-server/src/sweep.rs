//! The room sweeper: rooms leave memory when nobody needs them there, and come back from the
//! store when someone opens them ([`App::locate`](crate::App::locate)).
//!
//! - A finished match leaves [`Limits::finished_linger`] after its last person left (its
//!   history, log and replay are read from the store).
//! - A waiting room nobody is connected to expires after [`Limits::waiting_idle`]: it leaves
//!   memory and the store (a restart does not rebuild it; its links answer "no such room").
//! - A match in play with person seats and no person connected leaves after
//!   [`Limits::unattended`]. Bots-only matches play on: their length is bounded.
//!
//! The sweeper sees a room only through [`RoomHandle`]'s public surface (its summary, and
//! `stop`), so it does not depend on how the room runs.

use crate::app::{App, Inner};
use crate::limits::Limits;
use crate::protocol::RoomStatus;
use crate::room::RoomHandle;
use crate::room::RoomSummary;
use std::collections::HashMap;
use std::sync::Weak;
use tokio::time::{Duration, Instant};

/// How long the sweeper waits for a stopped room's task to end: its write in progress has
/// the store call's time limit (5 s), and a little more.
const STOP_WAIT: Duration = Duration::from_secs(6);

/// The log lines of finished rooms kept because the store could not be read (an outage says
/// so every few seconds, not once a pass a room: see [`crate::quiet`]).
static UNREAD: crate::quiet::Quiet = crate::quiet::Quiet::new();

/// Why a room left memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unload {
    /// Its match is over and its people left.
    Finished,
    /// It waited with nobody connected.
    Expired,
    /// Its match is in play and its people left.
    Unattended,
}

/// Whether a person (not a bot) is connected to the room.
fn attended(s: &RoomSummary) -> bool {
    s.seats.iter().any(|seat| !seat.bot && seat.connected)
}

/// What to do with a room last attended at `since`, `now`.
pub(crate) fn verdict(
    s: &RoomSummary,
    since: Instant,
    now: Instant,
    limits: &Limits,
) -> Option<Unload> {
    let idle = now.saturating_duration_since(since);
    match s.status {
        RoomStatus::Finished => (idle >= limits.finished_linger).then_some(Unload::Finished),
        RoomStatus::Waiting => (idle >= limits.waiting_idle).then_some(Unload::Expired),
        RoomStatus::Playing | RoomStatus::HandOver => {
            let people = s.seats.iter().any(|seat| !seat.bot);
            (people && idle >= limits.unattended).then_some(Unload::Unattended)
        }
    }
}

/// When each room was last seen attended (or first seen, or its status last changed).
#[derive(Default)]
pub(crate) struct Watch {
    seen: HashMap<String, (RoomStatus, Instant)>,
}

impl App {
    /// One pass of the sweeper: unloads the rooms whose time is up; returns how many.
    ///
    /// A room leaves memory only with everything it wrote in the store: a finished match once
    /// the store has its end (a write being retried keeps it until it lands), and every room
    /// only after its task ended, the write it was making landed. A waiting room whose start
    /// landed as it stopped is no longer waiting: it runs on.
    pub(crate) async fn sweep(&self, watch: &mut Watch, now: Instant) -> usize {
        let limits = self.limits().clone();
        let rooms: Vec<(String, RoomHandle)> = self
            .inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(id, h)| (id.clone(), h.clone()))
            .collect();
        watch
            .seen
            .retain(|id, _| rooms.iter().any(|(r, _)| r == id));
        let mut unloaded = 0;
        for (id, h) in rooms {
            let s = h.summary();
            let entry = watch.seen.entry(id.clone()).or_insert((s.status, now));
            if attended(&s) || entry.0 != s.status {
                *entry = (s.status, now);
            }
            let Some(why) = verdict(&s, entry.1, now, &limits) else {
                continue;
            };
            if why == Unload::Finished && !self.end_stored(&id).await {
                // Its end is still on its way to the store (retried): next pass.
                continue;
            }
            tracing::info!(room = %id, reason = ?why, "room leaves memory");
            Self::stop_and_wait(&h).await;
            if why == Unload::Expired && h.summary().status != RoomStatus::Waiting {
                // Its start was being written as it stopped, and landed: a match is on.
                tracing::info!(room = %id, "the room started as it was leaving: it runs on");
                if let Err(e) = self.resume(&id, &h).await {
                    tracing::error!(room = %id, "cannot run the room again: {e}");
                }
                watch.seen.remove(&id);
                continue;
            }
            self.unload(&id, &h).await;
            if why == Unload::Expired {
                self.expire(&id).await;
            }
            watch.seen.remove(&id);
            unloaded += 1;
        }
        unloaded
    }

    /// Whether the store holds room `id`'s match as finished (false when it cannot tell).
    async fn end_stored(&self, id: &str) -> bool {
        match self.store().room(id).await {
            Ok(Some(r)) => r.status == RoomStatus::Finished,
            // Gone from the store: nothing to wait for.
            Ok(None) => true,
            Err(e) => {
                crate::metrics::METRICS.store_error();
                if let Some(quiet) = UNREAD.allow() {
                    tracing::warn!(room = %id, "finished room kept in memory: {e}{quiet}");
                }
                false
            }
        }
    }

    /// Stops a room's task and waits for it to end: the write it is making lands (or times
    /// out) first, so what the store holds afterwards is all the room wrote.
    async fn stop_and_wait(h: &RoomHandle) {
        h.stop();
        if tokio::time::timeout(STOP_WAIT, h.tx.closed())
            .await
            .is_err()
        {
            tracing::warn!("a room's task did not end within {STOP_WAIT:?} of being stopped");
        }
    }

    /// Runs room `id` again from the store in place of its stopped handle `h` (in a cluster
    /// under a fresh lease, this node's still). No cap is checked: it is the same room,
    /// counted under the cap when it was made.
    async fn resume(&self, id: &str, h: &RoomHandle) -> Result<(), crate::AppError> {
        let _one = self.inner.takeover.lock().await;
        let store = self.store().clone();
        let Some(stored) = store.room(id).await? else {
            self.forget(id, h);
            return Ok(());
        };
        let mut fence = None;
        if let Some(node) = self.node() {
            match store.acquire_lease(id, &node.name, node.lease_ms).await? {
                crate::store::Acquired::Held(f) => fence = Some(f),
                // Another node took it meanwhile: it runs there.
                crate::store::Acquired::Elsewhere(_) => {
                    self.forget(id, h);
                    return Ok(());
                }
            }
        }
        let again = crate::room::RoomActor::spawn(stored, store, fence, self.room_shared()).await?;
        self.rooms_mut().insert(id.to_string(), again);
        Ok(())
    }

    /// Forgets a stopped room (giving up its lease in a cluster); the store keeps it.
    pub(crate) async fn unload(&self, id: &str, h: &RoomHandle) {
        self.forget(id, h);
        if let Some(node) = self.node()
            && let Err(e) = self.store().release_lease(id, &node.name).await
        {
            tracing::warn!(room = %id, "lease not released: {e}");
        }
    }
}

impl App {
    /// An expired waiting room leaves the store too (no restart rebuilds it, no link opens it
    /// again); one that started meanwhile stays.
    async fn expire(&self, id: &str) {
        let node = self.node().map(|n| n.name.as_str());
        match self.store().delete_waiting_room(id, node).await {
            Ok(true) => tracing::info!(room = %id, "expired waiting room deleted from the store"),
            Ok(false) => {}
            Err(e) => tracing::warn!(room = %id, "expired waiting room not deleted: {e}"),
        }
    }
}

/// The sweeper task of `app`: a pass every [`Limits::sweep_every`] until the app is gone.
pub(crate) async fn run(app: Weak<Inner>, limits: Limits) {
    let mut tick = tokio::time::interval(limits.sweep_every());
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut watch = Watch::default();
    loop {
        tick.tick().await;
        let Some(inner) = app.upgrade() else { return };
        let app = App { inner };
        if *app.shutdown_signal().borrow() {
            return;
        }
        app.sweep(&mut watch, Instant::now()).await;
    }
}
