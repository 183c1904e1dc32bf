//! The HTTP side: the embedded UI, tile pictures, room creation and its refusals, and logs that
//! stay secret until the match is over.

use crate::common;

use common::http;
use serde_json::Value;

#[tokio::test]
async fn the_ui_tiles_and_room_api() {
    let (_app, addr) = common::start_server().await;
    let (status, head, body) = http(addr, "GET", "/", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("text/html"));
    assert!(body.contains("/js/main.js"));
    for path in ["/js/main.js", "/js/table.js", "/style.css", "/i18n/zh.json"] {
        let (status, _, body) = http(addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(body.len() > 500, "{path} is the embedded file");
    }
    let (status, head, body) = http(addr, "GET", "/tile/7z.svg", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("image/svg+xml"));
    assert!(body.contains("Red dragon"));
    assert_eq!(http(addr, "GET", "/tile/0m.svg", "").await.0, 404);

    // Refused settings: a 400 with the reason.
    for (bad, reason) in [
        (r#"{"rules":"riichi"}"#, "riichi"),
        (
            r#"{"rules":"hongkong","options":{"min_fan":"lots"}}"#,
            "options (hongkong)",
        ),
        (r#"{"rules":"hongkong","seats":[{"name":"a"}]}"#, "seats"),
        (r#"{"rules":"hongkong","colour":"red"}"#, "colour"),
        ("not json", "room settings"),
    ] {
        let (status, _, body) = http(addr, "POST", "/api/rooms", bad).await;
        assert_eq!(status, 400, "{bad}");
        assert!(body.contains(reason), "{bad}: {body}");
    }
    let (status, _, body) = http(
        addr,
        "POST",
        "/api/rooms",
        r#"{"rules":"classic","options":{"players":3},"hands":1}"#,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap();
    assert_eq!(created["seats"].as_array().unwrap().len(), 3);
    let token = created["seats"][0]["token"].as_str().unwrap();
    assert_eq!(token.len(), 32, "128-bit tokens");
    // The lobby lists it, without tokens.
    let (_, _, list) = http(addr, "GET", "/api/rooms", "").await;
    assert!(list.contains(room) && !list.contains(token));
    let (status, _, info) = http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
    assert_eq!(status, 200);
    assert!(info.contains("\"waiting\""));
    // Logs of a match not finished are refused; unknown rooms are 404.
    for tail in ["log", "log.jsonl", "replay"] {
        let (status, _, _) = http(addr, "GET", &format!("/api/rooms/{room}/{tail}"), "").await;
        assert_eq!(status, 403, "{tail}");
        let (status, _, _) = http(addr, "GET", &format!("/api/rooms/nope/{tail}"), "").await;
        assert_eq!(status, 404, "{tail}");
    }
    assert_eq!(http(addr, "GET", "/api/rooms/nope", "").await.0, 404);
}

#[tokio::test]
async fn the_rule_sets_endpoint_describes_every_set() {
    let (_app, addr) = common::start_server().await;
    let (status, head, body) = http(addr, "GET", "/api/rulesets", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("application/json"));
    let sets: Vec<Value> = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = sets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["hongkong", "hangzhou", "yangzhou", "classic"]);
    for s in &sets {
        for field in ["english", "chinese", "unit"] {
            assert!(s[field].as_str().is_some_and(|v| !v.is_empty()), "{field}");
        }
        assert!(s["lao"].is_boolean());
        assert!(s["patterns"].as_array().is_some_and(|p| !p.is_empty()));
        for o in s["options"].as_array().unwrap() {
            assert!(o["key"].is_string() && o["meaning"].is_string() && o["allowed"].is_object());
            assert!(o.get("default").is_some());
        }
    }
    let classic = &sets[3];
    assert_eq!(classic["chinese"], "中国古典麻将");
    assert_eq!(classic["seat_counts"], serde_json::json!([3, 4, 5, 6]));
    assert_eq!(classic["default_players"], 4);
    assert_eq!(sets[1]["lao"], true);
    assert_eq!(sets[0]["seat_counts"], serde_json::json!([4]));
}

/// The lobby's path: read the set's seat counts from `/api/rulesets`, then post a room with
/// `players` and one seat row per player.
#[tokio::test]
async fn a_five_player_classic_room_is_created_the_lobby_way() {
    let (_app, addr) = common::start_server().await;
    let (_, _, body) = http(addr, "GET", "/api/rulesets", "").await;
    let sets: Vec<Value> = serde_json::from_str(&body).unwrap();
    let classic = sets.iter().find(|s| s["name"] == "classic").unwrap();
    assert!(
        classic["seat_counts"]
            .as_array()
            .unwrap()
            .contains(&Value::from(5))
    );
    let seats: Vec<Value> = (0..5)
        .map(|i| {
            if i == 0 {
                serde_json::json!({"name": "You", "bot": false})
            } else {
                serde_json::json!({"name": format!("Bot {i}"), "bot": true, "bot_kind": "efficient"})
            }
        })
        .collect();
    let request = serde_json::json!({
        "rules": "classic", "options": {"players": 5}, "seats": seats, "bot_delay_ms": 0,
    });
    let (status, _, body) = http(addr, "POST", "/api/rooms", &request.to_string()).await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(created["seats"].as_array().unwrap().len(), 5);
    // Four seat rows for five players is refused with the reason.
    let short = serde_json::json!({
        "rules": "classic", "options": {"players": 5}, "seats": &request["seats"].as_array().unwrap()[..4],
    });
    let (status, _, body) = http(addr, "POST", "/api/rooms", &short.to_string()).await;
    assert_eq!(status, 400);
    assert!(body.contains("seats"), "{body}");
}

#[tokio::test]
async fn the_favicon_and_every_web_file_are_served_with_their_types() {
    let (_app, addr) = common::start_server().await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, head, body) = http(addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(
            head.contains("content-type: image/svg+xml"),
            "{path}: {head}"
        );
        assert!(body.contains("<svg"), "{path}");
    }
    let (_, head, _) = http(addr, "GET", "/js/main.js", "").await;
    assert!(head.contains("content-type: text/javascript"), "{head}");
    let (_, head, _) = http(addr, "GET", "/style.css", "").await;
    assert!(head.contains("content-type: text/css"), "{head}");
    for missing in ["/nope.js", "/../Cargo.toml", "/js/../../Cargo.toml"] {
        assert_eq!(http(addr, "GET", missing, "").await.0, 404, "{missing}");
    }
}

#[tokio::test]
async fn finished_matches_are_listed_newest_first_and_open_rooms_lead_the_lobby() {
    let (app, addr) = common::start_server().await;
    let bots = |name: &str| {
        common::config(serde_json::json!({
            "rules": name, "hands": 1,
            "seats": [{"bot": true, "name": "Ann"}, {"bot": true}, {"bot": true}, {"bot": true}]
        }))
    };
    let first = app.create_room(bots("hongkong")).await.unwrap().room;
    let waiting = app
        .create_room(common::config(serde_json::json!({})))
        .await
        .unwrap()
        .room;
    let second = app.create_room(bots("yangzhou")).await.unwrap().room;
    // Bots only: both matches play out by themselves.
    let mut listed: Vec<Value> = Vec::new();
    for _ in 0..200 {
        let (status, head, body) = http(addr, "GET", "/api/matches", "").await;
        assert_eq!(status, 200);
        assert!(head.contains("application/json"));
        listed = serde_json::from_str::<Vec<Value>>(&body).unwrap();
        if listed.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(listed.len(), 2, "two finished matches: {listed:?}");
    let ids: Vec<&str> = listed.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&first.as_str()) && ids.contains(&second.as_str()));
    assert!(listed[0]["finished"].as_i64() >= listed[1]["finished"].as_i64());
    let one = listed.iter().find(|m| m["id"] == first.as_str()).unwrap();
    assert_eq!(one["rules"], "hongkong");
    assert_eq!(one["players"][0], "Ann");
    let standings = one["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4);
    assert_eq!(standings[0]["rank"], 1);
    assert!(standings.iter().any(|s| s["name"] == "Ann"));
    let rooms: Vec<Value> =
        serde_json::from_str(&http(addr, "GET", "/api/rooms", "").await.2).unwrap();
    // The waiting room comes first, then the finished ones newest first.
    assert_eq!(rooms[0]["id"], waiting.as_str());
    assert!(rooms[1]["created"].as_i64() >= rooms[2]["created"].as_i64());
}
