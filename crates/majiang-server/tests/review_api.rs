//! `GET /api/rooms/{id}/review`: the expert's review of a seat of a finished match, the same
//! document the library (and `majiang review --json`) makes from the match's log.

use crate::common;

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

/// A finished two-hand Hong Kong match of bots on `app`; its room id and log.
async fn finished(app: &majiang_server::App, addr: std::net::SocketAddr) -> (String, String) {
    let created = app
        .create_room(common::config(json!({
            "rules": "hongkong", "hands": 2,
            "seats": [{"bot": true}, {"bot": true}, {"bot": true}, {"bot": true}]
        })))
        .await
        .unwrap();
    let room = created.room;
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, _, body) =
            http(addr, "GET", &format!("/api/rooms/{room}/log.jsonl"), "").await;
        if status == 200 {
            return (room, body);
        }
        assert!(Instant::now() < until, "the bot match did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_job_reports_its_decisions_valued_then_the_librarys_review() {
    let (app, addr) = common::start_with_limits(majiang_server::Limits {
        reviews_at_once: 1,
        review_jobs: 2,
        ..majiang_server::Limits::default()
    })
    .await;
    let (room, log) = finished(&app, addr).await;
    let (status, head, body) = http(
        addr,
        "POST",
        &format!("/api/rooms/{room}/review?seat=1&budget=64&seed=5"),
        "",
    )
    .await;
    assert_eq!(status, 202, "{body}");
    let started: Value = serde_json::from_str(&body).unwrap();
    let job = started["job"].as_str().unwrap().to_string();
    let at = format!("/api/rooms/{room}/review/{job}");
    assert!(head.contains(&format!("location: {at}")), "{head}");
    // Polled: k of n decisions, k never falling, n fixed once known, to the review.
    let mut seen = vec![(0, 0)];
    let until = Instant::now() + Duration::from_secs(120);
    let done = loop {
        let (status, _, body) = http(addr, "GET", &at, "").await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let (k, n) = (v["done"].as_u64().unwrap(), v["total"].as_u64().unwrap());
        let &(k0, n0) = seen.last().unwrap();
        assert!(k >= k0, "progress fell from {k0} to {k}");
        assert!(n0 == 0 || n == n0, "the total moved from {n0} to {n}");
        assert!(k <= n, "{k} of {n}");
        if seen.last() != Some(&(k, n)) {
            seen.push((k, n));
        }
        if v["status"] == "done" {
            break v;
        }
        assert!(
            ["waiting", "working"].contains(&v["status"].as_str().unwrap()),
            "{v}"
        );
        assert!(Instant::now() < until, "the review did not finish");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let options = ReviewOptions {
        seat: 1,
        seed: 5,
        budget: Budget::DEFAULT,
    };
    let local = review(&log, &options, |_| {}).unwrap();
    let local: Value = serde_json::from_str(&serde_json::to_string(&local).unwrap()).unwrap();
    assert_eq!(done["review"], local, "the job's review is the library's");
    let n = local["summary"]["decisions"].as_u64().unwrap();
    assert!(n > 0);
    assert_eq!(
        (done["done"].as_u64(), done["total"].as_u64()),
        (Some(n), Some(n))
    );
    assert!(
        seen.iter().any(|&(k, t)| t == n && k < n),
        "the progress was seen on its way: {seen:?}"
    );
    // Asked again while kept: the same job, done at once; the old endpoint answers it too.
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/api/rooms/{room}/review?seat=1&seed=5"),
        "",
    )
    .await;
    assert_eq!(status, 202);
    let again: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (again["job"].as_str(), again["status"].as_str()),
        (Some(job.as_str()), Some("done"))
    );

    // Two jobs kept at most: with two unfinished, a third review is refused in words.
    let post = |q: &'static str| {
        let path = format!("/api/rooms/{room}/review?{q}");
        async move { http(addr, "POST", &path, "").await }
    };
    assert_eq!(post("seat=0&seed=1").await.0, 202);
    assert_eq!(post("seat=2&seed=1").await.0, 202);
    let (status, _, body) = post("seat=3&seed=1").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("\"key\":\"api.review_busy\""), "{body}");
    let (_, _, metrics) = http(addr, "GET", "/metrics", "").await;
    assert!(
        metrics.contains("majiang_reviews_refused_total"),
        "{metrics}"
    );
    // Once they finish, a new one drops the oldest finished.
    let (status, _, _) = http(
        addr,
        "GET",
        &format!("/api/rooms/{room}/review?seat=2&seed=1"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(post("seat=3&seed=1").await.0, 202);
    // A job not kept is gone, in words.
    let (status, _, body) = http(addr, "GET", &format!("/api/rooms/{room}/review/nope"), "").await;
    assert_eq!(status, 404);
    assert!(body.contains("\"key\":\"api.review_gone\""), "{body}");
}
