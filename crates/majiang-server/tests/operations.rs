//! Operations: `/healthz`, `/metrics`, and two nodes of a cluster in one process sharing a
//! SQLite file (the lease logic is the same on PostgreSQL, which `crates/majiang-cli/tests/
//! failover.rs` runs across processes): the lobby lists the other node's rooms, requests for
//! them are redirected, WebSocket clients are sent there — to the public URL each node was
//! given. On PostgreSQL: an id with a NUL byte is not found, and `/healthz` answers at once
//! while the database is frozen.

use crate::common;

use common::Client;
use majiang_server::cluster::Node;
use majiang_server::protocol::ServerMsg;
use majiang_server::{App, AppError, PgStore, SqliteStore};
use majiang_testkit::pg as pg_cluster;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A plain HTTP/1.1 request: status, head, body.
async fn http(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_string(),
        body.to_string(),
    )
}

async fn serve(app: App, listener: tokio::net::TcpListener) {
    tokio::spawn(async move {
        majiang_server::serve(listener, app, std::future::pending())
            .await
            .unwrap();
    });
}

#[tokio::test]
async fn healthz_and_metrics_report_the_process() {
    let (app, addr) = common::start_server().await;
    let (status, _, body) = http(addr, "/healthz").await;
    assert_eq!(status, 200);
    let health: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["store"], "sqlite");
    assert_eq!(health["node"], Value::Null);
    // A bots-only match plays out: its actions are counted.
    let room = app
        .create_room(common::config(json!({
            "rules": "hongkong", "hands": 1,
            "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap()
        .room;
    for _ in 0..200 {
        if app.room(&room).unwrap().summary().finished.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, head, text) = http(addr, "/metrics").await;
    assert_eq!(status, 200);
    assert!(head.contains("openmetrics-text"), "{head}");
    let actions: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("majiang_actions_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no actions counter in {text}"));
    assert!(actions > 10.0, "{text}");
    for name in [
        "majiang_rooms ",
        "majiang_connections ",
        "majiang_ack_latency_seconds_bucket",
        "majiang_store_errors_total ",
        "majiang_rooms_taken_over_total ",
        "majiang_writes_fenced_total ",
    ] {
        assert!(text.contains(name), "{name} missing from {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_sends_clients_to_the_node_running_the_room() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cluster.sqlite");
    let mut nodes = Vec::new();
    for _ in 0..2 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let store = Arc::new(SqliteStore::open(&path).unwrap());
        let app = App::with_store(store, Some(Node::new(&format!("http://{addr}/"), 600)))
            .await
            .unwrap();
        serve(app.clone(), listener).await;
        nodes.push((app, addr));
    }
    let (a, a_addr) = nodes[0].clone();
    let (b, b_addr) = nodes[1].clone();
    assert_eq!(a.node().unwrap().url, format!("http://{a_addr}"));
    let created = a
        .create_room(common::config(json!({"rules": "hongkong"})))
        .await
        .unwrap();
    let id = created.room.clone();
    let token = created.seats[0].token.clone().unwrap();

    // B lists A's room once its lease round has run, and does not run it.
    let mut listed = false;
    for _ in 0..40 {
        let (_, _, body) = http(b_addr, "/api/rooms").await;
        if body.contains(&id) {
            listed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(listed, "B's lobby lists A's room");
    assert!(b.room(&id).is_none());

    let (status, head, _) = http(b_addr, &format!("/api/rooms/{id}")).await;
    assert_eq!(status, 307);
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("location: http://{a_addr}/api/rooms/{id}")),
        "{head}"
    );
    let (status, _, body) = http(a_addr, &format!("/api/rooms/{id}")).await;
    assert_eq!((status, body.contains(&id)), (200, true));

    // The WebSocket at B says where to go, with the same query (the token, deltas); there the
    // token opens its seat.
    let mut ws = Client::connect(b_addr, &id, Some(&token)).await;
    let Some(ServerMsg::Moved { url: target }) = ws.recv().await else {
        panic!("no moved message");
    };
    assert_eq!(
        target,
        format!("ws://{a_addr}/ws/{id}?token={token}&deltas=1")
    );
    let mut ws = Client::connect_url(&target).await;
    let welcome = ws.recv().await;
    assert!(
        matches!(welcome, Some(ServerMsg::Welcome { seat: Some(0), .. })),
        "{welcome:?}"
    );

    // A leaves cleanly: B takes the room over at the next request, without waiting for the
    // lease to run out, and the same token opens the same seat there.
    a.leave_cluster().await;
    assert!(a.room(&id).is_none());
    let (status, _, body) = http(b_addr, &format!("/api/rooms/{id}")).await;
    assert_eq!((status, body.contains(&id)), (200, true), "{body}");
    assert!(b.room(&id).is_some());
    let mut ws = Client::connect(b_addr, &id, Some(&token)).await;
    let welcome = ws.recv().await;
    assert!(
        matches!(welcome, Some(ServerMsg::Welcome { seat: Some(0), .. })),
        "no welcome at B: {welcome:?}"
    );

    // An unknown room is unknown everywhere.
    assert_eq!(http(b_addr, "/api/rooms/nope").await.0, 404);
    let (_, _, health) = http(b_addr, "/healthz").await;
    assert!(health.contains(&format!("http://{b_addr}")), "{health}");
}

/// Behind a TLS proxy each node has a public address: redirects and `moved` name it (https,
/// wss), never the address the node listens on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_and_moves_name_the_public_url() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("public.sqlite");
    let mut nodes = Vec::new();
    for n in 1..=2 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let store = Arc::new(SqliteStore::open(&path).unwrap());
        let node = Node::named(
            &format!("web-{n}"),
            &format!("https://n{n}.example.org/"),
            600,
        );
        let app = App::with_store(store, Some(node)).await.unwrap();
        serve(app.clone(), listener).await;
        nodes.push((app, addr));
    }
    let (a, _) = nodes[0].clone();
    let (_, b_addr) = nodes[1].clone();
    let created = a
        .create_room(common::config(json!({"rules": "hongkong"})))
        .await
        .unwrap();
    let (id, token) = (
        created.room.clone(),
        created.seats[0].token.clone().unwrap(),
    );
    let (status, head, _) = http(b_addr, &format!("/api/rooms/{id}?x=1")).await;
    assert_eq!(status, 307);
    assert!(
        head.to_ascii_lowercase().contains(&format!(
            "location: https://n1.example.org/api/rooms/{id}?x=1"
        )),
        "{head}"
    );
    let mut ws = Client::connect(b_addr, &id, Some(&token)).await;
    let Some(ServerMsg::Moved { url }) = ws.recv().await else {
        panic!("no moved message");
    };
    assert_eq!(
        url,
        format!("wss://n1.example.org/ws/{id}?token={token}&deltas=1")
    );
    // A third process under a name in use is refused (after waiting out a lease and a half
    // in case its holder had died).
    let store = Arc::new(SqliteStore::open(&path).unwrap());
    let clash = App::with_store(
        store,
        Some(Node::named("web-1", "https://n3.example.org", 300)),
    )
    .await;
    assert!(
        matches!(&clash, Err(AppError::NodeNameTaken { name, url }) if name == "web-1" && url == "https://n1.example.org"),
        "{:?}",
        clash.err()
    );
}

/// Sends `sig` (`-STOP`, `-CONT`) to every process of `pids`.
fn signal_all(pids: &[u32], sig: &str) {
    for pid in pids {
        let _ = std::process::Command::new("kill")
            .args([sig, &pid.to_string()])
            .status();
    }
}

/// On PostgreSQL (issue 48, item 9): an id with a NUL byte is "no such room" (PostgreSQL
/// refuses such text; it was a 500 and an ERROR line), and `/healthz` answers within a second
/// while the database is frozen (SIGSTOP), saying the process is degraded, then ok again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_nul_id_is_not_found_and_healthz_answers_while_frozen() {
    let Some(cluster) = pg_cluster::PgCluster::start() else {
        return;
    };
    let url = cluster.database("operations");
    let store = Arc::new(PgStore::connect(&url).await.unwrap());
    let app = App::with_store(store, None).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    serve(app.clone(), listener).await;
    for path in [
        "/api/rooms/a%00b",
        "/api/rooms/%00",
        "/api/rooms/ab%00/log",
        "/api/ledgers/a%00b",
    ] {
        let (status, _, body) = http(addr, path).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    assert_eq!(http(addr, "/healthz").await.0, 200);

    let pids = cluster.pids();
    assert!(!pids.is_empty());
    signal_all(&pids, "-STOP");
    let asked = std::time::Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), http(addr, "/healthz")).await;
    let took = asked.elapsed();
    signal_all(&pids, "-CONT");
    let (status, _, body) = answer.expect("/healthz answered while the database was frozen");
    assert_eq!(status, 503, "{body}");
    let health: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(health["status"], "degraded", "{body}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while http(addr, "/healthz").await.0 != 200 {
        assert!(
            std::time::Instant::now() < deadline,
            "not ok after the thaw"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
