//! Independent review cases for Hangzhou and Yangzhou scoring.
//!
//! The cases in `tests/data/{hangzhou,yangzhou}_review.json` were worked out by hand from the
//! seeds and `RULES.md` §2/§3 by a reviewer who had not read the implementation. Each file holds
//! `cases` (readings the reviewer is confident of; run here) and `disputed` (cases where the
//! rules are vague or the implementation reads them differently; kept with both readings, not
//! run). Only `valid`, `total` and `payments` are compared: pattern ids are the implementer's.

mod common;
use common::Compare;

fn run_file(text: &str) -> usize {
    let disputed = common::load(text, Some("disputed"));
    let cases = common::load(text, Some("cases"));
    common::assert_unique_names(&[cases.clone(), disputed].concat());
    common::check_all(&cases, Compare::Totals, common::answer);
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
