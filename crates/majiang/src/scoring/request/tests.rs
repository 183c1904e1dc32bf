//! Tests of the JSON scoring request's readers.

use super::*;

const OK: &str = r#"{"rules": "hongkong", "options": {"min_fan": 3},
    "concealed": "123m456p789s1z", "melds": [{"kind": "pung", "tiles": "555z", "from": "west"}],
    "winning_tile": "1z", "win": "discard", "discarder": "south",
    "seat": "east", "dealer": "east", "prevailing_wind": "east",
    "flowers": ["1f", "5f"], "situation": ["last_discard"]}"#;

#[test]
fn reads_a_full_request() {
    let r = ScoreRequest::from_json(OK).unwrap();
    let s = &r.situation;
    assert_eq!(s.melds.len(), 1);
    assert_eq!(s.melds[0].from, Some(Seat::West));
    assert_eq!(s.discarder, Some(Seat::South));
    assert!(s.circumstances.last_discard);
    assert_eq!(s.flowers.len(), 2);
    assert_eq!(s.full_concealed().len(), 11);
    assert_eq!(r.options["min_fan"], 3);
    assert_eq!(s.seats.len(), 4);
}

#[test]
fn reads_from_any_deserializer_as_from_json() {
    let value: serde_json::Value = serde_json::from_str(OK).unwrap();
    let r = ScoreRequest::from_deserializer(value).unwrap();
    assert_eq!(r, ScoreRequest::from_json(OK).unwrap());
    let misspelt: serde_json::Value =
        serde_json::from_str(&OK.replace("\"win\"", "\"won\"")).unwrap();
    let e = ScoreRequest::from_deserializer(misspelt).unwrap_err();
    assert!(e.to_string().contains("unknown field `won`"), "{e}");
}

#[test]
fn unknown_fields_are_refused_by_name() {
    let misspelt = OK.replace("prevailing_wind", "prevailng_wind");
    let e = ScoreRequest::from_json(&misspelt).unwrap_err();
    assert!(
        e.to_string().contains("unknown field `prevailng_wind`"),
        "{e}"
    );
    let in_meld = OK.replace("\"from\": \"west\"", "\"from\": \"west\", \"form\": 1");
    let e = ScoreRequest::from_json(&in_meld).unwrap_err();
    assert!(e.to_string().contains("unknown field `form`"), "{e}");
    let in_other = OK.replace(
        "\"situation\"",
        "\"others\": {\"south\": {\"concealed\": \"1m\", \"flower\": []}}, \"situation\"",
    );
    let e = ScoreRequest::from_json(&in_other).unwrap_err();
    assert!(e.to_string().contains("unknown field `flower`"), "{e}");
    // Every field of the contract is still read (itemise, balances, others included).
    let full = OK.replace(
        "\"situation\"",
        "\"kong_chain\": 0, \"gambits\": 0, \"lao\": 1, \"balances\": {\"east\": 5}, \
         \"others\": {\"south\": {\"concealed\": \"1m\", \"melds\": [], \"flowers\": []}}, \
         \"itemise\": true, \"situation\"",
    );
    assert!(ScoreRequest::from_json(&full).unwrap().itemise);
}

#[test]
fn malformed_requests_say_why() {
    let cases = [
        (
            OK.replace("\"1z\", \"win\"", "\"1x\", \"win\""),
            "winning_tile",
        ),
        (
            OK.replace("123m456p789s1z", "1111m456p789s1z1m"),
            "impossible",
        ),
        (OK.replace("last_discard", "lucky"), "situation"),
        (
            OK.replace("\"discarder\": \"south\",", ""),
            "discarder: required",
        ),
        (
            OK.replace("\"from\": \"west\"", "\"from\": \"up\""),
            "not a seat",
        ),
        (
            OK.replace("[\"1f\", \"5f\"]", "[\"1f\", \"5m\"]"),
            "not a flower",
        ),
        ("{".to_string(), "not a scoring request"),
    ];
    for (text, needle) in cases {
        let e = ScoreRequest::from_json(&text).unwrap_err();
        assert!(
            e.to_string().contains(needle),
            "{e} should mention {needle}"
        );
    }
}

#[test]
fn chows_only_from_the_left() {
    let with_chow = |seat: &str, from: &str| {
        let text = format!(
            r#"{{"rules": "hongkong", "concealed": "456m789p1z555z",
            "melds": [{{"kind": "chow", "tiles": "123s", "from": "{from}"}}],
            "winning_tile": "1z", "win": "self_draw", "seat": "{seat}"}}"#
        );
        ScoreRequest::from_json(&text).unwrap().situation
    };
    assert!(with_chow("east", "north").check_chow_sources().is_ok());
    assert!(with_chow("south", "east").check_chow_sources().is_ok());
    let e = with_chow("east", "west").check_chow_sources().unwrap_err();
    assert!(e.to_string().contains("player on your left (north)"), "{e}");
}

#[test]
fn classic_tables_of_five() {
    let text = r#"{"rules": "classic", "options": {"players": 5}, "concealed": "123m456p789s1z",
        "melds": [{"kind": "pung", "tiles": "555z"}], "winning_tile": "1z", "win": "self_draw",
        "seat": "north_east"}"#;
    let r = ScoreRequest::from_json(text).unwrap();
    assert_eq!(r.situation.seat, Seat::NorthEast);
    assert_eq!(r.situation.seats.len(), 5);
    let bad = text.replace("north_east", "south_west");
    assert!(ScoreRequest::from_json(&bad).is_err());
}

#[test]
fn extra_winds_at_five_and_six_player_classic_tables() {
    let five = |concealed: &str, melds: &str, win: &str| {
        ScoreRequest::from_json(&format!(
            r#"{{"rules": "classic", "options": {{"players": 5}}, "concealed": "{concealed}",
            "melds": [{melds}], "winning_tile": "{win}", "win": "self_draw",
            "seat": "north_east"}}"#
        ))
    };
    // Concealed extra winds go to `flowers`; the winning tile may be one; an extra-wind set
    // is a meld of its lowest tile.
    let r = five(
        "123m456p99s4f",
        r#"{"kind": "pung", "tiles": "123f", "from": "north"}"#,
        "9s",
    )
    .unwrap();
    assert_eq!(r.situation.flowers.len(), 1);
    assert_eq!(r.situation.concealed.len(), 8);
    assert!(r.situation.melds[0].tile.is_bonus());
    assert!(five("123m456p99s3f", "", "4f").is_ok());
    for (concealed, melds, win, needle) in [
        ("123m456p99s5f", "", "9s", "not an extra-wind tile"),
        ("123m456p99s", "", "6f", "not an extra-wind tile"),
        (
            "123m456p9s",
            r#"{"kind": "pung", "tiles": "113f"}"#,
            "9s",
            "extra winds",
        ),
        (
            "123m456p9s",
            r#"{"kind": "chow", "tiles": "123f"}"#,
            "9s",
            "extra winds",
        ),
        (
            "123m456p9s1f",
            r#"{"kind": "pung", "tiles": "123f"}"#,
            "9s",
            "twice",
        ),
    ] {
        let e = five(concealed, melds, win).unwrap_err();
        assert!(e.to_string().contains(needle), "{concealed} {melds}: {e}");
    }
    // Elsewhere a bonus tile in the hand is still a flower to list apart.
    let four = r#"{"rules": "classic", "concealed": "123m456p99s4f", "winning_tile": "9s",
        "win": "self_draw"}"#;
    assert!(
        ScoreRequest::from_json(four)
            .unwrap_err()
            .to_string()
            .contains("flowers")
    );
    let six = r#"{"rules": "classic", "options": {"players": 6}, "concealed": "222m99s8f",
        "flowers": ["1f"], "winning_tile": "9s", "win": "self_draw"}"#;
    assert!(
        ScoreRequest::from_json(six)
            .unwrap_err()
            .to_string()
            .contains("extra winds")
    );
}
