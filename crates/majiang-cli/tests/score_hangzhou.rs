//! The `majiang` binary over every hand-worked Hangzhou case, plus malformed input and the
//! human-form table.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_majiang");

fn score_json(stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(["score", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the majiang binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("writes the request");
    child.wait_with_output().expect("the binary finishes")
}

fn pattern_set(v: &Value) -> BTreeSet<(String, i64)> {
    v["patterns"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p["id"].as_str().unwrap_or_default().to_string(),
                        p["value"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_case_through_the_binary() {
    let text = include_str!("../../majiang/tests/data/hangzhou_cases.json");
    let cases: Vec<Value> = serde_json::from_str(text).expect("a JSON array");
    assert!(cases.len() >= 50);
    let mut failures = Vec::new();
    for c in &cases {
        let name = c["name"].as_str().unwrap_or("?");
        let out = score_json(&c["request"].to_string());
        if !out.status.success() {
            failures.push(format!(
                "{name}: exit {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let got: Value = match serde_json::from_slice(&out.stdout) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: not JSON: {e}"));
                continue;
            }
        };
        let exp = &c["expected"];
        if exp["valid"] != got["valid"] {
            failures.push(format!("{name}: valid differs: {got}"));
        } else if exp["valid"] == json!(false) {
            if got["reason"].as_str().is_none_or(|r| r.is_empty()) {
                failures.push(format!("{name}: no reason given"));
            }
        } else if exp["total"] != got["total"]
            || exp["payments"] != got["payments"]
            || pattern_set(exp) != pattern_set(&got)
        {
            failures.push(format!("{name}: got {got}, expected {exp}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
    let out = Command::new(BIN)
        .args([
            "score",
            "--rules",
            "hangzhou",
            "123m456p789s111z5z 9m",
            "--seat",
            "east",
            "--lao",
            "2",
            "--gambits",
            "1",
        ])
        .output()
        .expect("the binary runs");
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
