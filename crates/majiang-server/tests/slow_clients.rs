//! Slow and crowding clients: a request's body must arrive within the request time limit
//! (a body dripped a byte at a time is answered 408 and its connection closed, so a crowd of
//! them from many addresses cannot keep newcomers out), and behind a trusted reverse proxy the
//! per-address cap counts by the forwarded address.

use crate::common::{figure, http, start_with_limits};
use futures_util::StreamExt;
use majiang_server::Limits;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A connection to `server` from the loopback address `from`.
async fn connect_from(from: [u8; 4], server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(server).await.unwrap()
}

/// Sends the headers of a POST of 1,000 bytes and its first byte; then a byte every
/// `every` until the server closes the connection or `limit` passes. What the server sent and
/// whether it closed.
async fn drip(mut s: TcpStream, extra: &str, every: Duration, limit: Duration) -> (String, bool) {
    let head = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}\
         Content-Length: 1000\r\n\r\n{{"
    );
    if s.write_all(head.as_bytes()).await.is_err() {
        return (String::new(), true);
    }
    let until = Instant::now() + limit;
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while Instant::now() < until {
        match tokio::time::timeout(every, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => {
                if s.write_all(b" ").await.is_err() {
                    return (String::from_utf8_lossy(&got).into(), true);
                }
            }
        }
    }
    (String::from_utf8_lossy(&got).into(), false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dripped_bodies_from_many_addresses_are_cut_and_newcomers_served() {
    let limits = Limits {
        max_connections: 48,
        max_connections_per_address: 8,
        request_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let (app, addr) = start_with_limits(limits).await;
    let cut_before = figure(addr, "majiang_requests_timed_out_total").await;
    // Six addresses, eight connections each: every place on the server, each dripping a
    // byte of its body every 100 ms (the headers came at once: only the body is slow).
    let started = Instant::now();
    let mut drippers = Vec::new();
    for a in 2..8u8 {
        for _ in 0..8 {
            let s = connect_from([127, 0, 0, a], addr).await;
            drippers.push(tokio::spawn(drip(
                s,
                "",
                Duration::from_millis(100),
                Duration::from_secs(10),
            )));
        }
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while app.connections() < 48 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(app.connections(), 48, "the drippers hold every place");
    // Every dripper is answered 408 and closed after the request time limit, not kept.
    for d in drippers {
        let (answer, closed) = d.await.unwrap();
        assert!(closed, "a dripped body held its connection: {answer:?}");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    }
    let took = started.elapsed();
    // Each cut counts in /metrics (other tests of this binary may add theirs meanwhile).
    let cut = figure(addr, "majiang_requests_timed_out_total").await - cut_before;
    assert!(cut >= 48.0, "{cut} requests counted as timed out, 48 cut");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(8),
        "cut after {took:?}"
    );
    // A newcomer from another address is served at once.
    let asked = Instant::now();
    let (status, _, _) = http(addr, "GET", "/healthz", "").await;
    assert_eq!(status, 200);
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    // A body that arrives in time is read as ever.
    let (status, _, body) = http(addr, "POST", "/api/rooms", r#"{"rules": "hongkong"}"#).await;
    assert_eq!(status, 201, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_cap_counts_by_the_forwarded_address() {
    let limits = Limits {
        trust_forwarded_for: true,
        max_connections_per_address: 3,
        request_timeout: Duration::from_secs(3),
        ..Limits::default()
    };
    let (_app, addr) = start_with_limits(limits).await;
    // The proxy (127.0.0.1) forwards three slow requests of one client: they hold that
    // client's three places.
    let client = "X-Forwarded-For: 198.51.100.1, 203.0.113.7\r\n";
    let mut slow = Vec::new();
    for _ in 0..3 {
        let s = TcpStream::connect(addr).await.unwrap();
        slow.push(tokio::spawn(drip(
            s,
            client,
            Duration::from_millis(100),
            Duration::from_secs(10),
        )));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A fourth request of that client, on another connection of the proxy, is refused at
    // once; another client's request through the same proxy is served.
    let s = TcpStream::connect(addr).await.unwrap();
    let (answer, closed) = drip(
        s,
        client,
        Duration::from_millis(100),
        Duration::from_secs(2),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer:?}");
    assert!(closed);
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.8\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    // The slow ones are cut at the time limit, and the client's places are free again.
    for d in slow {
        let (answer, closed) = d.await.unwrap();
        assert!(closed && answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    }
    // WebSockets keep their client's place while open: three, then the fourth is refused.
    let room = {
        let (status, _, body) = http(addr, "POST", "/api/rooms", "{}").await;
        assert_eq!(status, 201, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["room"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let ws = || {
        let mut req = format!("ws://{addr}/ws/{room}")
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
        tokio_tungstenite::connect_async(req)
    };
    let mut open = Vec::new();
    for _ in 0..3 {
        let (mut socket, _) = ws().await.expect("a WebSocket within the cap");
        // The welcome: the socket is up.
        assert!(socket.next().await.is_some());
        open.push(socket);
    }
    let refused = ws()
        .await
        .expect_err("a fourth WebSocket of the same client");
    assert!(refused.to_string().contains("429"), "{refused}");
    // One closes: its place is free again.
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match ws().await {
            Ok(_) => break,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("the place of a closed WebSocket stayed taken: {e}"),
        }
    }
}
