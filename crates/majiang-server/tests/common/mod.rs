//! A server on a free loopback port and the checks the integration tests share; the typed
//! WebSocket client is the test kit's ([`majiang_testkit::client`], re-exported here).

#![allow(dead_code)]

// Each test binary uses some of these.
#[allow(unused_imports)]
pub use majiang_testkit::client::{Client, chair, legal, rate_limited, status};

use majiang::table::{Action, Observation, Player};
use majiang_server::App;
use majiang_server::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
use majiang_testkit::browser::err;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Starts a server over an in-memory database; returns the app and its address.
pub async fn start_server() -> (App, SocketAddr) {
    start_with_limits(majiang_server::Limits::default()).await
}

/// Starts a server over an in-memory database under `limits`.
pub async fn start_with_limits(limits: majiang_server::Limits) -> (App, SocketAddr) {
    let store = std::sync::Arc::new(majiang_server::SqliteStore::in_memory().unwrap());
    let app = App::with_limits(store, None, limits).await.unwrap();
    let addr = listen(&app).await;
    (app, addr)
}

/// Serves `app` on a free loopback port until the test ends; returns the address.
pub async fn listen(app: &App) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let a = app.clone();
    tokio::spawn(async move {
        majiang_server::serve(listener, a, std::future::pending())
            .await
            .unwrap();
    });
    addr
}

/// A plain HTTP/1.1 request with a JSON body; returns the status, the head (lower-case) and
/// the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let out = String::from_utf8_lossy(&out).to_string();
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

/// The `/metrics` figure `name` of the server at `addr` (0 when absent). The figures are the
/// process's, shared by every test server of this binary: compare before and after.
pub async fn figure(addr: SocketAddr, name: &str) -> f64 {
    let (_, _, text) = http(addr, "GET", "/metrics", "").await;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Creates a room over HTTP (`POST /api/rooms` with `body`, answered 201); returns its id and
/// the links of its person seats (a bot seat has none).
pub async fn post_room(addr: SocketAddr, body: Value) -> (String, Vec<String>) {
    let (status, _, created) = http(addr, "POST", "/api/rooms", &body.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let links = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["link"].as_str().map(str::to_string))
        .collect();
    (created["room"].as_str().unwrap().to_string(), links)
}

/// Waits up to `secs` for the browser's `script` to return something truthy (not null,
/// `false`, 0 or `""`), asking every 100 ms; returns it, or says that `what` did not come.
pub async fn until(
    c: &fantoccini::Client,
    script: &str,
    secs: u64,
    what: &str,
) -> Result<Value, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = c.execute(script, vec![]).await.map_err(err)?;
        if !(v.is_null() || v == json!(false) || v == json!(0) || v == json!("")) {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(format!("{what}: not within {secs} s"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays as the person of a new room of `hands` Hong Kong hands (seat 0; three efficient
/// bots) on the server `app` at `addr` — passing when it may, else its first legal action,
/// each 60 ms after the state offering it (under the message rate limit of 20 a second) —
/// and times each action's `ack`. Stops when `enough` acks were timed, `for_at_most` has
/// passed or the match is over; every message must come within 10 s. Returns the times in
/// the order played.
pub async fn person_ack_times(
    app: &App,
    addr: SocketAddr,
    hands: u32,
    enough: usize,
    for_at_most: Duration,
) -> Vec<Duration> {
    let created = app
        .create_room(config(json!({"rules": "hongkong", "hands": hands})))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    c.send(&ClientMsg::Start { fill_bots: false }).await;
    c.sync().await;
    let (began, mut acks, mut sent) = (Instant::now(), Vec::new(), None::<Instant>);
    while acks.len() < enough && began.elapsed() < for_at_most {
        let m = tokio::time::timeout(Duration::from_secs(10), c.recv())
            .await
            .expect("the person's room answers within 10 s")
            .expect("the connection stays open");
        match &m {
            ServerMsg::Ack { .. } => acks.extend(sent.take().map(|t| t.elapsed())),
            ServerMsg::HandResult { .. } => c.go_on().await,
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::State {
                status: RoomStatus::Playing,
                observation: Some(o),
                ..
            } if sent.is_none() && !o.legal_actions.is_empty() => {
                tokio::time::sleep(Duration::from_millis(60)).await;
                let pass = o.legal_actions.iter().find(|a| **a == Action::Pass);
                c.act(*pass.unwrap_or(&o.legal_actions[0])).await;
                sent = Some(Instant::now());
            }
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
    acks
}

/// A room config from JSON.
pub fn config(json: Value) -> RoomConfig {
    serde_json::from_value(json).unwrap()
}

/// Checks that a message sent to `me` (a chair, or `None` for a spectator) shows no other
/// player's concealed tiles and nothing of the wall's order. Panics with the message if it does.
pub fn assert_private(msg: &Value, me: Option<u64>) {
    let text = msg.to_string();
    for forbidden in ["\"seed\"", "\"wall\"", "\"order\"", "\"tokens\""] {
        assert!(!text.contains(forbidden), "{forbidden} in {text}");
    }
    match msg["type"].as_str().unwrap() {
        "events" | "history" => {
            for e in msg["events"].as_array().unwrap() {
                let who = e["player"].as_u64();
                match e["type"].as_str().unwrap() {
                    "tiles_dealt" if who != me => assert!(e["tiles"].is_null(), "{e}"),
                    "drew" | "replacement_drawn" if who != me => {
                        assert!(e["tile"].is_null(), "{e}")
                    }
                    "tiles_dealt" | "drew" | "replacement_drawn" => {
                        assert!(me.is_some() && who == me)
                    }
                    _ => {}
                }
            }
        }
        "state" => {
            let o = &msg["observation"];
            if o.is_null() {
                return;
            }
            // Waits are read from the viewer's own hand: never a spectator's.
            let waits = msg["waits"].as_array().map_or(0, |w| w.len());
            assert!(me.is_some() || waits == 0, "a spectator has no waits");
            let me_index = me.map(|m| m as usize);
            let table = o["table"].as_array().unwrap();
            for (i, t) in table.iter().enumerate() {
                let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
                for k in keys {
                    assert!(
                        [
                            "player",
                            "seat",
                            "melds",
                            "flowers",
                            "discards",
                            "concealed_count",
                            "gambit_run"
                        ]
                        .contains(&k.as_str()),
                        "unexpected public field {k} for chair {i}"
                    );
                }
            }
            let concealed = o["concealed"].as_str().unwrap();
            match me_index {
                None => {
                    assert_eq!(concealed, "", "a spectator sees no concealed tiles");
                    // A seat's missed wins (Hong Kong) are its own: never a spectator's.
                    assert!(
                        o.get("missed_wins").is_none(),
                        "a spectator has no missed wins"
                    );
                    assert!(o["drawn"].is_null());
                    assert!(o["legal_actions"].as_array().unwrap().is_empty());
                }
                Some(m) => {
                    assert_eq!(o["player"].as_u64(), Some(m as u64));
                    let own = table[m]["concealed_count"].as_u64().unwrap() as usize;
                    assert_eq!(count_tiles(concealed), own, "own concealed tiles only");
                }
            }
        }
        _ => {}
    }
}

/// Tiles in a notation string like `123m55z`.
pub fn count_tiles(s: &str) -> usize {
    s.chars().filter(|c| c.is_ascii_digit()).count()
}

/// Plays `client` until the match is over with one of the library's bots deciding from the
/// observation the server sent. Checks every message with [`assert_private`]. Returns the
/// number of actions acknowledged.
pub async fn play_with_bot(
    client: &mut Client,
    me: Player,
    bot: &mut dyn majiang::bots::Bot,
) -> u64 {
    play(client, me, |o| bot.act(o, &o.legal_actions)).await
}

/// Plays `client` until the match is over: whenever its state lists legal actions, plays one
/// (a win if offered, else the `pick`-th modulo the count, `pick` growing by 7 each time).
/// Checks every message with [`assert_private`]. Returns the number of actions acknowledged.
pub async fn play_to_the_end(client: &mut Client, me: Player, pick: usize) -> u64 {
    let mut turn = pick;
    play(client, me, |o| {
        let legal = &o.legal_actions;
        if legal.contains(&Action::Win) {
            Action::Win
        } else {
            turn += 7;
            legal[turn % legal.len()]
        }
    })
    .await
}

/// Plays `client` (chair `me`) until the match is over, `choose` picking from each state that
/// offers actions; continues after each hand; waits for each action's `ack`; after a message
/// the rate limit dropped, waits and asks for the state again. Returns the acks.
async fn play(
    client: &mut Client,
    me: Player,
    mut choose: impl FnMut(&Observation) -> Action,
) -> u64 {
    let mut acked = 0;
    let mut waiting_ack = false;
    // A message of ours was dropped by the rate limit since the last hand result.
    let mut resynced = false;
    // The state that told us our chair may have offered actions already: ask again.
    client.sync().await;
    loop {
        let Some(m) = client.recv().await else {
            panic!("connection closed before the match ended")
        };
        assert_private(client.last_json(), Some(u64::from(me.0)));
        match &m {
            ServerMsg::MatchOver { .. } => return acked,
            ServerMsg::HandResult { .. } => client.go_on().await,
            ServerMsg::Ack { .. } => {
                acked += 1;
                waiting_ack = false;
            }
            // A client answering faster than any person can meets the rate limit: the message
            // was dropped, so wait, ask for the state again and answer it.
            ServerMsg::Error { .. } if rate_limited(&m) => {
                waiting_ack = false;
                resynced = true;
                client.resync_if_limited(&m).await;
            }
            // A Continue sent again after a resync (below) may come after the next deal.
            ServerMsg::Error { key, .. } if key == "room.nothing_to_continue" => {}
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            // A hand is over and waits for us: continue (again, if the rate limit dropped it;
            // Continue is idempotent while the hand result waits).
            ServerMsg::State {
                status: RoomStatus::HandOver,
                ..
            } if resynced => {
                resynced = false;
                client.go_on().await;
            }
            ServerMsg::State {
                observation: Some(o),
                ..
            } if !waiting_ack && !o.legal_actions.is_empty() => {
                client.act(choose(o)).await;
                waiting_ack = true;
            }
            _ => {}
        }
    }
}
