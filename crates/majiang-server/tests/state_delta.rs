//! `state_delta` over real WebSockets: a seat's and a spectator's connection that apply each
//! delta to the state they hold (as the browser does: the test kit's client applies it to the
//! JSON of the last state) hold exactly the state a fresh connection is sent whole.

use crate::common;

use common::{Client, assert_private, chair, config, start_server, status};
use majiang::table::Action;
use majiang_server::protocol::{RoomStatus, ServerMsg};
use serde_json::{Value, json};
use std::time::Duration;

/// A state's JSON with each running countdown said as running: a delta leaves a countdown
/// that did not move as it was sent, where a fresh state counts it from now.
fn settled(mut v: Value) -> Value {
    for k in ["deadline_ms", "claim_deadline_ms"] {
        if v[k].is_u64() {
            v[k] = json!("runs");
        }
    }
    if v["continue"].is_object() {
        v["continue"]["deadline_ms"] = json!("runs");
    }
    v
}

/// The whole state a new connection (with `token`, or a spectator's) is sent first.
async fn fresh(addr: std::net::SocketAddr, room: &str, token: Option<&str>) -> Value {
    let mut c = Client::connect(addr, room, token).await;
    c.state().await;
    assert_eq!(
        c.last_json()["type"],
        "state",
        "a new connection gets a whole state"
    );
    c.last_json().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_applying_deltas_holds_the_state_a_fresh_connection_is_sent() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 2, "autostart": true, "bot_delay_ms": 0,
            "seats": [{"name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let room = created.room.clone();
    let token = created.seats[0].token.clone().unwrap();
    let mut watcher = Client::connect(addr, &room, None).await;
    let mut ann = Client::connect(addr, &room, Some(&token)).await;
    let st = ann
        .state_where(|m| status(m) == Some(RoomStatus::Playing))
        .await;
    let me = chair(&st, 0).unwrap();
    // That state may have offered Ann her first discard already: ask for it again.
    ann.sync().await;
    let (mut turns, mut checks, mut pick) = (0, 0, 0usize);
    loop {
        let m = ann.recv().await.expect("the match ends");
        assert_private(ann.last_json(), Some(u64::from(me.0)));
        match &m {
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::HandResult { .. } => ann.go_on().await,
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            ServerMsg::State {
                observation: Some(o),
                ..
            } if !o.legal_actions.is_empty() => {
                // Ann's turn, nothing on offer: the room waits for her alone. Every few turns,
                // her state and the watcher's, built from deltas, are what a new connection
                // is sent whole.
                if o.turn == Some(me) && o.on_offer.is_none() {
                    turns += 1;
                    if turns % 4 == 1 {
                        let held = settled(ann.last_json().clone());
                        assert_eq!(held, settled(fresh(addr, &room, Some(&token)).await));
                        watcher.drain().await;
                        assert_private(watcher.last_json(), None);
                        assert_eq!(
                            settled(watcher.last_json().clone()),
                            settled(fresh(addr, &room, None).await),
                            "the watcher's state"
                        );
                        checks += 1;
                    }
                }
                let legal = &o.legal_actions;
                pick += 7;
                let action = if legal.contains(&Action::Win) {
                    Action::Win
                } else {
                    legal[pick % legal.len()]
                };
                // Under the message rate limit.
                tokio::time::sleep(Duration::from_millis(40)).await;
                ann.act(action).await;
            }
            _ => {}
        }
    }
    assert!(checks >= 3, "only {checks} checks");
    assert!(ann.deltas > 10, "Ann got {} deltas", ann.deltas);
    watcher.drain().await;
    assert!(
        watcher.deltas > 10,
        "the watcher got {} deltas",
        watcher.deltas
    );
    // Ann's states came as deltas but for the two whole ones: on connecting, and after `sync`
    // (a check opens a connection of its own).
    let states = ann
        .seen
        .iter()
        .filter(|m| matches!(m, ServerMsg::State { .. }))
        .count();
    assert_eq!(ann.deltas + 2, states, "deltas of {states} states");
}
