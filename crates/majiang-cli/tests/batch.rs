//! Many hands in one call, through the real binary: `majiang analyze --batch` and
//! `majiang score --json` with JSON lines.

use crate::common;

use common::majiang;
use serde_json::{Value, json};
use std::process::Output;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The answer lines of a run, each parsed.
fn answers(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is one JSON line"))
        .collect()
}

/// The one-hand `analyze --json` answer, for comparison.
fn one_hand(args: &[&str]) -> Value {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = majiang(&all, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).expect("JSON")
}

#[test]
fn each_line_gets_the_one_hand_answer() {
    let input = "123m456p789s1122z\n\
                 \n\
                 {\"hand\": \"13m456p789s11z5555z\", \"wildcard\": \"5z\"}\n\
                 {\"hand\": \"1133557799m1155p\", \"no_seven_pairs\": true}\n\
                 123m11z pung 555z chow 789s pung 999p\n";
    let out = majiang(&["analyze", "--batch"], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        answers(&out),
        vec![
            one_hand(&["123m456p789s1122z"]),
            one_hand(&["13m456p789s11z5555z", "--wildcard", "5z"]),
            one_hand(&["1133557799m1155p", "--no-seven-pairs"]),
            one_hand(&["123m11z pung 555z chow 789s pung 999p"]),
        ]
    );
}

#[test]
fn command_line_flags_are_the_defaults_of_every_line() {
    let input = "1133557799m1155p\n{\"hand\": \"1133557799m1155p\", \"no_seven_pairs\": false}\n";
    let out = majiang(&["analyze", "--batch", "--no-seven-pairs"], input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a = answers(&out);
    assert_eq!(a[0]["winning"], false);
    assert_eq!(a[1]["winning"], true, "the line's own flag wins");
}

#[test]
fn a_bad_line_gets_an_error_with_its_number_and_the_rest_go_on() {
    let input = "123m456p789s1122z\nnot tiles\n\n{\"hand\": \"123m\", \"typo\": 1}\n{broken\n\
                 123m456p789s11122z\n";
    let out = majiang(&["analyze", "--batch"], input);
    assert_eq!(out.status.code(), Some(1), "some lines failed: exit 1");
    let a = answers(&out);
    assert_eq!(a.len(), 5);
    assert_eq!(a[0]["waits"], json!(["1z", "2z"]));
    for (answer, line) in a[1..4].iter().zip([2, 4, 5]) {
        assert_eq!(answer["line"], line, "{answer}");
        assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
    assert!(a[2]["error"].as_str().unwrap().contains("typo"), "{}", a[2]);
    assert_eq!(a[4]["winning"], true);
}

#[test]
fn non_utf8_line_is_an_error_line() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(["analyze", "--batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\xff\xfe\n123m456p789s1122z\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let a = answers(&out);
    assert_eq!(a[0]["line"], 1);
    assert_eq!(a[1]["shanten"], 0);
}

#[test]
fn batch_reads_a_file_argument() {
    let path = std::env::temp_dir().join(format!("majiang-batch-{}.txt", std::process::id()));
    std::fs::write(&path, "123m456p789s1122z\n123m456p789s11122z").unwrap();
    let out = majiang(&["analyze", "--batch", path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a = answers(&out);
    assert_eq!(a.len(), 2, "a last line without a newline counts");
    assert_eq!(a[1]["winning"], true);

    let out = majiang(&["analyze", "--batch", "/nonexistent/hands.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/hands.txt"));
}

#[test]
fn batch_and_a_hand_do_not_mix() {
    let out = majiang(&["analyze", "--batch", "-", "123m456p789s1122z"], "");
    assert_eq!(out.status.code(), Some(2));
}

const HK_SELF_DRAW: &str = r#"{"rules": "hongkong", "concealed": "123m456p789s11z55z", "melds": [], "winning_tile": "5z", "win": "self_draw", "seat": "east", "dealer": "east", "prevailing_wind": "east"}"#;

const HK_DISCARD: &str = r#"{"rules": "hongkong", "concealed": "123m456p789s11z55z", "melds": [], "winning_tile": "5z", "win": "discard", "discarder": "west", "seat": "south", "dealer": "east", "prevailing_wind": "east"}"#;

#[test]
fn score_json_lines_answer_one_a_line() {
    let single = |request: &str| {
        let out = majiang(&["score", "--json"], request);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let input = format!("{HK_SELF_DRAW}\n\n{HK_DISCARD}\n");
    let out = majiang(&["score", "--json"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        single(HK_SELF_DRAW) + &single(HK_DISCARD),
        "each line's answer is the single document's, byte for byte"
    );
}

#[test]
fn score_json_lines_report_a_bad_line_and_go_on() {
    let input = format!("{HK_SELF_DRAW}\n{{\"rules\": \"nowhere\"}}\nnot json\n{HK_DISCARD}\n");
    let out = majiang(&["score", "--json"], &input);
    assert_eq!(out.status.code(), Some(1));
    let a = answers(&out);
    assert_eq!(a.len(), 4);
    assert_eq!(a[0]["valid"], true);
    assert_eq!(a[1]["line"], 2);
    assert_eq!(a[2]["line"], 3);
    assert!(
        a[3]["valid"].is_boolean() && a[3].get("line").is_none(),
        "{}",
        a[3]
    );
}

#[test]
fn a_single_score_document_over_several_lines_still_works() {
    let v: Value = serde_json::from_str(HK_SELF_DRAW).unwrap();
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    let out = majiang(&["score", "--json"], &pretty);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 1);
    assert_eq!(answers(&out)[0]["valid"], true);
    // A broken single document is still an error for the whole input, exit 2.
    let out = majiang(&["score", "--json"], "{\n\"rules\": \n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
