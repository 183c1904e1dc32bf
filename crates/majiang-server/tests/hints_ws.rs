//! Hints at the table over real WebSockets: in a room whose creator allowed hints, a person who
//! turned them on gets, after each `state` in which they must act, the expert's suggestion for
//! that very state (the library's `review::hint` on the observation sent, at the review's seed
//! and budget: checked value for value); a match played by following every hint, in every rule
//! set, is reviewed by the server's review with the same ★, values and comparison for each
//! hinted decision and no loss beyond noise; the other person at the table, who did not turn them on,
//! and a spectator get none; turned off, they stop. In a room without hints, turning them on is
//! refused with a keyed message and no hint ever comes. The setting is in everyone's `welcome`
//! and in the room's summary (`GET /api/rooms/ID`).

use crate::common;

use common::{Client, chair, config, play_to_the_end, start_server, status};
use majiang::review::{Band, RunnerUp, hint};
use majiang::table::{Action, Observation, TableRules};
use majiang_server::protocol::{ClientMsg, RoomStatus, ServerMsg};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn is_hint(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Hint { .. })
}

fn hints_allowed(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Welcome { config, .. } if config.hints)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_turned_hints_on_gets_the_experts_suggestion_when_they_must_act() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "hints": true, "autostart": true,
            "claim_timeout_ms": 0, "turn_timeout_ms": 0,
            "seats": [{"name": "Ann"}, {"name": "Ben"}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let room = created.room.clone();
    // The lobby's summary says so too.
    let (_, _, summary) = common::http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["hints"], json!(true), "{summary}");
    let ruleset = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());

    let mut watcher = Client::connect(addr, &room, None).await;
    assert!(hints_allowed(
        &watcher
            .until(|m| matches!(m, ServerMsg::Welcome { .. }))
            .await
    ));
    // A spectator cannot turn hints on.
    watcher.send(&ClientMsg::Hints { on: true }).await;
    match watcher
        .until(|m| matches!(m, ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Error { key, seq, .. } => {
            assert_eq!(key, "room.hints_seated_only");
            assert_eq!(seq, None);
        }
        _ => unreachable!(),
    }

    // Ben plays without hints, to the end of the match.
    let ben_token = created.seats[1].token.clone().unwrap();
    let (r, a) = (room.clone(), addr);
    let ben = tokio::spawn(async move {
        let mut c = Client::connect(a, &r, Some(&ben_token)).await;
        assert!(hints_allowed(
            &c.until(|m| matches!(m, ServerMsg::Welcome { .. })).await
        ));
        let st = c.state_where(|m| chair(m, 1).is_some()).await;
        let me = chair(&st, 1).unwrap();
        play_to_the_end(&mut c, me, 3).await;
        c.seen
    });

    let mut ann = Client::connect(
        addr,
        &room,
        Some(created.seats[0].token.as_deref().unwrap()),
    )
    .await;
    assert!(hints_allowed(
        &ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await
    ));
    ann.send(&ClientMsg::Hints { on: true }).await;

    // Follow the hints for a few decisions, checking each against the library's suggestion.
    let mut checked = 0;
    let mut kinds = Vec::new();
    let mut current: Option<(u32, u64, Box<majiang::table::Observation>)> = None;
    let mut waiting_ack = false;
    let mut off_at = None;
    loop {
        let m = ann.recv().await.expect("open");
        match m {
            ServerMsg::State {
                status: RoomStatus::Playing,
                hand_number: Some(h),
                observation: Some(obs),
                actions,
                ..
            } => {
                current = None;
                if obs.legal_actions.len() >= 2 && !waiting_ack {
                    if off_at.is_some() {
                        // Hints off: play on without them.
                        ann.act(obs.legal_actions[0]).await;
                        waiting_ack = true;
                    } else {
                        current = Some((h, actions, obs));
                    }
                } else if obs.legal_actions.len() == 1 && !waiting_ack {
                    ann.act(obs.legal_actions[0]).await;
                    waiting_ack = true;
                }
            }
            ServerMsg::Hint {
                hand_number,
                actions,
                action,
                facts,
                value,
                runner_up,
                text,
            } => {
                if let Some(off) = off_at {
                    assert!(actions <= off, "a hint came after hints were turned off");
                    continue;
                }
                let Some((h, at, obs)) = current.take() else {
                    continue;
                };
                assert_eq!((hand_number, actions), (h, at), "the hint names its state");
                let expected = hint(&obs, &ruleset).unwrap();
                assert!(obs.legal_actions.contains(&action));
                assert_eq!(action, expected.action);
                assert_eq!(facts, expected.facts);
                assert_eq!(value, expected.value);
                assert_eq!(runner_up, expected.runner_up);
                assert_eq!(text, expected.text);
                assert!(!text.is_empty());
                kinds.push(action);
                checked += 1;
                if checked == 4 {
                    // Off before the action: no state after it may bring a hint.
                    ann.send(&ClientMsg::Hints { on: false }).await;
                    off_at = Some(at);
                }
                ann.act(action).await;
                waiting_ack = true;
            }
            ServerMsg::Ack { .. } => waiting_ack = false,
            ServerMsg::HandResult { .. } => ann.go_on().await,
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
    // One hand on the server's own deal may offer Ann a single choice (CI saw it: an early
    // win); each hint she had was checked against the library above.
    assert!(checked >= 1, "Ann had no hint: {kinds:?}");
    assert!(
        kinds.iter().any(|a| matches!(a, Action::Discard(_))),
        "a suggested discard among {kinds:?}"
    );
    let ben_seen = ben.await.unwrap();
    assert!(!ben_seen.iter().any(is_hint), "Ben did not turn hints on");
    watcher.drain().await;
    assert!(
        !watcher.seen.iter().any(is_hint),
        "a spectator gets no hint"
    );
}

/// `x` as JSON, to compare with a served review's fields.
fn js<T: serde::Serialize>(x: &T) -> serde_json::Value {
    serde_json::to_value(x).unwrap()
}

/// One hint the server sent, with the state it answered.
struct Hinted {
    observation: Box<Observation>,
    action: Action,
    value: Option<majiang::bots::expert::Estimate>,
    runner_up: Option<RunnerUp>,
    /// How long after its state the hint came (the server's hint path, queue and all).
    after: Duration,
}

/// Ann plays a whole match in a room of `rules` (`players` at the table, the others bots) by
/// following every hint the server sends; each hint with its state.
async fn follow_every_hint(
    app: &majiang_server::App,
    addr: std::net::SocketAddr,
    rules: &str,
    players: usize,
) -> (String, Vec<Hinted>) {
    let mut seats = vec![json!({"name": "Ann"})];
    seats.extend((1..players).map(|_| json!({"bot": true})));
    let mut options = serde_json::Map::new();
    if players != 4 {
        options.insert("players".into(), players.into());
    }
    let created = app
        .create_room(config(json!({
            "rules": rules, "options": options, "hands": 1, "hints": true, "autostart": true,
            "claim_timeout_ms": 0, "turn_timeout_ms": 0, "bot_delay_ms": 0, "seats": seats
        })))
        .await
        .unwrap();
    let room = created.room.clone();
    let mut ann = Client::connect(
        addr,
        &room,
        Some(created.seats[0].token.as_deref().unwrap()),
    )
    .await;
    ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    ann.send(&ClientMsg::Hints { on: true }).await;
    let mut hinted = Vec::new();
    let mut current: Option<(u32, u64, Box<Observation>, Instant)> = None;
    let mut waiting_ack = false;
    let until = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(
            Instant::now() < until,
            "{rules}/{players}: the match did not end"
        );
        let m = ann.recv().await.expect("open");
        match m {
            ServerMsg::State {
                status: RoomStatus::Playing,
                hand_number: Some(h),
                observation: Some(obs),
                actions,
                ..
            } => {
                current = None;
                if waiting_ack {
                    continue;
                }
                match obs.legal_actions.len() {
                    0 => {}
                    1 => {
                        ann.act(obs.legal_actions[0]).await;
                        waiting_ack = true;
                    }
                    _ => current = Some((h, actions, obs, Instant::now())),
                }
            }
            ServerMsg::Hint {
                hand_number,
                actions,
                action,
                value,
                runner_up,
                ..
            } => {
                let Some((h, at, obs, since)) = current.take() else {
                    continue;
                };
                if (hand_number, actions) != (h, at) {
                    // A hint for an earlier state, overtaken by a newer one on a loaded
                    // machine: each state is hinted, so the newer one's comes next.
                    assert!(
                        (hand_number, actions) < (h, at),
                        "the hint names a state not yet sent: {:?} after {:?}",
                        (hand_number, actions),
                        (h, at)
                    );
                    current = Some((h, at, obs, since));
                    continue;
                }
                hinted.push(Hinted {
                    observation: obs,
                    action,
                    value,
                    runner_up,
                    after: since.elapsed(),
                });
                ann.act(action).await;
                waiting_ack = true;
            }
            ServerMsg::HintBusy { .. } => panic!("{rules}/{players}: a hint was dropped"),
            ServerMsg::Ack { .. } => waiting_ack = false,
            ServerMsg::HandResult { .. } => ann.go_on().await,
            ServerMsg::MatchOver { .. } => break,
            ServerMsg::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
    (room, hinted)
}

/// The server's review of seat 0 (Ann) at its defaults (the review's own seed and budget), as
/// served.
async fn served_review(addr: std::net::SocketAddr, room: &str) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, _, body) =
            common::http(addr, "GET", &format!("/api/rooms/{room}/review?seat=0"), "").await;
        if status == 200 {
            return serde_json::from_str(&body).unwrap();
        }
        // The match's end may not be stored yet.
        assert!(Instant::now() < until, "no review: {status} {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_every_server_hint_is_reviewed_as_the_hints_judged_with_no_loss_beyond_noise() {
    let (app, addr) = start_server().await;
    let mut slowest = Duration::ZERO;
    let mut better = 0;
    for (rules, players) in [
        ("hongkong", 4),
        ("hangzhou", 4),
        ("yangzhou", 4),
        ("classic", 4),
        ("classic", 6),
    ] {
        let at = format!("{rules}/{players}");
        // The server deals from a seed of its own, so a one-hand match may give Ann only a
        // decision or two (an early win): play rooms until at least five decisions were
        // hinted, checking every room whole.
        let mut decided = 0;
        let mut rooms = 0;
        while decided < 5 {
            assert!(rooms < 8, "{at}: {decided} decisions in {rooms} rooms");
            rooms += 1;
            let (room, hinted) = follow_every_hint(&app, addr, rules, players).await;
            let review = served_review(addr, &room).await;
            // Seat 0 of the room is Ann's: the review's chair is the one her hints were for.
            if let Some(first) = hinted.first() {
                assert_eq!(review["chair"], js(&first.observation.player), "{at}");
            }
            assert_eq!(review["seed"], json!(majiang::review::EXPERT_SEED), "{at}");
            let decisions: Vec<&serde_json::Value> = review["hands"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|h| h["decisions"].as_array().unwrap())
                .collect();
            // Every decision had its hint, and the review judges each as its hint did.
            assert_eq!(decisions.len(), hinted.len(), "{at}");
            decided += hinted.len();
            for (d, h) in decisions.iter().zip(&hinted) {
                let alts = d["alternatives"].as_array().unwrap();
                assert_eq!(d["expert"], js(&h.action), "{at}: {d}");
                assert_eq!(d["played"], d["expert"], "{at}");
                assert_eq!(d["flagged"], json!(false), "{at}: {d}");
                match h.value {
                    // The ★ valued: first in the review's list, at the hint's value.
                    Some(v) => {
                        assert_eq!(alts[0]["action"], d["expert"], "{at}: {d}");
                        assert_eq!(alts[0]["value"], js(&v), "{at}: {d}");
                    }
                    // A rule's choice the search does not value (a win, an extra wind): the review
                    // values it neither.
                    None => {
                        assert!(alts.iter().all(|a| a["action"] != d["expert"]), "{at}: {d}");
                        assert!(h.runner_up.is_none(), "{at}");
                    }
                }
                match &h.runner_up {
                    Some(r) => {
                        // The hint's next best is the review's best other option (on a tie in
                        // value, either of them).
                        let same = alts[1..].iter().find(|a| a["action"] == js(&r.action));
                        let same = same.unwrap_or_else(|| panic!("{at}: {r:?} not in {d}"));
                        assert_eq!(same["value"]["mean"], alts[1]["value"]["mean"], "{at}: {d}");
                        assert_eq!(same["versus"], js(&r.versus), "{at}: {d}");
                        assert_eq!(same["band"], js(&r.band), "{at}: {d}");
                    }
                    // Valued, with no other option valued.
                    None if h.value.is_some() => assert_eq!(alts.len(), 1, "{at}: {d}"),
                    None => {}
                }
                // An option "better in the playouts" can be met: the ★ is what the expert plays,
                // chosen on the worlds its search played, and an option it dropped after the
                // first worlds (or did not search) may come out better over all of them. CI
                // met one (Hong Kong, a ready hand kept on a dead wait by the wall's end). The
                // review words it as such and the hint said the same (its runner-up's band,
                // above): counted, not refused.
                better += alts[1..]
                    .iter()
                    .filter(|a| a["band"] == js(&Band::Better))
                    .count();
                // The hint's own observation gives the same judgement through the library.
                let ruleset = Arc::new(
                    TableRules::from_name(
                        rules,
                        &serde_json::Map::from_iter(
                            (players != 4).then(|| ("players".to_string(), json!(players))),
                        ),
                    )
                    .unwrap(),
                );
                let again = hint(&h.observation, &ruleset).unwrap();
                assert_eq!((again.action, again.value), (h.action, h.value), "{at}");
                slowest = slowest.max(h.after);
            }
            let summary = &review["summary"];
            assert_eq!(summary["flagged"], json!(0), "{at}: {summary}");
            assert_eq!(summary["compared"], json!(0), "{at}: {summary}");
            assert_eq!(summary["agreed"], summary["decisions"], "{at}: {summary}");
            eprintln!("{at}: {} hinted decisions, reviewed alike", hinted.len());
        }
    }
    eprintln!(
        "the slowest hint came {slowest:?} after its state; {better} options better in the \
         playouts than the ★"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_creators_leave_hints_are_refused_and_never_sent() {
    let (app, addr) = start_server().await;
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "autostart": true,
            "seats": [{"name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let mut ann = Client::connect(
        addr,
        &created.room,
        Some(created.seats[0].token.as_deref().unwrap()),
    )
    .await;
    match ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
        ServerMsg::Welcome { config, .. } => {
            assert!(!config.hints, "off unless the creator allows")
        }
        _ => unreachable!(),
    }
    let (_, _, summary) =
        common::http(addr, "GET", &format!("/api/rooms/{}", created.room), "").await;
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["hints"], json!(false), "{summary}");
    ann.send(&ClientMsg::Hints { on: true }).await;
    match ann.until(|m| matches!(m, ServerMsg::Error { .. })).await {
        ServerMsg::Error {
            key, seq, message, ..
        } => {
            assert_eq!(key, "room.hints_not_allowed");
            assert_eq!(seq, None);
            assert!(message.contains("hints"), "{message}");
        }
        _ => unreachable!(),
    }
    let st = ann.fresh_state().await;
    assert_eq!(status(&st), Some(RoomStatus::Playing));
    let me = chair(&st, 0).unwrap();
    play_to_the_end(&mut ann, me, 1).await;
    assert!(
        !ann.seen.iter().any(is_hint),
        "no hint in a room without hints"
    );
}

/// A room of one person and three bots, hints allowed; the person's connection, welcomed.
pub(crate) async fn hinted_room(
    app: &majiang_server::App,
    addr: std::net::SocketAddr,
    name: &str,
) -> Client {
    let created = app
        .create_room(config(json!({
            "rules": "hongkong", "hands": 1, "hints": true, "autostart": true,
            "claim_timeout_ms": 0, "turn_timeout_ms": 0,
            "seats": [{"name": name}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let mut c = Client::connect(
        addr,
        &created.room,
        Some(created.seats[0].token.as_deref().unwrap()),
    )
    .await;
    c.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    c
}

/// A server whose hint queue is full for good: no hint is worked out, one may wait, and Ann's
/// first decision (her table has no timers: it waits for her) fills it. Ann's connection is
/// returned so that it stays open.
pub(crate) async fn full_hint_queue() -> (majiang_server::App, std::net::SocketAddr, Client) {
    let (app, addr) = common::start_with_limits(majiang_server::Limits {
        hints_at_once: 0,
        hint_queue: 1,
        ..majiang_server::Limits::default()
    })
    .await;
    let mut ann = hinted_room(&app, addr, "Ann").await;
    ann.send(&ClientMsg::Hints { on: true }).await;
    ann.until(|m| {
        matches!(m, ServerMsg::State { status: RoomStatus::Playing, observation: Some(o), .. }
            if o.legal_actions.len() >= 2)
    })
    .await;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.hint_queue().waiting() < 1 {
        assert!(std::time::Instant::now() < until, "Ann's hint never queued");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    (app, addr, ann)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_hint_queue_drops_new_hints_tells_the_person_and_the_tables_play_on() {
    let (app, addr, mut ann) = full_hint_queue().await;
    let dropped_before = common::figure(addr, "majiang_hints_dropped_total").await;

    // Bob, at another table, turns hints on and plays his whole match: every hint he asks for
    // is dropped, and he is told so for the state it answered.
    let mut bob = hinted_room(&app, addr, "Bob").await;
    bob.send(&ClientMsg::Hints { on: true }).await;
    let st = bob.fresh_state().await;
    let me = chair(&st, 0).unwrap();
    let acked = play_to_the_end(&mut bob, me, 2).await;
    assert!(acked > 0, "Bob's table played on");
    let busy: Vec<_> = bob
        .seen
        .iter()
        .filter(|m| matches!(m, ServerMsg::HintBusy { .. }))
        .collect();
    assert!(!busy.is_empty(), "Bob was told the expert is busy");
    assert!(!bob.seen.iter().any(is_hint), "no hint was worked out");
    // Each `hint_busy` names a state Bob was sent.
    for b in &busy {
        let ServerMsg::HintBusy {
            hand_number,
            actions,
        } = b
        else {
            unreachable!()
        };
        assert!(bob.seen.iter().any(|m| matches!(m,
            ServerMsg::State { hand_number: Some(h), actions: a, .. } if h == hand_number && a == actions)));
    }
    assert_eq!(app.hint_queue().waiting(), 1, "the cap held");
    let dropped = common::figure(addr, "majiang_hints_dropped_total").await - dropped_before;
    assert!(
        dropped >= busy.len() as f64,
        "/metrics counts the drops: {dropped} for {} told",
        busy.len()
    );

    // Ann's newer decisions replace her waiting job: the queue stays at one, and she plays on.
    let st = ann.fresh_state().await;
    let me = chair(&st, 0).unwrap();
    assert!(play_to_the_end(&mut ann, me, 1).await > 0);
    assert!(
        !ann.seen
            .iter()
            .any(|m| matches!(m, ServerMsg::HintBusy { .. })),
        "a newer hint for Ann replaced her older one instead of being dropped"
    );
    assert_eq!(app.hint_queue().waiting(), 1);
    // The server still answers.
    assert_eq!(common::http(addr, "GET", "/api/rooms", "").await.0, 200);
}

/// The expert's values cross the wire exactly: a standard error that the default JSON float
/// parser read one ulp off (24.066574330386118 as 24.06657433038612) comes back as written.
#[test]
fn an_estimate_reads_back_exactly_as_the_server_wrote_it() {
    let estimate = majiang::bots::expert::Estimate {
        mean: 28.0,
        se: 24.066574330386118,
        worlds: 16,
    };
    let text = serde_json::to_string(&estimate).unwrap();
    let back: majiang::bots::expert::Estimate = serde_json::from_str(&text).unwrap();
    assert_eq!(back, estimate, "{text}");
}
