//! A real WebSocket client speaking the server's own protocol types ([`ClientMsg`] out,
//! [`ServerMsg`] in), and a server on a free loopback port, for the integration tests.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use majiang::table::{Action, Observation, Player};
use majiang_server::App;
use majiang_server::protocol::{ClientMsg, RoomConfig, RoomStatus, ServerMsg};
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

/// One WebSocket connection speaking the server's own protocol types: it sends
/// [`ClientMsg`]s and reads [`ServerMsg`]s, so a test waits for a variant and reads its fields
/// by name. The JSON text of the last message is kept too ([`Client::last_json`]), for the
/// privacy checks that look at the wire itself (a field the types do not know would vanish
/// when parsed).
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, parsed.
    pub seen: Vec<ServerMsg>,
    last_json: Value,
    next_seq: u64,
}

impl Client {
    /// Connects to a room, with a seat token or as a spectator.
    pub async fn connect(addr: SocketAddr, room: &str, token: Option<&str>) -> Client {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{room}?token={t}"),
            None => format!("ws://{addr}/ws/{room}"),
        };
        Client::connect_url(&url).await
    }

    /// Connects to a room's WebSocket URL as given (say, by a `moved` message).
    pub async fn connect_url(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            seen: Vec::new(),
            last_json: Value::Null,
            next_seq: 1,
        }
    }

    /// Sends raw text (malformed messages, for the tests that the server refuses them).
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).unwrap();
        self.send_text(&text).await;
    }

    /// Asks for a fresh `state`.
    pub async fn sync(&mut self) {
        self.send(&ClientMsg::Sync {}).await;
    }

    /// Says it is ready for the next hand.
    pub async fn go_on(&mut self) {
        self.send(&ClientMsg::Continue {}).await;
    }

    /// Sends an action; returns its sequence number.
    pub async fn act(&mut self, action: Action) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.send(&ClientMsg::Action { seq, action }).await;
        seq
    }

    /// After a refusal `m`: when the rate limit dropped our message (a scripted client answers
    /// faster than 20 a second), wait a moment and ask for the state again, as a real client
    /// would, so the dropped decision is offered anew.
    pub async fn resync_if_limited(&mut self, m: &ServerMsg) {
        if rate_limited(m) {
            tokio::time::sleep(Duration::from_millis(500)).await;
            self.sync().await;
        }
    }

    /// The next message (within 10 s), or `None` if the connection closed.
    pub async fn recv(&mut self) -> Option<ServerMsg> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s")?;
            match m.ok()? {
                Message::Text(t) => return Some(self.parse(t.as_str())),
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    fn parse(&mut self, text: &str) -> ServerMsg {
        self.last_json = serde_json::from_str(text).unwrap();
        let m: ServerMsg = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("not a server message ({e}): {text}"));
        self.seen.push(m.clone());
        m
    }

    /// The JSON of the last message received, as it came on the wire.
    pub fn last_json(&self) -> &Value {
        &self.last_json
    }

    /// Reads everything already sent, until 300 ms pass in silence.
    pub async fn drain(&mut self) {
        while let Ok(Some(Ok(m))) =
            tokio::time::timeout(Duration::from_millis(300), self.ws.next()).await
        {
            if let Message::Text(t) = m {
                self.parse(t.as_str());
            }
        }
    }

    /// Asks for a fresh state (after draining what was already sent) and returns it.
    pub async fn fresh_state(&mut self) -> ServerMsg {
        self.drain().await;
        self.sync().await;
        self.state().await
    }

    /// Reads until a message `pred` accepts arrives.
    pub async fn until(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await.expect("connection open");
            if pred(&m) {
                return m;
            }
        }
    }

    /// Reads until a `state` arrives.
    pub async fn state(&mut self) -> ServerMsg {
        self.until(|m| matches!(m, ServerMsg::State { .. })).await
    }

    /// Reads until a `state` satisfying `pred` arrives.
    pub async fn state_where(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        self.until(|m| matches!(m, ServerMsg::State { .. }) && pred(m))
            .await
    }

    /// Reads until a `welcome` arrives; returns its seat.
    pub async fn welcome(&mut self) -> Option<usize> {
        match self.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
            ServerMsg::Welcome { seat, .. } => seat,
            _ => unreachable!(),
        }
    }

    /// Reads until an `error` arrives; returns its sequence number and message.
    pub async fn error(&mut self) -> (Option<u64>, String) {
        match self.until(|m| matches!(m, ServerMsg::Error { .. })).await {
            ServerMsg::Error { seq, message, .. } => (seq, message),
            _ => unreachable!(),
        }
    }
}

/// A refusal because the client sent more than the rate limit allows (the message was dropped).
pub fn rate_limited(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Error { message, .. } if message.starts_with("rate limit"))
}

/// The legal actions a `state` offers this connection (none for any other message).
pub fn legal(m: &ServerMsg) -> &[Action] {
    match m {
        ServerMsg::State {
            observation: Some(o),
            ..
        } => &o.legal_actions,
        _ => &[],
    }
}

/// A `state`'s status (`None` for any other message).
pub fn status(m: &ServerMsg) -> Option<RoomStatus> {
    match m {
        ServerMsg::State { status, .. } => Some(*status),
        _ => None,
    }
}

/// The chair of seat `seat` in a `state`, once the match has started.
pub fn chair(m: &ServerMsg, seat: usize) -> Option<Player> {
    match m {
        ServerMsg::State { seats, .. } => seats.get(seat).and_then(|s| s.player),
        _ => None,
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
                client.resync_if_limited(&m).await;
            }
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
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
