//! `GET /api/rooms/{id}/review`: the expert's review of a seat of a finished match, the same
//! document the library (and `majiang review --json`) makes from the match's log.

mod common;

use common::http;
use majiang::bots::expert::Budget;
use majiang::review::{ReviewOptions, review};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_finished_match_is_reviewed_as_the_library_reviews_its_log() {
    let (app, addr) = common::start_server().await;
    let created = app
        .create_room(common::config(json!({
            "rules": "hongkong", "hands": 1,
            "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let room = created.room;
    // A match not finished (a room waiting for its players) is refused, as its log is.
    let (_, _, waiting) = http(
        addr,
        "POST",
        "/api/rooms",
        r#"{"rules":"classic","hands":1}"#,
    )
    .await;
    let waiting: Value = serde_json::from_str(&waiting).unwrap();
    let waiting = waiting["room"].as_str().unwrap();
    let (status, _, _) = http(addr, "GET", &format!("/api/rooms/{waiting}/review"), "").await;
    assert_eq!(status, 403);
    let until = Instant::now() + Duration::from_secs(60);
    let log = loop {
        let (status, _, body) =
            http(addr, "GET", &format!("/api/rooms/{room}/log.jsonl"), "").await;
        if status == 200 {
            break body;
        }
        assert!(Instant::now() < until, "the bot match did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let path = format!("/api/rooms/{room}/review?seat=2&budget=16&seed=3");
    let (status, head, body) = http(addr, "GET", &path, "").await;
    assert_eq!(status, 200, "{body}");
    assert!(head.contains("application/json"));
    let served: Value = serde_json::from_str(&body).unwrap();
    let options = ReviewOptions {
        seat: 2,
        seed: 3,
        budget: Budget {
            rollouts: 16,
            ..Budget::DEFAULT
        },
    };
    let local = review(&log, &options, |_| {}).unwrap();
    // The same document, byte for byte (compared as text: no float re-parsing in between).
    assert!(
        body == serde_json::to_string(&local).unwrap(),
        "the served review differs"
    );
    assert!(served["summary"]["decisions"].as_u64().unwrap() > 0);
    // Bad seats and budgets are the client's error; unknown rooms are 404.
    for (query, reason) in [
        ("seat=7", "\"key\":\"api.review_no_seat\""),
        ("budget=0", "\"key\":\"api.review_budget\""),
        ("budget=1000", "\"key\":\"api.review_budget\""),
    ] {
        let (status, _, body) = http(
            addr,
            "GET",
            &format!("/api/rooms/{room}/review?{query}"),
            "",
        )
        .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(reason), "{query}: {body}");
    }
    assert_eq!(http(addr, "GET", "/api/rooms/nope/review", "").await.0, 404);
}
