//! Independent review of the Hong Kong scorer: the cases of `tests/data/hongkong_review.json`,
//! worked by hand from seeds 002/004 and `RULES.md` §4 without reading the implementation.
//!
//! Only `cases` run; they compare `valid`, `total` and `payments` (pattern ids are the
//! implementer's). The file's `disputed` array holds hands where the rules read two ways or the
//! implementation departs from the reviewer's reading; they are documented there and not run.

use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use serde_json::Value;
use std::collections::BTreeMap;

const DATA: &str = include_str!("data/hongkong_review.json");

fn review() -> Value {
    serde_json::from_str(DATA).expect("hongkong_review.json is a JSON object")
}

fn section(name: &str) -> Vec<Value> {
    review()[name]
        .as_array()
        .unwrap_or_else(|| panic!("hongkong_review.json has a {name:?} array"))
        .clone()
}

#[test]
fn the_review_has_enough_cases_and_keeps_disputes_apart() {
    let cases = section("cases");
    let disputed = section("disputed");
    assert!(cases.len() >= 40, "{} cases", cases.len());
    for d in &disputed {
        let name = d["name"].as_str().expect("disputed name");
        assert!(
            cases.iter().all(|c| c["name"].as_str() != Some(name)),
            "{name} is both run and disputed"
        );
        for key in [
            "rule",
            "request",
            "reviewer_reading",
            "implementation_answer",
            "verdict",
        ] {
            assert!(!d[key].is_null(), "disputed {name} lacks {key}");
        }
    }
}

#[test]
fn every_review_case_scores_as_worked_by_hand() {
    let mut failures = Vec::new();
    for case in section("cases") {
        let name = case["name"].as_str().expect("name");
        let text = case["request"].to_string();
        let request = match ScoreRequest::from_json(&text) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: request does not read: {e}"));
                continue;
            }
        };
        let outcome = match rules::score(&request) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: options do not read: {e}"));
                continue;
            }
        };
        let expected = &case["expected"];
        let want_valid = expected["valid"].as_bool().expect("valid");
        match (outcome, want_valid) {
            (Err(reason), true) => failures.push(format!("{name}: refused ({reason})")),
            (Ok(s), false) => failures.push(format!("{name}: accepted with total {}", s.total)),
            (Err(_), false) => {}
            (Ok(s), true) => {
                let want_total = expected["total"].as_i64().expect("total");
                if s.total != want_total {
                    failures.push(format!("{name}: total {} (want {want_total})", s.total));
                }
                let got: BTreeMap<String, i64> = s
                    .payments
                    .iter()
                    .map(|(seat, v)| (seat.name().to_string(), *v))
                    .collect();
                let want: BTreeMap<String, i64> =
                    serde_json::from_value(expected["payments"].clone()).expect("payments");
                if got != want {
                    failures.push(format!("{name}: payments {got:?} (want {want:?})"));
                }
                if want.values().sum::<i64>() != 0 {
                    failures.push(format!("{name}: expected payments do not sum to zero"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
