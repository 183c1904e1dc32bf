//! The real `majiang` binary over every classic case, malformed input, and the table form.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

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
        .expect("write stdin");
    child.wait_with_output().expect("wait for majiang")
}

fn sorted_patterns(v: &Value) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = v
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p["id"].as_str().unwrap_or_default().to_string(),
                        p["value"].as_i64().unwrap_or(i64::MIN),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn every_classic_case_through_the_binary() {
    let text = include_str!("../../majiang/tests/data/classic_cases.json");
    let cases: Vec<Value> = serde_json::from_str(text).expect("data file is JSON");
    assert!(cases.len() >= 30);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let out = majiang(&["score", "--json"], &case["request"].to_string());
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
                failures.push(format!("{name}: answer is not JSON: {e}"));
                continue;
            }
        };
        let want = &case["expected"];
        if got["valid"] != want["valid"] {
            failures.push(format!(
                "{name}: valid {} != {}",
                got["valid"], want["valid"]
            ));
            continue;
        }
        if want["valid"] == Value::Bool(false) {
            if got["reason"].as_str().is_none_or(|r| r.is_empty()) {
                failures.push(format!("{name}: invalid without a reason"));
            }
            continue;
        }
        if got["total"] != want["total"] {
            failures.push(format!(
                "{name}: total {} != {}",
                got["total"], want["total"]
            ));
        }
        if got["payments"] != want["payments"] {
            failures.push(format!(
                "{name}: payments {} != {}",
                got["payments"], want["payments"]
            ));
        }
        if sorted_patterns(&got["patterns"]) != sorted_patterns(&want["patterns"]) {
            failures.push(format!(
                "{name}: patterns {} != {}",
                got["patterns"], want["patterns"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_classic_requests_exit_2() {
    let bad = [
        // Unknown option.
        r#"{"rules": "classic", "options": {"min_fan": 3}, "concealed": "123m456m789p123s5s",
            "winning_tile": "5s", "win": "self_draw", "seat": "south"}"#,
        // Flowers cannot be bonus tiles at a five-player table.
        r#"{"rules": "classic", "options": {"players": 5, "flowers": true},
            "concealed": "123m456m789p123s5s", "winning_tile": "5s", "win": "self_draw"}"#,
        // Seven players.
        r#"{"rules": "classic", "options": {"players": 7}, "concealed": "123m456m789p123s5s",
            "winning_tile": "5s", "win": "self_draw"}"#,
        // No West at a three-player table.
        r#"{"rules": "classic", "options": {"players": 3}, "concealed": "123m456m789p123s5s",
            "winning_tile": "5s", "win": "self_draw", "seat": "west"}"#,
        "not json",
    ];
    for text in bad {
        let out = majiang(&["score", "--json"], text);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(!out.stderr.is_empty(), "{text}: no message");
        assert!(out.stdout.is_empty(), "{text}: printed an answer");
    }
}

#[test]
fn table_form_names_the_patterns() {
    // The seed's 40 → 320 example, East winning on West's discard.
    let out = majiang(
        &[
            "score",
            "--rules",
            "classic",
            "123m456m9m kong@north 1111z pung@south 777z 9m",
            "--discard-from",
            "west",
            "--seat",
            "east",
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
        "Kong of Winds or Dragons",
        "Have a pung or kong of Dragons",
        "Have a pung or kong of your own Wind",
        "All sets of one suit, with honors",
        "320",
        "+1920",
    ] {
        assert!(table.contains(needle), "{needle} missing from:\n{table}");
    }
}
