//! Every match ends: whatever its end rule, a match is played for at most
//! [`MAX_MATCH_HANDS`] hands (`points:500` and a Hong Kong `min_fan` of 10, which ran 4,744
//! and 1,187 hands, end there); an end that cannot finish within it, a bots-only room paced to
//! run for days and an expert search budget past the server's are refused at creation, saying
//! why.

use crate::common::{http, start_with_limits};
use majiang_server::Limits;
use majiang_server::protocol::{MAX_BOT_BUDGET, MAX_MATCH_HANDS, RoomStatus};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_whose_end_rule_never_comes_end_at_the_hand_cap() {
    let (app, addr) = start_with_limits(Limits::default()).await;
    let bots = (0..4).map(|_| json!({"bot": true})).collect::<Vec<_>>();
    let mut rooms = Vec::new();
    for (rules, options) in [
        ("hangzhou", json!({"end": "points:500"})),
        ("hongkong", json!({"min_fan": 10})),
    ] {
        let body = json!({"rules": rules, "options": options, "seats": bots});
        let (status, _, text) = http(addr, "POST", "/api/rooms", &body.to_string()).await;
        assert_eq!(status, 201, "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        rooms.push((rules, v["room"].as_str().unwrap().to_string()));
    }
    for (rules, room) in rooms {
        let until = Instant::now() + Duration::from_secs(600);
        let summary = loop {
            let s = app.room(&room).map(|h| h.summary());
            if s.as_ref().is_some_and(|s| s.status == RoomStatus::Finished)
                || Instant::now() > until
            {
                break s;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let summary = summary.expect("the room is in memory");
        assert_eq!(
            summary.status,
            RoomStatus::Finished,
            "{rules}: the match ended"
        );
        let hands = summary.hand_number.unwrap();
        eprintln!("{rules}: ended after {hands} hands");
        assert!(hands <= MAX_MATCH_HANDS, "{rules}: {hands} hands");
        assert_eq!(summary.standings.len(), 4);
    }
}

#[tokio::test]
async fn what_could_not_end_or_costs_too_much_is_refused_at_creation() {
    let (_app, addr) = start_with_limits(Limits::default()).await;
    let bots = (0..4).map(|_| json!({"bot": true})).collect::<Vec<_>>();
    let expert = |budget: u32| {
        json!({"seats": [{"name": "Ann"}, {"bot": true, "bot_kind": format!("expert:{budget}")},
                         {"bot": true}, {"bot": true}]})
    };
    for (body, says) in [
        // Eighty hands of Hangzhou: more than the cap.
        (
            json!({"rules": "hangzhou", "options": {"end": "rounds:80"}}),
            "rounds:80".to_string(),
        ),
        // Bots only, a 5 s pause, up to 64 hands: days.
        (
            json!({"rules": "hongkong", "seats": bots, "bot_delay_ms": 5000}),
            "bot_delay_ms: 5000 is more than 703".to_string(),
        ),
        (
            expert(4096),
            format!("bot_kind: expert:4096 is more than expert:{MAX_BOT_BUDGET}"),
        ),
    ] {
        let (status, _, text) = http(addr, "POST", "/api/rooms", &body.to_string()).await;
        assert_eq!(status, 400, "{text}");
        assert!(text.contains(&says), "{says}: {text}");
    }
    for ok in [
        // The same pause over one hand is fine: at most 40 minutes.
        json!({"rules": "hongkong", "seats": bots, "bot_delay_ms": 5000, "hands": 1}),
        json!({"rules": "hongkong", "seats": bots, "bot_delay_ms": 400}),
        expert(MAX_BOT_BUDGET),
    ] {
        let (status, _, text) = http(addr, "POST", "/api/rooms", &ok.to_string()).await;
        assert_eq!(status, 201, "{ok}: {text}");
    }
}

/// The memory a room holds at the hand cap, for the Limits page:
/// `cargo test -p majiang-server --test integration match_length -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement for the Limits page, not a check"]
async fn memory_of_rooms_at_the_hand_cap() {
    const ROOMS: usize = 12;
    let (app, addr) = start_with_limits(Limits {
        finished_linger: Duration::from_secs(3600),
        ..Limits::default()
    })
    .await;
    let rss = || {
        std::fs::read_to_string("/proc/self/status")
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let bots = (0..4).map(|_| json!({"bot": true})).collect::<Vec<_>>();
    // One first, so the allocator and the store are warm.
    let body = json!({"rules": "hangzhou", "options": {"end": "points:500"}, "seats": bots});
    let (_, _, text) = http(addr, "POST", "/api/rooms", &body.to_string()).await;
    let first: Value = serde_json::from_str(&text).unwrap();
    let done = |app: &majiang_server::App, id: &str| {
        app.room(id)
            .is_some_and(|h| h.summary().status == RoomStatus::Finished)
    };
    while !done(&app, first["room"].as_str().unwrap()) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let before = rss();
    let mut ids = Vec::new();
    for _ in 0..ROOMS {
        let (_, _, text) = http(addr, "POST", "/api/rooms", &body.to_string()).await;
        let v: Value = serde_json::from_str(&text).unwrap();
        ids.push(v["room"].as_str().unwrap().to_string());
    }
    while !ids.iter().all(|id| done(&app, id)) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = rss();
    eprintln!(
        "{ROOMS} rooms of {MAX_MATCH_HANDS} hands held in memory: RSS {before} -> {after} KiB, \
         {} KiB a room",
        (after - before) / ROOMS as u64
    );
}
