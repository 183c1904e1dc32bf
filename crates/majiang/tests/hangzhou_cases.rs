//! Every hand-worked case of `tests/data/hangzhou_cases.json`, scored through the library.

use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn cases() -> Vec<Value> {
    let text = include_str!("data/hangzhou_cases.json");
    serde_json::from_str::<Vec<Value>>(text).expect("the data file is a JSON array")
}

/// The library's answer in the CLI's JSON shape.
fn answer(request: &Value) -> Value {
    let req = ScoreRequest::from_json(&request.to_string())
        .unwrap_or_else(|e| panic!("malformed request {request}: {e}"));
    match rules::score(&req).unwrap_or_else(|e| panic!("malformed options {request}: {e}")) {
        Ok(s) => json!({
            "valid": true,
            "patterns": s.patterns,
            "total": s.total,
            "payments": s.payments.iter().map(|(k, v)| (k.name().to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
        }),
        Err(why) => {
            assert!(!why.0.is_empty(), "an invalid win needs a reason");
            json!({"valid": false, "reason": why.0})
        }
    }
}

fn pattern_set(v: &Value) -> BTreeSet<(String, i64)> {
    v["patterns"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p["id"].as_str().unwrap_or_default().to_string(),
                        p["value"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Compares `valid`, and for valid wins `total`, `payments` and the set of (id, value).
pub fn check(name: &str, expected: &Value, got: &Value) -> Result<(), String> {
    if expected["valid"] != got["valid"] {
        return Err(format!(
            "{name}: valid {} != {}: {got}",
            got["valid"], expected["valid"]
        ));
    }
    if expected["valid"] == json!(false) {
        return Ok(());
    }
    for field in ["total", "payments"] {
        if expected[field] != got[field] {
            return Err(format!(
                "{name}: {field} {} != expected {}",
                got[field], expected[field]
            ));
        }
    }
    if pattern_set(expected) != pattern_set(got) {
        return Err(format!(
            "{name}: patterns {:?} != expected {:?}",
            pattern_set(got),
            pattern_set(expected)
        ));
    }
    Ok(())
}

#[test]
fn at_least_fifty_cases_with_unique_names() {
    let cs = cases();
    assert!(cs.len() >= 50, "{} cases", cs.len());
    let names: BTreeSet<_> = cs.iter().map(|c| c["name"].to_string()).collect();
    assert_eq!(names.len(), cs.len());
    assert!(cs.iter().any(|c| c["expected"]["valid"] == json!(false)));
}

#[test]
fn every_case_scores_as_worked_by_hand() {
    let mut failures = Vec::new();
    for c in cases() {
        let name = c["name"].as_str().unwrap_or("?");
        let got = answer(&c["request"]);
        if let Err(e) = check(name, &c["expected"], &got) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_pattern_is_covered_by_a_case() {
    let seen: BTreeSet<String> = cases()
        .iter()
        .flat_map(|c| pattern_set(&c["expected"]))
        .map(|(id, _)| id)
        .collect();
    for p in majiang::rules::hangzhou::PATTERNS {
        assert!(seen.contains(p.id), "no case scores {}", p.id);
    }
}
