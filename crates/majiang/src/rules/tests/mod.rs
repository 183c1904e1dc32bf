//! The registry: the seeded sets, options tables that agree with their parsers, payment reasons
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

/// The four sets of the seeds, each with what its description must say: name, Chinese name,
/// seat counts, lao, unit. Looked up by name, so a further set leaves these lines alone.
const SEEDED: [(&str, &str, std::ops::RangeInclusive<u8>, bool, &str); 4] = [
    ("hongkong", "香港麻将", 4..=4, false, "fan"),
    ("hangzhou", "杭州麻将", 4..=4, true, "multiplier"),
    ("yangzhou", "扬州麻将", 4..=4, false, "fan"),
    ("classic", "中国古典麻将", 3..=6, false, "points"),
];

#[test]
fn the_registry_lists_the_seeded_sets_first_by_unique_name() {
    let names: Vec<&str> = RULE_SETS.iter().map(|s| s.name()).collect();
    let seeded: Vec<&str> = SEEDED.iter().map(|s| s.0).collect();
    assert_eq!(names[..seeded.len()], seeded[..], "the lobby's order");
    for (i, set) in RULE_SETS.iter().enumerate() {
        let spec = set.spec();
        assert!(
            !names[..i].contains(&spec.name),
            "{} listed twice",
            spec.name
        );
        assert!(std::ptr::addr_eq(lookup(spec.name).unwrap(), *set));
        assert!(!spec.english.is_empty() && !spec.chinese.is_empty());
        assert!(!spec.patterns.is_empty(), "{}", spec.name);
        assert!(!spec.reasons.is_empty(), "{}", spec.name);
    }
}

#[test]
fn seats_units_and_lao() {
    for (name, chinese, seats, lao, unit) in SEEDED {
        let spec = lookup(name).unwrap().spec();
        assert_eq!(spec.chinese, chinese);
        assert_eq!(spec.seat_counts(), seats, "{name}");
        assert_eq!(spec.lao, lao, "{name}");
        assert_eq!(spec.unit.name(), unit, "{name}");
        assert_eq!(spec.default_players(), 4, "{name}");
    }
    assert_eq!(lookup("classic").unwrap().spec().extra_winds(6), 8);
    assert_eq!(lookup("hongkong").unwrap().spec().extra_winds(6), 0);
}

/// The description a front end reads says how many extra winds each table size plays, the
/// spec's own answer: the browser marks them by it, not by the set's name.
#[test]
fn the_description_gives_the_extra_winds_at_each_table_size() {
    for spec in specs() {
        let described = spec.to_json();
        let sizes = described["extra_winds"].as_object().unwrap();
        assert_eq!(sizes.len(), spec.seat_counts().count(), "{}", spec.name);
        for n in spec.seat_counts() {
            assert_eq!(
                described["extra_winds"][n.to_string()],
                json!(spec.extra_winds(n)),
                "{} at {n}",
                spec.name
            );
        }
    }
    let classic = lookup("classic").unwrap().spec().to_json();
    assert_eq!(
        classic["extra_winds"],
        json!({"3": 0, "4": 0, "5": 4, "6": 8})
    );
    let hongkong = lookup("hongkong").unwrap().spec().to_json();
    assert_eq!(hongkong["extra_winds"], json!({"4": 0}));
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
