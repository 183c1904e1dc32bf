//! Two `majiang serve` processes on one PostgreSQL: WebSocket clients play matches that one
//! process runs (reaching it through the other, which sends them there), that process is
//! SIGKILLed in the middle, and the other takes the rooms over once their leases run out. Every
//! acknowledged action is in the store afterwards, the clients reconnect with the same tokens
//! and the matches finish. Skipped loudly when PostgreSQL is not installed.

use crate::common::serve::start_node;
use majiang_testkit::net::http;
use majiang_testkit::pg as pg_cluster;

use futures_util::{SinkExt, StreamExt};
use majiang::table::Action;
use majiang_server::protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const ROOMS: usize = 4;
const LEASE_MS: u64 = 1500;

/// What one seat's client saw.
#[derive(Debug, Default)]
struct Seat {
    chair: Option<u64>,
    /// The actions the server acknowledged, in order.
    acked: Vec<Action>,
    finished: bool,
    /// Connections opened (the first, then one per reconnect or move).
    connections: u32,
    moved: u32,
}

/// Plays one seat: connects to `home` (following `moved`), plays the first winning action or
/// a pseudo-random legal one, reconnects to `home` whenever the connection drops.
async fn play_seat(home: String, salt: u64, acks: Arc<AtomicU64>) -> Seat {
    let mut seat = Seat::default();
    let mut url = home.clone();
    let mut pick = salt;
    let mut seq = 0u64;
    // The most actions any state showed: a new connection must show at least as many.
    let mut max_seen = 0u64;
    let deadline = Instant::now() + Duration::from_secs(90);
    while Instant::now() < deadline {
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await else {
            url = home.clone();
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        seat.connections += 1;
        let mut sent: Option<Action> = None;
        let mut first_state = true;
        let mut next_url = home.clone();
        while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(20), ws.next()).await
        {
            let Message::Text(text) = msg else { continue };
            let m: ServerMsg = serde_json::from_str(text.as_str()).unwrap();
            match m {
                ServerMsg::Moved { url } => {
                    seat.moved += 1;
                    next_url = url;
                    break;
                }
                ServerMsg::Ack { .. } => {
                    if let Some(a) = sent.take() {
                        seat.acked.push(a);
                        acks.fetch_add(1, Ordering::Relaxed);
                    }
                }
                ServerMsg::Error { .. } => sent = None,
                ServerMsg::MatchOver { .. } => {
                    seat.finished = true;
                    return seat;
                }
                ServerMsg::State {
                    actions,
                    observation,
                    ..
                } => {
                    if first_state {
                        assert!(
                            actions >= max_seen,
                            "a new connection shows {actions} actions, {max_seen} were seen before"
                        );
                        first_state = false;
                    }
                    max_seen = max_seen.max(actions);
                    let Some(o) = observation else { continue };
                    seat.chair = Some(u64::from(o.player.0));
                    let legal = &o.legal_actions;
                    if sent.is_some() || legal.is_empty() {
                        continue;
                    }
                    let action = if legal.contains(&Action::Win) {
                        Action::Win
                    } else {
                        pick = pick
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        legal[((pick >> 33) as usize) % legal.len()]
                    };
                    seq += 1;
                    let text = serde_json::to_string(&ClientMsg::Action { seq, action }).unwrap();
                    if ws.send(Message::text(text)).await.is_err() {
                        break;
                    }
                    sent = Some(action);
                }
                _ => {}
            }
        }
        // Dropped or moved: an action without its ack may or may not be stored.
        url = next_url;
    }
    seat
}

#[test]
fn a_killed_owner_hands_its_rooms_to_the_survivor() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let db = cluster.database("failover");
    let (mut owner, a) = start_node(&db, LEASE_MS);
    let (mut survivor, b) = start_node(&db, LEASE_MS);

    // Rooms created on A are A's; the clients dial B, which sends them to A.
    let mut rooms = Vec::new();
    for i in 0..ROOMS {
        let rules = ["hongkong", "hangzhou", "yangzhou", "classic"][i % 4];
        let config = json!({
            "rules": rules, "hands": 1,
            "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
            // No claim timer: each discard's claim window is then the bot pause, not the
            // people's 5 s (the test's clients answer at once).
            "claim_timeout_ms": 0
        });
        let (status, body) = http(a, "POST", "/api/rooms", &config.to_string());
        assert_eq!(status, 201, "{body}");
        rooms.push(serde_json::from_str::<Value>(&body).unwrap());
    }
    // B's lobby lists A's rooms (after a lease round).
    std::thread::sleep(Duration::from_millis(LEASE_MS / 2));
    let (_, lobby) = http(b, "GET", "/api/rooms", "");
    for r in &rooms {
        assert!(lobby.contains(r["room"].as_str().unwrap()), "{lobby}");
    }
    // A page or API request for one of A's rooms at B is redirected there.
    let id = rooms[0]["room"].as_str().unwrap();
    let (status, _) = http(b, "GET", &format!("/api/rooms/{id}"), "");
    assert_eq!(status, 307);

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let acks = Arc::new(AtomicU64::new(0));
    let seats = rt.block_on(async {
        let mut clients = Vec::new();
        for (i, r) in rooms.iter().enumerate() {
            for (s, seat) in r["seats"].as_array().unwrap().iter().enumerate() {
                let home = format!(
                    "ws://{b}/ws/{}?token={}",
                    r["room"].as_str().unwrap(),
                    seat["token"].as_str().unwrap()
                );
                clients.push(tokio::spawn(play_seat(
                    home,
                    (i * 4 + s) as u64,
                    acks.clone(),
                )));
            }
        }
        // Mid-match: every room has played some, none has finished.
        let started = Instant::now();
        while acks.load(Ordering::Relaxed) < 20 * ROOMS as u64 {
            assert!(started.elapsed() < Duration::from_secs(30), "no play");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        owner.kill();
        let acked_at_kill = acks.load(Ordering::Relaxed);
        let mut seats = Vec::new();
        for c in clients {
            seats.push(c.await.unwrap());
        }
        (acked_at_kill, seats)
    });
    let (acked_at_kill, seats) = seats;
    assert!(acks.load(Ordering::Relaxed) > acked_at_kill, "play went on");

    for (i, r) in rooms.iter().enumerate() {
        let id = r["room"].as_str().unwrap();
        // The last action's ack can reach the players before the room's finish is stored:
        // wait for the log to open, with a deadline.
        let deadline = Instant::now() + Duration::from_secs(20);
        let (status, body) = loop {
            let (status, body) = http(b, "GET", &format!("/api/rooms/{id}/log"), "");
            if status == 200 || Instant::now() > deadline {
                break (status, body);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status, 200, "room {id}: {body}");
        let log: Value = serde_json::from_str(&body).unwrap();
        let actions = log["actions"].as_array().unwrap();
        for (n, a) in actions.iter().enumerate() {
            assert_eq!(a["seq"].as_u64(), Some(n as u64), "no gaps");
        }
        for seat in &seats[i * 4..i * 4 + 4] {
            assert!(seat.finished, "room {id}: a seat did not finish: {seat:?}");
            assert!(
                seat.connections >= 2,
                "reconnected after the kill: {seat:?}"
            );
            assert!(seat.moved >= 1, "sent from B to A: {seat:?}");
            // Every acknowledged action is in the log, in order, as that chair's.
            let chair = seat.chair.unwrap();
            let mut mine = actions
                .iter()
                .filter(|a| a["player"].as_u64() == Some(chair))
                .map(|a| &a["action"]);
            for acked in &seat.acked {
                let acked = serde_json::to_value(acked).unwrap();
                assert!(
                    mine.any(|a| *a == acked),
                    "room {id}: acknowledged {acked} of chair {chair} missing from the store"
                );
            }
        }
    }
    // The survivor's figures count what it did.
    let (status, metrics) = http(b, "GET", "/metrics", "");
    assert_eq!(status, 200);
    assert!(metrics.contains("majiang_actions_total"), "{metrics}");
    survivor.kill();
}
