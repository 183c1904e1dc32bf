//! A worked example and a near miss for every pattern of the table.

use super::*;
use crate::scoring::request::ScoreRequest;
use crate::seat::Seat;
use std::collections::BTreeMap;

/// Scores `fields` (JSON object members, without braces) with the options `opts`, defaulting
/// to a West-seat discard win off South in an East round, East dealing.
fn run(opts: &str, fields: &str) -> Result<Scored, Invalid> {
    let mut text = format!(r#"{{"rules": "hongkong", "options": {{{opts}}}, {fields}"#);
    for (key, default) in [
        ("\"win\"", r#""win": "discard", "discarder": "south""#),
        ("\"seat\"", r#""seat": "west""#),
    ] {
        if !fields.contains(key) {
            text.push_str(", ");
            text.push_str(default);
        }
    }
    text.push('}');
    let req = ScoreRequest::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let options = Options::from_json(&req.options).expect("options");
    score(&req.situation, &options)
}

/// The pattern ids and values of a valid win (minimum 0 fan).
fn ids(fields: &str) -> BTreeMap<String, i64> {
    ids_with(r#""min_fan": 0"#, fields)
}

fn ids_with(opts: &str, fields: &str) -> BTreeMap<String, i64> {
    let s = run(opts, fields).unwrap_or_else(|e| panic!("{e}: {fields}"));
    s.patterns.into_iter().map(|p| (p.id, p.value)).collect()
}

fn has(fields: &str, id: &str, value: i64) {
    has_with(r#""min_fan": 0"#, fields, id, value);
}

fn has_with(opts: &str, fields: &str, id: &str, value: i64) {
    let got = ids_with(opts, fields);
    assert_eq!(got.get(id), Some(&value), "{id} in {got:?} for {fields}");
}

fn lacks(fields: &str, id: &str) {
    let got = ids(fields);
    assert!(
        !got.contains_key(id),
        "{id} should not be in {got:?} for {fields}"
    );
}

fn invalid(fields: &str) {
    assert!(
        run(r#""min_fan": 0"#, fields).is_err(),
        "{fields} should be invalid"
    );
}

#[test]
fn every_pattern_has_one_detector_and_a_unique_id() {
    let mut seen = std::collections::BTreeSet::new();
    for p in PATTERNS {
        assert!(seen.insert(p.id), "{} twice", p.id);
        let ordinary = patterns::ORDINARY
            .iter()
            .filter(|(id, _)| *id == p.id)
            .count();
        let special = patterns::LIMITS
            .iter()
            .filter(|(id, _)| *id == p.id)
            .count();
        if p.option == Some("limit") {
            assert_eq!((ordinary, special), (0, 1), "{}", p.id);
        } else {
            assert_eq!((ordinary, special), (1, 0), "{}", p.id);
        }
    }
    assert_eq!(
        patterns::ORDINARY.len() + patterns::LIMITS.len(),
        PATTERNS.len()
    );
    assert_eq!(PATTERNS.len(), 22 + 14);
}

#[test]
fn dragon_pung_and_kong() {
    has(
        r#""concealed": "123m456p789s555z2z", "winning_tile": "2z""#,
        "dragon_pung",
        1,
    );
    lacks(
        r#""concealed": "123m456p789s222z5z", "winning_tile": "5z""#,
        "dragon_pung",
    );
    let kong = r#""melds": [{"kind": "kong", "tiles": "5555z", "from": "north"}],
        "concealed": "123m456p789s2z", "winning_tile": "2z""#;
    has(kong, "dragon_kong", 1);
    lacks(kong, "dragon_pung");
    lacks(
        r#""melds": [{"kind": "kong", "tiles": "2222z", "from": "north"}],
        "concealed": "123m456p789s5z", "winning_tile": "5z""#,
        "dragon_kong",
    );
}

#[test]
fn seat_wind_pung_and_kong() {
    // West seat: 3z is the seat wind.
    let pung = r#""concealed": "123m456p789s333z9m", "winning_tile": "9m""#;
    has(pung, "seat_wind_pung", 1);
    lacks(pung, "round_wind_pung");
    lacks(
        &format!(r#"{pung}, "seat": "south", "win": "discard", "discarder": "east""#),
        "seat_wind_pung",
    );
    let kong = r#""melds": [{"kind": "concealed_kong", "tiles": "3333z"}],
        "concealed": "123m456p789s9m", "winning_tile": "9m""#;
    has(kong, "seat_wind_kong", 1);
    lacks(&kong.replace("3333z", "4444z"), "seat_wind_kong");
}

#[test]
fn round_wind_pung_and_kong() {
    let pung = r#""concealed": "123m456p789s222z9m", "winning_tile": "9m",
        "prevailing_wind": "south""#;
    has(pung, "round_wind_pung", 1);
    lacks(&pung.replace("south", "east"), "round_wind_pung");
    let kong = r#""melds": [{"kind": "kong", "tiles": "2222z", "from": "east"}],
        "concealed": "123m456p789s9m", "winning_tile": "9m", "prevailing_wind": "south""#;
    has(kong, "round_wind_kong", 1);
    lacks(&kong.replace("south", "north"), "round_wind_kong");
}

#[test]
fn a_wind_that_is_both_seat_and_round_scores_two() {
    let both = r#""concealed": "123m456p789s111z9m", "winning_tile": "9m", "seat": "east",
        "prevailing_wind": "east""#;
    let got = ids(both);
    assert_eq!(got.get("seat_wind_pung"), Some(&1));
    assert_eq!(got.get("round_wind_pung"), Some(&1));
}

const PLAIN: &str = r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#;

#[test]
fn own_flower_and_season() {
    // South seat: flower 2f and season 6f are its own.
    let south = format!(r#"{PLAIN}, "seat": "south", "discarder": "west", "win": "discard""#);
    has(&format!(r#"{south}, "flowers": ["2f"]"#), "own_flower", 1);
    lacks(
        &format!(r#"{south}, "flowers": ["1f", "6f"]"#),
        "own_flower",
    );
    has(&format!(r#"{south}, "flowers": ["6f"]"#), "own_season", 1);
    lacks(
        &format!(r#"{south}, "flowers": ["5f", "2f"]"#),
        "own_season",
    );
    has(
        &format!(r#"{south}, "flowers": ["2f", "6f"]"#),
        "own_season",
        1,
    );
}

#[test]
fn all_flowers_and_all_seasons() {
    let all = format!(r#"{PLAIN}, "flowers": ["1f", "2f", "3f", "4f"]"#);
    has(&all, "all_flowers", 2);
    has(&all, "own_flower", 1);
    lacks(&all, "all_seasons");
    lacks(
        &format!(r#"{PLAIN}, "flowers": ["1f", "2f", "3f", "5f"]"#),
        "all_flowers",
    );
    has(
        &format!(r#"{PLAIN}, "flowers": ["5f", "6f", "7f", "8f"]"#),
        "all_seasons",
        2,
    );
    lacks(
        &format!(r#"{PLAIN}, "flowers": ["5f", "6f", "7f", "4f"]"#),
        "all_seasons",
    );
}

#[test]
fn no_flowers_only_with_flowers_in_play() {
    has(PLAIN, "no_flowers", 1);
    lacks(&format!(r#"{PLAIN}, "flowers": ["8f"]"#), "no_flowers");
    let off = ids_with(r#""min_fan": 0, "flowers": false"#, PLAIN);
    assert!(!off.contains_key("no_flowers"));
    let off = ids_with(
        r#""min_fan": 0, "flowers": false"#,
        &format!(r#"{PLAIN}, "flowers": ["3f", "7f"]"#),
    );
    assert!(!off.contains_key("own_flower") && !off.contains_key("own_season"));
}

#[test]
fn little_three_dragons_keeps_its_dragon_pungs() {
    let ltd = r#""concealed": "555z666z77z123m99p", "winning_tile": "9p""#;
    has(ltd, "little_three_dragons", 4);
    has(ltd, "dragon_pung", 2);
    lacks(
        r#""concealed": "555z666z11m123m99p", "winning_tile": "9p""#,
        "little_three_dragons",
    );
}

#[test]
fn chow_hand_and_pung_hand() {
    has(PLAIN, "chow_hand", 1);
    lacks(PLAIN, "pung_hand");
    let near = r#""concealed": "123m456p789s222s9m", "winning_tile": "9m""#;
    lacks(near, "chow_hand");
    let pungs = r#""concealed": "111m222p333s444s5m", "winning_tile": "5m""#;
    has(pungs, "pung_hand", 3);
    lacks(pungs, "chow_hand");
    lacks(
        r#""concealed": "111m222p333s456s5m", "winning_tile": "5m""#,
        "pung_hand",
    );
    // Declared melds are sets too.
    has(
        r#""melds": [{"kind": "pung", "tiles": "777p", "from": "north"},
        {"kind": "kong", "tiles": "8888s", "from": "east"}],
        "concealed": "111m222p5m", "winning_tile": "5m""#,
        "pung_hand",
        3,
    );
}

#[test]
fn one_suit_with_and_without_honors() {
    let mixed = r#""concealed": "123456789m111z2z", "winning_tile": "2z""#;
    has(mixed, "one_suit_and_honors", 3);
    lacks(mixed, "one_suit");
    lacks(
        r#""concealed": "123456789m111p2z", "winning_tile": "2z""#,
        "one_suit_and_honors",
    );
    let pure = r#""concealed": "123456789m222m5m", "winning_tile": "5m""#;
    has(pure, "one_suit", 6);
    lacks(pure, "one_suit_and_honors");
    lacks(
        r#""concealed": "123456789m222p5m", "winning_tile": "5m""#,
        "one_suit",
    );
}

#[test]
fn seven_pairs_value_is_an_option() {
    let pairs = r#""concealed": "1133m5577p99s112z", "winning_tile": "2z""#;
    has(pairs, "seven_pairs", 4);
    lacks(pairs, "chow_hand");
    lacks(PLAIN, "seven_pairs");
    // The house value 16 is over the limit of 10: the row keeps its value and the total is the
    // sum of the rows, but the payment stops at the limit (64 points).
    has_with(
        r#""min_fan": 0, "seven_pairs": 16"#,
        pairs,
        "seven_pairs",
        16,
    );
    let scored = run(r#""seven_pairs": 16"#, pairs).expect("valid");
    let sum: i64 = scored.patterns.iter().map(|p| p.value).sum();
    assert!(sum > 16);
    assert_eq!(scored.total, sum);
    // West wins on South's discard at the limit: South pays 2 × 64, East and North 64 each.
    assert_eq!(scored.payments[&Seat::West], 256, "{scored:?}");
    assert_eq!(scored.payments[&Seat::South], -128);
    assert!(run(r#""seven_pairs": 0"#, pairs).is_err());
    // Four of a kind is not two pairs.
    invalid(r#""concealed": "1111m5577p99s112z", "winning_tile": "2z""#);
}

#[test]
fn winning_situations() {
    let drawn = format!(r#"{PLAIN}, "win": "self_draw""#);
    has(&drawn, "self_drawn", 1);
    lacks(PLAIN, "self_drawn");
    let last = format!(r#"{drawn}, "situation": ["last_wall_tile"]"#);
    has(&last, "last_wall_tile", 1);
    has(&last, "self_drawn", 1);
    lacks(&drawn, "last_wall_tile");
    invalid(&format!(r#"{PLAIN}, "situation": ["last_wall_tile"]"#));
    has(
        &format!(r#"{PLAIN}, "situation": ["last_discard"]"#),
        "last_discard",
        1,
    );
    lacks(PLAIN, "last_discard");
    invalid(&format!(r#"{drawn}, "situation": ["last_discard"]"#));
    let robbed = r#""concealed": "123m456p789s234s9m", "winning_tile": "9m",
        "win": "robbing_kong", "discarder": "north""#;
    has(robbed, "robbing_kong", 1);
    lacks(robbed, "self_drawn");
    lacks(PLAIN, "robbing_kong");
    let supplement = r#""melds": [{"kind": "concealed_kong", "tiles": "8888p"}],
        "concealed": "123m789s234s9m", "winning_tile": "9m", "win": "self_draw",
        "situation": ["kong_replacement"]"#;
    has(supplement, "kong_replacement", 1);
    has(supplement, "self_drawn", 1);
    lacks(&drawn, "kong_replacement");
    invalid(&format!(r#"{PLAIN}, "situation": ["kong_replacement"]"#));
}

/// What a row of [`LIMIT_ROWS`] expects of its hand.
enum Expect {
    /// The limit (10 fan), scored by this special hand alone.
    Limit(&'static str),
    /// A near miss: still a valid ordinary win (minimum 0 fan), so that it cannot pass by
    /// accident, without this special hand and with no row at the limit; with a total, the
    /// fan it scores under the default options.
    NotLimit(&'static str, Option<i64>),
    /// Not a win at all.
    Invalid,
}

/// One limit-hand case: the hand (tiles and melds), the situation (JSON members; West winning
/// on South's discard where left out), what it must score, and why.
struct LimitRow {
    why: &'static str,
    hand: &'static str,
    situation: &'static str,
    expect: Expect,
}

/// A [`LimitRow`], written on one line of the table.
const fn row(
    why: &'static str,
    hand: &'static str,
    situation: &'static str,
    expect: Expect,
) -> LimitRow {
    LimitRow {
        why,
        hand,
        situation,
        expect,
    }
}

/// Four concealed pungs and a pair, the shape of Hidden Treasure.
const FOUR_CONCEALED_PUNGS: &str = r#""concealed": "111m222p333s444s5m", "winning_tile": "5m""#;
/// Four kongs and a pair.
const FOUR_KONGS: &str = r#""melds": [{"kind": "kong", "tiles": "1111m", "from": "north"},
    {"kind": "kong", "tiles": "2222p", "from": "east"},
    {"kind": "concealed_kong", "tiles": "3333s"},
    {"kind": "kong", "tiles": "6666s", "from": "south"}],
    "concealed": "5m", "winning_tile": "5m""#;
/// Seven pairs of honours, which pay as Seven Pairs ([`seven_honor_pairs_are_not_all_honors`]).
const SEVEN_HONOR_PAIRS: &str = r#""concealed": "1122334455667z", "winning_tile": "7z""#;
/// The winner drew the winning tile.
const SELF_DRAWN: &str = r#""win": "self_draw""#;
/// The winner (West) took South's discard.
const OFF_SOUTH: &str = r#""win": "discard", "discarder": "south""#;

/// Every special hand of the table at the limit, and a near miss of each.
const LIMIT_ROWS: &[LimitRow] = &[
    row(
        "hidden treasure: four concealed pungs, self-drawn",
        FOUR_CONCEALED_PUNGS,
        SELF_DRAWN,
        Expect::Limit("hidden_treasure"),
    ),
    row(
        "hidden treasure: a concealed kong counts as a concealed pung",
        r#""melds": [{"kind": "concealed_kong", "tiles": "1111m"}],
            "concealed": "222p333s444s5m", "winning_tile": "5m""#,
        SELF_DRAWN,
        Expect::Limit("hidden_treasure"),
    ),
    row(
        "hidden treasure near miss: on a discard it is an ordinary Pung hand",
        FOUR_CONCEALED_PUNGS,
        OFF_SOUTH,
        Expect::NotLimit("hidden_treasure", None),
    ),
    row(
        "hidden treasure near miss: an exposed pung",
        r#""melds": [{"kind": "pung", "tiles": "111m", "from": "south"}],
            "concealed": "222p333s444s5m", "winning_tile": "5m""#,
        SELF_DRAWN,
        Expect::NotLimit("hidden_treasure", None),
    ),
    row(
        "three great scholars: three dragon pungs",
        r#""concealed": "555z666z777z123m9p", "winning_tile": "9p""#,
        "",
        Expect::Limit("three_great_scholars"),
    ),
    row(
        "three great scholars near miss: two dragon pungs and a dragon pair",
        r#""concealed": "555z666z77z123m99p", "winning_tile": "9p""#,
        "",
        Expect::NotLimit("three_great_scholars", None),
    ),
    row(
        "little four winds, and no big four winds",
        r#""concealed": "111z222z333z4z123m", "winning_tile": "4z""#,
        "",
        Expect::Limit("little_four_winds"),
    ),
    row(
        "little four winds near miss: two wind pungs and a wind pair",
        r#""concealed": "111z222z33z123m99m", "winning_tile": "3z""#,
        "",
        Expect::NotLimit("little_four_winds", None),
    ),
    row(
        "big four winds, and no little four winds",
        r#""melds": [{"kind": "pung", "tiles": "444z", "from": "south"}],
            "concealed": "111z222z333z5m", "winning_tile": "5m""#,
        "",
        Expect::Limit("big_four_winds"),
    ),
    row(
        "all honours",
        r#""concealed": "111z222z333z555z7z", "winning_tile": "7z""#,
        "",
        Expect::Limit("all_honors"),
    ),
    row(
        "all honours near miss: one pung of 9m",
        r#""concealed": "111z222z999m555z7z", "winning_tile": "7z""#,
        "",
        Expect::NotLimit("all_honors", None),
    ),
    row(
        "all terminals",
        r#""concealed": "111m999m111p999p1s", "winning_tile": "1s""#,
        "",
        Expect::Limit("all_terminals"),
    ),
    row(
        "all terminals near miss: one pung of 8p",
        r#""concealed": "111m999m111p888p1s", "winning_tile": "1s""#,
        "",
        Expect::NotLimit("all_terminals", None),
    ),
    row(
        "nine gates",
        r#""concealed": "1112345678999m", "winning_tile": "5m""#,
        "",
        Expect::Limit("nine_gates"),
    ),
    row(
        "nine gates near miss: a kong of 1s is One suit only 6 + No Flowers 1",
        r#""melds": [{"kind": "concealed_kong", "tiles": "1111m"}],
            "concealed": "2345678999m", "winning_tile": "8m""#,
        "",
        Expect::NotLimit("nine_gates", Some(7)),
    ),
    row(
        "nine gates near miss (ruling): the 13 before the winning tile were not \
         1112345678999; 11m 123m 456m 789m 999m is One suit only 6 + No Flowers 1",
        r#""concealed": "1123456789999m", "winning_tile": "1m""#,
        "",
        Expect::NotLimit("nine_gates", Some(7)),
    ),
    row(
        "all honours near miss (ruling): seven honour pairs are Seven Pairs 4 + No Flowers 1",
        SEVEN_HONOR_PAIRS,
        "",
        Expect::NotLimit("all_honors", Some(5)),
    ),
    row(
        "thirteen orphans",
        r#""concealed": "19m19p19s1234567z", "winning_tile": "1m""#,
        "",
        Expect::Limit("thirteen_orphans"),
    ),
    row(
        "thirteen orphans near miss: an 8s is no orphan, and the hand no win",
        r#""concealed": "19m19p18s1234567z", "winning_tile": "1m""#,
        "",
        Expect::Invalid,
    ),
    row("all kongs", FOUR_KONGS, "", Expect::Limit("all_kongs")),
    row(
        "all kongs near miss: three kongs and a pung",
        r#""melds": [{"kind": "kong", "tiles": "1111m", "from": "north"},
            {"kind": "kong", "tiles": "2222p", "from": "east"},
            {"kind": "concealed_kong", "tiles": "3333s"},
            {"kind": "pung", "tiles": "666s", "from": "south"}],
            "concealed": "5m", "winning_tile": "5m""#,
        "",
        Expect::NotLimit("all_kongs", None),
    ),
    row(
        "jade dragon: 222 444 666 bamboo read as pungs, not chows",
        r#""concealed": "222s444s666s666z8s", "winning_tile": "8s""#,
        "",
        Expect::Limit("jade_dragon"),
    ),
    row(
        "jade dragon near miss: a bamboo chow",
        r#""concealed": "123s444s666s666z8s", "winning_tile": "8s""#,
        "",
        Expect::NotLimit("jade_dragon", None),
    ),
    row(
        "ruby dragon",
        r#""concealed": "111m555m999m777z3m", "winning_tile": "3m""#,
        "",
        Expect::Limit("ruby_dragon"),
    ),
    row(
        "ruby dragon near miss: the white dragon, not the red",
        r#""concealed": "111m555m999m555z3m", "winning_tile": "3m""#,
        "",
        Expect::NotLimit("ruby_dragon", None),
    ),
    row(
        "pearl dragon",
        r#""concealed": "111p555p999p555z3p", "winning_tile": "3p""#,
        "",
        Expect::Limit("pearl_dragon"),
    ),
    row(
        "pearl dragon near miss: a dots chow",
        r#""concealed": "111p555p789p555z3p", "winning_tile": "3p""#,
        "",
        Expect::NotLimit("pearl_dragon", None),
    ),
    row(
        "heavenly hand: the dealer's self-drawn first hand",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "self_draw", "seat": "east", "dealer": "east", "situation": ["heavenly"]"#,
        Expect::Limit("heavenly_hand"),
    ),
    row(
        "heavenly hand near miss: the same self-drawn hand later in the game",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "self_draw", "seat": "east", "dealer": "east""#,
        Expect::NotLimit("heavenly_hand", None),
    ),
    row(
        "heavenly hand is the dealer's only",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "self_draw", "seat": "south", "dealer": "east", "situation": ["heavenly"]"#,
        Expect::Invalid,
    ),
    row(
        "earthly hand: winning on the dealer's first discard",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "discard", "discarder": "east", "seat": "north", "situation": ["earthly"]"#,
        Expect::Limit("earthly_hand"),
    ),
    row(
        "earthly hand near miss: the same win on a later discard",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "discard", "discarder": "east", "seat": "north""#,
        Expect::NotLimit("earthly_hand", None),
    ),
    row(
        "earthly hand is on the dealer's discard only",
        r#""concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
        r#""win": "discard", "discarder": "west", "seat": "north", "situation": ["earthly"]"#,
        Expect::Invalid,
    ),
];

/// Checks one row; `Err` says what differs.
fn check_limit_row(row: &LimitRow) -> Result<(), String> {
    let fields = if row.situation.is_empty() {
        row.hand.to_string()
    } else {
        format!("{}, {}", row.hand, row.situation)
    };
    let ordinary = r#""min_fan": 0"#;
    match row.expect {
        Expect::Limit(id) => {
            let s = run("", &fields).map_err(|e| format!("refused ({e}): {fields}"))?;
            let got: Vec<(&str, i64)> = s
                .patterns
                .iter()
                .map(|p| (p.id.as_str(), p.value))
                .collect();
            if got != [(id, 10)] || s.total != 10 {
                return Err(format!(
                    "expected {id} alone at 10, got {got:?} = {}",
                    s.total
                ));
            }
        }
        Expect::NotLimit(id, total) => {
            let s = run(ordinary, &fields).map_err(|e| format!("refused ({e}): {fields}"))?;
            if s.patterns.iter().any(|p| p.id == id || p.value >= 10) {
                return Err(format!("{id} or a limit in {:?}", s.patterns));
            }
            if let Some(want) = total {
                let got = run("", &fields).map(|s| s.total);
                if got != Ok(want) {
                    return Err(format!(
                        "total {got:?} under the default options, not {want}"
                    ));
                }
            }
        }
        Expect::Invalid => {
            if let Ok(s) = run(ordinary, &fields) {
                return Err(format!("should be invalid, scored {:?}", s.patterns));
            }
        }
    }
    Ok(())
}

#[test]
fn special_hands_score_the_limit_and_near_misses_do_not() {
    let failures: Vec<String> = LIMIT_ROWS
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            check_limit_row(r)
                .err()
                .map(|e| format!("row {i} ({}): {e}", r.why))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} limit rows differ:\n{}",
        failures.len(),
        LIMIT_ROWS.len(),
        failures.join("\n")
    );
}

#[test]
fn seven_honor_pairs_are_not_all_honors() {
    // Ruling: All Honors is four pungs/kongs and a pair (the row above checks the 5 fan).
    // 16 points: South (discarder) pays 32, East and North 16 each.
    let s = run("", SEVEN_HONOR_PAIRS).expect("valid");
    assert_eq!(s.payments[&Seat::West], 64);
    assert_eq!(s.payments[&Seat::South], -32);
}

#[test]
fn a_limit_above_ten_pays_32_up_to_the_limit() {
    // 111p (exposed) 333p 555p 777p 99p self-drawn: Pung hand 3 + One suit only 6 +
    // Self-drawn 1 + No Flowers 1 = 11 fan (not Hidden Treasure: a pung is exposed). Under the
    // default limit that is the limit (64 points); under a 13-fan house limit it pays 32, and
    // each loser pays 2 × 32 on the self-draw.
    let hand = r#""melds": [{"kind": "pung", "tiles": "111p", "from": "south"}],
        "concealed": "333p555p777p9p", "winning_tile": "9p", "win": "self_draw""#;
    assert_eq!(
        run("", hand).map(|s| s.payments[&Seat::West]),
        Ok(3 * 2 * 64)
    );
    let s = run(r#""limit": 13"#, hand).expect("valid");
    assert_eq!(s.total, 11);
    assert_eq!(s.payments[&Seat::West], 3 * 2 * 32);
    let at = run(r#""limit": 11"#, hand).expect("valid");
    assert_eq!(at.payments[&Seat::West], 3 * 2 * 64);
    assert!(Options::from_json(&serde_json::from_str(r#"{"limit": 64}"#).unwrap()).is_ok());
}

#[test]
fn meld_sources_are_checked() {
    // West's left neighbour is South: a chow from North (or East) is no claim.
    let chow = |from: &str| {
        format!(
            r#""melds": [{{"kind": "chow", "tiles": "123s", "from": "{from}"}}],
            "concealed": "456m789p555z1z", "winning_tile": "1z""#
        )
    };
    assert!(run(r#""min_fan": 0"#, &chow("south")).is_ok());
    invalid(&chow("north"));
    invalid(&chow("east"));
    // Nobody claims their own discard.
    invalid(&chow("west"));
    invalid(
        r#""melds": [{"kind": "pung", "tiles": "222s", "from": "west"}],
        "concealed": "456m789p555z1z", "winning_tile": "1z""#,
    );
}

#[test]
fn minimum_fan() {
    // Chow hand 1 + no flowers 1 = 2 fan: below the default minimum of 3.
    assert!(run("", PLAIN).is_err());
    assert_eq!(run(r#""min_fan": 2"#, PLAIN).map(|s| s.total), Ok(2));
}

#[test]
fn payments_follow_the_table() {
    // Pung hand 3 + no flowers 1 = 4 fan = 16 points. West wins on South's discard.
    let pungs = r#""concealed": "111m222p333s444s5m", "winning_tile": "5m""#;
    let s = run("", pungs).unwrap();
    assert_eq!(s.total, 4);
    let want: BTreeMap<Seat, i64> = [
        (Seat::East, -16),
        (Seat::South, -32),
        (Seat::West, 64),
        (Seat::North, -16),
    ]
    .into();
    assert_eq!(s.payments, want);
}

#[test]
fn wrong_tile_counts_are_invalid() {
    invalid(r#""concealed": "123m456p789s9m", "winning_tile": "9m""#);
    invalid(
        r#""melds": [{"kind": "pung", "tiles": "777p", "from": "north"}],
        "concealed": "123m456p789s234s9m", "winning_tile": "9m""#,
    );
}

#[test]
fn scoring_is_quick_enough_for_legal_actions() {
    // Not a benchmark: a guard against a pathological slowdown (debug build, generous bound).
    let text = r#"{"rules": "hongkong", "concealed": "1223344556789m", "winning_tile": "5m",
        "win": "self_draw", "seat": "west"}"#;
    let req = ScoreRequest::from_json(text).unwrap();
    let options = Options::default();
    let start = std::time::Instant::now();
    for _ in 0..1000 {
        assert_eq!(score(&req.situation, &options).map(|s| s.total), Ok(9));
    }
    let per_call = start.elapsed() / 1000;
    assert!(
        per_call < std::time::Duration::from_millis(2),
        "{per_call:?} per call"
    );
    eprintln!("hongkong score: {per_call:?} per call (debug build)");
}
