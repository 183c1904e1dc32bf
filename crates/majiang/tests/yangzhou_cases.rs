//! Every case of `tests/data/yangzhou_cases.json`, scored through the library.

use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::collections::BTreeMap;

fn cases() -> Vec<Value> {
    let text = include_str!("data/yangzhou_cases.json");
    serde_json::from_str(text).expect("the data file is a JSON array")
}

/// The pattern ids with their values, as a sorted map.
fn patterns(v: &Value) -> BTreeMap<String, i64> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p["id"].as_str().unwrap_or_default().to_string(),
                        p["value"].as_i64().unwrap_or(i64::MIN),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn data_file_has_enough_cases() {
    assert!(cases().len() >= 40, "{} cases", cases().len());
}

#[test]
fn every_case_matches() {
    let mut failures = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let request = ScoreRequest::from_json(&case["request"].to_string())
            .unwrap_or_else(|e| panic!("{name}: request does not parse: {e}"));
        let expected = &case["expected"];
        let outcome = rules::score(&request).unwrap_or_else(|e| panic!("{name}: malformed: {e}"));
        match (&outcome, expected["valid"].as_bool()) {
            (Err(_), Some(false)) => {}
            (Ok(s), Some(true)) => {
                let got: BTreeMap<String, i64> =
                    s.patterns.iter().map(|p| (p.id.clone(), p.value)).collect();
                let payments: BTreeMap<String, i64> = s
                    .payments
                    .iter()
                    .map(|(k, v)| (k.name().to_string(), *v))
                    .collect();
                let want_pay: BTreeMap<String, i64> =
                    serde_json::from_value(expected["payments"].clone()).expect("payments");
                if got != patterns(&expected["patterns"])
                    || Some(s.total) != expected["total"].as_i64()
                    || payments != want_pay
                {
                    failures.push(format!(
                        "{name}: got {got:?} total {} payments {payments:?}",
                        s.total
                    ));
                }
            }
            (o, _) => failures.push(format!("{name}: got {o:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
