//! In headless Chromium: a seat's link opened at a node of a cluster that does not run the room
//! plays at the node that does. The page connects to its own server, is told `moved`, follows
//! it, and shows the table ready to play. Screenshots at 1366×768, 1920×1080 and 390×844 go
//! to `target/e2e-screenshots/cluster-*.png`. Skips loudly without Chromium and chromedriver
//! (`scripts/install-browser.sh`).

mod common;

use fantoccini::ClientBuilder;
use majiang_server::cluster::Node;
use majiang_server::{App, SqliteStore};
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether the page offers the person something to do (tiles to discard or buttons).
const READY: &str = r#"
return !!(document.querySelector('#actions button.action')
       || document.querySelector('#hand .tile.playable'));
"#;

async fn node(path: &std::path::Path) -> (App, std::net::SocketAddr) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let store = Arc::new(SqliteStore::open(path).unwrap());
    let app = App::with_store(store, Some(Node::new(&format!("http://{addr}"), 2000)))
        .await
        .unwrap();
    let a = app.clone();
    tokio::spawn(async move {
        majiang_server::serve(listener, a, std::future::pending())
            .await
            .unwrap();
    });
    (app, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_link_at_another_node_plays_at_the_owner() {
    if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(CHROMEDRIVER).exists() {
        eprintln!(
            "\n!!!!!!!! SKIPPED: the cluster browser test needs {CHROMIUM} and {CHROMEDRIVER} \
             (run scripts/install-browser.sh) !!!!!!!!\n"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cluster.sqlite");
    let (a, _a_addr) = node(&db).await;
    let (b, b_addr) = node(&db).await;
    let created = a
        .create_room(common::config(json!({
            "rules": "hangzhou", "hands": 1, "autostart": true, "bot_delay_ms": 0,
            "seats": [{"name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let link = created.seats[0].link.clone().unwrap();

    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = tempfile::tempdir().unwrap();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-sync", "--window-size=1366,768",
                format!("--user-data-dir={}", profile.path().display()),
            ]
        }),
    );
    let webdriver = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let c = loop {
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(caps.clone());
        match builder.connect(&webdriver).await {
            Ok(c) => break c,
            Err(_) if started.elapsed() < Duration::from_secs(20) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session: {e}"),
        }
    };
    c.goto(&format!("http://{b_addr}{link}")).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while c.execute(READY, vec![]).await.unwrap() != json!(true) {
        assert!(
            Instant::now() < deadline,
            "the page at the other node never got a turn"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The room still runs at A only; the page is still B's.
    assert!(b.room(&created.room).is_none());
    let here = c.current_url().await.unwrap();
    assert_eq!(here.port(), Some(b_addr.port()));
    let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("e2e-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for (w, h) in [(1366, 768), (1920, 1080), (390, 844)] {
        c.set_window_size(w, h).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let png = c.screenshot().await.unwrap();
        let file = shots.join(format!("cluster-moved-{w}x{h}.png"));
        std::fs::write(&file, png).unwrap();
        eprintln!("screenshot: {}", file.display());
    }
    let _ = c.close().await;
}
