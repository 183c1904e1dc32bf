//! The rules of revision 2 through the server (RULES.md §1 and §4): Hong Kong's missed win and
//! the last discard, shown to the seat over its WebSocket, and a match stored before them
//! refused by the stored-match replay naming the rule.
//!
//! A live room's wall is random, so each match is found first with the library
//! ([`majiang_testkit::scenario`]: every seat the `efficient` bot, passing every win offered),
//! stored with its seed and actions, and opened by a server that restores it: the seat's
//! client then stands exactly where the rule is met.

use crate::common::{Client, assert_private, config, http};
use majiang::table::log::RULES_REVISION;
use majiang::table::{Action, Player, Session, TableRules};
use majiang_server::App;
use majiang_server::protocol::{RoomStatus, ServerMsg};
use majiang_server::store::{SqliteStore, Store, StoredAction, StoredRoom};
use majiang_testkit::scenario::{self, Found};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

const HANDS: u32 = 4;

/// Hong Kong without flowers and with no minimum (wins are offered often), four person seats
/// and no timers: nobody but the test's clients acts.
fn room_config() -> Value {
    let seats: Vec<Value> = (0..4).map(|k| json!({"name": format!("P{k}")})).collect();
    json!({
        "rules": "hongkong", "options": {"flowers": false, "min_fan": 0}, "seats": seats,
        "hands": HANDS, "claim_timeout_ms": 0, "turn_timeout_ms": 0
    })
}

fn rules() -> Arc<TableRules> {
    let c = config(room_config());
    Arc::new(TableRules::from_name(&c.rules, &c.options).unwrap())
}

fn token(seat: usize) -> String {
    format!("token-of-seat-{seat}")
}

/// Stores `actions` of the match of `seed` as room `id` (in play, or finished), created under
/// the rules played now, then starts a server over that store, which restores the room;
/// returns its address.
async fn serve_stored(
    id: &str,
    seed: u64,
    actions: &[(Player, Action)],
    status: RoomStatus,
) -> SocketAddr {
    serve_stored_under(id, seed, actions, status, Some(RULES_REVISION)).await
}

/// [`serve_stored`], the room created under `rules_revision` (`None`: stored before the
/// server kept it).
async fn serve_stored_under(
    id: &str,
    seed: u64,
    actions: &[(Player, Action)],
    status: RoomStatus,
    rules_revision: Option<u32>,
) -> SocketAddr {
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let room = StoredRoom {
        id: id.into(),
        config: config(room_config()),
        tokens: (0..4).map(|s| Some(token(s))).collect(),
        seed,
        status,
        created: 1,
        finished: (status == RoomStatus::Finished).then_some(2),
        rules_revision,
    };
    store.create_room(&room).await.unwrap();
    for (seq, &(player, action)) in actions.iter().enumerate() {
        let a = StoredAction {
            seq: seq as u64,
            player,
            action,
        };
        store.append_action(id, &a, None).await.unwrap();
    }
    let app = App::with_store(store, None).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        majiang_server::serve(listener, app, std::future::pending())
            .await
            .unwrap();
    });
    addr
}

/// The seat (entrant) sitting in `chair`.
fn seat_of(found: &Found, chair: Player) -> usize {
    seat_of_chair(&found.session, chair)
}

fn seat_of_chair(session: &Session, chair: Player) -> usize {
    session.chairs().iter().position(|&c| c == chair).unwrap()
}

/// Connects seat `seat` and returns the client with its first state's JSON (checked private).
async fn seat_state(addr: SocketAddr, room: &str, seat: usize, chair: Player) -> (Client, Value) {
    let mut c = Client::connect(addr, room, Some(&token(seat))).await;
    assert_eq!(c.welcome().await, Some(seat));
    c.sync().await;
    c.state_where(|m| {
        matches!(
            m,
            ServerMsg::State {
                observation: Some(_),
                ..
            }
        )
    })
    .await;
    let json = c.last_json().clone();
    assert_private(&json, Some(u64::from(chair.0)));
    (c, json)
}

fn legal_of(state: &Value) -> Vec<Action> {
    serde_json::from_value(state["observation"]["legal_actions"].clone()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_passed_a_win_is_not_offered_it_again_and_is_told_why() {
    let found = scenario::missed_win(&rules(), 0..300, Some(HANDS))
        .expect("a match among 300 seeds where a seat meets the missed win");
    let x = found.player;
    let tile = found.tile.to_string();
    let addr = serve_stored("missedwin", found.seed, &found.actions, RoomStatus::Playing).await;
    let (mut c, state) = seat_state(addr, "missedwin", seat_of(&found, x), x).await;
    let obs = &state["observation"];
    assert_eq!(obs["on_offer"][1], json!(tile), "{state}");
    // The state's legal actions carry no win; the seat's own bar says why.
    assert!(!legal_of(&state).contains(&Action::Win), "{state}");
    let bar: Vec<String> = serde_json::from_value(obs["missed_wins"].clone()).unwrap();
    assert!(bar.contains(&tile), "{state}");
    // A win asked for anyway is refused with the reason, and nothing changes.
    let before = c.fresh_state().await;
    let seq = c.act(Action::Win).await;
    let refusal = c.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    let ServerMsg::Error {
        seq: refused,
        message,
        key,
        ..
    } = refusal
    else {
        unreachable!()
    };
    assert_eq!(refused, Some(seq));
    assert_eq!(key, "illegal.missed_win");
    assert!(
        message.ends_with("you passed this tile's win: wait for your next draw"),
        "{message}"
    );
    let after = c.fresh_state().await;
    assert_eq!(
        format!("{before:?}"),
        format!("{after:?}"),
        "a refused win changes nothing"
    );
    // Every seat asked lets the tile go (the library's session alongside); then each seat sees
    // its own bar only, as the library has it, and a spectator none.
    let mut session = found.session;
    let asked: Vec<Player> = session.game().to_act().collect();
    for p in asked {
        let mut other = None;
        let client = if p == x {
            &mut c
        } else {
            other.insert(
                seat_state(addr, "missedwin", seat_of_chair(&session, p), p)
                    .await
                    .0,
            )
        };
        let seq = client.act(Action::Pass).await;
        client
            .until(|m| matches!(m, ServerMsg::Ack { seq: s } if *s == seq))
            .await;
        session.act(p, Action::Pass).unwrap();
    }
    let mut barred = 0;
    for chair in (0..4).map(Player) {
        let (_, state) = seat_state(addr, "missedwin", seat_of_chair(&session, chair), chair).await;
        let truth: Vec<String> = session
            .game()
            .missed_wins(chair)
            .iter()
            .map(ToString::to_string)
            .collect();
        barred += usize::from(!truth.is_empty());
        let shown = state["observation"]
            .get("missed_wins")
            .map(|v| serde_json::from_value::<Vec<String>>(v.clone()).unwrap())
            .unwrap_or_default();
        assert_eq!(shown, truth, "chair {chair}'s own bar, and only its own");
    }
    assert!(barred > 0, "a seat still barred after the passes");
    let mut spectator = Client::connect(addr, "missedwin", None).await;
    spectator.sync().await;
    spectator
        .state_where(|m| {
            matches!(
                m,
                ServerMsg::State {
                    observation: Some(_),
                    ..
                }
            )
        })
        .await;
    assert_private(spectator.last_json(), None);
    assert!(
        spectator.last_json()["observation"]
            .get("missed_wins")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_discard_is_offered_only_as_a_win() {
    let found = scenario::last_discard_win(&rules(), 0..300, Some(HANDS))
        .expect("a match among 300 seeds whose last discard is offered as a win");
    let y = found.player;
    let addr = serve_stored(
        "lastdiscard",
        found.seed,
        &found.actions,
        RoomStatus::Playing,
    )
    .await;
    let (mut c, state) = seat_state(addr, "lastdiscard", seat_of(&found, y), y).await;
    assert_eq!(state["observation"]["live_wall"], json!(0));
    assert_eq!(
        state["observation"]["on_offer"][1],
        json!(found.tile.to_string())
    );
    assert_eq!(legal_of(&state), vec![Action::Win, Action::Pass], "{state}");
    // A pung asked for anyway is refused with the rule.
    let seq = c.act(Action::Pung).await;
    let refusal = c.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    let ServerMsg::Error {
        seq: refused, key, ..
    } = refusal
    else {
        unreachable!()
    };
    assert_eq!((refused, key.as_str()), (Some(seq), "illegal.last_discard"));
    // The win is taken.
    let seq = c.act(Action::Win).await;
    c.until(|m| matches!(m, ServerMsg::Ack { seq: s } if *s == seq))
        .await;
    c.until(|m| matches!(m, ServerMsg::HandResult { .. })).await;
}

/// A server holding finished room `id`, created under `revision`, whose match is the missed
/// win's (a seat passed a win) with the barred win appended, as a server before the rule
/// took it; with the barred win's position.
pub(crate) async fn serve_barred_win(id: &str, revision: Option<u32>) -> (SocketAddr, usize) {
    let found = scenario::missed_win(&rules(), 0..300, Some(HANDS)).unwrap();
    let mut actions = found.actions.clone();
    actions.push((found.player, Action::Win));
    let addr = serve_stored_under(id, found.seed, &actions, RoomStatus::Finished, revision).await;
    (addr, actions.len() - 1)
}

/// A match stored before rules revision 2 in which a seat took the win it had passed (the
/// missed win's match, its barred win appended, as a server of revision 1 would have taken
/// it): the stored-match replay names the rule instead of calling the log broken — the room
/// stored under revision 1, or stored before the server kept revisions (unknown: inferred).
/// The same actions in a room stored under the rules played now are a broken log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_match_from_before_the_missed_win_is_refused_naming_the_rule() {
    for revision in [Some(1), None] {
        let (addr, win_seq) = serve_barred_win("beforerule", revision).await;
        for path in [
            "/api/rooms/beforerule/replay",
            "/api/rooms/beforerule/log.jsonl",
        ] {
            let (status, _, body) = http(addr, "GET", path, "").await;
            assert_eq!(status, 422, "{revision:?} {path}: {body}");
            let e: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(e["key"], "replay.earlier_rules_missed_win", "{body}");
            assert_eq!(e["args"]["action"], json!(win_seq), "{body}");
            assert_eq!(e["args"]["revision"], json!(1), "{body}");
            assert_eq!(e["args"]["current"], json!(RULES_REVISION), "{body}");
            let told = e["error"].as_str().unwrap();
            assert!(
                told.starts_with(&format!(
                    "action {win_seq}: this match was recorded under rules revision 1, before Hong Kong's missed win"
                )),
                "{told}"
            );
        }
        let (status, _, body) = http(addr, "GET", "/api/rooms/beforerule/log", "").await;
        assert_eq!(status, 200, "{body}");
        let log: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(log["rules_revision"], json!(revision), "{body}");
    }
    let (addr, _) = serve_barred_win("nowrule", Some(RULES_REVISION)).await;
    for path in ["/api/rooms/nowrule/replay", "/api/rooms/nowrule/log.jsonl"] {
        let (status, _, body) = http(addr, "GET", path, "").await;
        assert_eq!(status, 500, "{path}: {body}");
        let e: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(e["key"], "api.log_unreadable", "{body}");
    }
}
