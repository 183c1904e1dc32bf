//! `majiang score` for every rule set, one table: each set's hand-worked case file through the
//! real binary, malformed requests (exit 2, a message naming what is wrong, nothing on standard
//! output), and the human-readable table of one worked hand.

use crate::common;
use common::majiang;

/// What one rule set's scoring is checked with.
struct RuleSetCases {
    /// The library's case file and the least number of cases it must hold.
    file: &'static str,
    min_cases: usize,
    /// The units its patterns are counted in.
    units: &'static [&'static str],
    /// Malformed requests, each with a word the error message must contain ("" for any).
    malformed: &'static [(&'static str, &'static str)],
    /// A hand in the human form, and what its table must show.
    human: &'static [&'static str],
    needles: &'static [&'static str],
}

const CASES: &[RuleSetCases] = &[
    RuleSetCases {
        file: "hongkong_cases.json",
        min_cases: 60,
        units: &["fan"],
        malformed: &[
            (
                r#"{"rules": "hongkong", "concealed": "123m456p789s555z9m", "winning_tile": "9m", "win": "self_draw", "seat": "west", "options": {"minfan": 3}}"#,
                "minfan",
            ),
            (
                r#"{"rules": "hongkong", "concealed": "123m456p789s555z9m", "winning_tile": "9m", "win": "self_draw", "seat": "west", "options": {"limit": 65}}"#,
                "limit",
            ),
            (
                r#"{"rules": "hongkong", "concealed": "123m456p789s555z9m", "winning_tile": "9m", "win": "self_draw", "seat": "west", "options": {"flowers": "yes"}}"#,
                "options",
            ),
            (
                r#"{"rules": "hongkong", "concealed": "123m456p789s555z9m", "winning_tile": "9m", "win": "self_draw", "seat": "west", "options": {"players": 3}}"#,
                "players",
            ),
            (
                r#"{"rules": "hongkong", "concealed": "123m456p789s555z9x", "winning_tile": "9m", "win": "self_draw", "seat": "west"}"#,
                "concealed",
            ),
        ],
        // The worked example of `docs/rules/hongkong.md` (Settlement): pung hand 3 + two
        // dragon pungs, with 1f (not West's): 5 fan.
        human: &[
            "111m999p555z66z22z 6z",
            "--discard-from",
            "south",
            "--seat",
            "west",
            "--flowers",
            "1f",
        ],
        needles: &[
            "Pung hand",
            "Pung of Dragons",
            "3 fan",
            "2 fan",
            "total",
            "+64",
            "-32",
        ],
    },
    RuleSetCases {
        file: "hangzhou_cases.json",
        min_cases: 50,
        units: &["multiplier"],
        malformed: &[
            (
                r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z", "winning_tile": "9m", "win": "self_draw", "seat": "south", "options": {"min_fan": 3}}"#,
                "min_fan",
            ),
            (
                r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z", "winning_tile": "9m", "win": "self_draw", "seat": "south", "options": {"cap": -1}}"#,
                "cap",
            ),
            (
                r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z", "winning_tile": "9m", "win": "self_draw", "seat": "south", "options": {"end": "forever"}}"#,
                "end",
            ),
            (
                r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z", "winning_tile": "9m", "win": "self_draw", "seat": "south", "options": {"wildcard": "indicator"}}"#,
                "wildcard",
            ),
            (
                r#"{"rules": "hangzhou", "concealed": "123m456p789s111z5z", "winning_tile": "9m", "win": "self_draw", "seat": "south", "lao": 0}"#,
                "lao",
            ),
            (r#"{"rules": "hangzhou""#, "not a scoring request"),
        ],
        human: &[
            "123m456p789s111z5z 9m",
            "--self-drawn",
            "--seat",
            "east",
            "--lao",
            "2",
            "--gambits",
            "1",
        ],
        needles: &[
            "Bao Tou",
            "Fortune Gambit",
            "Dealer, 2 Lao",
            "×4",
            "total",
            "16",
            "+48",
        ],
    },
    RuleSetCases {
        file: "yangzhou_cases.json",
        min_cases: 40,
        units: &["fan"],
        malformed: &[
            ("{not json", ""),
            (
                r#"{"rules":"yangzhou","options":{"min_fun":3},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
                "min_fun",
            ),
            (
                r#"{"rules":"yangzhou","options":{"min_fan":"lots"},"concealed":"123m456p789s234s5p","winning_tile":"5p","win":"self_draw"}"#,
                "min_fan",
            ),
            (
                r#"{"rules":"yangzhou","concealed":"123m456p789s234s5x","winning_tile":"5p","win":"self_draw"}"#,
                "concealed",
            ),
        ],
        human: &["123456789m567p5s 5s", "--self-drawn"],
        needles: &[
            "Pure Straight (Yi Tiao Long)",
            "Single Wait (Du Diao)",
            "20",
        ],
    },
    RuleSetCases {
        file: "classic_cases.json",
        min_cases: 30,
        units: &["points", "double"],
        malformed: &[
            // Unknown option.
            (
                r#"{"rules": "classic", "options": {"min_fan": 3}, "concealed": "123m456m789p123s5s", "winning_tile": "5s", "win": "self_draw", "seat": "south"}"#,
                "min_fan",
            ),
            // Flowers cannot be bonus tiles at a five-player table.
            (
                r#"{"rules": "classic", "options": {"players": 5, "flowers": true}, "concealed": "123m456m789p123s5s", "winning_tile": "5s", "win": "self_draw"}"#,
                "",
            ),
            // Seven players.
            (
                r#"{"rules": "classic", "options": {"players": 7}, "concealed": "123m456m789p123s5s", "winning_tile": "5s", "win": "self_draw"}"#,
                "players",
            ),
            // No West at a three-player table.
            (
                r#"{"rules": "classic", "options": {"players": 3}, "concealed": "123m456m789p123s5s", "winning_tile": "5s", "win": "self_draw", "seat": "west"}"#,
                "",
            ),
            ("not json", ""),
        ],
        // The seed's 40 → 320 example, East winning on West's discard.
        human: &[
            "123m456m9m kong@north 1111z pung@south 777z 9m",
            "--discard-from",
            "west",
            "--seat",
            "east",
        ],
        needles: &[
            "Kong of Winds or Dragons",
            "Have a pung or kong of Dragons",
            "Have a pung or kong of your own Wind",
            "All sets of one suit, with honors",
            "320",
            "+1920",
        ],
    },
];

/// The rule set a case file is for ("hongkong_cases.json" → "hongkong").
fn rules_of(c: &RuleSetCases) -> &'static str {
    c.file.trim_end_matches("_cases.json")
}

#[test]
fn every_case_of_every_rule_set_through_the_binary() {
    for c in CASES {
        common::check_file_through_binary(&common::rule_set_file(c.file, c.min_cases), c.units);
    }
}

#[test]
fn malformed_requests_exit_2_with_a_message() {
    for c in CASES {
        for (request, needle) in c.malformed {
            let out = common::score_json(request);
            assert_eq!(out.status.code(), Some(2), "{request}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.trim().is_empty(), "{request}: no message");
            assert!(err.contains(needle), "{request}: {needle:?} not in {err:?}");
            assert!(out.stdout.is_empty(), "{request}: printed an answer");
        }
    }
}

#[test]
fn the_human_form_table_names_the_patterns() {
    for c in CASES {
        let mut args = vec!["score", "--rules", rules_of(c)];
        args.extend_from_slice(c.human);
        let out = majiang(&args, "");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        for needle in c.needles {
            assert!(text.contains(needle), "{needle} missing from:\n{text}");
        }
    }
}

#[test]
fn the_table_covers_every_rule_set() {
    // The registry's list of names, as help texts print it ("hongkong, hangzhou, ...").
    let names = majiang::rules::registry::names_text();
    let mut known: Vec<&str> = names.split(", ").collect();
    known.sort_unstable();
    let mut covered: Vec<&str> = CASES.iter().map(rules_of).collect();
    covered.sort_unstable();
    assert_eq!(covered, known);
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

#[test]
fn a_request_that_is_not_an_object_gets_a_persons_error() {
    for (request, what) in [
        ("null", "this is null"),
        ("[]", "an empty list"),
        ("[1, 2]", "a list"),
        ("\"hand\"", "a string"),
    ] {
        let out = common::score_json(request);
        assert_eq!(out.status.code(), Some(2), "{request}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("a scoring request is a JSON object"), "{err}");
        assert!(err.contains(what), "{request}: {err}");
        assert!(!err.contains("RawRequest"), "{err}");
    }
}

#[test]
fn a_hand_below_the_minimum_says_which_patterns_counted() {
    // Hong Kong, a plain hand won on a discard: below the 3-fan minimum.
    let out = majiang(
        &[
            "score",
            "--rules",
            "hongkong",
            "123m456p789s234m5p 5p",
            "--discard-from",
            "west",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("is below the minimum of 3 fan"), "{text}");
    let counted = text
        .lines()
        .find(|l| l.starts_with("Counted: "))
        .unwrap_or_else(|| panic!("no Counted line in:\n{text}"));
    assert!(
        counted.contains("fan") || counted.contains("no pattern"),
        "{counted}"
    );
}
