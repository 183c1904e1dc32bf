//! One suite for every store engine: the same checks run against SQLite (in memory and a file)
//! and PostgreSQL (a throw-away cluster; skipped loudly when PostgreSQL is not installed). A
//! new store operation gets its check in `suite` and both engines run it.

use majiang_testkit::pg as pg_cluster;

use majiang::table::log::RULES_REVISION;
use majiang::table::{Action, Player};
use majiang_server::protocol::{RoomConfig, RoomStatus, SeatConfig};
use majiang_server::store::{
    self, Acquired, Fence, Lease, NodeClaim, PgStore, SqliteStore, Store, StoreError, StoredAction,
    StoredRoom,
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
        rules_revision: Some(RULES_REVISION),
    }
}

/// Every store operation, as the server uses it.
async fn suite(s: Arc<dyn Store>) {
    rooms_and_actions(s.as_ref()).await;
    leases(s.as_ref()).await;
    fencing(s.as_ref()).await;
    room_row_fencing(s.as_ref()).await;
    lease_round_reads(s.as_ref()).await;
    waiting_rooms_expire(s.as_ref()).await;
    ledgers(s.as_ref()).await;
    node_names(s.as_ref()).await;
    nul_ids(s.as_ref()).await;
    rules_revisions(s.as_ref()).await;
}

/// A room's rules revision reads back as it was stored: the revision it was created under, or
/// none (a room stored before the stores kept it). Setting its status, settings or finish
/// leaves it.
async fn rules_revisions(s: &dyn Store) {
    let engine = s.engine();
    let under = |id: &str, rules_revision| StoredRoom {
        rules_revision,
        status: RoomStatus::Finished,
        ..room(id, 3)
    };
    s.create_room(&under("v1", Some(1))).await.unwrap();
    s.create_room(&under("vnone", None)).await.unwrap();
    s.create_room(&under("vnow", Some(RULES_REVISION)))
        .await
        .unwrap();
    s.set_finished("vnow", 4, None).await.unwrap();
    for (id, revision) in [
        ("v1", Some(1)),
        ("vnone", None),
        ("vnow", Some(RULES_REVISION)),
    ] {
        let back = s.room(id).await.unwrap().unwrap();
        assert_eq!(back.rules_revision, revision, "{engine} {id}");
        // The lists read the same column.
        let listed = s.finished_rooms(0, 100).await.unwrap();
        let listed = listed.iter().find(|r| r.id == id).unwrap();
        assert_eq!(listed.rules_revision, revision, "{engine} {id}");
    }
}

/// A key with a NUL byte names nothing (PostgreSQL text cannot hold one): every read answers
/// "no such thing", never an error.
async fn nul_ids(s: &dyn Store) {
    let engine = s.engine();
    assert_eq!(s.room("r1\0").await.unwrap(), None, "{engine}");
    assert!(s.actions("r\0x").await.unwrap().is_empty(), "{engine}");
    assert_eq!(s.lease("\0").await.unwrap(), None, "{engine}");
    assert_eq!(s.ledger("g1\0").await.unwrap(), None, "{engine}");
    assert!(
        !s.delete_waiting_room("\0", None).await.unwrap(),
        "{engine}"
    );
}

/// A node name is held by one process at a time: a second claim is refused while the first
/// runs, granted once it ran out or was given up; the holder renews its own. Leases show their
/// owner's public URL.
async fn node_names(s: &dyn Store) {
    let engine = s.engine();
    let claim = |instance: &'static str, url: &'static str, ms: u64| {
        s.claim_node("web-1:8080", instance, url, ms)
    };
    assert_eq!(
        claim("i1", "https://n1.example.org", 150).await.unwrap(),
        NodeClaim::Granted
    );
    assert_eq!(
        claim("i2", "https://other.example.org", 60_000)
            .await
            .unwrap(),
        NodeClaim::Taken {
            url: "https://n1.example.org".into()
        },
        "{engine}"
    );
    // Renewed by its holder.
    assert_eq!(
        claim("i1", "https://n1.example.org", 150).await.unwrap(),
        NodeClaim::Granted
    );
    // A lease of the node's shows where its clients go.
    s.create_room(&room("n1", 30)).await.unwrap();
    held(
        s.acquire_lease("n1", "web-1:8080", 60_000).await.unwrap(),
        "web-1:8080",
    );
    let lease = s.lease("n1").await.unwrap().unwrap();
    assert_eq!(
        (lease.owner.as_str(), lease.url.as_str()),
        ("web-1:8080", "https://n1.example.org")
    );
    assert_eq!(
        s.acquire_lease("n1", "web-2:8080", 60_000).await.unwrap(),
        Acquired::Elsewhere("https://n1.example.org".into())
    );
    s.release_lease("n1", "web-1:8080").await.unwrap();
    // Ran out (the holder died): another process may take the name.
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(
        claim("i2", "https://n2.example.org", 60_000).await.unwrap(),
        NodeClaim::Granted
    );
    assert!(matches!(
        claim("i1", "https://n1.example.org", 60_000).await.unwrap(),
        NodeClaim::Taken { .. }
    ));
    // Given up at a clean stop (only by its holder): free at once.
    s.release_node("web-1:8080", "i1").await.unwrap();
    assert!(matches!(
        claim("i3", "x", 60_000).await.unwrap(),
        NodeClaim::Taken { .. }
    ));
    s.release_node("web-1:8080", "i2").await.unwrap();
    assert_eq!(
        claim("i3", "https://n3.example.org", 60_000).await.unwrap(),
        NodeClaim::Granted
    );
    s.release_node("web-1:8080", "i3").await.unwrap();
}

/// The room's row (settings, status, finish) is fenced as its actions are: a stale owner's
/// write changes nothing and is told so; the owner's lands.
async fn room_row_fencing(s: &dyn Store) {
    let engine = s.engine();
    s.create_room(&room("w1", 40)).await.unwrap();
    let (a, b) = ("http://a:1", "http://b:2");
    let fa = held(s.acquire_lease("w1", a, 150).await.unwrap(), a);
    let seats = |bot: bool| RoomConfig {
        seats: (0..4)
            .map(|i| SeatConfig {
                name: format!("s{i}"),
                bot: bot && i > 0,
                bot_kind: None,
            })
            .collect(),
        ..RoomConfig::default()
    };
    s.set_config("w1", &seats(false), Some(&fa)).await.unwrap();
    // a's lease runs out: its writes are refused as lapsed (to be renewed), not fenced.
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert!(
        matches!(
            s.set_status("w1", RoomStatus::Playing, Some(&fa)).await,
            Err(StoreError::LeaseLapsed { .. })
        ),
        "{engine}"
    );
    // b takes the room over and starts it with a friend in seat 1.
    let fb = held(s.acquire_lease("w1", b, 60_000).await.unwrap(), b);
    s.set_config("w1", &seats(false), Some(&fb)).await.unwrap();
    s.set_status("w1", RoomStatus::Playing, Some(&fb))
        .await
        .unwrap();
    // a resumes: its settings (seat 1 a bot), its status and its finish are all refused.
    let fenced = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Fenced { ref room }) if room == "w1");
    assert!(
        fenced(s.set_config("w1", &seats(true), Some(&fa)).await),
        "{engine}"
    );
    assert!(fenced(
        s.set_status("w1", RoomStatus::Waiting, Some(&fa)).await
    ));
    assert!(fenced(s.set_finished("w1", 99, Some(&fa)).await));
    // A forged fence (b's name, a's epoch) too.
    let forged = Fence {
        node: b.into(),
        epoch: fa.epoch,
    };
    assert!(fenced(
        s.set_config("w1", &seats(true), Some(&forged)).await
    ));
    let back = s.room("w1").await.unwrap().unwrap();
    assert_eq!(
        back.config,
        seats(false),
        "{engine}: a stale owner rewrote the settings"
    );
    assert_eq!((back.status, back.finished), (RoomStatus::Playing, None));
    // b's finish lands.
    s.set_finished("w1", 123, Some(&fb)).await.unwrap();
    let back = s.room("w1").await.unwrap().unwrap();
    assert_eq!(
        (back.status, back.finished),
        (RoomStatus::Finished, Some(123))
    );
    s.release_lease("w1", b).await.unwrap();
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
    s.set_status("r1", RoomStatus::Playing, None).await.unwrap();
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
    // Another action at a stored position is refused: the log has no duplicates. The same
    // action again is an earlier try that landed: accepted, and stored once.
    let other = StoredAction {
        action: Action::Discard("6m".parse().unwrap()),
        ..a
    };
    assert!(matches!(
        s.append_action("r1", &other, None).await,
        Err(StoreError::Conflict { seq: 0, .. })
    ));
    s.append_action("r1", &a, None).await.unwrap();
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
        hints: true,
        ..RoomConfig::default()
    };
    s.set_config("r1", &config, None).await.unwrap();
    assert_eq!(s.room("r1").await.unwrap().unwrap().config, config);
    s.set_finished("r1", 77, None).await.unwrap();
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
            url: a.into(),
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
                    url: a.into(),
                    live: true,
                    epoch: again.epoch,
                }
            ),
            (
                "l2".to_string(),
                Lease {
                    owner: b.into(),
                    url: b.into(),
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

/// A room of four seats, `people` of them people (the rest bots), in `status`.
fn room_of(id: &str, created: i64, status: RoomStatus, people: usize) -> StoredRoom {
    let seats = (0..4)
        .map(|i| SeatConfig {
            name: format!("s{i}"),
            bot: i >= people,
            bot_kind: None,
        })
        .collect();
    StoredRoom {
        config: RoomConfig {
            seats,
            ..RoomConfig::default()
        },
        status,
        ..room(id, created)
    }
}

fn ids(rooms: Vec<StoredRoom>) -> Vec<String> {
    rooms.into_iter().map(|r| r.id).collect()
}

/// What a lease round reads, and only that, a bounded page each: the rooms to take over (leases
/// run out; matches of bots only that nobody holds) and the other nodes' live rooms.
async fn lease_round_reads(s: &dyn Store) {
    use RoomStatus::{Finished, HandOver, Playing, Waiting};
    let (a, b) = ("http://a:1", "http://b:2");
    for (id, created, status, people) in [
        ("o1", 101, Playing, 1),
        ("o2", 102, Playing, 0),
        ("o3", 103, Playing, 1),
        ("o4", 104, Waiting, 0),
        ("o5", 105, Playing, 0),
        ("o6", 106, Finished, 0),
        ("o7", 107, HandOver, 2),
    ] {
        s.create_room(&room_of(id, created, status, people))
            .await
            .unwrap();
    }
    // o1, o6 and o7: a's leases run out (a died); o5: b's, live.
    for id in ["o1", "o6", "o7"] {
        held(s.acquire_lease(id, a, 1).await.unwrap(), a);
    }
    held(s.acquire_lease("o5", b, 60_000).await.unwrap(), b);
    tokio::time::sleep(Duration::from_millis(30)).await;
    // Orphans, oldest first: leases run out (whoever held them) and the bots-only match o2
    // that nobody holds. Not o3 (a match with a person, loaded when someone opens it), o4
    // (waiting), o5 (b's live lease), o6 (finished) nor the rooms of the other checks.
    let engine = s.engine();
    assert_eq!(
        ids(s.orphan_rooms(100).await.unwrap()),
        ["o1", "o2", "o7"],
        "{engine}"
    );
    assert_eq!(
        ids(s.orphan_rooms(2).await.unwrap()),
        ["o1", "o2"],
        "{engine}"
    );
    // The other nodes' live rooms, newest first: for a, b's o5 and l2 (held in `leases`).
    assert_eq!(
        ids(s.rooms_leased_elsewhere(a, 100).await.unwrap()),
        ["o5", "l2"]
    );
    assert_eq!(ids(s.rooms_leased_elsewhere(a, 1).await.unwrap()), ["o5"]);
    assert!(s.rooms_leased_elsewhere(b, 100).await.unwrap().is_empty());
    // b takes o1 over: no longer an orphan, and a sees it as b's.
    held(s.acquire_lease("o1", b, 60_000).await.unwrap(), b);
    assert_eq!(ids(s.orphan_rooms(100).await.unwrap()), ["o2", "o7"]);
    assert_eq!(
        ids(s.rooms_leased_elsewhere(a, 100).await.unwrap()),
        ["o5", "o1", "l2"]
    );
    for id in ["o1", "o5", "o6", "o7"] {
        s.release_lease(id, a).await.unwrap();
        s.release_lease(id, b).await.unwrap();
    }
}

/// An expired waiting room leaves the store with its lease; a room whose match started stays.
async fn waiting_rooms_expire(s: &dyn Store) {
    assert!(
        s.delete_waiting_room("r0", None).await.unwrap(),
        "{}",
        s.engine()
    );
    assert_eq!(s.room("r0").await.unwrap(), None);
    // l2 is waiting under b's lease: a (which lost it) cannot delete it; b can, and both go.
    assert!(
        !s.delete_waiting_room("l2", Some("http://a:1"))
            .await
            .unwrap()
    );
    assert!(s.room("l2").await.unwrap().is_some());
    assert!(
        s.delete_waiting_room("l2", Some("http://b:2"))
            .await
            .unwrap()
    );
    assert_eq!(s.lease("l2").await.unwrap(), None);
    assert_eq!(s.room("l2").await.unwrap(), None);
    // Started (o3 in play, r1 finished, f1 holding actions): kept.
    for id in ["o3", "r1", "f1"] {
        assert!(!s.delete_waiting_room(id, None).await.unwrap(), "{id}");
        assert!(s.room(id).await.unwrap().is_some(), "{id}");
    }
    assert!(!s.delete_waiting_room("nope", None).await.unwrap());
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
    // a's lease runs out (a paused, or the database away): its writes are refused even
    // before anyone takes over — as lapsed, since the lease is still a's to renew.
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert!(matches!(
        s.append_action("f1", &discard(1), Some(&fa)).await,
        Err(StoreError::LeaseLapsed { ref room }) if room == "f1"
    ));
    // Renewed by a with the same epoch (nobody took the room meanwhile), the same fence
    // writes again.
    assert_eq!(s.renew_leases(a, 150).await.unwrap(), ["f1"]);
    s.append_action("f1", &discard(1), Some(&fa)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(250)).await;
    // b takes over; a renewing finds nothing, and a's old fence stays refused.
    let fb = held(s.acquire_lease("f1", b, 60_000).await.unwrap(), b);
    assert!(fb.epoch > fa.epoch);
    assert!(s.renew_leases(a, 60_000).await.unwrap().is_empty());
    assert!(is_fenced(
        s.append_action("f1", &discard(2), Some(&fa)).await
    ));
    s.append_action("f1", &discard(2), Some(&fb)).await.unwrap();
    // The same write again under the same fence (a retry after a time-out that had landed):
    // accepted, nothing added. Under a's stale fence the very same action stays refused.
    s.append_action("f1", &discard(2), Some(&fb)).await.unwrap();
    assert!(is_fenced(
        s.append_action("f1", &discard(2), Some(&fa)).await
    ));
    // Another action at a stored position is a conflict (the writer's copy is stale), not a
    // fence.
    let other = |seq| StoredAction {
        player: Player(1),
        ..discard(seq)
    };
    assert!(matches!(
        s.append_action("f1", &other(2), Some(&fb)).await,
        Err(StoreError::Conflict { ref room, seq: 2 }) if room == "f1"
    ));
    assert!(matches!(
        s.append_action("f1", &other(0), None).await,
        Err(StoreError::Conflict { seq: 0, .. })
    ));
    // Only a's writes under its lease and b's are in the log.
    let seqs: Vec<u64> = s
        .actions("f1")
        .await
        .unwrap()
        .iter()
        .map(|x| x.seq)
        .collect();
    assert_eq!(seqs, [0, 1, 2]);
    // a taking the room back (after b released it) gets a new epoch; b's old one is refused.
    s.release_lease("f1", b).await.unwrap();
    let fa2 = held(s.acquire_lease("f1", a, 60_000).await.unwrap(), a);
    assert!(fa2.epoch > fb.epoch);
    assert!(is_fenced(
        s.append_action("f1", &discard(3), Some(&fb)).await
    ));
    s.append_action("f1", &discard(3), Some(&fa2))
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
    // It holds seat tokens and seeds: readable by its owner only, its WAL too.
    #[cfg(unix)]
    for file in ["suite.sqlite", "suite.sqlite-wal"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}: {mode:o}");
    }
    let again = store::open(path.to_str().unwrap()).await.unwrap();
    assert_eq!(again.engine(), "sqlite");
    // r0, r1, l1, l2, f1, w1, n1, o1 to o7, v1, vnone and vnow, less the expired r0 and l2.
    assert_eq!(again.rooms().await.unwrap().len(), 15);
    assert!(again.ledger("g1").await.unwrap().is_some());
}

/// The `rooms` table as the SQLite engine made it before the rooms' rules revisions.
const SQLITE_ROOMS_BEFORE_REVISIONS: &str = "CREATE TABLE rooms (
     id TEXT PRIMARY KEY, created INTEGER NOT NULL, config TEXT NOT NULL,
     tokens TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL, finished INTEGER)";

/// A room row as stored before the rooms' rules revisions (the columns every schema has).
const OLD_ROOM_ROW: &str = "INSERT INTO rooms (id, created, config, tokens, seed, status, finished)
     VALUES ('old', 1, '{}', '[null, null, null, null]', 7, 'finished', 2)";

/// A database made before the rooms' rules revisions gains the column when opened: its rooms
/// read back with no revision (unknown), a room created since with its own, and opening it
/// again changes nothing.
async fn reads_old_rooms_as_unknown(s: &dyn Store) {
    let engine = s.engine();
    let old = s.room("old").await.unwrap().unwrap();
    assert_eq!(
        (old.status, old.finished, old.rules_revision),
        (RoomStatus::Finished, Some(2), None),
        "{engine}"
    );
    s.create_room(&room("new", 3)).await.unwrap();
    let new = s.room("new").await.unwrap().unwrap();
    assert_eq!(new.rules_revision, Some(RULES_REVISION), "{engine}");
}

#[tokio::test]
async fn sqlite_before_rules_revisions_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(SQLITE_ROOMS_BEFORE_REVISIONS).unwrap();
        conn.execute_batch(OLD_ROOM_ROW).unwrap();
    }
    let path = path.to_str().unwrap();
    reads_old_rooms_as_unknown(store::open(path).await.unwrap().as_ref()).await;
    let again = store::open(path).await.unwrap();
    let revisions: Vec<_> = again
        .rooms()
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.rules_revision))
        .collect();
    assert_eq!(
        revisions,
        [
            ("old".to_string(), None),
            ("new".to_string(), Some(RULES_REVISION))
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_before_rules_revisions_migrates() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let url = cluster.database("old");
    {
        // The schema of migrations 1 to 6, as a server before the column left it.
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap();
        let conn = tokio::spawn(conn);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_str().unwrap() < "0007")
            .collect();
        files.sort();
        assert_eq!(files.len(), 6, "{files:?}");
        client
            .batch_execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)")
            .await
            .unwrap();
        for (version, file) in (1i32..).zip(&files) {
            client
                .batch_execute(&std::fs::read_to_string(file).unwrap())
                .await
                .unwrap();
            client
                .execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)",
                    &[&version],
                )
                .await
                .unwrap();
        }
        client.batch_execute(OLD_ROOM_ROW).await.unwrap();
        drop(client);
        conn.await.unwrap().unwrap();
    }
    reads_old_rooms_as_unknown(&PgStore::connect(&url).await.unwrap()).await;
    let again = store::open(&url).await.unwrap();
    assert_eq!(
        again.room("old").await.unwrap().unwrap().rules_revision,
        None
    );
    assert_eq!(
        again.room("new").await.unwrap().unwrap().rules_revision,
        Some(RULES_REVISION)
    );
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
    // r0, r1, l1, l2, f1, w1, n1, o1 to o7, v1, vnone and vnow, less the expired r0 and l2.
    assert_eq!(again.rooms().await.unwrap().len(), 15);
    // A bad address is a typed error with a message, not a panic.
    let bad = store::open("postgres://nobody@127.0.0.1:1/none").await;
    assert!(bad.is_err());
    // The server's own words are in the error (logged on the incident line), not only
    // "db error": a database that does not exist.
    let missing = url.rsplit_once('/').unwrap().0.to_string() + "/no_such_db";
    let said = store::open(&missing).await.err().unwrap().to_string();
    assert!(
        said.contains("3D000") && said.contains("\"no_such_db\" does not exist"),
        "{said}"
    );
    // A password in a bad address is not repeated.
    let bad = store::open("postgres://x:s3cret@h:port/y").await;
    let said = bad.err().unwrap().to_string();
    assert!(
        said.contains("x:***@") && !said.contains("s3cret"),
        "{said}"
    );
    let bad = store::open("postgres://x@/y?sslmode=nonsense").await;
    assert!(
        matches!(bad, Err(ref e) if e.to_string().contains("database address")),
        "{:?}",
        bad.err()
    );
}
