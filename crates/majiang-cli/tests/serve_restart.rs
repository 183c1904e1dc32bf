//! `majiang serve` survives a SIGKILL: every acknowledged action is in the database, the match
//! resumes from it on restart, and the player reconnects with the same seat token.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
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

async fn recv(ws: &mut Ws) -> Value {
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

async fn fresh_state(ws: &mut Ws) -> Value {
    ws.send(Message::text(r#"{"type":"sync"}"#)).await.unwrap();
    loop {
        let m = recv(ws).await;
        if m["type"] == "state" && m["observation"]["legal_actions"].as_array().is_some() {
            // Skip states already queued before the sync: the newest has the most actions.
            let mut last = m;
            while let Ok(Some(Ok(Message::Text(t)))) =
                tokio::time::timeout(Duration::from_millis(300), ws.next()).await
            {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "state" {
                    last = v;
                }
            }
            return last;
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
            let legal = st["observation"]["legal_actions"]
                .as_array()
                .unwrap()
                .clone();
            assert!(!legal.is_empty(), "the bots play up to the person: {st}");
            seq += 1;
            let action = legal.last().unwrap().clone();
            let msg = json!({"type": "action", "seq": seq, "action": action});
            ws.send(Message::text(msg.to_string())).await.unwrap();
            loop {
                let m = recv(&mut ws).await;
                if m["type"] == "ack" {
                    assert_eq!(m["seq"], seq);
                    acked += 1;
                    break;
                }
                assert_ne!(m["type"], "error", "{m}");
            }
        }
        let st = fresh_state(&mut ws).await;
        let me = st["observation"]["player"].as_u64().unwrap() as usize;
        let discards = st["observation"]["table"][me]["discards"].clone();
        (st, discards)
    });
    assert!(before["actions"].as_u64().unwrap() >= 12);

    // SIGKILL: no chance to flush anything.
    child.kill().unwrap();
    child.wait().unwrap();

    let (mut child, addr, mut out) = start(&db);
    let url = format!("ws://{addr}/ws/{room}?token={token}");
    let (after, next) = rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        let welcome = recv(&mut ws).await;
        assert_eq!(welcome["type"], "welcome");
        assert_eq!(welcome["seat"], 0, "the same token opens the same seat");
        let st = fresh_state(&mut ws).await;
        // And play goes on: one more action is acknowledged.
        let legal = st["observation"]["legal_actions"]
            .as_array()
            .unwrap()
            .clone();
        let msg = json!({"type": "action", "seq": 100, "action": legal.last().unwrap()});
        ws.send(Message::text(msg.to_string())).await.unwrap();
        loop {
            let m = recv(&mut ws).await;
            assert_ne!(m["type"], "error", "{m}");
            if m["type"] == "ack" {
                assert_eq!(m["seq"], 100);
                break;
            }
        }
        (st, fresh_state(&mut ws).await)
    });
    assert!(next["actions"].as_u64() > after["actions"].as_u64());
    assert_eq!(after["status"], "playing");
    assert_eq!(
        after["actions"], before["actions"],
        "every acknowledged action kept"
    );
    assert_eq!(
        after["observation"], before["observation"],
        "the same table"
    );
    let me = after["observation"]["player"].as_u64().unwrap() as usize;
    assert_eq!(after["observation"]["table"][me]["discards"], my_discards);
    // A made-up token still opens nothing.
    let (status, _) = http(addr, "GET", &format!("/ws/{room}?token=abc"), "");
    assert!(status == 403 || status == 400, "status {status}");

    // SIGTERM with a WebSocket open: the server closes it and stops cleanly.
    rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        assert_eq!(recv(&mut ws).await["type"], "welcome");
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
