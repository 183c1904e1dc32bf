//! The real `majiang` binary over every classic case, malformed input, and the table form.

mod common;
use common::majiang;

#[test]
fn every_classic_case_through_the_binary() {
    common::check_file_through_binary(
        &common::rule_set_file("classic_cases.json", 30),
        &["points", "double"],
    );
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
