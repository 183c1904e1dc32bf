//! Persistence behind one trait, [`Store`], with two engines: [`SqliteStore`] (the embedded
//! default, one file) and [`PgStore`] (PostgreSQL, shared by several server processes). Both
//! keep rooms, the match log (seed, rule set, options and every accepted action, in order),
//! the room leases of a cluster and the table companion's ledgers. An action is written before it is acknowledged; a process
//! rebuilds a match by replaying its actions.
//!
//! The trait is an `async_trait` used as `Arc<dyn Store>`: one object the room tasks and the
//! HTTP handlers share, whichever engine is behind it. A new operation is one method here and
//! one in each engine; `tests/store_suite.rs` runs the same checks against both.

mod postgres;
mod sqlite;
mod sqlite_writer;

pub use postgres::PgStore;
pub use sqlite::SqliteStore;

use crate::protocol::{RoomConfig, RoomStatus};
use majiang::table::{Action, Player};
use std::path::Path;
use std::sync::Arc;

/// A storage error, with the engine's message.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused (or could not be reached). Shown with the server's own words (its
    /// message, SQLSTATE, detail and hint), not only "db error".
    #[error("database: {}", pg_detail(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// No PostgreSQL connection could be had from the pool.
    #[error("database connection: {0}")]
    Pool(String),
    /// The database address does not parse.
    #[error("database address {url:?}: {message}")]
    BadUrl {
        /// The address as given, its password masked ([`redact`]).
        url: String,
        /// What is wrong with it.
        message: String,
    },
    /// The SQLite writer thread has stopped (it cannot have been asked to: something went
    /// badly wrong in it); nothing more can be written until the process restarts.
    #[error("database: the SQLite writer thread has stopped")]
    WriterGone,
    /// A batch of SQLite writes could not be committed: nothing of it was stored (this call's
    /// write included), and it may be tried again.
    #[error("database: commit failed: {0}")]
    Commit(String),
    /// A stored value did not parse.
    #[error("database holds a bad value: {0}")]
    Corrupt(String),
    /// The write was refused because the writer no longer holds the room's lease (another
    /// process took the room over): the writer must stop running the room.
    #[error("room {room}: this process no longer holds its lease")]
    Fenced {
        /// The room.
        room: String,
    },
    /// The write was refused because the writer's lease ran out (by the database's clock),
    /// though nobody took the room over: the writer still holds the lease's epoch. Nothing was
    /// written; the write may be tried again once the writer has renewed its lease (if another
    /// process takes the room over first, the next try is [`StoreError::Fenced`]).
    #[error("room {room}: this process's lease ran out; it is renewed before the next try")]
    LeaseLapsed {
        /// The room.
        room: String,
    },
    /// The action's position is stored already (another process wrote it): the writer's copy
    /// of the match is stale and must be reloaded from the store.
    #[error("room {room}: action {seq} is stored already")]
    Conflict {
        /// The room.
        room: String,
        /// The position.
        seq: u64,
    },
}

/// One stored room.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRoom {
    /// Room id.
    pub id: String,
    /// How it was created.
    pub config: RoomConfig,
    /// Seat tokens, by seat (entrant); `None` for bots.
    pub tokens: Vec<Option<String>>,
    /// The match seed.
    pub seed: u64,
    /// Waiting, playing or finished.
    pub status: RoomStatus,
    /// When it was created (milliseconds since the Unix epoch).
    pub created: i64,
    /// When its match finished (milliseconds since the Unix epoch), once it has.
    pub finished: Option<i64>,
    /// The rules revision it was created under ([`majiang::table::log::RULES_REVISION`] at
    /// its creation): what its replay holds its stored actions to. `None` for a room stored
    /// before the stores kept it (rules revision 1 or 2, unknown which).
    pub rules_revision: Option<u32>,
}

impl StoredRoom {
    /// A room from its stored columns, as both engines read them back: the settings and the
    /// seat tokens are JSON, the seed is stored as a signed 64-bit integer (its bits), the
    /// status as its spelling ([`RoomStatus::as_str`]), the rules revision as an integer from
    /// 1 (`NULL` in a row stored before the column). A column that does not read back is
    /// [`StoreError::Corrupt`].
    #[allow(clippy::too_many_arguments)] // One argument a column, in the columns' order.
    pub(crate) fn from_columns(
        id: String,
        config: &str,
        tokens: &str,
        seed: i64,
        status: &str,
        created: i64,
        finished: Option<i64>,
        rules_revision: Option<i64>,
    ) -> Result<StoredRoom, StoreError> {
        let rules_revision = rules_revision
            .map(|r| {
                u32::try_from(r)
                    .ok()
                    .filter(|&r| r >= 1)
                    .ok_or_else(|| StoreError::Corrupt(format!("rules revision {r}")))
            })
            .transpose()?;
        Ok(StoredRoom {
            rules_revision,
            id,
            config: serde_json::from_str(config).map_err(corrupt)?,
            tokens: serde_json::from_str(tokens).map_err(corrupt)?,
            seed: seed as u64,
            status: RoomStatus::parse(status)
                .ok_or_else(|| StoreError::Corrupt(format!("room status {status:?}")))?,
            created,
            finished,
        })
    }
}

/// One stored action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredAction {
    /// Position in the match (0-based, no gaps).
    pub seq: u64,
    /// The chair that acted.
    pub player: Player,
    /// What they did.
    pub action: Action,
}

/// The right to write a room's actions: the node holding its lease and the lease's epoch (a
/// fencing token that grows at every acquisition). A write carrying a fence is accepted only
/// while that node holds that epoch's lease, unexpired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The node (its URL) holding the lease.
    pub node: String,
    /// The lease's epoch.
    pub epoch: i64,
}

/// Who runs a room now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The owning process's node name.
    pub owner: String,
    /// Where clients are sent for the room: the owner's public URL as it claimed its name
    /// ([`Store::claim_node`]), else the owner's name.
    pub url: String,
    /// Whether the lease is still running by the database's clock (an expired lease may be
    /// taken by any process).
    pub live: bool,
    /// Its fencing token (see [`Fence`]).
    pub epoch: i64,
}

/// The answer to [`Store::acquire_lease`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acquired {
    /// The caller holds the lease now, under this fence (a new epoch).
    Held(Fence),
    /// Another node holds a live lease: its public URL (as [`Lease::url`]).
    Elsewhere(String),
}

/// The answer to [`Store::claim_node`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeClaim {
    /// The name is this process's until the claim runs out.
    Granted,
    /// Another process holds the name, live: the URL it claimed with.
    Taken {
        /// The holder's public URL.
        url: String,
    },
}

/// The server's persistence. Lease times are measured by the database's clock, so the
/// processes of a cluster need not agree on the time.
#[async_trait::async_trait]
pub trait Store: Send + Sync + 'static {
    /// The engine's name (`sqlite`, `postgres`), for logs and `/healthz`.
    fn engine(&self) -> &'static str;

    /// Answers when the database does (`/healthz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Stores a new room.
    async fn create_room(&self, room: &StoredRoom) -> Result<(), StoreError>;

    /// Replaces a room's settings (its seats filled with bots at the start). With a `fence`,
    /// written only under that lease, as [`Store::append_action`] says (refused alike).
    async fn set_config(
        &self,
        room: &str,
        config: &RoomConfig,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError>;

    /// Marks a room's match finished at `at` (milliseconds since the Unix epoch). With a
    /// `fence`, written only under that lease, as [`Store::append_action`] says.
    async fn set_finished(
        &self,
        room: &str,
        at: i64,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError>;

    /// Sets a room's status. With a `fence`, written only under that lease, as
    /// [`Store::append_action`] says.
    async fn set_status(
        &self,
        room: &str,
        status: RoomStatus,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError>;

    /// Appends an accepted action to a room's match log. A `seq` already stored is refused
    /// with [`StoreError::Conflict`] (the log has no duplicates) — unless it holds this very
    /// action and player, written under the writer's own fence: an earlier try of the same
    /// write that landed although it timed out, answered `Ok` so a retry is harmless. With a `fence`, the write is
    /// accepted only if, in the same statement, `fence.node` holds the room's lease with
    /// `fence.epoch`, unexpired by the database's clock; otherwise nothing is written and the
    /// answer is [`StoreError::LeaseLapsed`] when that lease is still the writer's but ran out
    /// (to be renewed, then tried again), else [`StoreError::Fenced`]. Without one (a single process, SQLite) no lease is checked.
    async fn append_action(
        &self,
        room: &str,
        a: &StoredAction,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError>;

    /// Every room, oldest first.
    async fn rooms(&self) -> Result<Vec<StoredRoom>, StoreError>;

    /// The rooms waiting or in play, oldest first.
    async fn unfinished_rooms(&self) -> Result<Vec<StoredRoom>, StoreError>;

    /// The rooms a lease round may take over, oldest first, at most `limit`: unfinished rooms
    /// whose lease ran out (by the database's clock), and matches of bots only in play that
    /// nobody holds a lease on (given up at a shutdown). A waiting room, or a match with
    /// person seats, that nobody holds is not among them: it is loaded when someone opens it.
    async fn orphan_rooms(&self, limit: u64) -> Result<Vec<StoredRoom>, StoreError>;

    /// The unfinished rooms another node than `node` holds a live lease on, newest first, at
    /// most `limit` (the lobby's copy of the other nodes' rooms).
    async fn rooms_leased_elsewhere(
        &self,
        node: &str,
        limit: u64,
    ) -> Result<Vec<StoredRoom>, StoreError>;

    /// Deletes room `id`, with its lease, if it is still waiting (no match was ever started in
    /// it): an expired waiting room leaves the store. True if it was deleted. With `node` (in
    /// a cluster), not while another node holds the room's lease: a process that was paused
    /// and lost the room never deletes it from under its new owner.
    async fn delete_waiting_room(&self, id: &str, node: Option<&str>) -> Result<bool, StoreError>;

    /// A page of the finished rooms, the latest finished first: `limit` of them after skipping
    /// `offset`.
    async fn finished_rooms(&self, offset: u64, limit: u64) -> Result<Vec<StoredRoom>, StoreError>;

    /// How many rooms are finished.
    async fn finished_count(&self) -> Result<u64, StoreError>;

    /// One room.
    async fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// A room's actions in order.
    async fn actions(&self, room: &str) -> Result<Vec<StoredAction>, StoreError>;

    /// Takes the lease on `room` for `node` for `lease_ms`, unless another node holds a live
    /// one. Every acquisition (even by the node that held it) takes a new, greater epoch: the
    /// fence its writes must carry.
    async fn acquire_lease(
        &self,
        room: &str,
        node: &str,
        lease_ms: u64,
    ) -> Result<Acquired, StoreError>;

    /// Extends every lease `node` still holds by `lease_ms` from now; returns those rooms (a
    /// room missing from the answer was taken over and must no longer be run by `node`).
    async fn renew_leases(&self, node: &str, lease_ms: u64) -> Result<Vec<String>, StoreError>;

    /// Gives up `node`'s lease on `room` (a finished match, a shutdown).
    async fn release_lease(&self, room: &str, node: &str) -> Result<(), StoreError>;

    /// The lease on `room`, if any.
    async fn lease(&self, room: &str) -> Result<Option<Lease>, StoreError>;

    /// Every lease, by room.
    async fn leases(&self) -> Result<Vec<(String, Lease)>, StoreError>;

    /// Claims the node name `name` for the process `instance` (an id it drew at start) with
    /// its public `url`, for `lease_ms` by the database's clock: granted when nobody holds the
    /// name, its holder's claim ran out, or it is `instance`'s own (a renewal, made with every
    /// lease round); else [`NodeClaim::Taken`], and nothing changes. Two processes never run
    /// under one name: their leases would be each other's.
    async fn claim_node(
        &self,
        name: &str,
        instance: &str,
        url: &str,
        lease_ms: u64,
    ) -> Result<NodeClaim, StoreError>;

    /// Gives up `instance`'s claim on the node name `name` (a clean shutdown).
    async fn release_node(&self, name: &str, instance: &str) -> Result<(), StoreError>;

    /// Stores the table companion's ledger `id` as the JSON document `doc`, replacing any
    /// earlier version (`companion::ledger` owns the document's shape; the store does not read
    /// it).
    async fn put_ledger(&self, id: &str, doc: &str) -> Result<(), StoreError>;

    /// The JSON document of the ledger `id`, if there is one.
    async fn ledger(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// Replaces the ledger `id`'s document by `doc` only if it is still `was` (what the caller
    /// read and changed); `false` when another writer (another server process) changed it
    /// meanwhile, and nothing is written.
    async fn replace_ledger(&self, id: &str, was: &str, doc: &str) -> Result<bool, StoreError>;
}

/// Opens the store a `--db` argument names: a `postgres://` (or `postgresql://`) URL opens
/// [`PgStore`] (applying its migrations), anything else is a SQLite file path.
pub async fn open(db: &str) -> Result<Arc<dyn Store>, StoreError> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(Arc::new(PgStore::connect(db).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(Path::new(db))?))
    }
}

pub(crate) fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

/// Why a fenced write changed nothing, as both engines answer it: the writer's own lease only
/// ran out ([`StoreError::LeaseLapsed`], to be renewed and tried again) when it still holds
/// that epoch, else another node took the room ([`StoreError::Fenced`]).
pub(crate) fn refused(room: &str, lease_still_mine: bool) -> StoreError {
    let room = room.to_string();
    if lease_still_mine {
        StoreError::LeaseLapsed { room }
    } else {
        StoreError::Fenced { room }
    }
}

/// The answer to an append whose position is stored already, as both engines answer it: the
/// very same action, with the writer's fence still its lease's epoch (or no fence), is an
/// earlier try of this write that landed although it timed out — stored, `Ok`; anything else
/// is a [`StoreError::Conflict`] (the writer's copy of the match is stale).
pub(crate) fn duplicate(
    room: &str,
    seq: u64,
    same_action: bool,
    fence_holds: bool,
) -> Result<(), StoreError> {
    if same_action && fence_holds {
        Ok(())
    } else {
        Err(StoreError::Conflict {
            room: room.to_string(),
            seq,
        })
    }
}

/// Whether `key` can be a stored id: PostgreSQL text cannot hold a NUL byte (it refuses the
/// query), and nothing the server stores has one, so a key with one names nothing.
pub(crate) fn storable(key: &str) -> bool {
    !key.contains('\0')
}

/// A PostgreSQL error in full: the server's message with its severity, SQLSTATE, detail and
/// hint for an error the server sent; else the client's message with its causes (an I/O error,
/// a time-out), which `tokio_postgres::Error`'s own `Display` leaves out.
fn pg_detail(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut s = format!("{} {}: {}", db.severity(), db.code().code(), db.message());
        if let Some(detail) = db.detail() {
            s.push_str(&format!(" (detail: {detail})"));
        }
        if let Some(hint) = db.hint() {
            s.push_str(&format!(" (hint: {hint})"));
        }
        return s;
    }
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let text = c.to_string();
        if !s.contains(&text) {
            s.push_str(": ");
            s.push_str(&text);
        }
        cause = c.source();
    }
    s
}

/// The database address `db` with its password masked, for logs and messages: the password
/// of a URL's user part (`postgres://user:***@host/db`) and a `password=` parameter.
pub fn redact(db: &str) -> String {
    let mut out = match (db.find("://"), db.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &db[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &db[..scheme + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    };
    // `?password=…` (or `&password=…`, or `password=…` in a key=value string).
    let mut from = 0;
    while let Some(i) = out[from..].to_ascii_lowercase().find("password=") {
        let start = from + i + "password=".len();
        let end = out[start..]
            .find(['&', ' '])
            .map_or(out.len(), |e| start + e);
        out.replace_range(start..end, "***");
        from = start + 3;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{RoomStatus, StoreError, StoredRoom, redact};

    #[test]
    fn a_room_reads_back_from_its_columns_and_a_bad_column_is_corrupt() {
        let config = r#"{"rules": "hongkong", "hands": 2}"#;
        let room = StoredRoom::from_columns(
            "r1".into(),
            config,
            r#"["tok", null]"#,
            -1,
            "hand_over",
            5,
            Some(9),
            Some(2),
        )
        .unwrap();
        assert_eq!(
            (
                room.id.as_str(),
                room.config.rules.as_str(),
                room.config.hands
            ),
            ("r1", "hongkong", Some(2))
        );
        assert_eq!(room.tokens, vec![Some("tok".to_string()), None]);
        assert_eq!(room.seed, u64::MAX, "the seed's bits");
        assert_eq!(room.status, RoomStatus::HandOver);
        assert_eq!((room.created, room.finished), (5, Some(9)));
        assert_eq!(room.rules_revision, Some(2));
        let read_under = |config: &str, tokens: &str, status: &str, revision: Option<i64>| {
            StoredRoom::from_columns("r".into(), config, tokens, 0, status, 0, None, revision)
        };
        let read =
            |config: &str, tokens: &str, status: &str| read_under(config, tokens, status, None);
        // A row stored before the column: its revision unknown.
        assert_eq!(read(config, "[]", "waiting").unwrap().rules_revision, None);
        for bad in [
            read("{", "[]", "waiting"),
            read(config, "[1]", "waiting"),
            read(config, "[]", "lost"),
            read_under(config, "[]", "waiting", Some(0)),
            read_under(config, "[]", "waiting", Some(-2)),
            read_under(config, "[]", "waiting", Some(1 << 40)),
        ] {
            assert!(matches!(bad, Err(StoreError::Corrupt(_))), "{bad:?}");
        }
    }

    #[test]
    fn a_database_address_is_shown_without_its_password() {
        assert_eq!(
            redact("postgres://majiang:s3cret@db:5432/majiang"),
            "postgres://majiang:***@db:5432/majiang"
        );
        assert_eq!(
            redact("postgres://majiang@db/m?sslmode=disable&password=s3cret&x=1"),
            "postgres://majiang@db/m?sslmode=disable&password=***&x=1"
        );
        assert_eq!(
            redact("host=db Password=s3cret user=m"),
            "host=db Password=*** user=m"
        );
        assert_eq!(redact("majiang.sqlite"), "majiang.sqlite");
        assert_eq!(redact("postgres://m@db/x"), "postgres://m@db/x");
    }
}
