//! The room sweeper and the writes a room is making: a room leaves memory only with
//! everything it wrote in the store. The soak (limits.rs) lost one or two of 800 matches on a
//! loaded machine: a room of bots still "waiting" while its start was being written was
//! expired (the start then landed in a room nobody ran), and a finished room whose end was
//! being retried was unloaded before the retry. Here a store makes each case happen every
//! time: its start write slow, or its first finish write failing.

use crate::common;
use async_trait::async_trait;
use majiang_server::protocol::{RoomConfig, RoomStatus};
use majiang_server::store::{Acquired, Fence, Lease, NodeClaim, StoredAction, StoredRoom};
use majiang_server::{App, Limits, SqliteStore, Store, StoreError};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// SQLite with a slow start (`set_status(playing)` waits `start_delay` before writing) and
/// `finish_failures` failing finish writes before the first that lands.
struct Hesitant {
    inner: SqliteStore,
    start_delay: Duration,
    finish_failures: AtomicU32,
}

#[async_trait]
impl Store for Hesitant {
    fn engine(&self) -> &'static str {
        self.inner.engine()
    }
    async fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping().await
    }
    async fn create_room(&self, room: &StoredRoom) -> Result<(), StoreError> {
        self.inner.create_room(room).await
    }
    async fn set_config(
        &self,
        room: &str,
        config: &RoomConfig,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        self.inner.set_config(room, config, fence).await
    }
    async fn set_finished(
        &self,
        room: &str,
        at: i64,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let fail = self
            .finish_failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if fail {
            return Err(StoreError::Commit(
                "the test's store failed this one".into(),
            ));
        }
        self.inner.set_finished(room, at, fence).await
    }
    async fn set_status(
        &self,
        room: &str,
        status: RoomStatus,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        if status == RoomStatus::Playing {
            tokio::time::sleep(self.start_delay).await;
        }
        self.inner.set_status(room, status, fence).await
    }
    async fn append_action(
        &self,
        room: &str,
        a: &StoredAction,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        self.inner.append_action(room, a, fence).await
    }
    async fn rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.inner.rooms().await
    }
    async fn unfinished_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.inner.unfinished_rooms().await
    }
    async fn orphan_rooms(&self, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        self.inner.orphan_rooms(limit).await
    }
    async fn rooms_leased_elsewhere(
        &self,
        node: &str,
        limit: u64,
    ) -> Result<Vec<StoredRoom>, StoreError> {
        self.inner.rooms_leased_elsewhere(node, limit).await
    }
    async fn delete_waiting_room(&self, id: &str, node: Option<&str>) -> Result<bool, StoreError> {
        self.inner.delete_waiting_room(id, node).await
    }
    async fn finished_rooms(&self, offset: u64, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        self.inner.finished_rooms(offset, limit).await
    }
    async fn finished_count(&self) -> Result<u64, StoreError> {
        self.inner.finished_count().await
    }
    async fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        self.inner.room(id).await
    }
    async fn actions(&self, room: &str) -> Result<Vec<StoredAction>, StoreError> {
        self.inner.actions(room).await
    }
    async fn acquire_lease(
        &self,
        room: &str,
        node: &str,
        lease_ms: u64,
    ) -> Result<Acquired, StoreError> {
        self.inner.acquire_lease(room, node, lease_ms).await
    }
    async fn renew_leases(&self, node: &str, lease_ms: u64) -> Result<Vec<String>, StoreError> {
        self.inner.renew_leases(node, lease_ms).await
    }
    async fn release_lease(&self, room: &str, node: &str) -> Result<(), StoreError> {
        self.inner.release_lease(room, node).await
    }
    async fn lease(&self, room: &str) -> Result<Option<Lease>, StoreError> {
        self.inner.lease(room).await
    }
    async fn leases(&self) -> Result<Vec<(String, Lease)>, StoreError> {
        self.inner.leases().await
    }
    async fn claim_node(
        &self,
        name: &str,
        instance: &str,
        url: &str,
        lease_ms: u64,
    ) -> Result<NodeClaim, StoreError> {
        self.inner.claim_node(name, instance, url, lease_ms).await
    }
    async fn release_node(&self, name: &str, instance: &str) -> Result<(), StoreError> {
        self.inner.release_node(name, instance).await
    }
    async fn put_ledger(&self, id: &str, doc: &str) -> Result<(), StoreError> {
        self.inner.put_ledger(id, doc).await
    }
    async fn ledger(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.inner.ledger(id).await
    }
    async fn replace_ledger(&self, id: &str, was: &str, doc: &str) -> Result<bool, StoreError> {
        self.inner.replace_ledger(id, was, doc).await
    }
}

/// An app over a [`Hesitant`] store whose sweeper expires waiting rooms after 100 ms and
/// unloads finished ones after 20 ms.
async fn app(start_delay: Duration, finish_failures: u32) -> App {
    let store = Arc::new(Hesitant {
        inner: SqliteStore::in_memory().unwrap(),
        start_delay,
        finish_failures: AtomicU32::new(finish_failures),
    });
    let limits = Limits {
        waiting_idle: Duration::from_millis(100),
        unattended: Duration::from_millis(100),
        finished_linger: Duration::from_millis(20),
        ..Limits::default()
    };
    App::with_limits(store, None, limits).await.unwrap()
}

fn bots_only() -> RoomConfig {
    common::config(json!({
        "rules": "hongkong", "hands": 1,
        "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
    }))
}

/// Waits up to `secs` for the store to count `n` finished matches; the count then.
async fn finished_in_store(app: &App, n: u64, secs: u64) -> u64 {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let count = app.store().finished_count().await.unwrap();
        if count >= n || Instant::now() > until {
            return count;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_start_is_being_written_is_not_expired_as_waiting() {
    // The start takes 400 ms to be written: the room looks "waiting" for four times the
    // waiting limit, and the sweeper decides to expire it while the write is on its way.
    let app = app(Duration::from_millis(400), 0).await;
    let room = app.create_room(bots_only()).await.unwrap().room;
    assert_eq!(
        finished_in_store(&app, 1, 15).await,
        1,
        "the match of bots was lost: the store holds {:?}",
        app.store().room(&room).await.unwrap().map(|r| r.status)
    );
    let stored = app.store().room(&room).await.unwrap().unwrap();
    assert_eq!(stored.status, RoomStatus::Finished);
    assert!(!app.store().actions(&room).await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_room_stays_until_its_end_is_stored() {
    // The first two finish writes fail (retried after 100 ms, then 200 ms): the room is
    // finished in memory for 300 ms before the store has it, fifteen times its linger.
    let app = app(Duration::ZERO, 2).await;
    let room = app.create_room(bots_only()).await.unwrap().room;
    assert_eq!(
        finished_in_store(&app, 1, 15).await,
        1,
        "the finish was never stored: the store holds {:?}",
        app.store().room(&room).await.unwrap().map(|r| r.status)
    );
    // And then it leaves memory.
    let until = Instant::now() + Duration::from_secs(10);
    while app.rooms_in_memory() > 0 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        app.rooms_in_memory(),
        0,
        "the finished room stayed in memory"
    );
}
