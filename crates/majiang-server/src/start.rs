//! Starting an [`App`]: the rooms of its store restored (alone) or its name claimed in the
//! cluster (as a node), then the cluster's lease task and the room sweeper started on it.

use crate::app::{App, AppError, Inner};
use crate::external_bots::ExternalBots;
use crate::limits::Limits;
use crate::node::Node;
use crate::protocol::RoomStatus;
use crate::room::{self, RoomActor};
use crate::stamp::now_ms;
use crate::store::{SqliteStore, Store};
use crate::{cluster, history, listen, review_jobs, sweep, throttle};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};
use tokio::sync::watch;

impl App {
    /// Opens the SQLite database at `path` and rebuilds every room in it (unfinished matches
    /// resume where their last stored action left them). Must be called inside a Tokio
    /// runtime.
    pub async fn open(path: &Path) -> Result<App, AppError> {
        App::with_store(Arc::new(SqliteStore::open(path)?), None).await
    }

    /// An app over an in-memory SQLite database (tests, benchmarks).
    pub async fn in_memory() -> Result<App, AppError> {
        App::with_store(Arc::new(SqliteStore::in_memory()?), None).await
    }

    /// An app over `store` with the default [`Limits`] (see [`App::with_limits`]).
    pub async fn with_store(store: Arc<dyn Store>, node: Option<Node>) -> Result<App, AppError> {
        App::with_limits(store, node, Limits::default()).await
    }

    /// An app over `store` under `limits`. Alone (`node` is `None`) it runs the rooms of its
    /// store that are waiting (created within [`Limits::waiting_idle`]) or in play, up to
    /// [`Limits::max_rooms`]; any other room is loaded when someone opens it. As a `node` of a
    /// cluster it runs only the rooms it holds the lease on: a task renews its leases and takes
    /// over the rooms of nodes that died (see [`cluster`]). A sweeper unloads the rooms nobody
    /// needs in memory (see [`Limits`]). Default room timers out of a room's bounds
    /// ([`Limits::check`]) are refused.
    pub async fn with_limits(
        store: Arc<dyn Store>,
        node: Option<Node>,
        limits: Limits,
    ) -> Result<App, AppError> {
        App::with_external_bots(store, node, limits, ExternalBots::none()).await
    }

    /// [`App::with_limits`] allowing the outside bots `bots` in its rooms (a seat's bot kind
    /// `ext:NAME`).
    pub async fn with_external_bots(
        store: Arc<dyn Store>,
        node: Option<Node>,
        limits: Limits,
        bots: ExternalBots,
    ) -> Result<App, AppError> {
        limits.check()?;
        if let Some(node) = &node {
            App::join_cluster(store.as_ref(), node).await?;
        }
        let mut rooms = HashMap::new();
        let hints = room::HintQueue::with_bot_searches(
            limits.hints_at_once,
            limits.hint_queue,
            limits.bot_searches_at_once,
        );
        let shared = room::Shared {
            experts: Arc::new(room::ExpertPool::new(hints.bot_searches())),
            hints,
            bots,
        };
        if node.is_none() {
            let fresh_after = now_ms().saturating_sub(limits.waiting_idle.as_millis() as i64);
            for stored in store.unfinished_rooms().await? {
                if rooms.len() >= limits.max_rooms {
                    break;
                }
                if stored.status == RoomStatus::Waiting && stored.created < fresh_after {
                    continue;
                }
                let id = stored.id.clone();
                match RoomActor::spawn(stored, store.clone(), None, &shared).await {
                    Ok(h) => {
                        rooms.insert(id, h);
                    }
                    // One bad room must not keep the server down; say which.
                    Err(e) => tracing::error!(room = %id, "not restoring the room: {e}"),
                }
            }
        }
        let app = App {
            inner: Arc::new(Inner {
                store,
                rooms: RwLock::new(rooms),
                shutdown: watch::channel(false).0,
                node: node.clone(),
                remote: RwLock::new(Vec::new()),
                takeover: tokio::sync::Mutex::new(()),
                room_throttle: throttle::Throttle::new(
                    limits.rooms_per_minute,
                    limits.rooms_per_minute_total,
                ),
                ledger_throttle: throttle::Throttle::new(
                    limits.ledgers_per_minute,
                    limits.ledgers_per_minute_total,
                ),
                gate: Arc::new(listen::Gate::default()),
                history: std::sync::Mutex::new(HashMap::new()),
                shared,
                reviews: review_jobs::ReviewJobs::new(&limits),
                finished: history::FinishedCache::new(limits.finished_cache_bytes),
                limits: limits.clone(),
            }),
        };
        if let Some(node) = node {
            tokio::spawn(cluster::run(Arc::downgrade(&app.inner), node));
        }
        tokio::spawn(sweep::run(Arc::downgrade(&app.inner), limits));
        Ok(app)
    }
}
