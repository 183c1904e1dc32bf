//! Whole matches over real WebSockets: people's seats played by test clients, the rest by the
//! server's bots; every message to a seat is checked for other seats' concealed tiles and the
//! wall; bad messages are refused and change nothing.

use crate::common;

use common::{
    Client, assert_private, chair, config, legal, play_to_the_end, play_with_bot, rate_limited,
    start_server, status,
};
use majiang::table::{Action, Player, TableRules};
use majiang_server::protocol::{RoomStatus, ServerMsg};
use serde_json::json;
use std::sync::Arc;

async fn chair_of(client: &mut Client, seat: usize) -> Player {
    let st = client.state_where(|m| chair(m, seat).is_some()).await;
    chair(&st, seat).unwrap()
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
        // No claim timer, so no claim window: eight hands of discards at full speed (this
        // test is about what each seat sees, not when).
        let created = app
            .create_room(config(json!({
                "rules": rules, "options": options, "seats": seats, "hands": 2,
                "claim_timeout_ms": 0
            })))
            .await
            .unwrap();
        let room = created.room.clone();
        let ruleset = Arc::new(TableRules::from_name(rules, options.as_object().unwrap()).unwrap());
        let mut spectator = Client::connect(addr, &room, None).await;
        let mut tasks = Vec::new();
        for s in 0..n {
            let token = created.seats[s].token.clone().unwrap();
            let room = room.clone();
            let kind = if s % 2 == 0 { "efficient" } else { "random" };
            let mut bot = majiang::bots::by_name(kind, &ruleset, (i * 10 + s) as u64).unwrap();
            tasks.push(tokio::spawn(async move {
                let mut c = Client::connect(addr, &room, Some(&token)).await;
                assert_eq!(c.welcome().await, Some(s));
                // The room starts by itself once every person seat has joined.
                let st = c
                    .state_where(|m| status(m) == Some(RoomStatus::Playing))
                    .await;
                let me = chair(&st, s).unwrap();
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
        let (standings, final_ledger) = loop {
            let m = spectator.recv().await.unwrap();
            assert_private(spectator.last_json(), None);
            if let ServerMsg::MatchOver { standings, ledger } = m {
                break (standings, ledger);
            }
        };
        let ServerMsg::State {
            status: last_status,
            actions: last_actions,
            ..
        } = spectator.state().await
        else {
            unreachable!()
        };
        assert_eq!(last_status, RoomStatus::Finished);
        let live: Vec<&ServerMsg> = spectator
            .seen
            .iter()
            .filter(|m| matches!(m, ServerMsg::HandResult { .. }))
            .collect();
        let results: Vec<_> = live
            .iter()
            .map(|m| match m {
                ServerMsg::HandResult { settlement, .. } => settlement,
                _ => unreachable!(),
            })
            .collect();
        assert!(
            (1..=2).contains(&results.len()),
            "{rules}: at most two hands"
        );
        // Each hand's ledger is the one before plus its payments; the last is the final one.
        for w in results.windows(2) {
            for chair in 0..n {
                assert_eq!(
                    w[1].ledger[chair],
                    w[0].ledger[chair] + w[1].payments[chair]
                );
            }
        }
        assert_eq!(results.last().unwrap().ledger, final_ledger);
        assert_eq!(standings.len(), n);
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
        assert_eq!(last_actions, public, "{rules}");
        let frames = majiang_server::replay::frames(&log).unwrap();
        let jsonl = majiang_server::replay::jsonl(&log).unwrap();
        let report = majiang::table::replay(&jsonl);
        assert!(
            report.is_ok(),
            "{rules}: the library replays the log: {report:?}"
        );
        assert_eq!(
            frames.last().unwrap().ledger,
            final_ledger,
            "{rules}: replay ends at the same standings"
        );
        // The frame that ends each hand shows the hands and payments as the live result did.
        let ends: Vec<_> = frames.iter().filter(|f| f.reveal.is_some()).collect();
        assert_eq!(ends.len(), live.len(), "{rules}: a summary frame per hand");
        for (frame, result) in ends.iter().zip(&live) {
            let ServerMsg::HandResult {
                reveal,
                payments_explained,
                ..
            } = result
            else {
                unreachable!()
            };
            assert_eq!(
                frame.reveal.as_ref(),
                Some(reveal),
                "{rules}: the same hands"
            );
            assert_eq!(
                frame.payments_explained.as_ref(),
                Some(payments_explained),
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
    // A person not asked about a tile on offer is sent no state until it is settled (they must
    // not learn that someone else may claim it), so only the one asked is asked for a fresh
    // state; the other's latest state (if any) says whether they have anything to decide.
    let has_legal = |m: &ServerMsg| !legal(m).is_empty();
    let a_asked = loop {
        tokio::select! {
            m = a.recv() => if has_legal(&m.expect("open")) { break true },
            m = b.recv() => if has_legal(&m.expect("open")) { break false },
        }
    };
    let (actor, other) = if a_asked {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let before = actor.fresh_state().await;
    assert!(
        has_legal(&before),
        "the person asked still decides: {before:?}"
    );
    other.drain().await;
    let other_decides = other
        .seen
        .iter()
        .rev()
        .find(|m| matches!(m, ServerMsg::State { .. }))
        .is_some_and(has_legal);
    let ServerMsg::State {
        actions,
        observation: Some(observation),
        ..
    } = &before
    else {
        unreachable!("a state offering actions has an observation")
    };
    let offered = &observation.legal_actions;

    // Out of turn: the other person, if they have nothing to decide.
    if !other_decides {
        let seq = other.act(Action::Pass).await;
        let (refused, _) = other.error().await;
        assert_eq!(refused, Some(seq));
    }
    // Not in the legal list: a discard of a tile the actor does not hold, or a made-up kong.
    let absent = ["1m", "9p", "5s", "1z", "7z", "2m"]
        .into_iter()
        .map(|t| Action::Discard(t.parse().unwrap()))
        .find(|d| !offered.contains(d))
        .unwrap();
    let seq = actor.act(absent).await;
    let (refused, why) = actor.error().await;
    assert_eq!(refused, Some(seq), "{}: {why}", observation.concealed);
    // Malformed, unknown fields, binary, oversized.
    for text in [
        "not json",
        r#"{"type":"action","seq":1}"#,
        r#"{"type":"action","seq":1,"action":"pung","extra":1}"#,
        r#"{"type":"dance"}"#,
    ] {
        actor.send_text(text).await;
        actor.error().await;
    }
    // Spectators cannot act.
    spectator.act(Action::Pass).await;
    spectator.error().await;
    // Nothing changed.
    let ServerMsg::State {
        actions: actions_after,
        observation: observation_after,
        ..
    } = actor.fresh_state().await
    else {
        unreachable!()
    };
    assert_eq!(actions_after, *actions);
    assert_eq!(observation_after.as_deref(), Some(observation.as_ref()));
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
            Some(m) => assert!(!matches!(m, ServerMsg::Ack { .. }), "{m:?}"),
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
        c.sync().await;
    }
    let mut limited = false;
    for _ in 0..200 {
        let Some(m) = c.recv().await else { break };
        if rate_limited(&m) {
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
    c.sync().await;
    loop {
        let m = c.recv().await.expect("open");
        match &m {
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::HandResult { .. } => c.go_on().await,
            ServerMsg::Ack { .. } => waiting = false,
            ServerMsg::Error { .. } => {
                waiting = false;
                c.resync_if_limited(&m).await;
            }
            ServerMsg::State {
                claim_deadline_ms,
                observation: Some(o),
                ..
            } if !waiting => {
                let legal = &o.legal_actions;
                if legal.contains(&Action::Pass) {
                    // A claim: stay silent, the timer must run for us.
                    if claim_deadline_ms.is_some_and(|ms| ms <= 500) {
                        windows += 1;
                    }
                    continue;
                }
                if let Some(d) = legal.iter().find(|a| matches!(a, Action::Discard(_))) {
                    c.act(*d).await;
                    waiting = true;
                } else if let Some(a) = legal.first() {
                    c.act(*a).await;
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
