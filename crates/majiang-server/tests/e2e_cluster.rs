//! In headless Chromium: a seat's link opened at a node of a cluster that does not run the room
//! plays at the node that does. The page connects to its own server, is told `moved`, follows
//! it, and shows the table ready to play. Screenshots at 1366×768, 1920×1080 and 390×844 go
//! to `target/e2e-screenshots/cluster-*.png`. Skips loudly without Chromium and chromedriver
//! (`scripts/install-browser.sh`).

use crate::common;
use majiang_testkit::browser;

use browser::{Browser, SIZES, save_screenshot, set_viewport};
use majiang_server::cluster::Node;
use majiang_server::{App, SqliteStore};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    let Some(browser) = Browser::start("the cluster browser test", 1366, 768).await else {
        return;
    };
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

    let c = browser.client.clone();
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
    for (w, h) in SIZES {
        set_viewport(&c, w, h).await.unwrap();
        save_screenshot(&c, &format!("cluster-moved-{w}x{h}"))
            .await
            .unwrap();
    }
    browser.close().await;
}
