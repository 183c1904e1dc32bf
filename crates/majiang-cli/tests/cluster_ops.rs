//! A cluster an operator can run, with real `majiang serve` processes: a stale owner cannot
//! rewrite a room's row (its settings, status, finish) once another process took the room over;
//! a crashed owner's rooms answer at the other process within 2 s with the default lease; two
//! processes claiming one node name are refused. The PostgreSQL ones skip loudly when
//! PostgreSQL is not installed.

use crate::common::serve::{signal, start_node, wait_stopped};
use majiang_testkit::client::{Client, ws_url};
use majiang_testkit::net::{free_port, http};
use majiang_testkit::pg as pg_cluster;

use majiang_server::protocol::{ClientMsg, RoomStatus, ServerMsg};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::serve::Serve;

/// `majiang serve` on `db` with only `args` beyond the address and database (no lease, no
/// node name: the defaults), once it answers `/healthz`.
fn start_plain(db: &str, args: &[&str]) -> (Serve, SocketAddr) {
    crate::common::serve::start_serve(db, args)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Creates a room at `addr`; returns its id and its seats' tokens.
fn create(addr: SocketAddr, config: Value) -> (String, Vec<Option<String>>) {
    let (status, body) = http(addr, "POST", "/api/rooms", &config.to_string());
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect();
    (created["room"].as_str().unwrap().to_string(), tokens)
}

/// Connects with `token` to room `id` at `addr` until a node runs it for the connection
/// (`welcome`, not `moved`), within `patience`; returns the client and its seat.
async fn seat_at(
    addr: SocketAddr,
    id: &str,
    token: &str,
    patience: Duration,
) -> (Client, Option<usize>) {
    let deadline = Instant::now() + patience;
    loop {
        let mut c = Client::connect_url(&ws_url(addr, id, Some(token), true)).await;
        match c.recv().await {
            Some(ServerMsg::Welcome { seat, .. }) => return (c, seat),
            other => {
                assert!(
                    Instant::now() < deadline,
                    "{addr} did not run room {id}: {other:?}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// A counter of `/metrics` at `addr` (0 when absent).
fn metric(addr: SocketAddr, name: &str) -> f64 {
    let (_, body) = http(addr, "GET", "/metrics", "");
    body.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(0.0)
}

/// Issue 48, item 1: a waiting room on A; A frozen with the creator's "start, fill with bots"
/// waiting in its socket; B takes the room over, the friend joins at B and the creator starts
/// there; A thaws and reads the old start — its settings (seat 1 a bot) and status writes are
/// refused by the fence, so the store still says the friend holds seat 1, and after the next
/// fail-over (B killed) the friend's token still opens seat 1.
#[test]
fn a_thawed_owner_cannot_rewrite_the_rooms_settings() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let db = cluster.database("room_row_fence");
    let lease_ms = 1500;
    let (mut a_proc, a) = start_node(&db, lease_ms);
    let (mut b_proc, b) = start_node(&db, lease_ms);
    let (id, tokens) = create(
        a,
        json!({
            "rules": "hongkong", "hands": 1,
            "seats": [{"name": "creator"}, {"name": "friend"}, {"name": "c"}, {"name": "d"}]
        }),
    );
    let (creator, friend) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let rt = runtime();
    rt.block_on(async {
        let store = majiang_server::store::open(&db).await.unwrap();
        let (mut at_a, seat) = seat_at(a, &id, &creator, Duration::from_secs(5)).await;
        assert_eq!(seat, Some(0));
        at_a.drain().await;
        assert_eq!(
            store.lease(&id).await.unwrap().unwrap().url,
            format!("http://{a}")
        );

        // A freezes; the creator's start waits in its socket.
        signal(a_proc.id(), "-STOP");
        wait_stopped(a_proc.id());
        at_a.send(&ClientMsg::Start { fill_bots: true }).await;

        // B takes the room over once A's lease ran out: the friend joins there, then the
        // creator starts with bots in the two seats still empty.
        let patience = Duration::from_millis(6 * lease_ms);
        let (mut friend_b, seat) = seat_at(b, &id, &friend, patience).await;
        assert_eq!(seat, Some(1));
        let (mut creator_b, _) = seat_at(b, &id, &creator, patience).await;
        creator_b.send(&ClientMsg::Start { fill_bots: true }).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        let started = loop {
            let r = store.room(&id).await.unwrap().unwrap();
            if r.status != RoomStatus::Waiting {
                break r;
            }
            assert!(Instant::now() < deadline, "B did not start the match");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let bots: Vec<bool> = started.config.seats.iter().map(|s| s.bot).collect();
        assert_eq!(bots, [false, false, true, true]);
        friend_b.drain().await;

        // A thaws and reads the creator's old start: it fills seats 1 to 3 with bots and
        // writes that — refused; A stops running the room and closes the connection.
        signal(a_proc.id(), "-CONT");
        let closed_by = Instant::now() + Duration::from_secs(10);
        while at_a.recv().await.is_some() {
            assert!(Instant::now() < closed_by, "A kept the stale room open");
        }
        let after = store.room(&id).await.unwrap().unwrap();
        let bots: Vec<bool> = after.config.seats.iter().map(|s| s.bot).collect();
        assert_eq!(
            bots,
            [false, false, true, true],
            "a stale owner rewrote the settings"
        );
        assert_ne!(after.status, RoomStatus::Waiting);
        // The stale write was tried, and refused by its fence (not merely never made).
        assert!(
            metric(a, "majiang_writes_fenced_total") >= 1.0,
            "A made no fenced write: the test did not reproduce the race"
        );

        // The next fail-over: B dies, A takes the room over; the friend's token plays seat 1.
        b_proc.kill();
        let (mut again, seat) = seat_at(a, &id, &friend, patience).await;
        assert_eq!(seat, Some(1), "the friend's token only watches");
        let state = again.state().await;
        let ServerMsg::State { observation, .. } = state else {
            unreachable!()
        };
        assert!(observation.is_some(), "the friend sees no hand of theirs");
        eprintln!(
            "room row fence: A's stale settings refused ({} fenced writes); seat 1 still the friend's after the fail-over",
            metric(a, "majiang_writes_fenced_total")
        );
    });
    a_proc.kill();
}

/// Issue 48, items 6 and 8: two processes on one host with the default settings get distinct
/// node names; SIGKILL the owner of four rooms (two matches with a person, two of bots only)
/// and each answers at the other process within 2 s — the person's rooms on the request that
/// opens them, the bots' by the other's lease round with nobody asking.
#[test]
fn a_killed_owners_rooms_answer_elsewhere_within_2_s_by_default() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let db = cluster.database("takeover_time");
    let (mut a_proc, a) = start_plain(&db, &[]);
    let (mut b_proc, b) = start_plain(&db, &[]);
    let person = json!({
        "rules": "hongkong", "autostart": true,
        "seats": [{"name": "p"}, {"bot": true}, {"bot": true}, {"bot": true}]
    });
    let bots = json!({
        "rules": "hongkong", "bot_delay_ms": 300,
        "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
    });
    let rooms: Vec<(String, bool)> = [&person, &person, &bots, &bots]
        .iter()
        .map(|c| (create(a, (*c).clone()).0, c == &&bots))
        .collect();
    let rt = runtime();
    rt.block_on(async {
        let store = majiang_server::store::open(&db).await.unwrap();
        let leases = store.leases().await.unwrap();
        let owner = |id: &str| {
            leases
                .iter()
                .find(|(r, _)| r == id)
                .map(|(_, l)| l.clone())
                .unwrap()
        };
        let lease = owner(&rooms[0].0);
        assert!(
            lease.owner.ends_with(&format!(":{}", a.port())),
            "a default name is the host's and the port: {}",
            lease.owner
        );
        assert_eq!(lease.url, format!("http://{a}"));
        // B's name differs (it would else renew A's leases).
        let (_, b_health) = http(b, "GET", "/healthz", "");
        let b_name = serde_json::from_str::<Value>(&b_health).unwrap()["node"].clone();
        assert_ne!(b_name.as_str(), Some(lease.owner.as_str()));
        assert!(rooms.iter().all(|(id, _)| owner(id).owner == lease.owner));
    });

    a_proc.kill();
    let killed = Instant::now();
    let answered = rt.block_on(async {
        let store = majiang_server::store::open(&db).await.unwrap();
        let mut answered = vec![None; rooms.len()];
        while answered.iter().any(Option::is_none) && killed.elapsed() < Duration::from_secs(10) {
            for (n, (id, bots_only)) in rooms.iter().enumerate() {
                if answered[n].is_some() {
                    continue;
                }
                let here = if *bots_only {
                    // Nobody asks: B's lease round takes it; the store says when.
                    store
                        .lease(id)
                        .await
                        .unwrap()
                        .is_some_and(|l| l.live && l.url == format!("http://{b}"))
                } else {
                    http(b, "GET", &format!("/api/rooms/{id}"), "").0 == 200
                };
                if here {
                    answered[n] = Some(killed.elapsed());
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        answered
    });
    let times: Vec<Duration> = answered
        .iter()
        .map(|t| t.expect("a room never answered at B"))
        .collect();
    eprintln!("take-over after SIGKILL, default lease: {times:?} (person, person, bots, bots)");
    for t in &times {
        assert!(*t < Duration::from_secs(2), "{times:?}");
    }
    b_proc.kill();
}

/// Issue 48, item 6: a second process claiming a node name a running process holds is refused
/// at start, saying why; the first runs on.
#[test]
fn a_second_process_under_a_node_name_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("names.sqlite");
    let db = db.to_str().unwrap();
    let (mut first, a) = start_plain(db, &["--node-name", "web-1", "--lease-ms", "600"]);
    let port = free_port();
    let began = Instant::now();
    let second = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
        .args(["--node-name", "web-1", "--lease-ms", "600"])
        .output()
        .expect("majiang serve runs");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{stderr}");
    assert!(
        stderr.contains("node name \"web-1\" is in use by another running process")
            && stderr.contains(&format!("http://{a}")),
        "{stderr}"
    );
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(http(a, "GET", "/healthz", "").0, 200, "the first runs on");
    // Under its own name the second starts.
    let (mut other, _) = start_plain(db, &["--node-name", "web-2", "--lease-ms", "600"]);
    other.kill();
    first.kill();
}
