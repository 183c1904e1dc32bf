//! Independent review of the Hong Kong scorer: the cases of `tests/data/hongkong_review.json`,
//! worked by hand from seeds 002/004 and `RULES.md` §4 without reading the implementation.
//!
//! Only `cases` run; they compare `valid`, `total` and `payments` (pattern ids are the
//! implementer's). The file's `disputed` array holds hands where the rules read two ways or the
//! implementation departs from the reviewer's reading; they are documented there and not run.

mod common;
use common::Compare;
use serde_json::Value;

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
    let cases = section("cases");
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let sum: i64 = common::payments(&case["expected"]).values().sum();
        assert_eq!(sum, 0, "{name}: expected payments do not sum to zero");
    }
    common::check_all(&cases, Compare::Totals, common::answer);
}
