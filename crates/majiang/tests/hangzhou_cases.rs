//! Every hand-worked case of `tests/data/hangzhou_cases.json`, scored through the library.

mod common;
use common::Compare;

fn cases() -> Vec<serde_json::Value> {
    common::load(include_str!("data/hangzhou_cases.json"), None)
}

#[test]
fn at_least_fifty_cases_with_unique_names() {
    let cs = cases();
    assert!(cs.len() >= 50, "{} cases", cs.len());
    common::assert_unique_names(&cs);
    assert!(cs.iter().any(|c| c["expected"]["valid"] == false));
}

#[test]
fn every_case_scores_as_worked_by_hand() {
    common::check_all(&cases(), Compare::Everything, common::answer);
}

#[test]
fn every_pattern_is_covered_by_a_case() {
    common::assert_every_pattern_covered(
        &cases(),
        majiang::rules::hangzhou::PATTERNS.iter().map(|p| p.id),
    );
}
