//! The `majiang` binary over every hand-worked Hangzhou case, plus malformed input and the
//! human-form table.

mod common;
use common::{majiang, score_json};
use serde_json::{Value, json};

#[test]
fn every_case_through_the_binary() {
    common::check_file_through_binary(
        &common::rule_set_file("hangzhou_cases.json", 50),
        &["multiplier"],
    );
}

#[test]
fn malformed_requests_exit_2_with_a_message() {
    let base = json!({"rules": "hangzhou", "concealed": "123m456p789s111z5z",
        "winning_tile": "9m", "win": "self_draw", "seat": "south"});
    let with = |k: &str, v: Value| {
        let mut r = base.clone();
        r[k] = v;
        r.to_string()
    };
    for (input, needle) in [
        (with("options", json!({"min_fan": 3})), "min_fan"),
        (with("options", json!({"cap": -1})), "cap"),
        (with("options", json!({"end": "forever"})), "end"),
        (
            with("options", json!({"wildcard": "indicator"})),
            "wildcard",
        ),
        (with("lao", json!(0)), "lao"),
        (
            "{\"rules\": \"hangzhou\"".to_string(),
            "not a scoring request",
        ),
    ] {
        let out = score_json(&input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{input}: stderr {err:?}");
        assert!(out.stdout.is_empty(), "{input}");
    }
}

#[test]
fn human_form_table_names_the_patterns() {
    let out = majiang(
        &[
            "score",
            "--rules",
            "hangzhou",
            "123m456p789s111z5z 9m",
            "--self-drawn",
            "--seat",
            "east",
            "--lao",
            "2",
            "--gambits",
            "1",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "Bao Tou",
        "Fortune Gambit",
        "Dealer, 2 Lao",
        "×4",
        "total",
        "16",
        "+48",
    ] {
        assert!(table.contains(needle), "{needle} missing from:\n{table}");
    }
}
