//! Persistence in SQLite (WAL mode): rooms and the match log (seed, rule set, options and every
//! accepted action, in order). An action is written here before it is acknowledged; on start
//! the server rebuilds unfinished matches by replaying their actions.

use crate::protocol::{RoomConfig, RoomStatus};
use majiang::table::{Action, Player};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;

/// A storage error, with SQLite's message.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored value did not parse.
    #[error("database holds a bad value: {0}")]
    Corrupt(String),
}

/// One stored room.
#[derive(Debug, Clone)]
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

/// The database.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` in WAL mode.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        Store::init(conn)
    }

    /// An in-memory database (tests, benchmarks).
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
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
        conn.execute_batch(LEDGERS_TABLE)?; // the table companion's ledgers (block below)
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent (every write is one
        // statement or transaction), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new room.
    pub fn create_room(&self, room: &StoredRoom) -> Result<(), StoreError> {
        let config = serde_json::to_string(&room.config).map_err(corrupt)?;
        let tokens = serde_json::to_string(&room.tokens).map_err(corrupt)?;
        self.conn().execute(
            "INSERT INTO rooms (id, created, config, tokens, seed, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![room.id, room.created, config, tokens, room.seed as i64, room.status.as_str()],
        )?;
        Ok(())
    }

    /// Replaces a room's settings (its seats filled with bots at the start).
    pub fn set_config(&self, room: &str, config: &RoomConfig) -> Result<(), StoreError> {
        let config = serde_json::to_string(config).map_err(corrupt)?;
        self.conn().execute(
            "UPDATE rooms SET config = ?2 WHERE id = ?1",
            params![room, config],
        )?;
        Ok(())
    }

    /// Marks a room's match finished at `at` (milliseconds since the Unix epoch).
    pub fn set_finished(&self, room: &str, at: i64) -> Result<(), StoreError> {
        self.conn().execute(
            "UPDATE rooms SET status = ?2, finished = ?3 WHERE id = ?1",
            params![room, RoomStatus::Finished.as_str(), at],
        )?;
        Ok(())
    }

    /// Sets a room's status.
    pub fn set_status(&self, room: &str, status: RoomStatus) -> Result<(), StoreError> {
        self.conn().execute(
            "UPDATE rooms SET status = ?2 WHERE id = ?1",
            params![room, status.as_str()],
        )?;
        Ok(())
    }

    /// Appends an accepted action to a room's match log.
    pub fn append_action(&self, room: &str, a: &StoredAction) -> Result<(), StoreError> {
        let action = serde_json::to_string(&a.action).map_err(corrupt)?;
        self.conn().execute(
            "INSERT INTO actions (room, seq, player, action) VALUES (?1, ?2, ?3, ?4)",
            params![room, a.seq as i64, a.player.0, action],
        )?;
        Ok(())
    }

    /// Every room, oldest first.
    pub fn rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id, config, tokens, seed, status, created, finished FROM rooms ORDER BY created, id")?;
        let rows = stmt.query_map([], row_to_room)?;
        let mut out = Vec::new();
        for r in rows {
            out.push(r??);
        }
        Ok(out)
    }

    /// One room.
    pub fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let conn = self.conn();
        let r = conn
            .query_row(
                "SELECT id, config, tokens, seed, status, created, finished FROM rooms WHERE id = ?1",
                [id],
                row_to_room,
            )
            .optional()?;
        r.transpose()
    }

    /// A room's actions in order.
    pub fn actions(&self, room: &str) -> Result<Vec<StoredAction>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT seq, player, action FROM actions WHERE room = ?1 ORDER BY seq")?;
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
    }
}

type RoomRow = Result<StoredRoom, StoreError>;

fn row_to_room(row: &rusqlite::Row<'_>) -> rusqlite::Result<RoomRow> {
    let id: String = row.get(0)?;
    let config: String = row.get(1)?;
    let tokens: String = row.get(2)?;
    let seed: i64 = row.get(3)?;
    let status: String = row.get(4)?;
    let created: i64 = row.get(5)?;
    let finished: Option<i64> = row.get(6)?;
    Ok((|| {
        Ok(StoredRoom {
            id,
            config: serde_json::from_str(&config).map_err(corrupt)?,
            tokens: serde_json::from_str(&tokens).map_err(corrupt)?,
            seed: seed as u64,
            status: RoomStatus::parse(&status)
                .ok_or_else(|| StoreError::Corrupt(format!("room status {status:?}")))?,
            created,
            finished,
        })
    })())
}

fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

// ---- Ledgers of the table companion (issue 22) --------------------------------------------
// One JSON document per ledger (players, rule set, house rules, the recorded hands), written
// whole and read whole; `companion::ledger` owns its shape. Nothing else in this file knows it.

/// The ledgers table: one JSON document per ledger.
const LEDGERS_TABLE: &str = "CREATE TABLE IF NOT EXISTS ledgers (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
);";

impl Store {
    /// Stores the ledger `id` as the JSON document `json`, replacing any earlier version.
    pub fn put_ledger(&self, id: &str, json: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO ledgers (id, doc) VALUES (?1, ?2)
             ON CONFLICT(id) DO UPDATE SET doc = excluded.doc",
            params![id, json],
        )?;
        Ok(())
    }

    /// The JSON document of the ledger `id`, if there is one.
    pub fn ledger(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT doc FROM ledgers WHERE id = ?1", params![id], |r| {
                r.get(0)
            })
            .optional()?)
    }
}
// ---- end of the ledgers block ------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_and_actions_round_trip() {
        let s = Store::in_memory().unwrap();
        let room = StoredRoom {
            id: "r1".into(),
            config: RoomConfig::default(),
            tokens: vec![Some("t".into()), None, None, None],
            seed: u64::MAX - 3,
            status: RoomStatus::Waiting,
            created: 1,
            finished: None,
        };
        s.create_room(&room).unwrap();
        s.set_status("r1", RoomStatus::Playing).unwrap();
        let a = StoredAction {
            seq: 0,
            player: Player(2),
            action: Action::Discard("5m".parse().unwrap()),
        };
        s.append_action("r1", &a).unwrap();
        // The same seq twice is refused: the log has no duplicates.
        assert!(s.append_action("r1", &a).is_err());
        let back = s.room("r1").unwrap().unwrap();
        assert_eq!(back.seed, u64::MAX - 3);
        assert_eq!(back.status, RoomStatus::Playing);
        assert_eq!(back.tokens, room.tokens);
        assert_eq!(s.actions("r1").unwrap(), vec![a]);
        assert!(s.room("nope").unwrap().is_none());
        s.set_finished("r1", 77).unwrap();
        let back = s.room("r1").unwrap().unwrap();
        assert_eq!(
            (back.status, back.finished, back.created),
            (RoomStatus::Finished, Some(77), 1)
        );
    }
}
