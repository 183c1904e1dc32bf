//! The hand-worked Hong Kong cases of `tests/data/hongkong_cases.json`, through the library.

use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::collections::BTreeMap;

const DATA: &str = include_str!("data/hongkong_cases.json");

fn cases() -> Vec<Value> {
    serde_json::from_str::<Vec<Value>>(DATA).expect("hongkong_cases.json is a JSON array")
}

/// `(id, value)` pairs of an answer's or an expectation's patterns, sorted.
fn pattern_set(patterns: &Value) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = patterns
        .as_array()
        .expect("patterns array")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().expect("id").to_string(),
                p["value"].as_i64().expect("value"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn there_are_at_least_sixty_cases() {
    assert!(cases().len() >= 60, "{} cases", cases().len());
}

#[test]
fn every_case_scores_as_worked_by_hand() {
    let mut failures = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let text = case["request"].to_string();
        let request = ScoreRequest::from_json(&text)
            .unwrap_or_else(|e| panic!("{name}: request does not read: {e}"));
        let outcome =
            rules::score(&request).unwrap_or_else(|e| panic!("{name}: options do not read: {e}"));
        let expected = &case["expected"];
        let want_valid = expected["valid"].as_bool().expect("valid");
        match (&outcome, want_valid) {
            (Err(reason), true) => failures.push(format!("{name}: invalid ({reason})")),
            (Ok(s), false) => failures.push(format!("{name}: valid with {s:?}")),
            (Err(_), false) => {}
            (Ok(s), true) => {
                let got_patterns: Vec<(String, i64)> = {
                    let mut v: Vec<_> =
                        s.patterns.iter().map(|p| (p.id.clone(), p.value)).collect();
                    v.sort();
                    v
                };
                if got_patterns != pattern_set(&expected["patterns"]) {
                    failures.push(format!("{name}: patterns {got_patterns:?}"));
                }
                if Some(s.total) != expected["total"].as_i64() {
                    failures.push(format!("{name}: total {}", s.total));
                }
                let got_pay: BTreeMap<String, i64> = s
                    .payments
                    .iter()
                    .map(|(seat, v)| (seat.name().to_string(), *v))
                    .collect();
                let want_pay: BTreeMap<String, i64> =
                    serde_json::from_value(expected["payments"].clone()).expect("payments");
                if got_pay != want_pay {
                    failures.push(format!("{name}: payments {got_pay:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
