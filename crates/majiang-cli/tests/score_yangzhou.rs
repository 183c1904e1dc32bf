//! The `majiang` binary over every Yangzhou case of the data file, plus malformed input and the
//! human-readable form.

mod common;
use common::{majiang, score_json};

#[test]
fn every_case_through_the_binary() {
    common::check_file_through_binary(&common::rule_set_file("yangzhou_cases.json", 40), &["fan"]);
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for bad in [
        "{not json",
        r#"{"rules":"yangzhou","options":{"min_fun":3},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
        r#"{"rules":"yangzhou","options":{"min_fan":"lots"},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
        r#"{"rules":"yangzhou","concealed":"123m456p789s234s5x","winning_tile":"5p","win":"self_draw"}"#,
    ] {
        let out = score_json(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!out.stderr.is_empty(), "{bad}: no message");
        assert!(out.stdout.is_empty(), "{bad}: printed an answer");
    }
}

#[test]
fn human_form_lists_the_patterns() {
    let out = majiang(
        &[
            "score",
            "--rules",
            "yangzhou",
            "123456789m567p5s 5s",
            "--self-drawn",
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
        "Pure Straight (Yi Tiao Long)",
        "Single Wait (Du Diao)",
        "20",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
}
