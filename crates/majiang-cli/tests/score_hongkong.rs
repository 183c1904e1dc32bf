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
