//! The HTTP API's refusals and answers carry a catalogue key and its values beside the
//! English: a refused house rule, a bad seat count, an unknown room, an unknown ledger, a
//! scoring request that is no win, and the replay of an unfinished match.

use crate::common;

use majiang_testkit::net::http;
use serde_json::{Value, json};

async fn call(addr: std::net::SocketAddr, method: &str, path: &str, body: Value) -> (u16, Value) {
    let (method, path, text) = (method.to_string(), path.to_string(), body.to_string());
    let (status, answer) = tokio::task::spawn_blocking(move || http(addr, &method, &path, &text))
        .await
        .unwrap();
    (status, serde_json::from_str(&answer).unwrap_or(Value::Null))
}

#[tokio::test]
async fn refusals_say_a_key_with_values_and_the_english() {
    let (_app, addr) = common::start_server().await;
    let (status, v) = call(
        addr,
        "POST",
        "/api/rooms",
        json!({"rules": "hongkong", "options": {"min_fan": 99}}),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["key"], "options.not_allowed", "{v}");
    assert_eq!(v["args"]["rules"], "hongkong");
    assert_eq!(v["args"]["key"], "min_fan");
    assert_eq!(v["args"]["value"], "99");
    assert_eq!(v["args"]["allowed"]["kind"], "whole", "{v}");
    let english = v["error"].as_str().unwrap();
    assert!(english.contains("min_fan = 99 is not allowed"), "{english}");

    let (status, v) = call(
        addr,
        "POST",
        "/api/rooms",
        json!({"rules": "classic", "options": {"players": 5, "flowers": true}}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(v["key"], "options.flowers_are_winds");
    assert_eq!(v["args"], json!({"n": 5}));

    let (status, v) = call(
        addr,
        "POST",
        "/api/rooms",
        json!({"rules": "hongkong", "seats": [{"name": "a"}]}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(v["key"], "config.seat_count");
    assert_eq!(
        v["args"],
        json!({"given": 1, "rules": "hongkong", "need": 4})
    );

    let (status, v) = call(addr, "GET", "/api/rooms/nope", json!(null)).await;
    assert_eq!((status, v["key"].clone()), (404, json!("api.no_such_room")));

    let (status, v) = call(addr, "GET", "/api/ledgers/nope", json!(null)).await;
    assert_eq!(
        (status, v["key"].clone()),
        (404, json!("ledger.no_such_ledger"))
    );

    let (status, v) = call(
        addr,
        "POST",
        "/api/score",
        json!({"rules": "hongkong", "concealed": "13579m13579p135s", "winning_tile": "7s",
               "win": "self_draw", "seat": "east"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], false);
    assert_eq!(v["why"]["key"], "invalid.not_sets_hongkong", "{v}");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .starts_with("not a winning hand")
    );

    let (status, v) = call(addr, "POST", "/api/rooms", json!({"rules": "hongkong"})).await;
    assert_eq!(status, 201, "{v}");
    let room = v["room"].as_str().unwrap();
    let (status, v) = call(
        addr,
        "GET",
        &format!("/api/rooms/{room}/replay"),
        json!(null),
    )
    .await;
    assert_eq!(
        (status, v["key"].clone()),
        (403, json!("replay.not_finished")),
        "{v}"
    );
}
