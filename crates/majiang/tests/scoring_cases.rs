//! Every hand-worked case file of `tests/data/`, one test per file, scored through the library
//! by the one runner of `tests/common/` ([`majiang_testkit::cases::check_case_file`]).
//!
//! The rule sets' own files (`*_cases.json`) compare validity, total, payments and the scored
//! patterns, and together cover every pattern of the rule set's table. The review files
//! (`*_review.json`) were worked by hand from the rules (`docs/rules/<set>.md`) by a reviewer
//! who had not read the implementation: only their `cases` run, compared on validity, total
//! and payments (pattern ids are the implementer's); their `disputed` entries, where the rules
//! read two ways or the implementation departs from the reviewer's reading, are documented
//! there and not run.

use majiang::rules::{classic, hangzhou, hongkong, yangzhou};
use majiang_testkit::cases::{CaseFile, Compare, check_case_file};

/// A rule set's own case file: everything compared, every pattern of `patterns` covered.
fn rule_set_file(file: &'static str, min_cases: usize, patterns: Vec<&'static str>) -> CaseFile {
    CaseFile {
        file,
        min_cases,
        compare: Compare::Everything,
        patterns,
        section: None,
        disputed_keys: &[],
    }
}

/// An independent review file: its `cases` run on totals; its disputes carry `disputed_keys`.
fn review_file(
    file: &'static str,
    min_cases: usize,
    disputed_keys: &'static [&'static str],
) -> CaseFile {
    CaseFile {
        file,
        min_cases,
        compare: Compare::Totals,
        patterns: Vec::new(),
        section: Some("cases"),
        disputed_keys,
    }
}

/// What a Hangzhou or Yangzhou reviewer records of a dispute.
const DISPUTE: &[&str] = &["request", "readings", "implementation", "verdict", "why"];

#[test]
fn hongkong_cases() {
    let ids = hongkong::PATTERNS.iter().map(|p| p.id).collect();
    check_case_file(&rule_set_file("hongkong_cases.json", 60, ids));
}

#[test]
fn hangzhou_cases() {
    let ids = hangzhou::PATTERNS.iter().map(|p| p.id).collect();
    check_case_file(&rule_set_file("hangzhou_cases.json", 50, ids));
}

#[test]
fn yangzhou_cases() {
    let ids = yangzhou::PATTERNS.iter().map(|p| p.id).collect();
    check_case_file(&rule_set_file("yangzhou_cases.json", 40, ids));
}

#[test]
fn classic_cases() {
    let ids = classic::PATTERNS.iter().map(|p| p.id).collect();
    check_case_file(&rule_set_file("classic_cases.json", 30, ids));
}

#[test]
fn hongkong_review() {
    let keys = &[
        "rule",
        "request",
        "reviewer_reading",
        "implementation_answer",
        "verdict",
    ];
    check_case_file(&review_file("hongkong_review.json", 40, keys));
}

#[test]
fn hangzhou_review() {
    check_case_file(&review_file("hangzhou_review.json", 25, DISPUTE));
}

#[test]
fn yangzhou_review() {
    check_case_file(&review_file("yangzhou_review.json", 25, DISPUTE));
}
