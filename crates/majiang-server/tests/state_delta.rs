//! `state_delta` over real WebSockets: a seat's and a spectator's connection that asked for
//! deltas (`?deltas=1`) and apply each to the state they hold (as the browser does: the test
//! kit's client applies it to the JSON of the last state) hold exactly the state a fresh
//! connection is sent whole; a connection that did not ask is sent every state whole, the same
//! states; a `deltas` other than `0` or `1` is refused with `400`.

use crate::common;

use common::{Client, assert_private, chair, config, legal, start_server, status};
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

/// Sends a win if it is legal, else the legal action `pick` chooses, under the message rate
/// limit; returns its sequence number. The caller acts again only once it is acknowledged: a
/// state sent before then (a `sync`'s answer) may offer the decision just taken.
async fn act(c: &mut Client, legal: &[Action], pick: usize) -> u64 {
    let action = if legal.contains(&Action::Win) {
        Action::Win
    } else {
        legal[pick % legal.len()]
    };
    tokio::time::sleep(Duration::from_millis(40)).await;
    c.act(action).await
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
    let mut unacked = None;
    loop {
        let m = ann.recv().await.expect("the match ends");
        assert_private(ann.last_json(), Some(u64::from(me.0)));
        match &m {
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::HandResult { .. } => ann.go_on().await,
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            ServerMsg::Ack { seq } if unacked == Some(*seq) => unacked = None,
            ServerMsg::State {
                observation: Some(o),
                ..
            } if !o.legal_actions.is_empty() && unacked.is_none() => {
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
                pick += 7;
                unacked = Some(act(&mut ann, &o.legal_actions, pick).await);
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

/// Reads a connection, on a task of its own, until the match ends (or it closes).
fn read_to_the_end(mut c: Client) -> tokio::task::JoinHandle<Client> {
    tokio::spawn(async move {
        while let Some(m) = c.recv().await {
            if matches!(m, ServerMsg::MatchOver { .. }) {
                break;
            }
        }
        c
    })
}

/// The states a connection was sent (one made by a delta as the state it made), as JSON with
/// their countdowns settled.
fn states_of(c: &Client) -> Vec<Value> {
    c.seen
        .iter()
        .filter(|m| matches!(m, ServerMsg::State { .. }))
        .map(|m| settled(serde_json::to_value(m).unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_did_not_ask_for_deltas_gets_every_state_whole_and_the_same_states() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "autostart": true, "bot_delay_ms": 0,
            "seats": [{"name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let (room, token) = (&created.room, created.seats[0].token.as_deref());
    // Ann's seat and a spectator, each with a connection that did not ask for deltas (opened
    // first) and one that did; `deltas=0` is the same as no `deltas`.
    let whole_ann = read_to_the_end(Client::connect_whole(addr, room, token).await);
    let zero = format!("ws://{addr}/ws/{room}?deltas=0");
    let whole_watcher = read_to_the_end(Client::connect_url(&zero).await);
    let watcher = read_to_the_end(Client::connect(addr, room, None).await);
    let mut ann = Client::connect(addr, room, token).await;
    let (mut pick, mut unacked) = (0usize, None);
    loop {
        match ann.recv().await.expect("the match ends") {
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            ServerMsg::Ack { seq } if unacked == Some(seq) => unacked = None,
            m if !legal(&m).is_empty() && unacked.is_none() => {
                pick += 5;
                unacked = Some(act(&mut ann, legal(&m), pick).await);
            }
            _ => {}
        }
    }
    let (whole_ann, whole_watcher, watcher) = (
        whole_ann.await.unwrap(),
        whole_watcher.await.unwrap(),
        watcher.await.unwrap(),
    );
    for (who, whole, made) in [
        ("Ann", &whole_ann, &ann),
        ("the spectator", &whole_watcher, &watcher),
    ] {
        // No state_delta on the wire to the one that did not ask (the client counts those it
        // reads), and its states are the ones the deltas made for the other, from the other's
        // opening on.
        assert_eq!(whole.deltas, 0, "{who}: a state_delta unasked for");
        let deltas = made.deltas;
        assert!(deltas > 10, "{who}: {deltas} deltas");
        let (whole, made) = (states_of(whole), states_of(made));
        assert_eq!(made.len(), deltas + 1, "{who}: whole only on opening");
        assert!(whole.ends_with(&made), "{who}: {whole:#?}\n{made:#?}");
    }
}

#[tokio::test]
async fn a_deltas_other_than_0_or_1_is_refused_with_400_and_says_why() {
    use tokio_tungstenite::tungstenite::Error;
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({"rules": "hongkong", "hands": 1})))
        .await
        .unwrap();
    let room = &created.room;
    let token = created.seats[0].token.as_deref().unwrap();
    let with_token = format!("?token={token}&deltas=yes");
    for query in ["?deltas=2", &with_token, "?deltas=", "?deltas=true"] {
        let url = format!("ws://{addr}/ws/{room}{query}");
        let answer = match tokio_tungstenite::connect_async(&url).await {
            Err(Error::Http(answer)) => answer,
            Err(e) => panic!("{query}: {e}"),
            Ok(_) => panic!("{query}: opened"),
        };
        assert_eq!(answer.status(), 400, "{query}");
        let body: Value = serde_json::from_slice(answer.body().as_deref().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{query}: not JSON ({e})"));
        assert_eq!(body["key"], "api.bad_deltas", "{query}: {body}");
        let value = query.rsplit_once('=').unwrap().1;
        assert_eq!(body["args"]["value"], value, "{query}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("deltas=1"),
            "{query}: {body}"
        );
    }
    // `0`, `1` and none open it.
    for query in ["", "?deltas=0", "?deltas=1"] {
        let url = format!("ws://{addr}/ws/{room}{query}");
        assert!(
            tokio_tungstenite::connect_async(&url).await.is_ok(),
            "{query}"
        );
    }
}
