//! The HTTP side: the embedded UI, tile pictures, room creation and its refusals, and logs that
//! stay secret until the match is over.

mod common;

use serde_json::Value;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A plain HTTP/1.1 request; returns the status, the headers (lower-case) and the body.
async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
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

#[tokio::test]
async fn the_ui_tiles_and_room_api() {
    let (_app, addr) = common::start_server().await;
    let (status, head, body) = http(addr, "GET", "/", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("text/html"));
    assert!(body.contains("/app.js"));
    for path in ["/app.js", "/style.css"] {
        let (status, _, body) = http(addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(body.len() > 500, "{path} is the embedded file");
    }
    let (status, head, body) = http(addr, "GET", "/tile/7z.svg", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("image/svg+xml"));
    assert!(body.contains("Red dragon"));
    assert_eq!(http(addr, "GET", "/tile/0m.svg", "").await.0, 404);

    // Refused settings: a 400 with the reason.
    for (bad, reason) in [
        (r#"{"rules":"riichi"}"#, "riichi"),
        (
            r#"{"rules":"hongkong","options":{"min_fan":"lots"}}"#,
            "options (hongkong)",
        ),
        (r#"{"rules":"hongkong","seats":[{"name":"a"}]}"#, "seats"),
        (r#"{"rules":"hongkong","colour":"red"}"#, "colour"),
        ("not json", "room settings"),
    ] {
        let (status, _, body) = http(addr, "POST", "/api/rooms", bad).await;
        assert_eq!(status, 400, "{bad}");
        assert!(body.contains(reason), "{bad}: {body}");
    }
    let (status, _, body) = http(
        addr,
        "POST",
        "/api/rooms",
        r#"{"rules":"classic","options":{"players":3},"hands":1}"#,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap();
    assert_eq!(created["seats"].as_array().unwrap().len(), 3);
    let token = created["seats"][0]["token"].as_str().unwrap();
    assert_eq!(token.len(), 32, "128-bit tokens");
    // The lobby lists it, without tokens.
    let (_, _, list) = http(addr, "GET", "/api/rooms", "").await;
    assert!(list.contains(room) && !list.contains(token));
    let (status, _, info) = http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
    assert_eq!(status, 200);
    assert!(info.contains("\"waiting\""));
    // Logs of a match not finished are refused; unknown rooms are 404.
    for tail in ["log", "log.jsonl", "replay"] {
        let (status, _, _) = http(addr, "GET", &format!("/api/rooms/{room}/{tail}"), "").await;
        assert_eq!(status, 403, "{tail}");
        let (status, _, _) = http(addr, "GET", &format!("/api/rooms/nope/{tail}"), "").await;
        assert_eq!(status, 404, "{tail}");
    }
    assert_eq!(http(addr, "GET", "/api/rooms/nope", "").await.0, 404);
}
