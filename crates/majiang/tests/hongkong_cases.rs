//! The hand-worked Hong Kong cases of `tests/data/hongkong_cases.json`, through the library.

mod common;
use common::Compare;

fn cases() -> Vec<serde_json::Value> {
    common::load(include_str!("data/hongkong_cases.json"), None)
}

#[test]
fn there_are_at_least_sixty_named_cases() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    common::assert_unique_names(&cases);
}

#[test]
fn every_case_scores_as_worked_by_hand() {
    common::check_all(&cases(), Compare::Everything, common::answer);
}

#[test]
fn every_pattern_is_covered_by_a_case() {
    common::assert_every_pattern_covered(
        &cases(),
        majiang::rules::hongkong::PATTERNS.iter().map(|p| p.id),
    );
}
