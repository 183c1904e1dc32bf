//! `majiang score` on Hong Kong hands: every hand-worked case of the library's data file through
//! the real binary, malformed input, and the human-readable table.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const DATA: &str = include_str!("../../majiang/tests/data/hongkong_cases.json");

fn majiang(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run majiang");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write request");
    child.wait_with_output().expect("majiang finishes")
}

fn pattern_set(patterns: &Value) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = patterns
        .as_array()
        .expect("patterns array")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().expect("id").to_string(),
                p["value"].as_i64().expect("value"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_case_through_the_binary() {
    let cases: Vec<Value> = serde_json::from_str(DATA).expect("cases");
    assert!(cases.len() >= 60);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().expect("name");
        let out = majiang(&["score", "--json"], &case["request"].to_string());
        assert!(
            out.status.success(),
            "{name}: exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
        let want = &case["expected"];
        if got["valid"] != want["valid"] {
            failures.push(format!("{name}: {got}"));
            continue;
        }
        if want["valid"] == Value::Bool(false) {
            if !matches!(got["reason"].as_str(), Some(r) if !r.is_empty()) {
                failures.push(format!("{name}: no reason in {got}"));
            }
            continue;
        }
        if pattern_set(&got["patterns"]) != pattern_set(&want["patterns"])
            || got["total"] != want["total"]
            || got["payments"] != want["payments"]
        {
            failures.push(format!("{name}: {got}"));
        }
        if let Some(ps) = got["patterns"].as_array() {
            if ps
                .iter()
                .any(|p| p["unit"] != "fan" || p["name"].as_str().is_none())
            {
                failures.push(format!("{name}: every pattern is named and in fan: {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_requests_exit_2_with_a_message() {
    let good = r#"{"rules": "hongkong", "concealed": "123m456p789s555z9m", "winning_tile": "9m",
        "win": "self_draw", "seat": "west"OPTIONS}"#;
    assert!(
        majiang(&["score", "--json"], &good.replace("OPTIONS", ""))
            .status
            .success()
    );
    for (options, needle) in [
        (r#", "options": {"minfan": 3}"#, "minfan"),
        (r#", "options": {"limit": 65}"#, "limit"),
        (r#", "options": {"flowers": "yes"}"#, "options"),
        (r#", "options": {"players": 3}"#, "players"),
        (r#", "concealed": "123m456p789s555z9x""#, "concealed"),
    ] {
        let out = majiang(&["score", "--json"], &good.replace("OPTIONS", options));
        assert_eq!(out.status.code(), Some(2), "{options}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{options}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn human_form_prints_the_patterns() {
    // Seed 002's example: pung hand 3 + two dragon pungs, with 1f (not West's): 5 fan.
    let out = majiang(
        &[
            "score",
            "--rules",
            "hongkong",
            "111m999p555z66z22z 6z",
            "--discard-from",
            "south",
            "--seat",
            "west",
            "--flowers",
            "1f",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "Pung hand",
        "Pung of Dragons",
        "3 fan",
        "2 fan",
        "total",
        "+64",
        "-32",
    ] {
        assert!(text.contains(needle), "{needle} in\n{text}");
    }
}
