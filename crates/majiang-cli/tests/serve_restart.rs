//! `majiang serve` survives a SIGKILL: every acknowledged action is in the database, the match
//! resumes from it on restart, and the player reconnects with the same seat token.

use futures_util::{SinkExt, StreamExt};
use majiang::table::{Action, Observation};
use majiang_server::protocol::{ClientMsg, RoomStatus, ServerMsg};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Lines = std::io::Lines<BufReader<std::process::ChildStdout>>;

/// Starts `majiang serve` on a free port; returns the child, its address and the rest of its
/// standard output (kept open: the server prints when it stops).
fn start(db: &std::path::Path) -> (Child, SocketAddr, Lines) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // "majiang: serving on http://127.0.0.1:PORT/ (database ...)"
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .parse()
        .unwrap();
    (child, addr, out.lines())
}

/// A plain HTTP/1.1 request; returns the status and the body.
fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    // The bodies here are small: not chunked, or one chunk.
    let body = if out.contains("transfer-encoding: chunked") {
        body.lines().nth(1).unwrap_or("").to_string()
    } else {
        body
    };
    (status, body)
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn recv(ws: &mut Ws) -> ServerMsg {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("connection open")
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

async fn send(ws: &mut Ws, msg: &ClientMsg) {
    let text = serde_json::to_string(msg).unwrap();
    ws.send(Message::text(text)).await.unwrap();
}

/// What a seat's `state` says: the actions so far, its status and its observation.
struct SeatState {
    actions: u64,
    status: RoomStatus,
    observation: Observation,
}

async fn fresh_state(ws: &mut Ws) -> SeatState {
    send(ws, &ClientMsg::Sync {}).await;
    let seat_state = |m: ServerMsg| match m {
        ServerMsg::State {
            actions,
            status,
            observation: Some(o),
            ..
        } => Some(SeatState {
            actions,
            status,
            observation: *o,
        }),
        _ => None,
    };
    loop {
        if let Some(st) = seat_state(recv(ws).await) {
            // Skip states already queued before the sync: the newest has the most actions.
            let mut last = st;
            while let Ok(Some(Ok(Message::Text(t)))) =
                tokio::time::timeout(Duration::from_millis(300), ws.next()).await
            {
                if let Some(st) = seat_state(serde_json::from_str(t.as_str()).unwrap()) {
                    last = st;
                }
            }
            return last;
        }
    }
}

/// Sends `action` as `seq` and waits for its ack (nothing may be refused).
async fn act(ws: &mut Ws, seq: u64, action: Action) {
    send(ws, &ClientMsg::Action { seq, action }).await;
    loop {
        match recv(ws).await {
            ServerMsg::Ack { seq: acked } => {
                assert_eq!(acked, seq);
                return;
            }
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
}

#[test]
fn a_killed_server_resumes_every_acknowledged_action() {
    let dir = std::env::temp_dir().join(format!("majiang-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("test.sqlite");
    let _ = std::fs::remove_file(&db);
    let (mut child, addr, _out) = start(&db);
    let (status, body) = http(
        addr,
        "POST",
        "/api/rooms",
        r#"{"rules":"hongkong","hands":8,"autostart":true}"#,
    );
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let url = format!("ws://{addr}/ws/{room}?token={token}");

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // Play 12 actions, each acknowledged.
    let (before, my_discards) = rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        let mut acked = 0u64;
        let mut seq = 0u64;
        while acked < 12 {
            let st = fresh_state(&mut ws).await;
            let legal = &st.observation.legal_actions;
            assert!(!legal.is_empty(), "the bots play up to the person");
            seq += 1;
            act(&mut ws, seq, *legal.last().unwrap()).await;
            acked += 1;
        }
        let st = fresh_state(&mut ws).await;
        let me = st.observation.player.index();
        let discards = st.observation.table[me].discards.clone();
        (st, discards)
    });
    assert!(before.actions >= 12);

    // SIGKILL: no chance to flush anything.
    child.kill().unwrap();
    child.wait().unwrap();

    let (mut child, addr, mut out) = start(&db);
    let url = format!("ws://{addr}/ws/{room}?token={token}");
    let (after, next) = rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        let welcome = recv(&mut ws).await;
        assert!(
            matches!(welcome, ServerMsg::Welcome { seat: Some(0), .. }),
            "the same token opens the same seat: {welcome:?}"
        );
        let st = fresh_state(&mut ws).await;
        // And play goes on: one more action is acknowledged.
        let last = *st.observation.legal_actions.last().unwrap();
        act(&mut ws, 100, last).await;
        (st, fresh_state(&mut ws).await)
    });
    assert!(next.actions > after.actions);
    assert_eq!(after.status, RoomStatus::Playing);
    assert_eq!(
        after.actions, before.actions,
        "every acknowledged action kept"
    );
    assert_eq!(after.observation, before.observation, "the same table");
    let me = after.observation.player.index();
    assert_eq!(after.observation.table[me].discards, my_discards);
    // A made-up token still opens nothing.
    let (status, _) = http(addr, "GET", &format!("/ws/{room}?token=abc"), "");
    assert!(status == 403 || status == 400, "status {status}");

    // SIGTERM with a WebSocket open: the server closes it and stops cleanly.
    rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        assert!(matches!(recv(&mut ws).await, ServerMsg::Welcome { .. }));
        let term = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(term.success());
        let end = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                match ws.next().await {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        assert!(end.is_ok(), "the WebSocket is closed on shutdown");
    });
    let status = child.wait().unwrap();
    assert!(status.success(), "clean exit after SIGTERM: {status}");
    let rest: Vec<String> = out.by_ref().map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("stopped")), "{rest:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
