//! The majiang game server: rooms where people and bots play matches of any of the four rule
//! sets over WebSockets, a match log in SQLite that survives a crash, and a browser UI embedded
//! in the binary.
//!
//! - [`App`] holds the store and the rooms; [`App::open`] rebuilds unfinished matches by
//!   replaying their stored actions.
//! - [`store`] is the persistence: one [`Store`] trait, a SQLite and a PostgreSQL engine.
//! - [`cluster`]: several processes over one PostgreSQL database, each room run by the
//!   process holding its lease, taken over when that process dies.
//! - [`router`] builds the HTTP routes (UI, JSON API, WebSocket); [`serve`] runs them until a
//!   shutdown signal.
//! - [`protocol`] is the wire format (documented in `PROTOCOL.md`).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let app = majiang_server::App::open(std::path::Path::new("majiang.sqlite")).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! majiang_server::serve(listener, app, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod client_addr;
pub mod cluster;
mod companion;
pub mod external_bots;
mod history;
mod http;
mod incident;
pub mod limits;
mod listen;
pub mod metrics;
pub mod protocol;
mod quiet;
mod refusal;
pub mod replay;
pub mod reveal;
mod review;
mod review_jobs;
pub mod room;
pub mod state_delta;
mod static_files;
pub mod store;
pub mod svg;
mod sweep;
mod throttle;
pub mod waits;
pub mod words;

pub use history::FinishedMatch;
pub use http::{router, serve};
pub use limits::Limits;
pub use external_bots::ExternalBots;
pub use room::{Dismissal, RoomHandle, RoomSummary};
pub use store::{PgStore, SqliteStore, Store, StoreError};

use cluster::Node;
use protocol::{BadConfig, RoomConfig, RoomStatus};
use room::RoomActor;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};
use store::StoredRoom;
use tokio::sync::watch;

/// A seat's invitation: its token and the path to open.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Invite {
    /// Seat index.
    pub seat: usize,
    /// Seat name.
    pub name: String,
    /// The seat's secret token (`None` for bots).
    pub token: Option<String>,
    /// The path that opens the UI on this seat (with the token), for people.
    pub link: Option<String>,
}

/// The answer to creating a room.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Created {
    /// Room id.
    pub room: String,
    /// One invitation per seat.
    pub seats: Vec<Invite>,
    /// The path for spectators.
    pub spectate: String,
}

/// Why the server could not do something.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Bad room settings.
    #[error(transparent)]
    Config(#[from] BadConfig),
    /// A stored room could not be rebuilt.
    #[error(transparent)]
    Restore(#[from] room::RestoreError),
    /// Too many rooms are open.
    #[error("the server holds {0} rooms already: try again later")]
    Full(usize),
    /// Another live process of the cluster runs under this process's node name.
    #[error(
        "node name {name:?} is in use by another running process (its public URL {url:?}): \
         give each process its own --node-name (MAJIANG_NODE_NAME)"
    )]
    NodeNameTaken {
        /// The name.
        name: String,
        /// The public URL of the process holding it.
        url: String,
    },
    /// Too many creations lately, from this client address or from everyone.
    #[error("too many {what} created lately{by}: try again in a minute")]
    Throttled {
        /// Rooms or ledgers.
        what: &'static str,
        /// " from your address", or "".
        by: &'static str,
    },
}

/// The default cap on rooms waiting or in play at once ([`Limits::max_rooms`]).
pub const MAX_OPEN_ROOMS: usize = 5000;

/// Most finished matches whose history line is kept (they are replayed from the store to
/// make one).
const HISTORY_CACHE: usize = 4096;

/// The server's state: the store and the live rooms.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    rooms: RwLock<HashMap<String, RoomHandle>>,
    shutdown: watch::Sender<bool>,
    /// This process's place in a cluster (`None`: it runs every room in its store).
    node: Option<Node>,
    /// The lobby's copy of the rooms other nodes run (refreshed by the lease task).
    remote: RwLock<Vec<RoomSummary>>,
    /// Held while a room is taken over or loaded from the store.
    takeover: tokio::sync::Mutex<()>,
    /// The resource limits.
    limits: Limits,
    /// Room creations per client address and in all.
    room_throttle: throttle::Throttle,
    /// Ledger creations per client address and in all.
    ledger_throttle: throttle::Throttle,
    /// The open connections.
    gate: Arc<listen::Gate>,
    /// History lines of finished matches, by room (bounded by [`HISTORY_CACHE`]).
    history: std::sync::Mutex<HashMap<String, FinishedMatch>>,
    /// What every room shares: the learners' hints waiting and worked out, the outside bots
    /// allowed, the expert seats' pool.
    shared: room::Shared,
    /// The match reviews asked for, waiting, working and finished.
    reviews: review_jobs::ReviewJobs,
    /// Summaries of finished rooms not in memory (`GET /api/rooms/ID`), bounded in bytes.
    finished: history::FinishedCache,
}

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
    /// needs in memory (see [`Limits`]).
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

    /// The resource limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// Open TCP connections (HTTP and WebSocket) now.
    pub fn connections(&self) -> usize {
        self.inner.gate.open()
    }

    /// Rooms in memory now (waiting, in play, or finished and not yet unloaded).
    pub fn rooms_in_memory(&self) -> usize {
        self.inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// Takes one room creation for a client at `addr`, or says why not.
    pub(crate) fn throttle_room(&self, addr: std::net::IpAddr) -> Result<(), AppError> {
        self.inner
            .room_throttle
            .take(addr)
            .map_err(|t| throttled("rooms", t))
    }

    /// Takes one ledger creation for a client at `addr`, or says why not.
    pub(crate) fn throttle_ledger(&self, addr: std::net::IpAddr) -> Result<(), AppError> {
        self.inner
            .ledger_throttle
            .take(addr)
            .map_err(|t| throttled("ledgers", t))
    }

    /// The learners' hint queue every room of this app shares.
    pub fn hint_queue(&self) -> &Arc<room::HintQueue> {
        &self.inner.shared.hints
    }

    /// The outside bots this app allows in its rooms.
    pub fn external_bots(&self) -> &ExternalBots {
        &self.inner.shared.bots
    }

    /// What every room of this app shares.
    pub(crate) fn room_shared(&self) -> &room::Shared {
        &self.inner.shared
    }

    /// The match reviews asked for.
    pub(crate) fn reviews(&self) -> &review_jobs::ReviewJobs {
        &self.inner.reviews
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// This process's place in a cluster, if it is in one.
    pub fn node(&self) -> Option<&Node> {
        self.inner.node.as_ref()
    }

    /// Creates a room (and starts its match when `autostart` is set).
    pub async fn create_room(&self, mut config: RoomConfig) -> Result<Created, AppError> {
        self.inner.shared.bots.check(&config.seats)?;
        config.validate()?;
        let open = self.open_rooms();
        if open >= self.inner.limits.max_rooms {
            return Err(AppError::Full(open));
        }
        let id = random_hex(8);
        let tokens: Vec<Option<String>> = config
            .seats
            .iter()
            .map(|s| (!s.bot).then(|| random_hex(16)))
            .collect();
        let stored = StoredRoom {
            id: id.clone(),
            config: config.clone(),
            tokens: tokens.clone(),
            seed: rand::random(),
            status: RoomStatus::Waiting,
            created: now_ms(),
            finished: None,
        };
        self.inner.store.create_room(&stored).await?;
        let mut fence = None;
        if let Some(node) = self.node() {
            match self
                .inner
                .store
                .acquire_lease(&id, &node.name, node.lease_ms)
                .await?
            {
                store::Acquired::Held(f) => fence = Some(f),
                // A fresh id cannot be leased already; say so rather than run it twice.
                store::Acquired::Elsewhere(owner) => {
                    return Err(AppError::Store(StoreError::Corrupt(format!(
                        "new room {id} is leased by {owner}"
                    ))));
                }
            }
        }
        let handle =
            RoomActor::spawn(stored, self.inner.store.clone(), fence, &self.inner.shared).await?;
        self.rooms_mut().insert(id.clone(), handle);
        Ok(Created {
            seats: config
                .seats
                .iter()
                .zip(tokens)
                .enumerate()
                .map(|(i, (s, t))| Invite {
                    seat: i,
                    name: s.name.clone(),
                    link: t.as_ref().map(|t| format!("/?room={id}&token={t}")),
                    token: t,
                })
                .collect(),
            spectate: format!("/?room={id}"),
            room: id,
        })
    }

    /// A live room (not one whose task stopped: its write was fenced or met a stored action).
    /// A stopped room's handle stays in memory until it is replaced: the lease round drops it
    /// (its lease lost) or reloads it from the store (its lease still this process's), and
    /// [`App::locate`] reloads it when someone opens it.
    pub fn room(&self, id: &str) -> Option<RoomHandle> {
        self.inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .filter(|h| !h.is_stopped())
            .cloned()
    }

    /// Every room's lobby view (in a cluster, the other nodes' rooms too): open rooms
    /// (waiting for people) first, then the others; newest first within each.
    pub fn rooms(&self) -> Vec<RoomSummary> {
        let mut v: Vec<RoomSummary> = self
            .inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|h| h.summary())
            .collect();
        v.extend(
            self.inner
                .remote
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .filter(|r| self.room(&r.id).is_none())
                .cloned(),
        );
        v.sort_by(|a, b| {
            let open = |r: &RoomSummary| r.status != RoomStatus::Waiting;
            (open(a), -a.created, &a.id).cmp(&(open(b), -b.created, &b.id))
        });
        v
    }

    /// A page of the finished matches, newest first (`limit` after skipping `offset`), read
    /// from the store, and how many there are in all.
    pub async fn finished_matches(
        &self,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<FinishedMatch>, u64), AppError> {
        let store = self.store();
        let total = store.finished_count().await?;
        let mut page = Vec::new();
        for room in store.finished_rooms(offset, limit).await? {
            let known = self
                .inner
                .history
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&room.id)
                .cloned();
            let line = match known {
                Some(line) => Some(line),
                None => {
                    let actions = store.actions(&room.id).await?;
                    let line = FinishedMatch::replayed(&room, &actions);
                    if let Some(line) = &line {
                        let mut cache =
                            self.inner.history.lock().unwrap_or_else(|e| e.into_inner());
                        if cache.len() >= HISTORY_CACHE {
                            cache.clear();
                        }
                        cache.insert(room.id.clone(), line.clone());
                    }
                    line
                }
            };
            match line {
                Some(line) => page.push(line),
                None => {
                    tracing::warn!(room = %room.id, "finished room does not replay: left out of the history")
                }
            }
        }
        Ok((page, total))
    }

    /// The rooms this process runs that are waiting or in play.
    pub fn open_rooms(&self) -> usize {
        self.inner
            .rooms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|h| h.summary().status != RoomStatus::Finished)
            .count()
    }

    fn rooms_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, RoomHandle>> {
        self.inner.rooms.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells every connection to close (graceful shutdown).
    pub fn shut_down(&self) {
        let _ = self.inner.shutdown.send(true);
    }

    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }
}

fn throttled(what: &'static str, t: throttle::Throttled) -> AppError {
    AppError::Throttled {
        what,
        by: match t {
            throttle::Throttled::Address => " from your address",
            throttle::Throttled::Everyone => "",
        },
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `bytes` random bytes from the operating system's CSPRNG, as hex (falling back to `rand`'s
/// thread RNG, itself a CSPRNG seeded from the OS, if the OS source fails).
pub(crate) fn random_hex(bytes: usize) -> String {
    use rand::TryRngCore;
    let mut buf = vec![0u8; bytes];
    if rand::rngs::OsRng.try_fill_bytes(&mut buf).is_err() {
        rand::fill(buf.as_mut_slice());
    }
    buf.iter().map(|b| format!("{b:02x}")).collect()
}
