//! `majiang serve` survives a SIGKILL: every acknowledged action is in the database, the match
//! resumes from it on restart, and the player reconnects with the same seat token. The player
//! is the test kit's typed protocol client.

use crate::common::serve::{Serve, signal};
use majiang::table::{Action, Observation};
use majiang_server::protocol::{RoomStatus, ServerMsg};
use majiang_testkit::client::Client;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

type Lines = std::io::Lines<BufReader<std::process::ChildStdout>>;

/// Starts `majiang serve` on a free port; returns the process (killed if the test fails), its
/// address and the rest of its standard output (kept open: the server prints when it stops).
fn start(db: &std::path::Path) -> (Serve, SocketAddr, Lines) {
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
    (Serve(child), addr, out.lines())
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

/// What a seat's `state` says: the actions so far, its status and its observation.
struct SeatState {
    actions: u64,
    status: RoomStatus,
    observation: Observation,
}

/// A fresh `state` of the seat, after everything already queued.
async fn fresh_state(c: &mut Client) -> SeatState {
    match c.fresh_state().await {
        ServerMsg::State {
            actions,
            status,
            observation: Some(o),
            ..
        } => SeatState {
            actions,
            status,
            observation: *o,
        },
        m => panic!("a seat's state has an observation: {m:?}"),
    }
}

/// A state of the seat in which it has a decision to take. The bots play on their own time
/// (and a restored room may still be storing a bot's move when the seat connects), so the
/// first states after an ack or a connection may show another chair's turn; and a hand the
/// bots end waits for the person's `continue` (or the room's timer, 30 s). Waits, bounded,
/// for the person's decision, saying `continue` when a hand is over.
async fn decision_state(c: &mut Client, what: &str) -> SeatState {
    let until = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let st = fresh_state(c).await;
        if !st.observation.legal_actions.is_empty() {
            return st;
        }
        assert!(std::time::Instant::now() < until, "{what} within 10 s");
        if st.status == RoomStatus::HandOver {
            c.go_on().await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sends `action` and waits for its ack (nothing may be refused).
async fn act(c: &mut Client, action: Action) {
    let seq = c.act(action).await;
    loop {
        match c.recv().await.expect("connection open") {
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
        let mut c = Client::connect_url(&url).await;
        for _ in 0..12 {
            let st = decision_state(&mut c, "the bots play up to the person").await;
            act(&mut c, *st.observation.legal_actions.last().unwrap()).await;
        }
        let st = decision_state(&mut c, "the bots play up to the person").await;
        let me = st.observation.player.index();
        let discards = st.observation.table[me].discards.clone();
        (st, discards)
    });
    assert!(before.actions >= 12);

    // SIGKILL: no chance to flush anything.
    child.kill();

    let (mut child, addr, mut out) = start(&db);
    let url = format!("ws://{addr}/ws/{room}?token={token}");
    let (after, next) = rt.block_on(async {
        let mut c = Client::connect_url(&url).await;
        assert_eq!(
            c.welcome().await,
            Some(0),
            "the same token opens the same seat"
        );
        let st = decision_state(&mut c, "the restored bots play up to the person").await;
        // And play goes on: one more action is acknowledged.
        let last = *st.observation.legal_actions.last().unwrap();
        act(&mut c, last).await;
        (st, fresh_state(&mut c).await)
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
        let mut c = Client::connect_url(&url).await;
        c.welcome().await;
        signal(child.id(), "-TERM");
        // Until the server closes it (a silence of 10 s fails the test).
        let end = tokio::time::timeout(Duration::from_secs(10), async {
            while c.recv().await.is_some() {}
        })
        .await;
        assert!(end.is_ok(), "the WebSocket is closed on shutdown");
    });
    let status = child.0.wait().unwrap();
    assert!(status.success(), "clean exit after SIGTERM: {status}");
    let rest: Vec<String> = out.by_ref().map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("stopped")), "{rest:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
