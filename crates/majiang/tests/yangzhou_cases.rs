//! Every case of `tests/data/yangzhou_cases.json`, scored through the library.

mod common;
use common::Compare;

fn cases() -> Vec<serde_json::Value> {
    common::load(include_str!("data/yangzhou_cases.json"), None)
}

#[test]
fn data_file_has_enough_named_cases() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
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
        majiang::rules::yangzhou::PATTERNS.iter().map(|p| p.id),
    );
}
