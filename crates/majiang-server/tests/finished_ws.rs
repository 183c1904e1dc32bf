//! A WebSocket to a finished room that left memory is answered from the store, as
//! `GET /api/rooms/ID` is: `welcome` and the final `state` (what the room in memory sent),
//! then the server closes it. No room is loaded to answer: opening the links of finished
//! rooms again and again costs a store read (or a cache hit), never a room in memory.

use crate::common;

use common::{Client, chair, config, play_to_the_end};
use majiang_server::Limits;
use majiang_server::protocol::{RoomStatus, ServerMsg};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The parts of a `state` a finished room's page reads (not the observation: the page shows
/// the standings in its place), and whom each seat is.
fn finished_view(state: &Value) -> Value {
    let seats: Vec<Value> = state["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| json!([s["seat"], s["name"], s["bot"], s["player"]]))
        .collect();
    json!({
        "status": state["status"],
        "seats": seats,
        "hand_number": state["hand_number"],
        "hands": state["hands"],
        "ledger": state["ledger"],
        "actions": state["actions"],
        "waits": state["waits"],
    })
}

/// What a new connection with `token` is sent before the server closes it (at most 10
/// messages, which a room in memory would exceed: it keeps the connection open).
async fn greeting(addr: std::net::SocketAddr, room: &str, token: Option<&str>) -> Vec<Value> {
    let mut c = Client::connect_whole(addr, room, token).await;
    let mut said = Vec::new();
    while said.len() < 10 {
        match c.recv().await {
            Some(_) => said.push(c.last_json().clone()),
            None => return said,
        }
    }
    panic!("the connection stayed open: {said:?}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_rooms_websocket_is_answered_from_the_store_without_loading_it() {
    let (app, addr) = common::start_with_limits(Limits {
        finished_linger: Duration::from_millis(100),
        ..Limits::default()
    })
    .await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "autostart": true,
            "seats": [{"name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let (room, token) = (
        created.room.clone(),
        created.seats[0].token.clone().unwrap(),
    );
    let mut ann = Client::connect(addr, &room, Some(&token)).await;
    let st = ann.state_where(|m| chair(m, 0).is_some()).await;
    play_to_the_end(&mut ann, chair(&st, 0).unwrap(), 5).await;
    // What the room in memory shows Ann and a spectator once the match is over.
    let mut in_memory = Vec::new();
    for who in [Some(token.as_str()), None] {
        let mut c = Client::connect_whole(addr, &room, who).await;
        let seat = c.welcome().await;
        assert_eq!(seat, who.map(|_| 0));
        let state = c
            .state_where(|m| common::status(m) == Some(RoomStatus::Finished))
            .await;
        assert!(matches!(state, ServerMsg::State { .. }));
        in_memory.push(finished_view(c.last_json()));
    }
    drop(ann);
    let until = Instant::now() + Duration::from_secs(10);
    while app.rooms_in_memory() > 0 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(app.rooms_in_memory(), 0, "the finished room left memory");

    // Watches the rooms in memory while the links are opened (a room loaded to answer would
    // stay at least the finished linger).
    let watching = Arc::new(AtomicBool::new(true));
    let watcher = {
        let (app, watching) = (app.clone(), watching.clone());
        tokio::spawn(async move {
            let mut loaded = 0;
            while watching.load(Ordering::Relaxed) {
                loaded = loaded.max(app.rooms_in_memory());
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            loaded
        })
    };
    for round in 0..20 {
        for (who, seen) in [Some(token.as_str()), None].into_iter().zip(&in_memory) {
            let said = greeting(addr, &room, who).await;
            assert_eq!(said.len(), 2, "welcome and state, then closed: {said:?}");
            assert_eq!(said[0]["type"], "welcome");
            assert_eq!(said[0]["room"], room.as_str());
            assert_eq!(said[0]["seat"], who.map_or(Value::Null, |_| json!(0)));
            assert_eq!(said[0]["config"]["rules"], "hongkong");
            assert_eq!(said[1]["type"], "state");
            assert_eq!(said[1]["observation"], Value::Null);
            // As the room in memory showed it, the actions each may know of included.
            assert_eq!(
                &finished_view(&said[1]),
                seen,
                "round {round}, token {who:?}"
            );
        }
    }
    // A token that opens no seat is refused, as by a room in memory.
    let url = majiang_testkit::client::ws_url(addr, &room, Some("not-a-token"), false);
    let refused = tokio_tungstenite::connect_async(url.as_str()).await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.to_string().contains("403")),
        "{:?}",
        refused.map(|_| ())
    );
    watching.store(false, Ordering::Relaxed);
    assert_eq!(watcher.await.unwrap(), 0, "a WebSocket loaded the room");
    // The lobby summary agrees.
    let (status, _, body) = common::http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
    assert_eq!(status, 200, "{body}");
    let summary: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(summary["ledger"], in_memory[0]["ledger"]);
}
