//! `majiang score` on Hong Kong hands: every hand-worked case of the library's data file through
//! the real binary, malformed input, and the human-readable table.

mod common;
use common::majiang;

#[test]
fn every_case_through_the_binary() {
    common::check_file_through_binary(&common::rule_set_file("hongkong_cases.json", 60), &["fan"]);
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
    // The worked example of `docs/rules/hongkong.md` (Settlement): pung hand 3 + two dragon
    // pungs, with 1f (not West's): 5 fan.
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

#[test]
fn unknown_request_fields_are_refused_by_name() {
    let misspelt = r#"{"rules": "hongkong", "concealed": "123m456p789s222z5p", "winning_tile": "5p",
        "win": "self_draw", "seat": "south", "prevailng_wind": "south"}"#;
    let out = common::score_json(misspelt);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("prevailng_wind"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_request() {
    let request = "\u{feff}{\"rules\": \"hongkong\", \"concealed\": \"123m456p789s11z55z\", \
        \"winning_tile\": \"5z\", \"win\": \"self_draw\", \"seat\": \"east\"}";
    let out = common::score_json(request);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], true);
}

#[test]
fn a_hand_over_the_limit_explains_its_own_fan() {
    // Seven Pairs at a house 16 fan: the total is 18 fan, paid at the limit (64 points); the
    // reasons name the 18 fan the table shows, not the limit's 10.
    let out = common::majiang(
        &[
            "score",
            "--rules",
            "hongkong",
            "-o",
            "seven_pairs=16",
            "1133m5577p99s117z 7z",
            "--self-drawn",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("total                  18"), "{text}");
    assert!(text.contains("18 fan → 64 points"), "{text}");
    assert!(!text.contains("10 fan"), "{text}");
}
