//! The server's state, [`App`]: the store, the rooms this process runs, the other nodes' rooms
//! for the lobby, the throttles, the hint queue and the reviews. It is made (and its lease
//! task and sweeper started) by `start`; the HTTP routes, the cluster's lease rounds and the
//! sweeper work on it.

use crate::external_bots::ExternalBots;
use crate::history::{self, FinishedMatch};
use crate::limits::Limits;
use crate::node::Node;
use crate::protocol::{BadConfig, RoomConfig, RoomStatus};
use crate::room::{self, RoomActor, RoomHandle, RoomSummary};
use crate::stamp::{now_ms, random_hex};
use crate::store::{self, Store, StoreError, StoredRoom};
use crate::{listen, review_jobs, throttle};
use majiang::table::log::RULES_REVISION;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
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
    pub(crate) inner: Arc<Inner>,
}

/// What an [`App`] holds (the cluster's lease task and the sweeper hold it weakly).
pub(crate) struct Inner {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) rooms: RwLock<HashMap<String, RoomHandle>>,
    pub(crate) shutdown: watch::Sender<bool>,
    /// This process's place in a cluster (`None`: it runs every room in its store).
    pub(crate) node: Option<Node>,
    /// The lobby's copy of the rooms other nodes run (refreshed by the lease task).
    pub(crate) remote: RwLock<Vec<RoomSummary>>,
    /// Held while a room is taken over or loaded from the store.
    pub(crate) takeover: tokio::sync::Mutex<()>,
    /// The resource limits.
    pub(crate) limits: Limits,
    /// Room creations per client address and in all.
    pub(crate) room_throttle: throttle::Throttle,
    /// Ledger creations per client address and in all.
    pub(crate) ledger_throttle: throttle::Throttle,
    /// The open connections.
    pub(crate) gate: Arc<listen::Gate>,
    /// History lines of finished matches, by room (bounded by [`HISTORY_CACHE`]).
    pub(crate) history: std::sync::Mutex<HashMap<String, FinishedMatch>>,
    /// What every room shares: the learners' hints waiting and worked out, the outside bots
    /// allowed, the expert seats' pool.
    pub(crate) shared: room::Shared,
    /// The match reviews asked for, waiting, working and finished.
    pub(crate) reviews: review_jobs::ReviewJobs,
    /// Summaries of finished rooms not in memory (`GET /api/rooms/ID`), bounded in bytes.
    pub(crate) finished: history::FinishedCache,
}

impl App {
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

    /// Creates a room (and starts its match when `autostart` is set), with this server's
    /// default timers ([`Limits::claim_timeout_ms`], [`Limits::turn_timeout_ms`]) written into
    /// its settings for the timers its creator left unset.
    pub async fn create_room(&self, mut config: RoomConfig) -> Result<Created, AppError> {
        config.default_claim_timeout_ms = Some(self.inner.limits.claim_timeout_ms);
        config.default_turn_timeout_ms = Some(self.inner.limits.turn_timeout_ms);
        config.check_outside_bots(&self.inner.shared.bots)?;
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
            rules_revision: Some(RULES_REVISION),
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

    pub(crate) fn rooms_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, RoomHandle>> {
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

impl App {
    /// Room `id` if it is finished and not in memory: from the cache, or read and replayed
    /// from the store (and kept in the cache). `None` for any other room.
    pub(crate) async fn finished_room(
        &self,
        id: &str,
    ) -> Result<Option<Arc<history::FinishedRoom>>, AppError> {
        let cache = &self.inner.finished;
        if let Some(s) = cache.get(id) {
            return Ok(Some(s));
        }
        let store = self.store();
        let Some(room) = store.room(id).await? else {
            return Ok(None);
        };
        if room.status != RoomStatus::Finished {
            return Ok(None);
        }
        let actions = store.actions(id).await?;
        let Some(finished) = history::FinishedRoom::replayed(&room, &actions).map(Arc::new) else {
            return Ok(None);
        };
        cache.put(finished.clone());
        Ok(Some(finished))
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
