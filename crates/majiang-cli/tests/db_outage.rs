//! PostgreSQL stopped for 8 s under two `majiang serve` processes, with real processes on a real
//! PostgreSQL: several rooms run on each process (bots-only rooms, which move by themselves, and
//! rooms of one scripted person and three bots), then the database goes away for 8 s — first
//! stopped for real (`pg_ctl stop -m fast`, every connection cut, then started again on the same
//! folder and port), then frozen (SIGSTOP to every PostgreSQL process, connections left hanging,
//! then SIGCONT). After each return every room must store its next action within 2 s (measured
//! from the return to the room's next stored action, each room's figure printed), and every
//! action a client got an `ack` for must be in the store. Skipped loudly when PostgreSQL is not
//! installed.

use crate::common::serve::{signal, start_node};
use majiang_server::protocol::{ClientMsg, ServerMsg};
use majiang_testkit::net::http;
use majiang_testkit::pg::PgCluster;

use futures_util::{SinkExt, StreamExt};
use majiang::table::Action;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The server's default lease: the figures are those of a server run as shipped.
const LEASE_MS: u64 = majiang_server::cluster::DEFAULT_LEASE_MS;
/// How long the database is away each time.
const OUTAGE: Duration = Duration::from_secs(8);
/// Every room must store an action within this long of the database's return.
const RESUME_WITHIN: Duration = Duration::from_secs(2);
/// Bots-only rooms per process.
const BOT_ROOMS: usize = 3;

/// PostgreSQL's processes, frozen (SIGSTOP) until this is dropped (SIGCONT), even when the
/// test fails.
struct Frozen(Vec<u32>);

impl Frozen {
    fn new(pids: Vec<u32>) -> Frozen {
        for &p in &pids {
            signal(p, "-STOP");
        }
        Frozen(pids)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        for &p in &self.0 {
            let _ = Command::new("kill")
                .args(["-CONT", &p.to_string()])
                .status();
        }
    }
}

/// One room of the test.
struct Room {
    id: String,
    /// The node it was created on.
    node: SocketAddr,
    /// Its person seat's token, for the rooms with a person.
    token: Option<String>,
}

/// Creates a room on `node`: four bots, or one person and three bots.
fn create(node: SocketAddr, rules: &str, person: bool) -> Room {
    let bot = json!({"name": "bot", "bot": true});
    let first = if person {
        json!({"name": "p"})
    } else {
        bot.clone()
    };
    let config = json!({
        "rules": rules, "hands": 16, "bot_delay_ms": 100, "autostart": true,
        "seats": [first, bot, bot, bot]
    });
    let (status, body) = http(node, "POST", "/api/rooms", &config.to_string());
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    Room {
        id: created["room"].as_str().unwrap().to_string(),
        node,
        token: created["seats"][0]["token"].as_str().map(str::to_string),
    }
}

/// What the person's client saw: the actions the server acknowledged, in order.
#[derive(Debug, Default)]
struct Person {
    chair: Option<u8>,
    acked: Vec<Action>,
    connections: u32,
}

/// Plays the person seat of a room until `stop`: connects to `home` (following `moved`),
/// answers every state offering actions (a win if offered, else a pseudo-random legal action),
/// continues after each hand, and reconnects whenever the connection drops.
async fn play_person(home: String, salt: u64, stop: Arc<AtomicBool>) -> Person {
    let mut person = Person::default();
    let mut url = home.clone();
    let mut pick = salt;
    let mut seq = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await else {
            url = home.clone();
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        person.connections += 1;
        let mut sent: Option<Action> = None;
        let mut next_url = home.clone();
        while !stop.load(Ordering::Relaxed) {
            let msg = match tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
                Err(_) => continue,
                Ok(Some(Ok(m))) => m,
                Ok(_) => break,
            };
            let Message::Text(text) = msg else { continue };
            let m: ServerMsg = serde_json::from_str(text.as_str()).unwrap();
            let reply = match m {
                ServerMsg::Moved { url } => {
                    next_url = url;
                    break;
                }
                ServerMsg::Ack { .. } => {
                    if let Some(a) = sent.take() {
                        person.acked.push(a);
                    }
                    None
                }
                ServerMsg::Error { message, .. } => {
                    sent = None;
                    if message.starts_with("rate limit") {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        Some(ClientMsg::Sync {})
                    } else {
                        None
                    }
                }
                ServerMsg::HandResult { .. } => Some(ClientMsg::Continue {}),
                ServerMsg::State {
                    observation: Some(o),
                    ..
                } if sent.is_none() && !o.legal_actions.is_empty() => {
                    person.chair = Some(o.player.0);
                    let legal = &o.legal_actions;
                    let action = if legal.contains(&Action::Win) {
                        Action::Win
                    } else {
                        pick = pick
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        legal[((pick >> 33) as usize) % legal.len()]
                    };
                    seq += 1;
                    sent = Some(action);
                    Some(ClientMsg::Action { seq, action })
                }
                _ => None,
            };
            if let Some(r) = reply {
                let text = serde_json::to_string(&r).unwrap();
                if ws.send(Message::text(text)).await.is_err() {
                    break;
                }
            }
        }
        // Dropped or moved: an action without its ack may or may not be stored.
        url = next_url;
    }
    person
}

/// Each room's stored action count, read until the database answers.
async fn counts(store: &dyn majiang_server::Store, rooms: &[Room]) -> Vec<usize> {
    let deadline = Instant::now() + Duration::from_secs(10);
    'again: loop {
        assert!(Instant::now() < deadline, "the database does not answer");
        let mut out = Vec::new();
        for r in rooms {
            match store.actions(&r.id).await {
                Ok(a) => out.push(a.len()),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue 'again;
                }
            }
        }
        return out;
    }
}

/// After the database's return at `back`: how long each room took to store its next action
/// (each room's figure; panics after 10 s).
async fn resumed(
    store: &dyn majiang_server::Store,
    rooms: &[Room],
    back: Instant,
) -> Vec<Duration> {
    let base = counts(store, rooms).await;
    let mut moved: Vec<Option<Duration>> = vec![None; rooms.len()];
    while moved.iter().any(Option::is_none) {
        assert!(
            back.elapsed() < Duration::from_secs(10),
            "rooms still stalled 10 s after the return: {:?}",
            rooms
                .iter()
                .zip(&moved)
                .filter(|(_, m)| m.is_none())
                .map(|(r, _)| &r.id)
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        let now = counts(store, rooms).await;
        let at = back.elapsed();
        for (i, n) in now.iter().enumerate() {
            if moved[i].is_none() && *n > base[i] {
                moved[i] = Some(at);
            }
        }
    }
    moved.into_iter().flatten().collect()
}

/// Checks and prints one outage's figures.
fn report(what: &str, rooms: &[Room], figures: &[Duration]) {
    let ms: Vec<u128> = figures.iter().map(Duration::as_millis).collect();
    eprintln!(
        "database {what} for {OUTAGE:?}: each room's next stored action came {ms:?} ms after the \
         return (max {} ms; lease {LEASE_MS} ms)",
        ms.iter().max().unwrap()
    );
    for (r, f) in rooms.iter().zip(figures) {
        assert!(
            *f <= RESUME_WITHIN,
            "room {} (created on {}) stored nothing for {f:?} after the database's return ({what})",
            r.id,
            r.node
        );
    }
}

#[test]
fn every_room_moves_again_within_2_s_of_the_databases_return() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let db = cluster.database("outage");
    let (_a_proc, a) = start_node(&db, LEASE_MS);
    let (_b_proc, b) = start_node(&db, LEASE_MS);
    let mut rooms = Vec::new();
    for (i, node) in [a, b].into_iter().enumerate() {
        for j in 0..BOT_ROOMS {
            let rules = ["hongkong", "hangzhou", "yangzhou", "classic"][(i + j) % 4];
            rooms.push(create(node, rules, false));
        }
        rooms.push(create(node, ["classic", "hongkong"][i], true));
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stored_acks = Arc::new(AtomicU64::new(0));
    rt.block_on(async {
        let store = majiang_server::store::open(&db).await.unwrap();
        let mut people = Vec::new();
        for (i, r) in rooms.iter().enumerate() {
            if let Some(t) = &r.token {
                let home = format!("ws://{}/ws/{}?token={t}", r.node, r.id);
                people.push((i, tokio::spawn(play_person(home, i as u64, stop.clone()))));
            }
        }
        // Every room is under way before the database goes.
        let started = Instant::now();
        while counts(store.as_ref(), &rooms).await.iter().any(|&n| n < 10) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "rooms do not start"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // 1. Stopped for real: every connection cut, then started again on the same port.
        cluster.stop();
        tokio::time::sleep(OUTAGE).await;
        cluster.restart();
        let back = Instant::now();
        let figures = resumed(store.as_ref(), &rooms, back).await;
        report(
            "stopped (pg_ctl stop -m fast, then start)",
            &rooms,
            &figures,
        );

        // Let play go on a while: leases settle, rooms taken over run on their new owner.
        tokio::time::sleep(Duration::from_secs(3)).await;

        // 2. Frozen: every PostgreSQL process SIGSTOPped, connections left hanging.
        let pids = cluster.pids();
        assert!(pids.len() > 1, "the postmaster and its children: {pids:?}");
        let frozen = Frozen::new(pids);
        tokio::time::sleep(OUTAGE).await;
        drop(frozen);
        let back = Instant::now();
        let figures = resumed(store.as_ref(), &rooms, back).await;
        report("frozen (SIGSTOP, then SIGCONT)", &rooms, &figures);

        // Not one step and a stall: every room still moves 2 s on.
        let before = counts(store.as_ref(), &rooms).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let after = counts(store.as_ref(), &rooms).await;
        for ((r, b), a) in rooms.iter().zip(&before).zip(&after) {
            assert!(
                a > b,
                "room {} stalled after the outages ({b} actions)",
                r.id
            );
        }
        stop.store(true, Ordering::Relaxed);
        for (i, p) in people {
            let person = p.await.unwrap();
            let r = &rooms[i];
            let actions = store.actions(&r.id).await.unwrap();
            for (n, x) in actions.iter().enumerate() {
                assert_eq!(x.seq, n as u64, "room {}: no gaps", r.id);
            }
            let chair = person.chair.expect("the person played");
            assert!(
                person.acked.len() >= 5,
                "room {}: the person played on: {person:?}",
                r.id
            );
            // Every acknowledged action is in the store, in order, as that chair's.
            let mut mine = actions
                .iter()
                .filter(|x| x.player.0 == chair)
                .map(|x| x.action);
            for acked in &person.acked {
                assert!(
                    mine.any(|x| x == *acked),
                    "room {}: acknowledged {acked:?} of chair {chair} is not in the store",
                    r.id
                );
            }
            stored_acks.fetch_add(person.acked.len() as u64, Ordering::Relaxed);
            eprintln!(
                "room {}: {} actions stored, {} acknowledged to its person over {} connections",
                r.id,
                actions.len(),
                person.acked.len(),
                person.connections
            );
        }
    });
    eprintln!(
        "{} acknowledged actions, every one in the store",
        stored_acks.load(Ordering::Relaxed)
    );
}
