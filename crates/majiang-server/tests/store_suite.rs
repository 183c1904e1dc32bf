//! One suite for every store engine: the same checks run against SQLite (in memory and a file)
//! and PostgreSQL (a throw-away cluster; skipped loudly when PostgreSQL is not installed). A
//! new store operation gets its check in `suite` and both engines run it.

use majiang_testkit::pg as pg_cluster;

use majiang::table::{Action, Player};
use majiang_server::protocol::{RoomConfig, RoomStatus};
use majiang_server::store::{
    self, Acquired, Fence, Lease, PgStore, SqliteStore, Store, StoreError, StoredAction, StoredRoom,
};
use std::sync::Arc;
use std::time::Duration;

fn room(id: &str, created: i64) -> StoredRoom {
    StoredRoom {
        id: id.into(),
        config: RoomConfig::default(),
        tokens: vec![Some("t".into()), None, None, None],
        seed: u64::MAX - 3,
        status: RoomStatus::Waiting,
        created,
        finished: None,
    }
}

/// Every store operation, as the server uses it.
async fn suite(s: Arc<dyn Store>) {
    rooms_and_actions(s.as_ref()).await;
    leases(s.as_ref()).await;
    fencing(s.as_ref()).await;
    ledgers(s.as_ref()).await;
}

/// The table companion's ledgers: one document per id, replaced whole, read back as written.
async fn ledgers(s: &dyn Store) {
    assert_eq!(s.ledger("g1").await.unwrap(), None, "{}", s.engine());
    s.put_ledger("g1", r#"{"hands":[]}"#).await.unwrap();
    s.put_ledger("g2", r#"{"players":["Ann","Bo"]}"#)
        .await
        .unwrap();
    s.put_ledger("g1", r#"{"hands":[1],"name":"财神"}"#)
        .await
        .unwrap();
    assert_eq!(
        s.ledger("g1").await.unwrap().as_deref(),
        Some(r#"{"hands":[1],"name":"财神"}"#)
    );
    assert_eq!(
        s.ledger("g2").await.unwrap().as_deref(),
        Some(r#"{"players":["Ann","Bo"]}"#)
    );
    // A conditional write lands only over the document the writer read: of two writers that
    // read the same version, the second is told, and its write is dropped.
    let read = s.ledger("g2").await.unwrap().unwrap();
    assert!(
        s.replace_ledger("g2", &read, r#"{"by":"first"}"#)
            .await
            .unwrap()
    );
    assert!(
        !s.replace_ledger("g2", &read, r#"{"by":"second"}"#)
            .await
            .unwrap()
    );
    assert_eq!(
        s.ledger("g2").await.unwrap().as_deref(),
        Some(r#"{"by":"first"}"#)
    );
    assert!(!s.replace_ledger("nope", "{}", "{}").await.unwrap());
}

async fn rooms_and_actions(s: &dyn Store) {
    s.ping().await.unwrap();
    let r1 = room("r1", 5);
    s.create_room(&r1).await.unwrap();
    // A room id is stored once.
    assert!(s.create_room(&r1).await.is_err(), "{}", s.engine());
    s.create_room(&room("r0", 1)).await.unwrap();
    s.set_status("r1", RoomStatus::Playing).await.unwrap();
    let a = StoredAction {
        seq: 0,
        player: Player(2),
        action: Action::Discard("5m".parse().unwrap()),
    };
    let b = StoredAction {
        seq: 1,
        player: Player(3),
        action: Action::Pass,
    };
    s.append_action("r1", &a, None).await.unwrap();
    // The same seq twice is refused: the log has no duplicates.
    assert!(s.append_action("r1", &a, None).await.is_err());
    s.append_action("r1", &b, None).await.unwrap();
    let back = s.room("r1").await.unwrap().unwrap();
    assert_eq!(back.seed, u64::MAX - 3);
    assert_eq!(back.status, RoomStatus::Playing);
    assert_eq!(back.tokens, r1.tokens);
    assert_eq!(s.actions("r1").await.unwrap(), vec![a, b]);
    assert!(s.actions("r0").await.unwrap().is_empty());
    assert!(s.room("nope").await.unwrap().is_none());
    // Oldest first.
    let ids: Vec<String> = s.rooms().await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(ids, ["r0", "r1"]);
    let config = RoomConfig {
        autostart: true,
        hands: Some(7),
        ..RoomConfig::default()
    };
    s.set_config("r1", &config).await.unwrap();
    assert_eq!(s.room("r1").await.unwrap().unwrap().config, config);
    s.set_finished("r1", 77).await.unwrap();
    let back = s.room("r1").await.unwrap().unwrap();
    assert_eq!(
        (back.status, back.finished, back.created),
        (RoomStatus::Finished, Some(77), 5)
    );
}

/// The fence of a lease `node` must have taken.
fn held(a: Acquired, node: &str) -> Fence {
    match a {
        Acquired::Held(f) => {
            assert_eq!(f.node, node);
            f
        }
        Acquired::Elsewhere(owner) => panic!("{node} did not get the lease: {owner} holds it"),
    }
}

async fn leases(s: &dyn Store) {
    s.create_room(&room("l1", 10)).await.unwrap();
    s.create_room(&room("l2", 11)).await.unwrap();
    let (a, b) = ("http://a:1", "http://b:2");
    assert_eq!(s.lease("l1").await.unwrap(), None);
    let first = held(s.acquire_lease("l1", a, 60_000).await.unwrap(), a);
    // Held by a: b is told who holds it; a acquiring again takes a new, greater epoch.
    assert_eq!(
        s.acquire_lease("l1", b, 60_000).await.unwrap(),
        Acquired::Elsewhere(a.to_string())
    );
    let again = held(s.acquire_lease("l1", a, 60_000).await.unwrap(), a);
    assert!(again.epoch > first.epoch, "{} epochs", s.engine());
    assert_eq!(
        s.lease("l1").await.unwrap(),
        Some(Lease {
            owner: a.into(),
            live: true,
            epoch: again.epoch,
        })
    );
    // A lease that ran out may be taken; its old holder no longer renews it.
    let l2a = held(s.acquire_lease("l2", a, 1).await.unwrap(), a);
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert!(!s.lease("l2").await.unwrap().unwrap().live);
    let l2b = held(s.acquire_lease("l2", b, 60_000).await.unwrap(), b);
    assert!(l2b.epoch > l2a.epoch);
    assert_eq!(s.renew_leases(a, 60_000).await.unwrap(), ["l1"]);
    assert_eq!(s.renew_leases(b, 60_000).await.unwrap(), ["l2"]);
    // Renewing keeps the epoch.
    assert_eq!(s.lease("l2").await.unwrap().unwrap().epoch, l2b.epoch);
    let mut all = s.leases().await.unwrap();
    all.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(
        all,
        [
            (
                "l1".to_string(),
                Lease {
                    owner: a.into(),
                    live: true,
                    epoch: again.epoch,
                }
            ),
            (
                "l2".to_string(),
                Lease {
                    owner: b.into(),
                    live: true,
                    epoch: l2b.epoch,
                }
            )
        ]
    );
    // Only the holder releases.
    s.release_lease("l1", b).await.unwrap();
    assert!(s.lease("l1").await.unwrap().is_some());
    s.release_lease("l1", a).await.unwrap();
    assert_eq!(s.lease("l1").await.unwrap(), None);
    assert!(s.renew_leases(a, 60_000).await.unwrap().is_empty());
    // Epochs grow across a release too.
    let after = held(s.acquire_lease("l1", b, 60_000).await.unwrap(), b);
    assert!(after.epoch > again.epoch);
    s.release_lease("l1", b).await.unwrap();
}

fn discard(seq: u64) -> StoredAction {
    StoredAction {
        seq,
        player: Player(0),
        action: Action::Discard("1p".parse().unwrap()),
    }
}

fn is_fenced(r: Result<(), StoreError>) -> bool {
    matches!(r, Err(StoreError::Fenced { ref room }) if room == "f1")
}

/// A write carrying a fence is accepted only while its node holds that epoch's lease,
/// unexpired; a stale owner's write is refused and leaves nothing behind.
async fn fencing(s: &dyn Store) {
    s.create_room(&room("f1", 20)).await.unwrap();
    let (a, b) = ("http://a:1", "http://b:2");
    // No lease at all: refused.
    let nobody = Fence {
        node: a.into(),
        epoch: 1,
    };
    assert!(is_fenced(
        s.append_action("f1", &discard(0), Some(&nobody)).await
    ));
    let fa = held(s.acquire_lease("f1", a, 150).await.unwrap(), a);
    s.append_action("f1", &discard(0), Some(&fa)).await.unwrap();
    // Another node's name with a's epoch, or a's name with another epoch: refused.
    let forged = Fence {
        node: b.into(),
        epoch: fa.epoch,
    };
    assert!(is_fenced(
        s.append_action("f1", &discard(1), Some(&forged)).await
    ));
    let old = Fence {
        node: a.into(),
        epoch: fa.epoch - 1,
    };
    assert!(is_fenced(
        s.append_action("f1", &discard(1), Some(&old)).await
    ));
    // a's lease runs out (a paused): its writes are refused even before anyone takes over.
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert!(is_fenced(
        s.append_action("f1", &discard(1), Some(&fa)).await
    ));
    // b takes over; a renewing finds nothing, and a's old fence stays refused.
    let fb = held(s.acquire_lease("f1", b, 60_000).await.unwrap(), b);
    assert!(fb.epoch > fa.epoch);
    assert!(s.renew_leases(a, 60_000).await.unwrap().is_empty());
    assert!(is_fenced(
        s.append_action("f1", &discard(1), Some(&fa)).await
    ));
    s.append_action("f1", &discard(1), Some(&fb)).await.unwrap();
    // A position stored already is a conflict (the writer's copy is stale), not a fence.
    assert!(matches!(
        s.append_action("f1", &discard(1), Some(&fb)).await,
        Err(StoreError::Conflict { ref room, seq: 1 }) if room == "f1"
    ));
    assert!(matches!(
        s.append_action("f1", &discard(0), None).await,
        Err(StoreError::Conflict { seq: 0, .. })
    ));
    // Only a's write under its live lease and b's are in the log.
    let seqs: Vec<u64> = s
        .actions("f1")
        .await
        .unwrap()
        .iter()
        .map(|x| x.seq)
        .collect();
    assert_eq!(seqs, [0, 1]);
    // a taking the room back (after b released it) gets a new epoch; b's old one is refused.
    s.release_lease("f1", b).await.unwrap();
    let fa2 = held(s.acquire_lease("f1", a, 60_000).await.unwrap(), a);
    assert!(fa2.epoch > fb.epoch);
    assert!(is_fenced(
        s.append_action("f1", &discard(2), Some(&fb)).await
    ));
    s.append_action("f1", &discard(2), Some(&fa2))
        .await
        .unwrap();
    s.release_lease("f1", a).await.unwrap();
}

#[tokio::test]
async fn sqlite_in_memory() {
    suite(Arc::new(SqliteStore::in_memory().unwrap())).await;
}

#[tokio::test]
async fn sqlite_file_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.sqlite");
    suite(store::open(path.to_str().unwrap()).await.unwrap()).await;
    let again = store::open(path.to_str().unwrap()).await.unwrap();
    assert_eq!(again.engine(), "sqlite");
    assert_eq!(again.rooms().await.unwrap().len(), 5);
    assert!(again.ledger("g1").await.unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let url = cluster.database("suite");
    // Several processes may start at once: the migrations are applied once.
    let (s, t) = tokio::join!(PgStore::connect(&url), PgStore::connect(&url));
    let (s, _t) = (s.unwrap(), t.unwrap());
    suite(Arc::new(s)).await;
    let again = store::open(&url).await.unwrap();
    assert_eq!(again.engine(), "postgres");
    assert_eq!(again.rooms().await.unwrap().len(), 5);
    // A bad address is a typed error with a message, not a panic.
    let bad = store::open("postgres://nobody@127.0.0.1:1/none").await;
    assert!(bad.is_err());
    let bad = store::open("postgres://x@/y?sslmode=nonsense").await;
    assert!(
        matches!(bad, Err(ref e) if e.to_string().contains("database address")),
        "{:?}",
        bad.err()
    );
}
