//! The PostgreSQL engine: `tokio-postgres` connections from a `deadpool-postgres` pool, so
//! several server processes (and every room task of each) share one database. The schema is
//! versioned in `migrations/postgres/` and applied at connect.

use super::{
    Acquired, Fence, Lease, NodeClaim, Store, StoreError, StoredAction, StoredRoom, corrupt,
    duplicate, redact, refused, storable,
};
use crate::protocol::{RoomConfig, RoomStatus};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use majiang::table::{Action, Player};
use std::str::FromStr;
use tokio_postgres::NoTls;
use tokio_postgres::error::SqlState;

/// The schema, one migration a step, applied in order; the version applied last is kept in
/// `schema_migrations`. A migration once released is never edited: a change is a new file.
///
/// Hand-written rather than `refinery`: ten lines, and it takes an advisory lock so that
/// several processes starting at once against one database apply each step exactly once.
const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        include_str!("../../migrations/postgres/0001_rooms_and_actions.sql"),
    ),
    (2, include_str!("../../migrations/postgres/0002_leases.sql")),
    (
        3,
        include_str!("../../migrations/postgres/0003_ledgers.sql"),
    ),
    (
        4,
        include_str!("../../migrations/postgres/0004_lease_epochs.sql"),
    ),
    (
        5,
        include_str!("../../migrations/postgres/0005_unfinished_rooms.sql"),
    ),
    (6, include_str!("../../migrations/postgres/0006_nodes.sql")),
    (
        7,
        include_str!("../../migrations/postgres/0007_rooms_rules_revision.sql"),
    ),
];

/// The advisory lock the migrations are applied under ("majiang" in ASCII; any number would do).
const MIGRATION_LOCK: i64 = 0x006d_616a_6961_6e67;

/// The database clock in milliseconds since the Unix epoch, for leases.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Most connections one process keeps open.
const POOL_SIZE: usize = 16;

/// A PostgreSQL database.
pub struct PgStore {
    pool: Pool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("pool", &self.pool.status())
            .finish()
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user@host:port/name`) and brings its
    /// schema up to date.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let config = tokio_postgres::Config::from_str(url).map_err(|e| StoreError::BadUrl {
            url: redact(url),
            message: e.to_string(),
        })?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(|e| StoreError::Pool(e.to_string()))?;
        let store = PgStore { pool };
        store.migrate().await?;
        Ok(store)
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(e) => StoreError::Postgres(e),
            e => StoreError::Pool(e.to_string()),
        })
    }

    /// Applies the migrations the database lacks, each in a transaction.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        )
        .await?;
        let applied: Option<i32> = tx
            .query_one("SELECT max(version) FROM schema_migrations", &[])
            .await?
            .get(0);
        for (version, sql) in MIGRATIONS {
            if applied.is_some_and(|a| a >= *version) {
                continue;
            }
            tx.batch_execute(sql).await?;
            tx.execute(
                "INSERT INTO schema_migrations (version) VALUES ($1)",
                &[version],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql).await?;
        Ok(client.execute(&stmt, params).await?)
    }

    async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql).await?;
        Ok(client.query(&stmt, params).await?)
    }
}

const ROOM_COLUMNS: &str = "id, config, tokens, seed, status, created, finished, rules_revision";
/// The same columns of `rooms r` in a join.
const R_COLUMNS: &str =
    "r.id, r.config, r.tokens, r.seed, r.status, r.created, r.finished, r.rules_revision";

fn row_to_room(row: &tokio_postgres::Row) -> Result<StoredRoom, StoreError> {
    let config: String = row.try_get(1)?;
    let tokens: String = row.try_get(2)?;
    let status: String = row.try_get(4)?;
    StoredRoom::from_columns(
        row.try_get(0)?,
        &config,
        &tokens,
        row.try_get(3)?,
        &status,
        row.try_get(5)?,
        row.try_get(6)?,
        row.try_get::<_, Option<i32>>(7)?.map(i64::from),
    )
}

/// A lease's columns (room, owner, live, epoch, public URL) from [`LEASES_NAMED`].
const LEASE_COLUMNS: &str = "l.room, l.owner, l.expires > (extract(epoch from clock_timestamp()) * 1000)::bigint, l.epoch, COALESCE(n.url, l.owner)";
/// The leases with their owners' public URLs.
const LEASES_NAMED: &str = "leases l LEFT JOIN nodes n ON n.name = l.owner";

fn row_to_lease(r: &tokio_postgres::Row) -> Result<(String, Lease), StoreError> {
    Ok((
        r.try_get(0)?,
        Lease {
            owner: r.try_get(1)?,
            live: r.try_get(2)?,
            epoch: r.try_get(3)?,
            url: r.try_get(4)?,
        },
    ))
}

/// Whether `f.node` holds `room`'s lease of epoch `f.epoch` (expired or not).
async fn lease_is(
    client: &deadpool_postgres::Object,
    room: &str,
    f: &Fence,
) -> Result<bool, StoreError> {
    let stmt = client
        .prepare_cached("SELECT 1 FROM leases WHERE room = $1 AND owner = $2 AND epoch = $3")
        .await?;
    Ok(!client
        .query(&stmt, &[&room, &f.node, &f.epoch])
        .await?
        .is_empty())
}

impl PgStore {
    /// `UPDATE rooms SET {set} WHERE id = $1`, `values` being `$2`…; with a `fence`, only
    /// while the fence's node holds the room's lease with its epoch, unexpired, checked in
    /// the same statement (the lease row locked until it commits, as an append does) and
    /// refused as an append is ([`refused`]).
    async fn update_room(
        &self,
        room: &str,
        set: &str,
        values: &[&(dyn tokio_postgres::types::ToSql + Sync)],
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&room];
        params.extend_from_slice(values);
        let Some(f) = fence else {
            self.execute(&format!("UPDATE rooms SET {set} WHERE id = $1"), &params)
                .await?;
            return Ok(());
        };
        let (node, epoch) = (params.len() + 1, params.len() + 2);
        params.push(&f.node);
        params.push(&f.epoch);
        let sql = format!(
            "UPDATE rooms SET {set} WHERE id = $1 AND EXISTS (
                 SELECT 1 FROM leases
                 WHERE room = $1 AND owner = ${node} AND epoch = ${epoch} AND expires > {NOW_MS}
                 FOR SHARE)"
        );
        let client = self.client().await?;
        let stmt = client.prepare_cached(&sql).await?;
        if client.execute(&stmt, &params).await? == 1 {
            return Ok(());
        }
        let mine = lease_is(&client, room, f).await?;
        Err(refused(room, mine))
    }
}

#[async_trait::async_trait]
impl Store for PgStore {
    fn engine(&self) -> &'static str {
        "postgres"
    }

    async fn ping(&self) -> Result<(), StoreError> {
        self.query("SELECT 1", &[]).await?;
        Ok(())
    }

    async fn create_room(&self, room: &StoredRoom) -> Result<(), StoreError> {
        let config = serde_json::to_string(&room.config).map_err(corrupt)?;
        let tokens = serde_json::to_string(&room.tokens).map_err(corrupt)?;
        // INTEGER column: a revision past i32 is refused, not wrapped.
        let revision = room
            .rules_revision
            .map(|r| {
                i32::try_from(r).map_err(|_| StoreError::Corrupt(format!("rules revision {r}")))
            })
            .transpose()?;
        self.execute(
            "INSERT INTO rooms (id, created, config, tokens, seed, status, rules_revision) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[&room.id, &room.created, &config, &tokens, &(room.seed as i64), &room.status.as_str(), &revision],
        )
        .await?;
        Ok(())
    }

    async fn set_config(
        &self,
        room: &str,
        config: &RoomConfig,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let config = serde_json::to_string(config).map_err(corrupt)?;
        self.update_room(room, "config = $2", &[&config], fence)
            .await
    }

    async fn set_finished(
        &self,
        room: &str,
        at: i64,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        self.update_room(
            room,
            "status = $2, finished = $3",
            &[&RoomStatus::Finished.as_str(), &at],
            fence,
        )
        .await
    }

    async fn set_status(
        &self,
        room: &str,
        status: RoomStatus,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        self.update_room(room, "status = $2", &[&status.as_str()], fence)
            .await
    }

    async fn append_action(
        &self,
        room: &str,
        a: &StoredAction,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let action = serde_json::to_string(&a.action).map_err(corrupt)?;
        let (seq, player) = (a.seq as i64, i16::from(a.player.0));
        let client = self.client().await?;
        let written = match fence {
            None => {
                let stmt = client
                    .prepare_cached(
                        "INSERT INTO actions (room, seq, player, action) VALUES ($1, $2, $3, $4)",
                    )
                    .await?;
                client
                    .execute(&stmt, &[&room, &seq, &player, &action])
                    .await
            }
            Some(f) => {
                // The lease row is locked (FOR SHARE) until the insert commits: a takeover's
                // update of it waits for this write (and then sees it when it reads the log),
                // and a write after a takeover sees the new owner and epoch and inserts nothing.
                let sql = format!(
                    "INSERT INTO actions (room, seq, player, action)
                     SELECT $1, $2, $3, $4 WHERE EXISTS (
                         SELECT 1 FROM leases
                         WHERE room = $1 AND owner = $5 AND epoch = $6 AND expires > {NOW_MS}
                         FOR SHARE)"
                );
                let stmt = client.prepare_cached(&sql).await?;
                client
                    .execute(&stmt, &[&room, &seq, &player, &action, &f.node, &f.epoch])
                    .await
            }
        };
        match written {
            Ok(1) => Ok(()),
            Ok(_) => {
                let mine = match fence {
                    Some(f) => lease_is(&client, room, f).await?,
                    None => false,
                };
                Err(refused(room, mine))
            }
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                // A try of this very write that timed out may have landed after all (the
                // database was frozen, then ran it).
                let stmt = client
                    .prepare_cached(
                        "SELECT 1 FROM actions WHERE room = $1 AND seq = $2 AND player = $3
                         AND action = $4",
                    )
                    .await?;
                let same = !client
                    .query(&stmt, &[&room, &seq, &player, &action])
                    .await?
                    .is_empty();
                let holds = match fence {
                    Some(f) => lease_is(&client, room, f).await?,
                    None => true,
                };
                duplicate(room, a.seq, same, holds)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        let sql = format!("SELECT {ROOM_COLUMNS} FROM rooms ORDER BY created, id");
        self.query(&sql, &[])
            .await?
            .iter()
            .map(row_to_room)
            .collect()
    }

    async fn unfinished_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        let sql = format!(
            "SELECT {ROOM_COLUMNS} FROM rooms WHERE status <> 'finished' ORDER BY created, id"
        );
        self.query(&sql, &[])
            .await?
            .iter()
            .map(row_to_room)
            .collect()
    }

    async fn orphan_rooms(&self, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        let sql = format!(
            "SELECT {R_COLUMNS} FROM rooms r LEFT JOIN leases l ON l.room = r.id
             WHERE r.status <> 'finished' AND (
                 l.expires <= {NOW_MS}
                 OR (l.room IS NULL AND r.status <> 'waiting' AND NOT EXISTS (
                     SELECT 1 FROM jsonb_array_elements(r.config::jsonb -> 'seats') s
                     WHERE NOT COALESCE((s ->> 'bot')::boolean, false))))
             ORDER BY r.created, r.id LIMIT $1"
        );
        self.query(&sql, &[&(limit as i64)])
            .await?
            .iter()
            .map(row_to_room)
            .collect()
    }

    async fn rooms_leased_elsewhere(
        &self,
        node: &str,
        limit: u64,
    ) -> Result<Vec<StoredRoom>, StoreError> {
        let sql = format!(
            "SELECT {R_COLUMNS} FROM rooms r JOIN leases l ON l.room = r.id
             WHERE r.status <> 'finished' AND l.owner <> $1 AND l.expires > {NOW_MS}
             ORDER BY r.created DESC, r.id LIMIT $2"
        );
        self.query(&sql, &[&node, &(limit as i64)])
            .await?
            .iter()
            .map(row_to_room)
            .collect()
    }

    async fn delete_waiting_room(&self, id: &str, node: Option<&str>) -> Result<bool, StoreError> {
        if !storable(id) {
            return Ok(false);
        }
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // Locks the room row: a start racing with this either comes first (and nothing is
        // deleted) or waits and finds no room. Another node's lease keeps the room.
        let waiting = !tx
            .query(
                "SELECT 1 FROM rooms WHERE id = $1 AND status = 'waiting'
                 AND NOT EXISTS (SELECT 1 FROM actions WHERE room = $1)
                 AND ($2::text IS NULL
                      OR NOT EXISTS (SELECT 1 FROM leases WHERE room = $1 AND owner <> $2))
                 FOR UPDATE",
                &[&id, &node],
            )
            .await?
            .is_empty();
        if waiting {
            tx.execute("DELETE FROM leases WHERE room = $1", &[&id])
                .await?;
            tx.execute("DELETE FROM rooms WHERE id = $1", &[&id])
                .await?;
        }
        tx.commit().await?;
        Ok(waiting)
    }

    async fn finished_rooms(&self, offset: u64, limit: u64) -> Result<Vec<StoredRoom>, StoreError> {
        let sql = format!(
            "SELECT {ROOM_COLUMNS} FROM rooms WHERE status = 'finished'
             ORDER BY finished DESC NULLS LAST, id LIMIT $1 OFFSET $2"
        );
        self.query(&sql, &[&(limit as i64), &(offset as i64)])
            .await?
            .iter()
            .map(row_to_room)
            .collect()
    }

    async fn finished_count(&self) -> Result<u64, StoreError> {
        let rows = self
            .query("SELECT count(*) FROM rooms WHERE status = 'finished'", &[])
            .await?;
        let n: i64 = rows.first().map(|r| r.try_get(0)).transpose()?.unwrap_or(0);
        Ok(n as u64)
    }

    async fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        let sql = format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE id = $1");
        self.query(&sql, &[&id])
            .await?
            .first()
            .map(row_to_room)
            .transpose()
    }

    async fn actions(&self, room: &str) -> Result<Vec<StoredAction>, StoreError> {
        if !storable(room) {
            return Ok(Vec::new());
        }
        let rows = self
            .query(
                "SELECT seq, player, action FROM actions WHERE room = $1 ORDER BY seq",
                &[&room],
            )
            .await?;
        rows.iter()
            .map(|row| {
                let seq: i64 = row.try_get(0)?;
                let player: i16 = row.try_get(1)?;
                let action: String = row.try_get(2)?;
                let action: Action = serde_json::from_str(&action).map_err(corrupt)?;
                let player = u8::try_from(player)
                    .map_err(|_| StoreError::Corrupt(format!("player {player}")))?;
                Ok(StoredAction {
                    seq: seq as u64,
                    player: Player(player),
                    action,
                })
            })
            .collect()
    }

    async fn acquire_lease(
        &self,
        room: &str,
        node: &str,
        lease_ms: u64,
    ) -> Result<Acquired, StoreError> {
        let sql = format!(
            "INSERT INTO leases (room, owner, expires, epoch)
             VALUES ($1, $2, {NOW_MS} + $3, nextval('lease_epochs'))
             ON CONFLICT (room) DO UPDATE
             SET owner = excluded.owner, expires = excluded.expires, epoch = excluded.epoch
             WHERE leases.owner = excluded.owner OR leases.expires <= {NOW_MS}
             RETURNING epoch"
        );
        let taken = self
            .query(&sql, &[&room, &node, &(lease_ms as i64)])
            .await?;
        if let Some(row) = taken.first() {
            return Ok(Acquired::Held(Fence {
                node: node.to_string(),
                epoch: row.try_get(0)?,
            }));
        }
        let holder = self
            .query(
                "SELECT COALESCE(n.url, l.owner) FROM leases l
                 LEFT JOIN nodes n ON n.name = l.owner WHERE l.room = $1",
                &[&room],
            )
            .await?;
        Ok(Acquired::Elsewhere(
            holder
                .first()
                .map(|r| r.try_get(0))
                .transpose()?
                .unwrap_or_default(),
        ))
    }

    async fn renew_leases(&self, node: &str, lease_ms: u64) -> Result<Vec<String>, StoreError> {
        let sql =
            format!("UPDATE leases SET expires = {NOW_MS} + $2 WHERE owner = $1 RETURNING room");
        self.query(&sql, &[&node, &(lease_ms as i64)])
            .await?
            .iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect()
    }

    async fn release_lease(&self, room: &str, node: &str) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM leases WHERE room = $1 AND owner = $2",
            &[&room, &node],
        )
        .await?;
        Ok(())
    }

    async fn lease(&self, room: &str) -> Result<Option<Lease>, StoreError> {
        if !storable(room) {
            return Ok(None);
        }
        let sql = format!("SELECT {LEASE_COLUMNS} FROM {LEASES_NAMED} WHERE l.room = $1");
        self.query(&sql, &[&room])
            .await?
            .first()
            .map(|r| row_to_lease(r).map(|(_, l)| l))
            .transpose()
    }

    async fn leases(&self) -> Result<Vec<(String, Lease)>, StoreError> {
        let sql = format!("SELECT {LEASE_COLUMNS} FROM {LEASES_NAMED}");
        self.query(&sql, &[])
            .await?
            .iter()
            .map(row_to_lease)
            .collect()
    }

    async fn claim_node(
        &self,
        name: &str,
        instance: &str,
        url: &str,
        lease_ms: u64,
    ) -> Result<NodeClaim, StoreError> {
        let sql = format!(
            "INSERT INTO nodes (name, instance, url, expires) VALUES ($1, $2, $3, {NOW_MS} + $4)
             ON CONFLICT (name) DO UPDATE
             SET instance = excluded.instance, url = excluded.url, expires = excluded.expires
             WHERE nodes.instance = excluded.instance OR nodes.expires <= {NOW_MS}
             RETURNING 1"
        );
        if !self
            .query(&sql, &[&name, &instance, &url, &(lease_ms as i64)])
            .await?
            .is_empty()
        {
            return Ok(NodeClaim::Granted);
        }
        let holder = self
            .query("SELECT url FROM nodes WHERE name = $1", &[&name])
            .await?;
        Ok(NodeClaim::Taken {
            url: holder
                .first()
                .map(|r| r.try_get(0))
                .transpose()?
                .unwrap_or_default(),
        })
    }

    async fn release_node(&self, name: &str, instance: &str) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM nodes WHERE name = $1 AND instance = $2",
            &[&name, &instance],
        )
        .await?;
        Ok(())
    }

    async fn put_ledger(&self, id: &str, doc: &str) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO ledgers (id, doc) VALUES ($1, $2)
             ON CONFLICT (id) DO UPDATE SET doc = excluded.doc",
            &[&id, &doc],
        )
        .await?;
        Ok(())
    }

    async fn replace_ledger(&self, id: &str, was: &str, doc: &str) -> Result<bool, StoreError> {
        if !storable(id) {
            return Ok(false);
        }
        let changed = self
            .execute(
                "UPDATE ledgers SET doc = $3 WHERE id = $1 AND doc = $2",
                &[&id, &was, &doc],
            )
            .await?;
        Ok(changed == 1)
    }

    async fn ledger(&self, id: &str) -> Result<Option<String>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        self.query("SELECT doc FROM ledgers WHERE id = $1", &[&id])
            .await?
            .first()
            .map(|r| Ok(r.try_get(0)?))
            .transpose()
    }
}
