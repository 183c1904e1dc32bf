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

fn limit(fields: &str, id: &str) {
    let s = run("", fields).unwrap_or_else(|e| panic!("{e}: {fields}"));
    assert_eq!(s.total, 10, "{fields}");
    assert!(
        s.patterns.iter().any(|p| p.id == id && p.value == 10),
        "{id} in {:?}",
        s.patterns
    );
    assert!(s.patterns.iter().all(|p| p.value == 10));
}

fn not_limit(fields: &str, id: &str) {
    // A near miss must still be a (valid, ordinary) win, so that it cannot pass by accident.
    let s = run(r#""min_fan": 0"#, fields).unwrap_or_else(|e| panic!("{e}: {fields}"));
    assert!(
        s.patterns.iter().all(|p| p.id != id),
        "{id} in {:?}",
        s.patterns
    );
    assert!(s.patterns.iter().all(|p| p.value < 10), "{:?}", s.patterns);
}

#[test]
fn hidden_treasure() {
    let h = r#""concealed": "111m222p333s444s5m", "winning_tile": "5m", "win": "self_draw""#;
    limit(h, "hidden_treasure");
    limit(
        &h.replace(
            r#""concealed": "111m"#,
            r#""melds": [{"kind": "concealed_kong", "tiles": "1111m"}], "concealed": ""#,
        ),
        "hidden_treasure",
    );
    // The same hand on a discard, or with an exposed pung, is an ordinary Pung hand.
    not_limit(
        &h.replace(r#""self_draw""#, r#""discard", "discarder": "south""#),
        "hidden_treasure",
    );
    not_limit(
        &h.replace(
            r#""concealed": "111m"#,
            r#""melds": [{"kind": "pung", "tiles": "111m", "from": "south"}], "concealed": ""#,
        ),
        "hidden_treasure",
    );
}

#[test]
fn three_great_scholars() {
    limit(
        r#""concealed": "555z666z777z123m9p", "winning_tile": "9p""#,
        "three_great_scholars",
    );
    not_limit(
        r#""concealed": "555z666z77z123m99p", "winning_tile": "9p""#,
        "three_great_scholars",
    );
}

#[test]
fn four_winds() {
    let little = r#""concealed": "111z222z333z4z123m", "winning_tile": "4z""#;
    limit(little, "little_four_winds");
    let only = |fields: &str| run("", fields).map(|s| s.patterns.len());
    assert_eq!(only(little), Ok(1), "no big four winds");
    not_limit(
        r#""concealed": "111z222z33z123m99m", "winning_tile": "3z""#,
        "little_four_winds",
    );
    let big = r#""melds": [{"kind": "pung", "tiles": "444z", "from": "south"}],
        "concealed": "111z222z333z5m", "winning_tile": "5m""#;
    limit(big, "big_four_winds");
    assert_eq!(only(big), Ok(1), "no little four winds");
}

#[test]
fn all_honors_and_all_terminals() {
    limit(
        r#""concealed": "111z222z333z555z7z", "winning_tile": "7z""#,
        "all_honors",
    );
    not_limit(
        r#""concealed": "111z222z999m555z7z", "winning_tile": "7z""#,
        "all_honors",
    );
    limit(
        r#""concealed": "111m999m111p999p1s", "winning_tile": "1s""#,
        "all_terminals",
    );
    not_limit(
        r#""concealed": "111m999m111p888p1s", "winning_tile": "1s""#,
        "all_terminals",
    );
}

#[test]
fn nine_gates() {
    limit(
        r#""concealed": "1112345678999m", "winning_tile": "5m""#,
        "nine_gates",
    );
    // A kong of 1s is no Nine Gates: One suit only, 6 + no flowers 1.
    let near = r#""melds": [{"kind": "concealed_kong", "tiles": "1111m"}],
        "concealed": "2345678999m", "winning_tile": "8m""#;
    not_limit(near, "nine_gates");
    assert_eq!(run("", near).map(|s| s.total), Ok(7));
    // The same 14 tiles, but the 13 before the winning tile were not 1112345678999 (ruling):
    // 11m 123m 456m 789m 999m, One suit only 6 + No Flowers 1.
    let held = r#""concealed": "1123456789999m", "winning_tile": "1m""#;
    not_limit(held, "nine_gates");
    assert_eq!(run("", held).map(|s| s.total), Ok(7));
}

#[test]
fn seven_honor_pairs_are_not_all_honors() {
    // Ruling: All Honors is four pungs/kongs and a pair. Seven Pairs 4 + No Flowers 1 = 5.
    let pairs = r#""concealed": "1122334455667z", "winning_tile": "7z""#;
    not_limit(pairs, "all_honors");
    let s = run("", pairs).expect("valid");
    assert_eq!(s.total, 5);
    // 16 points: South (discarder) pays 32, East and North 16 each.
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
fn thirteen_orphans() {
    limit(
        r#""concealed": "19m19p19s1234567z", "winning_tile": "1m""#,
        "thirteen_orphans",
    );
    invalid(r#""concealed": "19m19p18s1234567z", "winning_tile": "1m""#);
}

#[test]
fn all_kongs() {
    let kongs = r#""melds": [{"kind": "kong", "tiles": "1111m", "from": "north"},
        {"kind": "kong", "tiles": "2222p", "from": "east"},
        {"kind": "concealed_kong", "tiles": "3333s"},
        {"kind": "kong", "tiles": "6666s", "from": "south"}],
        "concealed": "5m", "winning_tile": "5m""#;
    limit(kongs, "all_kongs");
    not_limit(
        &kongs.replace(r#""kong", "tiles": "6666s""#, r#""pung", "tiles": "666s""#),
        "all_kongs",
    );
}

#[test]
fn dragon_hands() {
    // 222 444 666 bamboo could be read as chows too; the pungs reading is the limit.
    limit(
        r#""concealed": "222s444s666s666z8s", "winning_tile": "8s""#,
        "jade_dragon",
    );
    not_limit(
        r#""concealed": "123s444s666s666z8s", "winning_tile": "8s""#,
        "jade_dragon",
    );
    limit(
        r#""concealed": "111m555m999m777z3m", "winning_tile": "3m""#,
        "ruby_dragon",
    );
    not_limit(
        r#""concealed": "111m555m999m555z3m", "winning_tile": "3m""#,
        "ruby_dragon",
    );
    limit(
        r#""concealed": "111p555p999p555z3p", "winning_tile": "3p""#,
        "pearl_dragon",
    );
    not_limit(
        r#""concealed": "111p555p789p555z3p", "winning_tile": "3p""#,
        "pearl_dragon",
    );
}

#[test]
fn heavenly_and_earthly() {
    let heavenly = format!(
        r#"{PLAIN}, "win": "self_draw", "seat": "east", "dealer": "east", "situation": ["heavenly"]"#
    );
    limit(&heavenly, "heavenly_hand");
    // The same self-drawn hand later in the game is ordinary.
    not_limit(
        &format!(r#"{PLAIN}, "win": "self_draw", "seat": "east", "dealer": "east""#),
        "heavenly_hand",
    );
    invalid(&heavenly.replace(r#""seat": "east""#, r#""seat": "south""#));
    let earthly = format!(
        r#"{PLAIN}, "win": "discard", "discarder": "east", "seat": "north", "situation": ["earthly"]"#
    );
    limit(&earthly, "earthly_hand");
    not_limit(
        &format!(r#"{PLAIN}, "win": "discard", "discarder": "east", "seat": "north""#),
        "earthly_hand",
    );
    invalid(&earthly.replace(r#""discarder": "east""#, r#""discarder": "west""#));
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
