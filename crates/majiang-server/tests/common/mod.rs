//! A real WebSocket client and a server on a free loopback port, for the integration tests.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use majiang_server::App;
use majiang_server::protocol::RoomConfig;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Starts a server over an in-memory database; returns the app and its address.
pub async fn start_server() -> (App, SocketAddr) {
    let app = App::in_memory().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let a = app.clone();
    tokio::spawn(async move {
        majiang_server::serve(listener, a, std::future::pending())
            .await
            .unwrap();
    });
    (app, addr)
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

/// A room config from JSON.
pub fn config(json: Value) -> RoomConfig {
    serde_json::from_value(json).unwrap()
}

/// One WebSocket connection.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, parsed.
    pub seen: Vec<Value>,
    next_seq: u64,
}

impl Client {
    /// Connects to a room, with a seat token or as a spectator.
    pub async fn connect(addr: SocketAddr, room: &str, token: Option<&str>) -> Client {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{room}?token={t}"),
            None => format!("ws://{addr}/ws/{room}"),
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            seen: Vec::new(),
            next_seq: 1,
        }
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Sends an action; returns its sequence number.
    pub async fn act(&mut self, action: &Value) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let msg = serde_json::json!({"type": "action", "seq": seq, "action": action});
        self.send_text(&msg.to_string()).await;
        seq
    }

    /// After a refusal `m`: when the rate limit dropped our message (a scripted client answers
    /// faster than 20 a second), wait a moment and ask for the state again, as a real client
    /// would, so the dropped decision is offered anew.
    pub async fn resync_if_limited(&mut self, m: &Value) {
        if m["type"] == "error"
            && m["message"]
                .as_str()
                .is_some_and(|t| t.starts_with("rate limit"))
        {
            tokio::time::sleep(Duration::from_millis(500)).await;
            self.send_text(r#"{"type":"sync"}"#).await;
        }
    }

    /// The next message (within 10 s), or `None` if the connection closed.
    pub async fn recv(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s")?;
            match m.ok()? {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.seen.push(v.clone());
                    return Some(v);
                }
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// Reads everything already sent, until 300 ms pass in silence.
    pub async fn drain(&mut self) {
        while let Ok(Some(Ok(m))) =
            tokio::time::timeout(Duration::from_millis(300), self.ws.next()).await
        {
            if let Message::Text(t) = m {
                self.seen.push(serde_json::from_str(t.as_str()).unwrap());
            }
        }
    }

    /// Asks for a fresh state (after draining what was already sent) and returns it.
    pub async fn fresh_state(&mut self) -> Value {
        self.drain().await;
        self.send_text(r#"{"type":"sync"}"#).await;
        self.until("state").await
    }

    /// Reads until a message of this type arrives.
    pub async fn until(&mut self, ty: &str) -> Value {
        loop {
            let m = self.recv().await.expect("connection open");
            if m["type"] == ty {
                return m;
            }
        }
    }
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
/// observation the server sent (parsed back into `majiang::table::Observation`). Checks every
/// message with [`assert_private`]. Returns the number of actions acknowledged.
pub async fn play_with_bot(client: &mut Client, me: u64, bot: &mut dyn majiang::bots::Bot) -> u64 {
    let mut acked = 0;
    let mut waiting_ack = false;
    client.send_text(r#"{"type":"sync"}"#).await;
    loop {
        let Some(m) = client.recv().await else {
            panic!("connection closed before the match ended")
        };
        assert_private(&m, Some(me));
        match m["type"].as_str().unwrap() {
            "match_over" => return acked,
            "hand_result" => client.send_text(r#"{"type":"continue"}"#).await,
            "ack" => {
                acked += 1;
                waiting_ack = false;
            }
            "error"
                if m["message"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("rate limit")) =>
            {
                waiting_ack = false;
                tokio::time::sleep(Duration::from_millis(500)).await;
                client.send_text(r#"{"type":"sync"}"#).await;
            }
            "error" => panic!("refused: {m}"),
            "state" if !waiting_ack && !m["observation"].is_null() => {
                let obs: majiang::table::Observation =
                    serde_json::from_value(m["observation"].clone()).unwrap();
                if obs.legal_actions.is_empty() {
                    continue;
                }
                let a = bot.act(&obs, &obs.legal_actions);
                client.act(&serde_json::to_value(a).unwrap()).await;
                waiting_ack = true;
            }
            _ => {}
        }
    }
}

/// Plays `client` until the match is over: whenever its state lists legal actions, plays one
/// (a win if offered, else the `pick`-th modulo the count). Checks every message with
/// [`assert_private`]. Returns the number of actions acknowledged.
pub async fn play_to_the_end(client: &mut Client, me: u64, pick: usize) -> u64 {
    let mut acked = 0;
    let mut turn = pick;
    let mut waiting_ack = false;
    // The state that told us our chair may have offered actions already: ask again.
    client.send_text(r#"{"type":"sync"}"#).await;
    loop {
        let Some(m) = client.recv().await else {
            panic!("connection closed before the match ended")
        };
        assert_private(&m, Some(me));
        match m["type"].as_str().unwrap() {
            "match_over" => return acked,
            "hand_result" => client.send_text(r#"{"type":"continue"}"#).await,
            "ack" => {
                acked += 1;
                waiting_ack = false;
            }
            // A client answering faster than any person can meets the rate limit: the message
            // was dropped, so wait, ask for the state again and answer it.
            "error"
                if m["message"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("rate limit")) =>
            {
                waiting_ack = false;
                tokio::time::sleep(Duration::from_millis(500)).await;
                client.send_text(r#"{"type":"sync"}"#).await;
            }
            "error" => panic!("refused: {m}"),
            "state" if !waiting_ack => {
                let legal = m["observation"]["legal_actions"].as_array().cloned();
                let Some(legal) = legal else { continue };
                if legal.is_empty() {
                    continue;
                }
                let win = Value::String("win".into());
                let a = if legal.contains(&win) {
                    win
                } else {
                    turn += 7;
                    legal[turn % legal.len()].clone()
                };
                client.act(&a).await;
                waiting_ack = true;
            }
            _ => {}
        }
    }
}
