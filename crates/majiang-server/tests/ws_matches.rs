//! Whole matches over real WebSockets: people's seats played by test clients, the rest by the
//! server's bots; every message to a seat is checked for other seats' concealed tiles and the
//! wall; bad messages are refused and change nothing.

mod common;

use common::{Client, assert_private, config, play_to_the_end, play_with_bot, start_server};
use majiang::table::Ruleset;
use serde_json::{Value, json};
use std::sync::Arc;

async fn chair_of(client: &mut Client, seat: usize) -> u64 {
    loop {
        let m = client.until("state").await;
        if let Some(p) = m["seats"][seat]["player"].as_u64() {
            return p;
        }
    }
}

/// Every seat a WebSocket client driven by one of the library's bots: whole matches of every
/// rule set through the server, every message checked for other seats' concealed tiles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_clients_play_whole_matches_and_see_only_their_own_tiles() {
    let (app, addr) = start_server().await;
    for (i, (rules, options)) in [
        ("hongkong", json!({})),
        ("hangzhou", json!({"wildcard": "indicator"})),
        ("yangzhou", json!({"chow": true})),
        ("classic", json!({"players": 3})),
    ]
    .into_iter()
    .enumerate()
    {
        let n = if rules == "classic" { 3 } else { 4 };
        let seats: Vec<_> = (0..n).map(|k| json!({"name": format!("P{k}")})).collect();
        let created = app
            .create_room(config(json!({
                "rules": rules, "options": options, "seats": seats, "hands": 2
            })))
            .await
            .unwrap();
        let room = created.room.clone();
        let ruleset = Arc::new(Ruleset::from_name(rules, options.as_object().unwrap()).unwrap());
        let mut spectator = Client::connect(addr, &room, None).await;
        let mut tasks = Vec::new();
        for s in 0..n {
            let token = created.seats[s].token.clone().unwrap();
            let room = room.clone();
            let kind = if s % 2 == 0 { "efficient" } else { "random" };
            let mut bot = majiang::bots::by_name(kind, &ruleset, (i * 10 + s) as u64).unwrap();
            tasks.push(tokio::spawn(async move {
                let mut c = Client::connect(addr, &room, Some(&token)).await;
                let welcome = c.until("welcome").await;
                assert_eq!(welcome["seat"], s);
                // The room starts by itself once every person seat has joined.
                let me = loop {
                    let st = c.until("state").await;
                    if st["status"] == "playing" {
                        break st["seats"][s]["player"].as_u64().unwrap();
                    }
                };
                let acked = play_with_bot(&mut c, me, bot.as_mut()).await;
                (acked, c.seen.len())
            }));
        }
        let mut total = 0;
        for t in tasks {
            let (acked, seen) = t.await.unwrap();
            assert!(acked > 0 && seen > acked as usize);
            total += acked;
        }
        // The spectator saw the same match, without anyone's concealed tiles.
        let over = loop {
            let m = spectator.recv().await.unwrap();
            assert_private(&m, None);
            if m["type"] == "match_over" {
                break m;
            }
        };
        let last = spectator.until("state").await;
        assert_eq!(last["status"], "finished");
        let results: Vec<_> = spectator
            .seen
            .iter()
            .filter(|m| m["type"] == "hand_result")
            .map(|m| &m["settlement"])
            .collect();
        assert!(
            (1..=2).contains(&results.len()),
            "{rules}: at most two hands"
        );
        // Each hand's ledger is the one before plus its payments; the last is the final one.
        #[allow(clippy::needless_range_loop)]
        for w in results.windows(2) {
            for chair in 0..n {
                assert_eq!(
                    w[1]["ledger"][chair].as_i64().unwrap(),
                    w[0]["ledger"][chair].as_i64().unwrap()
                        + w[1]["payments"][chair].as_i64().unwrap()
                );
            }
        }
        assert_eq!(results.last().unwrap()["ledger"], over["ledger"]);
        assert_eq!(over["standings"].as_array().unwrap().len(), n);
        // The log of the finished match replays to the same end.
        let log = majiang_server::replay::finished_log(app.store().as_ref(), &room)
            .await
            .unwrap();
        assert_eq!(
            log.actions.len() as u64,
            total,
            "{rules}: every action acked"
        );
        // A spectator's count leaves the passes out (they would tell who could claim).
        let public = log
            .actions
            .iter()
            .filter(|a| a.action != majiang::table::Action::Pass)
            .count() as u64;
        assert_eq!(last["actions"].as_u64(), Some(public), "{rules}");
        let frames = majiang_server::replay::frames(&log).unwrap();
        let jsonl = majiang_server::replay::jsonl(&log).unwrap();
        let report = majiang::table::replay(&jsonl);
        assert!(
            report.is_ok(),
            "{rules}: the library replays the log: {report:?}"
        );
        assert_eq!(
            json!(frames.last().unwrap().ledger),
            over["ledger"],
            "{rules}: replay ends at the same standings"
        );
        // The frame that ends each hand shows the hands and payments as the live result did.
        let live: Vec<&Value> = spectator
            .seen
            .iter()
            .filter(|m| m["type"] == "hand_result")
            .collect();
        let ends: Vec<Value> = frames
            .iter()
            .filter(|f| f.reveal.is_some())
            .map(|f| json!(f))
            .collect();
        assert_eq!(ends.len(), live.len(), "{rules}: a summary frame per hand");
        for (frame, result) in ends.iter().zip(&live) {
            assert_eq!(frame["reveal"], result["reveal"], "{rules}: the same hands");
            assert_eq!(
                frame["payments_explained"], result["payments_explained"],
                "{rules}: the same payments"
            );
        }
    }
}

/// One person and three server bots: the client only ever acts on its own turn or claims.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_with_three_bots_finishes_a_match() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(
            json!({"rules": "hongkong", "hands": 3, "autostart": true}),
        ))
        .await
        .unwrap();
    assert!(created.seats[1].token.is_none(), "bots have no token");
    let token = created.seats[0].token.clone().unwrap();
    let mut c = Client::connect(addr, &created.room, Some(&token)).await;
    let me = chair_of(&mut c, 0).await;
    let acked = play_to_the_end(&mut c, me, 3).await;
    assert!(acked >= 3, "the person played in each hand");
}

/// Illegal, out-of-turn, malformed, oversized and unauthorised messages are refused, and the
/// state does not change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_are_refused_and_change_nothing() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "yangzhou",
            "seats": [{"name": "A"}, {"name": "B"}, {"bot": true}, {"bot": true}],
            "autostart": true
        })))
        .await
        .unwrap();
    let room = created.room.clone();
    // The log of a match in play is secret (its seed would reveal the wall).
    assert!(matches!(
        majiang_server::replay::finished_log(app.store().as_ref(), &room).await,
        Err(majiang_server::replay::ReplayError::NotFinished)
    ));
    // A wrong token opens nothing.
    let bad = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{room}?token=00ff")).await;
    assert!(bad.is_err(), "a made-up token is refused");
    let mut a = Client::connect(addr, &room, created.seats[0].token.as_deref()).await;
    let mut b = Client::connect(addr, &room, created.seats[1].token.as_deref()).await;
    let mut spectator = Client::connect(addr, &room, None).await;
    // Once the bots have played up to a person, that person is the actor: wait for the first
    // state that asks one of them to act.
    let has_legal = |m: &serde_json::Value| {
        m["type"] == "state"
            && m["observation"]["legal_actions"]
                .as_array()
                .is_some_and(|l| !l.is_empty())
    };
    loop {
        let asked = tokio::select! {
            m = a.recv() => has_legal(&m.expect("open")),
            m = b.recv() => has_legal(&m.expect("open")),
        };
        if asked {
            break;
        }
    }
    let sa = a.fresh_state().await;
    let sb = b.fresh_state().await;
    let (actor, other, before, other_state) = if has_legal(&sa) {
        (&mut a, &mut b, sa, sb)
    } else {
        assert!(has_legal(&sb), "someone must act: {sa} {sb}");
        (&mut b, &mut a, sb, sa)
    };
    let actions = before["actions"].clone();
    let legal = before["observation"]["legal_actions"].clone();
    let concealed = before["observation"]["concealed"].clone();

    let refused = |m: &serde_json::Value| m["type"] == "error";
    // Out of turn: the other person, if they have nothing to decide.
    if other_state["observation"]["legal_actions"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        let seq = other.act(&json!("pass")).await;
        let e = other.until("error").await;
        assert_eq!(e["seq"], seq);
    }
    // Not in the legal list: a discard of a tile the actor does not hold, or a made-up kong.
    let held = concealed.as_str().unwrap().to_string();
    let absent = ["1m", "9p", "5s", "1z", "7z", "2m"]
        .into_iter()
        .find(|t| !legal.as_array().unwrap().contains(&json!({"discard": t})))
        .unwrap();
    let seq = actor.act(&json!({"discard": absent})).await;
    let e = actor.until("error").await;
    assert_eq!(e["seq"], seq, "{held}: {e}");
    // Malformed, unknown fields, binary, oversized.
    for text in [
        "not json",
        r#"{"type":"action","seq":1}"#,
        r#"{"type":"action","seq":1,"action":"pung","extra":1}"#,
        r#"{"type":"dance"}"#,
    ] {
        actor.send_text(text).await;
        let e = actor.until("error").await;
        assert!(refused(&e));
    }
    // Spectators cannot act.
    spectator.act(&json!("pass")).await;
    spectator.until("error").await;
    // Nothing changed.
    let after = actor.fresh_state().await;
    assert_eq!(after["actions"], actions);
    assert_eq!(after["observation"], before["observation"]);
    // An oversized message closes the connection (the WebSocket layer refuses it).
    let big = format!(r#"{{"type":"sync","pad":"{}"}}"#, "x".repeat(5000));
    actor.send_text(&big).await;
    let mut closed = false;
    for _ in 0..50 {
        match actor.recv().await {
            None => {
                closed = true;
                break;
            }
            Some(m) => assert_ne!(m["type"], "ack"),
        }
    }
    assert!(closed, "an oversized message ends the connection");
}

/// A flood of messages hits the rate limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_are_rate_limited() {
    let (app, addr) = start_server().await;
    let created = app.create_room(config(json!({}))).await.unwrap();
    let mut c = Client::connect(addr, &created.room, created.seats[0].token.as_deref()).await;
    for _ in 0..60 {
        c.send_text(r#"{"type":"sync"}"#).await;
    }
    let mut limited = false;
    for _ in 0..200 {
        let Some(m) = c.recv().await else { break };
        if m["type"] == "error" && m["message"].as_str().unwrap().contains("rate limit") {
            limited = true;
            break;
        }
    }
    assert!(limited, "60 messages at once exceed the burst of 40");
}

/// The privacy check itself catches a leak (so the tests above can fail).
#[test]
#[should_panic(expected = "tile")]
fn the_privacy_check_catches_another_seats_draw() {
    let leak = json!({"type": "events", "hand_number": 0, "events": [
        {"type": "drew", "player": 2, "tile": "5m"}
    ]});
    assert_private(&leak, Some(1));
}

#[test]
#[should_panic(expected = "spectator")]
fn the_privacy_check_catches_concealed_tiles_for_a_spectator() {
    let leak = json!({"type": "state", "observation": {
        "player": 255, "concealed": "123m", "table": [], "drawn": null, "legal_actions": []
    }});
    assert_private(&leak, None);
}

/// A person who never answers claims: at the claim timer the efficient bot answers for them
/// and the match goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_claim_timer_passes_for_a_silent_seat() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 2, "autostart": true, "claim_timeout_ms": 500
        })))
        .await
        .unwrap();
    let mut c = Client::connect(addr, &created.room, created.seats[0].token.as_deref()).await;
    let mut windows = 0;
    let mut waiting = false;
    c.send_text(r#"{"type":"sync"}"#).await;
    loop {
        let m = c.recv().await.expect("open");
        match m["type"].as_str().unwrap() {
            "match_over" => break,
            "hand_result" => c.send_text(r#"{"type":"continue"}"#).await,
            "ack" => waiting = false,
            "error" => {
                waiting = false;
                c.resync_if_limited(&m).await;
            }
            "state" if !waiting => {
                let legal = m["observation"]["legal_actions"].as_array().cloned();
                let Some(legal) = legal else { continue };
                if legal.contains(&json!("pass")) {
                    // A claim: stay silent, the timer must run for us.
                    if m["claim_deadline_ms"].as_u64().is_some_and(|ms| ms <= 500) {
                        windows += 1;
                    }
                    continue;
                }
                if let Some(d) = legal.iter().find(|a| a.get("discard").is_some()) {
                    c.act(d).await;
                    waiting = true;
                } else if let Some(a) = legal.first() {
                    c.act(a).await;
                    waiting = true;
                }
            }
            _ => {}
        }
    }
    assert!(
        windows > 0,
        "the person had claims to answer, and the timer ran"
    );
}
