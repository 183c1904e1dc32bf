//! The browser's string catalogues (`web/i18n/en.json`, `zh.json` and `zh-Hant.json`, the last
//! with Hong Kong terms) hold the same keys with the same placeholders, every pattern of every
//! rule set has a name in each, and no Latin word is left in a Chinese one.

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

/// The catalogues: English, Simplified Chinese, Traditional Chinese with Hong Kong terms.
const LANGS: [&str; 3] = ["en", "zh", "zh-Hant"];

/// The Chinese catalogues.
const CHINESE: [&str; 2] = ["zh", "zh-Hant"];

#[test]
fn every_catalogue_has_the_same_keys() {
    let en = catalogue("en");
    for lang in ["zh", "zh-Hant"] {
        let other = catalogue(lang);
        let only_en: Vec<&String> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let only_other: Vec<&String> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            only_en.is_empty() && only_other.is_empty(),
            "only in en.json: {only_en:?}; only in {lang}.json: {only_other:?}"
        );
    }
    assert!(en.len() > 100, "the catalogues hold the UI's strings");
}

#[test]
fn every_string_keeps_the_english_placeholders() {
    let en = catalogue("en");
    for lang in CHINESE {
        for (key, value) in catalogue(lang) {
            let (Some(e), Some(z)) = (en.get(&key).and_then(Value::as_str), value.as_str()) else {
                continue;
            };
            // A translation may leave a value out (Chinese needs no plural), never invent one.
            let extra: Vec<String> = placeholders(z)
                .difference(&placeholders(e))
                .cloned()
                .collect();
            assert!(
                extra.is_empty(),
                "{lang}.json {key} = {z:?} names {extra:?}, which {e:?} does not fill"
            );
        }
    }
}

/// Latin words left in a Chinese string: letters outside `{placeholders}`, tile notation and
/// the few names that are written in Latin letters in Chinese too (file formats, key names).
fn latin_words(text: &str) -> Vec<String> {
    const KEPT: [&str; 5] = ["CSV", "JSON", "Enter", "OK", "QR"];
    let mut out = Vec::new();
    let mut rest = text.to_string();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        rest.replace_range(open..open + close + 1, " ");
    }
    for word in rest.split(|c: char| !c.is_ascii_alphabetic()) {
        if word.len() >= 2 && !KEPT.contains(&word) {
            out.push(word.to_string());
        }
    }
    out
}

#[test]
fn chinese_catalogues_hold_no_latin_words() {
    for lang in CHINESE {
        for (key, value) in catalogue(lang) {
            let words = latin_words(value.as_str().unwrap_or(""));
            assert!(
                words.is_empty(),
                "{lang}.json {key} = {value} has Latin words {words:?}"
            );
        }
    }
    assert_eq!(latin_words("{who} 碰 5m"), Vec::<String>::new());
    assert_eq!(
        latin_words("财飘 (Fortune Gambit)"),
        vec!["Fortune", "Gambit"]
    );
}

#[test]
fn the_hong_kong_catalogue_speaks_hong_kong() {
    let hk = catalogue("zh-Hant");
    let get = |k: &str| hk.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    assert_eq!(get("action.win"), "食糊");
    assert_eq!(get("meld.chow"), "上");
    assert_eq!(get("meld.pung"), "碰");
    assert_eq!(get("meld.kong"), "槓");
    assert_eq!(get("unit.fan"), "番");
    // Its own catalogue, not the simplified one's characters: no simplified form left.
    for (key, value) in &hk {
        let text = value.as_str().unwrap_or("");
        for simplified in ['杠', '庄', '这', '张', '对', '开', '时', '说', '财'] {
            assert!(
                !text.contains(simplified),
                "zh-Hant.json {key} = {text:?} has {simplified}"
            );
        }
    }
}

#[test]
fn every_value_is_a_non_empty_string() {
    for lang in LANGS {
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
    for lang in LANGS {
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
    for lang in CHINESE {
        let zh = catalogue(lang);
        for id in pattern_ids() {
            if let Some(name) = zh.get(&format!("pattern.{id}")).and_then(Value::as_str) {
                let han = name.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
                assert!(
                    han,
                    "{lang}.json pattern.{id} = {name:?} has no Chinese character"
                );
            }
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
    let en = catalogue("en");
    for lang in CHINESE {
        let zh = catalogue(lang);
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
            assert!(han, "{lang}.json {key} = {z:?} has no Chinese character");
        }
    }
}

#[test]
fn every_message_the_server_can_send_is_worded_in_every_catalogue() {
    let all = majiang_server::words::all();
    assert!(all.len() > 80, "{} keys", all.len());
    for lang in LANGS {
        let cat = catalogue(lang);
        let missing: Vec<&str> = all
            .iter()
            .map(|d| d.key)
            .filter(|k| !cat.contains_key(*k))
            .collect();
        assert!(missing.is_empty(), "{lang}.json words no {missing:?}");
        for d in &all {
            let text = cat.get(d.key).and_then(Value::as_str).unwrap_or("");
            // A string may leave a value out, never name one the server does not send.
            let unknown: Vec<String> = placeholders(text)
                .into_iter()
                .filter(|p| !d.args.contains(&p.as_str()))
                .collect();
            assert!(
                unknown.is_empty(),
                "{lang}.json {} = {text:?} names {unknown:?}; the server sends {:?}",
                d.key,
                d.args
            );
            // Every message but the pass-through ones is worded, not just its values.
            let bare = placeholders(text)
                .iter()
                .fold(text.to_string(), |t, p| t.replace(&format!("{{{p}}}"), ""));
            if lang != "en" && !bare.trim().is_empty() {
                let han = bare.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
                assert!(han, "{lang}.json {} = {text:?} has no Chinese", d.key);
            }
        }
    }
}

#[test]
fn the_server_sends_no_message_the_catalogues_do_not_know_and_keys_are_listed_once() {
    let all = majiang_server::words::all();
    majiang::words::check_table(&all).unwrap();
    // The payment reasons are their own table (`reason.<key>`), checked above.
    let keys: BTreeSet<&str> = all.iter().map(|d| d.key).collect();
    assert_eq!(keys.len(), all.len());
    for prefix in [
        "illegal.", "refused.", "invalid.", "options.", "room.", "ws.", "config.", "api.",
        "ledger.",
    ] {
        assert!(
            keys.iter().any(|k| k.starts_with(prefix)),
            "no {prefix} message listed"
        );
    }
}

#[test]
fn every_house_rule_of_every_rule_set_is_described_in_every_catalogue() {
    let mut keys = Vec::new();
    for set in majiang::rules::RULE_SETS {
        let spec = set.spec();
        for o in spec.options {
            keys.push(format!("option.{}.{}", spec.name, o.key));
            if let majiang::rules::option_table::Allowed::OneOf { values } = o.allowed {
                keys.extend(values.iter().map(|v| format!("value.{v}")));
            }
        }
    }
    assert!(keys.len() > 10, "{keys:?}");
    for lang in LANGS {
        let cat = catalogue(lang);
        let missing: Vec<&String> = keys.iter().filter(|k| !cat.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{lang}.json describes no {missing:?}");
    }
}
