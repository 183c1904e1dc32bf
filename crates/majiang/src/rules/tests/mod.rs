//! The registry: four sets, options tables that agree with their parsers, payment reasons
//! with their catalogue keys; no rule-set name outside its own folder ([`sources`]); a toy
//! rule set that needs nothing outside its own definition ([`toy`]).

mod reasons;
mod sources;
mod toy;

use super::option_table::{Allowed, defaults};
use super::{RULE_SETS, RuleSetSpec, lookup};
use crate::table::TableRules;
use serde_json::{Map, Value, json};

/// Every listed set's description.
fn specs() -> impl Iterator<Item = &'static RuleSetSpec> {
    RULE_SETS.iter().map(|s| s.spec())
}

#[test]
fn the_registry_lists_four_sets_by_unique_name() {
    let names: Vec<&str> = RULE_SETS.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["hongkong", "hangzhou", "yangzhou", "classic"]);
    for set in RULE_SETS {
        let spec = set.spec();
        assert!(std::ptr::addr_eq(lookup(spec.name).unwrap(), set));
        assert!(!spec.english.is_empty() && !spec.chinese.is_empty());
        assert!(!spec.patterns.is_empty(), "{}", spec.name);
        assert!(!spec.reasons.is_empty(), "{}", spec.name);
    }
    let chinese: Vec<&str> = specs().map(|s| s.chinese).collect();
    assert_eq!(
        chinese,
        ["香港麻将", "杭州麻将", "扬州麻将", "中国古典麻将"]
    );
}

#[test]
fn seats_units_and_lao() {
    let seats: Vec<_> = specs().map(|s| s.seat_counts()).collect();
    assert_eq!(seats, [4..=4, 4..=4, 4..=4, 3..=6]);
    assert!(specs().all(|s| s.default_players() == 4));
    let lao: Vec<bool> = specs().map(|s| s.lao).collect();
    assert_eq!(lao, [false, true, false, false]);
    let units: Vec<&str> = specs().map(|s| s.unit.name()).collect();
    assert_eq!(units, ["fan", "multiplier", "fan", "points"]);
    assert_eq!(lookup("classic").unwrap().spec().extra_winds(6), 8);
    assert_eq!(lookup("hongkong").unwrap().spec().extra_winds(6), 0);
}

#[test]
fn a_players_option_allows_exactly_the_seat_counts() {
    for spec in specs() {
        let Some(players) = spec.players_option() else {
            continue;
        };
        let seats = spec.seat_counts();
        assert_eq!(
            players.allowed,
            Allowed::Whole {
                min: i64::from(*seats.start()),
                max: i64::from(*seats.end())
            },
            "{}",
            spec.name
        );
        assert_eq!(players.default_value(), json!(spec.default_players()));
    }
}

#[test]
fn every_options_table_round_trips_its_defaults_through_its_parser() {
    for set in RULE_SETS {
        let spec = set.spec();
        for o in spec.options {
            assert!(
                serde_json::from_str::<Value>(o.default).is_ok(),
                "{}.{}: default {:?} is not JSON",
                spec.name,
                o.key,
                o.default
            );
            assert!(
                o.allowed.admits(&o.default_value()),
                "{}.{}",
                spec.name,
                o.key
            );
            assert!(!o.meaning.is_empty());
        }
        let from_table = set.read(&defaults(spec.options)).unwrap();
        let from_nothing = set.read(&Map::new()).unwrap();
        assert_eq!(
            from_table.options_json(),
            from_nothing.options_json(),
            "{}",
            spec.name
        );
        // The registry's entry is the set under these defaults.
        assert_eq!(set.options_json(), from_nothing.options_json());
        // What the parser's defaults write back (the log header) is the table's defaults.
        for (key, value) in from_nothing.options_json() {
            let o = spec.options.iter().find(|o| o.key == key);
            let o = o.unwrap_or_else(|| panic!("{}: {key} is not in the table", spec.name));
            assert_eq!(value, o.default_value(), "{}.{key}", spec.name);
        }
    }
}

#[test]
fn unknown_options_and_values_are_refused_naming_the_allowed_ones() {
    for set in RULE_SETS {
        let spec = set.spec();
        let mut bad = Map::new();
        bad.insert("no_such_option".into(), json!(1));
        let e = set.read(&bad).unwrap_err().to_string();
        for o in spec.options {
            assert!(
                e.contains(o.key),
                "{}: {e} should list {}",
                spec.name,
                o.key
            );
        }
        for o in spec.options {
            let wrong = match o.allowed {
                Allowed::Bool => json!("yes"),
                Allowed::Whole { max, .. } | Allowed::WholeOrNone { max, .. } if max < i64::MAX => {
                    json!(max + 1)
                }
                Allowed::Whole { .. } | Allowed::WholeOrNone { .. } => json!(0.5),
                Allowed::OneOf { .. } | Allowed::Form { .. } => json!("nonsense"),
            };
            let mut one = Map::new();
            one.insert(o.key.into(), wrong.clone());
            let e = set.read(&one).unwrap_err().to_string();
            assert!(e.contains(o.key), "{}.{} = {wrong}: {e}", spec.name, o.key);
            if let Allowed::OneOf { values } = o.allowed {
                assert!(values.iter().all(|v| e.contains(v)), "{e}");
            }
        }
    }
}

#[test]
fn unknown_rule_sets_are_refused_listing_the_sets() {
    let e = TableRules::from_name("riichi", &Map::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("riichi") && e.contains("hongkong, hangzhou, yangzhou, classic"));
    // A scoring request names its rule set; scoring it asks the registry.
    let request = r#"{"rules": "riichi", "concealed": "123m456p789s11z55z",
        "winning_tile": "5z", "win": "self_draw"}"#;
    let e = super::score_json(request).unwrap_err().to_string();
    assert!(
        e.contains("\"riichi\" is not a rule set (hongkong, hangzhou"),
        "{e}"
    );
}

#[test]
fn the_lobby_json_has_what_the_browser_needs() {
    let v = lookup("classic").unwrap().spec().to_json();
    assert_eq!(v["seat_counts"], json!([3, 4, 5, 6]));
    assert_eq!(v["default_players"], 4);
    assert_eq!(v["unit"], "points");
    assert_eq!(v["options"][1]["key"], "players");
    assert_eq!(
        v["options"][1]["allowed"],
        json!({"kind": "whole", "min": 3, "max": 6})
    );
    assert!(v["patterns"].as_array().is_some_and(|p| !p.is_empty()));
}
