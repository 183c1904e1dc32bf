//! `POST /api/score` over every hand-worked case of the library (`crates/majiang/tests/data/`):
//! the body is, byte for byte, the library's one answer (`majiang::rules::score_json`, what
//! `majiang score --json` prints; `crates/majiang-cli/tests/companion_score_cli.rs` runs the
//! binary beside the endpoint) and agrees with the answer worked by hand. Requests that cannot
//! be read get a 400 naming the field at fault.

use crate::common;

use majiang_testkit::cases;

use common::http;
use serde_json::{Value, json};

/// Every case file the library's `scoring_cases` runs, with the section that runs.
const FILES: [(&str, Option<&str>); 7] = [
    ("hongkong_cases.json", None),
    ("hangzhou_cases.json", None),
    ("yangzhou_cases.json", None),
    ("classic_cases.json", None),
    ("hongkong_review.json", Some("cases")),
    ("hangzhou_review.json", Some("cases")),
    ("yangzhou_review.json", Some("cases")),
];

#[tokio::test]
async fn every_hand_worked_case_is_answered_as_the_library_and_the_hand_answer() {
    let (_app, addr) = common::start_server().await;
    let mut scored = 0;
    for (file, section) in FILES {
        let all = cases::load(&cases::read_data(file), section);
        let compare = if section.is_some() {
            cases::Compare::Totals
        } else {
            cases::Compare::Everything
        };
        let mut failures = Vec::new();
        for case in &all {
            let name = format!("{file} {:?}", case["name"].as_str().unwrap_or("?"));
            // The page asks for each payment with its reason.
            let mut request = case["request"].clone();
            request["itemise"] = Value::Bool(true);
            let request = request.to_string();
            let (status, head, body) = http(addr, "POST", "/api/score", &request).await;
            assert_eq!(status, 200, "{name}: {body}");
            assert!(head.contains("application/json"), "{name}");
            let library =
                serde_json::to_string(&majiang::rules::score_json(&request).unwrap()).unwrap();
            assert_eq!(
                body, library,
                "{name}: not the library's answer byte for byte"
            );
            let got: Value = serde_json::from_str(&body).unwrap();
            if let Err(e) = cases::check(&name, &case["expected"], &got, compare) {
                failures.push(e);
            }
            if got["valid"] == true {
                // Each payment's reason is there, and they add up to the net payments.
                let mut net = std::collections::BTreeMap::<String, i64>::new();
                for p in got["itemised"].as_array().unwrap() {
                    let key = p["reason"]["key"].as_str().unwrap();
                    assert!(
                        majiang::rules::reason_keys().contains(&key),
                        "{name}: {key}"
                    );
                    assert!(!p["text"].as_str().unwrap().is_empty(), "{name}");
                    let amount = p["amount"].as_i64().unwrap();
                    *net.entry(p["to"].as_str().unwrap().into()).or_default() += amount;
                    *net.entry(p["from"].as_str().unwrap().into()).or_default() -= amount;
                }
                net.retain(|_, v| *v != 0);
                assert_eq!(net, cases::payments(&got), "{name}: itemised payments");
            }
            scored += 1;
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
    assert!(scored >= 250, "only {scored} cases");
}

#[tokio::test]
async fn requests_that_cannot_be_read_get_a_400_naming_the_field() {
    let (_app, addr) = common::start_server().await;
    let base = json!({"rules": "hongkong", "concealed": "123m456p789s11z55z",
        "winning_tile": "5z", "win": "discard", "discarder": "south", "seat": "east",
        "melds": []});
    let with = |key: &str, value: Value| {
        let mut r = base.clone();
        r[key] = value;
        r.to_string()
    };
    for (request, field, words) in [
        (
            with("winning_tile", json!("1x")),
            Some("winning_tile"),
            "winning_tile",
        ),
        (
            with("discarder", json!("east")),
            Some("discarder"),
            "own discard",
        ),
        (with("seat", json!("up")), Some("seat"), "not a seat"),
        (
            with("concealed", json!("123m456p789s1z5555z")),
            None,
            "impossible",
        ),
        (
            with(
                "melds",
                json!([{"kind": "pung", "tiles": "555z", "from": "nobody"}]),
            ),
            Some("melds[0].from"),
            "not a seat",
        ),
        (with("rules", json!("riichi")), Some("rules"), "riichi"),
        (with("options", json!({"min_fan": "lots"})), None, "min_fan"),
        (
            "{\"rules\": \"hongkong\"".to_string(),
            None,
            "not a scoring request",
        ),
    ] {
        let (status, _, body) = http(addr, "POST", "/api/score", &request).await;
        assert_eq!(status, 400, "{request}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(words), "{request}: {error}");
        assert_eq!(body["field"].as_str(), field, "{request}: {body}");
    }
    // A readable hand that does not win is an answer, not an error.
    let (status, _, body) = http(
        addr,
        "POST",
        "/api/score",
        &with("concealed", json!("123m456p789s11z56z")),
    )
    .await;
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["valid"], false, "{body}");
    assert!(
        body["reason"]
            .as_str()
            .unwrap()
            .contains("not a winning hand"),
        "{body}"
    );
}
