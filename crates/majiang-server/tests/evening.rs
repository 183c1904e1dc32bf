//! An evening with friends: the hand's end shown and held until everyone continues, the turn
//! and claim timers, the bot standing in for a person who is away, starting a room of several
//! people, and the history a reconnecting client gets. Real WebSocket clients throughout.

mod common;

use common::{Client, assert_private, config, play_to_the_end, start_server};
use serde_json::{Value, json};
use std::time::Duration;

/// Plays `c` (chair `me`) with the first legal action (a win when offered) until a
/// `hand_result` arrives, checking privacy on the way; returns that result. Nothing before it
/// may carry a `reveal`.
async fn play_until_hand_result(c: &mut Client, me: u64) -> Value {
    let mut waiting = false;
    c.send_text(r#"{"type":"sync"}"#).await;
    loop {
        let m = c.recv().await.expect("open");
        assert_private(&m, Some(me));
        assert!(
            !m.to_string().contains("\"reveal\"") || m["type"] == "hand_result",
            "nothing but the hand's result reveals hands: {m}"
        );
        match m["type"].as_str().unwrap() {
            "hand_result" => return m,
            "ack" => waiting = false,
            "error" => {
                waiting = false;
                c.resync_if_limited(&m).await;
            }
            "state" if !waiting => {
                check_waits(&m);
                let legal = m["observation"]["legal_actions"].as_array().cloned();
                let Some(legal) = legal.filter(|l| !l.is_empty()) else {
                    continue;
                };
                let a = if legal.contains(&json!("win")) {
                    json!("win")
                } else {
                    legal[0].clone()
                };
                c.act(&a).await;
                waiting = true;
            }
            _ => {}
        }
    }
}

/// A state's waits are only for a ready hand (`3k + 1` concealed tiles), with at most four
/// unseen copies each.
fn check_waits(state: &Value) {
    let waits = state["waits"].as_array().expect("state.waits is a list");
    if waits.is_empty() {
        return;
    }
    let concealed = state["observation"]["concealed"].as_str().unwrap();
    assert_eq!(common::count_tiles(concealed) % 3, 1, "{state}");
    for w in waits {
        assert!(w["tile"].is_string());
        assert!(w["unseen"].as_u64().unwrap() <= 4, "{w}");
    }
}

/// Reads until a state satisfying `pred` arrives.
async fn until_state(c: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = c.until("state").await;
        if pred(&m) {
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hand_result_shows_every_hand_and_waits_for_continue() {
    let (app, addr) = start_server().await;
    // A hand may be drawn: play hands until one is won (or the match ends).
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 4, "autostart": true, "continue_timeout_ms": 600000
        })))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    let me =
        until_state(&mut c, |s| !s["seats"][0]["player"].is_null()).await["seats"][0]["player"]
            .as_u64()
            .unwrap();
    let mut won = false;
    for hand in 1..=4u64 {
        let result = play_until_hand_result(&mut c, me).await;
        let settlement = &result["settlement"];
        assert_eq!(settlement["hand_number"], hand);
        let reveal = result["reveal"].as_array().unwrap();
        assert_eq!(reveal.len(), 4, "every chair's hand");
        for (i, h) in reveal.iter().enumerate() {
            assert_eq!(h["player"], i);
            let tiles = h["concealed"].as_array().unwrap().len();
            let melds = h["melds"].as_array().unwrap().len();
            assert!(tiles + 3 * melds >= 13, "a whole hand face up: {h}");
        }
        let explained = result["payments_explained"].as_array().unwrap();
        if let Some(winner) = settlement["outcome"]["winner"].as_u64() {
            won = true;
            let marked: Vec<_> = reveal
                .iter()
                .filter(|h| !h["winning_tile"].is_null())
                .collect();
            assert_eq!(marked.len(), 1);
            assert_eq!(marked[0]["player"], winner);
            assert_eq!(marked[0]["winning_tile"], settlement["outcome"]["tile"]);
            // The explained payments add up to the settlement's, each with its reason.
            let mut net = [0i64; 4];
            for p in explained {
                let amount = p["amount"].as_i64().unwrap();
                assert!(
                    amount > 0
                        && !p["text"].as_str().unwrap().is_empty()
                        && p["reason"]["key"].is_string()
                        && p["reason"]["args"].is_object(),
                    "{p}"
                );
                net[p["from"].as_u64().unwrap() as usize] -= amount;
                net[p["to"].as_u64().unwrap() as usize] += amount;
            }
            assert!(!explained.is_empty());
            assert_eq!(json!(net), settlement["payments"]);
        } else {
            assert!(explained.is_empty(), "a drawn hand pays nothing");
        }
        if settlement["ended"].is_string() || settlement["next"].is_null() {
            break;
        }
        // Held: the room waits for this person, and deals nothing meanwhile.
        let held = until_state(&mut c, |s| s["status"] == "hand_over").await;
        assert_eq!(held["continue"]["waiting_for"], json!([me]));
        assert!(held["continue"]["deadline_ms"].as_u64().unwrap() > 500_000);
        assert_eq!(held["hand_number"], hand);
        c.drain().await;
        assert!(
            !c.seen
                .iter()
                .any(|m| m["type"] == "events" && m["hand_number"] == hand + 1),
            "no deal before continue"
        );
        // An action now is refused; continue deals the next hand.
        let seq = c.act(&json!("pass")).await;
        let err = c.until("error").await;
        assert_eq!(err["seq"], seq);
        c.send_text(r#"{"type":"continue"}"#).await;
        let next = until_state(&mut c, |s| s["status"] == "playing").await;
        assert_eq!(next["hand_number"], hand + 1);
        assert!(next["continue"].is_null());
        if won {
            break;
        }
    }
    assert!(won, "a hand of four was won (seeded bots)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_countdown_deals_the_next_hand_without_continue() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "yangzhou", "hands": 2, "autostart": true, "continue_timeout_ms": 300
        })))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    let me =
        until_state(&mut c, |s| !s["seats"][0]["player"].is_null()).await["seats"][0]["player"]
            .as_u64()
            .unwrap();
    let result = play_until_hand_result(&mut c, me).await;
    if result["settlement"]["next"].is_null() {
        return; // the first hand ended the match: nothing to deal
    }
    // Never send continue: the countdown deals hand 2.
    let next = until_state(&mut c, |s| s["hand_number"] == 2).await;
    assert_eq!(next["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_people_starts_when_all_joined_or_the_creator_fills_it_with_bots() {
    let (app, addr) = start_server().await;
    let two = json!({
        "rules": "hongkong", "hands": 1,
        "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
    });
    // Both join: the match starts by itself.
    let created = app.create_room(config(two.clone())).await.unwrap();
    let mut ann = Client::connect(addr, &created.room, created.seats[0].token.as_deref()).await;
    let st = ann.until("state").await;
    assert_eq!(st["status"], "waiting");
    // Alone, a plain start is refused: Bo has not joined.
    ann.send_text(r#"{"type":"start"}"#).await;
    let err = ann.until("error").await;
    assert!(err["message"].as_str().unwrap().contains("Bo"), "{err}");
    let mut bo = Client::connect(addr, &created.room, created.seats[1].token.as_deref()).await;
    let st = until_state(&mut bo, |s| s["status"] != "waiting").await;
    assert_eq!(st["status"], "playing");
    drop((ann, bo));

    // Only Bo joins: he may not fill the seats; Ann (the creator) may, alone.
    let created = app.create_room(config(two)).await.unwrap();
    let mut bo = Client::connect(addr, &created.room, created.seats[1].token.as_deref()).await;
    bo.until("state").await;
    bo.send_text(r#"{"type":"start","fill_bots":true}"#).await;
    let err = bo.until("error").await;
    assert!(err["message"].as_str().unwrap().contains("seat 0"), "{err}");
    drop(bo);
    let mut ann = Client::connect(addr, &created.room, created.seats[0].token.as_deref()).await;
    ann.until("state").await;
    ann.send_text(r#"{"type":"start","fill_bots":true}"#).await;
    let st = until_state(&mut ann, |s| s["status"] == "playing").await;
    assert_eq!(st["seats"][1]["bot"], true, "the empty seat is a bot now");
    // Bo's old link now only watches.
    let mut late = Client::connect(addr, &created.room, created.seats[1].token.as_deref()).await;
    let welcome = late.until("welcome").await;
    assert!(welcome["seat"].is_null());
    // The match plays out with Ann and three bots.
    let me = st["seats"][0]["player"].as_u64().unwrap();
    play_to_the_end(&mut ann, me, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_for_an_away_person_at_the_timer_until_they_come_back() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "turn_timeout_ms": 500, "claim_timeout_ms": 500,
            "continue_timeout_ms": 0,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let room = created.room.clone();
    let mut bo = Client::connect(addr, &room, created.seats[1].token.as_deref()).await;
    let mut ann = Client::connect(addr, &room, created.seats[0].token.as_deref()).await;
    let st = until_state(&mut ann, |s| s["status"] == "playing").await;
    let ann_chair = st["seats"][0]["player"].as_u64().unwrap();
    let bo_chair = st["seats"][1]["player"].as_u64().unwrap();
    // Bo leaves (closes his browser).
    bo.drain().await;
    drop(bo);
    // Ann plays on; at Bo's first time-out the bot takes his seat, and the hand goes on.
    let mut saw_stand_in = false;
    let mut saw_deadline = false;
    let mut waiting = false;
    ann.send_text(r#"{"type":"sync"}"#).await;
    loop {
        let m = ann.recv().await.expect("open");
        assert_private(&m, Some(ann_chair));
        match m["type"].as_str().unwrap() {
            "hand_result" | "match_over" => break,
            "ack" => waiting = false,
            "error" => {
                waiting = false;
                ann.resync_if_limited(&m).await;
            }
            "state" => {
                saw_stand_in |= m["seats"][1]["stand_in"] == true;
                saw_deadline |= m["deadline_ms"].as_u64().is_some_and(|ms| ms <= 500);
                let legal = m["observation"]["legal_actions"].as_array().cloned();
                if waiting {
                    continue;
                }
                let Some(legal) = legal.filter(|l| !l.is_empty()) else {
                    continue;
                };
                let a = if legal.contains(&json!("win")) {
                    json!("win")
                } else {
                    legal[0].clone()
                };
                ann.act(&a).await;
                waiting = true;
            }
            _ => {}
        }
    }
    assert!(saw_deadline, "Ann saw her own countdown");
    assert!(saw_stand_in, "the bot stood in for Bo");
    // Bo comes back: he takes his seat and sees the hand's history.
    let mut bo = Client::connect(addr, &room, created.seats[1].token.as_deref()).await;
    let welcome = bo.until("welcome").await;
    assert_eq!(welcome["seat"], 1);
    let history = bo.recv().await.unwrap();
    assert_eq!(history["type"], "history");
    assert_private(&history, Some(bo_chair));
    assert!(!history["events"].as_array().unwrap().is_empty());
    let st = bo.until("state").await;
    assert_eq!(st["seats"][1]["stand_in"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_client_gets_the_hands_events_so_far() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(
            json!({"rules": "hangzhou", "hands": 1, "autostart": true}),
        ))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    c.drain().await;
    // One person and no timer: the bots play until it is the person's turn, then wait.
    let first: Vec<Value> = c
        .seen
        .iter()
        .filter(|m| m["type"] == "history" || m["type"] == "events")
        .flat_map(|m| m["events"].as_array().unwrap().clone())
        .collect();
    let me = c.seen.iter().rev().find(|m| m["type"] == "state").unwrap()["seats"][0]["player"]
        .as_u64()
        .unwrap();
    drop(c);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = Client::connect(addr, &created.room, Some(&token)).await;
    assert_eq!(again.recv().await.unwrap()["type"], "welcome");
    let history = again.recv().await.unwrap();
    assert_eq!(history["type"], "history");
    assert_eq!(history["hand_number"], 1);
    assert_private(&history, Some(me));
    // Exactly what the first connection saw, in order.
    assert_eq!(history["events"], json!(first));
    assert!(!first.is_empty());
    // A spectator's history hides every dealt tile.
    let mut watcher = Client::connect(addr, &created.room, None).await;
    watcher.until("welcome").await;
    let h = watcher.recv().await.unwrap();
    assert_eq!(h["type"], "history");
    assert_private(&h, None);
    let dealt: Vec<&Value> = h["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "tiles_dealt")
        .collect();
    assert!(!dealt.is_empty() && dealt.iter().all(|e| e["tiles"].is_null()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_holds_a_finished_hand_until_continue() {
    let path = std::env::temp_dir().join(format!(
        "majiang-evening-{}-{}.sqlite",
        std::process::id(),
        line!()
    ));
    let _ = std::fs::remove_file(&path);
    let serve = |app: majiang_server::App| async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(majiang_server::serve(listener, app, std::future::pending()));
        addr
    };
    let app = majiang_server::App::open(&path).await.unwrap();
    let addr = serve(app.clone()).await;
    let created = app
        .create_room(config(
            json!({"rules": "hongkong", "hands": 3, "autostart": true}),
        ))
        .await
        .unwrap();
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    let me =
        until_state(&mut c, |s| !s["seats"][0]["player"].is_null()).await["seats"][0]["player"]
            .as_u64()
            .unwrap();
    let result = play_until_hand_result(&mut c, me).await;
    if result["settlement"]["next"].is_null() {
        return; // the match ended with its first hand
    }
    // A second server over the same database (the first one crashed, say).
    let again = majiang_server::App::open(&path).await.unwrap();
    let addr2 = serve(again).await;
    let mut c2 = Client::connect(addr2, &created.room, Some(&token)).await;
    assert_eq!(c2.recv().await.unwrap()["type"], "welcome");
    assert_eq!(c2.recv().await.unwrap()["type"], "history");
    let shown = c2.recv().await.unwrap();
    assert_eq!(shown["type"], "hand_result", "the result is shown again");
    assert_eq!(shown["reveal"], result["reveal"]);
    assert_eq!(shown["payments_explained"], result["payments_explained"]);
    let st = c2.until("state").await;
    assert_eq!(st["status"], "hand_over");
    assert_eq!(st["continue"]["waiting_for"], json!([me]));
    c2.send_text(r#"{"type":"continue"}"#).await;
    let next = until_state(&mut c2, |s| s["status"] == "playing").await;
    assert_eq!(next["hand_number"], 2);
    drop((c, c2));
    let _ = std::fs::remove_file(&path);
}
