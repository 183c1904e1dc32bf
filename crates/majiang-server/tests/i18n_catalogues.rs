//! The browser's two string catalogues (`web/i18n/en.json`, `web/i18n/zh.json`) hold the same
//! keys, and every pattern of every rule set has a name in both.

use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// One catalogue, read from the web folder as the server serves it.
fn catalogue(lang: &str) -> Map<String, Value> {
    let path = format!("{}/web/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        Ok(other) => panic!("{path}: a JSON object of strings, not {other}"),
        Err(e) => panic!("{path}: {e}"),
    }
}

/// Every pattern id of every rule set, as `GET /api/rulesets` lists them.
fn pattern_ids() -> BTreeSet<String> {
    majiang::rules::RULE_SETS
        .iter()
        .flat_map(|set| {
            let json = set.spec().to_json();
            json["patterns"]
                .as_array()
                .expect("patterns")
                .iter()
                .map(|p| p["id"].as_str().expect("pattern id").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn both_catalogues_have_the_same_keys() {
    let en = catalogue("en");
    let zh = catalogue("zh");
    let only_en: Vec<&String> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
    let only_zh: Vec<&String> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(
        only_en.is_empty() && only_zh.is_empty(),
        "only in en.json: {only_en:?}; only in zh.json: {only_zh:?}"
    );
    assert!(en.len() > 100, "the catalogues hold the UI's strings");
}

#[test]
fn every_value_is_a_non_empty_string() {
    for lang in ["en", "zh"] {
        for (key, value) in catalogue(lang) {
            let ok = value.as_str().is_some_and(|s| !s.trim().is_empty());
            assert!(ok, "{lang}.json: {key} is {value}, not a non-empty string");
        }
    }
}

#[test]
fn every_pattern_of_every_rule_set_has_a_name_in_both_languages() {
    let ids = pattern_ids();
    assert!(
        ids.len() > 40,
        "the rule sets list their patterns: {}",
        ids.len()
    );
    for lang in ["en", "zh"] {
        let cat = catalogue(lang);
        let missing: Vec<&String> = ids
            .iter()
            .filter(|id| !cat.contains_key(&format!("pattern.{id}")))
            .collect();
        assert!(
            missing.is_empty(),
            "{lang}.json names no pattern.{missing:?}"
        );
    }
}

#[test]
fn chinese_pattern_names_are_chinese() {
    let zh = catalogue("zh");
    for id in pattern_ids() {
        if let Some(name) = zh.get(&format!("pattern.{id}")).and_then(Value::as_str) {
            let han = name.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
            assert!(
                han,
                "zh.json pattern.{id} = {name:?} has no Chinese character"
            );
        }
    }
}

/// The `{name}` placeholders of a catalogue string, sorted.
fn placeholders(text: &str) -> BTreeSet<String> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn every_payment_reason_is_worded_in_both_languages_with_the_same_numbers() {
    let (en, zh) = (catalogue("en"), catalogue("zh"));
    for key in majiang::rules::reason_keys() {
        let key = format!("reason.{key}");
        let (Some(e), Some(z)) = (
            en.get(&key).and_then(Value::as_str),
            zh.get(&key).and_then(Value::as_str),
        ) else {
            panic!("{key} is missing from en.json or zh.json");
        };
        assert!(!placeholders(e).is_empty(), "{key}: {e:?} shows no number");
        assert_eq!(placeholders(e), placeholders(z), "{key}: {e:?} and {z:?}");
        let han = z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert!(han, "zh.json {key} = {z:?} has no Chinese character");
    }
}
