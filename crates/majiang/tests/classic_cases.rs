//! Every hand-worked case of `tests/data/classic_cases.json`, scored through the library.

use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::collections::BTreeMap;

fn cases() -> Vec<Value> {
    let text = include_str!("data/classic_cases.json");
    match serde_json::from_str(text) {
        Ok(Value::Array(cases)) => cases,
        other => panic!("classic_cases.json is not an array: {other:?}"),
    }
}

fn pattern_set(patterns: &Value) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = patterns
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
    v.sort();
    v
}

#[test]
fn at_least_thirty_cases() {
    assert!(cases().len() >= 30);
}

#[test]
fn every_case_scores_as_worked_by_hand() {
    let mut failures = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let request = ScoreRequest::from_json(&case["request"].to_string())
            .unwrap_or_else(|e| panic!("{name}: malformed request: {e}"));
        let outcome = rules::score(&request).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = &case["expected"];
        match (expected["valid"].as_bool(), outcome) {
            (Some(false), Err(_)) => {}
            (Some(false), Ok(s)) => failures.push(format!("{name}: expected invalid, got {s:?}")),
            (Some(true), Err(e)) => failures.push(format!("{name}: expected valid, got {e}")),
            (Some(true), Ok(s)) => {
                let got_patterns: Vec<(String, i64)> = {
                    let mut v: Vec<_> =
                        s.patterns.iter().map(|p| (p.id.clone(), p.value)).collect();
                    v.sort();
                    v
                };
                if got_patterns != pattern_set(&expected["patterns"]) {
                    failures.push(format!(
                        "{name}: patterns {got_patterns:?} != {}",
                        expected["patterns"]
                    ));
                }
                if Some(s.total) != expected["total"].as_i64() {
                    failures.push(format!(
                        "{name}: total {} != {}",
                        s.total, expected["total"]
                    ));
                }
                let got: BTreeMap<String, i64> = s
                    .payments
                    .iter()
                    .map(|(k, v)| (k.name().to_string(), *v))
                    .collect();
                let want: BTreeMap<String, i64> =
                    serde_json::from_value(expected["payments"].clone()).expect("payments");
                if got != want {
                    failures.push(format!("{name}: payments {got:?} != {want:?}"));
                }
            }
            (None, _) => failures.push(format!("{name}: expected.valid missing")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
