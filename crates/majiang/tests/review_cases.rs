//! Independent review cases for Hangzhou and Yangzhou scoring.
//!
//! The cases in `tests/data/{hangzhou,yangzhou}_review.json` were worked out by hand from the
//! seeds and `RULES.md` §2/§3 by a reviewer who had not read the implementation. Each file holds
//! `cases` (readings the reviewer is confident of; run here) and `disputed` (cases where the
//! rules are vague or the implementation reads them differently; kept with both readings, not
//! run). Only `valid`, `total` and `payments` are compared: pattern ids are the implementer's.

use majiang::rules::score;
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::collections::BTreeMap;

/// Net payments from the expected JSON, leaving out zero entries.
fn expected_payments(v: &Value) -> BTreeMap<String, i64> {
    v.as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, x)| x.as_i64().filter(|n| *n != 0).map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default()
}

fn run_file(text: &str) -> usize {
    let data: Value = serde_json::from_str(text).expect("review file is JSON");
    let cases = data["cases"].as_array().expect("a `cases` array");
    assert!(
        data["disputed"].is_array(),
        "a `disputed` array (documentation, not run)"
    );
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case name");
        let request = ScoreRequest::from_json(&case["request"].to_string())
            .unwrap_or_else(|e| panic!("{name}: request is malformed: {e}"));
        let expected = &case["expected"];
        let want_valid = expected["valid"].as_bool().expect("expected.valid");
        let outcome = score(&request).unwrap_or_else(|e| panic!("{name}: malformed: {e}"));
        match (outcome, want_valid) {
            (Err(_), false) => {}
            (Err(why), true) => failures.push(format!("{name}: refused ({why}), expected a win")),
            (Ok(s), false) => failures.push(format!(
                "{name}: scored {} {:?}, expected a refusal",
                s.total, s.payments
            )),
            (Ok(s), true) => {
                let want_total = expected["total"].as_i64().expect("expected.total");
                let got: BTreeMap<String, i64> = s
                    .payments
                    .iter()
                    .filter(|(_, n)| **n != 0)
                    .map(|(seat, n)| (seat.name().to_string(), *n))
                    .collect();
                let want = expected_payments(&expected["payments"]);
                if s.total != want_total || got != want {
                    failures.push(format!(
                        "{name}: got total {} {got:?}, expected {want_total} {want:?}",
                        s.total
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cases.len()
}

#[test]
fn hangzhou_review_cases() {
    let n = run_file(include_str!("data/hangzhou_review.json"));
    assert!(n >= 25, "only {n} Hangzhou review cases");
}

#[test]
fn yangzhou_review_cases() {
    let n = run_file(include_str!("data/yangzhou_review.json"));
    assert!(n >= 25, "only {n} Yangzhou review cases");
}
