//! Load test: many concurrent matches whose every seat is a WebSocket client playing by
//! itself (the first winning action, else a pseudo-random legal one). Without `--node`, against
//! a server of its own on loopback with a SQLite file in WAL mode; with `--node URL` (once per
//! process), against running `majiang serve` processes, the rooms created on each in turn
//! (each process then runs the rooms created on it). Reports throughput, the action → ack
//! latency (each ack comes after the action is stored), the most tables in play at once and
//! errors.
//!
//! ```text
//! cargo run --release -p majiang-server --example load -- [MATCHES] [HANDS] [--node URL]... [--think MS] [--whole]
//! ```
//! (defaults: 200 matches of 1 hand). With `--think MS` each client waits a pseudo-random
//! 0–2×MS before each action, as a person would (without it, clients act at once: the server's
//! throughput limit). The clients ask for `state_delta`s (`?deltas=1`), as the browser does;
//! `--whole`: they do not, and get every state whole. Bounded: it stops after 10 minutes
//! whatever happens.
//!
//! An ack's latency runs from just before its action is sent to when its frame is read off
//! the socket, before the client parses it: the client's own work on a message is not in it
//! (its work on other messages, and the other clients' on the same core, can be).

use futures_util::{SinkExt, StreamExt};
use majiang_server::protocol::RoomConfig;
use majiang_server::{App, Limits, SqliteStore};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

#[derive(Default)]
struct Stats {
    latencies_us: Vec<u64>,
    errors: u64,
    finished: bool,
}

/// Tables in play now (counted by each table's first seat), and the most at once.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Milliseconds a client thinks before an action, on average (0: none).
static THINK_MS: AtomicUsize = AtomicUsize::new(0);
/// The clients ask for `state_delta`s (`--whole`: they do not).
static DELTAS: AtomicBool = AtomicBool::new(true);

/// What a client reads of the state it holds: whether it has an observation, and its legal
/// actions. A `state` sets them; a `state_delta` changes them only where it names them (the
/// rest of the state is not kept: applying a delta costs nothing more than reading it).
#[derive(Default)]
struct Held {
    observation: bool,
    legal: Vec<Value>,
}

impl Held {
    /// Takes them from a `state`'s observation (`null`: none).
    fn observation(&mut self, mut o: Value) {
        self.observation = o.is_object();
        self.legal = legal_of(&mut o);
    }

    /// Applies a `state_delta`: a whole `observation` (when there was none before, or none
    /// now), or the observation's `legal_actions` when they changed.
    fn apply(&mut self, mut delta: Value) {
        if let Some(o) = delta.get_mut("observation") {
            self.observation(o.take());
        } else if let Some(d) = delta.get_mut("observation_delta")
            && d.get("legal_actions").is_some()
        {
            self.legal = legal_of(d);
        }
    }
}

/// The `legal_actions` of an observation (or of an observation's delta), taken out of it.
fn legal_of(observation: &mut Value) -> Vec<Value> {
    match observation.get_mut("legal_actions").map(Value::take) {
        Some(Value::Array(legal)) => legal,
        _ => Vec::new(),
    }
}

async fn seat_client(addr: SocketAddr, room: String, token: String, salt: usize) -> Stats {
    let mut stats = Stats::default();
    // The table's first seat counts it in play from its first state of a hand to match_over.
    let counts = salt % 4 == 0;
    let mut counted = false;
    let deltas = if DELTAS.load(Ordering::Relaxed) {
        "&deltas=1"
    } else {
        ""
    };
    let url = format!("ws://{addr}/ws/{room}?token={token}{deltas}");
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
        stats.errors += 1;
        return stats;
    };
    let mut seq = 0u64;
    let mut sent: Option<Instant> = None;
    let mut pick = salt;
    let mut held = Held::default();
    while let Some(Ok(msg)) = ws.next().await {
        // Read off the socket: an ack's time, before any work on the message.
        let arrived = Instant::now();
        let Message::Text(text) = msg else { continue };
        let mut m: Value = match serde_json::from_str(text.as_str()) {
            Ok(v) => v,
            Err(_) => {
                stats.errors += 1;
                continue;
            }
        };
        let kind = m["type"].as_str().unwrap_or_default().to_string();
        let new_state = match kind.as_str() {
            "state" => {
                held.observation(m["observation"].take());
                true
            }
            "state_delta" => {
                held.apply(m);
                true
            }
            _ => false,
        };
        match kind.as_str() {
            "ack" => {
                if let Some(t) = sent.take() {
                    stats
                        .latencies_us
                        .push(arrived.duration_since(t).as_micros() as u64);
                }
            }
            "error" => {
                stats.errors += 1;
                sent = None;
            }
            "moved" => {
                // The room runs elsewhere: a load run creates each room where it runs.
                stats.errors += 1;
                break;
            }
            "match_over" => {
                stats.finished = true;
                break;
            }
            _ if new_state && counts && !counted && held.observation => {
                counted = true;
                let now = LIVE.fetch_add(1, Ordering::Relaxed) + 1;
                PEAK.fetch_max(now, Ordering::Relaxed);
            }
            _ => {}
        }
        if new_state && sent.is_none() {
            let legal = &held.legal;
            if legal.is_empty() {
                continue;
            }
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let action = if legal.contains(&json!("win")) {
                json!("win")
            } else {
                legal[(pick >> 33) % legal.len()].clone()
            };
            let think = THINK_MS.load(Ordering::Relaxed) as u64;
            if think > 0 {
                // A person's turn waits for them; should the state move on meanwhile, the room
                // refuses the stale action, which counts as an error.
                tokio::time::sleep(Duration::from_millis((pick >> 20) as u64 % (2 * think + 1)))
                    .await;
            }
            seq += 1;
            let text = json!({"type": "action", "seq": seq, "action": action}).to_string();
            sent = Some(Instant::now());
            if ws.send(Message::text(text)).await.is_err() {
                stats.errors += 1;
                break;
            }
        }
    }
    if counted {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
    stats
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// `POST /api/rooms` on the process at `addr`; the answer's body. A plain HTTP/1.1 exchange
/// over one connection (the example needs nothing more than this).
async fn create_remote(addr: SocketAddr, config: &Value) -> Option<Value> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = config.to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
    let req = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).await.ok()?;
    serde_json::from_str(out.split_once("\r\n\r\n")?.1).ok()
}

#[tokio::main]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut nodes: Vec<SocketAddr> = Vec::new();
    while let Some(i) = args.iter().position(|a| a == "--node") {
        args.remove(i);
        let url = args.remove(i);
        let host = url.trim_start_matches("http://").trim_end_matches('/');
        nodes.push(host.parse().expect("--node http://IP:PORT"));
    }
    if let Some(i) = args.iter().position(|a| a == "--whole") {
        args.remove(i);
        DELTAS.store(false, Ordering::Relaxed);
    }
    if let Some(i) = args.iter().position(|a| a == "--think") {
        args.remove(i);
        let ms = args.remove(i).parse().expect("--think MS");
        THINK_MS.store(ms, Ordering::Relaxed);
    }
    let matches: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let hands: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    if !nodes.is_empty() {
        remote(&nodes, matches, hands).await;
        return;
    }
    let dir = std::env::temp_dir().join(format!("majiang-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("load.sqlite");
    // Every client comes from one address: the per-address and total caps raised.
    let limits = Limits {
        max_connections: usize::MAX,
        max_connections_per_address: usize::MAX,
        max_rooms: usize::MAX,
        ..Limits::default()
    };
    let store = std::sync::Arc::new(SqliteStore::open(&db).unwrap());
    let app = App::with_limits(store, None, limits).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server_app = app.clone();
    tokio::spawn(async move {
        majiang_server::serve(listener, server_app, std::future::pending())
            .await
            .unwrap();
    });

    let rules = ["hongkong", "hangzhou", "yangzhou", "classic"];
    let started = Instant::now();
    let mut clients = Vec::new();
    for i in 0..matches {
        let config: RoomConfig = serde_json::from_value(json!({
            "rules": rules[i % rules.len()],
            "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
            "hands": hands,
            "autostart": false
        }))
        .unwrap();
        let created = app.create_room(config).await.unwrap();
        for (s, seat) in created.seats.iter().enumerate() {
            let token = seat.token.clone().unwrap();
            let room = created.room.clone();
            clients.push(tokio::spawn(seat_client(addr, room, token, i * 4 + s)));
        }
    }
    // Start every match once its seats are connected (a start before that is fine too: the
    // clients get the state when they connect).
    tokio::time::sleep(Duration::from_millis(500)).await;
    for r in app.rooms() {
        let Some(token) = app_token(&app, &r.id).await else {
            continue;
        };
        let url = format!("ws://{addr}/ws/{}?token={token}", r.id);
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await {
            let _ = ws.send(Message::text(r#"{"type":"start"}"#)).await;
            let _ = ws.close(None).await;
        }
    }
    let all = tokio::time::timeout(
        Duration::from_secs(600),
        futures_util::future::join_all(clients),
    )
    .await
    .expect("the load test ends within 10 minutes");
    let elapsed = started.elapsed();
    let mut lat = Vec::new();
    let mut errors = 0;
    let mut finished = 0;
    for s in all.into_iter().flatten() {
        lat.extend(s.latencies_us);
        errors += s.errors;
        finished += usize::from(s.finished);
    }
    report(matches, hands, lat, errors, finished, elapsed);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drives running processes: rooms created on each in turn, each room's seats on its process.
async fn remote(nodes: &[SocketAddr], matches: usize, hands: u32) {
    let rules = ["hongkong", "hangzhou", "yangzhou", "classic"];
    let started = Instant::now();
    let mut clients = Vec::new();
    let mut errors = 0u64;
    for i in 0..matches {
        let node = nodes[i % nodes.len()];
        let config = json!({
            "rules": rules[i % rules.len()],
            "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
            "hands": hands,
        });
        let Some(created) = create_remote(node, &config).await else {
            errors += 1;
            continue;
        };
        let room = created["room"].as_str().unwrap_or_default().to_string();
        for (s, seat) in created["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let token = seat["token"].as_str().unwrap_or_default().to_string();
            clients.push(tokio::spawn(seat_client(
                node,
                room.clone(),
                token,
                i * 4 + s,
            )));
        }
    }
    let all = tokio::time::timeout(
        Duration::from_secs(600),
        futures_util::future::join_all(clients),
    )
    .await
    .expect("the load test ends within 10 minutes");
    let elapsed = started.elapsed();
    let (mut lat, mut finished) = (Vec::new(), 0);
    for s in all.into_iter().flatten() {
        lat.extend(s.latencies_us);
        errors += s.errors;
        finished += usize::from(s.finished);
    }
    println!("{} process(es): {nodes:?}", nodes.len());
    report(matches, hands, lat, errors, finished, elapsed);
}

fn report(
    matches: usize,
    hands: u32,
    mut lat: Vec<u64>,
    errors: u64,
    finished: usize,
    elapsed: Duration,
) {
    lat.sort_unstable();
    println!(
        "{matches} matches x {hands} hand(s), {} clients: {} finished, {} actions acked in {:.1} s ({:.0} actions/s), {errors} errors",
        matches * 4,
        finished,
        lat.len(),
        elapsed.as_secs_f64(),
        lat.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "tables in play at once: {} at most (think {} ms, {})",
        PEAK.load(Ordering::Relaxed),
        THINK_MS.load(Ordering::Relaxed),
        if DELTAS.load(Ordering::Relaxed) {
            "clients ask for deltas"
        } else {
            "whole states"
        }
    );
    println!(
        "action -> ack latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&lat, 0.5) as f64 / 1000.0,
        percentile(&lat, 0.9) as f64 / 1000.0,
        percentile(&lat, 0.99) as f64 / 1000.0,
        lat.last().copied().unwrap_or(0) as f64 / 1000.0
    );
}

/// Seat 0's token of a room (the load test holds every token through the store).
async fn app_token(app: &App, room: &str) -> Option<String> {
    app.store()
        .room(room)
        .await
        .ok()??
        .tokens
        .first()
        .cloned()?
}
