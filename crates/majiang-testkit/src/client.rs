//! A WebSocket client speaking the server's own protocol types, for the tests of the server
//! and of `majiang serve`: it sends [`ClientMsg`]s and reads [`ServerMsg`]s (the types of
//! `majiang_server::protocol`, not untyped JSON), so a test waits for a variant and reads its
//! fields by name. It handles the server's message rate limit as a real client does
//! ([`Client::resync_if_limited`]).

use futures_util::{SinkExt, StreamExt};
use majiang::table::{Action, Player};
use majiang_server::protocol::{ClientMsg, RoomStatus, ServerMsg};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// One WebSocket connection speaking the server's own protocol types: it sends
/// [`ClientMsg`]s and reads [`ServerMsg`]s, so a test waits for a variant and reads its fields
/// by name. The JSON text of the last message is kept too ([`Client::last_json`]), for the
/// privacy checks that look at the wire itself (a field the types do not know would vanish
/// when parsed).
///
/// It asks for `state_delta`s ([`Client::connect`], as the browser does; [`Client::connect_whole`]
/// does not, as a client that does not know them). A `state_delta` is applied as the browser
/// applies it, on the JSON of the last `state` ([`apply_state_delta`]), and read as the `state`
/// it makes: a test sees whole states.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, parsed (a `state_delta` as the `state` it makes).
    pub seen: Vec<ServerMsg>,
    last_json: Value,
    /// The JSON of the state this connection holds (whole `state`s and deltas applied).
    state_json: Value,
    /// `state_delta`s received.
    pub deltas: usize,
    next_seq: u64,
}

impl Client {
    /// Connects to a room, with a seat token or as a spectator, asking for `state_delta`s.
    pub async fn connect(addr: SocketAddr, room: &str, token: Option<&str>) -> Client {
        Client::connect_url(&ws_url(addr, room, token, true)).await
    }

    /// Connects to a room without asking for `state_delta`s: every `state` comes whole, as to
    /// a client that does not know them.
    pub async fn connect_whole(addr: SocketAddr, room: &str, token: Option<&str>) -> Client {
        Client::connect_url(&ws_url(addr, room, token, false)).await
    }

    /// Connects to a room's WebSocket URL as given (say, by a `moved` message).
    pub async fn connect_url(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            seen: Vec::new(),
            last_json: Value::Null,
            state_json: Value::Null,
            deltas: 0,
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
            let Ok(m) = tokio::time::timeout(Duration::from_secs(10), self.ws.next()).await else {
                let last: Vec<String> = self
                    .seen
                    .iter()
                    .rev()
                    .take(4)
                    .map(|m| format!("{m:?}"))
                    .collect();
                panic!("no message within 10 s; the last ones, newest first: {last:#?}")
            };
            let m = m?;
            match m.ok()? {
                Message::Text(t) => return Some(self.parse(t.as_str())),
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    fn parse(&mut self, text: &str) -> ServerMsg {
        let mut json: Value = serde_json::from_str(text).unwrap();
        let m: ServerMsg = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("not a server message ({e}): {text}"));
        let m = match m {
            ServerMsg::State { .. } => {
                self.state_json = json.clone();
                m
            }
            ServerMsg::StateDelta(_) => {
                assert!(
                    self.state_json.is_object(),
                    "a state_delta before any state: {text}"
                );
                self.deltas += 1;
                apply_state_delta(&mut self.state_json, &json);
                json = self.state_json.clone();
                serde_json::from_value(json.clone())
                    .unwrap_or_else(|e| panic!("the delta made no state ({e}): {text} gave {json}"))
            }
            m => m,
        };
        self.last_json = json;
        self.seen.push(m.clone());
        m
    }

    /// The JSON of the last message received, as it came on the wire; for a `state_delta`,
    /// the `state` it makes (every part of it came on the wire, in this or an earlier
    /// message).
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

/// A room's WebSocket URL, with the seat's token (none: a spectator) and `deltas=1` when
/// `deltas`.
pub fn ws_url(addr: SocketAddr, room: &str, token: Option<&str>, deltas: bool) -> String {
    let query: Vec<String> = token
        .map(|t| format!("token={t}"))
        .into_iter()
        .chain(deltas.then(|| "deltas=1".to_string()))
        .collect();
    match query.is_empty() {
        true => format!("ws://{addr}/ws/{room}"),
        false => format!("ws://{addr}/ws/{room}?{}", query.join("&")),
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

/// Applies the JSON of a `state_delta` to the JSON of a `state`
/// ([`majiang_server::state_delta::apply_to_json`]); a delta that does not fit the state fails
/// the test.
pub fn apply_state_delta(state: &mut Value, delta: &Value) {
    if let Err(e) = majiang_server::state_delta::apply_to_json(state, delta) {
        panic!("a state_delta that does not fit the state: {e}");
    }
}
