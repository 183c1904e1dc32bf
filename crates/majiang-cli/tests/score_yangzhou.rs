//! The `majiang` binary over every Yangzhou case of the data file, plus malformed input and the
//! human-readable form.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const CASES: &str = include_str!("../../majiang/tests/data/yangzhou_cases.json");

fn run_json(request: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["score", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the majiang binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(request.as_bytes())
        .expect("write the request");
    child.wait_with_output().expect("the binary finishes")
}

fn patterns(v: &Value) -> BTreeMap<String, i64> {
    v.as_array()
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
        .unwrap_or_default()
}

#[test]
fn every_case_through_the_binary() {
    let cases: Vec<Value> = serde_json::from_str(CASES).expect("data file");
    assert!(cases.len() >= 40);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let out = run_json(&case["request"].to_string());
        if !out.status.success() {
            failures.push(format!(
                "{name}: exit {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let got: Value = serde_json::from_slice(&out.stdout).expect("a JSON answer");
        let want = &case["expected"];
        let same = got["valid"] == want["valid"]
            && (want["valid"] == Value::Bool(false)
                || (patterns(&got["patterns"]) == patterns(&want["patterns"])
                    && got["total"] == want["total"]
                    && got["payments"] == want["payments"]));
        if !same {
            failures.push(format!("{name}: got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for bad in [
        "{not json",
        r#"{"rules":"yangzhou","options":{"min_fun":3},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
        r#"{"rules":"yangzhou","options":{"min_fan":"lots"},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
        r#"{"rules":"yangzhou","concealed":"123m456p789s234s5x","winning_tile":"5p","win":"self_draw"}"#,
    ] {
        let out = run_json(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!out.stderr.is_empty(), "{bad}: no message");
        assert!(out.stdout.is_empty(), "{bad}: printed an answer");
    }
}

#[test]
fn human_form_lists_the_patterns() {
    let out = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["score", "--rules", "yangzhou", "123456789m567p5s 5s"])
        .output()
        .expect("the majiang binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "Pure Straight (Yi Tiao Long)",
        "Single Wait (Du Diao)",
        "20",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
}
