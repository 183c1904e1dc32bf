//! Several server processes over one database. Each process is a node with a name unique in the
//! cluster (`--node-name`, by default the host's name and the port; a second live process
//! claiming a name is refused at start, `App::join_cluster`) and the public URL clients are
//! sent to for its rooms (`--public-url`). A node runs an unfinished room only while
//! it holds the room's lease in the database; a background task renews its leases, drops the
//! rooms it lost, takes over rooms whose lease ran out (their owner died) by replaying their
//! stored actions, and keeps a copy of the other nodes' rooms for the lobby. A request for a
//! room another node runs is sent there ([`Located::Elsewhere`]).
//!
//! Finished rooms need no lease: they never change, so any node loads one when it is asked for
//! it (the match history and replays are read from the store). Every action a node writes
//! carries the fence of its lease ([`crate::store::Fence`]): once another node took the room
//! over, the old owner's writes are refused.

use crate::app::{App, AppError, Inner};
use crate::protocol::{RoomStatus, SeatInfo};
use crate::room::RoomHandle;
use crate::room::{RoomActor, RoomSummary};
use crate::store::{Acquired, NodeClaim, StoredRoom};
use std::collections::HashSet;
use std::sync::Weak;
use std::time::Duration;

pub use crate::node::{MIN_LEASE_MS, Node};

/// Most orphaned rooms one lease round reads (and takes over); the rest wait for the next
/// round, a third of a lease later.
pub const TAKEOVERS_PER_ROUND: u64 = 64;

/// Most rooms of other nodes one lease round reads for the lobby (the newest).
pub const REMOTE_ROOMS: u64 = 500;

/// The lease length when none is given (milliseconds): a dead node's rooms are taken over
/// within 1.25 leases (1.5 s) of its last renewal, so a room answers again within 2 s of a
/// crash (measured, 1.1 to 1.5 s, by `crates/majiang-cli/tests/cluster_ops.rs`).
pub const DEFAULT_LEASE_MS: u64 = 1200;

/// Where a room is run.
pub enum Located {
    /// Here (taken over now if its owner's lease ran out).
    Here(RoomHandle),
    /// By another node: its public URL.
    Elsewhere(String),
    /// Nowhere: no such room.
    Missing,
}

/// The lobby's view of a room another node runs: what the store knows (no hand, no ledger).
pub(crate) fn remote_summary(r: &StoredRoom) -> RoomSummary {
    RoomSummary {
        id: r.id.clone(),
        rules: r.config.rules.clone(),
        status: r.status,
        seats: r
            .config
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo::stored(i, &s.name, s.bot, None))
            .collect(),
        hands: r.config.hands,
        hints: r.config.hints,
        hand_number: None,
        ledger: Vec::new(),
        created: r.created,
        finished: r.finished,
        standings: Vec::new(),
        dismissals: Vec::new(),
    }
}

impl App {
    /// Finds where room `id` runs: here if it is in memory; else loaded from the store (in a
    /// cluster, taken over when it is unfinished and nobody holds a live lease on it). A room
    /// whose task ended (it met a stored action it did not expect, or its write was fenced)
    /// is reloaded from the store.
    pub async fn locate(&self, id: &str) -> Result<Located, AppError> {
        if let Some(h) = self.room(id) {
            if !h.tx.is_closed() {
                return Ok(Located::Here(h));
            }
            tracing::warn!(room = %id, "the room's task ended: reloading it from the store");
            self.forget(id, &h);
        }
        let store = self.store().clone();
        let Some(stored) = store.room(id).await? else {
            return Ok(Located::Missing);
        };
        if let Some(node) = self.node()
            && stored.status != RoomStatus::Finished
            && let Some(lease) = store.lease(id).await?
            && lease.live
            && lease.owner != node.name
        {
            return Ok(Located::Elsewhere(lease.url));
        }
        self.take(stored).await
    }

    /// Drops `h` from the rooms in memory (only that handle: a room reloaded meanwhile stays).
    pub(crate) fn forget(&self, id: &str, h: &RoomHandle) {
        let mut rooms = self.rooms_mut();
        if rooms.get(id).is_some_and(|r| r.tx.same_channel(&h.tx)) {
            rooms.remove(id);
        }
    }

    /// Runs `stored` here, replaying its stored actions: in a cluster under a lease unless it
    /// is finished.
    async fn take(&self, stored: StoredRoom) -> Result<Located, AppError> {
        // One at a time, so two requests for one room never both rebuild it.
        let _one = self.inner.takeover.lock().await;
        if let Some(h) = self.room(&stored.id)
            && !h.tx.is_closed()
        {
            return Ok(Located::Here(h));
        }
        let store = self.store().clone();
        let mut fresh = stored;
        let mut fence = None;
        // Finished rooms are loaded only to be shown; they too are bounded in memory.
        let loaded = self.rooms_in_memory();
        if fresh.status == RoomStatus::Finished && loaded >= 2 * self.limits().max_rooms {
            return Err(AppError::Full(loaded));
        }
        if fresh.status != RoomStatus::Finished {
            let open = self.open_rooms();
            if open >= self.limits().max_rooms {
                return Err(AppError::Full(open));
            }
            if let Some(node) = self.node() {
                match store
                    .acquire_lease(&fresh.id, &node.name, node.lease_ms)
                    .await?
                {
                    Acquired::Held(f) => fence = Some(f),
                    Acquired::Elsewhere(owner) => return Ok(Located::Elsewhere(owner)),
                }
                // Read again under the lease: the previous owner may have written since (its
                // writes are fenced from now on, so the log read below is the whole of it).
                match store.room(&fresh.id).await? {
                    Some(r) => fresh = r,
                    None => return Ok(Located::Missing),
                }
                crate::metrics::METRICS.room_taken_over();
                tracing::info!(room = %fresh.id, node = %node.name, "took the room over");
            }
        }
        let id = fresh.id.clone();
        let handle = RoomActor::spawn(fresh, store, fence, self.room_shared()).await?;
        self.rooms_mut().insert(id, handle.clone());
        Ok(Located::Here(handle))
    }

    /// One round of the lease task: renew, drop lost rooms, release finished ones, reload
    /// rooms whose task ended, take orphans over (at most [`TAKEOVERS_PER_ROUND`]), refresh the
    /// lobby's copy of the other nodes' rooms (at most [`REMOTE_ROOMS`]). It reads no other
    /// room: the store picks those, a bounded page each.
    async fn lease_round(&self, node: &Node) -> Result<(), AppError> {
        let store = self.store().clone();
        // The rooms run here before the renewal: each got its lease before it was listed, so
        // one missing from the renewal was lost (a room added meanwhile waits for next round).
        let local: Vec<(String, RoomHandle)> = self
            .inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(id, h)| (id.clone(), h.clone()))
            .collect();
        // The name first: a process that lost it (frozen past its claim while another took the
        // name) renews nothing, and says so.
        if let NodeClaim::Taken { url } = store
            .claim_node(&node.name, &node.instance, &node.url, node.lease_ms)
            .await?
        {
            return Err(AppError::NodeNameTaken {
                name: node.name.clone(),
                url,
            });
        }
        let held: HashSet<String> = store
            .renew_leases(&node.name, node.lease_ms)
            .await?
            .into_iter()
            .collect();
        for (id, h) in &local {
            let finished = h.summary().status == RoomStatus::Finished;
            if finished {
                if held.contains(id) {
                    store.release_lease(id, &node.name).await?;
                }
            } else if !held.contains(id) {
                tracing::warn!(room = %id, "lease lost: another process runs the room now");
                h.stop();
                self.forget(id, h);
            } else if h.tx.is_closed() {
                // Its task ended (a write it did not expect): reload it from the store.
                tracing::warn!(room = %id, "the room's task ended: reloading it from the store");
                self.forget(id, h);
                if let Some(stored) = store.room(id).await?
                    && let Err(e) = self.take(stored).await
                {
                    tracing::error!(room = %id, "cannot reload the room: {e}");
                }
            }
        }
        // Only what the round needs, a bounded page each: the other nodes' rooms for the lobby,
        // and the rooms to take over (more wait for the next round).
        let mut remote: Vec<RoomSummary> = store
            .rooms_leased_elsewhere(&node.name, REMOTE_ROOMS)
            .await?
            .iter()
            .filter(|r| self.room(&r.id).is_none())
            .map(remote_summary)
            .collect();
        for stored in store.orphan_rooms(TAKEOVERS_PER_ROUND).await? {
            if self.room(&stored.id).is_some() {
                continue;
            }
            // Its owner died (or this node lost track of it), or it is a match of bots given
            // up at a shutdown: take it.
            let id = stored.id.clone();
            match self.take(stored.clone()).await {
                Ok(Located::Elsewhere(_)) => remote.push(remote_summary(&stored)),
                Ok(_) => {}
                Err(e) => tracing::error!(room = %id, "cannot take the room: {e}"),
            }
        }
        *self.inner.remote.write().unwrap_or_else(|e| e.into_inner()) = remote;
        Ok(())
    }
}

impl App {
    /// Leaving (a clean shutdown): stops every room, lets each finish the write it is making
    /// (up to 5 s), then in a cluster gives up their leases, so the rooms can be taken over at
    /// once instead of after the lease runs out.
    pub async fn leave_cluster(&self) {
        let rooms: Vec<(String, RoomHandle)> = self.rooms_mut().drain().collect();
        for (_, h) in &rooms {
            h.stop();
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            for (_, h) in &rooms {
                h.tx.closed().await;
            }
        })
        .await;
        let Some(node) = self.node().cloned() else {
            return;
        };
        for (id, _) in rooms {
            if let Err(e) = self.store().release_lease(&id, &node.name).await {
                tracing::warn!(room = %id, "lease not released: {e}");
            }
        }
        if let Err(e) = self.store().release_node(&node.name, &node.instance).await {
            tracing::warn!(node = %node.name, "node name not released: {e}");
        }
    }
}

/// After a failed lease round (the database away), the next one comes this soon: leases that
/// ran out meanwhile are renewed, and rooms go on, right after the database's return.
const RETRY_ROUND: Duration = Duration::from_millis(200);

/// The failed lease rounds' log lines (see [`crate::quiet`]).
static ROUND_FAILED: crate::quiet::Quiet = crate::quiet::Quiet::new();

impl App {
    /// Claims this process's node name in the store before it runs any room: a second live
    /// process under the same name is refused ([`AppError::NodeNameTaken`]), after waiting up
    /// to a lease and a half for a claim left by a process that died (a restart right after a
    /// crash).
    pub(crate) async fn join_cluster(
        store: &dyn crate::store::Store,
        node: &Node,
    ) -> Result<(), AppError> {
        let patience = Duration::from_millis(node.lease_ms * 3 / 2);
        let began = tokio::time::Instant::now();
        loop {
            match store
                .claim_node(&node.name, &node.instance, &node.url, node.lease_ms)
                .await?
            {
                NodeClaim::Granted => return Ok(()),
                NodeClaim::Taken { url } if began.elapsed() >= patience => {
                    return Err(AppError::NodeNameTaken {
                        name: node.name.clone(),
                        url,
                    });
                }
                NodeClaim::Taken { .. } => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }
}

/// The lease task of `app` on `node`: a round every third of a lease until the app is gone,
/// and every [`RETRY_ROUND`] while rounds fail.
pub(crate) async fn run(app: Weak<Inner>, node: Node) {
    let mut next = tokio::time::Instant::now();
    loop {
        tokio::time::sleep_until(next).await;
        let began = tokio::time::Instant::now();
        let Some(inner) = app.upgrade() else { return };
        let app = App { inner };
        if *app.shutdown_signal().borrow() {
            return;
        }
        next = began + node.renew_every();
        if let Err(e) = app.lease_round(&node).await {
            crate::metrics::METRICS.store_error();
            // Every 200 ms while the database is away: one line every few seconds says it.
            if let Some(quiet) = ROUND_FAILED.allow() {
                tracing::error!(node = %node.name, "lease round failed: {e}{quiet}");
            }
            next = began + RETRY_ROUND.min(node.renew_every());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room whose task ended (as after a write it did not expect) is reloaded from the
    /// store when it is next asked for, at the same point of its match.
    #[tokio::test]
    async fn a_room_whose_task_ended_is_reloaded_from_the_store() {
        let app = App::in_memory().await.unwrap();
        let config: crate::protocol::RoomConfig = serde_json::from_value(serde_json::json!({
            "autostart": true, "hands": 1
        }))
        .unwrap();
        let id = app.create_room(config).await.unwrap().room;
        let before = app.room(&id).unwrap();
        tokio::time::timeout(Duration::from_secs(5), async {
            while before.summary().status != RoomStatus::Playing {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the match starts");
        before.stop();
        tokio::time::timeout(Duration::from_secs(5), before.tx.closed())
            .await
            .expect("the room's task ends");
        let Located::Here(again) = app.locate(&id).await.unwrap() else {
            panic!("the room is not run here");
        };
        assert!(!again.tx.is_closed(), "a running task");
        assert!(!again.tx.same_channel(&before.tx), "a new task");
        assert_eq!(again.summary().status, RoomStatus::Playing);
        assert!(app.room(&id).unwrap().tx.same_channel(&again.tx));
    }

    /// In a cluster, a match of bots whose task ended under a lease still this node's is
    /// reloaded by the lease round, with nobody asking for it — even after a lookup saw it
    /// stopped (the handle stays until it is replaced).
    #[tokio::test]
    async fn the_lease_round_reloads_a_bots_match_whose_task_ended() {
        let store = std::sync::Arc::new(crate::store::SqliteStore::in_memory().unwrap());
        let node = Node::new("http://127.0.0.1:1", MIN_LEASE_MS);
        let app = App::with_store(store, Some(node)).await.unwrap();
        let config: crate::protocol::RoomConfig = serde_json::from_value(serde_json::json!({
            "hands": 2, "bot_delay_ms": 20,
            "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
        }))
        .unwrap();
        let id = app.create_room(config).await.unwrap().room;
        let before = app.room(&id).unwrap();
        before.stop();
        tokio::time::timeout(Duration::from_secs(5), before.tx.closed())
            .await
            .expect("the room's task ends");
        assert!(app.room(&id).is_none(), "a stopped room is not offered");
        let again = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                if let Some(h) = app.room(&id) {
                    return h;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .expect("reloaded by a lease round");
        assert!(!again.tx.same_channel(&before.tx), "a new task");
    }
}
