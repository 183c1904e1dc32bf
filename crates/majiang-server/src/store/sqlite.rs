//! The SQLite engine (WAL mode), the embedded default: one file, one connection owned by the
//! writer thread ([`super::sqlite_writer`]). Every call is a job for that thread, awaited on a
//! oneshot, so no call blocks the async runtime; the writes queued together are committed in
//! one transaction (group commit), each answered once it is committed.

use super::sqlite_writer::Writer;
use super::{
    Acquired, Fence, Lease, NodeClaim, Store, StoreError, StoredAction, StoredRoom, corrupt,
    duplicate, refused,
};
use crate::protocol::{RoomConfig, RoomStatus};
use majiang::table::{Action, Player};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// The database clock in milliseconds since the Unix epoch, for leases.
const NOW_MS: &str = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

/// The SQLite database.
#[derive(Debug)]
pub struct SqliteStore {
    writer: Writer,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` in WAL mode. A new file is created
    /// readable by its owner only (0600): it holds the seat tokens and the seeds. SQLite gives
    /// its `-wal` and `-shm` files the database file's permissions.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        create_private(path)?;
        let conn = Connection::open(path)?;
        SqliteStore::init(conn)
    }

    /// An in-memory database (tests, benchmarks).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // WAL + NORMAL: a commit survives a crash of the process (the case the server must
        // survive); only a power loss may drop the last commits.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "busy_timeout", 5000)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS rooms (
                 id TEXT PRIMARY KEY,
                 created INTEGER NOT NULL,
                 config TEXT NOT NULL,
                 tokens TEXT NOT NULL,
                 seed INTEGER NOT NULL,
                 status TEXT NOT NULL
             );
             CREATE TABLE IF NOT EXISTS actions (
                 room TEXT NOT NULL REFERENCES rooms(id),
                 seq INTEGER NOT NULL,
                 player INTEGER NOT NULL,
                 action TEXT NOT NULL,
                 PRIMARY KEY (room, seq)
             );",
        )?;
        // Databases from before the match history lack the finish time.
        let has_finished: bool = conn
            .prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'finished'")?
            .exists([])?;
        if !has_finished {
            conn.execute_batch("ALTER TABLE rooms ADD COLUMN finished INTEGER")?;
        }
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS leases (
                 room TEXT PRIMARY KEY REFERENCES rooms(id),
                 owner TEXT NOT NULL,
                 expires INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS ledgers (
                 id TEXT PRIMARY KEY,
                 doc TEXT NOT NULL
             );
             -- The processes of a cluster by node name (see `Store::claim_node`).
             CREATE TABLE IF NOT EXISTS nodes (
                 name TEXT PRIMARY KEY,
                 instance TEXT NOT NULL,
                 url TEXT NOT NULL,
                 expires INTEGER NOT NULL
             );
             -- The last lease epoch given (one row): epochs only grow, even across a release.
             CREATE TABLE IF NOT EXISTS lease_epochs (last INTEGER NOT NULL);
             INSERT INTO lease_epochs (last) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM lease_epochs);",
        )?;
        // The lease round reads only unfinished rooms, a bounded page at a time.
        conn.execute_batch(
            "CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (created, id)
             WHERE status <> 'finished'",
        )?;
        // Databases from before the rooms' rules revisions lack them: their rows read `NULL`
        // (unknown: revision 1 or 2).
        let has_revision: bool = conn
            .prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'rules_revision'")?
            .exists([])?;
        if !has_revision {
            conn.execute_batch("ALTER TABLE rooms ADD COLUMN rules_revision INTEGER")?;
        }
        // Databases from before fencing lack the leases' epochs.
        let has_epoch: bool = conn
            .prepare("SELECT 1 FROM pragma_table_info('leases') WHERE name = 'epoch'")?
            .exists([])?;
        if !has_epoch {
            conn.execute_batch("ALTER TABLE leases ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0")?;
        }
        Ok(SqliteStore {
            writer: Writer::start(conn)?,
        })
    }

    /// The rooms picked by `clause`, which follows `FROM rooms`: the table's alias `r`, any
    /// joins, then `WHERE … ORDER BY …`.
    async fn rooms_where(
        &self,
        clause: String,
        params: Vec<Value>,
    ) -> Result<Vec<StoredRoom>, StoreError> {
        self.writer
            .call(move |conn| {
                let mut stmt = conn.prepare_cached(&format!(
                    "SELECT r.id, r.config, r.tokens, r.seed, r.status, r.created, r.finished, r.rules_revision FROM rooms {clause}"
                ))?;
                let rows = stmt.query_map(rusqlite::params_from_iter(params), row_to_room)?;
                let mut out = Vec::new();
                for r in rows {
                    out.push(r??);
                }
                Ok(out)
            })
            .await
    }
}

/// Creates the file at `path`, empty and readable by its owner only, unless it exists (its
/// permissions are then the operator's). Hand-written: `rusqlite` opens files with the
/// process's umask (0644 as a rule).
fn create_private(path: &Path) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::Commit(format!(
            "cannot create {}: {e}",
            path.display()
        ))),
    }
}

/// `UPDATE rooms SET {set} WHERE id = ?1` with `values` as `?2`…; with a `fence`, only while
/// the fence's node holds the room's lease with its epoch, unexpired, checked in the same
/// statement, and refused as an append is ([`refused`]).
fn update_room(
    conn: &Connection,
    room: &str,
    set: &str,
    mut values: Vec<Value>,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    values.insert(0, Value::Text(room.to_string()));
    let Some(f) = fence else {
        conn.prepare_cached(&format!("UPDATE rooms SET {set} WHERE id = ?1"))?
            .execute(rusqlite::params_from_iter(values))?;
        return Ok(());
    };
    let (node, epoch) = (values.len() + 1, values.len() + 2);
    values.push(Value::Text(f.node.clone()));
    values.push(Value::Integer(f.epoch));
    let changed = conn
        .prepare_cached(&format!(
            "UPDATE rooms SET {set} WHERE id = ?1 AND EXISTS (
                 SELECT 1 FROM leases
                 WHERE room = ?1 AND owner = ?{node} AND epoch = ?{epoch} AND expires > {NOW_MS})"
        ))?
        .execute(rusqlite::params_from_iter(values))?;
    if changed == 1 {
        return Ok(());
    }
    Err(refused(room, lease_is(conn, room, &f.node, f.epoch)?))
}

/// A lease's columns (room, owner, live, epoch, public URL) from [`LEASES_NAMED`].
const LEASE_COLUMNS: &str = "l.room, l.owner, l.expires > CAST(unixepoch('subsec') * 1000 AS INTEGER), l.epoch, COALESCE(n.url, l.owner)";
/// The leases with their owners' public URLs.
const LEASES_NAMED: &str = "leases l LEFT JOIN nodes n ON n.name = l.owner";

fn row_to_lease(r: &rusqlite::Row<'_>) -> rusqlite::Result<(String, Lease)> {
    Ok((
        r.get(0)?,
        Lease {
            owner: r.get(1)?,
            live: r.get(2)?,
            epoch: r.get(3)?,
            url: r.get(4)?,
        },
    ))
}

/// Whether `node` holds `room`'s lease of `epoch` (expired or not).
fn lease_is(conn: &Connection, room: &str, node: &str, epoch: i64) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM leases WHERE room = ?1 AND owner = ?2 AND epoch = ?3")?
        .exists(params![room, node, epoch])?)
}

/// Appends an action on the writer's connection (see [`Store::append_action`]).
fn append(
    conn: &Connection,
    room: &str,
    a: &StoredAction,
    action: &str,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    let written = match fence {
        None => conn
            .prepare_cached(
                "INSERT INTO actions (room, seq, player, action) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![room, a.seq as i64, a.player.0, action]),
        // One statement on the one connection: the lease cannot change in between.
        Some(f) => conn
            .prepare_cached(&format!(
                "INSERT INTO actions (room, seq, player, action)
                 SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (
                     SELECT 1 FROM leases
                     WHERE room = ?1 AND owner = ?5 AND epoch = ?6 AND expires > {NOW_MS})"
            ))?
            .execute(params![
                room,
                a.seq as i64,
                a.player.0,
                action,
                f.node,
                f.epoch
            ]),
    };
    match written {
        Ok(1) => Ok(()),
        Ok(_) => {
            let mine = match fence {
                Some(f) => lease_is(conn, room, &f.node, f.epoch)?,
                None => false,
            };
            Err(refused(room, mine))
        }
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
        {
            let same = conn
                .prepare_cached(
                    "SELECT 1 FROM actions WHERE room = ?1 AND seq = ?2 AND player = ?3
                     AND action = ?4",
                )?
                .exists(params![room, a.seq as i64, a.player.0, action])?;
            let holds = match fence {
                Some(f) => lease_is(conn, room, &f.node, f.epoch)?,
                None => true,
            };
            duplicate(room, a.seq, same, holds)
        }
        Err(e) => Err(e.into()),
    }
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    fn engine(&self) -> &'static str {
        "sqlite"
    }

    async fn ping(&self) -> Result<(), StoreError> {
        self.writer
            .call(|conn| Ok(conn.query_row("SELECT 1", [], |_| Ok(()))?))
            .await
    }

    /// Stores a new room.
    async fn create_room(&self, room: &StoredRoom) -> Result<(), StoreError> {
        let config = serde_json::to_string(&room.config).map_err(corrupt)?;
        let tokens = serde_json::to_string(&room.tokens).map_err(corrupt)?;
        let (id, created, seed, status, revision) = (
            room.id.clone(),
            room.created,
            room.seed as i64,
            room.status.as_str(),
            room.rules_revision,
        );
        self.writer
            .call(move |conn| {
                conn.execute(
                    "INSERT INTO rooms (id, created, config, tokens, seed, status, rules_revision) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![id, created, config, tokens, seed, status, revision],
                )?;
                Ok(())
            })
            .await
    }

    async fn set_config(
        &self,
        room: &str,
        config: &RoomConfig,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let config = serde_json::to_string(config).map_err(corrupt)?;
        let (room, fence) = (room.to_string(), fence.cloned());
        self.writer
            .call(move |conn| {
                update_room(
                    conn,
                    &room,
                    "config = ?2",
                    vec![Value::Text(config)],
                    fence.as_ref(),
                )
            })
            .await
    }

    async fn set_finished(
        &self,
        room: &str,
        at: i64,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let (room, fence) = (room.to_string(), fence.cloned());
        self.writer
            .call(move |conn| {
                let values = vec![
                    Value::Text(RoomStatus::Finished.as_str().into()),
                    Value::Integer(at),
                ];
                update_room(
                    conn,
                    &room,
                    "status = ?2, finished = ?3",
                    values,
                    fence.as_ref(),
                )
            })
            .await
    }

    async fn set_status(
        &self,
        room: &str,
        status: RoomStatus,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let (room, fence) = (room.to_string(), fence.cloned());
        self.writer
            .call(move |conn| {
                let values = vec![Value::Text(status.as_str().into())];
                update_room(conn, &room, "status = ?2", values, fence.as_ref())
            })
            .await
    }

    /// Appends an accepted action to a room's match log (see [`Store::append_action`]).
    async fn append_action(
        &self,
        room: &str,
        a: &StoredAction,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let action = serde_json::to_string(&a.action).map_err(corrupt)?;
        let (room, a, fence) = (room.to_string(), *a, fence.cloned());
        self.writer
            .call(move |conn| append(conn, &room, &a, &action, fence.as_ref()))
            .await
    }

    /// Every room, oldest first.
    async fn rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.rooms_where("r ORDER BY created, id".into(), Vec::new())
            .await
    }

    async fn unfinished_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.rooms_where(
            "r WHERE status <> 'finished' ORDER BY created, id".into(),
            Vec::new(),
        )
        .await
    }

    async fn orphan_rooms(&self, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        self.rooms_where(
            format!(
                "r LEFT JOIN leases l ON l.room = r.id
                 WHERE r.status <> 'finished' AND (
                     l.expires <= {NOW_MS}
                     OR (l.room IS NULL AND r.status <> 'waiting' AND NOT EXISTS (
                         SELECT 1 FROM json_each(r.config, '$.seats') s
                         WHERE NOT COALESCE(json_extract(s.value, '$.bot'), 0))))
                 ORDER BY r.created, r.id LIMIT ?1"
            ),
            vec![Value::Integer(limit as i64)],
        )
        .await
    }

    async fn rooms_leased_elsewhere(
        &self,
        node: &str,
        limit: u64,
    ) -> Result<Vec<StoredRoom>, StoreError> {
        self.rooms_where(
            format!(
                "r JOIN leases l ON l.room = r.id
                 WHERE r.status <> 'finished' AND l.owner <> ?1 AND l.expires > {NOW_MS}
                 ORDER BY r.created DESC, r.id LIMIT ?2"
            ),
            vec![Value::Text(node.to_string()), Value::Integer(limit as i64)],
        )
        .await
    }

    async fn delete_waiting_room(&self, id: &str, node: Option<&str>) -> Result<bool, StoreError> {
        let (id, node) = (id.to_string(), node.map(str::to_string));
        // One job: its savepoint makes the check and the deletes one step. Another node's
        // lease keeps the room.
        self.writer
            .call(move |conn| {
                let waiting = conn
                    .prepare_cached(
                        "SELECT 1 FROM rooms WHERE id = ?1 AND status = 'waiting'
                         AND NOT EXISTS (SELECT 1 FROM actions WHERE room = ?1)
                         AND (?2 IS NULL
                              OR NOT EXISTS (SELECT 1 FROM leases WHERE room = ?1 AND owner <> ?2))",
                    )?
                    .exists(params![id, node])?;
                if waiting {
                    conn.execute("DELETE FROM leases WHERE room = ?1", [&id])?;
                    conn.execute("DELETE FROM rooms WHERE id = ?1", [&id])?;
                }
                Ok(waiting)
            })
            .await
    }

    async fn finished_rooms(&self, offset: u64, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        self.rooms_where(
            "r WHERE status = 'finished' ORDER BY finished IS NULL, finished DESC, id LIMIT ?1 OFFSET ?2".into(),
            vec![Value::Integer(limit as i64), Value::Integer(offset as i64)],
        )
        .await
    }

    async fn finished_count(&self) -> Result<u64, StoreError> {
        self.writer
            .call(|conn| {
                let n: i64 = conn.query_row(
                    "SELECT count(*) FROM rooms WHERE status = 'finished'",
                    [],
                    |r| r.get(0),
                )?;
                Ok(n as u64)
            })
            .await
    }

    /// One room.
    async fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let id = id.to_string();
        self.writer
            .call(move |conn| {
                conn.prepare_cached(
                    "SELECT id, config, tokens, seed, status, created, finished, rules_revision FROM rooms WHERE id = ?1",
                )?
                .query_row([id], row_to_room)
                .optional()?
                .transpose()
            })
            .await
    }

    /// A room's actions in order.
    async fn actions(&self, room: &str) -> Result<Vec<StoredAction>, StoreError> {
        let room = room.to_string();
        self.writer
            .call(move |conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT seq, player, action FROM actions WHERE room = ?1 ORDER BY seq",
                )?;
                let rows = stmt.query_map([room], |row| {
                    let seq: i64 = row.get(0)?;
                    let player: u8 = row.get(1)?;
                    let action: String = row.get(2)?;
                    Ok((seq, player, action))
                })?;
                let mut out = Vec::new();
                for r in rows {
                    let (seq, player, action) = r?;
                    let action: Action = serde_json::from_str(&action).map_err(corrupt)?;
                    out.push(StoredAction {
                        seq: seq as u64,
                        player: Player(player),
                        action,
                    });
                }
                Ok(out)
            })
            .await
    }

    async fn acquire_lease(
        &self,
        room: &str,
        node: &str,
        lease_ms: u64,
    ) -> Result<Acquired, StoreError> {
        let (room, node) = (room.to_string(), node.to_string());
        // One job: its savepoint makes the new epoch and the lease one step.
        self.writer
            .call(move |conn| {
                let epoch: i64 = conn.query_row(
                    "UPDATE lease_epochs SET last = last + 1 RETURNING last",
                    [],
                    |r| r.get(0),
                )?;
                let taken: Option<i64> = conn
                    .query_row(
                        &format!(
                            "INSERT INTO leases (room, owner, expires, epoch) VALUES (?1, ?2, {NOW_MS} + ?3, ?4)
                             ON CONFLICT (room) DO UPDATE
                             SET owner = excluded.owner, expires = excluded.expires, epoch = excluded.epoch
                             WHERE leases.owner = excluded.owner OR leases.expires <= {NOW_MS}
                             RETURNING epoch"
                        ),
                        params![room, node, lease_ms as i64, epoch],
                        |r| r.get(0),
                    )
                    .optional()?;
                Ok(match taken {
                    Some(epoch) => Acquired::Held(Fence { node, epoch }),
                    None => {
                        let holder: Option<String> = conn
                            .query_row(
                                "SELECT COALESCE(n.url, l.owner) FROM leases l
                                 LEFT JOIN nodes n ON n.name = l.owner WHERE l.room = ?1",
                                [&room],
                                |r| r.get(0),
                            )
                            .optional()?;
                        Acquired::Elsewhere(holder.unwrap_or_default())
                    }
                })
            })
            .await
    }

    async fn renew_leases(&self, node: &str, lease_ms: u64) -> Result<Vec<String>, StoreError> {
        let node = node.to_string();
        self.writer
            .call(move |conn| {
                let mut stmt = conn.prepare_cached(&format!(
                    "UPDATE leases SET expires = {NOW_MS} + ?2 WHERE owner = ?1 RETURNING room"
                ))?;
                let rooms = stmt
                    .query_map(params![node, lease_ms as i64], |r| r.get(0))?
                    .collect::<Result<Vec<String>, _>>()?;
                Ok(rooms)
            })
            .await
    }

    async fn release_lease(&self, room: &str, node: &str) -> Result<(), StoreError> {
        let (room, node) = (room.to_string(), node.to_string());
        self.writer
            .call(move |conn| {
                conn.execute(
                    "DELETE FROM leases WHERE room = ?1 AND owner = ?2",
                    params![room, node],
                )?;
                Ok(())
            })
            .await
    }

    async fn lease(&self, room: &str) -> Result<Option<Lease>, StoreError> {
        let room = room.to_string();
        self.writer
            .call(move |conn| {
                Ok(conn
                    .prepare_cached(&format!(
                        "SELECT {LEASE_COLUMNS} FROM {LEASES_NAMED} WHERE l.room = ?1"
                    ))?
                    .query_row([room], row_to_lease)
                    .optional()?
                    .map(|(_, l)| l))
            })
            .await
    }

    async fn leases(&self) -> Result<Vec<(String, Lease)>, StoreError> {
        self.writer
            .call(|conn| {
                let mut stmt =
                    conn.prepare(&format!("SELECT {LEASE_COLUMNS} FROM {LEASES_NAMED}"))?;
                let leases = stmt
                    .query_map([], row_to_lease)?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(leases)
            })
            .await
    }

    async fn claim_node(
        &self,
        name: &str,
        instance: &str,
        url: &str,
        lease_ms: u64,
    ) -> Result<NodeClaim, StoreError> {
        let (name, instance, url) = (name.to_string(), instance.to_string(), url.to_string());
        self.writer
            .call(move |conn| {
                let granted = conn
                    .prepare_cached(&format!(
                        "INSERT INTO nodes (name, instance, url, expires)
                         VALUES (?1, ?2, ?3, {NOW_MS} + ?4)
                         ON CONFLICT (name) DO UPDATE
                         SET instance = excluded.instance, url = excluded.url,
                             expires = excluded.expires
                         WHERE nodes.instance = excluded.instance OR nodes.expires <= {NOW_MS}
                         RETURNING 1"
                    ))?
                    .exists(params![name, instance, url, lease_ms as i64])?;
                if granted {
                    return Ok(NodeClaim::Granted);
                }
                let url: Option<String> = conn
                    .query_row("SELECT url FROM nodes WHERE name = ?1", [&name], |r| {
                        r.get(0)
                    })
                    .optional()?;
                Ok(NodeClaim::Taken {
                    url: url.unwrap_or_default(),
                })
            })
            .await
    }

    async fn release_node(&self, name: &str, instance: &str) -> Result<(), StoreError> {
        let (name, instance) = (name.to_string(), instance.to_string());
        self.writer
            .call(move |conn| {
                conn.execute(
                    "DELETE FROM nodes WHERE name = ?1 AND instance = ?2",
                    params![name, instance],
                )?;
                Ok(())
            })
            .await
    }

    async fn put_ledger(&self, id: &str, doc: &str) -> Result<(), StoreError> {
        let (id, doc) = (id.to_string(), doc.to_string());
        self.writer
            .call(move |conn| {
                conn.execute(
                    "INSERT INTO ledgers (id, doc) VALUES (?1, ?2)
                     ON CONFLICT(id) DO UPDATE SET doc = excluded.doc",
                    params![id, doc],
                )?;
                Ok(())
            })
            .await
    }

    async fn replace_ledger(&self, id: &str, was: &str, doc: &str) -> Result<bool, StoreError> {
        let (id, was, doc) = (id.to_string(), was.to_string(), doc.to_string());
        self.writer
            .call(move |conn| {
                let changed = conn.execute(
                    "UPDATE ledgers SET doc = ?3 WHERE id = ?1 AND doc = ?2",
                    params![id, was, doc],
                )?;
                Ok(changed == 1)
            })
            .await
    }

    async fn ledger(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.writer
            .call(move |conn| {
                Ok(conn
                    .query_row("SELECT doc FROM ledgers WHERE id = ?1", params![id], |r| {
                        r.get(0)
                    })
                    .optional()?)
            })
            .await
    }
}

type RoomRow = Result<StoredRoom, StoreError>;

fn row_to_room(row: &rusqlite::Row<'_>) -> rusqlite::Result<RoomRow> {
    let config: String = row.get(1)?;
    let tokens: String = row.get(2)?;
    let status: String = row.get(4)?;
    Ok(StoredRoom::from_columns(
        row.get(0)?,
        &config,
        &tokens,
        row.get(3)?,
        &status,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
    ))
}
